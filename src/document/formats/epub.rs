//! EPUB (EPUB 3.3, and EPUB 2's OPF and NCX) to a semantic hierarchy.
//!
//! `META-INF/container.xml` names the package document (OPF); its spine lists the chapters in
//! reading order. Each XHTML chapter goes through the HTML front end
//! (`crate::document::html::build`) into one shared builder, inside a sectioning scope of its
//! own, so a chapter's headings nest as sections and end with the chapter. A chapter without a
//! heading of its own gets its title from the table of contents (the EPUB 3 navigation document,
//! else the EPUB 2 NCX) as a level-1 section. A navigation document in the spine is read like
//! any page: its `nav` is a boilerplate region, as in HTML.
//!
//! Chapters encrypted with DRM (listed in `META-INF/encryption.xml`, other than the font
//! obfuscation EPUB allows) are [`LoadError::Encrypted`]. The title is the OPF's `dc:title`,
//! else the file name.

use std::collections::{HashMap, HashSet};

use roxmltree::Node;

use super::container::Container;
use super::xml::{self, name_in};
use crate::document::builder::{HierarchyBuilder, SentenceSplitter, collapse_whitespace};
use crate::document::tree::{Document, SourceFormat};
use crate::document::{LoadError, html};

const CONTAINER: &[&str] = &["urn:oasis:names:tc:opendocument:xmlns:container"];
const OPF: &[&str] = &["http://www.idpf.org/2007/opf"];
const DC: &[&str] = &["http://purl.org/dc/elements/1.1/"];
const NCX: &[&str] = &["http://www.daisy.org/z3986/2005/ncx/"];
const XHTML: &[&str] = &["http://www.w3.org/1999/xhtml"];
const OPS: &[&str] = &["http://www.idpf.org/2007/ops"];
const ENC: &[&str] = &["http://www.w3.org/2001/04/xmlenc#"];

/// The obfuscation algorithms EPUB defines for fonts: not DRM, and never on chapters.
const FONT_OBFUSCATION: &[&str] = &[
    "http://www.idpf.org/2008/embedding",
    "http://ns.adobe.com/pdf/enc#RC",
];

/// Media types of spine items that are chapters to read (others, such as images, are skipped).
const CHAPTER_TYPES: &[&str] = &[
    "application/xhtml+xml",
    "text/html",
    "application/x-dtbook+xml",
];

/// One manifest item.
struct Item {
    /// Its part name in the container.
    part: String,
    media_type: String,
    properties: String,
}

/// Reads an EPUB container into a document named `file_name`.
pub fn parse(
    container: &Container<'_>,
    file_name: &str,
    split: SentenceSplitter,
) -> Result<Document, LoadError> {
    let opf_name = package_document(container)?;
    let mut opf_text = container.read_string(&opf_name)?;
    let opf = xml::parse(container, &opf_name, &mut opf_text)?;
    let package = opf.root_element();
    fn child<'a, 'i>(node: Node<'a, 'i>, name: &str) -> Option<Node<'a, 'i>> {
        node.children().find(|n| name_in(*n, OPF) == Some(name))
    }
    let manifest: HashMap<&str, Item> = child(package, "manifest")
        .map(|m| {
            m.children()
                .filter(|n| name_in(*n, OPF) == Some("item"))
                .filter_map(|n| {
                    let item = Item {
                        part: xml::resolve(&opf_name, n.attribute("href")?),
                        media_type: n.attribute("media-type").unwrap_or("").to_string(),
                        properties: n.attribute("properties").unwrap_or("").to_string(),
                    };
                    Some((n.attribute("id")?, item))
                })
                .collect()
        })
        .unwrap_or_default();
    let spine = child(package, "spine")
        .ok_or_else(|| container.missing(format!("spine (in {opf_name})")))?;
    // Each part once, where the spine first lists it: a book never repeats a chapter, and a
    // spine that lists one a million times must not read it a million times.
    let mut listed: HashSet<&str> = HashSet::new();
    let chapters: Vec<&Item> = spine
        .children()
        .filter(|n| name_in(*n, OPF) == Some("itemref"))
        .filter_map(|n| manifest.get(n.attribute("idref")?))
        .filter(|item| CHAPTER_TYPES.contains(&item.media_type.as_str()))
        .filter(|item| listed.insert(item.part.as_str()))
        .collect();
    if chapters.is_empty() {
        return Err(container.missing(format!("chapter in the spine of {opf_name}")));
    }
    let encrypted = encrypted_parts(container)?;
    if chapters.iter().any(|c| encrypted.contains(&c.part)) {
        return Err(LoadError::Encrypted {
            path: container.path().to_path_buf(),
        });
    }
    let toc = table_of_contents(container, &manifest, spine)?;

    let mut builder = HierarchyBuilder::new(file_name);
    for chapter in chapters {
        let text = container.read_string(&chapter.part)?;
        builder.open_scope();
        if !has_heading(&text)
            && let Some(title) = toc.get(&chapter.part)
        {
            builder.heading(1, title);
        }
        html::build(&text, &mut builder);
        builder.close();
    }
    let title = child(package, "metadata")
        .and_then(|m| m.children().find(|n| name_in(*n, DC) == Some("title")))
        .and_then(|n| n.text())
        .map(collapse_whitespace)
        .filter(|t| !t.is_empty());
    if let Some(title) = title {
        builder.set_title(title);
    }
    let mut doc = builder.finish(SourceFormat::Epub, split);
    html::unmark_wrapper_regions(&mut doc);
    Ok(doc)
}

