//! The packaged formats: documents that are not text but a container (DOCX, ODT, EPUB: zip
//! files of XML parts) or a page description (PDF). Each module reads its format's own
//! structure and describes it to the same [`HierarchyBuilder`](super::builder::HierarchyBuilder)
//! as the HTML and plain-text front ends, so everything downstream (views, comparisons,
//! collection detectors, exports) works on them unchanged.
//!
//! - [`container`]: the zip container with its bounds (entry count, unpacked size), shared by
//!   DOCX, ODT and EPUB;
//! - [`xml`]: parsing a part with bounds (node count, no DTD) and the small helpers all three
//!   XML formats use;
//! - [`docx`], [`odt`], [`epub`], [`pdf`]: one front end per format.
//!
//! [`recognise`] decides the format by content (magic bytes, and for zip files the parts
//! inside), using the extension only to word an error; [`parse`] reads it. Bad input is a
//! [`LoadError`] naming the file and the problem; nothing here panics, and memory and time are
//! bounded by the limits in [`container`] and [`pdf`].

pub(crate) mod container;
pub(crate) mod docx;
pub(crate) mod epub;
pub(crate) mod odt;
pub(crate) mod pdf;
mod unpack;
pub(crate) mod xml;

use std::path::Path;

use super::tree::{Document, SourceFormat};
use super::{LoadError, sentences};
use container::Container;

/// Zip files start with a local file header (or, when empty, an end-of-directory record).
const ZIP_MAGIC: &[u8] = b"PK\x03\x04";
const ZIP_EMPTY_MAGIC: &[u8] = b"PK\x05\x06";
/// OLE compound files: Word 97-2003 documents, and the wrapper Office puts around an encrypted
/// DOCX (whose `EncryptedPackage` stream holds the real, encrypted, zip).
const CFB_MAGIC: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";
/// A PDF header may follow up to 1,024 bytes of junk (PDF 32000-1, annex H.3 note).
const PDF_HEADER_WINDOW: usize = 1024;

/// The packaged format of `bytes`, if it is one; `by_extension` (from the file name or forced
/// by the caller) only decides whether content that is not packaged is an error (a `.docx` that
/// is no zip) or text for the other front ends (`None`).
pub fn recognise(
    bytes: &[u8],
    path: &Path,
    by_extension: Option<SourceFormat>,
) -> Result<Option<SourceFormat>, LoadError> {
    let claimed = by_extension.filter(|f| f.is_packaged());
    let head = &bytes[..bytes.len().min(PDF_HEADER_WINDOW)];
    if memchr::memmem::find(head, b"%PDF-").is_some() {
        return Ok(Some(SourceFormat::Pdf));
    }
    if bytes.starts_with(CFB_MAGIC) {
        return Err(compound_file_error(bytes, path, claimed));
    }
    if bytes.starts_with(ZIP_MAGIC) || bytes.starts_with(ZIP_EMPTY_MAGIC) {
        let container = Container::open(bytes, path, claimed.unwrap_or(SourceFormat::Docx))?;
        if let Some(format) = zip_format(&container)? {
            return Ok(Some(format));
        }
        return match claimed {
            Some(format) => Err(LoadError::MissingPart {
                path: path.to_path_buf(),
                format,
                part: format!("{} content", format.name()),
            }),
            // A zip of something else: not a document simdoc reads.
            None => Err(LoadError::Binary {
                path: path.to_path_buf(),
            }),
        };
    }
    match claimed {
        Some(format) => Err(LoadError::Corrupt {
            path: path.to_path_buf(),
            format,
            problem: match format {
                SourceFormat::Pdf => "it does not start with a PDF header (%PDF-)".into(),
                _ => "it is not a zip container".into(),
            },
        }),
        None => Ok(None),
    }
}

/// Which zip-packaged format the container holds: ODF and EPUB name themselves in a `mimetype`
/// part; OOXML has a `[Content_Types].xml` and a main part named in `_rels/.rels`.
fn zip_format(container: &Container<'_>) -> Result<Option<SourceFormat>, LoadError> {
    if container.has("mimetype") {
        let mimetype = container.read_string("mimetype")?;
        let mimetype = mimetype.trim();
        if mimetype == "application/epub+zip" {
            return Ok(Some(SourceFormat::Epub));
        }
        if mimetype.starts_with("application/vnd.oasis.opendocument.text") {
            return Ok(Some(SourceFormat::Odt));
        }
    }
    if container.has("[Content_Types].xml") || container.has("word/document.xml") {
        return Ok(Some(SourceFormat::Docx));
    }
    if container.has("content.xml") && container.has("META-INF/manifest.xml") {
        return Ok(Some(SourceFormat::Odt));
    }
    if container.has("META-INF/container.xml") {
        return Ok(Some(SourceFormat::Epub));
    }
    Ok(None)
}

/// An OLE compound file is either an encrypted OOXML or ODF package (Office wraps those in one,
/// with an `EncryptedPackage` stream) or a legacy binary document.
fn compound_file_error(bytes: &[u8], path: &Path, claimed: Option<SourceFormat>) -> LoadError {
    let utf16 = |s: &str| -> Vec<u8> { s.encode_utf16().flat_map(u16::to_le_bytes).collect() };
    let encrypted = memchr::memmem::find(bytes, &utf16("EncryptedPackage")).is_some()
        || memchr::memmem::find(bytes, &utf16("EncryptionInfo")).is_some();
    if encrypted || claimed.is_some() {
        return LoadError::Encrypted {
            path: path.to_path_buf(),
        };
    }
    LoadError::Unsupported {
        path: path.to_path_buf(),
        what: "a Word 97-2003 (.doc) or other legacy Office file",
        advice: "save it as DOCX or ODT to open it",
    }
}

