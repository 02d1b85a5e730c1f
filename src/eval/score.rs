//! Scoring one pair of texts with every sentence matcher, the way a document comparison would.
//!
//! Each text is one comparison unit: it is refined as a whole
//! ([`Vocabulary::prepare_texts_with`], with the comparison's [`CompareOptions::refine`]) and
//! compared as one "sentence". Both texts of a pair are prepared with one [`Vocabulary`], so
//! terms the model does not know get the same local id on both sides and still match themselves.
//! The scores are exactly what the matchers of [`crate::similarity`] compute for one sentence
//! pair under the comparison's [`CompareOptions::rules`] (a test checks it against their
//! brute-force paths):
//! - fuzzy: Sim in both directions (thesis eq. 3.2-3.3, [`fuzzy::sentence_similarity`]), decided
//!   by EQ (eq. 3.4, [`ScoredPair::is_eq`]);
//! - overlap: the same with every correlation taken as 0;
//! - fourgram: equal three-least-frequent-4-gram fingerprints (thesis 3.2.1);
//! - exact: equal refined term sequences;
//! - under rules that decide by the learned verdict ([`MatchRules::verdict`]), the fuzzy
//!   method's decision and graded score are the verdict's probability
//!   ([`crate::similarity::verdict`]), the Sims staying beside it.

use rayon::prelude::*;
use serde::Serialize;

use crate::compare::CompareOptions;
use crate::similarity::verdict::{SentenceFacts, Verdict, pair_features};
use crate::similarity::{
    MatchRules, Method, ModelView, PreparedSentence, ScoredPair, Thresholds, Vocabulary, fourgram,
    fuzzy,
};

/// What the matchers say about one pair of texts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PairScore {
    /// Sim(left, right): how much of the left text the right one covers (eq. 3.3).
    pub sim_lr: f64,
    /// Sim(right, left).
    pub sim_rl: f64,
    /// Sim(left, right) with every correlation taken as 0 (the overlap method).
    pub overlap_lr: f64,
    /// Sim(right, left) without correlations.
    pub overlap_rl: f64,
    /// The fingerprints of the two texts are equal (and exist).
    pub fourgram_match: bool,
    /// The refined term sequences are equal (and not empty).
    pub exact_match: bool,
    /// The rules let the fuzzy and overlap matchers pair the two at all
    /// ([`MatchRules::may_match`]: short sentences only match sentences with the same terms).
    pub may_match: bool,
    /// The learned verdict's probability, under rules that decide by it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<f64>,
    /// The mean number of refined terms of the two texts (for length bands; never a score).
    #[serde(skip)]
    pub mean_terms: f64,
}

impl PairScore {
    /// Scores two prepared sentences whose term ids come from one [`Vocabulary`], given their
    /// 4-gram fingerprints, under `rules`.
    pub fn of_prepared(
        left: &PreparedSentence,
        right: &PreparedSentence,
        fingerprints: (Option<&str>, Option<&str>),
        model: &dyn ModelView,
        rules: &MatchRules,
    ) -> PairScore {
        let (sim_lr, sim_rl) = fuzzy::sentence_similarity(left, right, model, rules);
        let (overlap_lr, overlap_rl) = fuzzy::sentence_overlap(left, right, rules);
        let has_terms = !left.content().is_empty() && !right.content().is_empty();
        PairScore {
            sim_lr,
            sim_rl,
            overlap_lr,
            overlap_rl,
            fourgram_match: fingerprints.0.is_some() && fingerprints.0 == fingerprints.1,
            exact_match: !left.terms.is_empty() && left.terms == right.terms,
            may_match: has_terms && rules.may_match(left, right),
            verdict: None,
            mean_terms: (left.terms.len() + right.terms.len()) as f64 / 2.0,
        }
    }

    /// The pair as a graded matcher (fuzzy or overlap) reports it.
    pub fn scored_pair(&self, method: Method) -> ScoredPair {
        let (sim_lr, sim_rl) = match method {
            Method::Overlap => (self.overlap_lr, self.overlap_rl),
            _ => (self.sim_lr, self.sim_rl),
        };
        ScoredPair::new(0, 0, [sim_lr, sim_rl], self.exact_match).with_verdict(match method {
            Method::Fuzzy => self.verdict,
            _ => None,
        })
    }

    /// The pair as the fuzzy matcher reports it.
    pub fn fuzzy_pair(&self) -> ScoredPair {
        self.scored_pair(Method::Fuzzy)
    }

    /// Whether `method` calls the two texts the same (`thresholds` matter for the graded
    /// methods only).
    pub fn decide(&self, method: Method, thresholds: &Thresholds) -> bool {
        match method {
            Method::Fuzzy | Method::Overlap => {
                self.may_match && self.scored_pair(method).is_eq(thresholds)
            }
            Method::Fourgram => self.fourgram_match,
            Method::Exact => self.exact_match,
        }
    }

