//! The two-document view: the texts side by side with their overview strips and tooltips, the
//! shaded hierarchies, and the side panel beside them (summary, dotplot, match list, passages
//! and word evidence), with the pair's exports.

mod block_text;
pub(crate) mod changes_list;
pub(crate) mod doc_pane;
pub(crate) mod dotplot;
pub(crate) mod evidence;
pub mod export;
pub(crate) mod matches;
pub(crate) mod overview;
pub(crate) mod passage_list;
pub(crate) mod sentence_tooltip;
pub(crate) mod sims_text;
pub(crate) mod trees;
pub(crate) mod word_text;
