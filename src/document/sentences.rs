//! Sentence splitting: English-first rules, written for simdoc and measured on real data.
//!
//! # Choice
//!
//! The thesis (`003_cb4e1995afbee241.txt`, footnote at the start of chapter 3) used Campbell's
//! unpublished linear-time boundary recogniser, "accuracy in the 90% range"; it is not
//! available, so simdoc has its own. `sentencex` (Wikimedia, the best maintained Rust crate that
//! builds here; `punkt` does not) was measured against it with `examples/measure_splitter.rs`:
//!
//! | | simdoc | sentencex 0.1.33 |
//! |---|---|---|
//! | BBC summary sentences found verbatim among their article's sentences | 97.84% | 87.32% |
//! | the same, ignoring straight double quotes at either end and a leading list dash | 99.10% | 91.06% |
//! | article-html bodies: sentences starting lowercase after a break | 3 | 117 |
//! | one 20 MB line | 0.13 s | 41 s |
//!
//! sentencex does not split text joined without a space after the full stop (the BBC summaries
//! are made that way), splits Russian abbreviations and tweets apart, and is not linear on long
//! lines. See `EVALUATION.md` ("Sentence splitting") for the full table and what the remaining
//! misses are.
//!
//! # Rules
//!
//! A sentence ends at a *cluster*: a run of terminators (`.` `!` `?` `…`, and `。` and kin)
//! with the closing quotes and brackets right after it (`He said "Go."`, `(See below.)`,
//! `“Stop.”`, `‘Fine.’`, `«Bien.»`), and a straight quote standing alone after it (`. "`).
//! Whether the cluster ends the sentence depends on its kind and on the words around it:
//!
//! - `。！？` and kin: always.
//! - `?` and `!` (and `?!`, `!!`): yes, unless a lowercase word follows ("Yahoo! shares",
//!   `"Why?" he asked`).
//! - An ellipsis (`...`, `. . .`, `…`): only before a capital ("Wait... What?"; "Wait... what?"
//!   is one sentence).
//! - A single full stop, by the word before it (`sentences/lexicon.rs` holds the lists):
//!   - titles (Mr. Mrs. Ms. Dr. Prof. St. Gen. Gov. Sen. Rep. Lt. Col. Sgt. Capt. ...) and
//!     "always continue" abbreviations (e.g. i.e. vs. v. cf. viz. approx.): never;
//!   - number prefixes (No. pp. p. fig. vol. c. ca. ...): not before a digit ("No. 10"), else
//!     like an ordinary word ("The answer was no. It...");
//!   - ending-capable abbreviations (Inc. Ltd. Co. Corp. Jr. Sr. Bros. et al. ...), month
//!     abbreviations (Jan. Feb. ... Sept.), dotted acronyms (U.S. U.K. U.N. a.m. p.m. U.S.A.
//!     Ph.D.) and initials (J. R. R. Tolkien, George W. Bush): only before a capitalised
//!     *sentence starter*, a short list of words that begin sentences and hardly ever names
//!     ("The", "He", "But", "In", "It"...). So "in the U.S. The next day" breaks while "the U.S.
//!     President" does not; "Jan. 15" does not;
//!   - a one- or two-digit number opening its sentence ("1. Introduction"): never;
//!   - any other word (etc. included): unless a lowercase word follows ("etc. and", "5 kg. of");
//!     a lowercase word with a capital inside ("iPod") counts as capitalised.
//!
//! Decimals, times, versions, addresses ("2.5", "12.30", "1.2.3", "example.com",
//! "info@bbc.co.uk") never split: a full stop glued to what follows is a boundary only when a
//! sentence visibly starts there, as in the BBC summaries ("...from $10.9bn.For the
//! full-year..."): a capital letter starting a word after a letter, digit, `%`, space or
//! closing quote or bracket; a digit after a lowercase letter or a closing quote ("...the
//! Beatles.50 Cent"); or an opening quote before a capital or digit. Decided edge cases:
//! "U.S.A" is one acronym (a single glued capital after an acronym or an initial continues it);
//! "e.g.The" does not split (e.g. never ends a sentence); glued after "Co." or "U.S." any
//! capitalised word does split ("U.S.The", "& Co.Zurich": in running text the space would be
//! there).
//!
//! A straight quote glued between two sentences (`...2005."If...`) may close the first or open
//! the second; `cluster.rs` decides from the quotes and words around it.
//!
//! Line breaks always end a sentence. Only preformatted text still has them when the builder
//! calls [`split`] (everything else has its whitespace collapsed), and there a line is a unit
//! of its own: a line of code, a table row, a line of verse. Joining lines would mix columns
//! and statements; splitting a wrapped prose sentence in a `<pre>` block costs less.
//!
//! Pieces without a letter or digit ("...", "--") are dropped. The scan is linear: every
//! look-back and look-ahead is bounded or stops where the main scan resumes.

