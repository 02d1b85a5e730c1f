//! Exports that stay usable on long documents (issue 29): a 5 MB text against a revised copy
//! (`common::revised`, Wikipedia articles of the shared data) gives a compact JSON report at
//! most a tenth of the full one, and an HTML report that headless Chromium draws.
//!
//! Chromium is a CI package (`.ci/run` installs Debian's `chromium` beside the shared data);
//! `SIMDOC_CHROMIUM` names another browser binary. The time Chromium takes is measured by
//! `scripts/bench-exports.sh` (BENCHMARKS.md, "Exports of a long pair"); here it only has a
//! generous limit, so that a page it cannot draw fails rather than hangs.

use crate::common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{arg, simdoc_bounded};

/// Far above what a 5 MB comparison takes (a guard against hangs, not a timing assertion).
const COMPARE_LIMIT: Duration = Duration::from_secs(1_200);
/// Far above the 10 s the report is meant to open in.
const BROWSER_LIMIT: Duration = Duration::from_secs(120);

#[test]
#[cfg_attr(
    not(simdoc_data),
    ignore = "needs SIMDOC_DATA (the shared data folder)"
)]
fn a_5_mb_revised_pair_exports_a_compact_json_and_a_page_chromium_draws() {
    let data = common::data_dir();
    let dir = tempfile::tempdir().unwrap();
    let (a_text, b_text) = common::revised::revised_pair(&data, 5_000_000);
    let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
    std::fs::write(&a, a_text).unwrap();
    std::fs::write(&b, b_text).unwrap();
    let [json, full, html] =
        ["compact.json", "full.json", "report.html"].map(|n| dir.path().join(n));
    let run = simdoc_bounded(
        &[
            "compare",
            arg(&a),
            arg(&b),
            "--json",
            arg(&json),
            "--json-full",
            arg(&full),
            "--html",
            arg(&html),
            "--quiet",
        ],
        COMPARE_LIMIT,
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let size = |path: &std::path::Path| std::fs::metadata(path).unwrap().len();
    let (compact_bytes, full_bytes) = (size(&json), size(&full));
    assert!(
        compact_bytes * 10 <= full_bytes,
        "compact {compact_bytes} bytes, full {full_bytes}"
    );
    std::fs::remove_file(&full).unwrap();
    let report: serde_json::Value =
        serde_json::from_reader(std::fs::File::open(&json).unwrap()).unwrap();
    let pairs = report["matches"].as_array().unwrap().len();
    assert!(
        pairs > 10_000,
        "a revised copy matches most of its sentences: {pairs}"
    );

    // Headless Chromium loads the page and gives back its DOM.
    let chromium = std::env::var_os("SIMDOC_CHROMIUM").unwrap_or_else(|| "chromium".into());
    let url = format!("file://{}", html.display());
    let mut child = Command::new(&chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--dump-dom",
            &url,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        // What chromium says on stderr goes to an unnamed temporary file, never to a device.
        .stderr(tempfile::tempfile().unwrap())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("{chromium:?}: {e} (install Debian's chromium, as .ci/run does, or set SIMDOC_CHROMIUM)")
        });
    let reader = {
        let mut stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            let mut dom = String::new();
            std::io::Read::read_to_string(&mut stdout, &mut dom).map(|_| dom)
        })
    };
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > BROWSER_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("Chromium had not drawn the report after {BROWSER_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "Chromium: {status}");
    let dom = reader.join().unwrap().unwrap();
    assert!(
        dom.contains("<h2>Passages</h2>"),
        "{} bytes of DOM",
        dom.len()
    );
    assert!(dom.contains("Not shown whole"));
    assert!(dom.contains("matched pairs in A's reading order"));
}
