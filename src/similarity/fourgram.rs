//! The three least-frequent 4-gram matcher of thesis 3.2.1.
//!
//! A sentence's refined terms are joined without spaces; its character 4-grams are looked up in
//! the reference model's 4-gram frequencies; the three least frequent (ties broken by first
//! position; a 4-gram repeated in the sentence counts once, at its first position) are
//! concatenated in the order they occur in the sentence, as in the thesis's Table 3.1 where
//! "iraqs top shiite ..." is represented by "raqs aqst qsto". Two sentences match when their
//! fingerprints are equal.
//!
//! A sentence with fewer than three distinct 4-grams uses what it has; one whose refined string is
//! shorter than four characters (but not empty) is represented by that string; a sentence with no
//! terms has no fingerprint and never matches.

use std::sync::atomic::AtomicBool;

use super::exact::{equal_key_pairs, equal_key_pairs_brute_force, term_presence};
use super::{
    Cancelled, Explanation, MatchRules, Method, ModelView, PreparedSentence, ScoredPair,
    ScoringRequest, SentenceMatcher, Vocabulary,
};
use crate::text;

/// How many least-frequent 4-grams make a fingerprint (thesis: three).
pub const FINGERPRINT_GRAMS: usize = 3;

/// The fingerprint of a refined space-free sentence string, or `None` for an empty one.
pub fn fingerprint(refined: &str, model: &dyn ModelView) -> Option<String> {
    if refined.is_empty() {
        return None;
    }
    let grams = text::fourgrams(refined);
    if grams.is_empty() {
        return Some(refined.to_string());
    }
    // Distinct 4-grams at their first position, with their reference frequency.
    let mut seen = rustc_hash::FxHashSet::default();
    let mut distinct: Vec<(u32, usize, [char; 4])> = Vec::with_capacity(grams.len());
    for (position, gram) in grams.iter().enumerate() {
        if seen.insert(*gram) {
            distinct.push((model.fourgram_count(*gram), position, *gram));
        }
    }
    distinct.sort_unstable_by_key(|&(count, position, _)| (count, position));
    distinct.truncate(FINGERPRINT_GRAMS);
    distinct.sort_unstable_by_key(|&(_, position, _)| position);
    Some(distinct.iter().flat_map(|(_, _, g)| g.iter()).collect())
}

/// Matches sentences with equal three-least-frequent-4-gram fingerprints.
#[derive(Clone, Copy, Debug, Default)]
pub struct FourgramMatcher;

impl SentenceMatcher for FourgramMatcher {
    fn method(&self) -> Method {
        Method::Fourgram
    }

    fn score_pairs(
        &self,
        request: &ScoringRequest<'_>,
        cancel: &AtomicBool,
    ) -> Result<Vec<ScoredPair>, Cancelled> {
        let ScoringRequest {
            left,
            right,
            model,
            floor,
            ..
        } = *request;
        equal_key_pairs(
            left,
            right,
            floor,
            |s| fingerprint(&s.refined, model),
            cancel,
        )
    }

    fn score_pairs_brute_force(&self, request: &ScoringRequest<'_>) -> Vec<ScoredPair> {
        let ScoringRequest {
            left,
            right,
            model,
            floor,
            ..
        } = *request;
        equal_key_pairs_brute_force(left, right, floor, |s| fingerprint(&s.refined, model))
    }

    fn explain(
        &self,
        left: &PreparedSentence,
        right: &PreparedSentence,
        vocabulary: &Vocabulary,
        model: &dyn ModelView,
        _rules: &MatchRules,
    ) -> Explanation {
        let a = fingerprint(&left.refined, model);
        let b = fingerprint(&right.refined, model);
        let score = if a.is_some() && a == b { 1.0 } else { 0.0 };
        Explanation {
            method: Method::Fourgram,
            sim_lr: score,
            sim_rl: score,
            left_terms: term_presence(left, right, vocabulary),
            right_terms: term_presence(right, left, vocabulary),
            fingerprints: Some((a.unwrap_or_default(), b.unwrap_or_default())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::table::TableModel;

    /// Thesis 3.2.1: "iraqs top shiite muslim cleric ..." has the three least-frequent 4-grams
    /// raqs, aqst, qsto and is represented as "raqsaqstqsto". Here every 4-gram is common except
    /// those three (given rising rarities out of order, to check the positional concatenation).
    #[test]
    fn thesis_sistani_fingerprint() {
        let refined = "iraqstopshiitemuslimcleric";
        let mut model = TableModel::new();
        for gram in text::fourgrams(refined) {
            let g: String = gram.iter().collect();
            model.set_fourgram(&g, 1000);
        }
        model.set_fourgram("qsto", 1);
        model.set_fourgram("raqs", 3);
        model.set_fourgram("aqst", 2);
        assert_eq!(
            fingerprint(refined, &model).as_deref(),
            Some("raqsaqstqsto")
        );
    }

    #[test]
    fn ties_break_by_first_position_and_repeats_count_once() {
        let model = TableModel::new(); // every 4-gram unseen: all tie at 0
        assert_eq!(
            fingerprint("abcdefg", &model).as_deref(),
            Some("abcdbcdecdef")
        );
        // "abcdabcd": abcd repeats; distinct grams at first positions: abcd bcda cdab dabc.
        assert_eq!(
            fingerprint("abcdabcd", &model).as_deref(),
            Some("abcdbcdacdab")
        );
    }

    #[test]
    fn short_sentences_use_what_they_have() {
        let model = TableModel::new();
        assert_eq!(fingerprint("abcde", &model).as_deref(), Some("abcdbcde"));
        assert_eq!(fingerprint("abc", &model).as_deref(), Some("abc"));
        assert_eq!(fingerprint("", &model), None);
    }
}
