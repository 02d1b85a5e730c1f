//! Which drawings a content stream paints (`Do`) and which fonts it selects (`Tf`), read as
//! `pdf-extract` will read them: with `lopdf`'s own content parser (the one `pdf-extract`
//! calls, so the same operations, wherever `lopdf` reads a token differently from the PDF
//! specification or stops early), each operator's first operand taken as the name (as
//! `pdf-extract` takes it).
//!
//! [`super::budget`] follows these names to find what a page paints, and so where drawings
//! paint themselves: only a name read exactly as `pdf-extract` reads it makes that check exact,
//! neither missing a cycle (a stack overflow ends the process) nor seeing one that is not there
//! (issue 44, item 7: forms refused for what they could paint, not what they paint). Parsing
//! holds the stream's operations in memory for a moment, so [`super::budget`] counts them first
//! ([`super::content`]) and parses only streams within its limit.

use pdf_extract::Object;
use pdf_extract::content::Content;

/// The names a content stream gives to `Do` and `Tf`, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Named {
    /// The drawings (XObjects) painted.
    pub drawings: Vec<Vec<u8>>,
    /// The fonts selected.
    pub fonts: Vec<Vec<u8>>,
}

/// The names `content` paints and selects (see the module docs).
pub fn named(content: &[u8]) -> Named {
    let mut found = Named::default();
    // Most streams of a page paint nothing: no need to parse them.
    let may_name = |operator: &[u8]| memchr::memmem::find(content, operator).is_some();
    if !may_name(b"Do") && !may_name(b"Tf") {
        return found;
    }
    let Ok(parsed) = Content::decode(content) else {
        return found;
    };
    for operation in parsed.operations {
        let name = match operation.operands.first() {
            Some(Object::Name(name)) => name.clone(),
            _ => continue,
        };
        match operation.operator.as_str() {
            "Do" => found.drawings.push(name),
            "Tf" => found.fonts.push(name),
            _ => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_as_the_content_parser_reads_them() {
        let content = b"q /F#31 12 Tf (Do) Tj /Fm0 Do /A /B Do 1 Do Q";
        let found = named(content);
        // `#31` is the escape of "1"; the first operand is the name given; a number names none.
        assert_eq!(found.fonts, [b"F1".to_vec()]);
        assert_eq!(found.drawings, [b"Fm0".to_vec(), b"A".to_vec()]);
        // Operators run into their operands, as `lopdf` splits them.
        let found = named(b"/Fm 1Do /X Do\x03 /Y Do");
        assert_eq!(found.drawings, [b"Fm".to_vec(), b"X".to_vec()]);
    }
}
