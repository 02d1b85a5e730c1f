//! The bad-input catalogue (README.md, "Bad inputs"), run end to end: each input given to the
//! binary under a time limit, with its expected outcome and a bound on its peak memory. A
//! regression that hangs fails by the time limit instead of hanging the suite.
#![cfg(unix)]

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{BoundedRun, arg, simdoc_bounded};

/// Far above what any case here needs (each takes well under a second when it works).
const TIME_LIMIT: Duration = Duration::from_secs(60);

fn run(args: &[&str]) -> BoundedRun {
    simdoc_bounded(args, TIME_LIMIT)
}

fn fifo_in(dir: &Path) -> PathBuf {
    let fifo = dir.join("pipe.txt");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    fifo
}

fn a_small_text(dir: &Path) -> PathBuf {
    let path = dir.join("small.txt");
    std::fs::write(
        &path,
        "The harbour froze early that winter. Boats stayed in.",
    )
    .unwrap();
    path
}

/// Fails cleanly: exit code 1, one line naming the file and the problem, little memory.
fn assert_refused(run: &BoundedRun, message: &str) {
    assert_eq!(run.code, Some(1), "{run:?}");
    assert_eq!(run.stderr.trim_end(), format!("simdoc: {message}"));
    assert!(run.peak_rss_mb < 100.0, "{run:?}");
}

#[test]
fn a_fifo_is_refused_by_compare_and_inspect_without_blocking() {
    // No writer ever opens the FIFO: reading it would block forever.
    let dir = tempfile::tempdir().unwrap();
    let fifo = fifo_in(dir.path());
    let small = a_small_text(dir.path());
    let expected = format!("{}: is a FIFO (named pipe), not a regular file", arg(&fifo));
    assert_refused(&run(&["compare", arg(&fifo), arg(&small)]), &expected);
    assert_refused(&run(&["compare", arg(&small), arg(&fifo)]), &expected);
    assert_refused(&run(&["inspect", arg(&fifo)]), &expected);
}

#[test]
fn a_collection_skips_a_fifo_and_a_device_among_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = fifo_in(dir.path());
    a_small_text(dir.path());
    let zero = dir.path().join("zero.txt");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    // Followed (the link leads out of the folder: only with --follow), the device is refused.
    let out = run(&["collection", arg(dir.path()), "--follow"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(
        out.stderr,
        format!(
            "simdoc: skipped: {}: is a FIFO (named pipe), not a regular file\n\
             simdoc: skipped: {}: is a character device, not a regular file\n",
            arg(&fifo),
            arg(&zero)
        )
    );
    assert!(
        out.stdout.starts_with("fuzzy: 1 document, 0 pairs"),
        "{out:?}"
    );
}

/// A symbolic link in a collection folder that leads out of it (to a system file, say, which
/// would end up whole in a pair page) is not followed unless asked: it is listed among the
/// files left out. A link to a file inside the folder is read.
#[test]
fn symbolic_links_leaving_the_folder_are_not_followed_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.txt");
    let text = "The harbour froze early that winter. Boats stayed in.";
    std::fs::write(&secret, text).unwrap();
    let folder = dir.path().join("essays");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("essay.txt"), text).unwrap();
    std::os::unix::fs::symlink(&secret, folder.join("link.txt")).unwrap();
    std::os::unix::fs::symlink(outside.path(), folder.join("elsewhere")).unwrap();
    std::os::unix::fs::symlink("essay.txt", folder.join("inside.txt")).unwrap();
    let out = run(&["collection", arg(&folder)]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.starts_with("fuzzy: 2 documents, 1 pair"),
        "{out:?}"
    );
    assert!(!out.stdout.contains("secret"), "{out:?}");
    for (link, why) in [
        (
            "elsewhere",
            "a symbolic link leading out of the folder; --follow reads it",
        ),
        (
            "link.txt",
            "a symbolic link leading out of the folder; --follow reads it",
        ),
    ] {
        let line = format!("  {}  ({why})", arg(&folder.join(link)));
        assert!(out.stdout.contains(&line), "{line}\n{out:?}");
    }
    let out = run(&["collection", arg(&folder), "--follow"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.starts_with("fuzzy: 4 documents"), "{out:?}");
}