/// The package document's part name, from `META-INF/container.xml`.
fn package_document(container: &Container<'_>) -> Result<String, LoadError> {
    const NAME: &str = "META-INF/container.xml";
    let mut text = container.read_string(NAME)?;
    let doc = xml::parse(container, NAME, &mut text)?;
    doc.descendants()
        .filter(|n| name_in(*n, CONTAINER) == Some("rootfile"))
        .find(|n| {
            n.attribute("media-type")
                .is_none_or(|t| t == "application/oebps-package+xml")
        })
        .and_then(|n| n.attribute("full-path"))
        .map(|p| xml::resolve("", p))
        .ok_or_else(|| container.missing(format!("package document (rootfile in {NAME})")))
}

/// Parts encrypted by other than font obfuscation, from `META-INF/encryption.xml`.
fn encrypted_parts(container: &Container<'_>) -> Result<HashSet<String>, LoadError> {
    const NAME: &str = "META-INF/encryption.xml";
    let Some(mut text) = container.read_string_optional(NAME)? else {
        return Ok(HashSet::new());
    };
    let doc = xml::parse(container, NAME, &mut text)?;
    Ok(doc
        .descendants()
        .filter(|n| name_in(*n, ENC) == Some("EncryptedData"))
        .filter(|data| {
            let algorithm = data
                .descendants()
                .find(|n| name_in(*n, ENC) == Some("EncryptionMethod"))
                .and_then(|n| n.attribute("Algorithm"))
                .unwrap_or("");
            !FONT_OBFUSCATION.contains(&algorithm)
        })
        .filter_map(|data| {
            data.descendants()
                .find(|n| name_in(*n, ENC) == Some("CipherReference"))
                .and_then(|n| n.attribute("URI"))
                .map(|uri| xml::resolve("", uri))
        })
        .collect())
}

/// Chapter titles by part name: the first table-of-contents entry that points into each part.
/// From the EPUB 3 navigation document, else the EPUB 2 NCX; a book without either has none.
fn table_of_contents(
    container: &Container<'_>,
    manifest: &HashMap<&str, Item>,
    spine: Node<'_, '_>,
) -> Result<HashMap<String, String>, LoadError> {
    let mut titles = HashMap::new();
    fn add(titles: &mut HashMap<String, String>, part: String, label: String) {
        if !label.is_empty() {
            titles.entry(part).or_insert(label);
        }
    }
    if let Some(nav) = manifest
        .values()
        .find(|i| i.properties.split_whitespace().any(|p| p == "nav"))
    {
        // A table of contents that is missing or cannot be read costs the chapter titles, not
        // the book.
        let mut text = container
            .read_string_optional(&nav.part)?
            .unwrap_or_default();
        if let Ok(doc) = xml::parse(container, &nav.part, &mut text) {
            let toc = doc.descendants().find(|n| {
                name_in(*n, XHTML) == Some("nav")
                    && n.attributes().any(|a| {
                        a.name() == "type"
                            && OPS.contains(&a.namespace().unwrap_or(""))
                            && a.value().split_whitespace().any(|v| v == "toc")
                    })
            });
            for link in toc
                .into_iter()
                .flat_map(|t| t.descendants())
                .filter(|n| name_in(*n, XHTML) == Some("a"))
            {
                if let Some(href) = link.attribute("href") {
                    let label: String = link
                        .descendants()
                        .filter(|n| n.is_text())
                        .filter_map(|n| n.text())
                        .collect();
                    add(
                        &mut titles,
                        xml::resolve(&nav.part, href),
                        collapse_whitespace(&label),
                    );
                }
            }
        }
        if !titles.is_empty() {
            return Ok(titles);
        }
    }
    let ncx = spine
        .attribute("toc")
        .and_then(|id| manifest.get(id))
        .or_else(|| {
            manifest
                .values()
                .find(|i| i.media_type == "application/x-dtbncx+xml")
        });
    if let Some(ncx) = ncx {
        let mut text = container
            .read_string_optional(&ncx.part)?
            .unwrap_or_default();
        if let Ok(doc) = xml::parse(container, &ncx.part, &mut text) {
            for point in doc
                .descendants()
                .filter(|n| name_in(*n, NCX) == Some("navPoint"))
            {
                let label = point
                    .children()
                    .find(|n| name_in(*n, NCX) == Some("navLabel"))
                    .and_then(|l| l.descendants().find(|n| name_in(*n, NCX) == Some("text")))
                    .and_then(|t| t.text())
                    .map(collapse_whitespace)
                    .unwrap_or_default();
                let src = point
                    .children()
                    .find(|n| name_in(*n, NCX) == Some("content"))
                    .and_then(|c| c.attribute("src"));
                if let Some(src) = src {
                    add(&mut titles, xml::resolve(&ncx.part, src), label);
                }
            }
        }
    }
    Ok(titles)
}

