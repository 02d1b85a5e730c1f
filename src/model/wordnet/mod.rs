//! WordNet's relations between words, as a table a model carries beside its correlations: which
//! words are synonyms, derivationally related forms, or one the direct hypernym, hyponym or
//! "similar to" of the other (Princeton WordNet 3.0, Miller 1995; read from its dictionary
//! files by [`read`]).
//!
//! The fuzzy-set matcher (thesis eq. 3.2) needs a relatedness `c` of two words. The thesis
//! derives it from co-occurrence (eq. 3.1); EVALUATION.md ("Word relatedness") shows that what
//! co-occurs in Wikipedia does not tell which words a rewriter swaps, and that WordNet's
//! relations do. The table stores *which* relations hold, not a `c`: the weights of each kind
//! are a matching rule ([`crate::similarity::lexical`]), chosen on training data.
//!
//! WordNet lists words, not stems, so the table is looked up by *lemma*: a sentence keeps each
//! content word's surface form beside its stem, and [`crate::text::morphy`] (WordNet's own
//! morphology, with the exception lists stored here) turns it into lemmas. Lemmas are keyed as
//! simdoc cleans a word (lowercase, hyphens and apostrophes dropped); lemmas of several words
//! ("give_up") are left out, since a simdoc word is one token.
//!
//! - [`read`]: the dictionary files (`index.*`, `data.*`, `*.exc`) to a [`Lexicon`];
//! - [`file`]: the lexicon's part of the model file.

pub(crate) mod file;
pub mod read;

use super::vocabulary::Vocabulary;
use crate::text::morphy::{self, Dictionary, PartOfSpeech};

/// A lemma's id: its index in the lexicon's sorted lemmas.
pub type LemmaId = u32;

/// Which WordNet relations hold from one lemma to another, as bits (several may hold: "help"
/// the noun and "aid" share a synset, and "aid" is a hypernym of another sense of "help").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Relation(u8);

impl Relation {
    /// The two lemmas share a synset.
    pub const SYNONYM: Relation = Relation(1);
    /// WordNet's "derivationally related form" (`+`): "assist" and "assistance".
    pub const DERIVED: Relation = Relation(2);
    /// The other lemma is a direct hypernym (`@`): more general ("aid" of "help").
    pub const HYPERNYM: Relation = Relation(4);
    /// The other lemma is a direct hyponym (`~`): more specific.
    pub const HYPONYM: Relation = Relation(8);
    /// WordNet's "similar to" between adjectives (`&`).
    pub const SIMILAR: Relation = Relation(16);
    /// Every bit a relation may have.
    const ALL_BITS: u8 = 31;

    /// The relation from a byte of a model file, if it holds only known bits and at least one.
    pub fn from_bits(bits: u8) -> Option<Relation> {
        (bits != 0 && bits & !Self::ALL_BITS == 0).then_some(Relation(bits))
    }

    pub const fn bits(self) -> u8 {
        self.0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every bit of `other` is set here.
    pub fn contains(self, other: Relation) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }

    /// Both relations.
    pub fn union(self, other: Relation) -> Relation {
        Relation(self.0 | other.0)
    }

    /// The same relation seen from the other lemma: a hypernym's hyponym.
    pub fn reversed(self) -> Relation {
        let swapped = ((self.0 & Self::HYPERNYM.0) << 1) | ((self.0 & Self::HYPONYM.0) >> 1);
        Relation((self.0 & !(Self::HYPERNYM.0 | Self::HYPONYM.0)) | swapped)
    }

