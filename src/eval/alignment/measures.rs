//! PAN's measures of text-alignment quality (Potthast, Stein, Barrón-Cedeño & Rosso, *An
//! Evaluation Framework for Plagiarism Detection*, COLING 2010, section 3; the definitions of
//! PAN's own scorer, `perfmeasures.py`, which the competitions 2010-2015 used).
//!
//! A *case* and a *detection* each name a character range in a suspicious document and one in a
//! source document. They are taken as sets of characters of both documents:
//! - a detection r *detects* a case s when both name the same two documents and their ranges
//!   overlap in the suspicious document and in the source document;
//! - macro recall: the mean over cases of the share of the case's characters (both sides) that
//!   detecting detections cover; macro precision: the mean over detections of the share of the
//!   detection's characters that the cases it detects cover;
//! - granularity: the mean number of detections per detected case (1 is best);
//! - plagdet = F1 / log2(1 + granularity).
//!
//! With no cases and no detections, precision and recall are 1; with one of them empty, 0 (as
//! PAN's scorer). Measures are taken over a whole corpus: an unrelated pair's detections add to
//! the detections (each of precision 0) without adding a case.

use std::ops::Range;

use rustc_hash::FxHashMap;
use serde::Serialize;

/// One case or detection: character ranges in a suspicious and a source document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Annotation {
    pub suspicious: String,
    pub this: Range<usize>,
    pub source: String,
    pub that: Range<usize>,
}

impl Annotation {
    fn len(&self) -> usize {
        self.this.len() + self.that.len()
    }

    /// Whether `other` names the same documents and overlaps this one on both sides.
    pub fn overlaps(&self, other: &Annotation) -> bool {
        self.suspicious == other.suspicious
            && self.source == other.source
            && intersects(&self.this, &other.this)
            && intersects(&self.that, &other.that)
    }
}

fn intersects(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

/// The number of positions of `range` that the union of `others` covers.
fn covered(range: &Range<usize>, others: impl Iterator<Item = Range<usize>>) -> usize {
    let mut clipped: Vec<Range<usize>> = others
        .map(|o| o.start.max(range.start)..o.end.min(range.end))
        .filter(|r| !r.is_empty())
        .collect();
    clipped.sort_unstable_by_key(|r| r.start);
    let mut total = 0;
    let mut reach = range.start;
    for r in clipped {
        let start = r.start.max(reach);
        if r.end > start {
            total += r.end - start;
            reach = r.end;
        }
    }
    total
}

/// PAN's measures over a set of cases and detections.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PanMeasures {
    pub precision: f64,
    pub recall: f64,
    pub granularity: f64,
    pub plagdet: f64,
    /// The share of cases detected at all (by at least one detection).
    pub case_recall: f64,
    pub cases: usize,
    pub detections: usize,
}

/// The share of `of`'s characters (both sides) covered by the members of `by` that overlap it.
fn share_covered<'a>(of: &Annotation, by: impl Iterator<Item = &'a Annotation>) -> f64 {
    if of.len() == 0 {
        return 0.0;
    }
    let hits: Vec<&Annotation> = by.filter(|b| of.overlaps(b)).collect();
    let this = covered(&of.this, hits.iter().map(|h| h.this.clone()));
    let that = covered(&of.that, hits.iter().map(|h| h.that.clone()));
    (this + that) as f64 / of.len() as f64
}

/// The annotations of `all` grouped by their pair of documents: only those can overlap.
fn by_pair(all: &[Annotation]) -> FxHashMap<(&str, &str), Vec<&Annotation>> {
    let mut groups: FxHashMap<(&str, &str), Vec<&Annotation>> = FxHashMap::default();
    for a in all {
        groups
            .entry((a.suspicious.as_str(), a.source.as_str()))
            .or_default()
            .push(a);
    }
    groups
}

