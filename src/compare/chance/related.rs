//! Related words as evidence against chance: a sentence that says "proclaim" where its source
//! said "declare" has kept the source's meaning in a word the two do not share.
//!
//! The null model ([`super::null`]) counts the terms two sentences share. A rewording swaps some
//! of them for synonyms, and a swapped word weighed nothing: a reworded sentence that kept four
//! of its source's words and swapped the rest could not pass the passage bar alone (issue 45;
//! EVALUATION.md, "The reworded cases the default misses"). Yet a random pair of sentences rarely
//! holds "declare" on one side and "proclaim" on the other: that coincidence has a chance rate
//! of its own, q_A(declare) q_B(proclaim), just as sharing a word has q_A(t) q_B(t). So each
//! pair (s, t) of a term of A and a different term of B that WordNet relates is one more term of
//! the null model ([`super::null::NullModel::with_related`]), with weight
//! -ln(q_A(s) q_B(t)), and two sentences "share" it when the left one holds s and not t, and the
//! right one t and not s ([`super::null::NullModel::related_terms`]). The relation's chance
//! rate is read from the two documents as every other term's is, so a topic's words that both
//! documents use all the time ("car" in one, "automobile" in the other) weigh little, and two
//! unrelated documents meet related pairs at the rate the model expects.
//!
//! Which relations count is [`RelatedKinds`]: words that share a lemma under different stems
//! ("went" and "gone") always, and WordNet's synonyms, derived forms, hypernyms and hyponyms,
//! or "similar to" as chosen. Relations hold between lemmas (WordNet 3.0, Miller 1995, read by
//! [`crate::model::wordnet`]); a term here is a stem, so a term of A relates to one of B when
//! some lemma of a word behind the first, anywhere in A, relates to some lemma of a word behind
//! the second, anywhere in B (a stem's senses are pooled over its document, as its rate is).
//!
//! A swap says less of reuse than a kept word of the same rarity (a rewriter keeps a word more
//! often than it picks one particular relative), so a related pair weighs
//! -ln(q_A(s) q_B(t)) less a discount ([`super::search::ChanceSearch::related_discount`]); the
//! null model counts it at that weight and its own probability.
//!
//! **Off by default, because it does not earn its place.** Measured on the text-alignment
//! tuning corpora of 0.5 KB to 5 MB (EVALUATION.md, "The reworded cases the default misses"):
//! undiscounted, synonyms lowered the reworded case recall from 50 KB on (5 MB: 0.857 to 0.714)
//! and every kind lowered everything, because related pairs outnumber shared terms, many as heavy
//! as the rarest shared words, so the tail of every pair's score grows more than a swap adds (a
//! pair's E-value rose tenfold with its own swap counted). Discounted by 4 to 8 nats it trades a
//! case found at one size for one lost at another, and no discount beats the default's mean
//! plagdet by more than 0.0002. It stays an option so that the measurement can be run again.

use std::fmt;
use std::str::FromStr;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::model::wordnet::{LemmaId, Lexicon, Relation};
use crate::similarity::{PreparedDoc, TermId};

/// Which WordNet relations make two terms related evidence (see the module docs): none (off),
/// or a set of kinds, words of one lemma under two stems always among them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RelatedKinds(u8);

impl RelatedKinds {
    /// No related words: only shared terms are evidence.
    pub const OFF: RelatedKinds = RelatedKinds(0);
    /// Shared lemmas under two stems, and WordNet's synonyms (a shared synset).
    pub const SYNONYMS: RelatedKinds = RelatedKinds(Self::LEMMAS | Relation::SYNONYM.bits());

    /// The bit of words sharing a lemma (not one of [`Relation`]'s, which never relate a lemma
    /// to itself).
    const LEMMAS: u8 = 128;

