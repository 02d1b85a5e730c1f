//! The library in this process: its layers, the comparison's properties under random inputs,
//! capped partners, WordNet relations, the office and PDF formats' fixtures and inputs that must
//! not panic.
//!
//! One test binary per theme (each links the whole crate once: one binary per file linked it
//! 46 times); each file below is a module, run alone with
//! `cargo test --release --test library MODULE::`.

mod common;

mod architecture;
mod compare_properties;
mod formats_office;
mod formats_pdf;
mod no_panics;
mod partners_capped;
mod wordnet_properties;
