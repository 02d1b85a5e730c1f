//! Collections of documents on disk, for the reference model and for collection mode.
//!
//! A path is a file or a folder (walked recursively, hidden entries skipped, in sorted order). A
//! file holds one document, except two container formats that hold many:
//! - WikiExtractor output: `<doc id=".." url=".." title="..">` ... `</doc>`, one article each,
//!   paragraphs one per line (the title is the first line);
//! - Reuters-21578 SGML: `<REUTERS ... NEWID="n">` stories with `<TITLE>` and `<BODY>`, whose
//!   paragraphs start with an indented line.
//!
//! Both are turned into plain text with blank lines between paragraphs, so every entry can go
//! through the ordinary plain-text front end. Packaged documents (DOCX, ODT, PDF, EPUB,
//! recognised by content) are read with their own structure when the file is read.

use std::path::{Path, PathBuf};

use crate::document::{self, Document, LoadError, LoadOptions, SourceFormat, decode};

/// One document of a collection.
#[derive(Clone, Debug, PartialEq)]
pub struct CorpusEntry {
    /// How the entry is named in reports: the file path, plus `#id` inside container files.
    pub name: String,
    /// The file the entry came from.
    pub source: PathBuf,
    /// The entry's text; for a packaged document, the text extracted from it.
    pub text: String,
    pub format: SourceFormat,
    /// The encoding the file was decoded from ("UTF-8", or "windows-1252" for bytes that are not
    /// valid UTF-8 and declare nothing else): lets a front end report such files per document.
    pub encoding: &'static str,
    /// A packaged document, already read with its own structure (its hierarchy cannot be
    /// rebuilt from `text`).
    pub parsed: Option<Document>,
}

impl CorpusEntry {
    /// Parses the entry into a document (hierarchy and sentences).
    pub fn to_document(&self) -> Document {
        match &self.parsed {
            Some(doc) => doc.clone(),
            None => document::parse_text(&self.text, &self.name, self.format),
        }
    }

    /// [`CorpusEntry::to_document`] without copying an already parsed document.
    pub fn into_document(self) -> Document {
        match self.parsed {
            Some(doc) => doc,
            None => document::parse_text(&self.text, &self.name, self.format),
        }
    }
}

/// Every file under `paths` (files given directly are kept as they are), sorted, without
/// hidden files or folders. A path that does not exist is an error naming it.
pub fn list_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, LoadError> {
    Ok(walk(paths)?.files)
}

/// What walking folders found: the files, and the hidden entries (names starting with a dot)
/// left out, a hidden folder as itself (it is not walked into).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Listing {
    pub files: Vec<PathBuf>,
    pub hidden: Vec<PathBuf>,
}

/// [`list_files`], with the hidden entries it leaves out.
pub fn walk(paths: &[PathBuf]) -> Result<Listing, LoadError> {
    let mut files = Vec::new();
    let mut hidden = Vec::new();
    for path in paths {
        let metadata = std::fs::metadata(path).map_err(|source| LoadError::Io {
            path: path.clone(),
            error: source,
        })?;
        if !metadata.is_dir() {
            files.push(path.clone());
            continue;
        }
        let mut pending = vec![path.clone()];
        let mut found = Vec::new();
        while let Some(dir) = pending.pop() {
            let entries = std::fs::read_dir(&dir).map_err(|source| LoadError::Io {
                path: dir.clone(),
                error: source,
            })?;
            for entry in entries {
                let entry = entry.map_err(|source| LoadError::Io {
                    path: dir.clone(),
                    error: source,
                })?;
                if entry.file_name().to_string_lossy().starts_with('.') {
                    hidden.push(entry.path());
                    continue;
                }
                let path = entry.path();
                match entry.file_type() {
                    Ok(t) if t.is_dir() => pending.push(path),
                    Ok(_) => found.push(path),
                    Err(source) => {
                        return Err(LoadError::Io {
                            path,
                            error: source,
                        });
                    }
                }
            }
        }
        found.sort();
        files.extend(found);
    }
    hidden.sort();
    Ok(Listing { files, hidden })
}

