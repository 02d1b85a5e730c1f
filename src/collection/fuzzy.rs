//! The thesis's own collection view (Yerra 2005, section 4.2, Table 4.1 and Fig. 4.3): every
//! document compared with every other by the fuzzy-set sentence matcher, summed up by the two
//! degrees of resemblance (eq. 4.1) and their odds ratio (eq. 4.3).
//!
//! Comparing every pair of documents one by one costs N^2 comparisons. Instead all sentences of
//! the collection go into one index and the fuzzy matcher scores them against each other once
//! ([`crate::similarity::fuzzy`]; exact for the model): pairs of sentences of different documents
//! that are EQ (eq. 3.4) are then counted per document pair, one document at a time
//! (`fuzzy/shared.rs`). Document pairs that share no EQ sentence have resemblance 0 both ways
//! and odds ratio 0, and cost nothing.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;

use super::{Cancelled, DetectedPair, DocId, Job, Relation};
use crate::compare::SentenceClasses;
use crate::compare::figures::{odds_ratio, ratio};
use crate::document::Document;
use crate::similarity::fuzzy::FuzzyMatcher;
use crate::similarity::{
    MatchRules, ModelView, PreparedDoc, ScoringRequest, Thresholds, Vocabulary,
};
use crate::text::RefineOptions;

pub mod common_text;
pub mod judged;
mod shared;

use self::common_text::CommonText;
use self::shared::{RowScratch, SharedSentences};

/// Parameters of the fuzzy collection comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FuzzyParams {
    /// Permission and variation of eq. 3.4 (default: the measured preset, 0.4 with the
    /// variation off; the thesis used 0.825 / 0.15).
    pub thresholds: Thresholds,
    /// Compare boilerplate (navigation, footers...) too.
    pub include_boilerplate: bool,
    /// What refining keeps besides content words.
    pub refine: RefineOptions,
    /// Which sentence pairs may match at all.
    pub rules: MatchRules,
    /// A document whose resemblance in another reaches this is reported as contained in it;
    /// both ways, as duplicates. (Not from the thesis, which reports the odds ratio only.)
    pub containment: f64,
    /// A pair is reported only when the larger of its two resemblances reaches this. The thesis
    /// reports every pair (its Table 4.1 is the whole matrix), so the default is 0: any shared
    /// EQ sentence makes a pair. A folder of documents on one topic shares a sentence or two
    /// between many pairs, which a cut of 0.1-0.3 leaves out (EVALUATION.md, "Collection
    /// presets").
    pub min_resemblance: f64,
    /// Sentences left out of every document: quotations, a bibliography
    /// ([`crate::document::exclusions`]). Nothing by default.
    pub exclusions: crate::document::exclusions::Exclusions,
    /// Judge the pairs against chance as `simdoc compare` does ([`judged`]): the EQ sentences
    /// only propose candidates, and a pair is reported by what its comparison finds at the
    /// chance bar of [`Self::thresholds`]. `None`: pairs are counted by their EQ sentences, as
    /// the thesis counts them.
    pub chance_search: Option<crate::compare::chance::ChanceSearch>,
    /// In a judged run, a sentence whose text (it and the sentences EQ to it) more than this
    /// many documents hold is common to the collection, a template, and left out of every
    /// pair's comparison and count ([`common_text`]). `None`: nothing is left out, as the
    /// thesis counts every sentence; counted runs never leave anything out.
    pub max_sharing: Option<usize>,
    /// In a judged run, the most distinct sentences (both documents of each candidate pair,
    /// summed over the pairs) compared to judge the candidates, the strongest first
    /// ([`judged::JUDGING_BUDGET`] by default); the run says how many were left unjudged.
    pub judging_budget: usize,
}

impl Default for FuzzyParams {
    fn default() -> Self {
        FuzzyParams {
            thresholds: Thresholds::default(),
            include_boilerplate: false,
            refine: crate::compare::Preset::MEASURED.refine,
            rules: MatchRules::default(),
            containment: 0.9,
            min_resemblance: 0.0,
            exclusions: Default::default(),
            chance_search: None,
            max_sharing: None,
            judging_budget: judged::JUDGING_BUDGET,
        }
    }
}

