//! Word relatedness from WordNet's relations, looked up by word (lemma), not by stem.
//!
//! The thesis's eq. 3.2 needs `c(w, k)` for two words. Under [`RelatedWords::Wordnet`] it is
//! read from the model's WordNet table ([`crate::model::wordnet`]) between the *words* the two
//! sentences hold, each turned into its lemmas by WordNet's morphology when the sentence was
//! prepared ([`super::PreparedSentence::lemmas_of`]):
//! - 1 when the two words share a lemma ("went" and "goes": both "go"; stems differ);
//! - otherwise the largest weight among the relations between their lemmas: synonyms (a shared
//!   synset), a derivationally related form, or a direct hypernym, hyponym or "similar to"
//!   ([`WordnetWeights`], chosen on training data: EVALUATION.md, "WordNet relatedness");
//! - 0 otherwise. Kept stopwords and numbers have no lemmas and relate to nothing.
//!
//! A stem can stand for different words ("univers": "university", "universe"), which is why the
//! lookup is by word. Within one sentence pair a stem's `c` is the largest over the words it
//! stands for there. The exact candidate index of [`super::fuzzy`] needs one `c` per pair of
//! stems for a whole comparison: [`bound_rows`] gives the largest over every word of the
//! compared documents, at least the `c` of any one pair of sentences, so no pair that could
//! reach the floor is skipped.

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::{ModelView, PreparedDoc, TermId};
use crate::model::sentence_rates::SentenceRates;
use crate::model::verdict::StoredVerdict;
use crate::model::wordnet::{LemmaId, Lexicon, Relation};

/// What `c(w, k)` of eq. 3.2 is read from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RelatedWords {
    /// The model's correlations between stems: eq. 3.1 co-occurrence (the thesis's kind) or
    /// word vectors, whichever the model was built with.
    #[default]
    Correlations,
    /// WordNet's relations between words, with these weights.
    Wordnet(WordnetWeights),
}

impl RelatedWords {
    pub fn name(&self) -> &'static str {
        match self {
            RelatedWords::Correlations => "correlations",
            RelatedWords::Wordnet(_) => "wordnet",
        }
    }
}

/// The `c` of each kind of WordNet relation (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WordnetWeights {
    /// Two words sharing a synset.
    pub synonym: f64,
    /// A derivationally related form.
    pub derived: f64,
    /// A direct hypernym or hyponym, or "similar to".
    pub hypernym: f64,
}

impl WordnetWeights {
    /// The weights the trial of issue 27 started from (1 / 0.8 / 0.5), before any measurement.
    pub const TRIAL: WordnetWeights = WordnetWeights {
        synonym: 1.0,
        derived: 0.8,
        hypernym: 0.5,
    };

    /// Chosen on MSRP train and PAN tune over the grid {0, 0.25, 0.5, 0.75, 1}^3 of
    /// `scripts/select-wordnet-weights.sh` by the mean ROC AUC of min(Sim) with relatedness
    /// counted where a word replaces another: 0.8644 (MSRP 0.785, PAN 0.944), against 0.8639 at
    /// the trial's 1 / 0.8 / 0.5 and 0.8531 for word overlap (EVALUATION.md, "WordNet
    /// relatedness"). The surface is flat near the top: every synonym weight of 1 with a
    /// hypernym weight of 0.5 to 1 is within 0.0005.
    pub const MEASURED: WordnetWeights = WordnetWeights {
        synonym: 1.0,
        derived: 1.0,
        hypernym: 0.75,
    };

    /// The weights as stored beside a verdict.
    pub fn to_array(self) -> [f64; 3] {
        [self.synonym, self.derived, self.hypernym]
    }

    pub fn from_array([synonym, derived, hypernym]: [f64; 3]) -> WordnetWeights {
        WordnetWeights {
            synonym,
            derived,
            hypernym,
        }
    }

