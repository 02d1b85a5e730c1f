//! The words of a sentence with where they stand in it, and the refined term each became (if
//! any).
//!
//! Refining ([`super::refine_with`]) is defined through this module, so the word-by-word view of
//! a matched pair (compare::word_alignment) shows exactly the terms the matchers compared, at their
//! place in the original text. The rules are those of the parent module's docs; the only
//! difference to reading a lowercased copy is that a word is cut out of the original text first
//! and lowercased afterwards, so that spans stay byte ranges of the sentence as written.

use std::ops::Range;

use super::{
    NORMALIZER, RefineOptions, TermKind, is_acronym_piece, is_apostrophe, is_cjk, is_digits,
    is_hyphen, is_stopword, is_word_char,
};

/// One word of a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    /// Byte range in the sentence, from its first to its last letter or digit (an acronym's
    /// inner periods included: "U.S" of "U.S.").
    pub span: Range<usize>,
    /// The refined term and its kind, or `None` when refining drops the word (a stopword or a
    /// number the options do not keep).
    pub term: Option<(String, TermKind)>,
    /// A content word as written, lowercased and cleaned but not stemmed ("studies" of the term
    /// "studi"), when asked for ([`words_with_surface`]): dictionaries such as WordNet list
    /// words, not stems.
    pub surface: Option<String>,
}

/// The words of `sentence` in reading order, each with its refined term under `options`.
pub fn words(sentence: &str, options: &RefineOptions) -> Vec<Word> {
    words_with(sentence, options, false)
}

/// [`words`] with each content word's [`Word::surface`] form as well.
pub fn words_with_surface(sentence: &str, options: &RefineOptions) -> Vec<Word> {
    words_with(sentence, options, true)
}

fn words_with(sentence: &str, options: &RefineOptions, surface: bool) -> Vec<Word> {
    let mut out = Vec::new();
    for run in runs(sentence) {
        for (part, cjk) in script_parts(sentence, run) {
            if cjk {
                cjk_words(sentence, part, &mut out);
            } else {
                spaced_words(sentence, part, options, surface, &mut out);
            }
        }
    }
    out
}

/// The words of a run of a script written with spaces between words.
fn spaced_words(
    sentence: &str,
    run: Range<usize>,
    options: &RefineOptions,
    keep_surface: bool,
    out: &mut Vec<Word>,
) {
    let bare = trim_to_alphanumeric(sentence, run.clone());
    if bare.is_empty() {
        return;
    }
    // Stopwords are matched on the token as written (with its apostrophe), before cleaning
    // would turn "don't" into "dont".
    let lower = sentence[bare.clone()].to_lowercase();
    let lower_bare = lower.trim_matches(|c: char| !c.is_alphanumeric());
    if is_stopword(lower_bare) {
        let term = options
            .keep_stopwords
            .then(|| clean(lower_bare))
            .filter(|t| !t.is_empty())
            .map(|t| (t, TermKind::Stopword));
        out.push(Word {
            span: bare,
            term,
            surface: None,
        });
        return;
    }
    for piece in period_pieces(sentence, run) {
        let cleaned = clean(&sentence[piece.clone()].to_lowercase());
        if cleaned.is_empty() {
            continue;
        }
        let mut surface = None;
        let term = if is_stopword(&cleaned) {
            options
                .keep_stopwords
                .then_some((cleaned, TermKind::Stopword))
        } else if !cleaned.chars().any(char::is_alphabetic) {
            options.keep_numbers.then_some((cleaned, TermKind::Number))
        } else {
            let stem = NORMALIZER.stemmer.stem(&cleaned).into_owned();
            if keep_surface {
                surface = Some(cleaned);
            }
            Some((stem, TermKind::Content))
        };
        out.push(Word {
            span: piece,
            term,
            surface,
        });
    }
}

/// The words of a run of Chinese or Japanese characters (rule 5 of the parent module): one
/// term per pair of neighbouring characters. The spans do not overlap: each character is the
/// span of the pair it starts, and the run's last character joins the last pair's span. A
/// character alone is its own term.
fn cjk_words(sentence: &str, run: Range<usize>, out: &mut Vec<Word>) {
    let chars: Vec<(usize, char)> = sentence[run.clone()]
        .char_indices()
        .map(|(at, c)| (run.start + at, c))
        .collect();
    let term = |text: &str| Some((text.to_lowercase(), TermKind::Content));
    if chars.len() == 1 {
        out.push(Word {
            span: run.clone(),
            term: term(&sentence[run]),
            surface: None,
        });
        return;
    }
    for i in 0..chars.len() - 1 {
        let start = chars[i].0;
        let pair_end = chars.get(i + 2).map_or(run.end, |&(at, _)| at);
        let span_end = if i + 2 == chars.len() {
            run.end
        } else {
            chars[i + 1].0
        };
        out.push(Word {
            span: start..span_end,
            term: term(&sentence[start..pair_end]),
            surface: None,
        });
    }
}

/// `run` cut where it passes between a Chinese or Japanese character and any other (a Latin
/// brand name inside Chinese text is a word of its own), each part with whether it is CJK.
pub(super) fn script_parts(text: &str, run: Range<usize>) -> Vec<(Range<usize>, bool)> {
    let mut parts: Vec<(Range<usize>, bool)> = Vec::new();
    for (at, c) in text[run.clone()].char_indices() {
        let (at, cjk) = (run.start + at, is_cjk(c));
        match parts.last_mut() {
            Some((part, kind)) if *kind == cjk => part.end = at + c.len_utf8(),
            _ => parts.push((at..at + c.len_utf8(), cjk)),
        }
    }
    parts
}