/// Reads one file into its entries (one, or many for container formats).
pub fn read_entries(path: &Path, options: &LoadOptions) -> Result<Vec<CorpusEntry>, LoadError> {
    let bytes = document::read_file(path, options)?;
    entries_from_bytes(&bytes, path, options)
}

/// Splits the bytes of one file (named by `path`, which is not read) into its entries.
pub fn entries_from_bytes(
    bytes: &[u8],
    path: &Path,
    options: &LoadOptions,
) -> Result<Vec<CorpusEntry>, LoadError> {
    let claimed = options
        .format
        .or_else(|| document::format_from_extension(path));
    if let Some(format) = document::formats::recognise(bytes, path, claimed)? {
        let doc = document::formats::parse(bytes, path, format)?;
        return Ok(vec![CorpusEntry {
            name: path.display().to_string(),
            source: path.to_path_buf(),
            text: doc.text.clone(),
            format,
            // Packaged formats carry Unicode text of their own (XML parts in UTF-8, PDF text
            // decoded through its fonts): nothing was guessed.
            encoding: "UTF-8",
            parsed: Some(doc),
        }]);
    }
    let decoded = decode::decode(bytes, true).map_err(|_| LoadError::Binary {
        path: path.to_path_buf(),
    })?;
    let text = decoded.text;
    let encoding = decoded.encoding;
    let head = text.trim_start();
    let name = path.display().to_string();
    if head.starts_with("<doc ") {
        return Ok(wikiextractor_entries(&text, path, encoding));
    }
    if head.starts_with("<!DOCTYPE lewis") || head.starts_with("<REUTERS") {
        return Ok(reuters_entries(&text, path, encoding));
    }
    let format = options.format.unwrap_or_else(|| {
        let html_ext = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "html" | "htm" | "xhtml"));
        if html_ext || document::sniff_html(text.as_bytes()) {
            SourceFormat::Html
        } else {
            SourceFormat::Text
        }
    });
    Ok(vec![CorpusEntry {
        name,
        source: path.to_path_buf(),
        text,
        format,
        encoding,
        parsed: None,
    }])
}

/// The value of `attr="..."` inside a tag's text.
fn attribute<'a>(tag: &'a str, attr: &str) -> Option<&'a str> {
    let key = format!("{attr}=\"");
    let start = tag.find(&key)? + key.len();
    let end = tag[start..].find('"')? + start;
    Some(&tag[start..end])
}

fn wikiextractor_entries(text: &str, path: &Path, encoding: &'static str) -> Vec<CorpusEntry> {
    let mut entries = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("<doc ") {
        let Some(tag_end) = rest[open..].find('>').map(|e| open + e) else {
            break;
        };
        let tag = &rest[open..tag_end];
        let body_start = tag_end + 1;
        let body_end = rest[body_start..]
            .find("</doc>")
            .map_or(rest.len(), |e| body_start + e);
        let body = &rest[body_start..body_end];
        let id = attribute(tag, "id").unwrap_or("?");
        let paragraphs: Vec<&str> = body
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        if !paragraphs.is_empty() {
            entries.push(CorpusEntry {
                name: format!("{}#{id}", path.display()),
                source: path.to_path_buf(),
                text: paragraphs.join("\n\n"),
                format: SourceFormat::Text,
                encoding,
                parsed: None,
            });
        }
        rest = &rest[(body_end + "</doc>".len()).min(rest.len())..];
    }
    entries
}

