//! Parsing an XML part with bounds, and the helpers the DOCX, ODT and EPUB readers share.
//!
//! `roxmltree` (already in simdoc's dependency tree through the SVG renderer, and maintained)
//! parses a part into a read-only tree without recursion, refuses DTDs (so no entity expansion
//! attack) and stops at a node limit; the readers then walk the tree with its iterative
//! `traverse`, so nesting depth cannot overflow the stack.
//!
//! Attributes count too: `roxmltree` checks each new attribute against the element's others,
//! so an element's attributes cost the square of their number (one DOCX element with 80,000
//! attributes, 177 KB, took 8.9 s), and its node limit does not count them. A scan before
//! parsing ([`attribute_counts`]) refuses an element with more than [`MAX_ATTRIBUTES`] and
//! counts all attributes into [`MAX_NODES`].

use roxmltree::{Document as XmlDocument, Node, ParsingOptions};

use super::container::Container;
use crate::document::LoadError;

/// Most XML nodes and attributes together one part may have: a 1,000-page report's DOCX body
/// has about half a million nodes. A node costs about 60 bytes in the tree, an attribute 40.
pub const MAX_NODES: u32 = 4_000_000;

/// Most attributes one element may have: the test fixtures' largest is 36 (an ODF root with
/// its namespace declarations).
pub const MAX_ATTRIBUTES: usize = 256;

/// What [`attribute_counts`] finds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AttributeCounts {
    pub total: u64,
    /// The most on one element.
    pub most: usize,
}

/// Counts the attributes of every start tag of an XML text (an `=` outside quoted values inside
/// a start tag), skipping comments, CDATA sections, processing instructions, declarations and
/// end tags: linear in the text.
pub fn attribute_counts(text: &str) -> AttributeCounts {
    let bytes = text.as_bytes();
    let mut counts = AttributeCounts::default();
    let find = |from: usize, needle: &[u8]| {
        memchr::memmem::find(&bytes[from.min(bytes.len())..], needle)
            .map_or(bytes.len(), |p| from + p + needle.len())
    };
    let mut i = 0;
    while let Some(lt) = memchr::memchr(b'<', &bytes[i..]).map(|p| i + p) {
        let rest = &bytes[lt..];
        if rest.starts_with(b"<!--") {
            i = find(lt + 4, b"-->");
        } else if rest.starts_with(b"<![CDATA[") {
            i = find(lt + 9, b"]]>");
        } else if rest.starts_with(b"<?") {
            i = find(lt + 2, b"?>");
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") {
            i = find(lt + 2, b">");
        } else {
            let mut quote: Option<u8> = None;
            let mut attributes = 0usize;
            let mut j = lt + 1;
            while j < bytes.len() {
                let b = bytes[j];
                match quote {
                    Some(q) if b == q => quote = None,
                    Some(_) => {}
                    None if b == b'"' || b == b'\'' => quote = Some(b),
                    None if b == b'=' => attributes += 1,
                    None if b == b'>' => break,
                    None => {}
                }
                j += 1;
            }
            counts.total += attributes as u64;
            counts.most = counts.most.max(attributes);
            i = j + 1;
        }
        if i >= bytes.len() {
            break;
        }
    }
    counts
}

/// Parses the text of part `name` of `container`. A document type declaration without an
/// internal subset (`<!DOCTYPE ncx PUBLIC "..." "...dtd">`, common in EPUB 2) names a DTD that
/// is never loaded, so it is blanked out first; one with an internal subset (which could define
/// entities) is refused as a DTD.
pub fn parse<'i>(
    container: &Container<'_>,
    name: &str,
    text: &'i mut String,
) -> Result<XmlDocument<'i>, LoadError> {
    blank_external_doctype(text);
    let text: &'i str = text;
    let attributes = attribute_counts(text);
    if attributes.most > MAX_ATTRIBUTES {
        return Err(LoadError::OverLimit {
            path: container.path().to_path_buf(),
            what: format!(
                "an element of part {name} has {} attributes",
                attributes.most
            ),
            limit: MAX_ATTRIBUTES as u64,
        });
    }
    let Some(nodes_limit) = u64::from(MAX_NODES)
        .checked_sub(attributes.total)
        .and_then(|left| u32::try_from(left).ok())
    else {
        return Err(nodes_over_limit(container, name));
    };
    let options = ParsingOptions {
        allow_dtd: false,
        nodes_limit,
        ..ParsingOptions::default()
    };
    XmlDocument::parse_with_options(text, options).map_err(|e| match e {
        roxmltree::Error::NodesLimitReached => nodes_over_limit(container, name),
        other => container.corrupt(format!("part {name} is not well-formed XML ({other})")),
    })
}

fn nodes_over_limit(container: &Container<'_>, name: &str) -> LoadError {
    LoadError::OverLimit {
        path: container.path().to_path_buf(),
        what: format!("part {name} has more XML nodes and attributes than allowed"),
        limit: u64::from(MAX_NODES),
    }
}

