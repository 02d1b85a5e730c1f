//! From positioned glyphs to a semantic hierarchy: lines, running headers and footers, page
//! numbers, paragraphs and headings.
//!
//! A PDF has no paragraphs or headings, only glyphs placed on pages; this module infers them,
//! as readers' eyes do:
//!
//! - **lines**: consecutive glyphs on one baseline (within half a font size), a space where the
//!   gap to the previous glyph exceeds [`SPACE_GAP`] of the font size;
//! - **page furniture**: among the [`BAND_LINES`] top and bottom lines of each page, a line that
//!   is a page number (`12`, `- 12 -`, `Page 12 of 40`, `xii`) is dropped (a number alone is no
//!   sentence), and a line whose text, digits aside, recurs in the same band on at least
//!   [`REPEAT_SHARE`] of the pages (and on two pages at least) is a running header or footer:
//!   it is kept once, in a boilerplate region at the start (headers) or end (footers);
//! - **paragraphs**: a new paragraph starts where the gap between baselines exceeds
//!   [`PARAGRAPH_GAP`] times the document's usual line spacing, where the font size changes,
//!   where a line is indented after a line that ended a sentence, or where the previous line
//!   ended a sentence and the next line's first word would have fitted after it (so the break
//!   was deliberate); a paragraph runs on across a page break unless that last rule holds;
//! - **headings**: a block of at most [`HEADING_MAX_LINES`] lines set at least
//!   [`HEADING_SIZE_RATIO`] times the body size (the size most characters have) is a heading;
//!   larger sizes rank higher (level 1 is the largest). A heading set in the body size (bold
//!   only) is not found: the glyphs as read carry no weight;
//! - **hyphenation**: a line ending in a hyphen after a letter, followed by a line starting with
//!   a lowercase letter, joins without the hyphen ("docu-" + "ment" = "document"); a hyphenated
//!   compound broken at its hyphen ("twenty-" + "four") loses it too, which costs less than
//!   keeping every "docu- ment".

use std::collections::{HashMap, HashSet};

use crate::document::builder::HierarchyBuilder;
use crate::document::tree::NodeKind;

/// A gap wider than this share of the font size between two glyphs is a space.
pub const SPACE_GAP: f32 = 0.2;
/// How many lines at the top and at the bottom of a page may be headers, footers or numbers.
pub const BAND_LINES: usize = 2;
/// Share of the pages a line must recur on to be a running header or footer.
pub const REPEAT_SHARE: f32 = 0.5;
/// A baseline gap this many times the usual line spacing starts a paragraph.
pub const PARAGRAPH_GAP: f32 = 1.3;
/// Font size, relative to the body size, from which a short block is a heading.
pub const HEADING_SIZE_RATIO: f32 = 1.12;
/// Most lines a heading has.
pub const HEADING_MAX_LINES: usize = 3;
/// Most distinct heading levels told apart.
const MAX_LEVELS: usize = 6;

/// One glyph (or a few characters drawn as one) as placed on the page, in PDF user space
/// (points, origin at the bottom left: `y` grows upwards).
#[derive(Clone, Debug, PartialEq)]
pub struct Glyph {
    pub x: f32,
    /// The baseline.
    pub y: f32,
    /// The font size as drawn (after the text and graphics transforms).
    pub size: f32,
    /// How far the glyph advances the pen.
    pub advance: f32,
    pub text: String,
}

/// The glyphs of one page, in the order the page draws them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Page {
    pub glyphs: Vec<Glyph>,
}

/// One line of text.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub text: String,
    pub page: usize,
    pub x0: f32,
    pub x1: f32,
    /// Baseline.
    pub y: f32,
    /// The largest font size in the line.
    pub size: f32,
}

/// Groups each page's glyphs into lines.
pub fn lines(pages: &[Page]) -> Vec<Vec<Line>> {
    pages
        .iter()
        .enumerate()
        .map(|(index, page)| page_lines(index, &page.glyphs))
        .collect()
}

