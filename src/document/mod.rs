//! Bytes to [`Document`]: decoding, HTML or plain text to a semantic hierarchy, sentences.
//!
//! - [`decode`]: which encoding, and whether the bytes are text at all;
//! - [`html`] and [`plain`]: the two text front ends, which describe structure to the
//!   [`builder::HierarchyBuilder`];
//! - [`formats`]: the packaged formats (DOCX, ODT, PDF, EPUB), recognised by their magic bytes,
//!   which describe their own structure to the same builder;
//! - [`sentences`]: the sentence splitter;
//! - [`tree`]: the resulting arena of nodes and sentences;
//! - [`worker`]: reading a PDF in a worker process with limits on its time and memory;
//! - [`budget`]: one budget of input bytes for all the documents parsed at once.
//!
//! [`load`] is the entry point: a path in, a document or a [`LoadError`] that names the file and
//! the problem out. Nothing here panics on any input.

pub(crate) mod budget;
pub mod builder;
pub mod decode;
pub mod exclusions;
pub(crate) mod formats;
pub(crate) mod html;
pub(crate) mod nesting;
pub mod offsets;
pub(crate) mod plain;
pub mod sentences;
pub(crate) mod tree;
pub mod worker;

use std::path::{Path, PathBuf};

pub use tree::{Document, Node, NodeId, NodeKind, Sentence, SourceFormat};

/// Limits and choices for loading a document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadOptions {
    /// Files larger than this are refused before being read (default 64 MiB).
    pub max_bytes: u64,
    /// Force a format instead of recognising it from the extension and content.
    pub format: Option<SourceFormat>,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            max_bytes: 64 * 1024 * 1024,
            format: None,
        }
    }
}

/// Why a document could not be loaded. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The cause is part of the message (not a separate `source`), so that every way of
    /// printing the error names it exactly once. Paths and the parts of messages that come
    /// from the file are escaped for the terminal ([`crate::escape`]).
    #[error("{}: cannot read: {error}", crate::escape::path(path))]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{}: is a directory, not a file", crate::escape::path(path))]
    Directory { path: PathBuf },
    /// A FIFO, a device or a socket: refused before reading (it could block or never end).
    #[error("{}: is {}, not a regular file", crate::escape::path(path), kind.described())]
    NotRegular {
        path: PathBuf,
        kind: crate::read::SpecialFile,
    },
    #[error(
        "{}: is {size} bytes, over the {limit}-byte limit",
        crate::escape::path(path)
    )]
    TooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
    #[error(
        "{}: is not a text or HTML file (it looks binary)",
        crate::escape::path(path)
    )]
    Binary { path: PathBuf },
    #[error("{}: holds no readable text", crate::escape::path(path))]
    NoText { path: PathBuf },
    /// A DOCX, ODT, EPUB or PDF file whose container or syntax is broken.
    #[error("{}: is not a readable {format} file: {}", crate::escape::path(path), crate::escape::terminal(problem), format = format.name())]
    Corrupt {
        path: PathBuf,
        format: SourceFormat,
        problem: String,
    },
    /// A container that lacks a part the format requires (a DOCX without `word/document.xml`).
    #[error("{}: is not a complete {format} file: it has no {}", crate::escape::path(path), crate::escape::terminal(part), format = format.name())]
    MissingPart {
        path: PathBuf,
        format: SourceFormat,
        part: String,
    },
    #[error(
        "{}: is password-protected (encrypted); save an unprotected copy to open it",
        crate::escape::path(path)
    )]
    Encrypted { path: PathBuf },
    #[error(
        "{}: is a PDF without a text layer (no text on {}: a scan?); run it through OCR first",
        crate::escape::path(path),
        if *pages == 1 { "its only page".to_string() } else { format!("any of its {pages} pages") }
    )]
    NoTextLayer { path: PathBuf, pages: usize },
    /// A container whose parts unpack to more than the limit (a zip bomb, or simply too big), or
    /// a file with more entries or objects than any real document has.
    #[error(
        "{}: {}, over the limit of {limit}",
        crate::escape::path(path),
        crate::escape::terminal(what)
    )]
    OverLimit {
        path: PathBuf,
        what: String,
        limit: u64,
    },
    /// Reading was stopped from outside: the worker process reading the file passed its time or
    /// memory limit, or crashed ([`worker`]).
    #[error("{}: reading this {format} file was stopped: {reason}", crate::escape::path(path), format = format.name())]
    Stopped {
        path: PathBuf,
        format: SourceFormat,
        reason: String,
    },
    /// A format simdoc recognises but does not read (a Word 97-2003 `.doc`).
    #[error(
        "{}: is {what}, which simdoc does not read; {advice}",
        crate::escape::path(path)
    )]
    Unsupported {
        path: PathBuf,
        what: &'static str,
        advice: &'static str,
    },
}