/// Replaces a `<!DOCTYPE ...>` without `[` by spaces (whitespace is allowed in the prolog).
fn blank_external_doctype(text: &mut String) {
    let Some(start) = text.find("<!DOCTYPE") else {
        return;
    };
    // Only in the prolog: before the first element.
    let first_element = text.match_indices('<').map(|(i, _)| i).find(|&i| {
        text[i + 1..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
    });
    if first_element.is_some_and(|e| e < start) {
        return;
    }
    let Some(length) = text[start..].find('>') else {
        return;
    };
    let end = start + length + 1;
    if text[start..end].contains('[') {
        return;
    }
    text.replace_range(start..end, &" ".repeat(end - start));
}

/// One step of a depth-first walk: entering a node, or leaving it after its descendants.
#[derive(Clone, Copy, Debug)]
pub enum Edge<'a, 'i> {
    Open(Node<'a, 'i>),
    Close(Node<'a, 'i>),
}

/// The depth-first walk over `root` and its descendants, in document order, as open and close
/// edges. It keeps no stack (it moves through first child, next sibling and parent links), so
/// nesting depth costs no memory and cannot overflow anything.
pub fn traverse<'a, 'i>(root: Node<'a, 'i>) -> impl Iterator<Item = Edge<'a, 'i>> {
    let mut next = Some(Edge::Open(root));
    std::iter::from_fn(move || {
        let current = next?;
        next = match current {
            Edge::Open(node) => Some(match node.first_child() {
                Some(child) => Edge::Open(child),
                None => Edge::Close(node),
            }),
            Edge::Close(node) if node == root => None,
            Edge::Close(node) => match node.next_sibling() {
                Some(sibling) => Some(Edge::Open(sibling)),
                None => node.parent().map(Edge::Close),
            },
        };
        Some(current)
    })
}

/// The element's local name when it is in one of `namespaces`.
pub fn name_in<'a>(node: Node<'a, '_>, namespaces: &[&str]) -> Option<&'a str> {
    if !node.is_element() {
        return None;
    }
    let tag = node.tag_name();
    namespaces
        .contains(&tag.namespace().unwrap_or(""))
        .then(|| tag.name())
}

/// The value of the attribute with this local name in one of `namespaces`.
pub fn attr_in<'a>(node: Node<'a, '_>, namespaces: &[&str], name: &str) -> Option<&'a str> {
    node.attributes()
        .find(|a| a.name() == name && namespaces.contains(&a.namespace().unwrap_or("")))
        .map(|a| a.value())
}

/// Resolves `href` (a relative URI, percent-encoded, maybe with a `#fragment`) against the
/// folder of the part `base`, as zip part names: `OEBPS/text/../images/a b.png`.
pub fn resolve(base: &str, href: &str) -> String {
    let href = href.split('#').next().unwrap_or("");
    let href = percent_decode(href);
    let mut parts: Vec<&str> = if href.starts_with('/') {
        Vec::new()
    } else {
        base.rsplit_once('/')
            .map(|(folder, _)| folder.split('/').collect())
            .unwrap_or_default()
    };
    for segment in href.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}

/// Decodes `%XX` escapes; malformed escapes stay as they are.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traverse_opens_and_closes_in_document_order() {
        let doc = XmlDocument::parse("<a><b><c/></b><d/></a>").unwrap();
        let edges: Vec<String> = traverse(doc.root_element())
            .map(|e| match e {
                Edge::Open(n) => format!("<{}", n.tag_name().name()),
                Edge::Close(n) => format!("{}>", n.tag_name().name()),
            })
            .collect();
        assert_eq!(edges, ["<a", "<b", "<c", "c>", "b>", "<d", "d>", "a>"]);
        let deep = format!("{}{}", "<x>".repeat(100_000), "</x>".repeat(100_000));
        let options = ParsingOptions {
            nodes_limit: 200_000,
            ..ParsingOptions::default()
        };
        if let Ok(doc) = XmlDocument::parse_with_options(&deep, options) {
            assert_eq!(traverse(doc.root_element()).count(), 200_000);
        }
    }

    #[test]
    fn attributes_are_counted_outside_comments_and_values() {
        let text = r#"<?xml version="1.0"?><!-- a="1" --><a x="1" y='a=b'><![CDATA[ <b c="d"> ]]><b z="2"/></a>"#;
        assert_eq!(
            attribute_counts(text),
            AttributeCounts { total: 3, most: 2 }
        );
        let many: String = (0..1000).map(|i| format!(" a{i}=\"\"")).collect();
        let text = format!("<root{many}/>");
        assert_eq!(attribute_counts(&text).most, 1000);
    }

    #[test]
    fn hrefs_resolve_against_the_part_folder() {
        assert_eq!(
            resolve("OEBPS/content.opf", "text/ch1.xhtml"),
            "OEBPS/text/ch1.xhtml"
        );
        assert_eq!(
            resolve("OEBPS/text/a.xhtml", "../b%20c.xhtml#x"),
            "OEBPS/b c.xhtml"
        );
        assert_eq!(resolve("content.opf", "ch1.xhtml"), "ch1.xhtml");
        assert_eq!(resolve("a/b.opf", "/root.xhtml"), "root.xhtml");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz%41"), "%zzA");
    }

    #[test]
    fn only_external_doctypes_in_the_prolog_are_blanked() {
        let mut external = r#"<?xml version="1.0"?><!DOCTYPE ncx PUBLIC "-//NISO//DTD ncx 2005-1//EN" "x.dtd"><ncx/>"#.to_string();
        blank_external_doctype(&mut external);
        assert_eq!(
            external.trim_end_matches("<ncx/>").trim_end(),
            r#"<?xml version="1.0"?>"#
        );
        let internal = r#"<!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>"#;
        let mut kept = internal.to_string();
        blank_external_doctype(&mut kept);
        assert_eq!(kept, internal);
        let late = "<x><!DOCTYPE y></x>";
        let mut kept = late.to_string();
        blank_external_doctype(&mut kept);
        assert_eq!(kept, late);
    }
}