impl FuzzyParams {
    /// The sentence matching of these parameters as a matching preset (refining, rules,
    /// thresholds, chance search): what a pair of the run is compared with, and what `simdoc
    /// compare` shows the pair with.
    pub fn matching(&self) -> crate::compare::Preset {
        crate::compare::Preset {
            refine: self.refine,
            rules: self.rules,
            thresholds: self.thresholds,
            chance_search: self.chance_search,
        }
    }
}

/// Resemblance of every document in every other, sparse: only pairs sharing an EQ sentence
/// take any space, and they are counted when asked for (`fuzzy/shared.rs`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Resemblances {
    /// Sentences taking part, per document.
    pub sentences: Vec<usize>,
    shared: SharedSentences,
    /// Sentences with more EQ partners than they keep ([`PARTNERS_KEPT_IN_COLLECTION`]): their
    /// share of a document beyond their best partners' is not counted.
    pub capped_sentences: usize,
    /// The collection's common text, found in a judged run with [`FuzzyParams::max_sharing`]:
    /// every count of the run leaves it out.
    pub common: Option<Arc<CommonText>>,
}

/// EQ partners a sentence (a class of repeated sentences) keeps in a collection: its best, by
/// the smaller Sim ([`crate::similarity::partners`]). More than a pair of documents keeps
/// ([`crate::similarity::PARTNERS_KEPT`]): a source sentence copied, lightly edited, into a
/// whole class's submissions pairs with every one of them, and a teacher needs them all. 8,000
/// one-line documents sharing a phrase paired each with all the others (32 million pairs,
/// 2.6 GB); each now pairs with its 100 nearest.
pub const PARTNERS_KEPT_IN_COLLECTION: usize = 100;

impl Resemblances {
    /// The note on sentences that kept only their best partners, if any.
    pub fn capped_note(&self) -> Option<String> {
        (self.capped_sentences > 0).then(|| {
            format!(
                "{} {} more than {PARTNERS_KEPT_IN_COLLECTION} EQ partners: each counts its \
                 {PARTNERS_KEPT_IN_COLLECTION} best (templated or repeated lines; the documents \
                 holding the others do not count it)",
                self.capped_sentences,
                if self.capped_sentences == 1 {
                    "sentence has"
                } else {
                    "sentences have"
                }
            )
        })
    }

    /// How many distinct sentences document `d` holds (its repeated ones counted once).
    pub fn distinct_sentences(&self, d: DocId) -> usize {
        self.shared.classes_in(d)
    }

    /// The note on the common text left out of the run's pairs, if any was found.
    pub fn common_note(&self) -> Option<String> {
        let common = self.common.as_ref().filter(|c| !c.is_empty())?;
        let documents = (0..self.sentences.len())
            .filter(|&d| common.count(d) > 0)
            .count();
        // The collection layer words its own notes (rendering sits above it).
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let total = common.total();
        Some(format!(
            "{total} sentence{} in {documents} document{} held by more than {} documents each \
             (text common to the collection: a template, a set question) left out of every \
             pair's comparison (--max-sharing)",
            plural(total),
            plural(documents),
            common.max_sharing
        ))
    }
}

impl Resemblances {
    /// Calls `visit(b, RS(a, b), RS(b, a))` for every document `b` other than `a` sharing an EQ
    /// sentence with it, in ascending order of `b`.
    fn row(&self, a: DocId, scratch: &mut RowScratch, mut visit: impl FnMut(DocId, f64, f64)) {
        let sentences = |d: DocId| self.sentences.get(d).copied().unwrap_or(0);
        let counts = |class: u32| {
            !self
                .common
                .as_ref()
                .is_some_and(|c| c.is_common_class(class))
        };
        self.shared
            .row_where(a, scratch, counts, |b, in_b, from_b| {
                visit(
                    b,
                    ratio(in_b as usize, sentences(a)),
                    ratio(from_b as usize, sentences(b)),
                )
            });
    }

    /// RS(a, b) of eq. 4.1 (counting matched sentences, so in [0, 1]); 1 for a == b. Makes
    /// `a`'s row for one figure: for many, [`Resemblances::pairs`] or
    /// [`Resemblances::odds_matrix`] make each row once.
    pub fn resemblance(&self, a: DocId, b: DocId) -> f64 {
        if a == b {
            return 1.0;
        }
        let mut found = 0.0;
        self.row(a, &mut self.shared.scratch(), |other, ab, _| {
            if other == b {
                found = ab;
            }
        });
        found
    }

