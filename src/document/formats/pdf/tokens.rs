//! A content stream's tokens, without parsing it into operations (nothing is held): what
//! [`super::content`] counts and [`super::repair`] rewrites.
//!
//! The lexical rules are PDF 32000-1's (7.2: white space, delimiters, comments, literal strings
//! with nested parentheses and escapes, hex strings, names, the delimiters of dictionaries and
//! arrays), with inline image data skipped (`ID` data `EI`, the end found as `lopdf` finds it
//! when it cannot read the image's size). A run of regular characters is split as `lopdf`'s
//! content parser splits it, needing no delimiter between its pieces: `null`, `true` and
//! `false`, then a number (a real, with a `.`; else an integer), then an operator (letters, `*`,
//! `'` and `"`); so `0q0q` is two numbers and two `q`, as `lopdf` reads it. A piece that starts
//! with none of these (say `#`, or a sign before no digit) is [`Kind::Unreadable`], one byte
//! long, and so is an integer too large for 64 bits ([`Kind::LongInteger`]): `lopdf` stops
//! reading the stream at either, and the rest of the page is lost.

use std::ops::Range;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A run of white space.
    White,
    /// `%` to the end of the line (the end of line not included).
    Comment,
    /// An operator.
    Operator,
    /// A number `lopdf` reads.
    Number,
    /// An integer (no `.`) beyond 64 bits.
    LongInteger,
    /// `null`, `true` or `false`.
    Keyword,
    /// `/` and the name.
    Name,
    /// `(` ... `)`.
    LiteralString,
    /// `<` ... `>`.
    HexString,
    /// `<<`, `>>`, `[`, `]`, `{`, `}`, or a `>` or `)` out of place.
    Delimiter,
    /// A byte that starts no token `lopdf` reads.
    Unreadable,
    /// The bytes of an inline image, after its `ID`, up to and with its `EI`.
    InlineImage,
}

/// One token: its kind and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    pub range: Range<usize>,
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

fn is_operator(b: u8) -> bool {
    b.is_ascii_alphabetic() || matches!(b, b'*' | b'\'' | b'"')
}

/// The tokens of a content stream, in order (see the module docs).
pub struct Tokens<'a> {
    bytes: &'a [u8],
    at: usize,
    /// The end of the run of regular characters being split, if `at` is inside one.
    run_end: usize,
    /// Whether the last token was the operator `ID`: inline image data follows.
    image_next: bool,
}

impl<'a> Tokens<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Tokens {
            bytes,
            at: 0,
            run_end: 0,
            image_next: false,
        }
    }

    /// The end of the run of bytes from `from` that satisfy `keep`.
    fn run(&self, from: usize, keep: impl Fn(u8) -> bool) -> usize {
        self.bytes.get(from..).map_or(from, |rest| {
            from + rest.iter().take_while(|b| keep(**b)).count()
        })
    }

    /// The next piece of the run of regular characters `at..run_end`, split as `lopdf` does.
    fn piece(&self) -> (Kind, usize) {
        let piece = &self.bytes[self.at..self.run_end];
        for keyword in [b"null".as_slice(), b"true", b"false"] {
            if piece.starts_with(keyword) {
                return (Kind::Keyword, self.at + keyword.len());
            }
        }
        if let Some((length, integer)) = number_length(piece) {
            let kind = match integer {
                Some(false) => Kind::LongInteger,
                _ => Kind::Number,
            };
            return (kind, self.at + length);
        }
        if is_operator(piece[0]) {
            let length = piece.iter().take_while(|b| is_operator(**b)).count();
            return (Kind::Operator, self.at + length);
        }
        (Kind::Unreadable, self.at + 1)
    }
}