    /// Words for the relation, strongest kind first, for the viewer and `simdoc model info`.
    pub fn describe(self) -> String {
        let names = [
            (Self::SYNONYM, "synonyms"),
            (Self::DERIVED, "derived form"),
            (Self::HYPERNYM, "hypernym"),
            (Self::HYPONYM, "hyponym"),
            (Self::SIMILAR, "similar to"),
        ];
        names
            .iter()
            .filter(|(r, _)| self.contains(*r))
            .map(|(_, name)| *name)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Figures that describe a lexicon, for `simdoc model info`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexiconStats {
    pub lemmas: usize,
    pub exceptions: usize,
    /// Related pairs of lemmas, each counted once.
    pub pairs: usize,
    /// Pairs with each kind (a pair may count under several).
    pub synonyms: usize,
    pub derived: usize,
    pub hypernyms: usize,
    pub similar: usize,
}

/// Why lexicon data is inconsistent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LexiconError {
    #[error("lemma {0} has no part of speech")]
    NoPartOfSpeech(usize),
    #[error("{parts} parts of speech for {lemmas} lemmas")]
    PartsLength { parts: usize, lemmas: usize },
    #[error("an exception of {0:?} names a lemma outside the lexicon")]
    ExceptionBase(String),
    #[error("exceptions are not sorted at {0:?}")]
    ExceptionsOrder(String),
    #[error("a relation names lemma {0}, outside the lexicon")]
    RelationLemma(u64),
    #[error("relations of lemma {0} are not strictly increasing or relate it to itself")]
    RelationOrder(u32),
    #[error("a relation has unknown bits {0:#x}")]
    RelationBits(u8),
}

/// One exception-list entry: an inflected form, its part of speech, and its bases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exception {
    pub form: String,
    pub pos: PartOfSpeech,
    pub bases: Vec<LemmaId>,
}

/// WordNet's lemmas, exception lists and relations (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lexicon {
    /// Where the relations come from, and their licence.
    source: String,
    lemmas: Vocabulary,
    /// Per lemma, the bits ([`PartOfSpeech::bit`]) of the parts of speech listing it.
    parts: Vec<u8>,
    /// Sorted by (form, part of speech).
    exceptions: Vec<Exception>,
    /// Per lemma, `offsets[l]..offsets[l + 1]` indexes `related` and `relations`: its related
    /// lemmas, ascending, and the relation to each.
    offsets: Vec<u32>,
    related: Vec<LemmaId>,
    relations: Vec<Relation>,
}

impl Lexicon {
    /// A lexicon from its parts: lemmas sorted with their parts of speech, exceptions, and
    /// each related pair once (`(a, b, relation from a to b)`, any order, `a != b`).
    pub fn new(
        source: String,
        lemmas: Vocabulary,
        parts: Vec<u8>,
        mut exceptions: Vec<Exception>,
        pairs: Vec<(LemmaId, LemmaId, Relation)>,
    ) -> Result<Lexicon, LexiconError> {
        if parts.len() != lemmas.len() {
            return Err(LexiconError::PartsLength {
                parts: parts.len(),
                lemmas: lemmas.len(),
            });
        }
        if let Some(at) = parts.iter().position(|&p| p == 0 || p > 15) {
            return Err(LexiconError::NoPartOfSpeech(at));
        }
        exceptions.sort_by(|a, b| (&a.form, a.pos).cmp(&(&b.form, b.pos)));
        for e in &exceptions {
            if e.bases.iter().any(|&b| b as usize >= lemmas.len()) {
                return Err(LexiconError::ExceptionBase(e.form.clone()));
            }
        }
        let n = lemmas.len();
        let mut both: Vec<(LemmaId, LemmaId, Relation)> = Vec::with_capacity(pairs.len() * 2);
        for (a, b, r) in pairs {
            if a as usize >= n || b as usize >= n {
                return Err(LexiconError::RelationLemma(u64::from(a.max(b))));
            }
            if a == b || r.is_empty() {
                return Err(LexiconError::RelationOrder(a));
            }
            both.push((a, b, r));
            both.push((b, a, r.reversed()));
        }
        both.sort_unstable_by_key(|&(a, b, _)| (a, b));
        // The same pair given twice (or in both orders) is one pair with both relations.
        let mut merged: Vec<(LemmaId, LemmaId, Relation)> = Vec::with_capacity(both.len());
        for (a, b, r) in both {
            match merged.last_mut() {
                Some(last) if (last.0, last.1) == (a, b) => last.2 = last.2.union(r),
                _ => merged.push((a, b, r)),
            }
        }
        let mut offsets = vec![0u32; n + 1];
        for &(a, _, _) in &merged {
            offsets[a as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        Ok(Lexicon {
            source,
            lemmas,
            parts,
            exceptions,
            offsets,
            related: merged.iter().map(|p| p.1).collect(),
            relations: merged.iter().map(|p| p.2).collect(),
        })
    }

    /// Where the relations come from, and their licence.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Replaces the source note.
    pub fn set_source(&mut self, note: impl Into<String>) {
        self.source = note.into();
    }

    /// How many lemmas.
    pub fn len(&self) -> usize {
        self.lemmas.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lemmas.is_empty()
    }

    /// The lemma with id `id` (ids come from this lexicon; panics otherwise, like indexing).
    pub fn lemma_text(&self, id: LemmaId) -> &str {
        self.lemmas.term(id)
    }

    /// The id of a lemma in any part of speech.
    pub fn lemma_id(&self, lemma: &str) -> Option<LemmaId> {
        self.lemmas.id(lemma)
    }

    /// The parts of speech listing a lemma.
    pub fn parts_of_speech(&self, id: LemmaId) -> impl Iterator<Item = PartOfSpeech> + '_ {
        let bits = self.parts.get(id as usize).copied().unwrap_or(0);
        PartOfSpeech::ALL
            .into_iter()
            .filter(move |p| bits & p.bit() != 0)
    }

    /// Appends the lemmas of a lowercase word (WordNet's morphology, [`morphy::base_forms`]),
    /// sorted, to `out`.
    pub fn lemmas_of(&self, word: &str, out: &mut Vec<LemmaId>) {
        morphy::base_forms(word, self, out);
    }

    /// The lemmas related to `id`, ascending, each with the relation from `id` to it.
    pub fn related(&self, id: LemmaId) -> impl Iterator<Item = (LemmaId, Relation)> + '_ {
        let range = self.row(id);
        self.related[range.clone()]
            .iter()
            .copied()
            .zip(self.relations[range].iter().copied())
    }

