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
    /// What decoding noticed ([`decode::Decoded::warning`]: damaged UTF-8 bytes replaced),
    /// carried into the document's warnings.
    pub warning: Option<String>,
    /// A packaged document, already read with its own structure (its hierarchy cannot be
    /// rebuilt from `text`).
    pub parsed: Option<Document>,
}

impl CorpusEntry {
    /// Parses the entry into a document (hierarchy and sentences).
    pub fn to_document(&self) -> Document {
        match &self.parsed {
            Some(doc) => doc.clone(),
            None => self.parse(),
        }
    }

    /// [`CorpusEntry::to_document`] without copying an already parsed document.
    pub fn into_document(self) -> Document {
        match self.parsed {
            Some(doc) => doc,
            None => self.parse(),
        }
    }

    fn parse(&self) -> Document {
        let _permit = document::budget::reserve(self.text.len() as u64);
        let mut doc = document::parse_text(&self.text, &self.name, self.format);
        doc.warnings.extend(self.warning.clone());
        doc
    }
}

/// Every file under `paths` (files given directly are kept as they are), sorted, without
/// hidden files or folders, without following symbolic links out of a folder. A path that does
/// not exist is an error naming it; a folder inside that cannot be read is left out.
pub fn list_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, LoadError> {
    Ok(walk(paths, false)?.files)
}

/// What walking folders found: the files, and what was left out.
#[derive(Debug, Default)]
pub struct Listing {
    pub files: Vec<PathBuf>,
    /// Hidden entries (names starting with a dot), a hidden folder as itself (it is not walked
    /// into).
    pub hidden: Vec<PathBuf>,
    /// Symbolic links not followed, with why.
    pub links: Vec<(PathBuf, LinkSkip)>,
    /// Folders (or entries) that could not be read, as errors naming them: the walk goes on
    /// without them, as a collection goes on without a file it cannot read.
    pub unreadable: Vec<LoadError>,
}

/// Why a symbolic link found in a folder was not followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkSkip {
    /// It leads out of the folder walked (`--follow` follows it).
    LeavesFolder,
    /// It leads to a folder (`--follow` walks it).
    ToFolder,
    /// It leads nowhere.
    Broken,
}

/// Walks `paths` (see [`Listing`]). A folder's symbolic links are followed only with `follow`
/// (loops are then found and left out); without it, a link to a file inside the folder walked
/// is read, and a link leading out of it (a system file, another user's folder) or to a folder
/// is listed as not followed. Files named in `paths` are always kept.
pub fn walk(paths: &[PathBuf], follow: bool) -> Result<Listing, LoadError> {
    let mut listing = Listing::default();
    for path in paths {
        let metadata = std::fs::metadata(path).map_err(|source| LoadError::Io {
            path: path.clone(),
            error: source,
        })?;
        if !metadata.is_dir() {
            listing.files.push(path.clone());
            continue;
        }
        // The folder given must be readable: an unreadable one is the user's error to see.
        std::fs::read_dir(path).map_err(|source| LoadError::Io {
            path: path.clone(),
            error: source,
        })?;
        let root = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        let mut found = Vec::new();
        let mut entries = walkdir::WalkDir::new(path)
            .follow_links(follow)
            .min_depth(1)
            .sort_by_file_name()
            .into_iter();
        while let Some(entry) = entries.next() {
            let entry = match entry {
                Ok(entry) => entry,
                Err(error) => {
                    listing.unreadable.push(walk_error(path, error));
                    continue;
                }
            };
            let file_type = entry.file_type();
            if entry.file_name().to_string_lossy().starts_with('.') {
                if file_type.is_dir() {
                    entries.skip_current_dir();
                }
                listing.hidden.push(entry.into_path());
                continue;
            }
            if file_type.is_dir() {
                continue;
            }
            if file_type.is_symlink() {
                match link_target(entry.path(), &root) {
                    Some(LinkTarget::FileInside) => found.push(entry.into_path()),
                    Some(LinkTarget::Skip(why)) => listing.links.push((entry.into_path(), why)),
                    None => listing.links.push((entry.into_path(), LinkSkip::Broken)),
                }
                continue;
            }
            found.push(entry.into_path());
        }
        found.sort();
        listing.files.extend(found);
    }
    listing.hidden.sort();
    listing.links.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(listing)
}

/// Where a symbolic link met without `--follow` leads.
enum LinkTarget {
    FileInside,
    Skip(LinkSkip),
}

fn link_target(link: &Path, root: &Path) -> Option<LinkTarget> {
    let target = std::fs::canonicalize(link).ok()?;
    let metadata = std::fs::metadata(&target).ok()?;
    Some(if !target.starts_with(root) {
        LinkTarget::Skip(LinkSkip::LeavesFolder)
    } else if metadata.is_dir() {
        LinkTarget::Skip(LinkSkip::ToFolder)
    } else {
        LinkTarget::FileInside
    })
}

/// A walk error as a [`LoadError`] naming the folder or entry (a loop of links, with
/// `--follow`, names the link).
fn walk_error(root: &Path, error: walkdir::Error) -> LoadError {
    let path = error.path().unwrap_or(root).to_path_buf();
    let loop_at = error.loop_ancestor().map(Path::to_path_buf);
    let error = match (loop_at, error.into_io_error()) {
        (Some(ancestor), _) => std::io::Error::other(format!(
            "a symbolic link back to {} (a loop)",
            crate::escape::path(&ancestor)
        )),
        (None, Some(io)) => io,
        (None, None) => std::io::Error::other("cannot be walked"),
    };
    LoadError::Io { path, error }
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
    let _permit = document::budget::reserve(document::budget::weight_of(bytes));
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
            warning: None,
            parsed: Some(doc),
        }]);
    }
    let decoded = decode::decode(bytes, true).map_err(|_| LoadError::Binary {
        path: path.to_path_buf(),
    })?;
    let warning = decoded.warning();
    let text = decoded.text;
    let encoding = decoded.encoding;
    let head = text.trim_start();
    let name = path.display().to_string();
    // A container's damaged bytes are reported once, for the file, not for each entry.
    if head.starts_with("<doc ") {
        return Ok(with_warning(
            wikiextractor_entries(&text, path, encoding),
            warning,
        ));
    }
    if head.starts_with("<!DOCTYPE lewis") || head.starts_with("<REUTERS") {
        return Ok(with_warning(
            reuters_entries(&text, path, encoding),
            warning,
        ));
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
        warning,
        parsed: None,
    }])
}

/// The entries of one file, the first carrying the file's decoding warning.
fn with_warning(mut entries: Vec<CorpusEntry>, warning: Option<String>) -> Vec<CorpusEntry> {
    if let Some(first) = entries.first_mut() {
        first.warning = warning;
    }
    entries
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
                warning: None,
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
                warning: None,
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
