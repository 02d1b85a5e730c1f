//! Guards against HTML that costs html5ever time quadratic in its size.
//!
//! - Nesting: html5ever's tree builder checks element scopes by walking the stack of open
//!   elements, so a page of 100,000 nested `<div>`s costs time quadratic in the depth (about
//!   30 s here). No real page nests more than a few hundred levels. Start tags nested deeper
//!   than [`MAX_DEPTH`], and their end tags, are removed (their text stays). Where a removed
//!   tag parted the text (a paragraph, a heading, a block: [`super::html::separates_text`]), a
//!   `<br>` takes its place, which does not nest: the flattened blocks stay apart as lines and
//!   paragraphs (they were glued: "Title wordTitle word..."). A removed text-level tag (`b`,
//!   `span`) leaves nothing, as its text flowed on.
//! - Attributes: html5ever's tokenizer checks each attribute against the tag's others (to drop
//!   duplicates), so one tag's attributes cost the square of their number (a tag with 320,000
//!   attributes took 27 s). The attributes of a tag past [`MAX_ATTRIBUTES`] are removed (simdoc
//!   reads a handful: `hidden`, `style`, `role`, `aria-hidden`, `type`).
//!
//! A linear scan before parsing finds both; pages within the limits are untouched.
//!
//! The scan is a tag tokenizer, not a parser: it skips comments, doctypes, processing
//! instructions and the raw text of `script`, `style` and similar elements, knows the void
//! elements, and matches an end tag with the nearest open start tag of the same name.

/// Nesting deeper than this is flattened.
pub const MAX_DEPTH: usize = 512;

/// Attributes of one tag past this many are removed (as many as one XML element of a DOCX,
/// ODT or EPUB part may have: [`super::formats::xml::MAX_ATTRIBUTES`]).
pub const MAX_ATTRIBUTES: usize = 256;

/// What stands in for a flattened tag that parted the text.
const LINE_BREAK: &str = "<br>";

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

/// Where the attribute number `limit + 1` of a start tag begins, if it has more than `limit`:
/// its attributes are read from `from` (just after the name) to `end` (just after its `>`) as
/// html5ever reads them (a name up to white space, `/`, `>` or `=`, then an optional `=` and a
/// quoted or unquoted value).
fn attribute_past(bytes: &[u8], from: usize, end: usize, limit: usize) -> Option<usize> {
    let space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0C);
    let mut i = from;
    let mut count = 0;
    loop {
        // The white space before an attribute goes with it.
        let before = i;
        while i < end && (space(bytes[i]) || bytes[i] == b'/') {
            i += 1;
        }
        if i >= end || bytes[i] == b'>' {
            return None;
        }
        count += 1;
        if count > limit {
            return Some(before);
        }
        // The name (a first `=` belongs to it).
        i += 1;
        while i < end && !space(bytes[i]) && !matches!(bytes[i], b'/' | b'>' | b'=') {
            i += 1;
        }
        let after_name = i;
        while i < end && space(bytes[i]) {
            i += 1;
        }
        if i >= end || bytes[i] != b'=' {
            // No value: the white space goes with the next attribute.
            i = after_name;
            continue;
        }
        i += 1;
        while i < end && space(bytes[i]) {
            i += 1;
        }
        match bytes.get(i) {
            Some(&q) if q == b'"' || q == b'\'' => {
                let value = &bytes[i + 1..end.max(i + 1)];
                i = memchr::memchr(q, value).map_or(end, |p| i + 1 + p + 1);
            }
            _ => {
                while i < end && !space(bytes[i]) && bytes[i] != b'>' {
                    i += 1;
                }
            }
        }
    }
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

/// Every start and end tag of `html`, in order (void and self-closing ones left out), and the
/// byte ranges of attributes past `max_attributes` in any start tag.
fn scan(html: &str, max_attributes: usize) -> (Vec<Tag>, Vec<std::ops::Range<usize>>) {
    let bytes = html.as_bytes();
    let mut tags = Vec::new();
    let mut excess = Vec::new();
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
        if !closing
            && let Some(cut) = attribute_past(bytes, name_start + name_len, end, max_attributes)
        {
            // Up to the tag's own end: `>`, or `/>` for a self-closing one.
            let keep = if self_closing { 2 } else { 1 };
            let stop = if bytes.get(end - 1) == Some(&b'>') {
                end - keep
            } else {
                end
            };
            excess.push(cut..stop.max(cut));
        }
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
    (tags, excess)
}