fn page_lines(page: usize, glyphs: &[Glyph]) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    let mut pen_end = f32::NEG_INFINITY;
    for glyph in glyphs {
        let size = glyph.size.max(1.0);
        let same_line = lines
            .last()
            .is_some_and(|line| line.page == page && (glyph.y - line.y).abs() <= 0.5 * size);
        if !same_line {
            lines.push(Line {
                text: String::new(),
                page,
                x0: glyph.x,
                x1: glyph.x,
                y: glyph.y,
                size,
            });
            pen_end = glyph.x;
        }
        let Some(line) = lines.last_mut() else {
            continue;
        };
        let is_space = glyph.text.chars().all(char::is_whitespace);
        if !line.text.is_empty()
            && !line.text.ends_with(' ')
            && !is_space
            && glyph.x > pen_end + SPACE_GAP * size
        {
            line.text.push(' ');
        }
        if is_space {
            if !line.text.is_empty() && !line.text.ends_with(' ') {
                line.text.push(' ');
            }
        } else {
            line.text.push_str(&glyph.text);
            line.size = line.size.max(size);
            line.x0 = line.x0.min(glyph.x);
            line.x1 = line.x1.max(glyph.x + glyph.advance);
        }
        pen_end = glyph.x + glyph.advance;
    }
    lines.retain(|l| l.text.chars().any(|c| !c.is_whitespace()));
    for line in &mut lines {
        let trimmed = line.text.trim_end().len();
        line.text.truncate(trimmed);
    }
    lines
}

/// What the page furniture detection decided for each line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Body,
    PageNumber,
    Header,
    Footer,
}

/// A page number as printed alone on a line: `12`, `- 12 -`, `[12]`, `Page 12`, `12 of 40`,
/// `12/40`, or a lowercase roman numeral.
pub fn is_page_number(text: &str) -> bool {
    let core = text.trim().trim_matches(|c: char| {
        matches!(c, '-' | '–' | '—' | '[' | ']' | '(' | ')' | '|' | '.' | ' ')
    });
    let lower = core.to_lowercase();
    let rest = lower
        .strip_prefix("page")
        .or_else(|| lower.strip_prefix("p."))
        .map(str::trim_start)
        .unwrap_or(&lower);
    let mut parts = rest
        .split(|c: char| c == '/' || c.is_whitespace())
        .filter(|p| !p.is_empty());
    let Some(first) = parts.next() else {
        return false;
    };
    let number = |s: &str| s.len() <= 5 && s.chars().all(|c| c.is_ascii_digit());
    let roman = |s: &str| is_small_roman(s);
    if !(number(first) || (roman(first) && rest == first)) {
        return false;
    }
    match (parts.next(), parts.next(), parts.next()) {
        (None, _, _) => true,
        (Some("of"), Some(total), None) => number(total),
        (Some(total), None, _) => number(total) && rest.contains('/'),
        _ => false,
    }
}

/// A lowercase roman numeral from 1 to 39, as front matter is numbered.
fn is_small_roman(text: &str) -> bool {
    let units = text.trim_start_matches('x');
    let tens = text.len() - units.len();
    tens <= 3
        && !text.is_empty()
        && matches!(
            units,
            "" | "i" | "ii" | "iii" | "iv" | "v" | "vi" | "vii" | "viii" | "ix"
        )
}

/// The key under which running lines are compared: lowercase, digits folded (a header that
/// carries the page number still repeats).
fn furniture_key(text: &str) -> String {
    let mut key = String::with_capacity(text.len());
    let mut in_digits = false;
    for c in text.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                key.push('#');
            }
            in_digits = true;
        } else {
            in_digits = false;
            key.extend(c.to_lowercase());
        }
    }
    key.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Decides, for each line of each page, whether it is body text or page furniture.
