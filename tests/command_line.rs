//! The command line, end to end: each subcommand run as a user runs it (the built binary), its
//! outputs and where they go, exclusions, names that are data, and the HTML report drawn by a
//! browser.
//!
//! One test binary per theme (each links the whole crate once: one binary per file linked it
//! 46 times); each file below is a module, run alone with
//! `cargo test --release --test command_line MODULE::`.
//!
//! Only tests that run the binary belong here: a child's peak memory as Linux reports it
//! (`ru_maxrss`) starts at the peak of the process that started it, so a test of this
//! binary doing heavy work in-process would inflate every other test's measured bound.

mod common;

mod cli_changes;
mod cli_collection;
mod cli_collection_budget;
mod cli_collection_report;
mod cli_compare;
mod cli_eval;
mod cli_exports;
mod cli_model;
mod cli_offsets;
mod cli_sources;
mod cli_wordnet;
mod exclusions;
mod names_as_data;
mod output_targets;
mod output_transactions;
mod report_browser_real;
