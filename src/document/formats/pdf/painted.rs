//! Which drawings a content stream paints (`Do`) and which fonts it selects (`Tf`), as
//! `pdf-extract` reads them: the operator's first operand, a name.
//!
//! [`super::budget`] follows the drawings' names to find what a page paints, and so where
//! drawings paint themselves: only names read exactly as `pdf-extract` reads them make that
//! check exact, neither missing a cycle (a stack overflow ends the process) nor seeing one that
//! is not there (issue 44, item 7: forms were refused for what they could paint, not for what
//! they paint). So a stream that paints anything is parsed with `lopdf`'s own content parser,
//! the one `pdf-extract` calls (the same operations, wherever `lopdf` reads a token otherwise
//! than the PDF specification, or stops early); parsing holds the stream's operations for a
//! moment, so [`super::budget`] counts them first ([`super::content`]). A stream that paints
//! nothing (most pages of text) is not parsed: its fonts are read from its tokens
//! ([`super::tokens`], which split a stream as `lopdf` does), which only measure the fonts'
//! character maps (nor is one with no `Do` but in inline image data, where the tokens may not
//! see it).

use pdf_extract::Object;
use pdf_extract::content::Content;

use super::tokens::{Kind, Tokens};

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
    // The first operand since the last operator.
    let mut first: Option<(Kind, &[u8])> = None;
    for token in Tokens::new(content) {
        let text = &content[token.range];
        match token.kind {
            Kind::White | Kind::Comment => {}
            Kind::Operator if text == b"Do" => return parsed(content),
            // Image data whose end the tokens may place later than `lopdf`, hiding a `Do`.
            Kind::Operator if text == b"ID" && memchr::memmem::find(content, b"Do").is_some() => {
                return parsed(content);
            }
            Kind::Operator => {
                if let (b"Tf", Some((Kind::Name, name))) = (text, first) {
                    found.fonts.push(decoded_name(name));
                }
                first = None;
            }
            kind => {
                first.get_or_insert((kind, text));
            }
        }
    }
    found
}

/// The names `content` gives to `Do` and `Tf`, by `lopdf`'s content parser.
fn parsed(content: &[u8]) -> Named {
    let mut found = Named::default();
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

/// A name token (`/` and the name) as `lopdf` reads it: `#` and two hex digits stand for a byte.
fn decoded_name(token: &[u8]) -> Vec<u8> {
    let name = token.strip_prefix(b"/").unwrap_or(token);
    let hex = |b: u8| char::from(b).to_digit(16);
    let mut decoded = Vec::with_capacity(name.len());
    let mut i = 0;
    while i < name.len() {
        let escaped = (name[i] == b'#')
            .then(|| Some(hex(*name.get(i + 1)?)? * 16 + hex(*name.get(i + 2)?)?))
            .flatten();
        match escaped {
            Some(byte) => {
                decoded.push(byte as u8);
                i += 3;
            }
            None => {
                decoded.push(name[i]);
                i += 1;
            }
        }
    }
    decoded
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
        // Without `Do`, fonts are read from the tokens, as the parser would read them.
        let found = named(b"BT /F#31 12 Tf /F2 9Tf [/F3] 1 Tf (/F4) 1 Tf /F#zz 1 Tf ET");
        assert!(found.drawings.is_empty());
        assert_eq!(
            found.fonts,
            [b"F1".to_vec(), b"F2".to_vec(), b"F#zz".to_vec()]
        );
        assert_eq!(
            parsed(b"BT /F#31 12 Tf /F2 9Tf [/F3] 1 Tf (/F4) 1 Tf ET").fonts,
            [b"F1".to_vec(), b"F2".to_vec()]
        );
    }
}
