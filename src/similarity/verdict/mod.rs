//! The learned pair verdict: a calibrated probability that two sentences say the same, from a
//! logistic regression over cheap pair features ([`features`]), trained on labelled pairs by
//! `simdoc model train-verdict` (MSRP train and PAN tune; never PAN holdout) and stored in the
//! model with the data and command that made it ([`crate::model::verdict`]).
//!
//! Not in the thesis, whose EQ (eq. 3.4) decides a pair by its two Sims. The thesis's own idea,
//! that related words make a reworded sentence match, carries further when the Sims are one
//! piece of evidence among others (word order, function words, numbers, negation), weighed by
//! measurement: EVALUATION.md, "A learned pair verdict". Under rules that ask for it
//! ([`super::MatchRules::verdict`]) each scored pair carries the probability
//! ([`super::ScoredPair::verdict`]) and matches when it reaches the permission; the directional
//! Sims stay what containment and the thesis preset use.
//!
//! - [`features`]: the features of a pair of prepared sentences;
//! - [`kld`]: those from weights learnt per word (TF-KLD), whose term counts a verdict stores;
//! - [`logistic`]: the regression, fitted by IRLS;
//! - [`Verdict`]: a stored verdict checked against the features and applied ([`assign`]).

pub(crate) mod features;
pub mod kld;
pub(crate) mod logistic;
pub(crate) mod mt;
mod pair_words;

use rayon::prelude::*;

pub use features::{
    FEATURE_NAMES, FEATURES, Features, LEARNT_FEATURES, SentenceFacts, pair_features, term_counts,
};

use super::lexical::{Lexical, WordnetWeights};
use super::{JoinSide, ModelView, PreparedDoc, PreparedSentence, ScoredPair, Vocabulary};
use crate::model::verdict::{StoredFeature, StoredTerms, StoredVerdict};
use kld::TermAgreement;
use logistic::Logistic;

/// Why a stored verdict cannot be used by this simdoc.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerdictError {
    #[error(
        "the model's pair verdict was trained on features {found:?}, this simdoc computes {expected:?}; train it again with `simdoc model train-verdict`"
    )]
    Features {
        found: Vec<String>,
        expected: Vec<String>,
    },
    #[error(
        "the model's pair verdict has no term counts for its TF-KLD features; train it again with `simdoc model train-verdict`"
    )]
    NoTermCounts,
}

/// A stored verdict whose features are this simdoc's ([`FEATURE_NAMES`]), ready to apply.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    regression: Logistic,
    /// The WordNet weights of its relatedness features.
    pub weights: WordnetWeights,
    /// The probability the training command recommends deciding at.
    pub threshold: f64,
    /// The learnt term rates of the TF-KLD features.
    rates: TermAgreement,
}

impl Verdict {
    /// Checks a stored verdict's feature names against [`FEATURE_NAMES`] and that it has the
    /// term counts of its TF-KLD features.
    pub fn new(stored: &StoredVerdict) -> Result<Verdict, VerdictError> {
        let names: Vec<&str> = stored.features.iter().map(|f| f.name.as_str()).collect();
        if names != FEATURE_NAMES {
            return Err(VerdictError::Features {
                found: names.iter().map(|s| s.to_string()).collect(),
                expected: FEATURE_NAMES.iter().map(|s| s.to_string()).collect(),
            });
        }
        let rates = TermAgreement::new(stored.terms.as_ref().ok_or(VerdictError::NoTermCounts)?);
        Ok(Verdict {
            regression: Logistic {
                intercept: stored.intercept,
                weights: stored.features.iter().map(|f| f.weight).collect(),
                means: stored.features.iter().map(|f| f.mean).collect(),
                sds: stored.features.iter().map(|f| f.sd).collect(),
            },
            weights: WordnetWeights::from_array(stored.wordnet_weights),
            threshold: stored.threshold,
            rates,
        })
    }

    /// The model's verdict, if it has one that fits.
    pub fn of(model: &dyn ModelView) -> Option<Result<Verdict, VerdictError>> {
        model.verdict().map(Verdict::new)
    }

    /// The fitted regression, with the term counts its TF-KLD features read, as a verdict to
    /// store.
    pub fn store(
        regression: &Logistic,
        weights: WordnetWeights,
        threshold: f64,
        terms: StoredTerms,
        note: String,
    ) -> StoredVerdict {
        StoredVerdict {
            terms: Some(terms),
            note,
            wordnet_weights: weights.to_array(),
            intercept: regression.intercept,
            threshold,
            features: FEATURE_NAMES
                .iter()
                .enumerate()
                .map(|(i, name)| StoredFeature {
                    name: name.to_string(),
                    weight: regression.weights[i],
                    mean: regression.means[i],
                    sd: regression.sds[i],
                })
                .collect(),
        }
    }