    /// Whether every weight is in [0, 1].
    pub fn is_valid(&self) -> bool {
        self.to_array().iter().all(|w| (0.0..=1.0).contains(w))
    }

    /// The `c` of a relation: its strongest kind's weight.
    pub fn of(&self, relation: Relation) -> f64 {
        let mut c: f64 = 0.0;
        if relation.contains(Relation::SYNONYM) {
            c = c.max(self.synonym);
        }
        if relation.contains(Relation::DERIVED) {
            c = c.max(self.derived);
        }
        if relation.contains(Relation::HYPERNYM)
            || relation.contains(Relation::HYPONYM)
            || relation.contains(Relation::SIMILAR)
        {
            c = c.max(self.hypernym);
        }
        c
    }
}

impl std::str::FromStr for WordnetWeights {
    type Err = String;
    /// "SYNONYM,DERIVED,HYPERNYM", each in [0, 1].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let values: Vec<f64> = s
            .split(',')
            .map(|v| v.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("`{s}`: expected three numbers: synonym,derived,hypernym"))?;
        let weights = match values[..] {
            [a, b, c] => WordnetWeights::from_array([a, b, c]),
            _ => {
                return Err(format!(
                    "`{s}`: expected three numbers: synonym,derived,hypernym"
                ));
            }
        };
        if !weights.is_valid() {
            return Err(format!("`{s}`: each weight must be between 0 and 1"));
        }
        Ok(weights)
    }
}

/// How two words are related, for explanations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordLink {
    /// They share a lemma: forms of one word.
    SameWord,
    /// A WordNet relation between some lemma of each.
    Related(Relation),
}

impl Serialize for WordLink {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.describe())
    }
}

impl WordLink {
    /// Words for the viewer: "same word", "synonyms", "hypernym", ...
    pub fn describe(&self) -> String {
        match self {
            WordLink::SameWord => "same word".to_string(),
            WordLink::Related(r) => r.describe(),
        }
    }
}

/// WordNet's relations with the weights of one comparison.
#[derive(Clone, Copy, Debug)]
pub struct Lexical<'a> {
    pub lexicon: &'a Lexicon,
    pub weights: WordnetWeights,
}

