//! Sentence offsets that point into the document as read, for tools outside simdoc.
//!
//! simdoc's own [`Document::text`] is rebuilt from the file: whitespace collapsed, blocks joined
//! by blank lines, list numbers ("1. ", "- ") and Markdown heading marks dropped. Byte spans into
//! it are right for simdoc's viewer but wrong for anyone who reads the file itself: in plain-text
//! files with numbered lists most spans were shifted from their place. PAN's text-alignment task
//! (and its scorers) name reused text by *character* offsets into the file, so every sentence
//! also carries [`Sentence::offsets`]: Unicode scalar values (Python's string indices) into
//! - the decoded file, for plain text ([`OffsetsInto::File`]), found by [`anchor`];
//! - [`Document::text`], for the formats whose text simdoc extracts (HTML, DOCX, ODT, PDF, EPUB:
//!   the file's characters are markup, so the extracted text is the only text there is;
//!   [`OffsetsInto::ExtractedText`]), counted by [`char_offsets_of_spans`].

use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::Document;
#[cfg(test)]
use super::Sentence;

/// What [`Sentence::offsets`] count characters of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OffsetsInto {
    /// The file's decoded text (plain text files).
    File,
    /// simdoc's extracted text, [`Document::text`] (markup and packaged formats).
    #[default]
    ExtractedText,
}

/// Sets every sentence's [`Sentence::offsets`] to the character range of its byte
/// [`Sentence::span`] in [`Document::text`]: one pass over the text, since spans come in order.
pub fn char_offsets_of_spans(doc: &mut Document) {
    let text = doc.text.as_str();
    let mut cursor = CharCursor::default();
    for sentence in &mut doc.sentences {
        let start = cursor.advance_to(text, sentence.span.start);
        let end = cursor.advance_to(text, sentence.span.end);
        sentence.offsets = start..end;
    }
    doc.offsets_into = OffsetsInto::ExtractedText;
}

/// Byte position to character position, moving forward only (backwards restarts the count).
#[derive(Default)]
struct CharCursor {
    byte: usize,
    chars: usize,
}

impl CharCursor {
    fn advance_to(&mut self, text: &str, byte: usize) -> usize {
        let byte = floor_char_boundary(text, byte.min(text.len()));
        if byte < self.byte {
            *self = CharCursor::default();
        }
        self.chars += text[self.byte..byte].chars().count();
        self.byte = byte;
        self.chars
    }
}

fn floor_char_boundary(text: &str, mut byte: usize) -> usize {
    while byte > 0 && !text.is_char_boundary(byte) {
        byte -= 1;
    }
    byte
}

/// How many characters of the file a sentence's non-space characters may be searched ahead of
/// the previous sentence's end before the search gives up on that sentence: what plain-text
/// reading drops between two sentences is a list number or a heading mark, never pages.
const SEARCH_WINDOW: usize = 4096;

/// How many of a sentence's first non-space characters must match in a row for its start to be
/// taken as found (fewer when the sentence is shorter).
const START_MATCH: usize = 12;

/// Sets every sentence's [`Sentence::offsets`] to its character range in `source`, the decoded
/// text the document was parsed from, and marks the offsets as [`OffsetsInto::File`].
///
/// Reading drops whitespace runs, list numbers and heading marks but keeps every other character
/// in order, so a sentence's non-space characters appear in the file in the same order. Each
/// sentence is found from the end of the one before it: its start is the first place where its
/// first characters follow each other (whitespace in the file skipped), and its end is where its
/// last character matched. A character the reading changed is skipped on both sides; a sentence
/// that cannot be found within [`SEARCH_WINDOW`] characters gets the empty range at the cursor
/// (never a wrong place further on).
pub fn anchor(doc: &mut Document, source: &str) {
    // Byte position in `source` where the search for the next sentence starts.
    let mut cursor = 0usize;
    let mut chars = CharCursor::default();
    let mut last_end = 0usize;
    for sentence in &mut doc.sentences {
        match locate(source, cursor, &sentence.text) {
            Some(found) => {
                let start = chars.advance_to(source, found.start);
                let end = chars.advance_to(source, found.end);
                sentence.offsets = start..end;
                last_end = end;
                cursor = found.end;
            }
            None => sentence.offsets = last_end..last_end,
        }
    }
    doc.offsets_into = OffsetsInto::File;
}

