//! A guard against pathologically deep HTML nesting.
//!
//! html5ever's tree builder checks element scopes by walking the stack of open elements, so a
//! page of 100,000 nested `<div>`s costs time quadratic in the depth (about 30 s here). No real
//! page nests more than a few hundred levels. Before parsing, a linear scan finds the deepest
//! nesting of start and end tags; only if it exceeds [`MAX_DEPTH`] are the start tags below that
//! depth, and their end tags, removed (their text stays). Pages within the limit are untouched.
//!
//! The scan is a tag tokenizer, not a parser: it skips comments, doctypes, processing
//! instructions and the raw text of `script`, `style` and similar elements, knows the void
//! elements, and matches an end tag with the nearest open start tag of the same name.

/// Nesting deeper than this is flattened.
pub const MAX_DEPTH: usize = 512;

const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];
const RAW_TEXT: &[&str] = &[
    "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes",
];

/// One tag found by the scan.
struct Tag {
    /// Byte range of the whole tag, `<` to `>`.
    start: usize,
    end: usize,
    name: String,
    closing: bool,
}

/// Finds the end of a tag starting at `from` (just after the name), honouring quotes.
fn tag_end(bytes: &[u8], from: usize) -> usize {
    let mut quote: Option<u8> = None;
    let mut i = from;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'>' => return i + 1,
            None => {}
        }
        i += 1;
    }
    bytes.len()
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    memchr::memmem::find(&haystack[from.min(haystack.len())..], needle).map(|i| from + i)
}

/// Every start and end tag of `html`, in order.
fn scan(html: &str) -> Vec<Tag> {
    let bytes = html.as_bytes();
    let mut tags = Vec::new();
    let mut i = 0;
    while let Some(lt) = memchr::memchr(b'<', &bytes[i..]).map(|p| i + p) {
        let rest = &bytes[lt..];
        if rest.starts_with(b"<!--") {
            i = find(bytes, b"-->", lt + 4).map_or(bytes.len(), |e| e + 3);
            continue;
        }
        if rest.starts_with(b"<!") || rest.starts_with(b"<?") {
            i = tag_end(bytes, lt + 2);
            continue;
        }
        let closing = rest.get(1) == Some(&b'/');
        let name_start = lt + 1 + usize::from(closing);
        let name_len = bytes[name_start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-' || **b == b':')
            .count();
        if name_len == 0 || !bytes[name_start].is_ascii_alphabetic() {
            i = lt + 1;
            continue;
        }
        let name = html[name_start..name_start + name_len].to_ascii_lowercase();
        let end = tag_end(bytes, name_start + name_len);
        let self_closing = !closing && end >= 2 && bytes[end - 2] == b'/';
        let raw = !closing && RAW_TEXT.contains(&name.as_str());
        if !self_closing && !VOID.contains(&name.as_str()) {
            tags.push(Tag {
                start: lt,
                end,
                name: name.clone(),
                closing,
            });
        }
        i = end;
        if raw {
            // Skip the raw text to the matching end tag (case-insensitively).
            let close = format!("</{name}");
            let lower_from = end;
            let mut j = lower_from;
            let found = loop {
                match memchr::memchr(b'<', &bytes[j..]).map(|p| j + p) {
                    Some(p)
                        if bytes[p..]
                            .iter()
                            .take(close.len())
                            .map(u8::to_ascii_lowercase)
                            .eq(close.bytes()) =>
                    {
                        break Some(p);
                    }
                    Some(p) => j = p + 1,
                    None => break None,
                }
            };
            i = found.unwrap_or(bytes.len());
        }
    }
    tags
}

/// `html` itself if its nesting stays within `max_depth`, else a copy without the start tags
/// nested deeper (and their end tags).
pub fn flatten_deep_nesting(html: &str, max_depth: usize) -> std::borrow::Cow<'_, str> {
    let tags = scan(html);
    // Open elements: (name, index of its start tag, dropped?)
    let mut open: Vec<(&str, usize, bool)> = Vec::new();
    let mut drop = vec![false; tags.len()];
    let mut too_deep = false;
    for (index, tag) in tags.iter().enumerate() {
        if !tag.closing {
            let dropped = open.len() >= max_depth;
            too_deep |= dropped;
            drop[index] = dropped;
            open.push((&tag.name, index, dropped));
        } else if let Some(at) = open.iter().rposition(|(name, _, _)| *name == tag.name) {
            drop[index] = open[at].2;
            open.truncate(at);
        }
    }
    if !too_deep {
        return std::borrow::Cow::Borrowed(html);
    }
    let mut out = String::with_capacity(html.len());
    let mut copied = 0;
    for (tag, _) in tags.iter().zip(&drop).filter(|(_, d)| **d) {
        out.push_str(&html[copied..tag.start]);
        copied = tag.end;
    }
    out.push_str(&html[copied..]);
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_pages_are_untouched() {
        let page = "<!DOCTYPE html><html><body><div><p>Hi<br>there</p><!-- <div> --></div>\
                    <script>if (a < b) { x = '<div>'; }</script></body></html>";
        assert!(matches!(
            flatten_deep_nesting(page, 4),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn deep_nesting_is_cut_at_the_limit() {
        let page = format!("{}text{}", "<div>".repeat(10), "</div>".repeat(10));
        let flat = flatten_deep_nesting(&page, 3);
        assert_eq!(flat, "<div><div><div>text</div></div></div>");
    }

    #[test]
    fn raw_text_and_attributes_do_not_confuse_the_scan() {
        let page = r#"<div title="a > b"><style>div>p{}</style><div>x</div></div>"#;
        assert_eq!(flatten_deep_nesting(page, 2), page);
        let tags = scan(page);
        let names: Vec<&str> = tags.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["div", "style", "style", "div", "div", "div"]);
    }
}
