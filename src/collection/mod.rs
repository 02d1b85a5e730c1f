//! Collection mode: many documents in, the pairs that contain, duplicate or reuse each other out.
//!
//! Each detector follows its paper (see /work/shared/papers/README.md) and lives in its own module:
//!
//! | module | paper | decides |
//! |---|---|---|
//! | [`codet`] | Varol et al., CoDet (000), sect. 3, eq. 1-2 | `d_C` contains `d_A` when CS/SCS > ETL |
//! | [`dsc`], [`ffp`] | CoDet sect. 4 baselines | 60% of `d_A`'s 4-word shingle hashes in `d_C` |
//! | [`imatch`] | CoDet sect. 4 (I-Match) | equal SHA-1 of ten high-idf words |
//! | [`simhash`] | CoDet sect. 4 (SimHash) | idf-weighted 64-bit SimHash, Hamming < 3 |
//! | [`qsign`] | Kim et al., qSign (002), sect. 2 | sentence word overlap through signature range search |
//! | [`roul`] | Roul et al. (004), sect. 4 | shingled TF-IDF SimHash + LSI cosine, thresholds th1-th4 |
//!
//! [`tables`] reads a result that `simdoc-spark` (the detectors on Apache Spark, in `spark/`)
//! wrote as Parquet tables, so that the command line and the viewer show it.
//!
//! The shared shape:
//! - [`prepare`] turns [`Document`](crate::document::Document)s into a [`Collection`]: every
//!   sentence as a list of interned terms, plus document frequencies for idf. The list order is
//!   the stream order (CoDet and qSign are streaming methods).
//! - [`Method`] names a detector with its parameters; [`Method::detect`] runs it on a collection
//!   with a [`Job`] (progress callback and cancel flag) and returns a [`Detection`]: directed
//!   pairs with a relation and a score, and duplicate groups.
//! - No detector compares all pairs: each goes through an index (a tree, inverted lists,
//!   fingerprint buckets, Hamming-ball or block lookups, sort-and-neighbour passes).

pub mod codet;
pub mod discounted_rank;
pub mod dsc;
pub mod evidence;
pub mod ffp;
pub mod fuzzy;
mod groups;
pub mod hashing;
pub mod imatch;
mod per_document;
pub mod prepare;
pub mod presets;
pub mod qsign;
pub mod roles;
pub mod roul;
pub mod run;
pub mod shingling;
pub mod simhash;
pub mod source_discount;
pub mod tables;

use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

pub use groups::{duplicate_groups, pairs_within_groups, same_text};
pub use prepare::{Collection, DocumentFrequencies, Normaliser, PreparedDocument, TermId};

/// Index of a document in its [`Collection`] (its position in the stream).
pub type DocId = usize;

/// How the two documents of a [`DetectedPair`] relate. Reads as "`a` RELATION `b`".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// `a` contains `b` (b ⊆ a): a reader of `a` need not read `b` (CoDet sect. 1).
    Contains,
    /// `a` and `b` hold roughly the same content (each contains the other, or equal
    /// fingerprints). Symmetric; `a < b`.
    Duplicate,
    /// `a`, later in the stream, reuses sentences of `b` without being contained in it (qSign).
    Reuses,
    /// Roul et al.: textual similarity above th3.
    ExactDuplicate,
    /// Roul et al.: textual similarity above th2.
    TextualDuplicate,
    /// Roul et al.: textual similarity above th1 and LSI cosine above th4.
    ConceptualDuplicate,
}

impl Relation {
    /// Whether the relation puts both documents in one duplicate group.
    pub fn is_duplicate(self) -> bool {
        matches!(
            self,
            Relation::Duplicate
                | Relation::ExactDuplicate
                | Relation::TextualDuplicate
                | Relation::ConceptualDuplicate
        )
    }

    /// Whether the relation is symmetric (then `a < b` in a [`DetectedPair`]).
    pub fn is_symmetric(self) -> bool {
        self.is_duplicate()
    }

    /// The relation of a [`Relation::name`].
    pub fn from_name(name: &str) -> Option<Relation> {
        [
            Relation::Contains,
            Relation::Duplicate,
            Relation::Reuses,
            Relation::ExactDuplicate,
            Relation::TextualDuplicate,
            Relation::ConceptualDuplicate,
        ]
        .into_iter()
        .find(|r| r.name() == name)
    }

    /// The name used in JSON, CSV and the terminal.
    pub fn name(self) -> &'static str {
        match self {
            Relation::Contains => "contains",
            Relation::Duplicate => "duplicate",
            Relation::Reuses => "reuses",
            Relation::ExactDuplicate => "exact_duplicate",
            Relation::TextualDuplicate => "textual_duplicate",
            Relation::ConceptualDuplicate => "conceptual_duplicate",
        }
    }
}

/// One detected relation between two documents.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DetectedPair {
    pub a: DocId,
    pub b: DocId,
    pub relation: Relation,
    /// The detector's own measure behind the decision; each detector's docs say which.
    pub score: f64,
}

impl DetectedPair {
    /// A pair with symmetric relations normalised to `a < b`.
    pub fn new(a: DocId, b: DocId, relation: Relation, score: f64) -> Self {
        let (a, b) = if relation.is_symmetric() && b < a {
            (b, a)
        } else {
            (a, b)
        };
        DetectedPair {
            a,
            b,
            relation,
            score,
        }
    }
}

