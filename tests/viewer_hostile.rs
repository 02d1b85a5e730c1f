//! The viewer opening PDFs that hung simdoc (issue 28), read as the `simdoc` binary reads them in
//! the viewer: in worker processes (src/document/worker.rs), here the built binary's
//! `read-worker` behind a small shell wrapper that leaves a mark at each start (so the test sees
//! that the viewer's reads went through a worker) and, while a flag file exists, crashes instead
//! (as a worker killed at its limits would end). The hostile files and the crashed worker are
//! errors naming the file, and the viewer stays usable: the next documents open and compare.
//! Each step is bounded by `settle`'s 60 s.
#![cfg(all(feature = "gui", unix))]

use crate::common;
use crate::viewer_support;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use simdoc::app::{Settings, Side, SimdocApp};
use simdoc::document::worker::{WorkerCommand, read_pdfs_in_workers};
use simdoc::model::ReferenceModel;
use viewer_support::{harness, settle, write};

/// Workers are `sh -c WRAPPER`: a line appended to `starts` at each start; then, if `crash`
/// exists, a segmentation fault; else the simdoc binary's `read-worker`.
fn read_pdfs_in_wrapped_workers(starts: &Path, crash: &Path) {
    let wrapper =
        r#"echo started >> "$1"; if [ -e "$2" ]; then kill -SEGV $$; fi; exec "$3" read-worker"#;
    let first = read_pdfs_in_workers(WorkerCommand {
        program: PathBuf::from("/bin/sh"),
        args: vec![
            "-c".into(),
            wrapper.into(),
            "worker".into(),
            starts.into(),
            crash.into(),
            env!("CARGO_BIN_EXE_simdoc").into(),
        ],
    });
    assert!(
        first,
        "this test binary holds one test: the worker is set once per process"
    );
}

fn worker_starts(starts: &Path) -> usize {
    std::fs::read_to_string(starts).map_or(0, |s| s.lines().count())
}

fn messages(h: &Harness<'_, SimdocApp>) -> Vec<String> {
    h.state().messages.iter().map(|m| m.text.clone()).collect()
}

#[test]
fn a_pdf_that_would_hang_is_an_error_and_the_viewer_goes_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (starts, crash) = (dir.path().join("starts"), dir.path().join("crash"));
    // As `simdoc view` does at its start.
    read_pdfs_in_wrapped_workers(&starts, &crash);
    let looped = common::pdf_of(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 3 0 R /Contents 4 0 R >>".to_vec(),
        common::pdf_stream(
            "",
            b"BT /F1 12 Tf 72 720 Td (Hello there, this is a sentence.) Tj ET",
            false,
        ),
    ]);
    let looped = write(dir.path(), "loop.pdf", looped);
    let saves = write(
        dir.path(),
        "saves.pdf",
        common::hello_pdf("", &b"q ".repeat(2_000_000), &[]),
    );
    let mut app = SimdocApp::new(
        Settings {
            example_shown: true,
            ..Settings::default()
        },
        Arc::new(ReferenceModel::embedded()),
    );
    app.open(Side::Left, looped.clone());
    app.open(Side::Right, saves.clone());
    let mut h = harness(app);
    settle(&mut h);
    let shown = messages(&h);
    assert!(
        shown.iter().any(|m| m.starts_with(&format!(
            "{}: is not a readable PDF file: its page tree loops",
            looped.display()
        ))),
        "{shown:?}"
    );
    assert!(
        shown
            .iter()
            .any(|m| m.contains("saves the graphics state 2000000 levels deep")),
        "{shown:?}"
    );
    assert!(h.query_by_label_contains("its page tree loops").is_some());
    assert!(h.state().docs.iter().all(Option::is_none));
    assert_eq!(worker_starts(&starts), 2, "each PDF is read by a worker");
    // A worker that crashes (here, whatever the file) is a clear error naming the file.
    std::fs::write(&crash, "").expect("the crash flag");
    let fine = write(dir.path(), "fine.pdf", common::hello_pdf("", b"", &[]));
    h.state_mut().open(Side::Left, fine.clone());
    settle(&mut h);
    let crashed = format!(
        "{}: reading this PDF file was stopped: its reader crashed (signal {})",
        fine.display(),
        libc::SIGSEGV
    );
    assert!(
        messages(&h).iter().any(|m| m.starts_with(&crashed)),
        "{:?}",
        messages(&h)
    );
    assert!(h.state().docs[0].is_none());
    assert_eq!(worker_starts(&starts), 3);
    std::fs::remove_file(&crash).expect("the crash flag removed");
    // The same PDF, read by a worker again, beside a text: compared as usual.
    let text = write(dir.path(), "b.txt", "Hello there, this is a sentence.");
    h.state_mut().open(Side::Left, fine);
    h.state_mut().open(Side::Right, text);
    settle(&mut h);
    let loaded = h.state().docs[0].as_ref().expect("document A");
    assert_eq!(
        loaded.doc.sentences[0].text,
        "Hello there, this is a sentence."
    );
    assert!(h.state().docs[1].is_some());
    assert_eq!(worker_starts(&starts), 4);
}
