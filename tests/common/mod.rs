//! Helpers shared by the integration tests; each test file that needs them says `mod common;`.
// Each test crate uses only some of these.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The shared data folder named by `SIMDOC_DATA`. Unset, the real-data tests print "skipped" and
/// pass, so that `cargo test` works on a machine without the data (CI sets it).
pub fn data_dir() -> Option<PathBuf> {
    let data = std::env::var_os("SIMDOC_DATA").map(PathBuf::from);
    if data.is_none() {
        println!("skipped: SIMDOC_DATA not set");
    }
    data
}

/// Runs the `simdoc` binary built for these tests.
pub fn simdoc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_simdoc"))
        .args(args)
        .output()
        .expect("the simdoc binary runs")
}

/// Process output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
