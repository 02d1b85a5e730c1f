//! The words on either side of a terminator: what the word before a full stop is (an
//! abbreviation? an initial?) and how the text after it starts (a capital? a digit?).

use super::lexicon::{
    ALWAYS_CONTINUE, DOTTED, ENDING_CAPABLE, MONTHS, NUMBER_PREFIXES, STARTERS, TITLES,
};
use super::{is_closer, is_opener, is_straight_quote};

/// How far the splitter looks ahead for the word after a terminator. Only its first letters
/// matter (is it a starter word? how long is it?); the bound keeps the splitter linear.
pub(super) const WINDOW_BYTES: usize = 64;

/// How far the splitter looks back for the word before a full stop. Abbreviations are short
/// (the longest dotted one in practice, "S.T.A.L.K.E.R", has 13 bytes); a longer run of
/// non-space characters is an ordinary word. The bound keeps input such as 20 MB of
/// `a.a.a.a...` linear and cheap.
const LOOK_BACK_BYTES: usize = 24;

/// No undotted abbreviation in the lists is longer ("Messrs", "approx"): longer words skip the
/// lookups.
pub(super) const LONGEST_LISTED: usize = 6;

/// The word before a full stop, classified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PrevWord {
    /// An ordinary word, a number, or something too long to be an abbreviation.
    Plain,
    /// [`TITLES`]: never a boundary after it.
    Title,
    /// [`ALWAYS_CONTINUE`]: never a boundary after it.
    AlwaysContinue,
    /// [`NUMBER_PREFIXES`]: no boundary before a digit.
    NumberPrefix,
    /// [`ENDING_CAPABLE`] or [`MONTHS`]: a boundary only before a starter word.
    EndingCapable,
    /// Dotted letters (U.S., a.m., U.S.A., Ph.D.): a boundary only before a starter word.
    Acronym,
    /// One capital letter (J. R. R. Tolkien): a boundary only before a starter word.
    Initial,
    /// A one- or two-digit number opening its sentence ("1. Introduction"): no boundary.
    ListMarker,
}

impl PrevWord {
    /// Classifies the non-space run ending at `stop` (the full stop), looking back no further
    /// than `sentence_start` or [`LOOK_BACK_BYTES`]. `content_start` is where the sentence's
    /// first non-space character is, if it has one yet.
    pub(super) fn read(
        text: &str,
        sentence_start: usize,
        content_start: Option<usize>,
        stop: usize,
    ) -> PrevWord {
        let mut token_start = stop;
        for (i, c) in text[..stop].char_indices().rev() {
            if c.is_whitespace() || i < sentence_start {
                break;
            }
            if i + LOOK_BACK_BYTES < stop {
                // Too long to be an abbreviation.
                return PrevWord::Plain;
            }
            token_start = i;
        }
        PrevWord::classify(&text[token_start..stop], content_start == Some(token_start))
    }

    fn classify(token: &str, opens_sentence: bool) -> PrevWord {
        let word = token
            .trim_start_matches(is_opener)
            .trim_end_matches(|c| is_closer(c) || is_straight_quote(c));
        let opens_sentence = opens_sentence && word.len() == token.len();
        let mut chars = word.chars();
        let Some(first) = chars.next() else {
            return PrevWord::Plain;
        };
        let single = chars.next().is_none();
        let listed = |list: &[&str]| list.iter().any(|entry| same_word(entry, word));
        if word.contains('.') {
            return if listed(ALWAYS_CONTINUE) {
                PrevWord::AlwaysContinue
            } else if DOTTED.contains(&word) || is_dotted_letters(word) {
                PrevWord::Acronym
            } else {
                PrevWord::Plain
            };
        }
        if single && first.is_uppercase() {
            PrevWord::Initial
        } else if word.len() > LONGEST_LISTED {
            PrevWord::Plain
        } else if TITLES.contains(&word) {
            PrevWord::Title
        } else if listed(ALWAYS_CONTINUE) {
            PrevWord::AlwaysContinue
        } else if listed(NUMBER_PREFIXES) {
            PrevWord::NumberPrefix
        } else if listed(ENDING_CAPABLE) || MONTHS.contains(&word) {
            PrevWord::EndingCapable
        } else if opens_sentence && word.len() <= 2 && word.bytes().all(|b| b.is_ascii_digit()) {
            PrevWord::ListMarker
        } else {
            PrevWord::Plain
        }
    }
}

/// `word` is the lowercase list entry `entry` as written, or capitalised ("inc", "Inc"; not
/// "INC", which is more likely an acronym of its own, nor "US" for "us").
pub(super) fn same_word(entry: &str, word: &str) -> bool {
    let (e, w) = (entry.as_bytes(), word.as_bytes());
    e.len() == w.len()
        && !e.is_empty()
        && (e[0] == w[0] || e[0].to_ascii_uppercase() == w[0])
        && e[1..] == w[1..]
}