/// `html` itself if it is within [`MAX_DEPTH`] and [`MAX_ATTRIBUTES`], else a copy cut to them
/// (see the module docs).
pub fn tame(html: &str) -> std::borrow::Cow<'_, str> {
    tame_to(html, MAX_DEPTH, MAX_ATTRIBUTES)
}

/// [`tame`] with other limits: start tags nested deeper than `max_depth` (and their end tags)
/// removed, and each tag's attributes past `max_attributes`.
pub fn tame_to(html: &str, max_depth: usize, max_attributes: usize) -> std::borrow::Cow<'_, str> {
    let (tags, excess) = scan(html, max_attributes);
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
    if !too_deep && excess.is_empty() {
        return std::borrow::Cow::Borrowed(html);
    }
    // The byte ranges to leave out, in order, and what takes their place: dropped tags whole
    // (a line break for those that parted the text: at most one byte longer than the tag, for
    // `<p>`), excess attributes (those of a dropped tag are inside its range).
    let mut cuts: Vec<(std::ops::Range<usize>, &str)> = tags
        .iter()
        .zip(&drop)
        .filter(|(_, d)| **d)
        .map(|(tag, _)| {
            let stands_in = if super::html::separates_text(&tag.name) {
                LINE_BREAK
            } else {
                ""
            };
            (tag.start..tag.end, stands_in)
        })
        .chain(excess.into_iter().map(|r| (r, "")))
        .collect();
    cuts.sort_by_key(|(r, _)| (r.start, std::cmp::Reverse(r.end)));
    let mut out = String::with_capacity(html.len());
    let mut copied = 0;
    for (cut, stands_in) in cuts {
        if cut.start < copied {
            continue;
        }
        out.push_str(&html[copied..cut.start]);
        out.push_str(stands_in);
        copied = cut.end;
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
        assert!(matches!(tame_to(page, 4, 3), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn deep_nesting_is_cut_at_the_limit() {
        let page = format!("{}text{}", "<div>".repeat(10), "</div>".repeat(10));
        let flat = tame_to(&page, 3, MAX_ATTRIBUTES);
        assert_eq!(
            flat,
            format!(
                "<div><div><div>{}text{}</div></div></div>",
                "<br>".repeat(7),
                "<br>".repeat(7)
            )
        );
    }

    #[test]
    fn flattened_blocks_stay_apart_and_flattened_inline_tags_leave_nothing() {
        let page = "<div><div><h1>Title</h1><p>A <b>word</b>.</p></div></div>";
        assert_eq!(
            tame_to(page, 2, MAX_ATTRIBUTES),
            "<div><div><br>Title<br><br>A word.<br></div></div>"
        );
    }

    #[test]
    fn raw_text_and_attributes_do_not_confuse_the_scan() {
        let page = r#"<div title="a > b"><style>div>p{}</style><div>x</div></div>"#;
        assert_eq!(tame_to(page, 2, MAX_ATTRIBUTES), page);
        let (tags, _) = scan(page, MAX_ATTRIBUTES);
        let names: Vec<&str> = tags.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["div", "style", "style", "div", "div", "div"]);
    }

    #[test]
    fn attributes_past_the_limit_are_removed() {
        let page = r#"<p a="1" b='x > y' c=3 d e="5">Text</p><img a b c d/><br x y z>"#;
        assert_eq!(
            tame_to(page, MAX_DEPTH, 2),
            r#"<p a="1" b='x > y'>Text</p><img a b/><br x y>"#
        );
        assert!(matches!(
            tame_to(page, MAX_DEPTH, 5),
            std::borrow::Cow::Borrowed(_)
        ));
        let many: String = (0..320_000).map(|i| format!(" a{i}")).collect();
        let page = format!("<p{many}>Still read.</p>");
        let tamed = tame(&page);
        assert_eq!(tamed.matches(" a").count(), MAX_ATTRIBUTES);
        assert!(
            tamed.ends_with(" a255>Still read.</p>"),
            "{}",
            &tamed[tamed.len() - 40..]
        );
    }
}