    fn row(&self, id: LemmaId) -> std::ops::Range<usize> {
        let i = id as usize;
        match (self.offsets.get(i), self.offsets.get(i + 1)) {
            (Some(&start), Some(&end)) => start as usize..end as usize,
            _ => 0..0,
        }
    }

    /// The relation from `a` to `b` (empty when none is stored, or `a == b`).
    pub fn relation(&self, a: LemmaId, b: LemmaId) -> Relation {
        let range = self.row(a);
        self.related[range.clone()]
            .binary_search(&b)
            .map_or(Relation::default(), |at| self.relations[range.start + at])
    }

    /// Every exception-list entry, sorted by form.
    pub fn exceptions(&self) -> &[Exception] {
        &self.exceptions
    }

    /// Figures for `simdoc model info`.
    pub fn stats(&self) -> LexiconStats {
        let mut stats = LexiconStats {
            lemmas: self.lemmas.len(),
            exceptions: self.exceptions.len(),
            pairs: 0,
            synonyms: 0,
            derived: 0,
            hypernyms: 0,
            similar: 0,
        };
        for a in 0..self.lemmas.len() as LemmaId {
            for (b, r) in self.related(a) {
                if b < a {
                    continue;
                }
                stats.pairs += 1;
                stats.synonyms += usize::from(r.contains(Relation::SYNONYM));
                stats.derived += usize::from(r.contains(Relation::DERIVED));
                stats.hypernyms +=
                    usize::from(r.contains(Relation::HYPERNYM) || r.contains(Relation::HYPONYM));
                stats.similar += usize::from(r.contains(Relation::SIMILAR));
            }
        }
        stats
    }

    /// Each related pair once, `a < b`, with the relation from `a` (for the file).
    pub(crate) fn upper_pairs(&self) -> impl Iterator<Item = (LemmaId, LemmaId, Relation)> + '_ {
        (0..self.lemmas.len() as LemmaId).flat_map(move |a| {
            self.related(a)
                .filter(move |&(b, _)| b > a)
                .map(move |(b, r)| (a, b, r))
        })
    }

    pub(crate) fn lemma_vocabulary(&self) -> &Vocabulary {
        &self.lemmas
    }

    pub(crate) fn part_bits(&self) -> &[u8] {
        &self.parts
    }
}

impl Dictionary for Lexicon {
    fn lemma(&self, lemma: &str, pos: PartOfSpeech) -> Option<u32> {
        let id = self.lemmas.id(lemma)?;
        (self.parts[id as usize] & pos.bit() != 0).then_some(id)
    }

    fn exceptions(&self, form: &str, pos: PartOfSpeech) -> Option<&[u32]> {
        let at = self
            .exceptions
            .binary_search_by(|e| (e.form.as_str(), e.pos).cmp(&(form, pos)))
            .ok()?;
        Some(&self.exceptions[at].bases)
    }
}

