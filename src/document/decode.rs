//! Bytes to text: which encoding a file is in, and whether it is text at all.
//!
//! The order of evidence:
//! 1. a byte-order mark (UTF-8, UTF-16 LE or BE);
//! 2. UTF-16 without a BOM, recognised by NUL bytes in every other position of ASCII-range text;
//! 3. UTF-8: valid UTF-8 (a page saved by a browser or a scraper is usually re-encoded as UTF-8
//!    even when its `<meta charset>` still names the original encoding, so valid UTF-8 with
//!    non-ASCII bytes wins over the declaration), and UTF-8 with a few damaged bytes: when its
//!    valid multi-byte characters are at least as many as its invalid sequences, each invalid
//!    sequence becomes U+FFFD and [`Decoded::replaced`] counts them (one damaged byte must not
//!    turn "café" into "cafÃ©" everywhere else in the file, as ripgrep and browsers also keep
//!    UTF-8). Legacy single-byte text almost never forms a valid multi-byte sequence: in the
//!    shared data's 12 files that are not UTF-8 (Windows-1252: 1 to 233 invalid sequences each)
//!    there is none (EVALUATION.md, "Decoding damaged UTF-8");
//! 4. for HTML, the `<meta charset>` (or `http-equiv` content type) in the first 4 KB;
//! 5. otherwise Windows-1252, the usual legacy single-byte encoding of English text.
//!
//! A file with NUL bytes (after the UTF-16 check) or mostly control characters is binary.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

/// Why bytes could not be read as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeProblem {
    /// NUL bytes or mostly control characters: not a text file.
    Binary,
}

/// Text decoded from bytes, with the encoding that was used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    pub text: String,
    pub encoding: &'static str,
    /// Invalid sequences replaced by U+FFFD (damaged UTF-8 read as UTF-8; 0 otherwise).
    pub replaced: usize,
}

impl Decoded {
    /// The warning a reader of the file should see, if any.
    pub fn warning(&self) -> Option<String> {
        (self.replaced > 0).then(|| {
            let (count, verb) = if self.replaced == 1 {
                ("1 byte sequence".to_string(), "is")
            } else {
                (format!("{} byte sequences", self.replaced), "are")
            };
            format!(
                "{count} {verb} not valid {}, read as U+FFFD (the replacement character)",
                self.encoding
            )
        })
    }
}

/// What a look at bytes that are not all valid UTF-8 finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Utf8Tally {
    /// Valid characters of two to four bytes.
    pub multibyte: usize,
    /// Maximal invalid sequences (each would become one U+FFFD).
    pub invalid: usize,
}

impl Utf8Tally {
    pub fn of(bytes: &[u8]) -> Utf8Tally {
        let mut tally = Utf8Tally {
            multibyte: 0,
            invalid: 0,
        };
        for chunk in bytes.utf8_chunks() {
            tally.multibyte += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
            tally.invalid += usize::from(!chunk.invalid().is_empty());
        }
        tally
    }

    /// Whether the bytes are UTF-8 with damage rather than a legacy encoding (module docs).
    pub fn mostly_utf8(self) -> bool {
        self.multibyte > 0 && self.multibyte >= self.invalid
    }
}

/// How far into a file the `<meta charset>` and the binary check look.
const SNIFF_LEN: usize = 4096;