/// Whether an XHTML chapter has a heading element (`<h1>`..`<h6>`, any case).
fn has_heading(text: &str) -> bool {
    text.as_bytes()
        .windows(3)
        .any(|w| w[0] == b'<' && (w[1] == b'h' || w[1] == b'H') && (b'1'..=b'6').contains(&w[2]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::formats::tests::{outline, zip_of};
    use std::path::Path;

    fn page(body: &str) -> String {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>x</title></head><body>{body}</body></html>"#
        )
    }

    fn book(extra: &[(&str, &str)]) -> Vec<u8> {
        let container = r#"<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"#;
        let opf = r#"<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>A Book</dc:title></metadata>
            <manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="c1" href="text/one.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="text/two%20b.xhtml" media-type="application/xhtml+xml"/><item id="img" href="cover.png" media-type="image/png"/></manifest>
            <spine><itemref idref="img"/><itemref idref="c2"/><itemref idref="c1"/><itemref idref="c2"/><itemref idref="c1"/></spine></package>"#;
        let nav = page(
            r#"<nav epub:type="toc"><ol><li><a href="text/one.xhtml#start">First chapter</a></li><li><a href="text/two%20b.xhtml">Second chapter</a></li></ol></nav>"#,
        );
        let one = page("<h2>Opening</h2><p>Chapter one text.</p><h3>Inner</h3><p>More text.</p>");
        let two = page("<p>No heading here. Just prose.</p>");
        let mut parts: Vec<(&str, &str)> = vec![
            ("mimetype", "application/epub+zip"),
            ("META-INF/container.xml", container),
            ("OEBPS/book.opf", opf),
            ("OEBPS/nav.xhtml", &nav),
            ("OEBPS/text/one.xhtml", &one),
            ("OEBPS/text/two b.xhtml", &two),
        ];
        parts.extend_from_slice(extra);
        zip_of(&parts)
    }

    fn read(bytes: &[u8]) -> Result<Document, LoadError> {
        let path = Path::new("b.epub");
        let container = Container::open(bytes, path, SourceFormat::Epub)?;
        parse(&container, "b.epub", crate::document::sentences::split)
    }

    /// The spine lists both chapters twice: each is read once, where it is first listed.
    #[test]
    fn chapters_in_spine_order_with_titles_as_sections() {
        let doc = read(&book(&[])).unwrap();
        assert_eq!(doc.title, "A Book");
        assert_eq!(doc.format, SourceFormat::Epub);
        assert_eq!(
            outline(&doc),
            vec![
                "document ",
                "  section Second chapter",
                "    paragraph No heading here.|Just prose.",
                "  section Opening",
                "    paragraph Chapter one text.",
                "    section Inner",
                "      paragraph More text.",
            ]
        );
    }

    #[test]
    fn drm_encrypted_chapters_are_an_error_but_obfuscated_fonts_are_not() {
        let encryption = |algorithm: &str, uri: &str| {
            format!(
                r#"<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="{algorithm}"/><enc:CipherData><enc:CipherReference URI="{uri}"/></enc:CipherData></enc:EncryptedData></encryption>"#
            )
        };
        let drm = encryption(
            "http://www.w3.org/2001/04/xmlenc#aes128-cbc",
            "OEBPS/text/one.xhtml",
        );
        let err = read(&book(&[("META-INF/encryption.xml", &drm)])).unwrap_err();
        assert!(matches!(err, LoadError::Encrypted { .. }), "{err}");
        let font = encryption("http://www.idpf.org/2008/embedding", "OEBPS/font.otf");
        assert!(read(&book(&[("META-INF/encryption.xml", &font)])).is_ok());
    }

    #[test]
    fn a_book_without_its_package_document_names_the_part() {
        let bytes = zip_of(&[
            ("mimetype", "application/epub+zip"),
            (
                "META-INF/container.xml",
                r#"<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="gone.opf"/></rootfiles></container>"#,
            ),
        ]);
        let err = read(&bytes).unwrap_err();
        assert_eq!(
            err.to_string(),
            "b.epub: is not a complete EPUB file: it has no gone.opf"
        );
    }
}