/// "U.S", "a.m", "U.S.A": two or more single letters joined by full stops.
fn is_dotted_letters(word: &str) -> bool {
    let mut parts = 0;
    for part in word.split('.') {
        let mut chars = part.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_alphabetic() => parts += 1,
            _ => return false,
        }
    }
    parts >= 2
}

/// How the text after a terminator starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Case {
    /// A lowercase letter.
    Lower,
    /// An uppercase or titlecase letter, or a letter of a script without case.
    Upper,
    /// A digit (possibly behind a currency sign).
    Digit,
    /// No letter or digit where the next word should start (a dash, a symbol).
    Other,
}

/// The word after a terminator, past any opening quotes or brackets and a list dash.
#[derive(Clone, Copy, Debug)]
pub(super) struct NextWord<'a> {
    pub(super) case: Case,
    /// The text right after the terminator starts with an opening double quote.
    pub(super) quoted: bool,
    /// How many letters the word has (counted within [`WINDOW_BYTES`]).
    pub(super) letters: usize,
    /// The word's letters (within [`WINDOW_BYTES`]).
    word: &'a str,
    /// A lowercase word with a capital inside ("iPod", "eBay").
    pub(super) camel: bool,
}

impl<'a> NextWord<'a> {
    pub(super) fn read(text: &'a str, start: usize) -> NextWord<'a> {
        let window_end = floor_char_boundary(text, start + WINDOW_BYTES);
        let window = &text[start..window_end];
        let body = window.trim_start_matches(is_opener);
        // A list dash or bullet and its space: "...43%.- Shares in...".
        let body = body
            .strip_prefix(['-', '–', '—', '•', '*', '·'])
            .and_then(|rest| rest.strip_prefix(' '))
            .map_or(body, |rest| rest.trim_start_matches(is_opener));
        let case = match body.chars().next() {
            Some(c) if c.is_lowercase() => Case::Lower,
            Some(c) if c.is_alphabetic() => Case::Upper,
            Some(c) if c.is_numeric() => Case::Digit,
            _ => Case::Other,
        };
        let letters_end = body
            .char_indices()
            .find(|&(_, c)| !c.is_alphabetic())
            .map_or(body.len(), |(i, _)| i);
        let word = &body[..letters_end];
        NextWord {
            case,
            quoted: window.starts_with(['"', '“', '„']),
            letters: word.chars().count(),
            word,
            camel: case == Case::Lower && word.chars().any(char::is_uppercase),
        }
    }

    /// Whether the word is in [`STARTERS`] (looked up only when it matters).
    pub(super) fn starter(&self) -> bool {
        STARTERS.contains(&self.word)
    }
}

/// The largest char boundary of `text` at or below `index` (clamped to the text's length).
pub(super) fn floor_char_boundary(text: &str, index: usize) -> usize {
    let mut i = index.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn previous_words_are_classified() {
        let class = |token| PrevWord::classify(token, false);
        assert_eq!(class("Mr"), PrevWord::Title);
        assert_eq!(class("(Dr"), PrevWord::Title);
        assert_eq!(class("mr"), PrevWord::Plain);
        assert_eq!(class("FT"), PrevWord::Plain);
        assert_eq!(class("e.g"), PrevWord::AlwaysContinue);
        assert_eq!(class("vs"), PrevWord::AlwaysContinue);
        assert_eq!(class("No"), PrevWord::NumberPrefix);
        assert_eq!(class("etc"), PrevWord::Plain);
        assert_eq!(class("Inc"), PrevWord::EndingCapable);
        assert_eq!(class("INC"), PrevWord::Plain);
        assert_eq!(class("Jan"), PrevWord::EndingCapable);
        assert_eq!(class("U.S"), PrevWord::Acronym);
        assert_eq!(class("Ph.D"), PrevWord::Acronym);
        assert_eq!(class("p.m"), PrevWord::Acronym);
        assert_eq!(class("example.com"), PrevWord::Plain);
        assert_eq!(class("$10.9bn"), PrevWord::Plain);
        assert_eq!(class("W"), PrevWord::Initial);
        assert_eq!(class("\"Go\""), PrevWord::Plain);
        assert_eq!(class("1"), PrevWord::Plain);
        assert_eq!(PrevWord::classify("1", true), PrevWord::ListMarker);
        assert_eq!(PrevWord::classify("1965", true), PrevWord::Plain);
    }

    #[test]
    fn next_words_are_read_past_openers() {
        let next = |text| NextWord::read(text, 0);
        let word = next("\"The end");
        assert_eq!(
            (word.case, word.quoted, word.letters, word.starter()),
            (Case::Upper, true, 3, true)
        );
        assert!(next("(iPod sales").camel);
        assert_eq!(next("$5bn").case, Case::Digit);
        assert_eq!(next("- Shares").case, Case::Upper);
        assert_eq!(next("-led").case, Case::Other);
        assert_eq!(next("and").case, Case::Lower);
        assert_eq!(next("").case, Case::Other);
    }
}
