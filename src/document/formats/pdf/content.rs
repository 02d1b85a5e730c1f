//! A content stream measured before it is run: how many operators it holds and how deep it
//! saves the graphics state (`q` without `Q`), without holding its operations. [`super::budget`]
//! adds these up over pages and drawings before `pdf-extract` runs anything (and before
//! [`super::painted`] parses a stream for the drawings and fonts it names).
//!
//! The scanner counts the operators of [`super::tokens`], which splits a stream as `lopdf`'s
//! content parser does (`0q0q` holds two `q`) and reads on where `lopdf` stops (at a token it
//! cannot read, or a string nested deeper than it reads), so it counts no fewer operators than
//! `lopdf` parses, but for one case: inline image data that `lopdf` measures by the image's
//! size and that ends in `EI` without white space before it, which the scanner takes to run on
//! to the next `EI` between white space (the worker's limits bound what such a file can hold).

use super::tokens::{Kind, Tokens};

/// What one content stream holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContentScan {
    /// Operators, each of which `lopdf` keeps in memory as one operation while the stream runs.
    pub operations: u64,
    /// Everything else but white space and comments: operands (an array's brackets counted
    /// too), each kept beside its operation.
    pub operands: u64,
    /// The deepest nesting of `q` (each level holds a copy of the graphics state).
    pub max_depth: u32,
}

/// Scans one content stream (see the module docs).
pub fn scan(bytes: &[u8]) -> ContentScan {
    let mut found = ContentScan::default();
    let mut depth = 0u32;
    for token in Tokens::new(bytes) {
        match token.kind {
            Kind::Operator => found.operations += 1,
            Kind::White | Kind::Comment => continue,
            _ => {
                found.operands += 1;
                continue;
            }
        }
        match &bytes[token.range] {
            b"q" => {
                depth += 1;
                found.max_depth = found.max_depth.max(depth);
            }
            b"Q" => depth = depth.saturating_sub(1),
            _ => {}
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
        // 1 0 0 1 72 720, /F1 12, (Hello ...), /Fm0, <4865...>, [ (a) -20 (b) ], /Span <<...>>.
        assert!(found.operands >= 6 + 2 + 1 + 1 + 1 + 5 + 2, "{found:?}");
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
        // Saves run into numbers, as `lopdf` reads them.
        let content = b"0q".repeat(2_000);
        assert_eq!(scan(&content).max_depth, 2_000);
    }
}