    /// A graded score for rankings and correlations: the smaller directional Sim for the graded
    /// methods (the quantity the permission threshold is applied to; the verdict's probability
    /// when there is one), 1 or 0 for the binary methods.
    pub fn graded(&self, method: Method) -> f64 {
        match method {
            Method::Fuzzy | Method::Overlap => self.scored_pair(method).decisive_score(),
            Method::Fourgram => f64::from(u8::from(self.fourgram_match)),
            Method::Exact => f64::from(u8::from(self.exact_match)),
        }
    }
}

/// Scores one pair of texts as a comparison with `options` would (its refinement and rules).
pub fn score_pair(
    left: &str,
    right: &str,
    model: &dyn ModelView,
    options: &CompareOptions,
) -> PairScore {
    let mut vocabulary = Vocabulary::new(model);
    let prepared = vocabulary.prepare_texts_with(&[left, right], model, &options.refine);
    let [a, b] = [&prepared.sentences[0], &prepared.sentences[1]];
    let (fa, fb) = (
        fourgram::fingerprint(&a.refined, model),
        fourgram::fingerprint(&b.refined, model),
    );
    let mut score =
        PairScore::of_prepared(a, b, (fa.as_deref(), fb.as_deref()), model, &options.rules);
    if let Some(verdict) = verdict_of(model, &options.rules) {
        score.verdict = Some(verdict.of_sentences(a, b, &vocabulary, model));
    }
    score
}

/// The model's verdict when `rules` decide by it and the model has one that fits.
fn verdict_of(model: &dyn ModelView, rules: &MatchRules) -> Option<Verdict> {
    if !rules.verdict {
        return None;
    }
    Verdict::of(model)?.ok()
}

/// How many pairs are scored between two progress reports.
const PROGRESS_CHUNK: usize = 256;

