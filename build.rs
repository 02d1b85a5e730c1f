//! Tells the tests whether the shared data is there. With `SIMDOC_DATA` set at build time, the
//! crate is compiled with `--cfg simdoc_data`, and the real-data tests, marked
//! `#[cfg_attr(not(simdoc_data), ignore = "needs SIMDOC_DATA ...")]`, run; without it they show
//! as *ignored* in `cargo test`, not as passed (they used to return early and print "skipped",
//! which the harness hides). Cargo reruns this script when the variable changes, so setting or
//! unsetting it recompiles the tests. (The `test-with` crate checks the environment inside its
//! macro instead, which Cargo does not track: a test built without the data stays ignored after
//! the variable is set, until a clean build.)
fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=SIMDOC_DATA");
    println!("cargo::rustc-check-cfg=cfg(simdoc_data)");
    if std::env::var_os("SIMDOC_DATA").is_some_and(|data| !data.is_empty()) {
        println!("cargo::rustc-cfg=simdoc_data");
    }
}