pub fn roles(pages: &[Vec<Line>]) -> Vec<Vec<Role>> {
    // Band positions: the indexes, in top-to-bottom order, of each page's first and last lines.
    let bands: Vec<(Vec<usize>, Vec<usize>)> = pages
        .iter()
        .map(|lines| {
            let mut order: Vec<usize> = (0..lines.len()).collect();
            order.sort_by(|&a, &b| lines[b].y.total_cmp(&lines[a].y));
            let top: Vec<usize> = order.iter().take(BAND_LINES).copied().collect();
            let bottom: Vec<usize> = order
                .iter()
                .rev()
                .take(BAND_LINES)
                .filter(|i| !top.contains(i))
                .copied()
                .collect();
            (top, bottom)
        })
        .collect();
    let needed = ((pages.len() as f32 * REPEAT_SHARE).ceil() as usize).max(2);
    // On how many pages each key occurs in the top (or bottom) band.
    let count = |top: bool| {
        let mut counts: HashMap<String, usize> = HashMap::new();
        for (page, (top_band, bottom_band)) in bands.iter().enumerate() {
            let band = if top { top_band } else { bottom_band };
            let keys: HashSet<String> = band
                .iter()
                .map(|&i| furniture_key(&pages[page][i].text))
                .collect();
            for key in keys {
                *counts.entry(key).or_default() += 1;
            }
        }
        counts
    };
    let top_counts = count(true);
    let bottom_counts = count(false);
    pages
        .iter()
        .zip(&bands)
        .map(|(lines, (top, bottom))| {
            (0..lines.len())
                .map(|i| {
                    let in_top = top.contains(&i);
                    let in_bottom = bottom.contains(&i);
                    if !(in_top || in_bottom) {
                        return Role::Body;
                    }
                    let text = &lines[i].text;
                    if is_page_number(text) {
                        return Role::PageNumber;
                    }
                    let key = furniture_key(text);
                    let counts = if in_top { &top_counts } else { &bottom_counts };
                    if counts.get(&key).copied().unwrap_or(0) >= needed {
                        if in_top { Role::Header } else { Role::Footer }
                    } else {
                        Role::Body
                    }
                })
                .collect()
        })
        .collect()
}

/// The most common value of `values` after rounding to half points, weighted.
fn mode(values: impl Iterator<Item = (f32, usize)>) -> Option<f32> {
    let mut counts: HashMap<i32, usize> = HashMap::new();
    for (value, weight) in values {
        *counts.entry((value * 2.0).round() as i32).or_default() += weight;
    }
    counts
        .into_iter()
        .max_by_key(|&(value, count)| (count, -value))
        .map(|(value, _)| value as f32 / 2.0)
}

fn median(mut values: Vec<f32>) -> Option<f32> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f32::total_cmp);
    Some(values[values.len() / 2])
}

fn ends_sentence(text: &str) -> bool {
    text.trim_end()
        .trim_end_matches(['"', '\'', '”', '’', ')', ']'])
        .ends_with(['.', '!', '?'])
}

/// The width of a line's first word, estimated from the line's width per character.
fn first_word_width(line: &Line) -> f32 {
    let chars = line.text.chars().count().max(1) as f32;
    let word = line
        .text
        .split_whitespace()
        .next()
        .map_or(0, |w| w.chars().count()) as f32;
    (line.x1 - line.x0) * word / chars
}

/// Joins a paragraph's lines, undoing hyphenation at line ends (see the module docs).
pub fn join_lines<'a>(lines: impl IntoIterator<Item = &'a str>) -> String {
    let mut text = String::new();
    for line in lines {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let hyphenated = {
            let mut tail = text.chars().rev();
            matches!(tail.next(), Some('-' | '\u{00AD}' | '\u{2010}'))
                && tail.next().is_some_and(char::is_alphabetic)
        };
        let continues_word = line.chars().next().is_some_and(char::is_lowercase);
        if hyphenated && continues_word {
            text.pop();
            text.push_str(line);
        } else {
            if text.ends_with('\u{00AD}') {
                text.pop();
            }
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(line);
        }
    }
    text
}