/// Scores many pairs of texts in parallel as [`score_pair`] does, calling `advance(n)` as `n`
/// more pairs are done. All texts share one vocabulary (ids then agree across pairs too, which
/// changes nothing for a pair but lets each text be refined once).
pub fn score_pairs<S: AsRef<str> + Sync>(
    pairs: &[(S, S)],
    model: &dyn ModelView,
    options: &CompareOptions,
    advance: &(dyn Fn(u64) + Sync),
) -> Vec<PairScore> {
    let texts: Vec<&str> = pairs
        .iter()
        .flat_map(|(a, b)| [a.as_ref(), b.as_ref()])
        .collect();
    let mut vocabulary = Vocabulary::new(model);
    let prepared = vocabulary.prepare_texts_with(&texts, model, &options.refine);
    let fingerprints: Vec<Option<String>> = prepared
        .sentences
        .par_iter()
        .map(|s| fourgram::fingerprint(&s.refined, model))
        .collect();
    let sentences = &prepared.sentences;
    let verdict = verdict_of(model, &options.rules);
    let facts: Vec<SentenceFacts> = match &verdict {
        Some(verdict) => sentences
            .par_iter()
            .map(|s| verdict.facts(s, |t| vocabulary.name(t)))
            .collect(),
        None => Vec::new(),
    };
    let lexical = verdict.as_ref().and_then(|v| v.lexical(model));
    (0..pairs.len())
        .collect::<Vec<_>>()
        .par_chunks(PROGRESS_CHUNK)
        .flat_map_iter(|chunk| {
            let mut dp = Vec::new();
            let scores: Vec<PairScore> = chunk
                .iter()
                .map(|&i| {
                    let (l, r) = (2 * i, 2 * i + 1);
                    let mut score = PairScore::of_prepared(
                        &sentences[l],
                        &sentences[r],
                        (fingerprints[l].as_deref(), fingerprints[r].as_deref()),
                        model,
                        &options.rules,
                    );
                    if let Some(verdict) = &verdict {
                        let features = pair_features(
                            &sentences[l],
                            &facts[l],
                            &sentences[r],
                            &facts[r],
                            lexical.as_ref(),
                            &mut dp,
                        );
                        score.verdict = Some(verdict.probability(&features));
                    }
                    score
                })
                .collect();
            advance(chunk.len() as u64);
            scores
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::table::TableModel;
    use crate::similarity::{PreparedDoc, ScoringRequest};
    use proptest::prelude::*;

    /// The thesis's refinement with the short-sentence rule: what these hand-made cases are
    /// about (stopwords kept would make "the" and "an" differ).
    fn options() -> CompareOptions {
        CompareOptions {
            refine: crate::text::RefineOptions::THESIS,
            rules: MatchRules {
                min_terms: 3,
                ..MatchRules::MEASURED
            },
            ..CompareOptions::default()
        }
    }

    fn model() -> TableModel {
        let mut m = TableModel::new();
        m.set_correlation("car", "automobil", 0.8);
        m.set_correlation("drive", "road", 0.4);
        m.set_correlation("fast", "quick", 0.6);
        m.set_fourgram("cars", 5);
        m
    }

    #[test]
    fn identical_texts_match_everywhere() {
        let m = model();
        let s = score_pair(
            "The car drives fast.",
            "the CAR drives fast",
            &m,
            &options(),
        );
        assert_eq!((s.sim_lr, s.sim_rl), (1.0, 1.0));
        assert!(s.fourgram_match && s.exact_match);
        for method in Method::ALL {
            assert!(s.decide(method, &Thresholds::THESIS));
            assert_eq!(s.graded(method), 1.0);
        }
    }

    #[test]
    fn related_words_raise_fuzzy_only() {
        let m = model();
        // car|drive|fast vs automobil|drive|quick: mu(car) = 0.8, mu(drive) = 1, mu(fast) = 0.6,
        // so Sim = 2.4 / 3 = 0.8 both ways (the relation is symmetric and one-to-one).
        let s = score_pair(
            "The car drives fast.",
            "An automobile drives quickly.",
            &m,
            &options(),
        );
        assert!((s.sim_lr - 0.8).abs() < 1e-6 && (s.sim_rl - 0.8).abs() < 1e-6);
        assert!(!s.fourgram_match && !s.exact_match);
        assert!(!s.decide(Method::Fuzzy, &Thresholds::THESIS));
        let lenient = Thresholds {
            permission: 0.75,
            variation: 0.15,
            max_e_value: None,
            min_words: 0,
        };
        assert!(s.decide(Method::Fuzzy, &lenient));
        assert!((s.graded(Method::Fuzzy) - 0.8).abs() < 1e-6);
    }

    #[test]
    fn unknown_words_still_match_themselves() {
        let m = TableModel::new();
        let s = score_pair("Zyxq wobbles", "zyxq wobbles", &m, &options());
        assert_eq!((s.sim_lr, s.sim_rl), (1.0, 1.0));
        let s = score_pair("", "zyxq", &m, &options());
        assert_eq!((s.sim_lr, s.sim_rl), (0.0, 0.0));
        assert!(!s.fourgram_match && !s.exact_match);
    }

    #[test]
    fn batch_agrees_with_single_pairs_and_reports_progress() {
        let m = model();
        let pairs = [
            ("The car drives fast.", "An automobile drives quickly."),
            ("A road.", "the road"),
            ("", "nothing here"),
        ];
        let done = std::sync::atomic::AtomicU64::new(0);
        let batch = score_pairs(&pairs, &m, &options(), &|n| {
            done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        });
        assert_eq!(done.into_inner(), 3);
        let single: Vec<PairScore> = pairs
            .iter()
            .map(|(a, b)| score_pair(a, b, &m, &options()))
            .collect();
        assert_eq!(batch, single);
    }

    const WORDS: [&str; 8] = [
        "car",
        "automobile",
        "drive",
        "road",
        "fast",
        "quick",
        "zebra",
        "cars",
    ];

    fn one_sentence_doc(text: &str, vocabulary: &mut Vocabulary, m: &TableModel) -> PreparedDoc {
        vocabulary.prepare_texts(&[text], m)
    }

    proptest! {
        /// The scores are the matchers' own: each method's brute-force path over two
        /// one-sentence documents (floor 0) finds the pair with the same scores, or (binary
        /// methods) finds it exactly when the score says they match.
        #[test]
        fn scores_equal_the_matchers(
            a in proptest::collection::vec(0usize..8, 0..6),
            b in proptest::collection::vec(0usize..8, 0..6),
        ) {
            let m = model();
            let left: Vec<&str> = a.iter().map(|&i| WORDS[i]).collect();
            let right: Vec<&str> = b.iter().map(|&i| WORDS[i]).collect();
            let (left, right) = (left.join(" "), right.join(" "));
            let score = score_pair(&left, &right, &m, &options());
            let mut vocabulary = Vocabulary::new(&m);
            let l = one_sentence_doc(&left, &mut vocabulary, &m);
            let r = one_sentence_doc(&right, &mut vocabulary, &m);
            for method in Method::ALL {
                let rules = options().rules;
                let found = method.matcher().score_pairs_brute_force(&ScoringRequest {
                    left: &l,
                    right: &r,
                    model: &m,
                    floor: 0.0,
                    rules: &rules,
                });
                match method {
                    Method::Fuzzy | Method::Overlap => {
                        let expected = score.scored_pair(method);
                        if let Some(p) = found.first() {
                            prop_assert!(score.may_match);
                            prop_assert_eq!((p.sim_lr, p.sim_rl), (expected.sim_lr, expected.sim_rl));
                        } else {
                            // An empty sentence takes no part and scores 0; short sentences
                            // with different terms are never paired.
                            prop_assert!(!score.may_match);
                            prop_assert_eq!((expected.sim_lr, expected.sim_rl), (0.0, 0.0));
                        }
                    }
                    Method::Fourgram => prop_assert_eq!(!found.is_empty(), score.fourgram_match),
                    Method::Exact => prop_assert_eq!(!found.is_empty(), score.exact_match),
                }
            }
        }
    }
}
