//! The word view on the real text (issue 29, item 1): a matched pair's sentences as written,
//! with their punctuation, spacing and case, each word marked by how it met the other sentence
//! ([`crate::compare::word_alignment`]), and inside a word that differs from its partner the changed
//! characters marked, as Meld marks them inside a changed line.
//!
//! The characters that changed in a word are what lies between the longest common prefix and
//! the longest common suffix of the word and its partner (compared as written, so "The" against
//! "the" marks the "T"). For the short words of a sentence this is what a character diff finds,
//! without its cost; a word with no partner is changed as a whole.

use std::ops::Range;

use crate::compare::{AlignedWord, WordMatch};

/// A run of one sentence's text as the word view draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    /// The text as written.
    pub text: String,
    /// The kind of the word it belongs to; `None` for the text between words.
    pub kind: Option<WordMatch>,
    /// Characters that differ from the partner word (or the whole of a word without one).
    pub changed: bool,
}

/// The segments of one side's text: `sentences` are that side's sentences of the pair (two
/// for the joined side of a one-to-two match), `words` its aligned words (their spans index
/// their sentence) and `other` the other side's words, which partners index.
pub fn segments(sentences: &[&str], words: &[AlignedWord], other: &[AlignedWord]) -> Vec<Segment> {
    let mut out = Vec::new();
    for (part, sentence) in sentences.iter().enumerate() {
        if part > 0 {
            out.push(plain(" | "));
        }
        let mut in_part: Vec<&AlignedWord> = words
            .iter()
            .filter(|w| usize::from(w.part) == part && w.span.end <= sentence.len())
            .collect();
        in_part.sort_by_key(|w| w.span.start);
        let mut cursor = 0;
        for word in in_part {
            if word.span.start < cursor || !sentence.is_char_boundary(word.span.start) {
                continue;
            }
            if word.span.start > cursor {
                out.push(plain(&sentence[cursor..word.span.start]));
            }
            let written = &sentence[word.span.clone()];
            let partner = word
                .partner
                .and_then(|i| other.get(i as usize))
                .map(|p| p.word.as_str());
            push_word(&mut out, written, word.kind, partner);
            cursor = word.span.end;
        }
        if cursor < sentence.len() {
            out.push(plain(&sentence[cursor..]));
        }
    }
    out
}

fn plain(text: &str) -> Segment {
    Segment {
        text: text.to_string(),
        kind: None,
        changed: false,
    }
}

/// A word as up to three segments: the part it shares with its partner at the start, the
/// changed middle, the part shared at the end.
fn push_word(out: &mut Vec<Segment>, written: &str, kind: WordMatch, partner: Option<&str>) {
    let segment = |text: &str, changed: bool| Segment {
        text: text.to_string(),
        kind: Some(kind),
        changed,
    };
    if kind == WordMatch::Ignored {
        out.push(segment(written, false));
        return;
    }
    let Some(partner) = partner else {
        out.push(segment(written, kind == WordMatch::Unmatched));
        return;
    };
    let middle = changed_chars(written, partner);
    if middle.is_empty() {
        out.push(segment(written, false));
        return;
    }
    for (range, changed) in [
        (0..middle.start, false),
        (middle.clone(), true),
        (middle.end..written.len(), false),
    ] {
        if !range.is_empty() {
            out.push(segment(&written[range], changed));
        }
    }
}

/// The byte range of `word` between its longest common prefix and suffix with `partner`
/// (empty when the two are equal).
pub fn changed_chars(word: &str, partner: &str) -> Range<usize> {
    if word == partner {
        return 0..0;
    }
    let prefix: usize = word
        .chars()
        .zip(partner.chars())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum();
    let (rest, partner_rest) = (&word[prefix..], &partner[prefix.min(partner.len())..]);
    let suffix: usize = rest
        .chars()
        .rev()
        .zip(partner_rest.chars().rev())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum();
    let (start, end) = (prefix, word.len() - suffix);
    if start >= end {
        // The word is a prefix or suffix of its partner: what it lacks lies between two of its
        // characters; mark the one where they part.
        let at = start.min(word.len().saturating_sub(1));
        let next = word[at..].chars().next().map_or(at, |c| at + c.len_utf8());
        return at..next;
    }
    start..end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(text: &str, at: usize, kind: WordMatch, partner: Option<u32>) -> AlignedWord {
        AlignedWord {
            word: text.to_string(),
            part: 0,
            span: at..at + text.len(),
            kind,
            partner,
        }
    }

    #[test]
    fn the_changed_characters_lie_between_the_common_prefix_and_suffix() {
        assert_eq!(changed_chars("argued", "argues"), 5..6);
        assert_eq!(changed_chars("The", "the"), 0..1);
        assert_eq!(changed_chars("colour", "color"), 4..5);
        assert_eq!(changed_chars("same", "same"), 0..0);
        assert_eq!(changed_chars("fare", "fares"), 3..4);
        assert_eq!(changed_chars("café", "cafe"), 3..5);
    }

    #[test]
    fn the_real_text_keeps_its_punctuation_case_and_spaces() {
        let a = "The fares, said members, stay.";
        let b_words = [
            word("the", 0, WordMatch::Identical, Some(0)),
            word("fare", 4, WordMatch::Stemmed, Some(1)),
            word("stays", 9, WordMatch::Stemmed, Some(4)),
        ];
        let a_words = [
            word("The", 0, WordMatch::Identical, Some(0)),
            word("fares", 4, WordMatch::Stemmed, Some(1)),
            word("said", 11, WordMatch::Unmatched, None),
            word("members", 16, WordMatch::Unmatched, None),
            word("stay", 25, WordMatch::Stemmed, Some(2)),
        ];
        let segments = segments(&[a], &a_words, &b_words);
        let text: String = segments.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(text, a, "the sentence as written");
        let changed: Vec<&str> = segments
            .iter()
            .filter(|s| s.changed)
            .map(|s| s.text.as_str())
            .collect();
        assert_eq!(changed, vec!["T", "s", "said", "members", "y"]);
        assert!(
            segments
                .iter()
                .any(|s| s.text == ", " && s.kind.is_none() && !s.changed)
        );
    }

    #[test]
    fn two_sentences_of_a_joined_side_are_both_shown() {
        let words = [
            word("One", 0, WordMatch::Identical, None),
            AlignedWord {
                part: 1,
                ..word("Two", 0, WordMatch::Identical, None)
            },
        ];
        let segments = segments(&["One.", "Two."], &words, &[]);
        let text: String = segments.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(text, "One. | Two.");
    }
}