/// Byte ranges of the maximal runs of word characters.
fn runs(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut start = None;
    let mut chars = text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')));
    std::iter::from_fn(move || {
        for (at, c) in chars.by_ref() {
            match (start, is_word_char(c) && at < text.len()) {
                (None, true) => start = Some(at),
                (Some(s), false) => {
                    start = None;
                    return Some(s..at);
                }
                _ => {}
            }
        }
        None
    })
}

/// `range` without its leading and trailing characters that are not letters or digits.
fn trim_to_alphanumeric(text: &str, range: Range<usize>) -> Range<usize> {
    let slice = &text[range.clone()];
    let start_trimmed = slice.trim_start_matches(|c: char| !c.is_alphanumeric());
    let start = range.start + (slice.len() - start_trimmed.len());
    let trimmed = start_trimmed.trim_end_matches(|c: char| !c.is_alphanumeric());
    start..start + trimmed.len()
}

/// A run cut at the periods that are not inside an acronym or a number (the parent module's
/// rule 1), each piece trimmed to its letters and digits; empty pieces are left out.
fn period_pieces(text: &str, run: Range<usize>) -> Vec<Range<usize>> {
    let mut pieces: Vec<Range<usize>> = Vec::new();
    let mut at = run.start;
    for piece in text[run.clone()].split('.') {
        pieces.push(at..at + piece.len());
        at += piece.len() + 1;
    }
    let mut out = Vec::new();
    let mut current: Option<Range<usize>> = None;
    for (i, piece) in pieces.iter().enumerate() {
        if i > 0 {
            let (prev, this) = (&text[pieces[i - 1].clone()], &text[piece.clone()]);
            let joins = !this.is_empty()
                && !prev.is_empty()
                && (is_acronym_piece(prev) && is_acronym_piece(this)
                    || is_digits(prev) && this.chars().next().is_some_and(|c| c.is_ascii_digit()));
            if !joins && let Some(done) = current.take() {
                out.push(trim_to_alphanumeric(text, done));
            }
        }
        current = Some(match current {
            Some(open) => open.start..piece.end,
            None => piece.clone(),
        });
    }
    if let Some(done) = current {
        out.push(trim_to_alphanumeric(text, done));
    }
    out.retain(|r| !r.is_empty());
    out
}

/// A lowercase piece without its periods, apostrophes and hyphens, and without characters that
/// are not letters or digits at its ends (lowercasing can leave some: "İ" becomes "i" and a
/// combining dot).
fn clean(lowercase: &str) -> String {
    lowercase
        .trim_matches(|c: char| !c.is_alphanumeric())
        .chars()
        .filter(|&c| c != '.' && !is_apostrophe(c) && !is_hyphen(c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_is_read_as_pairs_of_characters_and_latin_words_inside_it_stay_words() {
        let s = "北京是中国的首都，iPhone手机。";
        let some = |t: &str| Some(t.to_string());
        assert_eq!(
            show(s, RefineOptions::THESIS),
            vec![
                ("北", some("北京")),
                ("京", some("京是")),
                ("是", some("是中")),
                ("中", some("中国")),
                ("国", some("国的")),
                ("的", some("的首")),
                ("首都", some("首都")),
                ("iPhone", some("iphon")),
                ("手机", some("手机")),
            ]
        );
        // Japanese kana and kanji alike; a character alone is its own term.
        assert_eq!(
            show("東京へ行く 猫", RefineOptions::THESIS),
            vec![
                ("東", some("東京")),
                ("京", some("京へ")),
                ("へ", some("へ行")),
                ("行く", some("行く")),
                ("猫", some("猫")),
            ]
        );
        // Korean is written with spaces: its words stay whole.
        assert_eq!(
            show("서울은 한국의 수도이다", RefineOptions::THESIS),
            vec![
                ("서울은", some("서울은")),
                ("한국의", some("한국의")),
                ("수도이다", some("수도이다")),
            ]
        );
    }

    fn show(sentence: &str, options: RefineOptions) -> Vec<(&str, Option<String>)> {
        words(sentence, &options)
            .into_iter()
            .map(|w| (&sentence[w.span], w.term.map(|(t, _)| t)))
            .collect()
    }

    #[test]
    fn words_keep_their_place_in_the_sentence() {
        let s = "Iraq's top cleric, al-Sistani, left the U.S. at 2.5 p.m. (example.com)";
        let some = |t: &str| Some(t.to_string());
        assert_eq!(
            show(s, RefineOptions::THESIS),
            vec![
                ("Iraq's", some("iraq")),
                ("top", some("top")),
                ("cleric", some("cleric")),
                ("al-Sistani", some("alsistani")),
                ("left", some("left")),
                ("the", None),
                ("U.S", some("us")),
                ("at", None),
                ("2.5", None),
                ("p.m", some("pm")),
                ("example", some("exampl")),
                ("com", some("com")),
            ]
        );
        let kept = show(s, RefineOptions::MEASURED);
        assert_eq!(kept[5], ("the", some("the")));
        assert_eq!(kept[8], ("2.5", some("25")));
    }

    #[test]
    fn stopwords_with_apostrophes_are_one_word() {
        let s = "We don't\u{2019} stop";
        assert_eq!(
            show(s, RefineOptions::MEASURED),
            vec![
                ("We", Some("we".to_string())),
                ("don't", Some("dont".to_string())),
                ("stop", Some("stop".to_string())),
            ]
        );
    }
}
