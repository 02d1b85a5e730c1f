//! The evidence behind a detected pair: what an analyst checks before believing it.
//!
//! A detector reports "a contains b" with one score on its own scale (CoDet's CS/SCS, qSign's
//! reused share, a Hamming distance...). Evidence puts every pair, whatever found it, on one
//! scale the reader can check: the thesis's fuzzy-set sentence comparison of the two documents
//! (sect. 3.2.2, eq. 3.2-3.4), summed up as containment both ways (how much of each document's
//! text is found in the other, the mean of each sentence's best directional Sim) and the
//! passages where it lies (runs of matched sentences in reading order,
//! [`crate::compare::passages`]). It is computed for the pairs a detector reported, never for
//! all pairs: the detectors exist to avoid comparing every two documents.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use serde::Serialize;

use super::fuzzy::FuzzyParams;
use super::fuzzy::common_text::CommonText;
use super::{Cancelled, DocId, Job};
use crate::compare::passages::{Passage, PassageOptions, passages_of};
use crate::compare::{CompareOptions, Comparison, PreparedPair};
use crate::document::Document;
use crate::similarity::{Method, ModelView, Thresholds};

/// What the fuzzy comparison of two documents says about their pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairEvidence {
    /// [a in b, b in a]: the share of each document's text found in the other (see
    /// [`crate::compare::Figures::containment`]).
    pub containment: [f64; 2],
    /// Sentences of a and of b with a match in the other.
    pub matched_sentences: [usize; 2],
    /// Sentences of a and of b that take part (not boilerplate, with content words).
    pub sentences: [usize; 2],
    /// Every matched sentence in a passage, a single match being a passage of one pair; in
    /// reading order of a. Sentence positions count from 0.
    pub passages: Vec<Passage>,
}

/// How evidence is computed: the matching and its thresholds.
#[derive(Clone, Debug)]
pub struct EvidenceOptions {
    pub compare: CompareOptions,
    pub thresholds: Thresholds,
    /// The gap a passage may bridge; every match is listed (a passage of at least one pair).
    pub gap: u32,
    /// The collection's common text, left out of every comparison of its documents' pairs
    /// ([`super::fuzzy::common_text`]): what a judged fuzzy run found, so that the evidence and
    /// pages of its pairs read what decided them.
    pub common: Option<Arc<CommonText>>,
}

impl EvidenceOptions {
    pub fn new(compare: CompareOptions, thresholds: Thresholds) -> Self {
        EvidenceOptions {
            compare,
            thresholds,
            gap: PassageOptions::default().gap,
            common: None,
        }
    }

    /// The evidence of a collection run whose fuzzy comparison has `params`: the comparison
    /// `simdoc compare` makes under the same matching preset ([`FuzzyParams::matching`]: its
    /// refining, rules, thresholds and chance search), with the run's boilerplate choice and
    /// exclusions (what `simdoc collection --html` uses when no matching option is given).
    pub fn of_fuzzy(params: &FuzzyParams) -> Self {
        EvidenceOptions::new(
            CompareOptions {
                include_boilerplate: params.include_boilerplate,
                exclusions: params.exclusions,
                ..CompareOptions::for_preset(&params.matching(), Method::Fuzzy)
            },
            params.thresholds,
        )
    }
}

/// The evidence of one pair of documents.
pub fn pair_evidence(
    a: &Document,
    b: &Document,
    model: &dyn ModelView,
    options: &EvidenceOptions,
    cancel: &AtomicBool,
) -> Result<PairEvidence, Cancelled> {
    Ok(evidence_of(
        &compare_pair(a, b, model, options, NOTHING_LEFT_OUT, cancel)?,
        options,
    ))
}

/// Per side, the sentences a comparison leaves out besides what its options leave out: none.
pub(super) const NOTHING_LEFT_OUT: [&[bool]; 2] = [&[], &[]];

/// The comparison evidence is computed from (and the pair's page drawn from), with the
/// sentences marked in `left_out` (per side, by position) taking no part.
pub(super) fn compare_pair(
    a: &Document,
    b: &Document,
    model: &dyn ModelView,
    options: &EvidenceOptions,
    left_out: [&[bool]; 2],
    cancel: &AtomicBool,
) -> Result<Comparison, Cancelled> {
    let compare = &options.compare;
    PreparedPair::leaving_out(a, b, model, compare, left_out)
        .compare(model, compare.method, compare.floor, cancel)
        .map_err(|_| Cancelled)
}

/// The evidence a comparison of two documents gives.
fn evidence_of(comparison: &Comparison, options: &EvidenceOptions) -> PairEvidence {
    // The pairs of repeated sentences listed only in part take no part in passages, and the
    // figures of repeated sentences come from their classes: leaving them out here keeps a
    // pair of pages of 10,000 repeated headings from holding a million matches.
    let is_capped = comparison.capped_test();
    let matches: Vec<_> = comparison
        .matches(&options.thresholds)
        .filter(|p| !is_capped(p))
        .copied()
        .collect();
    let figures = comparison.figures_given(&matches, &options.thresholds);
    let passage_options = PassageOptions {
        gap: options.gap,
        min_pairs: 1,
    };
    let (passages, _) = passages_of(comparison, &matches, &options.thresholds, passage_options);
    PairEvidence {
        containment: figures.containment,
        matched_sentences: figures.matched,
        sentences: figures.sentences,
        passages,
    }
}