mod cluster;
mod context;
mod lexicon;

use std::ops::Range;

use cluster::{Cluster, SentenceState, Terminator};
use context::{Case, NextWord, PrevWord};

/// Splits `text` into sentences: byte ranges into `text`, in order, non-overlapping, on char
/// boundaries, trimmed of whitespace, each holding at least one alphanumeric character.
/// Together they cover every alphanumeric character of `text`. Linear time; never panics.
/// The rules are in the module docs.
pub fn split(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    // Where the current sentence's first non-space character is, once seen.
    let mut content_start = None;
    let mut state = SentenceState::new(0);
    // Whether the character before `pos` is a letter or digit (clusters end in neither).
    let mut word_before = false;
    let bytes = text.as_bytes();
    let mut pos = 0;
    while let Some(c) = text[pos..].chars().next() {
        // The common case, inside a word: nothing to decide.
        if word_before && bytes[pos].is_ascii_alphanumeric() {
            pos += 1;
            continue;
        }
        if content_start.is_none() && !c.is_whitespace() {
            content_start = Some(pos);
        }
        if is_hard_break(c) {
            push(text, start..pos, &mut out);
            pos += c.len_utf8();
            start = pos;
            content_start = None;
            state = SentenceState::new(start);
            word_before = false;
        } else if is_terminator(c) {
            let cluster = Cluster::scan(text, pos, state);
            state = cluster.state;
            if ends_sentence(text, start, content_start, &cluster) {
                push(text, start..cluster.end, &mut out);
                start = cluster.end;
                content_start = None;
                state = SentenceState::new(start);
            }
            pos = cluster.end;
            word_before = false;
        } else {
            if is_straight_quote(c) {
                state.see_quote(text, pos, c, word_before);
            }
            word_before = c.is_alphanumeric();
            pos += c.len_utf8();
        }
    }
    push(text, start..text.len(), &mut out);
    out
}

/// Adds `range` trimmed of whitespace, if it says anything (has an alphanumeric character).
fn push(text: &str, range: Range<usize>, out: &mut Vec<Range<usize>>) {
    let piece = &text[range.clone()];
    let trimmed_start = range.start + (piece.len() - piece.trim_start().len());
    let trimmed_end = range.start + piece.trim_end().len();
    if trimmed_start < trimmed_end
        && text[trimmed_start..trimmed_end]
            .chars()
            .any(char::is_alphanumeric)
    {
        out.push(trimmed_start..trimmed_end);
    }
}

/// Line breaks end sentences (only preformatted text still has them; see the module docs).
fn is_hard_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_terminator(c: char) -> bool {
    c == '.' || c == '…' || is_question_or_exclamation(c) || is_ideographic_stop(c)
}

fn is_question_or_exclamation(c: char) -> bool {
    matches!(c, '!' | '?' | '‼' | '⁇' | '⁈' | '⁉' | '؟')
}

/// Full stops of scripts that do not put a space after them: always a boundary.
fn is_ideographic_stop(c: char) -> bool {
    matches!(c, '。' | '！' | '？' | '｡' | '।' | '॥' | '۔')
}

/// Closing quotes and brackets that belong to the sentence they follow. The straight quotes
/// `"` and `'` are handled apart, because they open as well as close.
fn is_closer(c: char) -> bool {
    matches!(
        c,
        ')' | ']' | '}' | '”' | '’' | '»' | '›' | '」' | '』' | '）' | '〕' | '】'
    )
}

/// Opening quotes, brackets and currency signs that may come before a sentence's first word.
fn is_opener(c: char) -> bool {
    matches!(
        c,
        '"' | '\''
            | '('
            | '['
            | '{'
            | '“'
            | '‘'
            | '„'
            | '‚'
            | '«'
            | '‹'
            | '¿'
            | '¡'
            | '「'
            | '『'
            | '（'
            | '$'
            | '£'
            | '€'
            | '¥'
    )
}