/// A subfolder that cannot be read is skipped and named, as an unreadable file is; the rest of
/// the collection is compared (the whole run failed). The folder is made unreadable by a path
/// longer than the system allows (`ENAMETOOLONG`), which holds for every user, root included;
/// without root, a folder without read permission is tried too.
#[test]
fn an_unreadable_subfolder_is_skipped_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let text = "The harbour froze early that winter. Boats stayed in.";
    std::fs::write(dir.path().join("a.txt"), text).unwrap();
    std::fs::write(dir.path().join("b.txt"), text).unwrap();
    // 45 nested folders of 99-character names: past PATH_MAX (4,096 bytes) at the 41st. Built
    // inside out, by renames of short paths only.
    let segment = "d".repeat(99);
    let stage = dir.path().join("stage");
    std::fs::create_dir(&stage).unwrap();
    std::fs::write(stage.join("deep.txt"), text).unwrap();
    for _ in 0..45 {
        let wrap = dir.path().join("wrap");
        std::fs::create_dir(&wrap).unwrap();
        std::fs::rename(&stage, wrap.join(&segment)).unwrap();
        std::fs::rename(&wrap, &stage).unwrap();
    }
    std::fs::rename(&stage, dir.path().join("deep")).unwrap();
    let out = run(&["collection", arg(dir.path())]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.starts_with("fuzzy: 2 documents, 1 pair"),
        "{out:?}"
    );
    assert!(
        out.stderr.starts_with("simdoc: skipped: ")
            && out.stderr.contains(&segment)
            && out
                .stderr
                .trim_end()
                .ends_with("File name too long (os error 36)"),
        "{out:?}"
    );
    let out = run(&[
        "sources",
        arg(&dir.path().join("a.txt")),
        arg(dir.path()),
        "-q",
    ]);
    assert_eq!(out.code, Some(0), "{out:?}");
    if !rustix::process::geteuid().is_root() {
        let locked = dir.path().join("locked");
        std::fs::create_dir(&locked).unwrap();
        std::fs::write(locked.join("c.txt"), text).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
        let out = run(&["collection", arg(dir.path())]);
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(out.code, Some(0), "{out:?}");
        assert!(
            out.stderr.contains(&format!(
                "simdoc: skipped: {}: cannot read: Permission denied",
                arg(&locked)
            )),
            "{out:?}"
        );
    }
}

/// One damaged byte in a UTF-8 file: the file stays UTF-8 (the byte becomes U+FFFD, and a
/// warning counts it), so it still matches its clean twin sentence for sentence; it was read as
/// Windows-1252 whole ("café" became "cafÃ©") and matched nothing.
#[test]
fn a_utf8_file_with_a_damaged_byte_still_matches_its_clean_twin() {
    let dir = tempfile::tempdir().unwrap();
    let clean = "Le café était fermé à midi. Les élèves déjeunaient dehors près du lycée. \
                 Après la pluie, la cour était pleine de flaques gelées.";
    let twin = dir.path().join("clean.txt");
    std::fs::write(&twin, clean).unwrap();
    let mut bytes = clean.as_bytes().to_vec();
    bytes.extend_from_slice(b" Une fin ab\xeem\xe9e.");
    let damaged = dir.path().join("damaged.txt");
    std::fs::write(&damaged, &bytes).unwrap();
    // Three-sentence texts cannot show reuse against chance: the measured preset matches them.
    let out = run(&[
        "compare",
        arg(&damaged),
        arg(&twin),
        "--preset",
        "measured",
        "--json",
        "-",
        "-q",
    ]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(
        out.stderr,
        format!(
            "simdoc: {}: 2 byte sequences are not valid UTF-8, read as U+FFFD (the replacement \
             character)\n",
            arg(&damaged)
        )
    );
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    // All three sentences of the clean twin are found in the damaged file.
    assert_eq!(
        report["figures"]["containment"][1], 1.0,
        "{}",
        report["figures"]
    );
}

#[test]
fn devices_are_refused_as_documents_and_as_models() {
    let dir = tempfile::tempdir().unwrap();
    let small = a_small_text(dir.path());
    assert_refused(
        &run(&["compare", "/dev/zero", arg(&small)]),
        "/dev/zero: is a character device, not a regular file",
    );
    assert_refused(
        &run(&["inspect", "/dev/urandom"]),
        "/dev/urandom: is a character device, not a regular file",
    );
    assert_refused(
        &run(&["model", "info", "/dev/urandom"]),
        "/dev/urandom: is a character device, not a model file",
    );
    assert_refused(
        &run(&["compare", arg(&small), arg(&small), "--model", "/dev/zero"]),
        "/dev/zero: is a character device, not a model file",
    );
}

#[test]
fn missing_empty_binary_and_directory_inputs_name_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.txt");
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let binary = dir.path().join("data.bin");
    // Control bytes and NULs throughout: no text encoding reads this as prose.
    std::fs::write(
        &binary,
        (0..3000u32).map(|i| (i * 7 % 32) as u8).collect::<Vec<_>>(),
    )
    .unwrap();
    assert_refused(
        &run(&["inspect", arg(&missing)]),
        &format!(
            "{}: cannot read: No such file or directory (os error 2)",
            arg(&missing)
        ),
    );
    assert_refused(
        &run(&["inspect", arg(&empty)]),
        &format!("{}: holds no readable text", arg(&empty)),
    );
    assert_refused(
        &run(&["inspect", arg(&binary)]),
        &format!(
            "{}: is not a text or HTML file (it looks binary)",
            arg(&binary)
        ),
    );
    assert_refused(
        &run(&["inspect", arg(dir.path())]),
        &format!("{}: is a directory, not a file", arg(dir.path())),
    );
    assert_refused(
        &run(&["model", "info", arg(&empty)]),
        &format!("{}: the model file is empty", arg(&empty)),
    );
    assert_refused(
        &run(&["model", "info", arg(&binary)]),
        &format!(
            "{}: is not a simdoc model file (its first bytes are not \"SIMDOCRM\")",
            arg(&binary)
        ),
    );
}

