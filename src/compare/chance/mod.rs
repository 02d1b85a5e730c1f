//! Matches judged against chance: how surprising each pair and each passage is in *this*
//! comparison, and which count as evidence.
//!
//! A comparison is a search: each sentence of A meets every sentence of B, so a score that is
//! rare for one pair of sentences is common among the n m pairs of two long documents. A sentence
//! pair bar chosen on isolated pairs (where a sentence meets one candidate) finds false partners
//! for nearly every sentence once the other document has thousands. So, as BLAST does for local
//! alignments, each pair and each run of pairs is judged by its E-value: the expected number of
//! pairs (runs) at least as good by chance among all those the two documents could form, given
//! both sizes and how common the shared words are in the two documents themselves.
//!
//! - [`null`]: the words' weights and the chance distribution of a pair's score;
//! - [`cooccurrence`]: words that come together (lists, collocations) weighed as one;
//! - [`related`]: a word swapped for one WordNet relates to it, counted as evidence with its
//!   own chance rate;
//! - [`seeds`]: every pair unlikely enough to start a passage, through an exact index;
//! - [`links`]: the pairs around the seeds that a passage may be built from;
//! - [`chains`]: runs of links in order in both documents, their evidence pooled;
//! - [`surprise`]: each link's surprise (its shared terms under the null model), kept to weigh passages under any thresholds;
//! - [`search`]: the search a comparison runs: seeds, links, their Sims.

pub(crate) mod chains;
pub(crate) mod cooccurrence;
pub(crate) mod links;
pub mod null;
pub mod related;
pub(crate) mod search;
pub mod seeds;
pub(crate) mod surprise;

pub use search::{ChanceSearch, ChanceSummary};
pub use surprise::LinkSurprises;
