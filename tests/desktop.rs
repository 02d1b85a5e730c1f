//! The desktop viewer driven through egui_kittest (no display needed): workflows, evidence,
//! partners, exclusions, sources and hostile files.
//!
//! One test binary per theme (each links the whole crate once: one binary per file linked it
//! 46 times); each file below is a module, run alone with
//! `cargo test --release --test desktop MODULE::`.

mod common;
mod viewer_support;

mod app;
mod viewer;
mod viewer_collection;
mod viewer_exclusions;
mod viewer_hostile;
mod viewer_partners;
mod viewer_sources;
mod viewer_workflows;
