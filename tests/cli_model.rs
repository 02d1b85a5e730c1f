//! `simdoc model build` and `simdoc model info`, run as a user would.

use crate::common;
use common::{simdoc, text};

use std::path::Path;

fn write(dir: &Path, name: &str, content: &str) {
    std::fs::create_dir_all(dir.join(name).parent().unwrap()).unwrap();

    std::fs::write(dir.join(name), content).unwrap();
}

#[test]
fn build_then_info() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    write(&corpus, "a.txt", "Cat dog.\n\nCat fish.");
    write(
        &corpus,
        "sub/b.html",
        "<html><body><p>Cat dog bird.</p><p>Bird.</p><nav>Moon home.</nav></body></html>",
    );
    write(
        &corpus,
        "wiki_00",
        "<doc id=\"1\" url=\"u\" title=\"C\">\nC\nDog fish.\nBird.\n</doc>\n<doc id=\"2\" url=\"u\" title=\"D\">\nD\nMoon star. Sun.\n</doc>\n",
    );
    let model = dir.path().join("m.simdoc-model");
    let out = simdoc(&[
        "model",
        "build",
        corpus.to_str().unwrap(),
        "-o",
        model.to_str().unwrap(),
        "--unit",
        "document",
        "--min-df",
        "1",
        "--floor",
        "0.1",
        "--per-term",
        "5",
        "--note",
        "hand-made test corpus",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("4 documents"),
        "{}",
        text(&out.stderr)
    );

    let out = simdoc(&[
        "model",
        "info",
        model.to_str().unwrap(),
        "--term",
        "cats",
        "--top",
        "2",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let info = text(&out.stdout);
    assert!(info.contains("documents:           4\n"), "{info}");
    assert!(
        info.contains("units:               4 (documents)\n"),
        "{info}"
    );
    assert!(
        info.contains("unit document, min-df 1, floor 0.1, per-term 5"),
        "{info}"
    );
    assert!(info.contains("  hand-made test corpus\n"), "{info}");
    assert!(info.contains("with `simdoc model build "), "{info}");
    // cat is in documents a.txt and b.html; dog in all but D; the nav's "moon" is boilerplate.
    assert!(info.contains("cats -> cat: df 2, idf 0.693"), "{info}");
    assert!(
        info.contains("3 correlates: dog 0.667, bird 0.333"),
        "{info}"
    );
}

#[test]
fn info_without_a_file_describes_the_built_in_model() {
    let out = simdoc(&["model", "info", "--term", "moon"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let info = text(&out.stdout);
    assert!(
        info.contains("<built-in>/assets/reference.simdoc-model"),
        "{info}"
    );
    assert!(info.contains("documents:           6514\n"), "{info}");
    assert!(info.contains("CC BY-SA 3.0"), "{info}");
    assert!(info.contains("moon -> moon: df "), "{info}");
}

#[test]
fn errors_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.simdoc-model");
    std::fs::write(&bad, b"SIMDOCRM\x01\x00").unwrap();
    let out = simdoc(&["model", "info", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("bad.simdoc-model: the model file is truncated"),
        "{err}"
    );

    let missing = dir.path().join("missing");
    let out = simdoc(&[
        "model",
        "build",
        missing.to_str().unwrap(),
        "-o",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("missing: cannot read"),
        "{}",
        text(&out.stderr)
    );

    let out = simdoc(&["model", "build", "x", "-o", "y", "--unit", "sentence"]);
    assert_eq!(out.status.code(), Some(2));
}