impl LoadError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            LoadError::Io { path, .. }
            | LoadError::Directory { path }
            | LoadError::NotRegular { path, .. }
            | LoadError::TooLarge { path, .. }
            | LoadError::Binary { path }
            | LoadError::NoText { path }
            | LoadError::Corrupt { path, .. }
            | LoadError::MissingPart { path, .. }
            | LoadError::Encrypted { path }
            | LoadError::NoTextLayer { path, .. }
            | LoadError::OverLimit { path, .. }
            | LoadError::Stopped { path, .. }
            | LoadError::Unsupported { path, .. } => path,
        }
    }
}

/// Reads, decodes and parses the file at `path`.
pub fn load(path: &Path, options: &LoadOptions) -> Result<Document, LoadError> {
    let bytes = read_file(path, options)?;
    parse_bytes(&bytes, path, options.format)
}

/// Reads a file's bytes, refusing anything but a regular file (a FIFO or a device could block
/// or never end) and files over `options.max_bytes` (checked before reading, and enforced while
/// reading in case the file grows meanwhile). Errors name the file.
pub fn read_file(path: &Path, options: &LoadOptions) -> Result<Vec<u8>, LoadError> {
    use crate::read::{ReadError, SpecialFile};
    let path_buf = || path.to_path_buf();
    crate::read::read_regular_file(path, options.max_bytes).map_err(|error| match error {
        ReadError::Io(error) => LoadError::Io {
            path: path_buf(),
            error,
        },
        ReadError::Special(SpecialFile::Directory) => LoadError::Directory { path: path_buf() },
        ReadError::Special(kind) => LoadError::NotRegular {
            path: path_buf(),
            kind,
        },
        ReadError::TooLarge { size, limit } => LoadError::TooLarge {
            path: path_buf(),
            size,
            limit,
        },
    })
}

/// Parses bytes that came from `path` (used for naming and for the extension only). Packaged
/// formats (DOCX, ODT, PDF, EPUB) are recognised by their content first; a file whose extension
/// names one but whose content is not one is an error rather than a text file.
pub fn parse_bytes(
    bytes: &[u8],
    path: &Path,
    format: Option<SourceFormat>,
) -> Result<Document, LoadError> {
    let _permit = budget::reserve(budget::weight_of(bytes));
    let by_extension = format.or_else(|| format_from_extension(path));
    if let Some(packaged) = formats::recognise(bytes, path, by_extension)? {
        return formats::parse(bytes, path, packaged);
    }
    let looks_html = by_extension != Some(SourceFormat::Text) || sniff_html(bytes);
    let decoded = decode::decode(bytes, looks_html).map_err(|_| LoadError::Binary {
        path: path.to_path_buf(),
    })?;
    let format = match (format, by_extension) {
        (Some(forced), _) => forced,
        (None, Some(SourceFormat::Html)) => SourceFormat::Html,
        _ if sniff_html(decoded.text.as_bytes()) => SourceFormat::Html,
        _ => SourceFormat::Text,
    };
    let mut doc = parse_text(&decoded.text, &file_name(path), format);
    if doc.sentences.is_empty() {
        return Err(LoadError::NoText {
            path: path.to_path_buf(),
        });
    }
    doc.warnings.extend(decoded.warning());
    Ok(doc)
}