/// Most sentences (both documents of a pair, summed over the pairs) evidence is computed for in
/// one run. A pair of pages of 10,000 repeated headings costs half a second of comparing, so 500
/// such pairs would take minutes; ordinary documents (tens to hundreds of sentences) reach the
/// budget only after thousands of pairs.
pub const SENTENCE_BUDGET: usize = 1_000_000;

/// How many of `pairs`, from the first, fit in `budget` sentences (each pair counting both its
/// documents' sentences, `sentences(d)` of document `d`); the first pair always does.
pub fn pairs_within_budget(
    pairs: &[(DocId, DocId)],
    sentences: impl Fn(DocId) -> usize,
    budget: usize,
) -> usize {
    let mut spent = 0usize;
    for (taken, &(a, b)) in pairs.iter().enumerate() {
        spent = spent
            .saturating_add(sentences(a))
            .saturating_add(sentences(b));
        if spent > budget && taken > 0 {
            return taken;
        }
    }
    pairs.len()
}

/// The note for the reader when the evidence stopped at `affordable` of `wanted` pairs
/// ([`pairs_within_budget`]); the command line prints it and the reports carry it, so that
/// "not computed" past that rank is not read as "nothing found".
pub fn evidence_cut_note(affordable: usize, wanted: usize) -> Option<String> {
    (affordable < wanted).then(|| {
        format!(
            "evidence for the first {affordable} pairs only: the documents of the next ones \
             would take the comparison past {SENTENCE_BUDGET} sentences"
        )
    })
}

/// What is done with a pair's comparison besides its evidence, while it is held: called with
/// the pair's position in the list, its two documents and their comparison. A collection
/// report's pair pages are drawn from it, so that each pair is compared once.
pub type ComparisonVisitor<'v> = dyn Fn(usize, &Document, &Document, &Comparison) + Sync + 'v;