#[test]
fn deep_nesting_and_stray_bytes_still_give_the_text() {
    let dir = tempfile::tempdir().unwrap();
    let nested = dir.path().join("nested.html");
    let depth = 100_000;
    std::fs::write(
        &nested,
        format!(
            "{}Deep text is still a sentence.{}",
            "<div>".repeat(depth),
            "</div>".repeat(depth)
        ),
    )
    .unwrap();
    let out = run(&["inspect", arg(&nested)]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.contains("[0] Deep text is still a sentence."),
        "{out:?}"
    );
    // Latin-1 bytes in a file that is not UTF-8: decoded as Windows-1252.
    let latin = dir.path().join("latin.txt");
    std::fs::write(&latin, b"A caf\xe9 served cr\xe8me br\xfbl\xe9e all night.").unwrap();
    let out = run(&["inspect", arg(&latin)]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout
            .contains("[0] A café served crème brûlée all night."),
        "{out:?}"
    );
}

/// Many small documents as a collection: the fuzzy comparison's odds-ratio matrix (n x n) is
/// made only when it is written (`--matrix`) or printed (up to 30 documents). Made for every
/// run, it took 542 MB for these 8,000 one-line documents, and 3.5 GB for Reuters-21578.
#[test]
fn many_small_unrelated_documents_do_not_make_a_matrix_nobody_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..8_000 {
        let text = format!("Qa{i}x qb{i}x qc{i}x qd{i}x.\n");
        std::fs::write(dir.path().join(format!("{i:05}.txt")), text).unwrap();
    }
    let out = run(&[
        "collection",
        arg(dir.path()),
        "--method",
        "fuzzy",
        "--evidence",
        "0",
    ]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(
        out.stdout.lines().next(),
        Some("fuzzy: 8000 documents, 0 pairs, 0 duplicate groups"),
        "{out:?}"
    );
    assert!(out.peak_rss_mb < 200.0, "{out:?}");
}

/// One element with 80,000 distinct attributes (a 177 KB DOCX took 8.9 s: the XML parser
/// compares each attribute with the others) and one HTML tag with 320,000 (27 s): the DOCX is
/// refused at 256 attributes on an element, the HTML tag's past 256 are dropped and the page is
/// read.
#[test]
fn thousands_of_attributes_cost_no_quadratic_time() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let attributes: String = (0..80_000).map(|i| format!(" a{i}=\"1\"")).collect();
    let document = format!(
        "<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\">\
         <w:body><w:p{attributes}><w:r><w:t>Boats stayed in.</w:t></w:r></w:p></w:body></w:document>"
    );
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("[Content_Types].xml", options).unwrap();
    zip.write_all(b"<Types/>").unwrap();
    zip.start_file("word/document.xml", options).unwrap();
    zip.write_all(document.as_bytes()).unwrap();
    let docx = dir.path().join("attributes.docx");
    std::fs::write(&docx, zip.finish().unwrap().into_inner()).unwrap();
    assert_refused(
        &run(&["inspect", arg(&docx)]),
        &format!(
            "{}: an element of part word/document.xml has 80000 attributes, over the limit of 256",
            arg(&docx)
        ),
    );
    let html = dir.path().join("attributes.html");
    let attributes: String = (0..320_000).map(|i| format!(" a{i}")).collect();
    std::fs::write(
        &html,
        format!(
            "<html><body><p{attributes}>The harbour froze early that winter.</p></body></html>"
        ),
    )
    .unwrap();
    let out = run(&["inspect", arg(&html)]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout
            .contains("[0] The harbour froze early that winter."),
        "{out:?}"
    );
    assert!(out.peak_rss_mb < 100.0, "{out:?}");
}