/// Decodes `bytes`; `html` says whether to honour a `<meta charset>` declaration.
pub fn decode(bytes: &[u8], html: bool) -> Result<Decoded, DecodeProblem> {
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        return Ok(finish(encoding, &bytes[bom_len..]));
    }
    if let Some(encoding) = utf16_without_bom(bytes) {
        return Ok(finish(encoding, bytes));
    }
    if looks_binary(bytes) {
        return Err(DecodeProblem::Binary);
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok(Decoded {
            text: text.to_string(),
            encoding: UTF_8.name(),
            replaced: 0,
        });
    }
    let tally = Utf8Tally::of(bytes);
    if tally.mostly_utf8() {
        return Ok(Decoded {
            text: String::from_utf8_lossy(bytes).into_owned(),
            encoding: UTF_8.name(),
            replaced: tally.invalid,
        });
    }
    if html && let Some(encoding) = meta_charset(&bytes[..bytes.len().min(SNIFF_LEN)]) {
        // A page that declares UTF-8 but is not valid UTF-8 is more likely Windows-1252.
        if encoding != UTF_8 && encoding != UTF_16LE && encoding != UTF_16BE {
            return Ok(finish(encoding, bytes));
        }
    }
    Ok(finish(WINDOWS_1252, bytes))
}

fn finish(encoding: &'static Encoding, bytes: &[u8]) -> Decoded {
    let replaced = if encoding == UTF_8 {
        Utf8Tally::of(bytes).invalid
    } else {
        0
    };
    let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
    // UTF-16 with unpaired surrogates: counted as the replacement characters it gained.
    let replaced = if had_errors && encoding != UTF_8 {
        let before = String::from_utf8_lossy(bytes).matches('\u{FFFD}').count();
        text.matches('\u{FFFD}').count().saturating_sub(before)
    } else {
        replaced
    };
    Decoded {
        text: text.into_owned(),
        encoding: encoding.name(),
        replaced,
    }
}

/// UTF-16 text without a BOM: in the first bytes, one of the two byte positions is almost always
/// NUL (ASCII-range characters) and the other almost never.
fn utf16_without_bom(bytes: &[u8]) -> Option<&'static Encoding> {
    let sample = &bytes[..bytes.len().min(SNIFF_LEN) & !1];
    if sample.len() < 8 {
        return None;
    }
    let pairs = sample.len() / 2;
    let even_nul = sample.iter().step_by(2).filter(|&&b| b == 0).count();
    let odd_nul = sample
        .iter()
        .skip(1)
        .step_by(2)
        .filter(|&&b| b == 0)
        .count();
    let mostly = |n: usize| n * 10 >= pairs * 9;
    let rarely = |n: usize| n * 20 <= pairs;
    if mostly(odd_nul) && rarely(even_nul) {
        Some(UTF_16LE)
    } else if mostly(even_nul) && rarely(odd_nul) {
        Some(UTF_16BE)
    } else {
        None
    }
}

/// NUL bytes anywhere in the first 4 KB, or more than 10% control characters other than
/// whitespace, mean the file is not text.
fn looks_binary(bytes: &[u8]) -> bool {
    let sample = &bytes[..bytes.len().min(SNIFF_LEN)];
    if memchr::memchr(0, sample).is_some() {
        return true;
    }
    let controls = sample
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t' | 0x0C))
        .count();
    controls * 10 > sample.len()
}