/// The non-space characters of `text` from byte `from`, with their byte positions.
fn non_space(text: &str, from: usize) -> impl Iterator<Item = (usize, char)> + '_ {
    text[from..]
        .char_indices()
        .map(move |(b, c)| (from + b, c))
        .filter(|(_, c)| !c.is_whitespace())
}

/// The byte range of `source` holding `sentence`'s non-space characters, searched from byte
/// `from` (a char boundary).
fn locate(source: &str, from: usize, sentence: &str) -> Option<Range<usize>> {
    let wanted: Vec<char> = sentence.chars().filter(|c| !c.is_whitespace()).collect();
    let prefix = &wanted[..wanted.len().min(START_MATCH)];
    let first = *prefix.first()?;
    let starts_here = |at: usize| {
        non_space(source, at)
            .take(prefix.len())
            .map(|(_, c)| c)
            .eq(prefix.iter().copied())
    };
    let start = non_space(source, from)
        .take(SEARCH_WINDOW)
        .find(|&(at, c)| c == first && starts_here(at))?
        .0;
    // Walk on: equal characters advance both; a character changed by reading (a normalised
    // quote, say) is skipped on the sentence's side, and an extra one in the file (a dropped
    // mark) on the file's side when the sentence's next character follows it closely.
    let mut file = non_space(source, start).peekable();
    let mut end = start;
    let mut i = 0;
    while i < wanted.len() {
        let Some(&(at, c)) = file.peek() else { break };
        if c == wanted[i] {
            end = at + c.len_utf8();
            i += 1;
            file.next();
            continue;
        }
        let ahead = non_space(source, at)
            .skip(1)
            .take(7)
            .find(|&(_, c)| c == wanted[i]);
        match ahead {
            Some((k, _)) => {
                while file.peek().is_some_and(|&(b, _)| b < k) {
                    file.next();
                }
            }
            None => i += 1,
        }
    }
    Some(start..end)
}

/// The text of a sentence read back from `source` at its offsets, whitespace collapsed: what a
/// tool outside simdoc sees there. For tests.
#[cfg(test)]
pub fn read_back(source: &str, sentence: &Sentence) -> String {
    let text: String = source
        .chars()
        .skip(sentence.offsets.start)
        .take(sentence.offsets.len())
        .collect();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{SourceFormat, parse_text};

    fn parsed(source: &str) -> Document {
        parse_text(source, "t.txt", SourceFormat::Text)
    }

    #[test]
    fn numbered_lists_and_headings_keep_their_sentences_in_place() {
        let source = "# The title\n\nIntro line one. Intro two.\n\n1. First item here.\n2. Second\n   item continues.\n\n- A bullet.\n";
        let doc = parsed(source);
        assert_eq!(doc.offsets_into, OffsetsInto::File);
        assert!(doc.sentences.len() >= 5);
        for s in &doc.sentences {
            assert_eq!(read_back(source, s), s.text, "{:?}", s.offsets);
        }
        let item = doc
            .sentences
            .iter()
            .find(|s| s.text.starts_with("First"))
            .unwrap();
        let start = source.find("First").unwrap();
        assert_eq!(item.offsets.start, source[..start].chars().count());
    }

    #[test]
    fn offsets_count_characters_not_bytes() {
        let source = "Café crème brûlée. Ünïcödé ends here.\n";
        let doc = parsed(source);
        let second = &doc.sentences[1];
        assert_eq!(second.offsets.start, 19);
        assert_eq!(read_back(source, second), "Ünïcödé ends here.");
    }

    #[test]
    fn html_offsets_index_the_extracted_text() {
        let doc = parse_text(
            "<html><body><h1>Tïtle</h1><p>One sentence. Two <b>bold</b> words.</p></body></html>",
            "t.html",
            SourceFormat::Html,
        );
        assert_eq!(doc.offsets_into, OffsetsInto::ExtractedText);
        for s in &doc.sentences {
            let back: String = doc
                .text
                .chars()
                .skip(s.offsets.start)
                .take(s.offsets.len())
                .collect();
            assert_eq!(back, s.text);
        }
    }

    #[test]
    fn a_sentence_that_is_not_in_the_source_gets_an_empty_range_not_a_wrong_one() {
        let mut doc = parsed("Alpha beta gamma. Delta epsilon.");
        doc.sentences[0].text = "Nothing like it".into();
        anchor(&mut doc, "Alpha beta gamma. Delta epsilon.");
        assert!(doc.sentences[0].offsets.is_empty());
        assert_eq!(
            read_back("Alpha beta gamma. Delta epsilon.", &doc.sentences[1]),
            "Delta epsilon."
        );
    }
}