/// The evidence of each of `pairs` (document positions into `documents`), in their order,
/// computed on all cores, each leaving out the collection's common text when `options` hold
/// it; each comparison is handed to `visit` before it is dropped (`&|_, _, _, _| {}` for
/// none). A position outside `documents` gets `None`.
pub fn evidence_of_pairs(
    pairs: &[(DocId, DocId)],
    documents: &[Document],
    model: &(dyn ModelView + Sync),
    options: &EvidenceOptions,
    job: &mut Job<'_>,
    visit: &ComparisonVisitor<'_>,
) -> Result<Vec<Option<PairEvidence>>, Cancelled> {
    let left_out = |d: DocId| {
        options
            .common
            .as_deref()
            .map_or(&[] as &[bool], |c| c.mask(d))
    };
    // Chunks keep the progress bar moving and let a cancel stop the run between them. Pairs of
    // long documents are compared one at a time: two of them at once (two pages of 10,000
    // repeated headings) held 125 MB more at the peak than one.
    const CHUNK: usize = 64;
    const LONG_PAIR: usize = 10_000;
    let cancel = job.cancel;
    let sentences = |d: DocId| documents.get(d).map_or(0, |doc| doc.sentences.len());
    let one = |at: usize| {
        let (a, b) = pairs[at];
        let (Some(a), Some(b)) = (documents.get(a), documents.get(b)) else {
            return Ok(None);
        };
        let (at_a, at_b) = pairs[at];
        let comparison = compare_pair(
            a,
            b,
            model,
            options,
            [left_out(at_a), left_out(at_b)],
            cancel,
        )?;
        visit(at, a, b, &comparison);
        Ok(Some(evidence_of(&comparison, options)))
    };
    let is_long = |at: usize| {
        let (a, b) = pairs[at];
        sentences(a) + sentences(b) > LONG_PAIR
    };
    let mut evidence = Vec::with_capacity(pairs.len());
    for start in (0..pairs.len()).step_by(CHUNK) {
        job.step("evidence", start, pairs.len())?;
        let chunk = start..(start + CHUNK).min(pairs.len());
        let mut found: Vec<Option<PairEvidence>> = chunk
            .clone()
            .into_par_iter()
            .map(|at| if is_long(at) { Ok(None) } else { one(at) })
            .collect::<Result<_, Cancelled>>()?;
        for (slot, at) in found.iter_mut().zip(chunk) {
            if is_long(at) {
                *slot = one(at)?;
            }
        }
        evidence.extend(found);
    }
    job.step("evidence", pairs.len(), pairs.len())?;
    Ok(evidence)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collection::without_job;
    use crate::compare::DEFAULT_FLOOR;
    use crate::document::{SourceFormat, parse_text};
    use crate::model::ReferenceModel;

    fn doc(text: &str) -> Document {
        parse_text(text, "test.txt", SourceFormat::Text)
    }

    fn options() -> EvidenceOptions {
        EvidenceOptions::new(CompareOptions::default(), Thresholds::default())
    }

    #[test]
    fn a_runs_fuzzy_parameters_are_the_evidences_matching() {
        let teacher = crate::collection::presets::CollectionPreset::Teacher
            .params()
            .fuzzy;
        let options = EvidenceOptions::of_fuzzy(&teacher);
        assert_eq!(options.thresholds, teacher.thresholds);
        assert_eq!(options.compare.refine, teacher.refine);
        assert_eq!(options.compare.rules, teacher.rules);
        assert_eq!(options.compare.method, Method::Fuzzy);
        assert_eq!(
            options.compare.floor,
            DEFAULT_FLOOR.min(teacher.thresholds.permission)
        );
    }

    #[test]
    fn a_copied_passage_is_found_with_its_containment_both_ways() {
        let model = ReferenceModel::embedded();
        let source = doc(
            "The river flooded the lower town in April. Farmers lost most of \
             their spring wheat. The council opened the school as a shelter. Volunteers brought \
             blankets and food from the next valley. Nobody was hurt in the flood.",
        );
        let submission = doc(
            "My essay is about the great flood that hit our region last spring. The council opened the school as a \
             shelter. Volunteers brought blankets and food from the next valley. I think \
             this shows how people help each other.",
        );
        let evidence = pair_evidence(
            &submission,
            &source,
            model,
            &options(),
            &AtomicBool::new(false),
        )
        .expect("not cancelled");
        assert_eq!(evidence.sentences, [4, 5]);
        assert_eq!(evidence.matched_sentences, [2, 2]);
        assert_eq!(evidence.passages.len(), 1);
        let passage = &evidence.passages[0];
        assert_eq!((passage.a, passage.b, passage.pairs), ([1, 2], [2, 3], 2));
        // Two of four submission sentences are copied verbatim (Sim 1), two of five source
        // sentences are found in the submission.
        assert!((evidence.containment[0] - 0.5).abs() < 1e-9, "{evidence:?}");
        assert!((evidence.containment[1] - 0.4).abs() < 1e-9, "{evidence:?}");
    }

    #[test]
    fn unrelated_documents_have_no_evidence_and_pairs_keep_their_order() {
        let model = ReferenceModel::embedded();
        let documents = vec![
            doc("The orchestra played Brahms on Friday night. The hall was full."),
            doc("Quarterly revenue rose by four percent. Margins were flat."),
            doc("The orchestra played Brahms on Friday night. Tickets sold out in a day."),
        ];
        let visited = std::sync::Mutex::new(Vec::new());
        let found = without_job(|job| {
            evidence_of_pairs(
                &[(0, 1), (2, 0), (0, 7)],
                &documents,
                model,
                &options(),
                job,
                &|at, a, b, comparison| {
                    let matched = comparison.matches(&options().thresholds).count();
                    let seen = (at, a.sentences.len(), b.sentences.len(), matched);
                    visited.lock().expect("not poisoned").push(seen);
                },
            )
        })
        .expect("not cancelled");
        assert_eq!(found.len(), 3);
        // Each pair of existing documents is compared once and its comparison visited (the one
        // its evidence comes from); the pair naming a missing document is not.
        let mut visited = visited.into_inner().expect("not poisoned");
        visited.sort_unstable();
        assert_eq!(visited, [(0, 2, 2, 0), (1, 2, 2, 1)]);
        let unrelated = found[0].as_ref().expect("both documents exist");
        assert_eq!(unrelated.containment, [0.0, 0.0]);
        assert!(unrelated.passages.is_empty());
        let shared = found[1].as_ref().expect("both documents exist");
        assert_eq!(shared.matched_sentences, [1, 1]);
        assert_eq!(shared.passages.len(), 1);
        assert_eq!(
            (shared.passages[0].a, shared.passages[0].b),
            ([0, 0], [0, 0])
        );
        assert_eq!(found[2], None);
    }

    #[test]
    fn the_budget_counts_both_documents_of_each_pair_and_keeps_the_first() {
        let documents = [
            doc("One sentence here. And a second one."),
            doc("Three. Sentences. Here."),
        ];
        let pairs = [(0, 1), (1, 0), (0, 0)];
        let sentences = |d: usize| documents[d].sentences.len();
        assert_eq!(pairs_within_budget(&pairs, sentences, 100), 3);
        assert_eq!(pairs_within_budget(&pairs, sentences, 10), 2);
        assert_eq!(pairs_within_budget(&pairs, sentences, 9), 1);
        assert_eq!(pairs_within_budget(&pairs, sentences, 0), 1);
        assert_eq!(pairs_within_budget(&[], sentences, 0), 0);
    }
}