/// Describes the pages' text to `builder`: running headers first (a boilerplate region), then
/// headings and paragraphs, then running footers (a boilerplate region).
pub fn build(pages: &[Page], builder: &mut HierarchyBuilder) {
    let lines = lines(pages);
    let roles = roles(&lines);
    let mut headers: Vec<&str> = Vec::new();
    let mut footers: Vec<&str> = Vec::new();
    let mut body: Vec<&Line> = Vec::new();
    for (page, page_roles) in lines.iter().zip(&roles) {
        for (line, role) in page.iter().zip(page_roles) {
            match role {
                Role::Body => body.push(line),
                Role::Header if !headers.contains(&line.text.as_str()) => headers.push(&line.text),
                Role::Footer if !footers.contains(&line.text.as_str()) => footers.push(&line.text),
                Role::Header | Role::Footer | Role::PageNumber => {}
            }
        }
    }
    region(builder, "header", &headers);
    builder.open_scope();
    body_blocks(&body, builder);
    builder.close();
    region(builder, "footer", &footers);
}

fn region(builder: &mut HierarchyBuilder, label: &str, lines: &[&str]) {
    if lines.is_empty() {
        return;
    }
    builder.open(NodeKind::Region, label);
    for line in lines {
        builder.block(NodeKind::Paragraph, line);
    }
    builder.close();
}

fn body_blocks(body: &[&Line], builder: &mut HierarchyBuilder) {
    let chars = |l: &Line| l.text.chars().filter(|c| !c.is_whitespace()).count();
    let Some(body_size) = mode(body.iter().map(|l| (l.size, chars(l)))) else {
        return;
    };
    let same_size = |a: &Line, b: &Line| (a.size - b.size).abs() <= 0.5;
    let spacing = median(
        body.windows(2)
            .filter(|w| w[0].page == w[1].page && same_size(w[0], w[1]))
            .filter(|w| (w[0].size - body_size).abs() <= 0.5)
            .map(|w| w[0].y - w[1].y)
            .filter(|gap| *gap > 0.0)
            .collect(),
    )
    .unwrap_or(body_size * 1.2);
    let left = median(body.iter().map(|l| l.x0).collect()).unwrap_or(0.0);
    let right = {
        let mut ends: Vec<f32> = body.iter().map(|l| l.x1).collect();
        ends.sort_by(f32::total_cmp);
        ends.get(ends.len() * 9 / 10).copied().unwrap_or(0.0)
    };
    // Heading sizes, largest first: their rank is the level.
    let mut heading_sizes: Vec<i32> = body
        .iter()
        .filter(|l| l.size >= body_size * HEADING_SIZE_RATIO)
        .map(|l| (l.size * 2.0).round() as i32)
        .collect();
    heading_sizes.sort_unstable_by(|a, b| b.cmp(a));
    heading_sizes.dedup();
    let level_of = |size: f32| {
        let key = (size * 2.0).round() as i32;
        let rank = heading_sizes.iter().position(|&s| s == key).unwrap_or(0);
        (rank.min(MAX_LEVELS - 1) + 1) as u8
    };

    let mut block: Vec<&Line> = Vec::new();
    let flush = |block: &mut Vec<&Line>, builder: &mut HierarchyBuilder| {
        let Some(first) = block.first() else {
            return;
        };
        let text = join_lines(block.iter().map(|l| l.text.as_str()));
        let words = text.split_whitespace().count();
        if first.size >= body_size * HEADING_SIZE_RATIO
            && block.len() <= HEADING_MAX_LINES
            && words <= 30
        {
            builder.heading(level_of(first.size), &text);
        } else {
            builder.block(NodeKind::Paragraph, &text);
        }
        block.clear();
    };
    for line in body {
        if let Some(previous) = block.last() {
            // A sentence ended and the next line's first word would have fitted after it: the
            // line was broken on purpose, at a paragraph's end.
            let deliberate_break = ends_sentence(&previous.text)
                && previous.x1 + first_word_width(line) + 0.5 * line.size < right;
            let breaks = if previous.page != line.page {
                deliberate_break || !same_size(previous, line)
            } else {
                let gap = previous.y - line.y;
                gap > PARAGRAPH_GAP * spacing
                    || gap < 0.0
                    || !same_size(previous, line)
                    || deliberate_break
                    || (ends_sentence(&previous.text) && line.x0 > left + 0.8 * line.size)
            };
            if breaks {
                flush(&mut block, builder);
            }
        }
        block.push(line);
    }
    flush(&mut block, builder);
}

#[cfg(test)]
mod tests;