/// Replaces the SGML character references of Reuters-21578 (`&lt;`, `&gt;`, `&amp;`, `&#N;`);
/// control characters from numeric references are dropped.
fn unescape_sgml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp..];
        let end = after.find(';').filter(|&e| e <= 8);
        let replacement = end.and_then(|e| match &after[1..e] {
            "lt" => Some(Some('<')),
            "gt" => Some(Some('>')),
            "amp" => Some(Some('&')),
            "quot" => Some(Some('"')),
            num if num.starts_with('#') => num[1..]
                .parse::<u32>()
                .ok()
                .map(|n| char::from_u32(n).filter(|c| !c.is_control())),
            _ => None,
        });
        match (end, replacement) {
            (Some(e), Some(c)) => {
                if let Some(c) = c {
                    out.push(c);
                }
                rest = &after[e + 1..];
            }
            _ => {
                out.push('&');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let end = text[start..].find(close)? + start;
    Some(&text[start..end])
}

fn reuters_entries(text: &str, path: &Path, encoding: &'static str) -> Vec<CorpusEntry> {
    let mut entries = Vec::new();
    for story in text.split("<REUTERS").skip(1) {
        let story = story.split("</REUTERS>").next().unwrap_or(story);
        let tag_end = story.find('>').unwrap_or(0);
        let id = attribute(&story[..tag_end], "NEWID").unwrap_or("?");
        let title = between(story, "<TITLE>", "</TITLE>").map(unescape_sgml);
        let body = between(story, "<BODY>", "</BODY>").map(unescape_sgml);
        let mut paragraphs: Vec<String> = Vec::new();
        if let Some(title) = title.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
            paragraphs.push(title.to_string());
        }
        if let Some(body) = body {
            let mut current = String::new();
            for line in body.lines() {
                if line.starts_with([' ', '\t']) && !current.is_empty() {
                    paragraphs.push(std::mem::take(&mut current));
                }
                let line = line.trim();
                if !line.is_empty() {
                    if !current.is_empty() {
                        current.push(' ');
                    }
                    current.push_str(line);
                }
            }
            // The wire's sign-off is not content.
            let signoff = current.trim_end().trim_end_matches("Reuter").trim_end();
            if !signoff.is_empty() {
                paragraphs.push(signoff.to_string());
            }
        }
        if !paragraphs.is_empty() {
            entries.push(CorpusEntry {
                name: format!("{}#{id}", path.display()),
                source: path.to_path_buf(),
                text: paragraphs.join("\n\n"),
                format: SourceFormat::Text,
                encoding,
                parsed: None,
            });
        }
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wikiextractor_articles_become_entries() {
        let text = "<doc id=\"12\" url=\"u\" title=\"Anarchism\">\nAnarchism\n\nAnarchism is a \
                    philosophy.\nIt has a history.\n</doc>\n<doc id=\"25\" url=\"u\" title=\"A\">\nA\n\
                    Second.\n</doc>\n";
        let entries = wikiextractor_entries(text, Path::new("wiki_00"), "UTF-8");
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].name, "wiki_00#12");
        assert_eq!(
            entries[0].text,
            "Anarchism\n\nAnarchism is a philosophy.\n\nIt has a history."
        );
        let doc = entries[0].to_document();
        assert_eq!(doc.title, "Anarchism");
        assert_eq!(doc.sentences.len(), 3);
    }

    #[test]
    fn reuters_stories_become_entries() {
        let text = "<!DOCTYPE lewis SYSTEM \"lewis.dtd\">\n<REUTERS TOPICS=\"YES\" NEWID=\"1\">\n\
            <TEXT>&#2;\n<TITLE>BAHIA COCOA &lt;REVIEW&gt;</TITLE>\n<BODY>Showers continued in\nthe zone.\n    \
            The dry period means late.\n Reuter\n&#3;</BODY></TEXT>\n</REUTERS>\n\
            <REUTERS NEWID=\"2\"><TEXT TYPE=\"BRIEF\"><TITLE>BRIEF ONLY</TITLE></TEXT></REUTERS>";
        let entries = reuters_entries(text, Path::new("reut2-000.sgm"), "UTF-8");
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].name, "reut2-000.sgm#1");
        assert_eq!(
            entries[0].text,
            "BAHIA COCOA <REVIEW>\n\nShowers continued in the zone.\n\nThe dry period means late."
        );
        assert_eq!(entries[1].text, "BRIEF ONLY");
    }

    #[test]
    fn sgml_references_are_unescaped() {
        assert_eq!(
            unescape_sgml("a &amp; b &#3;&lt;c&gt; & d"),
            "a & b <c> & d"
        );
    }
}