/// Parses decoded text in a known format. Never fails; the document may have no sentences.
/// The packaged formats are no text: text said to be in one of them is read as plain text (their
/// files go through [`parse_bytes`]).
pub fn parse_text(text: &str, file_name: &str, format: SourceFormat) -> Document {
    match format {
        SourceFormat::Html => html::parse(text, file_name, sentences::split),
        SourceFormat::Text
        | SourceFormat::Docx
        | SourceFormat::Odt
        | SourceFormat::Pdf
        | SourceFormat::Epub => {
            let mut builder = builder::HierarchyBuilder::new(file_name);
            plain::build(text, &mut builder, file_name);
            let mut doc = builder.finish(SourceFormat::Text, sentences::split);
            offsets::anchor(&mut doc, text);
            doc
        }
    }
}

pub(crate) fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// The extensions simdoc opens, for file dialogs: HTML and text, then the packaged formats.
pub const EXTENSIONS: &[&str] = &[
    "html", "htm", "xhtml", "txt", "md", "text", "docx", "odt", "pdf", "epub",
];

pub(crate) fn format_from_extension(path: &Path) -> Option<SourceFormat> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "html" | "htm" | "xhtml" | "shtml" | "xht" => Some(SourceFormat::Html),
        "txt" | "text" | "md" | "markdown" => Some(SourceFormat::Text),
        "docx" | "docm" | "dotx" => Some(SourceFormat::Docx),
        "odt" | "ott" => Some(SourceFormat::Odt),
        "pdf" => Some(SourceFormat::Pdf),
        "epub" => Some(SourceFormat::Epub),
        _ => None,
    }
}

/// Content that starts (after whitespace, a BOM or comments) with a doctype or an `<html>`,
/// `<head>` or `<body>` tag, or that has common block tags near its start.
pub fn sniff_html(bytes: &[u8]) -> bool {
    let head: Vec<u8> = bytes
        .iter()
        .take(2048)
        .map(u8::to_ascii_lowercase)
        .collect();
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace() && *b != 0xEF && *b != 0xBB && *b != 0xBF)
        .unwrap_or(head.len());
    let rest = &head[start..];
    if [
        &b"<!doctype html"[..],
        b"<html",
        b"<head",
        b"<body",
        b"<!--",
    ]
    .iter()
    .any(|p| rest.starts_with(p))
    {
        return true;
    }
    let tags = [
        &b"<p>"[..],
        b"<div",
        b"<br",
        b"<table",
        b"<h1",
        b"<h2",
        b"<ul",
        b"<title",
    ];
    tags.iter()
        .filter(|t| memchr::memmem::find(&head, t).is_some())
        .count()
        >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_is_recognised_by_extension_and_content() {
        let p = Path::new;
        assert_eq!(format_from_extension(p("a.HTM")), Some(SourceFormat::Html));
        assert_eq!(format_from_extension(p("a.md")), Some(SourceFormat::Text));
        assert_eq!(format_from_extension(p("a")), None);
        assert!(sniff_html(b"  <!DOCTYPE html><p>x"));
        assert!(sniff_html(b"<div>a</div><p>b</p>"));
        assert!(!sniff_html(b"Plain text with a < sign."));
        let doc = parse_bytes(b"<html><p>Hello there.</p></html>", p("noext"), None).unwrap();
        assert_eq!(doc.format, SourceFormat::Html);
        let doc = parse_bytes(b"Hello there.", p("noext"), None).unwrap();
        assert_eq!(doc.format, SourceFormat::Text);
    }
}

/// Helpers for the front ends' tests.
#[cfg(test)]
pub(crate) mod test_support {
    use super::Document;

    /// One line per node: indentation by depth, kind, `[bp]` for boilerplate, own sentences
    /// joined by `|`.
    pub(crate) fn outline(doc: &Document) -> Vec<String> {
        doc.nodes
            .iter()
            .enumerate()
            .map(|(id, n)| {
                let own: Vec<&str> = doc.sentences[n.own_sentences.clone()]
                    .iter()
                    .map(|s| s.text.as_str())
                    .collect();
                let bp = if n.boilerplate { " [bp]" } else { "" };
                format!(
                    "{}{}{} {}",
                    "  ".repeat(doc.depth(id)),
                    n.kind.name(),
                    bp,
                    own.join("|")
                )
            })
            .collect()
    }
}
