//! Plain text to a semantic hierarchy.
//!
//! Blocks are separated by blank lines. Within that frame:
//! - Markdown ATX headings (`# Title` ... `###### Title`) and setext headings (a line underlined
//!   with `===` or `---`) are headings of their level;
//! - a *title-like* block (one short line, no final punctuation) is a heading too: level 1 if it
//!   opens the document (a news headline), else level 2;
//! - lines starting with `-`, `*`, `+` or a number and `.`/`)` are list items; consecutive items
//!   form one list, and an indented line continues the item above;
//! - everything else is a paragraph whose lines are joined with spaces.
//!
//! Headings nest as in HTML (see [`super::builder`]).

use super::builder::HierarchyBuilder;
use super::tree::NodeKind;

/// Longest line (in characters) that can be title-like.
const TITLE_MAX_CHARS: usize = 100;
/// Most words a title-like line can have.
const TITLE_MAX_WORDS: usize = 14;

/// Feeds the blocks of a plain-text document into `builder`. If the document opens with a
/// heading, it becomes the title; else the file name is (a subheading further down names a
/// part, not the document).
pub fn build(text: &str, builder: &mut HierarchyBuilder, file_name: &str) {
    let lines: Vec<&str> = text.lines().collect();
    let mut first_heading: Option<String> = None;
    let mut blocks_seen = 0usize;
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim().is_empty() {
            i += 1;
            continue;
        }
        // A block: lines up to the next blank line.
        let start = i;
        while i < lines.len() && !lines[i].trim().is_empty() {
            i += 1;
        }
        let block = &lines[start..i];
        let is_first = blocks_seen == 0;
        blocks_seen += 1;
        emit_block(block, is_first, builder, &mut first_heading);
    }
    let title = first_heading.unwrap_or_else(|| file_name.to_string());
    builder.set_title(title);
}

fn emit_block(
    block: &[&str],
    is_first: bool,
    builder: &mut HierarchyBuilder,
    first_heading: &mut Option<String>,
) {
    let mut heading = |builder: &mut HierarchyBuilder, level: u8, text: &str| {
        let text = text.trim();
        if is_first && first_heading.is_none() {
            *first_heading = Some(text.to_string());
        }
        builder.heading(level, text);
    };

    let mut paragraph: Vec<&str> = Vec::new();
    let mut in_list = false;
    let mut item: Vec<&str> = Vec::new();

    let flush_paragraph = |builder: &mut HierarchyBuilder, paragraph: &mut Vec<&str>| {
        if !paragraph.is_empty() {
            builder.block(NodeKind::Paragraph, &paragraph.join(" "));
            paragraph.clear();
        }
    };
    let flush_item = |builder: &mut HierarchyBuilder, item: &mut Vec<&str>| {
        if !item.is_empty() {
            builder.open(NodeKind::ListItem, "");
            builder.block(NodeKind::Paragraph, &item.join(" "));
            builder.close();
            item.clear();
        }
    };

    if block.len() == 1 && is_title_like(block[0]) && atx_heading(block[0]).is_none() {
        heading(builder, if is_first { 1 } else { 2 }, block[0]);
        return;
    }

    let mut k = 0;
    while k < block.len() {
        let line = block[k];
        if let Some((level, text)) = atx_heading(line) {
            flush_item(builder, &mut item);
            if in_list {
                builder.close();
                in_list = false;
            }
            flush_paragraph(builder, &mut paragraph);
            heading(builder, level, text);
            k += 1;
            continue;
        }
        if let Some(next) = block.get(k + 1)
            && let Some(level) = setext_level(next)
            && !line.trim_start().starts_with(['-', '*', '+'])
        {
            flush_item(builder, &mut item);
            if in_list {
                builder.close();
                in_list = false;
            }
            flush_paragraph(builder, &mut paragraph);
            heading(builder, level, line);
            k += 2;
            continue;
        }
        if let Some(text) = list_item(line) {
            flush_paragraph(builder, &mut paragraph);
            flush_item(builder, &mut item);
            if !in_list {
                builder.open(NodeKind::List, "");
                in_list = true;
            }
            item.push(text);
        } else if in_list && line.starts_with([' ', '\t']) {
            item.push(line.trim());
        } else {
            flush_item(builder, &mut item);
            if in_list {
                builder.close();
                in_list = false;
            }
            paragraph.push(line.trim());
        }
        k += 1;
    }
    flush_item(builder, &mut item);
    if in_list {
        builder.close();
    }
    flush_paragraph(builder, &mut paragraph);
}

