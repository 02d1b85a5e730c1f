//! Sources and submissions: a teacher's folder holds the sources given to a class and the
//! answers handed in. The detectors see only documents; this module reads their pairs with the
//! roles the user gave.
//!
//! - A pair of a submission and a source is the teacher's first question ("which submissions
//!   reuse which sources?"). It is put with the source as the container, whatever the stream
//!   order and whichever way the detector read it: `source contains submission`, or for a
//!   detector that reports partial reuse (qSign's `reuses`), `submission reuses source`. A
//!   source is never reported as reusing or being contained in a submission: the source came
//!   first by the user's word, which outranks file order.
//! - A pair of two submissions is the second question ("which submissions reuse each other?"),
//!   kept as detected.
//! - A pair of two sources answers no question and is dropped (and counted).
//!
//! Both lists are ranked by score, descending, so that the strongest evidence comes first.

use serde::Serialize;

use super::{DetectedPair, DocId, Relation};

/// Which question a pair answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PairKind {
    /// A submission and a source.
    SubmissionSource,
    /// Two submissions.
    SubmissionSubmission,
}

impl PairKind {
    /// The name used in JSON, CSV and the terminal.
    pub fn name(self) -> &'static str {
        match self {
            PairKind::SubmissionSource => "submission_source",
            PairKind::SubmissionSubmission => "submission_submission",
        }
    }
}

/// The pairs of a detection, read with the documents' roles.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RoledPairs {
    /// Submission-source pairs, oriented with the source as the container (module docs),
    /// ranked by score.
    pub submission_source: Vec<DetectedPair>,
    /// Submission-submission pairs as detected, ranked by score.
    pub submission_submission: Vec<DetectedPair>,
    /// Source-source pairs left out.
    pub dropped: usize,
}

impl RoledPairs {
    /// Splits and orients `pairs`; `is_source[d]` says whether document `d` is a source
    /// (documents beyond its end are submissions).
    pub fn split(pairs: &[DetectedPair], is_source: &[bool]) -> Self {
        let source = |d: DocId| is_source.get(d).copied().unwrap_or(false);
        let mut roled = RoledPairs::default();
        for &pair in pairs {
            match (source(pair.a), source(pair.b)) {
                (true, true) => roled.dropped += 1,
                (false, false) => roled.submission_submission.push(pair),
                (a_is_source, _) => {
                    let (src, submission) = if a_is_source {
                        (pair.a, pair.b)
                    } else {
                        (pair.b, pair.a)
                    };
                    roled
                        .submission_source
                        .push(oriented(pair, src, submission));
                }
            }
        }
        rank(&mut roled.submission_source);
        rank(&mut roled.submission_submission);
        roled
    }

    /// Every kept pair with its kind: submission-source pairs first, each list ranked.
    pub fn iter(&self) -> impl Iterator<Item = (PairKind, &DetectedPair)> {
        self.submission_source
            .iter()
            .map(|p| (PairKind::SubmissionSource, p))
            .chain(
                self.submission_submission
                    .iter()
                    .map(|p| (PairKind::SubmissionSubmission, p)),
            )
    }
}

/// A submission-source pair with the source as the container.
fn oriented(pair: DetectedPair, source: DocId, submission: DocId) -> DetectedPair {
    let (a, b, relation) = match pair.relation {
        // Partial reuse reads from the reuser: the submission.
        Relation::Reuses => (submission, source, Relation::Reuses),
        // Containment either way becomes the source containing (what it shares with) the
        // submission; a duplicate stays a duplicate, read from the source.
        Relation::Contains => (source, submission, Relation::Contains),
        symmetric => (source, submission, symmetric),
    };
    DetectedPair {
        a,
        b,
        relation,
        score: pair.score,
    }
}

/// Sorts pairs by score, descending; ties by (a, b) so that the order is reproducible.
pub fn rank(pairs: &mut [DetectedPair]) {
    pairs.sort_by(|x, y| {
        y.score
            .total_cmp(&x.score)
            .then((x.a, x.b, x.relation).cmp(&(y.a, y.b, y.relation)))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(a: DocId, b: DocId, relation: Relation, score: f64) -> DetectedPair {
        DetectedPair {
            a,
            b,
            relation,
            score,
        }
    }

    #[test]
    fn pairs_are_split_by_role_oriented_with_the_source_as_container_and_ranked() {
        // Documents 0 and 1 are sources; 2, 3, 4 submissions.
        let is_source = [true, true, false, false, false];
        let detected = [
            // A submission "containing" a source: read as the source containing it.
            pair(2, 0, Relation::Contains, 0.7),
            // A source "reusing" a submission (stream order): the submission reuses it.
            pair(1, 3, Relation::Reuses, 0.9),
            pair(0, 4, Relation::Contains, 0.8),
            pair(0, 1, Relation::Duplicate, 1.0),
            pair(2, 3, Relation::Duplicate, 0.5),
            pair(4, 2, Relation::Contains, 0.6),
            pair(0, 3, Relation::Duplicate, 0.8),
        ];
        let roled = RoledPairs::split(&detected, &is_source);
        assert_eq!(
            roled.submission_source,
            vec![
                pair(3, 1, Relation::Reuses, 0.9),
                pair(0, 3, Relation::Duplicate, 0.8),
                pair(0, 4, Relation::Contains, 0.8),
                pair(0, 2, Relation::Contains, 0.7),
            ]
        );
        assert_eq!(
            roled.submission_submission,
            vec![
                pair(4, 2, Relation::Contains, 0.6),
                pair(2, 3, Relation::Duplicate, 0.5)
            ]
        );
        assert_eq!(roled.dropped, 1);
        let kinds: Vec<PairKind> = roled.iter().map(|(k, _)| k).collect();
        assert_eq!(
            kinds,
            [
                [PairKind::SubmissionSource; 4].as_slice(),
                &[PairKind::SubmissionSubmission; 2]
            ]
            .concat()
        );
    }

    #[test]
    fn without_sources_every_pair_is_between_submissions() {
        let detected = [pair(0, 1, Relation::Contains, 0.2)];
        let roled = RoledPairs::split(&detected, &[]);
        assert!(roled.submission_source.is_empty());
        assert_eq!(roled.submission_submission, detected.to_vec());
    }
}