fn is_straight_quote(c: char) -> bool {
    c == '"' || c == '\''
}

/// Whether the sentence that began at `sentence_start` ends with `cluster`.
fn ends_sentence(
    text: &str,
    sentence_start: usize,
    content_start: Option<usize>,
    cluster: &Cluster,
) -> bool {
    if cluster.kind == Terminator::Ideographic {
        return true;
    }
    let rest = &text[cluster.end..];
    let Some(first) = rest.chars().next() else {
        return true;
    };
    let spaced = first.is_whitespace();
    let next_start = if spaced {
        match rest.char_indices().find(|&(_, c)| !c.is_whitespace()) {
            None => return true,
            Some((offset, _)) => cluster.end + offset,
        }
    } else {
        cluster.end
    };
    // A line break in the whitespace ends the sentence anyway.
    if spaced && text[cluster.end..next_start].chars().any(is_hard_break) {
        return true;
    }
    let next = NextWord::read(text, next_start);
    // The word before matters only for full stops and one-letter words glued after a stop;
    // reading it only then keeps runs like "a.a.a.a..." cheap.
    let prev = || PrevWord::read(text, sentence_start, content_start, cluster.start);
    if !spaced && !glued_boundary(text, cluster.start, prev, &next) {
        return false;
    }
    match cluster.kind {
        Terminator::Ideographic => true,
        // "Yahoo! said", "“Why?” he asked": a lowercase word continues the sentence.
        Terminator::QuestionOrExclamation => ordinary_word_ends(&next),
        Terminator::Ellipsis => next.case == Case::Upper,
        Terminator::FullStop => {
            let prev = prev();
            // Glued to "Co." or "U.S.", a capitalised word is a join, not the sentence going on.
            let joined = !spaced
                && matches!(prev, PrevWord::EndingCapable | PrevWord::Acronym)
                && next.letters >= 2;
            joined || full_stop_ends(prev, &next)
        }
    }
}

/// Text joined without a space after the terminator ("...from $10.9bn.For the full-year...")
/// is a boundary candidate only when a sentence visibly starts right after it: an opening
/// double quote before a capital or a digit; a capital letter (a one-letter word only when the
/// word before is not an acronym or an initial, so "U.S.A" stays whole); or a digit after a
/// lowercase letter or a closing quote or bracket ("...the Beatles.50 Cent"; not "2.5"). Before
/// the terminator there must be a letter, a digit, a space (a lone stop: "...in March .Henman
/// leaves..."), `%` or a closing quote or bracket. So "2.5",
/// "1.2.3", "example.com", "e.g.the" never split here.
fn glued_boundary(
    text: &str,
    cluster_start: usize,
    prev: impl FnOnce() -> PrevWord,
    next: &NextWord,
) -> bool {
    let Some(before) = text[..cluster_start].chars().next_back() else {
        return false;
    };
    let glue_ok = before.is_alphanumeric()
        || before.is_whitespace()
        || before == '%'
        || is_closer(before)
        || is_straight_quote(before);
    if !glue_ok {
        return false;
    }
    match next.case {
        Case::Upper | Case::Digit if next.quoted => true,
        Case::Digit => before.is_lowercase() || is_closer(before) || is_straight_quote(before),
        Case::Upper if next.letters == 1 => {
            !matches!(prev(), PrevWord::Acronym | PrevWord::Initial)
        }
        Case::Upper => true,
        Case::Lower | Case::Other => false,
    }
}

/// Whether a single full stop ends the sentence, from the word before it and the word after it.
fn full_stop_ends(prev: PrevWord, next: &NextWord) -> bool {
    match prev {
        PrevWord::Title | PrevWord::AlwaysContinue | PrevWord::ListMarker => false,
        PrevWord::NumberPrefix => next.case != Case::Digit && ordinary_word_ends(next),
        PrevWord::EndingCapable | PrevWord::Acronym | PrevWord::Initial => {
            next.case == Case::Upper && next.starter()
        }
        PrevWord::Plain => ordinary_word_ends(next),
    }
}

/// After an ordinary word, a full stop ends the sentence unless a lowercase word follows
/// ("...5 kg. of rice", "etc. and so on"); a lowercase word with a capital inside it ("iPod")
/// is a name and starts a sentence.
fn ordinary_word_ends(next: &NextWord) -> bool {
    next.case != Case::Lower || next.camel
}

#[cfg(test)]
mod tests;
