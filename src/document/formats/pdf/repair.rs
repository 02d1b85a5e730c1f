//! Content streams rewritten where `lopdf` stops reading them and viewers read on.
//!
//! `lopdf`'s content parser, which `pdf-extract` runs on every page and drawing, stops at the
//! first token it cannot read, silently: the rest of the page is lost, and a page that starts
//! with one is taken for a scan (issue 44, item 5: `q 99999999999999999999 w Q`). Three such
//! things are valid PDF, or read by every viewer, and are rewritten ([`repaired`]):
//!
//! - an integer beyond 64 bits: viewers read it as a real, and so does `lopdf` once its last
//!   digit is a `.` (a real of a tenth of its value: any such number is far outside every page
//!   either way, and past PDF's own limit for integers, 2^31, annex C);
//! - NUL and form feed, white space by PDF's rules (7.2.3) that the content parser does not
//!   take for white space: each becomes a space;
//! - comments, white space too (7.2.4), which the content parser reads only before an
//!   operator's operands and followed by a single end of line: each becomes spaces.
//!
//! Every rewrite replaces bytes one for one, so every other byte keeps its place (inline image
//! data, which `lopdf` measures by the image's size, stays whole). Other tokens `lopdf` cannot
//! read, which are not PDF (`--5`, a stray `#`), are left as they are.
//!
//! A page's content is found by token, so the repair is right where the file is: tokens never
//! span the streams of a page's `/Contents` (PDF 32000-1, 7.8.2). [`repair_contents`] repairs
//! every stream `pdf-extract` may run as content: each page's content streams, and every stream
//! a resource dictionary names as an XObject (a drawing it may paint). A stream that needs no
//! repair is left as it is; one that does is stored unpacked. Unpacking is bounded: this runs
//! after the file's streams have been measured against [`super::MAX_INFLATED_BYTES`].

use std::collections::{BTreeSet, HashSet};

use pdf_extract::{Dictionary, Document, Object, ObjectId};

use super::budget::content_of;
use super::tokens::{Kind, Tokens};

/// `content` with the rewrites of the module docs, or `None` when it needs none.
pub fn repaired(content: &[u8]) -> Option<Vec<u8>> {
    let mut fixed: Option<Vec<u8>> = None;
    for token in Tokens::new(content) {
        let range = token.range;
        let needs = match token.kind {
            Kind::LongInteger | Kind::Comment => true,
            Kind::White => content[range.clone()].iter().any(|b| matches!(b, 0 | 0x0C)),
            _ => false,
        };
        if !needs {
            continue;
        }
        let bytes = &mut fixed.get_or_insert_with(|| content.to_vec())[range];
        match token.kind {
            Kind::LongInteger => {
                if let Some(last) = bytes.last_mut() {
                    *last = b'.';
                }
            }
            Kind::Comment => bytes.fill(b' '),
            _ => {
                for b in bytes.iter_mut().filter(|b| matches!(b, 0 | 0x0C)) {
                    *b = b' ';
                }
            }
        }
    }
    fixed
}

fn resolve<'a>(doc: &'a Document, object: &'a Object) -> Option<&'a Object> {
    doc.dereference(object).ok().map(|(_, o)| o)
}

/// The drawings (XObjects) a resource dictionary names; none when its `/XObject` dictionary is
/// one already `read` (shared by reference).
fn drawings_named(
    doc: &Document,
    resources: &Dictionary,
    read: &mut HashSet<*const Dictionary>,
) -> Vec<ObjectId> {
    let Some(named) = resources
        .get(b"XObject")
        .ok()
        .and_then(|x| resolve(doc, x))
        .and_then(|x| x.as_dict().ok())
    else {
        return Vec::new();
    };
    if !read.insert(std::ptr::from_ref(named)) {
        return Vec::new();
    }
    named
        .iter()
        .filter_map(|(_, value)| value.as_reference().ok())
        .collect()
}

/// Every stream `pdf-extract` may run as content in `doc` (see the module docs).
fn content_streams(doc: &Document) -> BTreeSet<ObjectId> {
    let mut streams = BTreeSet::new();
    for page in doc.get_pages().into_values() {
        streams.extend(doc.get_page_contents(page));
    }
    // Resource dictionaries are wherever `pdf-extract` finds them: as the `/Resources` of a
    // page, a page tree node or a drawing (directly or by reference), or as objects of their own.
    // Each is read once, however many objects share it (by reference).
    let mut read: HashSet<*const Dictionary> = HashSet::new();
    let mut resources_read: HashSet<*const Dictionary> = HashSet::new();
    for object in doc.objects.values() {
        let holder = match object {
            Object::Dictionary(dict) => dict,
            Object::Stream(stream) => &stream.dict,
            _ => continue,
        };
        let resources = holder
            .get(b"Resources")
            .ok()
            .and_then(|r| resolve(doc, r))
            .and_then(|r| r.as_dict().ok());
        for dict in resources.into_iter().chain([holder]) {
            if resources_read.insert(std::ptr::from_ref(dict)) {
                streams.extend(drawings_named(doc, dict, &mut read));
            }
        }
    }
    streams
}

/// Rewrites `doc`'s content streams where `lopdf` would stop reading them (see the module
/// docs); gives how many were rewritten.
pub fn repair_contents(doc: &mut Document) -> usize {
    let mut rewritten = 0;
    for id in content_streams(doc) {
        let Ok(Object::Stream(stream)) = doc.get_object_mut(id) else {
            continue;
        };
        let Some(fixed) = repaired(&content_of(stream)) else {
            continue;
        };
        stream.dict.remove(b"Filter");
        stream.dict.remove(b"DecodeParms");
        stream.set_content(fixed);
        rewritten += 1;
    }
    rewritten
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(content: &[u8]) -> String {
        String::from_utf8_lossy(&repaired(content).unwrap_or_else(|| content.to_vec())).into_owned()
    }

    #[test]
    fn what_lopdf_stops_at_is_rewritten_in_place() {
        assert_eq!(
            text(b"q 99999999999999999999 w [-123456789012345678901 (a)] TJ Q"),
            "q 9999999999999999999. w [-12345678901234567890. (a)] TJ Q"
        );
        assert_eq!(text(b"q\x001\x0cw % note\n\r\nQ"), "q 1 w       \n\r\nQ");
        // Strings and names keep their bytes; numbers within 64 bits stay as they are.
        assert_eq!(
            repaired(b"(\x00 % 99999999999999999999) Tj 9223372036854775807 w"),
            None
        );
        assert_eq!(repaired(b"-- #a"), None);
    }

    #[test]
    fn the_content_parser_reads_a_repaired_stream_to_its_end() {
        use pdf_extract::content::Content;
        let content = b"q 99999999999999999999 w\x00Q % a comment\n  BT /F1 12 Tf ET";
        let operators = |bytes: &[u8]| -> Vec<String> {
            Content::decode(bytes)
                .map(|c| c.operations.into_iter().map(|o| o.operator).collect())
                .unwrap_or_default()
        };
        assert_eq!(operators(content), ["q"]);
        let fixed = repaired(content).unwrap_or_default();
        assert_eq!(fixed.len(), content.len());
        assert_eq!(operators(&fixed), ["q", "w", "Q", "BT", "Tf", "ET"]);
    }
}