/// What a detector found.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Detection {
    /// Sorted by `(a, b)`.
    pub pairs: Vec<DetectedPair>,
    /// Connected components of the duplicate relations, each with at least two documents. The
    /// first member is the one to keep: the longest document (Roul et al. step 11), ties to the
    /// earliest. Groups are sorted by their first member.
    pub groups: Vec<Vec<DocId>>,
}

impl Detection {
    /// Sorts the pairs and derives the duplicate groups from them.
    pub fn from_pairs(mut pairs: Vec<DetectedPair>, collection: &Collection) -> Self {
        pairs.sort_by_key(|p| (p.a, p.b, p.relation));
        let groups = duplicate_groups(&pairs, collection);
        Detection { pairs, groups }
    }
}

/// A progress report: `done` of `total` units of `stage`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub stage: &'static str,
    pub done: usize,
    pub total: usize,
}

/// The run was cancelled through the [`Job`]'s flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cancelled")]
pub struct Cancelled;

/// The link between a running detector and its caller: a progress callback and a cancel flag,
/// checked at every [`Job::step`] (once per document, or per block of work).
pub struct Job<'a> {
    progress: &'a mut dyn FnMut(Progress),
    pub(crate) cancel: &'a AtomicBool,
}

impl<'a> Job<'a> {
    pub fn new(progress: &'a mut dyn FnMut(Progress), cancel: &'a AtomicBool) -> Self {
        Job { progress, cancel }
    }

    /// Reports progress, then fails if the run was cancelled.
    pub fn step(
        &mut self,
        stage: &'static str,
        done: usize,
        total: usize,
    ) -> Result<(), Cancelled> {
        (self.progress)(Progress { stage, done, total });
        if self.cancel.load(Ordering::Relaxed) {
            Err(Cancelled)
        } else {
            Ok(())
        }
    }
}

/// Runs `f` with a job that reports nowhere and is never cancelled (tests, examples).
pub fn without_job<T>(f: impl FnOnce(&mut Job<'_>) -> T) -> T {
    let cancel = AtomicBool::new(false);
    let mut ignore = |_: Progress| {};
    let mut job = Job::new(&mut ignore, &cancel);
    f(&mut job)
}

/// A detector with its parameters: what the CLI and the viewer choose and run.
#[derive(Clone, Debug, PartialEq)]
pub enum Method {
    CoDet(codet::CoDetParams),
    Dsc(dsc::DscParams),
    Ffp(ffp::FfpParams),
    IMatch(imatch::IMatchParams),
    SimHash(simhash::SimHashParams),
    QSign(qsign::QSignParams),
    Roul(roul::RoulParams),
}

impl Method {
    /// The short name used on the command line and in reports.
    pub fn name(&self) -> &'static str {
        match self {
            Method::CoDet(_) => "codet",
            Method::Dsc(_) => "dsc",
            Method::Ffp(_) => "ffp",
            Method::IMatch(_) => "imatch",
            Method::SimHash(_) => "simhash",
            Method::QSign(_) => "qsign",
            Method::Roul(_) => "roul",
        }
    }

    /// Every method with its paper's defaults, in the order of the CoDet paper's Table 1 and
    /// then the other papers.
    pub fn all_defaults() -> Vec<Method> {
        vec![
            Method::Ffp(Default::default()),
            Method::CoDet(Default::default()),
            Method::IMatch(Default::default()),
            Method::SimHash(Default::default()),
            Method::Dsc(Default::default()),
            Method::QSign(Default::default()),
            Method::Roul(Default::default()),
        ]
    }

    /// Runs the detector over the collection in stream order.
    pub fn detect(
        &self,
        collection: &Collection,
        job: &mut Job<'_>,
    ) -> Result<Detection, Cancelled> {
        match self {
            Method::CoDet(p) => codet::detect(collection, p, job),
            Method::Dsc(p) => dsc::detect(collection, p, job),
            Method::Ffp(p) => ffp::detect(collection, p, job),
            Method::IMatch(p) => imatch::detect(collection, p, job),
            Method::SimHash(p) => simhash::detect(collection, p, job),
            Method::QSign(p) => qsign::detect(collection, p, job),
            Method::Roul(p) => roul::detect(collection, p, job),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_pairs_are_normalised_and_directed_pairs_kept() {
        let d = DetectedPair::new(5, 2, Relation::Duplicate, 1.0);
        assert_eq!((d.a, d.b), (2, 5));
        let c = DetectedPair::new(5, 2, Relation::Contains, 0.7);
        assert_eq!((c.a, c.b), (5, 2));
        assert_eq!(
            Relation::from_name("exact_duplicate"),
            Some(Relation::ExactDuplicate)
        );
        assert_eq!(Relation::from_name("same"), None);
    }

    #[test]
    fn a_cancelled_job_stops_at_the_next_step() {
        let cancel = AtomicBool::new(false);
        let mut seen = Vec::new();
        {
            let mut record = |p: Progress| seen.push(p.done);
            let mut job = Job::new(&mut record, &cancel);
            assert_eq!(job.step("x", 1, 3), Ok(()));
            cancel.store(true, Ordering::Relaxed);
            assert_eq!(job.step("x", 2, 3), Err(Cancelled));
        }
        assert_eq!(seen, vec![1, 2]);
    }
}
