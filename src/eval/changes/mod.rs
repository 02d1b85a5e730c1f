//! The editor's change list measured: revisions of training texts with known edits, and each
//! kind of change a tool lists scored against them (issue 43).
//!
//! - [`corpus`]: builds the revisions from the shared data (Wikipedia texts, PAN's reworded
//!   sentences, Reuters sentences added, paragraphs deleted and moved);
//! - [`score`]: precision in characters, recall in sentences and F1 per kind;
//! - [`run`]: simdoc's change lists over a corpus, or another tool's read from files.

pub mod corpus;
pub mod run;
pub mod score;

pub use corpus::{CorpusSpec, Manifest, Truth};
pub use score::ChangeScore;
