//! simdoc: see how two documents reuse each other's text.
//!
//! The engine follows Yerra's thesis (*Detecting Similar HTML Documents Using a Sentence-Based
//! Copy Detection Approach*, BYU 2005) and the collection detectors of the CoDet, qSign and Roul
//! et al. papers. Data flows one way:
//!
//! ```text
//! bytes --document--> Document (hierarchy + sentences) --text--> refined terms
//!       --similarity + model--> scored sentence pairs --compare--> figures, tree matching
//!       --render--> SVG / PNG / JSON / CSV          app (egui) and cli (clap) sit on top
//! ```
//!
//! Nothing below `app` and `cli` knows about them.

// Safe Rust only; and no `unwrap` or `expect` outside tests: a failure on input-dependent
// paths is an error the caller reports (invariants that cannot fail say why in an `expect`'s
// place with a `let ... else` or a documented fallback).
#![forbid(unsafe_code)]
#![deny(clippy::unwrap_used)]

pub mod collection;
pub mod compare;
pub mod corpus;
pub mod document;
pub mod escape;
pub mod eval;
pub(crate) mod linalg;
pub mod model;
pub(crate) mod read;
pub mod render;
pub mod selection;
pub mod similarity;
pub mod sources;
pub mod text;
pub mod write;

#[cfg(feature = "gui")]
pub mod app;
