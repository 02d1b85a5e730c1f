//! Sentence splitting (placeholder: splits after . ! ? followed by whitespace).
use std::ops::Range;

/// Splits `text` into sentences: trimmed byte ranges, in order.
pub fn split(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for i in 0..bytes.len() {
        if matches!(bytes[i], b'.' | b'!' | b'?')
            && bytes.get(i + 1).is_some_and(|b| b.is_ascii_whitespace())
        {
            push(text, start, i + 1, &mut out);
            start = i + 1;
        }
    }
    push(text, start, text.len(), &mut out);
    out
}

fn push(text: &str, start: usize, end: usize, out: &mut Vec<Range<usize>>) {
    let piece = &text[start..end];
    let lead = piece.len() - piece.trim_start().len();
    let trail = piece.len() - piece.trim_end().len();
    if start + lead < end - trail {
        out.push(start + lead..end - trail);
    }
}
