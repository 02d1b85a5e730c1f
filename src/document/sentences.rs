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
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sentences(text: &str) -> Vec<&str> {
        split(text).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn titles_and_name_abbreviations_do_not_end_sentences() {
        let text = "Mr. Smith met Mrs. Jones, Ms. Lee, Dr. Brown and Prof. Green in St. Louis. \
                    Gen. Powell, Gov. Davis, Sen. Kerry and Rep. Pelosi came. \
                    Lt. Col. North and Sgt. Pepper saluted Capt. Kirk.";
        assert_eq!(
            sentences(text),
            [
                "Mr. Smith met Mrs. Jones, Ms. Lee, Dr. Brown and Prof. Green in St. Louis.",
                "Gen. Powell, Gov. Davis, Sen. Kerry and Rep. Pelosi came.",
                "Lt. Col. North and Sgt. Pepper saluted Capt. Kirk.",
            ]
        );
    }

    #[test]
    fn company_suffixes_and_suffixes_of_names_continue_unless_a_sentence_starts() {
        assert_eq!(
            sentences("Apple Inc. said profits rose. Shares of Apple Inc. The company fell."),
            [
                "Apple Inc. said profits rose.",
                "Shares of Apple Inc.",
                "The company fell."
            ]
        );
        assert_eq!(
            sentences("Acme Ltd. Chairman Bob and Smith & Co. Europe agreed with Big Corp. staff."),
            ["Acme Ltd. Chairman Bob and Smith & Co. Europe agreed with Big Corp. staff."]
        );
        assert_eq!(
            sentences("Martin Luther King Jr. Day is here. He was born Sam Jones Sr. He died."),
            [
                "Martin Luther King Jr. Day is here.",
                "He was born Sam Jones Sr.",
                "He died."
            ]
        );
    }

    #[test]
    fn vs_etc_and_no_follow_their_own_rules() {
        // vs. never ends a sentence; etc. only before a capital; No. never before a number.
        assert_eq!(
            sentences("It was England vs. France. We bought pens, paper, etc. and then left."),
            [
                "It was England vs. France.",
                "We bought pens, paper, etc. and then left."
            ]
        );
        assert_eq!(
            sentences("Pens, paper etc. The shop closed."),
            ["Pens, paper etc.", "The shop closed."]
        );
        assert_eq!(
            sentences("He lives at No. 10 Downing Street. The answer was no. It stayed no."),
            [
                "He lives at No. 10 Downing Street.",
                "The answer was no.",
                "It stayed no."
            ]
        );
    }

    #[test]
    fn month_abbreviations_continue_before_a_day() {
        assert_eq!(
            sentences(
                "It opened on Jan. 15 and closed Feb. 3. It reopened in Sept. The crowds came."
            ),
            [
                "It opened on Jan. 15 and closed Feb. 3.",
                "It reopened in Sept.",
                "The crowds came."
            ]
        );
    }

    #[test]
    fn dotted_acronyms_end_a_sentence_only_before_a_sentence_starter() {
        // The rule: after an acronym (U.S., a.m.), an ending-capable abbreviation (Inc.) or an
        // initial, only a capitalised word from the STARTERS list ("The", "He", "But"...)
        // reinstates the break; any other capitalised word is taken as a name.
        assert_eq!(
            sentences(
                "The U.S. President met U.K. and U.N. envoys in the U.S. The next day he left."
            ),
            [
                "The U.S. President met U.K. and U.N. envoys in the U.S.",
                "The next day he left."
            ]
        );
        assert_eq!(
            sentences("We met at 9 a.m. Eastern time and left at 5 p.m. It was late."),
            [
                "We met at 9 a.m. Eastern time and left at 5 p.m.",
                "It was late."
            ]
        );
        assert_eq!(
            sentences("Use tools, e.g. The Times archive, i.e. Old papers. Then stop."),
            [
                "Use tools, e.g. The Times archive, i.e. Old papers.",
                "Then stop."
            ]
        );
    }

    #[test]
    fn initials_do_not_end_sentences() {
        assert_eq!(
            sentences(
                "J. R. R. Tolkien wrote it. George W. Bush read it. He liked Plan B. It worked."
            ),
            [
                "J. R. R. Tolkien wrote it.",
                "George W. Bush read it.",
                "He liked Plan B.",
                "It worked.",
            ]
        );
    }

    #[test]
    fn numbers_times_versions_and_addresses_do_not_break() {
        let text = "Sales rose 2.5% to $10.9bn at 12.30 and 1:40 pm. Version 1.2.3 of example.com \
                    is out, mail info@example.co.uk now. It cost 3.36 dollars.";
        assert_eq!(
            sentences(text),
            [
                "Sales rose 2.5% to $10.9bn at 12.30 and 1:40 pm.",
                "Version 1.2.3 of example.com is out, mail info@example.co.uk now.",
                "It cost 3.36 dollars.",
            ]
        );
    }

    #[test]
    fn a_list_number_opening_a_sentence_is_not_a_sentence() {
        assert_eq!(
            sentences("1. Introduction to the topic. Chapter 2. The end."),
            ["1. Introduction to the topic.", "Chapter 2.", "The end."]
        );
    }

    #[test]
    fn ellipses_break_only_before_a_capital() {
        assert_eq!(
            sentences("Wait... what? Well . . . I see. And so… on it went."),
            [
                "Wait... what?",
                "Well . . .",
                "I see.",
                "And so… on it went."
            ]
        );
        assert_eq!(sentences("Wait… What now?"), ["Wait…", "What now?"]);
    }

    #[test]
    fn closing_quotes_and_brackets_belong_to_the_sentence() {
        assert_eq!(
            sentences("He said \"Go.\" Then he left."),
            ["He said \"Go.\"", "Then he left."]
        );
        assert_eq!(sentences("(See below.) Next."), ["(See below.)", "Next."]);
        assert_eq!(
            sentences("She said “Stop.” He did. ‘Fine.’ They left! «Bien.» Done."),
            [
                "She said “Stop.”",
                "He did.",
                "‘Fine.’",
                "They left!",
                "«Bien.»",
                "Done."
            ]
        );
        assert_eq!(
            sentences("He sighed. \"We lost.\" She nodded."),
            ["He sighed.", "\"We lost.\"", "She nodded."]
        );
    }

    #[test]
    fn question_and_exclamation_marks_end_sentences() {
        assert_eq!(
            sentences("Really?! Yes!! Why? Because. Stop! Now."),
            ["Really?!", "Yes!!", "Why?", "Because.", "Stop!", "Now."]
        );
        // A lowercase word after them continues the sentence.
        assert_eq!(
            sentences("\"Why?\" he asked. Yahoo! shares rose."),
            ["\"Why?\" he asked.", "Yahoo! shares rose."]
        );
    }

    #[test]
    fn a_missing_space_after_a_full_stop_still_splits() {
        let text = "TimeWarner said fourth quarter sales rose 2% to $11.1bn from $10.9bn.For the \
                    full-year, TimeWarner posted a profit of $3.36bn.It lost 464,000 subscribers.";
        assert_eq!(
            sentences(text),
            [
                "TimeWarner said fourth quarter sales rose 2% to $11.1bn from $10.9bn.",
                "For the full-year, TimeWarner posted a profit of $3.36bn.",
                "It lost 464,000 subscribers.",
            ]
        );
        assert_eq!(
            sentences("Sales fell 5%.BA had problems.Sales rose.50 Cent sang.Why?Because."),
            [
                "Sales fell 5%.",
                "BA had problems.",
                "Sales rose.",
                "50 Cent sang.",
                "Why?",
                "Because."
            ]
        );
    }

    #[test]
    fn glued_edge_cases_are_decided() {
        // "U.S.A" is one acronym; a glued capital after an acronym's stop is a new sentence
        // only if it starts a word of two or more letters.
        assert_eq!(
            sentences("He moved to the U.S.A in 1990."),
            ["He moved to the U.S.A in 1990."]
        );
        assert_eq!(
            sentences("He moved to the U.S.The job paid well."),
            ["He moved to the U.S.", "The job paid well."]
        );
        // e.g. and i.e. never end a sentence, glued or not.
        assert_eq!(
            sentences("Some tools, e.g.The Times index, help."),
            ["Some tools, e.g.The Times index, help."]
        );
        // Lowercase after a glued stop is a file name or an address, never a boundary.
        assert_eq!(
            sentences("Open readme.txt or bbc.co.uk now."),
            ["Open readme.txt or bbc.co.uk now."]
        );
    }

    #[test]
    fn glued_quotes_go_to_the_sentence_they_belong_to() {
        // An open quotation is closed by the glued quote...
        assert_eq!(
            sentences("He said: \"We won.\"Then they left."),
            ["He said: \"We won.\"", "Then they left."]
        );
        // ...and a quote opening a sentence that closes its quotation before its end opens it.
        assert_eq!(
            sentences("Prices rose in recent months.\"I think it will last,\" he said."),
            [
                "Prices rose in recent months.",
                "\"I think it will last,\" he said."
            ]
        );
        // A lone quote after a stop stays with the sentence it follows.
        assert_eq!(
            sentences("He left a year ago. \" And then he came back."),
            ["He left a year ago. \"", "And then he came back."]
        );
    }

    #[test]
    fn line_breaks_end_sentences() {
        // Only preformatted text keeps line breaks (code, verse, tables): each line is at most
        // one sentence, even without a full stop.
        assert_eq!(
            sentences(
                "fn main() {\n    println!(\"hi. there\");\n}\nRoses are red\nviolets are blue."
            ),
            [
                "fn main() {",
                "println!(\"hi. there\");",
                "Roses are red",
                "violets are blue."
            ]
        );
    }

    #[test]
    fn ideographic_stops_always_end_sentences() {
        assert_eq!(
            sentences("今日は晴れ。明日は雨！本当？"),
            ["今日は晴れ。", "明日は雨！", "本当？"]
        );
    }

    #[test]
    fn pieces_without_letters_or_digits_are_dropped() {
        assert_eq!(sentences(""), Vec::<&str>::new());
        assert_eq!(sentences(" ... !!! -- "), Vec::<&str>::new());
        assert_eq!(sentences("Hi. -- . Bye."), ["Hi.", "Bye."]);
    }

    #[test]
    fn long_pathological_input_is_handled() {
        // Every byte a terminator candidate, and one 300 kB token: must stay linear (the
        // release-mode timing is in examples/measure_splitter.rs and benches/documents.rs).
        let dots = "a.".repeat(150_000);
        assert_eq!(
            split(&dots),
            vec![Range {
                start: 0,
                end: dots.len()
            }]
        );
        let quotes = "x.\"A".repeat(50_000);
        assert!(!split(&quotes).is_empty());
    }

    fn check_contract(text: &str) -> Result<(), TestCaseError> {
        let ranges = split(text);
        let mut covered = vec![false; text.len()];
        let mut last_end = 0;
        for r in &ranges {
            prop_assert!(r.start >= last_end && r.start < r.end && r.end <= text.len());
            prop_assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
            let piece = &text[r.clone()];
            prop_assert_eq!(piece.trim(), piece);
            prop_assert!(piece.chars().any(char::is_alphanumeric));
            covered[r.clone()].iter_mut().for_each(|c| *c = true);
            last_end = r.end;
        }
        for (i, c) in text.char_indices() {
            if c.is_alphanumeric() {
                prop_assert!(covered[i], "{:?} at {} not covered", c, i);
            }
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn contract_holds_on_any_unicode(text in any::<String>()) {
            check_contract(&text)?;
        }

        #[test]
        fn contract_holds_on_punctuation_heavy_text(
            text in proptest::string::string_regex(
                "([A-Za-z]{1,4}|[0-9]{1,3}|[.!?…\"'“”‘’()\\[\\] \\n]|U\\.S\\.|Mr\\.|e\\.g\\.|\\. \\. \\.|。){0,60}"
            ).expect("valid regex")
        ) {
            check_contract(&text)?;
        }
    }
}