/// Reads a packaged document: in a worker process when this process reads PDFs so
/// ([`crate::document::worker`]), else here ([`parse_here`]).
pub fn parse(bytes: &[u8], path: &Path, format: SourceFormat) -> Result<Document, LoadError> {
    match crate::document::worker::parse(bytes, path, format) {
        Some(result) => result,
        None => parse_here(bytes, path, format),
    }
}

/// Reads a packaged document in this process. Like the text front ends, a document without a
/// single sentence is an error ([`LoadError::NoText`], or [`LoadError::NoTextLayer`] for a
/// scanned PDF).
pub fn parse_here(bytes: &[u8], path: &Path, format: SourceFormat) -> Result<Document, LoadError> {
    let name = crate::document::file_name(path);
    let split = sentences::split;
    let doc = match format {
        SourceFormat::Pdf => pdf::parse(bytes, path, &name, split)?,
        SourceFormat::Docx => docx::parse(&Container::open(bytes, path, format)?, &name, split)?,
        SourceFormat::Odt => odt::parse(&Container::open(bytes, path, format)?, &name, split)?,
        SourceFormat::Epub => epub::parse(&Container::open(bytes, path, format)?, &name, split)?,
        SourceFormat::Html | SourceFormat::Text => {
            return Err(LoadError::Binary {
                path: path.to_path_buf(),
            });
        }
    };
    if doc.sentences.is_empty() {
        return Err(LoadError::NoText {
            path: path.to_path_buf(),
        });
    }
    Ok(doc)
}

#[cfg(test)]
pub(crate) mod tests {
    use std::io::Write;

    use super::*;
    use zip::write::SimpleFileOptions;

    /// A zip container holding `parts` (name, text), deflated.
    pub(crate) fn zip_of(parts: &[(&str, &str)]) -> Vec<u8> {
        let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (name, text) in parts {
            writer
                .start_file(*name, SimpleFileOptions::default())
                .unwrap();
            writer.write_all(text.as_bytes()).unwrap();
        }
        writer.finish().unwrap().into_inner()
    }

    pub(crate) use crate::document::test_support::outline;

    fn recognised(bytes: &[u8], name: &str) -> Result<Option<SourceFormat>, LoadError> {
        let path = Path::new(name);
        recognise(bytes, path, crate::document::format_from_extension(path))
    }

    #[test]
    fn formats_are_recognised_by_content_whatever_the_name() {
        let odt = zip_of(&[("mimetype", "application/vnd.oasis.opendocument.text")]);
        let epub = zip_of(&[("mimetype", "application/epub+zip")]);
        let docx = zip_of(&[("[Content_Types].xml", "<Types/>")]);
        for name in ["a.bin", "a.txt", "noextension"] {
            assert_eq!(recognised(&odt, name).unwrap(), Some(SourceFormat::Odt));
            assert_eq!(recognised(&epub, name).unwrap(), Some(SourceFormat::Epub));
            assert_eq!(recognised(&docx, name).unwrap(), Some(SourceFormat::Docx));
            assert_eq!(
                recognised(b"junk\n%PDF-1.7\n", name).unwrap(),
                Some(SourceFormat::Pdf)
            );
        }
        assert_eq!(recognised(b"<p>hello</p>", "a.html").unwrap(), None);
        assert_eq!(recognised(b"hello", "a.txt").unwrap(), None);
    }

    #[test]
    fn a_named_format_with_other_content_is_an_error_naming_the_file() {
        let err = recognised(b"hello", "letter.docx").unwrap_err();
        assert_eq!(
            err.to_string(),
            "letter.docx: is not a readable DOCX file: it is not a zip container"
        );
        let err = recognised(b"hello", "paper.pdf").unwrap_err();
        assert_eq!(
            err.to_string(),
            "paper.pdf: is not a readable PDF file: it does not start with a PDF header (%PDF-)"
        );
        let other_zip = zip_of(&[("data.csv", "a,b")]);
        let err = recognised(&other_zip, "book.epub").unwrap_err();
        assert_eq!(
            err.to_string(),
            "book.epub: is not a complete EPUB file: it has no EPUB content"
        );
        assert!(matches!(
            recognised(&other_zip, "data.zip").unwrap_err(),
            LoadError::Binary { .. }
        ));
    }

    #[test]
    fn compound_files_are_legacy_documents_or_encrypted_packages() {
        let mut legacy = CFB_MAGIC.to_vec();
        legacy.extend_from_slice(&[0; 512]);
        let err = recognised(&legacy, "old.doc").unwrap_err();
        assert_eq!(
            err.to_string(),
            "old.doc: is a Word 97-2003 (.doc) or other legacy Office file, which simdoc does not \
             read; save it as DOCX or ODT to open it"
        );
        let mut encrypted = legacy.clone();
        encrypted.extend("EncryptedPackage".encode_utf16().flat_map(u16::to_le_bytes));
        for name in ["secret.docx", "secret.doc"] {
            let err = recognised(&encrypted, name).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!(
                    "{name}: is password-protected (encrypted); save an unprotected copy to open it"
                )
            );
        }
    }
}
