//! The word lists the splitter consults: which abbreviations a full stop may follow without
//! ending the sentence, and which capitalised words nearly always start one.
//!
//! Lists are short on purpose. An abbreviation that is also a common word ("no", "fig", "man")
//! is only listed where its behaviour is keyed to what follows (a number), so a sentence ending
//! in that word still ends.

/// Titles written before a name. A full stop after them never ends a sentence: "Dr. Smith",
/// "St. Louis", "Gen. Powell". Matched case-sensitively (capitalised or all capitals), so "the
/// sales rep. The..." still ends.
pub(super) const TITLES: &[&str] = &[
    "Adm", "Amb", "Atty", "Capt", "Cdr", "Cmdr", "Col", "Cpl", "Det", "Dr", "Drs", "Fr", "Ft",
    "Gen", "Gov", "Hon", "Insp", "Lt", "Maj", "Messrs", "Mme", "Mlle", "Mr", "Mrs", "Ms", "Mt",
    "Pres", "Prof", "Pvt", "Rep", "Reps", "Rev", "Sen", "Sens", "Sgt", "St", "Supt",
];

/// Abbreviations that never end a sentence, whatever follows: "e.g. The Times", "France vs.
/// Germany", "Smith v. Jones". Compared in lowercase, without the final full stop.
pub(super) const ALWAYS_CONTINUE: &[&str] = &[
    "approx", "cf", "e.g", "eg", "esp", "i.e", "incl", "v", "viz", "vs",
];

/// Abbreviations that introduce a number: no break before a digit ("No. 10", "pp. 4-7",
/// "c. 1850"), but otherwise they are ordinary words ("He said no. Then..."). Lowercase.
pub(super) const NUMBER_PREFIXES: &[&str] = &[
    "art", "c", "ca", "ch", "fig", "figs", "no", "nos", "op", "p", "para", "pp", "sec", "vol",
    "vols",
];

/// Abbreviations that can end a sentence as well as sit inside one: "Apple Inc. said" versus
/// "shares of Apple Inc. The company...". Handled like dotted acronyms (see
/// the module rules): a break only before a [`STARTERS`] word. Lowercase.
pub(super) const ENDING_CAPABLE: &[&str] = &[
    "al", "assn", "ave", "blvd", "bros", "co", "corp", "cos", "dept", "esq", "inc", "jr", "ltd",
    "mfg", "rd", "sr", "univ",
];

/// Month abbreviations, case-sensitive (so the verb "mar." is not one): ending-capable, and no
/// break before a day number ("Jan. 15").
pub(super) const MONTHS: &[&str] = &[
    "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec",
];

/// Dotted abbreviations whose parts are not all single letters ("Ph.D."); the single-letter ones
/// (U.S., a.m., U.S.A.) are recognised by shape. As written, without the final full stop.
pub(super) const DOTTED: &[&str] = &["B.Sc", "D.Phil", "LL.B", "LL.M", "M.Sc", "Ph.D"];

/// Capitalised words that start sentences and are hardly ever part of a name: after an
/// acronym, an ending-capable abbreviation or an initial, one of these reinstates the break
/// ("...in the U.S. The next day..."), while any other capitalised word ("U.S. President")
/// keeps the sentence going. Case-sensitive.
pub(super) const STARTERS: &[&str] = &[
    "A",
    "According",
    "After",
    "Also",
    "Although",
    "An",
    "And",
    "Another",
    "As",
    "At",
    "Because",
    "Before",
    "Both",
    "But",
    "By",
    "Despite",
    "During",
    "Each",
    "Earlier",
    "Even",
    "Every",
    "For",
    "From",
    "Furthermore",
    "He",
    "Her",
    "Here",
    "His",
    "How",
    "However",
    "I",
    "If",
    "In",
    "Indeed",
    "Instead",
    "It",
    "Its",
    "Last",
    "Later",
    "Many",
    "Meanwhile",
    "Moreover",
    "Most",
    "My",
    "Nevertheless",
    "Now",
    "On",
    "One",
    "Only",
    "Other",
    "Our",
    "She",
    "Since",
    "Several",
    "So",
    "Some",
    "Still",
    "Such",
    "That",
    "The",
    "Their",
    "Then",
    "There",
    "These",
    "They",
    "This",
    "Those",
    "Though",
    "Thus",
    "Today",
    "We",
    "What",
    "When",
    "Where",
    "Which",
    "While",
    "Who",
    "Why",
    "With",
    "Yet",
    "You",
    "Your",
];

/// First- and second-person words: a sentence holding one reads as quoted speech rather than
/// reporting. Used only to decide which side a straight quote glued between two sentences
/// belongs to. Lowercase; matched as written or capitalised (so "US" is not "us").
pub(super) const SPEECH_WORDS: &[&str] = &[
    "i", "i'd", "i'll", "i'm", "i've", "me", "my", "our", "us", "we", "we'd", "we'll", "we're",
    "we've", "you", "you'll", "you're", "you've", "your",
];

/// Words that report speech: a sentence holding one is narration around a quotation. Used, like
/// [`SPEECH_WORDS`], only for glued quotes. Lowercase; matched as written or capitalised.
pub(super) const REPORTING_WORDS: &[&str] = &[
    "according",
    "added",
    "claimed",
    "explained",
    "insisted",
    "said",
    "says",
    "told",
    "warned",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_hold_no_duplicates_and_no_final_stop() {
        for list in [
            TITLES,
            ALWAYS_CONTINUE,
            NUMBER_PREFIXES,
            ENDING_CAPABLE,
            MONTHS,
            DOTTED,
            STARTERS,
            SPEECH_WORDS,
            REPORTING_WORDS,
        ] {
            let mut sorted = list.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), list.len());
            assert!(list.iter().all(|w| !w.ends_with('.') && !w.is_empty()));
        }
        for list in [
            TITLES,
            ALWAYS_CONTINUE,
            NUMBER_PREFIXES,
            ENDING_CAPABLE,
            MONTHS,
        ] {
            let undotted = list.iter().filter(|w| !w.contains('.'));
            assert!(undotted.map(|w| w.len()).max() <= Some(super::super::context::LONGEST_LISTED));
        }
    }
}
