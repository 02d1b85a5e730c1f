//! WordNet's morphology: the base forms (lemmas) of an inflected word, as WordNet 3.0's own
//! `morphstr` (`lib/morph.c`, documented in `morphy(7WN)`) finds them, against any dictionary.
//!
//! For each part of speech, in this order:
//! 1. the word itself, if the dictionary lists it in that part of speech;
//! 2. if the word is in the part of speech's exception list (`noun.exc`, `verb.exc`, `adj.exc`,
//!    `adv.exc`: "went" -> "go", "geese" -> "goose", "better" -> "good", "well"), the bases it
//!    lists there and nothing else;
//! 3. otherwise (and never for adverbs, which have only their exception list) the *first* of
//!    the detachment rules below whose result the dictionary lists in that part of speech.
//!    A noun ending in "ss" or of at most two letters is not detached ("glass", "us"); a noun
//!    ending in "ful" is detached before it and the "ful" put back ("boxesful" -> "boxful").
//!
//! | part of speech | suffix -> ending |
//! |---|---|
//! | noun | s -> "", ses -> s, xes -> x, zes -> z, ches -> ch, shes -> sh, men -> man, ies -> y |
//! | verb | s -> "", ies -> y, es -> e, es -> "", ed -> e, ed -> "", ing -> e, ing -> "" |
//! | adjective | er -> "", est -> "", er -> e, est -> e |
//!
//! The forms of all four parts of speech are pooled ("saw" gives the noun and verb "saw" and,
//! from `verb.exc`, "see"), because simdoc does not tag parts of speech. Deviations from
//! `morphstr`, all because a simdoc word is one token: no collocations ("attorneys general"),
//! no verb-preposition phrases, and the dictionary is looked up by the word as simdoc cleans it
//! (hyphens and apostrophes dropped: "well-known" is found as "wellknown").

/// WordNet's four parts of speech (an adjective satellite is an adjective here, as in
/// `morphstr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PartOfSpeech {
    Noun,
    Verb,
    Adjective,
    Adverb,
}

impl PartOfSpeech {
    pub const ALL: [PartOfSpeech; 4] = [
        PartOfSpeech::Noun,
        PartOfSpeech::Verb,
        PartOfSpeech::Adjective,
        PartOfSpeech::Adverb,
    ];

    /// The bit of this part of speech in a set of them.
    pub fn bit(self) -> u8 {
        1 << self as u8
    }

    /// The part of speech of a bit index (0..4).
    pub fn from_index(index: u8) -> Option<PartOfSpeech> {
        PartOfSpeech::ALL.get(index as usize).copied()
    }

    /// WordNet's file suffix for it (`index.noun`, `noun.exc`, ...).
    pub fn file_name(self) -> &'static str {
        match self {
            PartOfSpeech::Noun => "noun",
            PartOfSpeech::Verb => "verb",
            PartOfSpeech::Adjective => "adj",
            PartOfSpeech::Adverb => "adv",
        }
    }

    /// The detachment rules of `morph.c` (`sufx` and `addr`), in its order.
    fn rules(self) -> &'static [(&'static str, &'static str)] {
        match self {
            PartOfSpeech::Noun => &[
                ("s", ""),
                ("ses", "s"),
                ("xes", "x"),
                ("zes", "z"),
                ("ches", "ch"),
                ("shes", "sh"),
                ("men", "man"),
                ("ies", "y"),
            ],
            PartOfSpeech::Verb => &[
                ("s", ""),
                ("ies", "y"),
                ("es", "e"),
                ("es", ""),
                ("ed", "e"),
                ("ed", ""),
                ("ing", "e"),
                ("ing", ""),
            ],
            PartOfSpeech::Adjective => &[("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
            PartOfSpeech::Adverb => &[],
        }
    }
}

/// What morphology needs from a dictionary: its lemmas by part of speech and its exception
/// lists. Lemma ids are the dictionary's own.
pub trait Dictionary {
    /// The id of `lemma` if the dictionary lists it in `pos`.
    fn lemma(&self, lemma: &str, pos: PartOfSpeech) -> Option<u32>;
    /// The bases `pos`'s exception list gives for `form` (ids of listed lemmas), `None` when
    /// the form is not in that list.
    fn exceptions(&self, form: &str, pos: PartOfSpeech) -> Option<&[u32]>;
}

/// Appends the ids of `word`'s base forms in every part of speech (see the module docs) to
/// `out`, sorted and without repeats. `word` is lowercase.
pub fn base_forms(word: &str, dictionary: &impl Dictionary, out: &mut Vec<u32>) {
    let start = out.len();
    for pos in PartOfSpeech::ALL {
        out.extend(dictionary.lemma(word, pos));
        if let Some(bases) = dictionary.exceptions(word, pos) {
            out.extend_from_slice(bases);
        } else {
            out.extend(detached(word, pos, dictionary));
        }
    }
    let found = &mut out[start..];
    found.sort_unstable();
    let unique = dedup_sorted(found);
    out.truncate(start + unique);
}

/// Moves the distinct values of a sorted slice to its front; returns how many.
fn dedup_sorted(values: &mut [u32]) -> usize {
    let mut kept = 0;
    for i in 0..values.len() {
        if kept == 0 || values[i] != values[kept - 1] {
            values[kept] = values[i];
            kept += 1;
        }
    }
    kept
}