impl<'a> Lexical<'a> {
    /// The lexical relatedness a comparison under `related` reads from `model`: `None` under
    /// [`RelatedWords::Correlations`], or when the model has no WordNet table (then no two words
    /// are related; [`require`] makes that an error where a user asked for WordNet).
    pub fn of(model: &'a dyn ModelView, related: &RelatedWords) -> Option<Lexical<'a>> {
        match related {
            RelatedWords::Wordnet(weights) => model.lexicon().map(|lexicon| Lexical {
                lexicon,
                weights: *weights,
            }),
            RelatedWords::Correlations => None,
        }
    }

    /// `c` of two words given by their sorted lemma ids (see the module docs).
    pub fn c(&self, a: &[LemmaId], b: &[LemmaId]) -> f32 {
        self.link(a, b).map_or(0.0, |(c, _)| c)
    }

    /// `c` of two words and how they are related, `None` when they are not.
    pub fn link(&self, a: &[LemmaId], b: &[LemmaId]) -> Option<(f32, WordLink)> {
        if a.is_empty() || b.is_empty() {
            return None;
        }
        if shares_one(a, b) {
            return Some((1.0, WordLink::SameWord));
        }
        let mut best: Option<(f32, WordLink)> = None;
        for &x in a {
            for &y in b {
                let relation = self.lexicon.relation(x, y);
                if relation.is_empty() {
                    continue;
                }
                let c = self.weights.of(relation) as f32;
                if c > 0.0 && best.is_none_or(|(b, _)| c > b) {
                    best = Some((c, WordLink::Related(relation)));
                }
            }
        }
        best
    }
}

/// Whether two sorted lists share a value.
fn shares_one(a: &[u32], b: &[u32]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// For one comparison of `docs`: per content stem, every other stem of the documents with the
/// largest `c` between any word of the one and any word of the other (see the module docs),
/// rows sorted by stem. Symmetric.
pub fn bound_rows(
    docs: &[&PreparedDoc],
    lexical: &Lexical<'_>,
) -> FxHashMap<TermId, Vec<(TermId, f32)>> {
    // Each stem's lemmas over all its words in the documents, and the stems holding a lemma.
    let mut lemmas_of_stem: FxHashMap<TermId, Vec<LemmaId>> = FxHashMap::default();
    for doc in docs {
        for (_, sentence) in doc.active() {
            for (slot, &term) in sentence.set.iter().enumerate() {
                let lemmas = sentence.lemmas_at(slot);
                if !lemmas.is_empty() {
                    lemmas_of_stem
                        .entry(term)
                        .or_default()
                        .extend_from_slice(lemmas);
                }
            }
        }
    }
    let mut stems_of_lemma: FxHashMap<LemmaId, Vec<TermId>> = FxHashMap::default();
    for (&stem, lemmas) in &mut lemmas_of_stem {
        lemmas.sort_unstable();
        lemmas.dedup();
        for &l in lemmas.iter() {
            stems_of_lemma.entry(l).or_default().push(stem);
        }
    }
    let mut rows: FxHashMap<TermId, Vec<(TermId, f32)>> = FxHashMap::default();
    for (&stem, lemmas) in &lemmas_of_stem {
        let mut row: Vec<(TermId, f32)> = Vec::new();
        for &l in lemmas {
            let same = stems_of_lemma.get(&l).into_iter().flatten();
            row.extend(same.map(|&other| (other, 1.0)));
            for (related, relation) in lexical.lexicon.related(l) {
                let c = lexical.weights.of(relation) as f32;
                if c > 0.0 {
                    let holders = stems_of_lemma.get(&related).into_iter().flatten();
                    row.extend(holders.map(|&other| (other, c)));
                }
            }
        }
        row.retain(|&(other, _)| other != stem);
        row.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
        row.dedup_by_key(|e| e.0);
        if !row.is_empty() {
            rows.insert(stem, row);
        }
    }
    rows
}

/// A model seen through given correlate rows (those of [`bound_rows`]) instead of its own.
pub struct BoundView<'a> {
    pub model: &'a dyn ModelView,
    pub rows: FxHashMap<TermId, Vec<(TermId, f32)>>,
}

impl ModelView for BoundView<'_> {
    fn term_id(&self, term: &str) -> Option<TermId> {
        self.model.term_id(term)
    }
    fn vocabulary_size(&self) -> u32 {
        self.model.vocabulary_size()
    }
    fn correlates(&self, term: TermId, out: &mut Vec<(TermId, f32)>) {
        if let Some(row) = self.rows.get(&term) {
            out.extend_from_slice(row);
        }
    }
    fn fourgram_count(&self, gram: [char; 4]) -> u32 {
        self.model.fourgram_count(gram)
    }
    fn lexicon(&self) -> Option<&Lexicon> {
        self.model.lexicon()
    }
    fn verdict(&self) -> Option<&StoredVerdict> {
        self.model.verdict()
    }
    fn sentence_rates(&self) -> Option<&SentenceRates> {
        self.model.sentence_rates()
    }
}

/// A model seen without its WordNet table, for preparing sentences under rules that do not read
/// it ([`super::MatchRules::reads_wordnet`]): a prepared sentence then keeps no lemmas beside its
/// terms, which would cost memory for every sentence of a comparison that never looks at them
/// (100,000 sentences against themselves: 566 MB of peak memory with them, 453 MB without;
/// `tests/repetition.rs` bounds it at 500 MB).
pub struct WithoutLexicon<'a>(pub &'a dyn ModelView);