    /// The names of the kinds, as the command line writes them.
    const NAMES: [(&'static str, u8); 5] = [
        ("lemmas", Self::LEMMAS),
        ("synonyms", Relation::SYNONYM.bits()),
        ("derived", Relation::DERIVED.bits()),
        (
            "hypernyms",
            Relation::HYPERNYM.bits() | Relation::HYPONYM.bits(),
        ),
        ("similar", Relation::SIMILAR.bits()),
    ];

    pub fn is_off(self) -> bool {
        self.0 == 0
    }

    /// Whether a stored relation between two lemmas is of a kind counted here.
    fn counts(self, relation: Relation) -> bool {
        relation.bits() & self.0 != 0
    }

    fn shares_lemmas(self) -> bool {
        self.0 & Self::LEMMAS != 0
    }
}

impl Default for RelatedKinds {
    fn default() -> Self {
        RelatedKinds::OFF
    }
}

impl fmt::Display for RelatedKinds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_off() {
            return f.write_str("off");
        }
        let names: Vec<&str> = Self::NAMES
            .iter()
            .filter(|(_, bits)| self.0 & bits == *bits)
            .map(|(name, _)| *name)
            .collect();
        f.write_str(&names.join(","))
    }
}

impl FromStr for RelatedKinds {
    type Err = String;

    /// `off`, or kinds separated by commas (`synonyms,derived`); words sharing a lemma count
    /// whenever any kind does.
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("off") || text.eq_ignore_ascii_case("none") {
            return Ok(RelatedKinds::OFF);
        }
        let mut bits = Self::LEMMAS;
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((_, kind)) = Self::NAMES
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(part))
            else {
                let known: Vec<&str> = Self::NAMES.iter().map(|(n, _)| *n).collect();
                return Err(format!(
                    "unknown kind of related words {part:?}: off, or some of {}",
                    known.join(", ")
                ));
            };
            bits |= kind;
        }
        Ok(RelatedKinds(bits))
    }
}