/// The length of the number at the start of `piece`, as `lopdf` reads one (a sign, then digits
/// with a `.` and maybe more digits, or a `.` and digits: a real; else a sign and digits: an
/// integer), and, for an integer, whether it fits in 64 bits; `None` if no number starts there.
fn number_length(piece: &[u8]) -> Option<(usize, Option<bool>)> {
    let signed = usize::from(matches!(piece.first(), Some(b'+' | b'-')));
    let digits = |from: usize| {
        piece.get(from..).map_or(0, |rest| {
            rest.iter().take_while(|b| b.is_ascii_digit()).count()
        })
    };
    let whole = digits(signed);
    if piece.get(signed + whole) == Some(&b'.') {
        let fraction = digits(signed + whole + 1);
        if whole > 0 || fraction > 0 {
            return Some((signed + whole + 1 + fraction, None));
        }
    }
    if whole == 0 {
        return None;
    }
    let length = signed + whole;
    let fits = std::str::from_utf8(&piece[..length]).is_ok_and(|text| text.parse::<i64>().is_ok());
    Some((length, Some(fits)))
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

impl Iterator for Tokens<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        let bytes = self.bytes;
        let start = self.at;
        if start >= bytes.len() {
            return None;
        }
        let (kind, end) = if self.image_next {
            self.image_next = false;
            // One white space byte after `ID`, then the data.
            (Kind::InlineImage, inline_image_end(bytes, start + 1))
        } else if start < self.run_end {
            self.piece()
        } else {
            match bytes[start] {
                b if is_white(b) => (Kind::White, self.run(start, is_white)),
                b'%' => (
                    Kind::Comment,
                    self.run(start, |b| !matches!(b, b'\n' | b'\r')),
                ),
                b'(' => (Kind::LiteralString, literal_string_end(bytes, start)),
                b'<' if bytes.get(start + 1) == Some(&b'<') => (Kind::Delimiter, start + 2),
                b'<' => (
                    Kind::HexString,
                    memchr::memchr(b'>', &bytes[start..]).map_or(bytes.len(), |p| start + p + 1),
                ),
                b'/' => (Kind::Name, self.run(start + 1, is_regular)),
                b if is_delimiter(b) => (Kind::Delimiter, start + 1),
                _ => {
                    self.run_end = self.run(start, is_regular);
                    self.piece()
                }
            }
        };
        self.image_next = kind == Kind::Operator && &bytes[start..end] == b"ID";
        self.at = end;
        Some(Token {
            kind,
            range: start..end,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(bytes: &[u8]) -> Vec<(Kind, &[u8])> {
        Tokens::new(bytes)
            .filter(|t| t.kind != Kind::White)
            .map(|t| (t.kind, &bytes[t.range]))
            .collect()
    }

    #[test]
    fn regular_runs_are_split_as_the_content_parser_splits_them() {
        use Kind::*;
        assert_eq!(
            kinds(b"0q0q nullQ 1.5.5 -.5 5. 12Tj +7'"),
            [
                (Number, b"0".as_slice()),
                (Operator, b"q"),
                (Number, b"0"),
                (Operator, b"q"),
                (Keyword, b"null"),
                (Operator, b"Q"),
                (Number, b"1.5"),
                (Number, b".5"),
                (Number, b"-.5"),
                (Number, b"5."),
                (Number, b"12"),
                (Operator, b"Tj"),
                (Number, b"+7"),
                (Operator, b"'"),
            ]
        );
        assert_eq!(
            kinds(b"-99999999999999999999 9223372036854775807 -- #a"),
            [
                (LongInteger, b"-99999999999999999999".as_slice()),
                (Number, b"9223372036854775807"),
                (Unreadable, b"-"),
                (Unreadable, b"-"),
                (Unreadable, b"#"),
                (Operator, b"a"),
            ]
        );
    }

    #[test]
    fn strings_names_comments_and_image_data_are_single_tokens() {
        use Kind::*;
        assert_eq!(
            kinds(b"/F#31 (a (b) \\) 1) <41 42> << /K [1] >> % c 1\n BI /W 1 ID \x00q 1 EI Q"),
            [
                (Name, b"/F#31".as_slice()),
                (LiteralString, b"(a (b) \\) 1)"),
                (HexString, b"<41 42>"),
                (Delimiter, b"<<"),
                (Name, b"/K"),
                (Delimiter, b"["),
                (Number, b"1"),
                (Delimiter, b"]"),
                (Delimiter, b">"),
                (Delimiter, b">"),
                (Comment, b"% c 1"),
                (Operator, b"BI"),
                (Name, b"/W"),
                (Number, b"1"),
                (Operator, b"ID"),
                (InlineImage, b" \x00q 1 EI"),
                (Operator, b"Q"),
            ]
        );
        // Broken strings and image data end at the end of the bytes.
        assert_eq!(kinds(b"(open"), [(LiteralString, b"(open".as_slice())]);
        assert_eq!(kinds(b"ID"), [(Operator, b"ID".as_slice())]);
        assert_eq!(
            kinds(b"ID x"),
            [(Operator, b"ID".as_slice()), (InlineImage, b" x")]
        );
    }
}