impl ModelView for WithoutLexicon<'_> {
    fn term_id(&self, term: &str) -> Option<TermId> {
        self.0.term_id(term)
    }
    fn vocabulary_size(&self) -> u32 {
        self.0.vocabulary_size()
    }
    fn correlates(&self, term: TermId, out: &mut Vec<(TermId, f32)>) {
        self.0.correlates(term, out);
    }
    fn fourgram_count(&self, gram: [char; 4]) -> u32 {
        self.0.fourgram_count(gram)
    }
    fn verdict(&self) -> Option<&StoredVerdict> {
        self.0.verdict()
    }
    fn has_document_rates(&self) -> bool {
        self.0.has_document_rates()
    }
    fn document_rate(&self, term: TermId) -> f64 {
        self.0.document_rate(term)
    }
    fn sentence_rates(&self) -> Option<&SentenceRates> {
        self.0.sentence_rates()
    }
}

/// Why a matching configuration cannot run on a model.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MissingPart {
    #[error(
        "the reference model has no WordNet relations, which these matching rules use (a model \
         built before format version 3, or without `simdoc model build --wordnet DIR`)"
    )]
    Wordnet,
    #[error(
        "the reference model has no pair verdict, which these matching rules use (train one with \
         `simdoc model train-verdict`)"
    )]
    Verdict,
}

/// Checks that `model` has what `rules` read: WordNet relations for
/// [`RelatedWords::Wordnet`], a verdict for [`super::MatchRules::verdict`].
pub fn require(model: &dyn ModelView, rules: &super::MatchRules) -> Result<(), MissingPart> {
    if matches!(rules.related_words, RelatedWords::Wordnet(_)) && model.lexicon().is_none() {
        return Err(MissingPart::Wordnet);
    }
    if rules.verdict && model.verdict().is_none() {
        return Err(MissingPart::Verdict);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_parse_and_apply_to_the_strongest_kind() {
        let w: WordnetWeights = "1, 0.8,0.5".parse().unwrap();
        assert_eq!(w, WordnetWeights::TRIAL);
        assert!("1,2,0".parse::<WordnetWeights>().is_err());
        assert!("1,0.5".parse::<WordnetWeights>().is_err());
        assert_eq!(w.of(Relation::SYNONYM.union(Relation::HYPERNYM)), 1.0);
        assert_eq!(w.of(Relation::HYPONYM), 0.5);
        assert_eq!(w.of(Relation::SIMILAR), 0.5);
        assert_eq!(w.of(Relation::DERIVED), 0.8);
        let derived_first = WordnetWeights {
            synonym: 0.3,
            derived: 0.9,
            hypernym: 0.0,
        };
        assert_eq!(
            derived_first.of(Relation::SYNONYM.union(Relation::DERIVED)),
            0.9
        );
        assert_eq!(derived_first.of(Relation::HYPERNYM), 0.0);
    }

    #[test]
    fn shared_lemmas_and_relations_give_c() {
        let lexicon = crate::model::wordnet::sample();
        let lexical = Lexical {
            lexicon: &lexicon,
            weights: WordnetWeights::TRIAL,
        };
        let lemmas = |w: &str| {
            let mut out = Vec::new();
            lexicon.lemmas_of(w, &mut out);
            out
        };
        let link = |a: &str, b: &str| lexical.link(&lemmas(a), &lemmas(b));
        assert_eq!(link("went", "go"), Some((1.0, WordLink::SameWord)));
        assert_eq!(
            link("helped", "aids"),
            Some((
                1.0,
                WordLink::Related(Relation::SYNONYM.union(Relation::HYPERNYM))
            ))
        );
        assert_eq!(
            link("assist", "assistance"),
            Some((0.8, WordLink::Related(Relation::DERIVED)))
        );
        assert_eq!(
            link("big", "large"),
            Some((0.5, WordLink::Related(Relation::SIMILAR)))
        );
        assert_eq!(link("big", "help"), None);
        assert_eq!(link("zzz", "help"), None);
        assert_eq!(WordLink::SameWord.describe(), "same word");
    }
}