    /// The odds ratio of eq. 4.3 (100 for a document with itself, as in Table 4.1).
    pub fn odds(&self, a: DocId, b: DocId) -> f64 {
        if a == b {
            return crate::compare::figures::ODDS_RATIO_INFINITY;
        }
        odds_ratio(self.resemblance(a, b), self.resemblance(b, a))
    }

    /// The dense odds-ratio matrix (Table 4.1).
    pub fn odds_matrix(&self) -> Vec<Vec<f64>> {
        let n = self.sentences.len();
        (0..n)
            .into_par_iter()
            .map_init(
                || self.shared.scratch(),
                |scratch, a| {
                    let mut row = vec![0.0; n];
                    row[a] = crate::compare::figures::ODDS_RATIO_INFINITY;
                    self.row(a, scratch, |b, ab, ba| row[b] = odds_ratio(ab, ba));
                    row
                },
            )
            .collect()
    }

    /// The document pairs worth reporting, with their relation: duplicates when both
    /// resemblances reach `containment`, containment when one does, reuse otherwise. The score
    /// is on one scale for all three, a resemblance: the smaller one for duplicates, the
    /// contained document's for containment, the larger one for reuse (the odds ratio, which
    /// combines both, is in [`Resemblances::odds_matrix`]).
    pub fn pairs(&self, containment: f64) -> Vec<DetectedPair> {
        self.pairs_reaching(containment, 0.0)
    }

    /// The pairs of [`Resemblances::pairs`] at `params.containment` whose larger resemblance
    /// reaches `params.min_resemblance`: what collection mode reports.
    pub fn reported_pairs(&self, params: &FuzzyParams) -> Vec<DetectedPair> {
        self.pairs_reaching(params.containment, params.min_resemblance)
    }

    /// The pairs of [`Resemblances::pairs`] whose larger resemblance reaches `least`, in
    /// ascending order of their documents; each document's row is made once, and only the
    /// pairs kept are held.
    fn pairs_reaching(&self, containment: f64, least: f64) -> Vec<DetectedPair> {
        let rows: Vec<Vec<DetectedPair>> = (0..self.sentences.len())
            .into_par_iter()
            .map_init(
                || self.shared.scratch(),
                |scratch, a| {
                    let mut pairs = Vec::new();
                    self.row(a, scratch, |b, ab, ba| {
                        if b > a && ab.max(ba) >= least {
                            pairs.push(relation_of(a, b, ab, ba, containment));
                        }
                    });
                    pairs
                },
            )
            .collect();
        rows.into_iter().flatten().collect()
    }
}

/// The pair of documents `a` and `b` (RS(a, b) = `ab`, RS(b, a) = `ba`) with its relation (see
/// [`Resemblances::pairs`]).
fn relation_of(a: DocId, b: DocId, ab: f64, ba: f64, containment: f64) -> DetectedPair {
    if ab >= containment && ba >= containment {
        DetectedPair::new(a, b, Relation::Duplicate, ab.min(ba))
    } else if ab >= containment {
        // All of a is in b: b contains a.
        DetectedPair::new(b, a, Relation::Contains, ab)
    } else if ba >= containment {
        DetectedPair::new(a, b, Relation::Contains, ba)
    } else {
        DetectedPair::new(a, b, Relation::Reuses, ab.max(ba))
    }
}