/// The first rule's result that the dictionary lists in `pos` (`morphword` of `morph.c`).
fn detached(word: &str, pos: PartOfSpeech, dictionary: &impl Dictionary) -> Option<u32> {
    let (stem, end) = match pos {
        PartOfSpeech::Adverb => return None,
        PartOfSpeech::Noun if word.ends_with("ful") && word.len() > 3 => {
            (&word[..word.len() - 3], "ful")
        }
        PartOfSpeech::Noun if word.ends_with("ss") || word.chars().count() <= 2 => return None,
        _ => (word, ""),
    };
    let mut candidate = String::with_capacity(word.len() + 3);
    for (suffix, ending) in pos.rules() {
        let Some(base) = stem.strip_suffix(suffix) else {
            continue;
        };
        candidate.clear();
        candidate.push_str(base);
        candidate.push_str(ending);
        if candidate == stem {
            continue;
        }
        candidate.push_str(end);
        if let Some(id) = dictionary.lemma(&candidate, pos) {
            return Some(id);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A dictionary given by hand: lemmas with their parts of speech, and exception entries.
    struct Words {
        lemmas: Vec<(&'static str, Vec<PartOfSpeech>)>,
        exceptions: HashMap<(&'static str, PartOfSpeech), Vec<u32>>,
    }

    impl Words {
        fn new(lemmas: &[(&'static str, &[PartOfSpeech])]) -> Words {
            Words {
                lemmas: lemmas.iter().map(|(l, p)| (*l, p.to_vec())).collect(),
                exceptions: HashMap::new(),
            }
        }

        fn id(&self, lemma: &str) -> u32 {
            self.lemmas.iter().position(|(l, _)| *l == lemma).unwrap() as u32
        }

        fn exception(mut self, form: &'static str, pos: PartOfSpeech, bases: &[&str]) -> Self {
            let ids = bases.iter().map(|b| self.id(b)).collect();
            self.exceptions.insert((form, pos), ids);
            self
        }

        fn bases(&self, word: &str) -> Vec<&'static str> {
            let mut ids = Vec::new();
            base_forms(word, self, &mut ids);
            ids.iter().map(|&i| self.lemmas[i as usize].0).collect()
        }
    }

    impl Dictionary for Words {
        fn lemma(&self, lemma: &str, pos: PartOfSpeech) -> Option<u32> {
            self.lemmas
                .iter()
                .position(|(l, p)| *l == lemma && p.contains(&pos))
                .map(|i| i as u32)
        }

        fn exceptions(&self, form: &str, pos: PartOfSpeech) -> Option<&[u32]> {
            self.exceptions
                .iter()
                .find(|((f, p), _)| *f == form && *p == pos)
                .map(|(_, ids)| ids.as_slice())
        }
    }

    use PartOfSpeech::{Adjective, Adverb, Noun, Verb};

    #[test]
    fn the_rules_of_each_part_of_speech() {
        let words = Words::new(&[
            ("box", &[Noun, Verb]),
            ("church", &[Noun]),
            ("fly", &[Noun, Verb]),
            ("woman", &[Noun]),
            ("use", &[Noun, Verb]),
            ("hope", &[Noun, Verb]),
            ("walk", &[Noun, Verb]),
            ("big", &[Adjective]),
            ("large", &[Adjective]),
            ("glass", &[Noun]),
            ("boxful", &[Noun]),
        ]);
        assert_eq!(words.bases("boxes"), vec!["box"]);
        assert_eq!(words.bases("churches"), vec!["church"]);
        assert_eq!(words.bases("flies"), vec!["fly"]);
        assert_eq!(words.bases("women"), vec!["woman"]);
        assert_eq!(words.bases("used"), vec!["use"]);
        assert_eq!(words.bases("hoping"), vec!["hope"]);
        assert_eq!(words.bases("walked"), vec!["walk"]);
        assert_eq!(words.bases("walks"), vec!["walk"]);
        assert_eq!(words.bases("larger"), vec!["large"]);
        assert_eq!(words.bases("largest"), vec!["large"]);
        // A noun in "ss" is not detached: "glass" is itself, "glas" is never tried.
        assert_eq!(words.bases("glass"), vec!["glass"]);
        // "ful" is taken off first and put back: boxesful -> boxes -> box -> boxful.
        assert_eq!(words.bases("boxesful"), vec!["boxful"]);
        assert!(words.bases("zzz").is_empty());
    }

    #[test]
    fn only_the_first_rule_that_finds_a_lemma_counts() {
        // Verb "saves": "s" -> "save" is found first; "es" -> "sav" would be tried later.
        let words = Words::new(&[("save", &[Verb]), ("sav", &[Verb])]);
        assert_eq!(words.bases("saves"), vec!["save"]);
    }

    #[test]
    fn exception_lists_replace_the_rules() {
        let words = Words::new(&[
            ("go", &[Verb]),
            ("went", &[Verb]),
            ("good", &[Adjective]),
            ("well", &[Adverb, Adjective]),
            ("axe", &[Noun]),
            ("axis", &[Noun]),
            ("ax", &[Noun]),
        ])
        .exception("went", Verb, &["go"])
        .exception("better", Adjective, &["good"])
        .exception("axes", Noun, &["ax", "axe", "axis"]);
        // "went" is also a lemma of its own (Old English "wend"): both.
        assert_eq!(words.bases("went"), vec!["go", "went"]);
        assert_eq!(words.bases("better"), vec!["good"]);
        assert_eq!(words.bases("axes"), vec!["axe", "axis", "ax"]);
        // Adverbs have no rules: "wells" is not "well".
        assert_eq!(words.bases("well"), vec!["well"]);
        assert!(words.bases("wells").is_empty());
    }
}