    /// What the features need of one sentence, with this verdict's term rates.
    pub fn facts<'n>(
        &self,
        sentence: &PreparedSentence,
        name: impl Fn(u32) -> &'n str,
    ) -> SentenceFacts {
        SentenceFacts::with_rates(sentence, name, Some(&self.rates))
    }

    /// The probability that a pair with these features says the same.
    pub fn probability(&self, features: &Features) -> f64 {
        self.regression.probability(features)
    }

    /// The probability for two prepared sentences (terms named by `vocabulary`), relating their
    /// words through `model`'s WordNet table with this verdict's weights.
    pub fn of_sentences(
        &self,
        a: &PreparedSentence,
        b: &PreparedSentence,
        vocabulary: &Vocabulary,
        model: &dyn ModelView,
    ) -> f64 {
        let name = |t| vocabulary.name(t);
        let (fa, fb) = (self.facts(a, name), self.facts(b, name));
        let lexical = self.lexical(model);
        self.probability(&pair_features(
            a,
            &fa,
            b,
            &fb,
            lexical.as_ref(),
            &mut Vec::new(),
        ))
    }

    /// WordNet's relations with this verdict's weights.
    pub fn lexical<'m>(&self, model: &'m dyn ModelView) -> Option<Lexical<'m>> {
        model.lexicon().map(|lexicon| Lexical {
            lexicon,
            weights: self.weights,
        })
    }

    /// Sets every pair's [`ScoredPair::verdict`]: `pairs` are between sentences of `left` and
    /// `right` (positions in them; a one-to-two pair's two sentences on its joined side are read
    /// as one), whose terms `vocabulary` names. Each sentence's facts are computed once.
    pub fn assign(
        &self,
        pairs: &mut [ScoredPair],
        left: &PreparedDoc,
        right: &PreparedDoc,
        vocabulary: &Vocabulary,
        model: &dyn ModelView,
    ) {
        let name = |t| vocabulary.name(t);
        let facts_of = |doc: &PreparedDoc, used: Vec<u32>| -> Vec<Option<SentenceFacts>> {
            let mut facts = vec![None; doc.sentences.len()];
            let computed: Vec<(u32, SentenceFacts)> = used
                .into_par_iter()
                .filter_map(|i| {
                    let sentence = doc.sentences.get(i as usize)?;
                    Some((i, self.facts(sentence, name)))
                })
                .collect();
            for (i, f) in computed {
                facts[i as usize] = Some(f);
            }
            facts
        };
        let used = |side: fn(&ScoredPair) -> u32| {
            let mut positions: Vec<u32> = pairs
                .iter()
                .filter(|p| p.joined.is_none())
                .map(side)
                .collect();
            positions.sort_unstable();
            positions.dedup();
            positions
        };
        let left_facts = facts_of(left, used(|p| p.left));
        let right_facts = facts_of(right, used(|p| p.right));
        let lexical = self.lexical(model);
        pairs.par_iter_mut().for_each_init(Vec::new, |dp, pair| {
            pair.verdict = self.pair_probability(
                pair,
                [left, right],
                [&left_facts, &right_facts],
                &name,
                lexical.as_ref(),
                dp,
            );
        });
    }

    /// One pair's probability (see [`Self::assign`]); `None` for positions outside the
    /// documents.
    fn pair_probability<'n>(
        &self,
        pair: &ScoredPair,
        docs: [&PreparedDoc; 2],
        facts: [&[Option<SentenceFacts>]; 2],
        name: &impl Fn(u32) -> &'n str,
        lexical: Option<&Lexical<'_>>,
        dp: &mut Vec<u32>,
    ) -> Option<f64> {
        let sentence = |side: usize, at: u32| docs[side].sentences.get(at as usize);
        let joined_side = pair.joined.map(|j| match j.side {
            JoinSide::Left => (0, j.with),
            JoinSide::Right => (1, j.with),
        });
        let positions = [pair.left, pair.right];
        let mut owned: [Option<(PreparedSentence, SentenceFacts)>; 2] = [None, None];
        if let Some((side, with)) = joined_side {
            let at = positions[side];
            let (first, second) = (at.min(with), at.max(with));
            let union = sentence(side, first)?.followed_by(sentence(side, second)?);
            let facts = self.facts(&union, name);
            owned[side] = Some((union, facts));
        }
        let side_view = |side: usize| -> Option<(&PreparedSentence, &SentenceFacts)> {
            match &owned[side] {
                Some((s, f)) => Some((s, f)),
                None => Some((
                    sentence(side, positions[side])?,
                    facts[side].get(positions[side] as usize)?.as_ref()?,
                )),
            }
        };
        let ((a, fa), (b, fb)) = (side_view(0)?, side_view(1)?);
        let features = pair_features(a, fa, b, fb, lexical, dp);
        Some(self.probability(&features))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::table::TableModel;
    use crate::text::RefineOptions;

    /// A stored verdict with every feature's weight `weight`, mean 0 and deviation 1.
    fn stored_with(weight: f64) -> StoredVerdict {
        Verdict::store(
            &Logistic {
                intercept: 0.0,
                weights: vec![weight; FEATURES],
                means: vec![0.0; FEATURES],
                sds: vec![1.0; FEATURES],
            },
            WordnetWeights::TRIAL,
            0.5,
            StoredTerms {
                strength: 2.0,
                totals: Default::default(),
                terms: Vec::new(),
            },
            "test".into(),
        )
    }

    /// A verdict that is sure exactly when the WordNet Sims are high: weight 10 on
    /// `wordnet_min`, nothing else.
    fn verdict() -> Verdict {
        let mut stored = stored_with(0.0);
        stored.features[0].weight = 10.0;
        stored.features[0].mean = 0.5;
        Verdict::new(&stored).unwrap()
    }

    #[test]
    fn features_are_checked_by_name() {
        let mut stored = stored_with(1.0);
        assert!(Verdict::new(&stored).is_ok());
        stored.features[3].name = "something else".into();
        let err = Verdict::new(&stored).unwrap_err().to_string();
        assert!(err.contains("train it again"), "{err}");
        let mut stored = stored_with(1.0);
        stored.terms = None;
        let err = Verdict::new(&stored).unwrap_err().to_string();
        assert!(err.contains("term counts"), "{err}");
    }

    #[test]
    fn pairs_get_the_probability_of_their_sentences_and_joins_read_both() {
        let model = TableModel::new();
        let mut vocabulary = Vocabulary::new(&model);
        let left = vocabulary.prepare_texts_with(
            &["The red car stopped.", "It was late."],
            &model,
            &RefineOptions::MEASURED,
        );
        let right = vocabulary.prepare_texts_with(
            &["The red car stopped. It was late.", "Nothing alike here"],
            &model,
            &RefineOptions::MEASURED,
        );
        let v = verdict();
        let mut pairs = vec![
            ScoredPair::scored(0, 0, 1.0, 0.5),
            ScoredPair::scored(0, 1, 0.0, 0.0),
            ScoredPair {
                joined: Some(super::super::Joined {
                    side: JoinSide::Left,
                    with: 1,
                }),
                ..ScoredPair::scored(0, 0, 1.0, 1.0)
            },
        ];
        v.assign(&mut pairs, &left, &right, &vocabulary, &model);
        let p: Vec<f64> = pairs.iter().map(|p| p.verdict.unwrap()).collect();
        // wordnet_min: the right sentence's 7 distinct terms (the red car stop it was late)
        // hold the left's 4: min Sim 4/7, p = sigmoid(10 (4/7 - 0.5)); nothing shared: min 0,
        // sigmoid(-5); the join covers the whole right sentence: min 1, sigmoid(5).
        assert!(
            (p[0] - logistic::sigmoid(10.0 * (4.0 / 7.0 - 0.5))).abs() < 1e-12,
            "{p:?}"
        );
        assert!((p[1] - logistic::sigmoid(-5.0)).abs() < 1e-12);
        assert!((p[2] - logistic::sigmoid(5.0)).abs() < 1e-12);
        let direct = v.of_sentences(&left.sentences[0], &right.sentences[0], &vocabulary, &model);
        assert_eq!(direct, p[0]);
        // The decision follows the probability, not the Sims.
        let t = super::super::Thresholds {
            permission: 0.9,
            variation: 0.0,
            max_e_value: None,
            min_words: 0,
        };
        assert!(pairs[2].is_eq(&t) && !pairs[0].is_eq(&t));
    }
}
