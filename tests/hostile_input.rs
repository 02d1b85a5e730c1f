//! Hostile, damaged and unlucky inputs, each run by the built binary in a child process under a
//! time and memory guard: the README's bad-input catalogue, templated and repeated text, and
//! the fuzzers' findings.
//!
//! One test binary per theme (each links the whole crate once: one binary per file linked it
//! 46 times); each file below is a module, run alone with
//! `cargo test --release --test hostile_input MODULE::`.
//!
//! Only tests that run the binary belong here: a child's peak memory as Linux reports it
//! (`ru_maxrss`) starts at the peak of the process that started it, so a test of this
//! binary doing heavy work in-process would inflate every other test's measured bound.

mod common;

mod bad_inputs;
mod fuzz_findings;
mod hostile_documents;
mod hostile_pdfs;
mod repetition;
mod templated;
