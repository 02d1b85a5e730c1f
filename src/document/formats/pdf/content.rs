//! A content stream measured before it is run: how many operators it holds and how deep it
//! saves the graphics state (`q` without `Q`), without holding its operations. [`super::budget`]
//! adds these up over pages and drawings before `pdf-extract` runs anything (and before
//! [`super::painted`] parses a stream for the drawings and fonts it names).
//!
//! The scanner follows the lexical rules of PDF 32000-1 (7.2: white space, delimiters, comments,
//! literal strings with nested parentheses and escapes, hex strings, names, dictionaries and
//! arrays as operands) and skips inline image data (`BI` ... `ID` data `EI`, as `lopdf` finds
//! its end). It counts every token that is not an operand as an operator, so it never counts
//! fewer operators than `lopdf` parses (which stops at the first token it cannot read).

/// What one content stream holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContentScan {
    /// Operators, each of which `lopdf` keeps in memory as one operation while the stream runs.
    pub operations: u64,
    /// The deepest nesting of `q` (each level holds a copy of the graphics state).
    pub max_depth: u32,
}

fn is_white(b: u8) -> bool {
    matches!(b, 0 | b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

fn is_regular(b: u8) -> bool {
    !is_white(b) && !is_delimiter(b)
}

/// The end of a literal string whose `(` is at `start` (nested parentheses balanced, escaped
/// ones skipped), or the end of the bytes.
fn literal_string_end(bytes: &[u8], start: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// Where inline image data that starts at `from` ends: after `EI` between white space, as
/// `lopdf` looks for it, or at the end of the bytes.
fn inline_image_end(bytes: &[u8], from: usize) -> usize {
    let data = bytes.get(from..).unwrap_or_default();
    data.windows(4)
        .position(|w| {
            matches!(w[0], b' ' | b'\n' | b'\r')
                && &w[1..3] == b"EI"
                && matches!(w[3], b' ' | b'\n' | b'\r')
        })
        .map_or(bytes.len(), |p| from + p + 3)
}

/// Scans one content stream (see the module docs).
pub fn scan(bytes: &[u8]) -> ContentScan {
    let mut found = ContentScan::default();
    let mut depth = 0u32;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if is_white(b) {
            i += 1;
            continue;
        }
        match b {
            b'%' => {
                while i < bytes.len() && !matches!(bytes[i], b'\n' | b'\r') {
                    i += 1;
                }
            }
            b'(' => i = literal_string_end(bytes, i),
            b'<' if bytes.get(i + 1) == Some(&b'<') => i += 2,
            b'<' => {
                i = memchr::memchr(b'>', &bytes[i..]).map_or(bytes.len(), |p| i + p + 1);
            }
            b'>' | b'[' | b']' | b'{' | b'}' | b')' => i += 1,
            b'/' => {
                i += 1;
                while i < bytes.len() && is_regular(bytes[i]) {
                    i += 1;
                }
            }
            _ => {
                let start = i;
                while i < bytes.len() && is_regular(bytes[i]) {
                    i += 1;
                }
                let token = &bytes[start..i];
                let operand = token
                    .first()
                    .is_some_and(|c| c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.'))
                    || matches!(token, b"true" | b"false" | b"null");
                if operand {
                    continue;
                }
                found.operations += 1;
                match token {
                    b"q" => {
                        depth += 1;
                        found.max_depth = found.max_depth.max(depth);
                    }
                    b"Q" => depth = depth.saturating_sub(1),
                    b"ID" => i = inline_image_end(bytes, i + 1),
                    _ => {}
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_and_depth_are_found() {
        let content = b"q 1 0 0 1 72 720 cm BT /F1 12 Tf (Hello (nested) \\) world) Tj ET \
                        q q /Fm0 Do Q Q % a comment q q q\n<48656c6c6f> Tj [(a) -20 (b)] TJ \
                        /Span <</MCID 0>> BDC EMC Q";
        let found = scan(content);
        assert_eq!(found.operations, 16);
        assert_eq!(found.max_depth, 3);
    }

    #[test]
    fn inline_image_data_is_skipped() {
        let content = b"q BI /W 2 /H 1 /CS /G /BPC 8 ID \x00q\xffQ EI Q 0 g";
        let found = scan(content);
        // q, BI, ID, Q, g: the image's bytes are no operators.
        assert_eq!(found.operations, 5);
        assert_eq!(found.max_depth, 1);
    }

    #[test]
    fn two_million_saves_are_counted_without_holding_them() {
        let content = b"q ".repeat(2_000_000);
        let found = scan(&content);
        assert_eq!((found.operations, found.max_depth), (2_000_000, 2_000_000));
        // Unbalanced restores do not go below zero; broken strings end at the end.
        assert_eq!(scan(b"Q Q q (unterminated").max_depth, 1);
    }
}