/// Every pair (a term of `left`, a different term of `right`) whose words `kinds` relates,
/// sorted and distinct: what [`super::null::NullModel::with_related`] counts. Only the active
/// sentences' content terms have lemmas and take part.
pub fn related_pairs(
    [left, right]: [&PreparedDoc; 2],
    lexicon: &Lexicon,
    kinds: RelatedKinds,
) -> Vec<(TermId, TermId)> {
    if kinds.is_off() {
        return Vec::new();
    }
    let left_lemmas = lemmas_by_term(left);
    let mut right_terms: FxHashMap<LemmaId, Vec<TermId>> = FxHashMap::default();
    for (term, lemmas) in lemmas_by_term(right) {
        for lemma in lemmas {
            right_terms.entry(lemma).or_default().push(term);
        }
    }
    let mut pairs = Vec::new();
    let mut targets: Vec<LemmaId> = Vec::new();
    for (s, lemmas) in left_lemmas {
        targets.clear();
        for &lemma in &lemmas {
            if kinds.shares_lemmas() {
                targets.push(lemma);
            }
            targets.extend(
                lexicon
                    .related(lemma)
                    .filter(|&(_, relation)| kinds.counts(relation))
                    .map(|(other, _)| other),
            );
        }
        for lemma in &targets {
            for &t in right_terms.get(lemma).map_or(&[][..], Vec::as_slice) {
                if t != s {
                    pairs.push((s, t));
                }
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// Each content term of a document's active sentences with the lemmas of the words behind it,
/// sorted and distinct (terms without lemmas left out).
fn lemmas_by_term(doc: &PreparedDoc) -> FxHashMap<TermId, Vec<LemmaId>> {
    let mut by_term: FxHashMap<TermId, Vec<LemmaId>> = FxHashMap::default();
    for (_, sentence) in doc.active() {
        for &term in sentence.content() {
            let lemmas = sentence.lemmas_of(term);
            if !lemmas.is_empty() {
                by_term.entry(term).or_default().extend_from_slice(lemmas);
            }
        }
    }
    for lemmas in by_term.values_mut() {
        lemmas.sort_unstable();
        lemmas.dedup();
    }
    by_term
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::chance::null::NullModel;
    use crate::model::ReferenceModel;
    use crate::similarity::Vocabulary;
    use crate::text::RefineOptions;

    /// Two documents prepared with the embedded model (which carries WordNet's relations).
    fn prepared(left: &[&str], right: &[&str]) -> (Vocabulary, PreparedDoc, PreparedDoc) {
        let model = ReferenceModel::embedded();
        let mut vocabulary = Vocabulary::new(model);
        let a = vocabulary.prepare_texts_with(left, model, &RefineOptions::MEASURED);
        let b = vocabulary.prepare_texts_with(right, model, &RefineOptions::MEASURED);
        (vocabulary, a, b)
    }

    fn id(vocabulary: &Vocabulary, doc: &PreparedDoc, sentence: usize, stem: &str) -> TermId {
        *doc.sentences[sentence]
            .set
            .iter()
            .find(|&&t| vocabulary.name(t) == stem)
            .unwrap_or_else(|| panic!("no term {stem:?}"))
    }

    /// "torso" and "body" share a synset: the pair is related under synonyms, and a sentence
    /// saying one where the other says the other holds it, weighing -ln(q_A q_B); nothing is
    /// related with the kinds off.
    #[test]
    fn a_swapped_synonym_is_one_term_at_its_own_chance_rate() {
        let (vocabulary, left, right) = prepared(
            &[
                "The statue had a round torso covered with scales.",
                "Nothing else was carved.",
            ],
            &[
                "The beast had a round body covered with scales.",
                "Its tail was long.",
                "Its body was green.",
            ],
        );
        let lexicon = ReferenceModel::embedded().lexicon().expect("WordNet");
        let torso = id(&vocabulary, &left, 0, "torso");
        let body = id(&vocabulary, &right, 0, "bodi");
        let pairs = related_pairs([&left, &right], lexicon, RelatedKinds::SYNONYMS);
        assert!(pairs.contains(&(torso, body)), "{pairs:?}");
        assert!(related_pairs([&left, &right], lexicon, RelatedKinds::OFF).is_empty());

        let null = NullModel::with_related(&left, &right, None, &pairs, 0.0);
        assert_eq!(null.related_pairs(), pairs.len());
        let (l, r) = (&left.sentences[0], &right.sentences[0]);
        let found = null.related_terms(l.content(), &l.set, &r.set);
        assert_eq!(found.len(), 1, "{found:?}");
        // torso in one of A's two sentences, body in two of B's three.
        let expected = -((1.0f64 / 2.0) * (2.0 / 3.0)).ln();
        assert!((found[0].1 - expected).abs() < 1e-9, "{found:?}");
        assert!(found[0].0 as usize >= null.shared_terms());
        // The sentences without the swap hold nothing related.
        let other = &right.sentences[1];
        assert!(
            null.related_terms(l.content(), &l.set, &other.set)
                .is_empty()
        );
    }

    /// A term both sentences hold is shared, not swapped; and a word swapped for two related
    /// ones counts once.
    #[test]
    fn a_swap_needs_each_word_on_one_side_only_and_counts_once() {
        let (_, left, right) = prepared(
            &["A round torso covered with scales."],
            &[
                "A round torso and body covered with scales.",
                "A round body and trunk covered with scales.",
            ],
        );
        let lexicon = ReferenceModel::embedded().lexicon().expect("WordNet");
        let pairs = related_pairs([&left, &right], lexicon, RelatedKinds::SYNONYMS);
        let null = NullModel::with_related(&left, &right, None, &pairs, 0.0);
        let l = &left.sentences[0];
        // "torso" is on both sides: no swap, though the right one says "body" too.
        let both = &right.sentences[0];
        assert!(
            null.related_terms(l.content(), &l.set, &both.set)
                .is_empty()
        );
        // "torso" against "body" and "trunk", both its synonyms: one swap.
        let two = &right.sentences[1];
        assert_eq!(null.related_terms(l.content(), &l.set, &two.set).len(), 1);
    }

    #[test]
    fn kinds_read_and_write_as_the_command_line_does() {
        assert_eq!("off".parse::<RelatedKinds>(), Ok(RelatedKinds::OFF));
        assert_eq!(
            "synonyms".parse::<RelatedKinds>(),
            Ok(RelatedKinds::SYNONYMS)
        );
        assert_eq!(RelatedKinds::SYNONYMS.to_string(), "lemmas,synonyms");
        let all: RelatedKinds = "synonyms, derived,hypernyms,similar"
            .parse()
            .expect("kinds");
        assert_eq!(all.to_string(), "lemmas,synonyms,derived,hypernyms,similar");
        assert_eq!(all.to_string().parse::<RelatedKinds>(), Ok(all));
        assert!("antonyms".parse::<RelatedKinds>().is_err());
        assert!(all.counts(Relation::HYPONYM) && !RelatedKinds::SYNONYMS.counts(Relation::DERIVED));
    }
}
