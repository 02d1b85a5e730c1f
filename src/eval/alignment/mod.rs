//! Text alignment as the measure of what a comparison shows: PAN's task and measures.
//!
//! A comparison of two documents is judged the way the PAN plagiarism-detection competitions
//! judge text alignment: the reused passages it reports, as character ranges in both documents,
//! against known cases, by PAN's character-level precision, recall, granularity and plagdet.
//! Sentence-pair sets measure a matcher on one candidate at a time; these measure a comparison
//! where every sentence meets every sentence of the other document, at every size.
//!
//! - [`corpus`]: builds a PAN-style corpus from the shared data (cases of PAN's reworded and
//!   verbatim sentences inserted into unrelated news and encyclopedia backgrounds, 5 KB to 5 MB);
//!   `regimes` adds documents mostly copied and identical copies;
//! - [`pan_xml`]: PAN's XML for ground truth and detections;
//! - [`measures`]: PAN's measures;
//! - [`run`]: a detector over a corpus, scored per size and obfuscation.

pub mod corpus;
pub(crate) mod measures;
pub mod pan_xml;
pub(crate) mod pool;
pub mod pool_run;
mod regimes;
pub mod run;

pub use corpus::{CorpusSpec, Manifest, Obfuscation, Regime};
pub use measures::{Annotation, PanMeasures, measure};
