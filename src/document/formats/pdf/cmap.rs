//! A CMap (a font's `/ToUnicode` map from character codes to text) measured before
//! `pdf-extract` reads it: `adobe-cmap-parser` expands every `beginbfrange` entry into one map
//! entry per code, so a range `<00000000> <ffffffff>` (a few bytes) asks for four billion
//! entries, and its parser recurses into nested arrays, strings and dictionaries (so deep
//! nesting overflows the stack). [`measure`] counts the entries the map would hold, exactly as
//! the parser expands them (`bfchar` pairs, `bfrange` triples from low to high code), and the
//! deepest nesting, without building anything.

/// What a CMap asks of its reader.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CmapSize {
    /// Entries of the expanded map.
    pub entries: u64,
    /// Deepest nesting of arrays, dictionaries and parenthesised strings.
    pub depth: u32,
}

/// The value of a hex string's digits as a code (big-endian, as the parser reads them; its
/// low 32 bits, as the parser's shifts keep).
fn code(hex: &[u8]) -> u32 {
    let digits: Vec<u8> = hex.iter().copied().filter(u8::is_ascii_hexdigit).collect();
    let mut code = 0u32;
    for pair in digits.chunks(2) {
        let byte = pair
            .iter()
            .fold(0u32, |v, d| v * 16 + (*d as char).to_digit(16).unwrap_or(0));
        code = (code << 8) | byte;
    }
    code
}

/// One token of a CMap, as far as counting needs.
enum Token<'a> {
    Hex(&'a [u8]),
    Word(&'a [u8]),
    Other,
}

/// Measures a CMap (see the module docs).
pub fn measure(bytes: &[u8]) -> CmapSize {
    let mut size = CmapSize::default();
    let mut depth = 0u32;
    // Hex strings inside an array (a range's destinations) are not codes of their own.
    let mut in_array = 0u32;
    let mut tokens: Vec<Token<'_>> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'%' => {
                while i < bytes.len() && !matches!(bytes[i], b'\n' | b'\r') {
                    i += 1;
                }
                continue;
            }
            b'<' if bytes.get(i + 1) == Some(&b'<') => {
                depth += 1;
                size.depth = size.depth.max(depth);
                tokens.push(Token::Other);
                i += 2;
                continue;
            }
            b'>' if bytes.get(i + 1) == Some(&b'>') => {
                depth = depth.saturating_sub(1);
                i += 2;
                continue;
            }
            b'<' => {
                let end = memchr::memchr(b'>', &bytes[i..]).map_or(bytes.len(), |p| i + p);
                if in_array == 0 {
                    tokens.push(Token::Hex(&bytes[i + 1..end]));
                }
                i = end + 1;
                continue;
            }
            b'[' | b'(' => {
                depth += 1;
                size.depth = size.depth.max(depth);
                if b == b'[' {
                    if in_array == 0 {
                        tokens.push(Token::Other);
                    }
                    in_array += 1;
                }
            }
            b']' | b')' => {
                depth = depth.saturating_sub(1);
                if b == b']' {
                    in_array = in_array.saturating_sub(1);
                }
            }
            b'\\' => i += 1,
            c if c.is_ascii_alphabetic() => {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                tokens.push(Token::Word(&bytes[start..i]));
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    // `bfchar` blocks hold pairs, `bfrange` blocks triples; a range's third item is a hex
    // string or an array (one entry per code either way).
    let mut t = 0;
    while t < tokens.len() {
        match tokens[t] {
            Token::Word(b"beginbfchar") => {
                t += 1;
                while t < tokens.len() && !matches!(tokens[t], Token::Word(b"endbfchar")) {
                    if matches!(tokens[t], Token::Hex(_)) {
                        size.entries += 1;
                        t += 2;
                    } else {
                        t += 1;
                    }
                }
            }
            Token::Word(b"beginbfrange") => {
                t += 1;
                while t + 1 < tokens.len() && !matches!(tokens[t], Token::Word(b"endbfrange")) {
                    match (&tokens[t], &tokens[t + 1]) {
                        (Token::Hex(low), Token::Hex(high)) => {
                            let (low, high) = (code(low), code(high));
                            if high >= low {
                                size.entries += u64::from(high - low) + 1;
                            }
                            t += 3;
                        }
                        _ => t += 1,
                    }
                }
            }
            _ => t += 1,
        }
    }
    size
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_count_every_code_they_expand_to() {
        let cmap = b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap \
            1 begincodespacerange <0000> <FFFF> endcodespacerange \
            2 beginbfchar <0003> <0020> <0011> <002E> endbfchar \
            2 beginbfrange <0024> <0026> <0041> <0030> <0031> [<0061> <0062>] endbfrange \
            endcmap CMapName currentdict /CMap defineresource pop end end";
        assert_eq!(
            measure(cmap),
            CmapSize {
                entries: 2 + 3 + 2,
                depth: 1
            }
        );
        let huge = b"1 beginbfrange <00000000> <ffffffff> <0041> endbfrange";
        assert_eq!(measure(huge).entries, 1 << 32);
        let backwards = b"1 beginbfrange <0010> <0001> <0041> endbfrange";
        assert_eq!(measure(backwards).entries, 0);
    }

    #[test]
    fn nesting_is_measured() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(measure(deep.as_bytes()).depth, 100_000);
        assert_eq!(measure(b"((a) (b (c)))").depth, 3);
        assert_eq!(measure(b"<< /A << /B 1 >> >>").depth, 2);
    }
}