/// A small hand-made lexicon for tests: aid, assist, assistance, big, go, help, large, went.
#[cfg(test)]
pub(crate) fn sample() -> Lexicon {
    let words = [
        "aid",
        "assist",
        "assistance",
        "go",
        "help",
        "large",
        "big",
        "went",
    ];
    let mut sorted = words.to_vec();
    sorted.sort_unstable();
    let lemmas = Vocabulary::from_sorted(&sorted).unwrap();
    let id = |w: &str| lemmas.id(w).unwrap();
    let noun = PartOfSpeech::Noun.bit();
    let verb = PartOfSpeech::Verb.bit();
    let adj = PartOfSpeech::Adjective.bit();
    let parts = sorted
        .iter()
        .map(|w| match *w {
            "aid" | "help" => noun | verb,
            "assist" | "go" | "went" => verb,
            "assistance" => noun,
            _ => adj,
        })
        .collect();
    let pairs = vec![
        (id("help"), id("aid"), Relation::SYNONYM),
        (id("help"), id("aid"), Relation::HYPERNYM),
        (id("assist"), id("assistance"), Relation::DERIVED),
        (id("assist"), id("help"), Relation::SYNONYM),
        (id("big"), id("large"), Relation::SIMILAR),
    ];
    let exceptions = vec![Exception {
        form: "went".into(),
        pos: PartOfSpeech::Verb,
        bases: vec![id("go")],
    }];
    Lexicon::new("test".into(), lemmas, parts, exceptions, pairs).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relations_are_stored_both_ways_and_reversed() {
        let lexicon = sample();
        let id = |w: &str| lexicon.lemma_id(w).unwrap();
        let forward = lexicon.relation(id("help"), id("aid"));
        assert!(forward.contains(Relation::SYNONYM) && forward.contains(Relation::HYPERNYM));
        let backward = lexicon.relation(id("aid"), id("help"));
        assert!(backward.contains(Relation::SYNONYM) && backward.contains(Relation::HYPONYM));
        assert!(!backward.contains(Relation::HYPERNYM));
        assert_eq!(backward.describe(), "synonyms, hyponym");
        assert!(lexicon.relation(id("help"), id("big")).is_empty());
        assert!(lexicon.relation(id("help"), id("help")).is_empty());
        let stats = lexicon.stats();
        assert_eq!((stats.pairs, stats.synonyms, stats.hypernyms), (4, 2, 1));
        assert_eq!((stats.derived, stats.similar), (1, 1));
        assert_eq!(lexicon.upper_pairs().count(), 4);
    }

    #[test]
    fn words_find_their_lemmas_through_morphology() {
        let lexicon = sample();
        let lemmas = |w: &str| {
            let mut out = Vec::new();
            lexicon.lemmas_of(w, &mut out);
            out.iter()
                .map(|&l| lexicon.lemma_text(l).to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(lemmas("helped"), vec!["help"]);
        assert_eq!(lemmas("aids"), vec!["aid"]);
        assert_eq!(lemmas("went"), vec!["go", "went"]);
        assert_eq!(lemmas("assistances"), vec!["assistance"]);
        assert!(lemmas("xyz").is_empty());
    }

    #[test]
    fn inconsistent_parts_are_refused() {
        let lemmas = Vocabulary::from_sorted(&["a", "b"]).unwrap();
        let err = |parts: Vec<u8>, pairs| {
            Lexicon::new(String::new(), lemmas.clone(), parts, Vec::new(), pairs).unwrap_err()
        };
        assert_eq!(
            err(vec![1], vec![]),
            LexiconError::PartsLength {
                parts: 1,
                lemmas: 2
            }
        );
        assert_eq!(err(vec![1, 0], vec![]), LexiconError::NoPartOfSpeech(1));
        assert_eq!(
            err(vec![1, 1], vec![(0, 2, Relation::SYNONYM)]),
            LexiconError::RelationLemma(2)
        );
        assert_eq!(
            err(vec![1, 1], vec![(1, 1, Relation::SYNONYM)]),
            LexiconError::RelationOrder(1)
        );
        assert_eq!(Relation::from_bits(0), None);
        assert_eq!(Relation::from_bits(32), None);
        assert_eq!(Relation::from_bits(5), Some(Relation(5)));
    }
}