/// The encoding named by `<meta charset="...">` or
/// `<meta http-equiv="Content-Type" content="text/html; charset=...">`.
pub fn meta_charset(head: &[u8]) -> Option<&'static Encoding> {
    let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
    let mut from = 0;
    while let Some(found) = memchr::memmem::find(&lower[from..], b"<meta") {
        let start = from + found;
        let end = memchr::memchr(b'>', &lower[start..]).map_or(lower.len(), |e| start + e);
        let tag = &lower[start..end];
        if let Some(pos) = memchr::memmem::find(tag, b"charset") {
            let rest = &tag[pos + "charset".len()..];
            let rest = rest
                .iter()
                .position(|&b| b != b' ')
                .map_or(&rest[rest.len()..], |p| &rest[p..]);
            if let Some(value) = rest.strip_prefix(b"=") {
                let value: Vec<u8> = value
                    .iter()
                    .copied()
                    .skip_while(|&b| matches!(b, b' ' | b'"' | b'\''))
                    .take_while(|&b| !matches!(b, b' ' | b'"' | b'\'' | b';' | b'/' | b'>'))
                    .collect();
                if let Some(encoding) = Encoding::for_label(&value) {
                    return Some(encoding);
                }
            }
        }
        from = end;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boms_are_honoured() {
        assert_eq!(decode(b"\xEF\xBB\xBFhi", false).unwrap().text, "hi");
        let le = [0xFF, 0xFE, b'h', 0, b'i', 0];
        assert_eq!(decode(&le, false).unwrap().text, "hi");
        let be = [0xFE, 0xFF, 0, b'h', 0, b'i'];
        assert_eq!(decode(&be, false).unwrap().text, "hi");
    }

    #[test]
    fn utf16_without_bom_is_recognised() {
        let text = "Hello there, world.";
        let le: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        let decoded = decode(&le, false).unwrap();
        assert_eq!(decoded.text, text);
        assert_eq!(decoded.encoding, "UTF-16LE");
        let be: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
        assert_eq!(decode(&be, false).unwrap().text, text);
    }

    #[test]
    fn invalid_utf8_falls_back_to_windows_1252() {
        let decoded = decode(b"caf\xE9 \x93quoted\x94", false).unwrap();
        assert_eq!(decoded.text, "caf\u{e9} \u{201c}quoted\u{201d}");
        assert_eq!(decoded.encoding, "windows-1252");
    }

    #[test]
    fn utf8_with_a_damaged_byte_stays_utf8_with_a_warning() {
        // Stray Latin-1 bytes in UTF-8 text: the rest is not turned into mojibake.
        let damaged = b"caf\xc3\xa9 \xe9t\xe9 na\xc3\xafve";
        let decoded = decode(damaged, true).unwrap();
        assert_eq!(decoded.text, "caf\u{e9} \u{fffd}t\u{fffd} na\u{ef}ve");
        assert_eq!((decoded.encoding, decoded.replaced), ("UTF-8", 2));
        assert_eq!(
            decoded.warning().unwrap(),
            "2 byte sequences are not valid UTF-8, read as U+FFFD (the replacement character)"
        );
        // The case: one valid character and one damaged byte.
        let decoded = decode(b"caf\xc3\xa9 and \xff here", false).unwrap();
        assert_eq!(decoded.text, "caf\u{e9} and \u{fffd} here");
        assert_eq!(decoded.replaced, 1);
        assert!(
            decoded
                .warning()
                .unwrap()
                .starts_with("1 byte sequence is not")
        );
        // More damage than valid characters: a legacy encoding after all.
        let decoded = decode(b"caf\xc3\xa9 \xe9t\xe9 \xe0 la", false).unwrap();
        assert_eq!(decoded.encoding, "windows-1252");
        assert_eq!(decoded.warning(), None);
    }

    #[test]
    fn meta_charset_is_used_when_bytes_are_not_utf8() {
        let page = b"<html><head><meta charset=\"iso-8859-2\"></head><body>\xB1</body></html>";
        let decoded = decode(page, true).unwrap();
        assert!(decoded.text.contains('\u{105}'), "{}", decoded.text);
        let old = b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=koi8-r\">";
        assert_eq!(meta_charset(old).unwrap().name(), "KOI8-R");
        assert_eq!(meta_charset(b"<p>no meta</p>"), None);
    }

    #[test]
    fn valid_utf8_wins_over_a_stale_declaration() {
        let page = "<meta charset=\"windows-1252\"><p>caf\u{e9}</p>";
        assert_eq!(decode(page.as_bytes(), true).unwrap().encoding, "UTF-8");
    }

    #[test]
    fn binary_is_refused() {
        assert_eq!(
            decode(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", false),
            Err(DecodeProblem::Binary)
        );
        let controls: Vec<u8> = (0..100u8).map(|i| i % 8 + 1).collect();
        assert_eq!(decode(&controls, false), Err(DecodeProblem::Binary));
    }
}
