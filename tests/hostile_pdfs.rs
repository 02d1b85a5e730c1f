//! PDFs that hung simdoc or grew without bound (issue 28, findings 1 and 2), made here of a few
//! KB each: a page that is its own `/Parent`, a font map with a range of four billion codes, a
//! content stream of millions of `q`, and drawings that recurse ([`refused`]). Each is read by
//! the binary (where a worker process reads it: src/document/worker.rs), under a time limit, in
//! `inspect`, `compare` and `collection`, and by the library (in process: the checks of
//! src/document/formats/pdf/budget.rs). And PDFs whose text was hidden, or that were refused
//! for no good reason (issue 44, items 5, 7, 8 and 10): each must be read whole
//! ([`read_whole`]).
#![cfg(unix)]

mod read_whole;
mod refused;

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{BoundedRun, simdoc_bounded};

const TIME_LIMIT: Duration = Duration::from_secs(60);

fn run(args: &[&str]) -> BoundedRun {
    simdoc_bounded(args, TIME_LIMIT)
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Exit 1 with `message` about the file, quickly (the time limit) and with little memory.
fn assert_refused(out: &BoundedRun, message: &str) {
    assert_eq!(out.code, Some(1), "{out:?}");
    assert_eq!(out.stderr, format!("simdoc: {message}\n"));
    assert!(out.peak_rss_mb < 150.0, "{out:?}");
}
