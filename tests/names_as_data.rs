//! Names and text are data (src/escape.rs), end to end through the binary under a time limit:
//! file names and titles holding escape sequences or newlines reach the terminal escaped (one
//! pair a line, always), CSV cells a spreadsheet would evaluate are neutralised, links to pair
//! pages are percent-encoded, and characters XML forbids do not break the SVG and PNG pictures.
#![cfg(unix)]

use crate::common;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{BoundedRun, arg, simdoc_bounded, simdoc_bounded_in};

const TIME_LIMIT: Duration = Duration::from_secs(60);

fn run(args: &[&str]) -> BoundedRun {
    simdoc_bounded(args, TIME_LIMIT)
}

const TEXT: &str = "The harbour froze early that winter. Boats stayed in for weeks.";

/// A file named with raw bytes (a name need not be UTF-8 text, nor printable).
fn file_named(dir: &Path, name: &[u8], text: &str) -> PathBuf {
    let path = dir.join(OsStr::from_bytes(name));
    std::fs::write(&path, text).unwrap();
    path
}

/// Whether `text` has a control character other than the line ends of its own lines.
fn has_control(text: &str) -> bool {
    text.chars().any(|c| c.is_control() && c != '\n')
}

#[test]
fn names_and_titles_reach_the_terminal_escaped_one_pair_a_line() {
    let dir = tempfile::tempdir().unwrap();
    // A name that forges a pair line, one that clears the screen and retitles the terminal.
    file_named(
        dir.path(),
        b"a\nduplicate             1.000  forged.txt  other.txt",
        TEXT,
    );
    file_named(dir.path(), b"\x1b[2J\x1b]0;pwned\x07b.txt", TEXT);
    let out = run(&["collection", arg(dir.path())]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!has_control(&out.stdout), "{:?}", out.stdout);
    let pair_lines: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("duplicate  "))
        .collect();
    assert_eq!(pair_lines.len(), 1, "{}", out.stdout);
    assert!(
        pair_lines[0].contains("a\\nduplicate             1.000  forged.txt  other.txt")
            && pair_lines[0].contains("\\u{1b}[2J\\u{1b}]0;pwned\\u{7}b.txt"),
        "{}",
        pair_lines[0]
    );
    // A title with escape sequences, in the comparison summary and the outline.
    let page = file_named(
        dir.path(),
        b"page.html",
        "<html><head><title>\u{1b}[31mRed\u{1b}[0m title\u{202e}txt.exe</title></head>\
         <body><p>The harbour froze early that winter. Boats stayed in for weeks.</p></body></html>",
    );
    let out = run(&["compare", arg(&page), arg(&page)]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!has_control(&out.stdout), "{:?}", out.stdout);
    assert!(
        out.stdout
            .contains("\"\\u{1b}[31mRed\\u{1b}[0m title\\u{202e}txt.exe\""),
        "{}",
        out.stdout
    );
    let out = run(&["inspect", arg(&page)]);
    assert!(
        !has_control(&out.stdout) && !out.stdout.contains('\u{202e}'),
        "{out:?}"
    );
    // An error message naming such a file.
    let empty = file_named(dir.path(), b"empty\x1b[8m.txt", "");
    let out = run(&["inspect", arg(&empty)]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(!has_control(&out.stderr), "{:?}", out.stderr);
    assert!(
        out.stderr
            .contains("empty\\u{1b}[8m.txt: holds no readable text"),
        "{out:?}"
    );
}

/// Every cell of a CSV simdoc writes that starts with `=`, `+`, `-` or `@` (or a tab or a
/// carriage return) is a number; anything else gets OWASP's single quote in front.
fn assert_no_formula(csv_path: &Path) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_path(csv_path)
        .unwrap();
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect();
    for cell in rows.iter().flatten() {
        if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
            assert!(cell.parse::<f64>().is_ok(), "a formula cell: {cell:?}");
        }
    }
    rows
}

