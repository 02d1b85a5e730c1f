//! Measuring detection quality: labelled data sets to precision, recall, F1 and threshold sweeps.
//!
//! - [`formats`]: readers for the sentence-pair data sets (MSRP, PAN, STS-B, WikiSplit);
//! - [`score`]: one pair of texts scored by every sentence matcher, many pairs in parallel;
//! - [`metrics`]: confusion counts and rates, correlations, ROC AUC;
//! - [`sweep`]: the fuzzy matcher's thresholds swept, after the thesis's Fig. 3.2;
//! - [`pairs`]: a pair set's report;
//! - [`bands`]: the fuzzy method (or the verdict) within bands of pair length, and calibration;
//! - [`plot`]: the sweep as SVG;
//! - [`documents`]: document reuse against a label file, through [`crate::compare`];
//! - [`alignment`]: text alignment (PAN's task and measures) on a corpus built from the shared data.
//! - [`changes`]: the editor's change list on revisions with known edits.
//! - [`verdict`]: training and cross-validating the learned pair verdict.
//!
//! The thesis (`003_cb4e1995afbee241.txt`) evaluates by false positives and false negatives
//! (3.3, Table 3.5; 4.4, Tables 4.7-4.8) and chooses its thresholds from FP/FN curves (3.2.2,
//! Fig. 3.2); the CoDet paper (`000_3d68e4424a5a67a6.txt`, 5.2, Table 1) by precision, recall
//! and F1. Both are reported.

pub mod alignment;
pub mod bands;
pub mod changes;
pub mod documents;
pub(crate) mod formats;
pub mod metrics;
pub mod one_to_two;
pub mod pairs;
pub mod plot;
pub(crate) mod score;
pub(crate) mod sweep;
pub mod verdict;

pub use formats::{Format, LabeledPair, PairSet};
pub use metrics::{Confusion, Figures};
pub use score::{PairScore, score_pair, score_pairs};