/// Measures `detections` against `cases` (PAN's definitions, see the module docs).
pub fn measure(cases: &[Annotation], detections: &[Annotation]) -> PanMeasures {
    let case_groups = by_pair(cases);
    let detection_groups = by_pair(detections);
    fn same_pair<'a>(
        a: &Annotation,
        groups: &FxHashMap<(&str, &str), Vec<&'a Annotation>>,
    ) -> Vec<&'a Annotation> {
        groups
            .get(&(a.suspicious.as_str(), a.source.as_str()))
            .cloned()
            .unwrap_or_default()
    }
    let (recall, precision) = match (cases.is_empty(), detections.is_empty()) {
        (true, true) => (1.0, 1.0),
        (true, false) | (false, true) => (0.0, 0.0),
        (false, false) => (
            cases
                .iter()
                .map(|c| share_covered(c, same_pair(c, &detection_groups).into_iter()))
                .sum::<f64>()
                / cases.len() as f64,
            detections
                .iter()
                .map(|d| share_covered(d, same_pair(d, &case_groups).into_iter()))
                .sum::<f64>()
                / detections.len() as f64,
        ),
    };
    let per_case: Vec<usize> = cases
        .iter()
        .map(|c| {
            same_pair(c, &detection_groups)
                .iter()
                .filter(|d| c.overlaps(d))
                .count()
        })
        .collect();
    let detected = per_case.iter().filter(|&&n| n > 0).count();
    let granularity = if detected == 0 {
        1.0
    } else {
        per_case.iter().sum::<usize>() as f64 / detected as f64
    };
    let f1 = if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    };
    PanMeasures {
        precision,
        recall,
        granularity,
        plagdet: f1 / (1.0 + granularity).log2(),
        case_recall: if cases.is_empty() {
            1.0
        } else {
            detected as f64 / cases.len() as f64
        },
        cases: cases.len(),
        detections: detections.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ann(this: Range<usize>, that: Range<usize>) -> Annotation {
        Annotation {
            suspicious: "s".into(),
            this,
            source: "r".into(),
            that,
        }
    }

    #[test]
    fn a_perfect_detection_scores_one() {
        let cases = [ann(10..20, 30..40)];
        let m = measure(&cases, &cases);
        assert_eq!(
            (m.precision, m.recall, m.granularity, m.plagdet),
            (1.0, 1.0, 1.0, 1.0)
        );
    }

    #[test]
    fn worked_example_by_hand() {
        // Case: 100 + 100 characters. Detection 1 covers the first half of both sides, detection
        // 2 the second half of the suspicious side plus 50 characters of the source beyond the
        // case; detection 3 is elsewhere.
        let cases = [ann(0..100, 1000..1100)];
        let detections = [
            ann(0..50, 1000..1050),
            ann(50..100, 1050..1150),
            ann(500..600, 5000..5100),
        ];
        let m = measure(&cases, &detections);
        assert_eq!(m.recall, 1.0);
        // Precisions: 1, (50 + 50) / (50 + 100) = 2/3, 0.
        assert!((m.precision - (1.0 + 2.0 / 3.0) / 3.0).abs() < 1e-12);
        assert_eq!(m.granularity, 2.0);
        let f1 = 2.0 * m.precision / (m.precision + 1.0);
        assert!((m.plagdet - f1 / 3f64.log2()).abs() < 1e-12);
        assert_eq!(m.case_recall, 1.0);
    }

    #[test]
    fn overlap_on_one_side_only_detects_nothing() {
        let cases = [ann(0..100, 0..100)];
        let m = measure(&cases, &[ann(0..100, 200..300)]);
        assert_eq!((m.recall, m.precision, m.case_recall), (0.0, 0.0, 0.0));
        assert_eq!(m.granularity, 1.0);
    }

    #[test]
    fn other_documents_never_overlap() {
        let case = ann(0..10, 0..10);
        let mut other = case.clone();
        other.source = "elsewhere".into();
        assert!(!case.overlaps(&other));
    }

    #[test]
    fn empty_sets_follow_pans_scorer() {
        assert_eq!(measure(&[], &[]).plagdet, 1.0);
        assert_eq!(measure(&[], &[ann(0..1, 0..1)]).precision, 0.0);
        assert_eq!(measure(&[ann(0..1, 0..1)], &[]).recall, 0.0);
    }

    #[test]
    fn overlapping_detections_count_characters_once() {
        let cases = [ann(0..100, 0..100)];
        let detections = [ann(0..60, 0..60), ann(40..100, 40..100)];
        let m = measure(&cases, &detections);
        assert_eq!(m.recall, 1.0);
        assert_eq!(m.precision, 1.0);
        assert_eq!(m.granularity, 2.0);
    }
}
