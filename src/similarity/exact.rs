//! The exact matcher: two sentences match when their refined term sequences are equal. It is the
//! cheap baseline and the viewer's "identical" tier. Also home of the key join that the
//! fingerprint methods share.

use std::hash::Hash;
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::{
    Cancelled, Explanation, MatchRules, Method, ModelView, PreparedDoc, PreparedSentence,
    ScoredPair, ScoringRequest, SentenceMatcher, TermMatch, Vocabulary, check,
};

/// Matches sentences with equal refined term sequences.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExactMatcher;

/// All pairs of active sentences whose keys are equal (a hash join), sorted by (left, right).
/// Scores are 1 both ways; `floor` above 1 keeps nothing.
pub(crate) fn equal_key_pairs<K: Hash + Eq + Send>(
    left: &PreparedDoc,
    right: &PreparedDoc,
    floor: f64,
    key: impl Fn(&PreparedSentence) -> Option<K> + Sync,
    cancel: &AtomicBool,
) -> Result<Vec<ScoredPair>, Cancelled> {
    if floor > 1.0 {
        return Ok(Vec::new());
    }
    // Keys (fingerprints) are the costly part: computed once per sentence, in parallel.
    let keyed = |doc: &PreparedDoc| -> Vec<(u32, Option<K>)> {
        let active: Vec<(u32, &PreparedSentence)> = doc.active().collect();
        active.par_iter().map(|&(i, s)| (i, key(s))).collect()
    };
    let mut by_key: FxHashMap<K, Vec<u32>> = FxHashMap::default();
    for (j, k) in keyed(right) {
        if let Some(k) = k {
            by_key.entry(k).or_default().push(j);
        }
    }
    check(cancel)?;
    let mut pairs = Vec::new();
    for (i, k) in keyed(left) {
        let Some(k) = k else { continue };
        let sentence = &left.sentences[i as usize];
        if let Some(partners) = by_key.get(&k) {
            for &j in partners {
                pairs.push(ScoredPair::new(
                    i,
                    j,
                    [1.0, 1.0],
                    sentence.terms == right.sentences[j as usize].terms,
                ));
            }
        }
    }
    Ok(pairs)
}

/// The same pairs by comparing every key with every key.
pub(crate) fn equal_key_pairs_brute_force<K: Eq>(
    left: &PreparedDoc,
    right: &PreparedDoc,
    floor: f64,
    key: impl Fn(&PreparedSentence) -> Option<K>,
) -> Vec<ScoredPair> {
    if floor > 1.0 {
        return Vec::new();
    }
    let right_keys: Vec<(u32, &PreparedSentence, Option<K>)> =
        right.active().map(|(j, s)| (j, s, key(s))).collect();
    let mut pairs = Vec::new();
    for (i, sentence) in left.active() {
        let k = key(sentence);
        for (j, other, other_key) in &right_keys {
            if k.is_some() && k == *other_key {
                pairs.push(ScoredPair::new(
                    i,
                    *j,
                    [1.0, 1.0],
                    sentence.terms == other.terms,
                ));
            }
        }
    }
    pairs
}

/// Per-term explanation for the binary methods: a term either occurs in the other sentence
/// (mu 1) or not (mu 0).
pub(crate) fn term_presence(
    from: &PreparedSentence,
    to: &PreparedSentence,
    vocabulary: &Vocabulary,
) -> Vec<TermMatch> {
    from.set
        .iter()
        .map(|w| {
            let exact = to.set.binary_search(w).is_ok();
            TermMatch {
                term: vocabulary.name(*w).to_string(),
                mu: if exact { 1.0 } else { 0.0 },
                exact,
                best: None,
                relation: None,
            }
        })
        .collect()
}

fn sequence_key(sentence: &PreparedSentence) -> Option<Vec<u32>> {
    (!sentence.terms.is_empty()).then(|| sentence.terms.clone())
}

impl SentenceMatcher for ExactMatcher {
    fn method(&self) -> Method {
        Method::Exact
    }

    fn score_pairs(
        &self,
        request: &ScoringRequest<'_>,
        cancel: &AtomicBool,
    ) -> Result<Vec<ScoredPair>, Cancelled> {
        let ScoringRequest {
            left, right, floor, ..
        } = *request;
        equal_key_pairs(left, right, floor, sequence_key, cancel)
    }

    fn score_pairs_brute_force(&self, request: &ScoringRequest<'_>) -> Vec<ScoredPair> {
        let ScoringRequest {
            left, right, floor, ..
        } = *request;
        equal_key_pairs_brute_force(left, right, floor, sequence_key)
    }

    fn explain(
        &self,
        left: &PreparedSentence,
        right: &PreparedSentence,
        vocabulary: &Vocabulary,
        _model: &dyn ModelView,
        _rules: &MatchRules,
    ) -> Explanation {
        let same = !left.terms.is_empty() && left.terms == right.terms;
        let score = if same { 1.0 } else { 0.0 };
        Explanation {
            method: Method::Exact,
            sim_lr: score,
            sim_rl: score,
            left_terms: term_presence(left, right, vocabulary),
            right_terms: term_presence(right, left, vocabulary),
            fingerprints: None,
        }
    }
}