#[test]
fn csv_cells_a_spreadsheet_would_evaluate_are_neutralised() {
    let dir = tempfile::tempdir().unwrap();
    let a = file_named(
        dir.path(),
        b"a.txt",
        "=HYPERLINK(\"http://evil.example\",\"Click\") is what the harbour said. \
         +cmd|' /C calc'!A0 froze early that winter. @SUM(A1) boats stayed in for weeks.",
    );
    let b = file_named(
        dir.path(),
        b"b.txt",
        "=HYPERLINK(\"http://evil.example\",\"Click\") is what the old harbour said. \
         +cmd|' /C calc'!A0 froze early that winter. @SUM(A1) the boats stayed in.",
    );
    let csv = dir.path().join("pairs.csv");
    // Three-sentence texts cannot show reuse against chance: the measured preset matches them.
    let out = run(&[
        "compare",
        arg(&a),
        arg(&b),
        "--preset",
        "measured",
        "--csv",
        arg(&csv),
        "-q",
    ]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let rows = assert_no_formula(&csv);
    assert!(rows.len() > 1, "{rows:?}");
    // The word changes simdoc writes itself begin with `-` or `+`.
    let changes = rows[0].iter().position(|c| c == "word_changes").unwrap();
    assert!(
        rows[1..]
            .iter()
            .any(|r| r[changes].starts_with("'-") || r[changes].starts_with("'+")),
        "{rows:?}"
    );
    assert!(
        rows[1..]
            .iter()
            .flatten()
            .any(|cell| cell.starts_with("'=HYPERLINK(")),
        "{rows:?}"
    );
    // Names, in a collection's and a sources' CSV: documents named by relative paths.
    file_named(dir.path(), b"=cmd|' -C calc'!A0.txt", TEXT);
    file_named(dir.path(), b"@twin.txt", TEXT);
    let collection = dir.path().join("collection.csv");
    let out = simdoc_bounded_in(
        dir.path(),
        &[
            "collection",
            "=cmd|' -C calc'!A0.txt",
            "@twin.txt",
            "--csv",
            "collection.csv",
        ],
        TIME_LIMIT,
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    let rows = assert_no_formula(&collection);
    assert_eq!(rows[1][..2], ["'=cmd|' -C calc'!A0.txt", "'@twin.txt"]);
    let sources = dir.path().join("sources.csv");
    let out = simdoc_bounded_in(
        dir.path(),
        &[
            "sources",
            "@twin.txt",
            "=cmd|' -C calc'!A0.txt",
            "--csv",
            "sources.csv",
            "-q",
        ],
        TIME_LIMIT,
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(assert_no_formula(&sources)[1][0], "'=cmd|' -C calc'!A0.txt");
}

#[test]
fn links_to_pair_pages_are_percent_encoded() {
    let dir = tempfile::tempdir().unwrap();
    file_named(dir.path(), b"a.txt", TEXT);
    file_named(dir.path(), b"b.txt", TEXT);
    let html = dir.path().join("run #1?.html");
    let out = run(&["collection", arg(dir.path()), "--html", arg(&html)]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains(r#"<a href="run%20%231%3F-pairs/1.html">open</a>"#),
        "{page}"
    );
    // The link, decoded as a browser does, names the page written.
    assert!(dir.path().join("run #1?-pairs/1.html").is_file());
}

#[test]
fn a_name_with_characters_xml_forbids_still_makes_pictures() {
    let dir = tempfile::tempdir().unwrap();
    // U+FFFF (a noncharacter XML forbids) and a control character in a file name.
    let odd = file_named(dir.path(), "odd\u{ffff}\u{1}.txt".as_bytes(), TEXT);
    let plain = file_named(dir.path(), b"plain.txt", TEXT);
    for picture in ["dotplot.svg", "dotplot.png"] {
        let path = dir.path().join(picture);
        let out = run(&[
            "compare",
            arg(&odd),
            arg(&plain),
            "--dotplot",
            arg(&path),
            "-q",
        ]);
        assert_eq!(out.code, Some(0), "{picture}: {out:?}");
        let bytes = std::fs::read(&path).unwrap();
        if picture.ends_with(".png") {
            assert!(bytes.starts_with(b"\x89PNG"), "{picture}");
        } else {
            let svg = String::from_utf8(bytes).unwrap();
            assert!(
                svg.contains("odd.txt") && !svg.contains('\u{ffff}'),
                "{svg}"
            );
        }
    }
    let matrix = dir.path().join("matrix.png");
    let out = run(&[
        "collection",
        arg(dir.path()),
        "--method",
        "fuzzy",
        "--matrix",
        arg(&matrix),
    ]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(std::fs::read(&matrix).unwrap().starts_with(b"\x89PNG"));
}