/// Compares every document of `documents` with every other (see the module docs).
pub fn resemblances(
    documents: &[Document],
    model: &dyn ModelView,
    params: &FuzzyParams,
    job: &mut Job<'_>,
) -> Result<Resemblances, Cancelled> {
    // Each document is prepared once, and kept (see the method's note on memory).
    let mut vocabulary = Vocabulary::new(model).refining_every_text();
    let mut all = PreparedDoc::default();
    let mut owner: Vec<DocId> = Vec::new();
    let mut sentences = Vec::with_capacity(documents.len());
    let mut starts = vec![0usize];
    for (d, doc) in documents.iter().enumerate() {
        job.step("preparing", d, documents.len())?;
        let mut prepared =
            vocabulary.prepare_with(doc, model, params.include_boilerplate, &params.refine);
        prepared.leave_out(doc, &params.exclusions);
        sentences.push(prepared.active().count());
        owner.extend(std::iter::repeat_n(d, prepared.sentences.len()));
        starts.push(owner.len());
        all.sentences.extend(prepared.sentences);
        all.included.extend(prepared.included);
        all.options = params.refine;
    }
    job.step("matching", 0, 1)?;
    // Sentences equal once prepared are scored once, as a class: a heading repeated in every
    // page of a site is one sentence to the index, not a quadratic number of pairs.
    let (classes, representatives) = SentenceClasses::group(&all);
    let never = AtomicBool::new(false);
    let floor = params.thresholds.permission;
    // Only EQ pairs are counted, and they reach the floor both ways: the pairs that can reach it
    // one way only (most of them, and their number grows with the square of the collection) are
    // neither kept nor scored past their content terms.
    let thresholds = params.thresholds;
    // Each class pair once, as two numbers (Reuters-21578 has 10.9 million of them): a pair and
    // its mirror image carry the same verdict, the model's correlations being symmetric (every
    // pair is stored in both rows; on Reuters-21578 all 5.4 million pairs of distinct classes
    // were EQ both ways round or neither), and the graph takes both ways round from one.
    //
    // Each class keeps its best partners only ([`PARTNERS_KEPT_IN_COLLECTION`]): a pair comes
    // from each class keeping it, either way round, and is then counted once.
    let (mut eq_pairs, capped_classes) = FuzzyMatcher::THESIS
        .pairs_within_capped(
            &ScoringRequest::within(&representatives, model, floor, &params.rules),
            PARTNERS_KEPT_IN_COLLECTION,
            |p| {
                p.is_eq(&thresholds)
                    .then_some((p.left.min(p.right), p.left.max(p.right)))
            },
            &never,
        )
        .map_err(|_| Cancelled)?;
    eq_pairs.sort_unstable();
    eq_pairs.dedup();
    job.step("matching", 1, 1)?;
    let shared = SharedSentences::new(&classes, &owner, documents.len(), &eq_pairs);
    let common = match (params.chance_search, params.max_sharing) {
        (Some(_), Some(bar)) => Some(Arc::new(CommonText::find(&shared, &classes, starts, bar))),
        _ => None,
    };
    let capped_sentences = capped_classes
        .iter()
        .map(|&class| classes.members(class).len())
        .sum();
    Ok(Resemblances {
        sentences,
        shared,
        capped_sentences,
        common,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collection::without_job;
    use crate::document::{SourceFormat, parse_text};
    use crate::similarity::table::TableModel;

    fn doc(text: &str) -> Document {
        parse_text(text, "d", SourceFormat::Text)
    }

    /// `((a, b), sentences of a with an EQ partner in b)` for every ordered pair sharing one,
    /// sorted; checks on the way that each row's count the other way round is the other row's.
    fn matched_counts(r: &Resemblances) -> Vec<((DocId, DocId), u32)> {
        let mut scratch = r.shared.scratch();
        let mut counts = Vec::new();
        let mut reverse = Vec::new();
        for a in 0..r.sentences.len() {
            r.shared.row(a, &mut scratch, |b, in_b, from_b| {
                counts.push(((a, b), in_b));
                reverse.push(((b, a), from_b));
            });
        }
        counts.sort_unstable();
        reverse.sort_unstable();
        assert_eq!(counts, reverse, "a row's counts the other way round");
        counts
    }

    #[test]
    fn resemblance_and_odds_per_document_pair() {
        let docs = [
            doc("Alpha beta gamma. Delta epsilon zeta. Eta theta iota. Kappa lambda mu."),
            doc("Alpha beta gamma. Delta epsilon zeta. Other words here."),
            doc("Nothing shared at all."),
        ];
        let model = TableModel::new();
        let r = without_job(|job| resemblances(&docs, &model, &FuzzyParams::default(), job))
            .expect("not cancelled");
        assert_eq!(r.sentences, vec![4, 3, 1]);
        // Two of A's four sentences are in B; two of B's three are in A.
        assert_eq!(r.resemblance(0, 1), 0.5);
        assert!((r.resemblance(1, 0) - 2.0 / 3.0).abs() < 1e-12);
        let p = 0.5 * 2.0 / 3.0;
        assert!((r.odds(0, 1) - p / (1.0 - p)).abs() < 1e-12);
        assert_eq!(r.odds(0, 2), 0.0);
        assert_eq!(r.odds(2, 2), 100.0);
        let m = r.odds_matrix();
        assert_eq!(m.len(), 3);
        assert_eq!(m[0][1], m[1][0]);
        let pairs = r.pairs(0.9);
        assert_eq!(pairs.len(), 1);
        assert_eq!(pairs[0].relation, Relation::Reuses);
    }

    #[test]
    fn containment_and_duplicates() {
        let docs = [
            doc("One two three. Four five six."),
            doc("One two three. Four five six. Seven eight nine."),
            doc("One two three. Four five six."),
        ];
        let model = TableModel::new();
        let r = without_job(|job| resemblances(&docs, &model, &FuzzyParams::default(), job))
            .expect("not cancelled");
        let pairs = r.pairs(0.9);
        let find = |a, b| {
            pairs
                .iter()
                .find(|p| p.a == a && p.b == b)
                .map(|p| p.relation)
        };
        assert_eq!(find(1, 0), Some(Relation::Contains));
        assert_eq!(find(1, 2), Some(Relation::Contains));
        assert_eq!(find(0, 2), Some(Relation::Duplicate));
        // Documents 0 and 2 are in 1 whole, 1 is two thirds in each: a cut above 2/3 keeps the
        // pairs whose larger resemblance is 1, which all three are.
        let cut = |min_resemblance| {
            r.reported_pairs(&FuzzyParams {
                min_resemblance,
                ..FuzzyParams::default()
            })
            .len()
        };
        assert_eq!((cut(0.0), cut(0.9), cut(1.0)), (3, 3, 3));
    }

    #[test]
    fn pairs_below_the_reporting_cut_are_left_out() {
        let docs = [
            doc("One two three. Four five six. Seven eight nine. Ten eleven twelve."),
            doc("One two three. Thirteen fourteen fifteen. Sixteen seventeen eighteen."),
            doc("One two three. Four five six. Nineteen twenty twentyone."),
        ];
        let model = TableModel::new();
        let r = without_job(|job| resemblances(&docs, &model, &FuzzyParams::default(), job))
            .expect("not cancelled");
        // RS: 0 in 1 = 1/4, 1 in 0 = 1/3; 0 in 2 = 2/4, 2 in 0 = 2/3; 1 in 2 = 1/3, 2 in 1 = 1/3.
        let reported = |min_resemblance| -> Vec<(DocId, DocId)> {
            let mut pairs: Vec<_> = r
                .reported_pairs(&FuzzyParams {
                    min_resemblance,
                    ..FuzzyParams::default()
                })
                .iter()
                .map(|p| (p.a.min(p.b), p.a.max(p.b)))
                .collect();
            pairs.sort_unstable();
            pairs
        };
        assert_eq!(reported(0.0), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(reported(0.4), vec![(0, 2)]);
        assert_eq!(reported(0.7), vec![]);
    }

    /// Repeated sentences are one class to the matcher but each counts as a sentence of its
    /// document; a sentence repeated within one document is no match of it with itself.
    #[test]
    fn repeated_sentences_count_once_each() {
        let docs = [
            doc("Alpha beta gamma. Alpha beta gamma. Alpha beta gamma. Delta epsilon zeta."),
            doc("Alpha beta gamma. Other words here."),
            doc("Delta epsilon zeta. Delta epsilon zeta."),
        ];
        let model = TableModel::new();
        let r = without_job(|job| resemblances(&docs, &model, &FuzzyParams::default(), job))
            .expect("not cancelled");
        assert_eq!(r.sentences, vec![4, 2, 2]);
        assert_eq!(
            matched_counts(&r),
            vec![((0, 1), 3), ((0, 2), 1), ((1, 0), 1), ((2, 0), 2)]
        );
        assert_eq!(r.resemblance(0, 1), 0.75);
        assert_eq!(r.resemblance(2, 0), 1.0);
    }
}