/// `# Heading` to `###### Heading` (a space after the hashes; closing hashes dropped).
fn atx_heading(line: &str) -> Option<(u8, &str)> {
    let trimmed = line.trim_start();
    let hashes = trimmed.chars().take_while(|&c| c == '#').count();
    if !(1..=6).contains(&hashes) {
        return None;
    }
    let rest = &trimmed[hashes..];
    if !rest.is_empty() && !rest.starts_with([' ', '\t']) {
        return None;
    }
    let text = rest.trim().trim_end_matches('#').trim();
    if text.is_empty() {
        return None;
    }
    Some((hashes as u8, text))
}

/// A setext underline: `===` (level 1) or `---` (level 2), at least three characters.
fn setext_level(line: &str) -> Option<u8> {
    let t = line.trim();
    if t.len() >= 3 && t.chars().all(|c| c == '=') {
        Some(1)
    } else if t.len() >= 3 && t.chars().all(|c| c == '-') {
        Some(2)
    } else {
        None
    }
}

/// The text of a list line: `- x`, `* x`, `+ x`, `1. x`, `1) x`.
fn list_item(line: &str) -> Option<&str> {
    let t = line.trim_start();
    for bullet in ["- ", "* ", "+ ", "\u{2022} "] {
        if let Some(rest) = t.strip_prefix(bullet) {
            return (!rest.trim().is_empty()).then_some(rest.trim());
        }
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    if (1..=3).contains(&digits) {
        let rest = &t[digits..];
        for marker in [". ", ") "] {
            if let Some(item) = rest.strip_prefix(marker) {
                return (!item.trim().is_empty()).then_some(item.trim());
            }
        }
    }
    None
}

/// A short line without final punctuation that starts with a letter or digit.
fn is_title_like(line: &str) -> bool {
    let t = line.trim();
    let Some(first) = t.chars().next() else {
        return false;
    };
    let last = t.chars().last().unwrap_or(first);
    first.is_alphanumeric()
        && t.chars().count() <= TITLE_MAX_CHARS
        && t.split_whitespace().count() <= TITLE_MAX_WORDS
        && !matches!(last, '.' | '!' | '?' | ',' | ';' | ':' | '"' | '\u{201d}')
        && list_item(t).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::tree::{Document, SourceFormat};

    fn parse(text: &str) -> Document {
        let mut b = HierarchyBuilder::new("");
        build(text, &mut b, "file.txt");
        b.finish(SourceFormat::Text, |t| {
            std::iter::once(0..t.len()).collect()
        })
    }
    use crate::document::test_support::outline;

    #[test]
    fn headline_then_paragraphs() {
        let doc =
            parse("Ad sales boost profit\n\nFirst paragraph\ncontinues here.\n\nSecond one.\n");
        assert_eq!(doc.title, "Ad sales boost profit");
        assert_eq!(
            outline(&doc),
            // The root absorbs its single top-level section (a lone child is merged).
            vec![
                "document Ad sales boost profit",
                "  paragraph First paragraph continues here.",
                "  paragraph Second one.",
            ]
        );
    }

    #[test]
    fn markdown_headings_setext_and_lists() {
        let text = "# Top\n\nIntro.\n\n## Sub\n\n- one\n- two\n  more\n1. three\n\nSetext\n------\n\nBody.\n";
        let doc = parse(text);
        assert_eq!(
            outline(&doc),
            vec![
                "document Top",
                "  paragraph Intro.",
                "  section Sub",
                "    list ",
                "      list_item one",
                "      list_item two more",
                "      list_item three",
                "  section Setext",
                "    paragraph Body.",
            ]
        );
    }

    #[test]
    fn no_heading_means_file_name_title() {
        let doc = parse("Just a sentence here.\n");
        assert_eq!(doc.title, "file.txt");
        assert_eq!(outline(&doc), vec!["document Just a sentence here."]);
    }

    #[test]
    fn title_like_rules() {
        assert!(is_title_like("Ad sales boost Time Warner profit"));
        assert!(!is_title_like("It ended."));
        assert!(!is_title_like("- item"));
        assert!(!is_title_like(&"word ".repeat(20)));
    }
}