/// Memory per input is bounded by a stated multiple of its size (README, "Bad inputs"): reading
/// one document holds at most 64 MB plus 150 times the bytes it parses (for a container, what
/// its parts unpack to), comparing it with a short one at most 64 MB plus 250 times. Checked on
/// the worst shapes known, about 1 MB each: one-letter paragraphs (the most nodes and sentences
/// a byte can make), the smallest HTML paragraphs, one-word sentences, and an EPUB chapter of
/// the smallest paragraphs (issue 44: the bound holds for the unpacked text).
#[test]
fn memory_stays_within_its_stated_multiple_of_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let small = a_small_text(dir.path());
    let chapter = format!(
        r#"<html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head><body>{}</body></html>"#,
        "<p>a</p>".repeat(130_000)
    );
    let epub = {
        use std::io::Write;
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default();
        for (name, text) in [
            ("mimetype", "application/epub+zip"),
            (
                "META-INF/container.xml",
                r#"<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"#,
            ),
            (
                "book.opf",
                r#"<package xmlns="http://www.idpf.org/2007/opf"><manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c"/></spine></package>"#,
            ),
            ("c.xhtml", &chapter),
        ] {
            zip.start_file(name, options).unwrap();
            zip.write_all(text.as_bytes()).unwrap();
        }
        zip.finish().unwrap().into_inner()
    };
    let shapes: [(&str, Vec<u8>, usize); 4] = [
        ("letters.txt", "a\n\n".repeat(340_000).into_bytes(), 0),
        (
            "paragraphs.html",
            format!(
                "<html><body>{}</body></html>",
                "<p>a b.</p>".repeat(100_000)
            )
            .into_bytes(),
            0,
        ),
        ("sentences.txt", "A b. ".repeat(200_000).into_bytes(), 0),
        ("chapter.epub", epub, chapter.len()),
    ];
    for (name, bytes, unpacked) in shapes {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        let parsed_mb = bytes.len().max(unpacked) as f64 / (1024.0 * 1024.0);
        for (args, multiple) in [
            (vec!["inspect", arg(&path)], 150.0),
            (vec!["compare", "-q", arg(&path), arg(&small)], 250.0),
        ] {
            let out = run(&args);
            assert_eq!(out.code, Some(0), "{args:?}: {}", out.stderr);
            assert!(
                out.peak_rss_mb < 64.0 + multiple * parsed_mb,
                "{args:?}: {:.0} MB for {parsed_mb:.2} MB parsed",
                out.peak_rss_mb
            );
        }
    }
}

/// `collection --order FILE` reads its list as every input is read: a FIFO (it blocked for
/// ever) and `/dev/zero` (it grew to 2 GB and ended "out of memory") are refused by their type
/// before a byte is read, under an address-space limit of 1 GB.
#[test]
fn an_order_list_that_is_a_fifo_or_a_device_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = fifo_in(dir.path());
    let folder = dir.path().join("documents");
    std::fs::create_dir(&folder).unwrap();
    a_small_text(&folder);
    for (list, what) in [
        (arg(&fifo), "is a FIFO (named pipe), not a regular file"),
        ("/dev/zero", "is a character device, not a regular file"),
    ] {
        let out = common::simdoc_bounded_in_memory(
            &["collection", arg(&folder), "--order", list],
            TIME_LIMIT,
            1024,
        );
        assert_eq!(out.code, Some(2), "{list}: {out:?}");
        assert!(
            out.stderr.contains(&format!(
                "{list}: not name, mtime or a readable list of files: {what}"
            )),
            "{out:?}"
        );
        assert!(out.peak_rss_mb < 100.0, "{out:?}");
    }
}
