//! Outputs as transactions (src/write.rs), end to end through the binary, each run under a time
//! limit: a report killed while it is replaced keeps the old one whole, two runs writing the
//! same outputs leave one run's outputs (never a mix), an output that is an input is refused
//! before anything is written, and a rerun replaces a report's folder of pair pages whole.
#![cfg(unix)]

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{BoundedRun, arg, simdoc_bounded};

const TIME_LIMIT: Duration = Duration::from_secs(120);

fn run(args: &[&str]) -> BoundedRun {
    simdoc_bounded(args, TIME_LIMIT)
}

/// Sentences of Wikipedia's "Guinea" (the bundled example, CC BY-SA 3.0): real prose, so the
/// sentence matchers see real words.
/// The collection preset the pair-page tests run: FFP's versions of one story, which pairs the
/// duplicates only.
const VERSIONS: [&str; 2] = ["--preset", "news"];

fn sentences() -> Vec<String> {
    common::format_fixture_source()
        .split(". ")
        .map(str::trim)
        .filter(|s| s.len() > 40 && !s.contains('#') && !s.contains('\n'))
        .map(|s| format!("{s}."))
        .collect()
}

/// A folder of `count` (at most 50) short documents whose names start with `prefix`, documents
/// 2k and 2k+1 the same two sentences, sharing no sentence with the others (so the collection
/// has `count / 2` duplicate pairs, each with a page, under [`VERSIONS`]; the default's judged
/// comparison also pairs two documents sharing a phrase such as "directly elected by the
/// people").
fn collection(dir: &Path, prefix: &str, count: usize) -> PathBuf {
    let sentences = sentences();
    assert!(
        sentences.len() >= count && count <= 50,
        "{}",
        sentences.len()
    );
    let folder = dir.join(prefix);
    std::fs::create_dir_all(&folder).unwrap();
    for i in 0..count {
        let k = i / 2;
        let text = format!("{} {}", sentences[2 * k], sentences[2 * k + 1]);
        std::fs::write(folder.join(format!("{prefix}-{i:03}.txt")), text).unwrap();
    }
    folder
}

/// SIGKILL while a large JSON report replaces an existing one: the file is the old report or
/// the new one, whole, every time (it was left truncated, the old one gone). The first run is
/// killed the moment the report at the path changes at all (the old code truncated it there, and
/// the new one renames the finished report there); the others at fractions of that time.
#[test]
fn a_report_killed_while_it_is_replaced_keeps_the_old_one_whole() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.txt");
    let sentence = "The harbour froze early that winter and the boats stayed in. ";
    std::fs::write(&big, sentence.repeat(20_000)).unwrap();
    let report = dir.path().join("report.json");
    let old = "{\"old\": \"report\"}\n";
    let start_run = || {
        std::fs::write(&report, old).unwrap();
        std::process::Command::new(env!("CARGO_BIN_EXE_simdoc"))
            .args([
                "compare",
                "-q",
                arg(&big),
                arg(&big),
                "--json",
                arg(&report),
            ])
            .spawn()
            .unwrap()
    };
    let check = |when: &str| {
        let text = std::fs::read_to_string(&report).unwrap();
        if text != old {
            let value: serde_json::Value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("killed {when}: a torn report ({e})"));
            assert!(value["figures"].is_object(), "killed {when}");
        }
    };
    // Killed as soon as the report's path shows anything new.
    let started = std::time::Instant::now();
    let mut child = start_run();
    let changed = loop {
        let now = std::fs::metadata(&report).map(|m| m.len()).ok();
        if now != Some(old.len() as u64) {
            break started.elapsed();
        }
        if child.try_wait().unwrap().is_some() {
            break started.elapsed();
        }
        assert!(
            started.elapsed() < TIME_LIMIT,
            "the run never wrote its report"
        );
        std::thread::sleep(Duration::from_micros(200));
    };
    let _ = child.kill();
    child.wait().unwrap();
    check("as the report changed");
    // Killed while it works: the old report stays.
    for fraction in [0.4, 0.7, 0.9] {
        let mut child = start_run();
        std::thread::sleep(changed.mul_f64(fraction));
        let _ = child.kill();
        child.wait().unwrap();
        check(&format!("at {fraction} of the time"));
    }
    // What a killed run leaves beside the report: at most its hidden temporary file.
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            ["big.txt", "report.json"].contains(&name.as_str())
                || (name.starts_with(".report.json.") && name.ends_with(".partial")),
            "{name}"
        );
    }
}

/// Two collections reported to the same JSON, CSV and HTML at once, several times: both runs
/// exit 0, and what is left is one run's report in all three files and its pages (the JSON was
/// left invalid, the CSV mixed both collections, the HTML linked the other run's pages).
#[test]
fn two_runs_writing_the_same_outputs_leave_one_runs_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let first = collection(dir.path(), "alpha", 40);
    let second = collection(dir.path(), "beta", 50);
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let (json, csv, html) = (out.join("r.json"), out.join("r.csv"), out.join("r.html"));
    for round in 0..4 {
        let runs: Vec<_> = [&first, &second]
            .into_iter()
            .map(|folder| {
                let args: Vec<String> = [
                    "collection",
                    arg(folder),
                    "--json",
                    arg(&json),
                    "--csv",
                    arg(&csv),
                    "--html",
                    arg(&html),
                ]
                .map(String::from)
                .to_vec();
                std::thread::spawn(move || {
                    let args: Vec<&str> = args.iter().map(String::as_str).collect();
                    run(&args)
                })
            })
            .collect();
        for handle in runs {
            let done = handle.join().unwrap();
            assert_eq!(done.code, Some(0), "round {round}: {done:?}");
        }
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap())
                .unwrap_or_else(|e| panic!("round {round}: the JSON is torn ({e})"));
        let documents = report["documents"].as_array().unwrap();
        let winner = if documents.len() == 40 {
            "alpha"
        } else {
            "beta"
        };
        let loser = if winner == "alpha" { "beta" } else { "alpha" };
        assert!(
            documents
                .iter()
                .all(|d| d.as_str().unwrap().contains(winner)),
            "round {round}: the JSON mixes both runs"
        );
        let csv_text = std::fs::read_to_string(&csv).unwrap();
        assert!(
            csv_text.contains(winner) && !csv_text.contains(loser),
            "round {round}: the CSV is not the JSON's run"
        );
        let html_text = std::fs::read_to_string(&html).unwrap();
        assert!(!html_text.contains(loser), "round {round}: the HTML");
        let pages = out.join("r-pairs");
        let pairs = report["pairs"].as_array().unwrap().len();
        assert_eq!(
            std::fs::read_dir(&pages).unwrap().count(),
            pairs,
            "round {round}: one page per pair of the JSON's run"
        );
        for page in std::fs::read_dir(&pages).unwrap() {
            let text = std::fs::read_to_string(page.unwrap().path()).unwrap();
            assert!(
                !text.contains(loser),
                "round {round}: a page of the other run"
            );
        }
    }
}

/// An output path that names an input (directly, or through a link) is refused before
/// anything is written: the document stays as it was (it was overwritten, exit 0).
#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().unwrap();
    let essay = dir.path().join("essay.txt");
    let source = dir.path().join("copy.txt");
    let text = "The harbour froze early that winter. Boats stayed in for weeks.";
    std::fs::write(&essay, text).unwrap();
    std::fs::write(&source, text).unwrap();
    let link = dir.path().join("link.svg");
    std::os::unix::fs::symlink(&essay, &link).unwrap();
    for (flag, target) in [
        ("--json", &essay),
        ("--csv", &source),
        ("--html", &essay),
        ("--dotplot", &link),
    ] {
        let out = run(&["compare", arg(&essay), arg(&source), flag, arg(target)]);
        assert_eq!(out.code, Some(1), "{flag}: {out:?}");
        assert_eq!(
            out.stderr,
            format!(
                "simdoc: {}: is one of the inputs; writing there would overwrite it (choose \
                 another output)\n",
                arg(target)
            )
        );
    }
    // A collection's output inside the folder it reads.
    let out = run(&["collection", arg(dir.path()), "--csv", arg(&source)]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stderr.contains("is one of the inputs"), "{out:?}");
    let out = run(&["sources", arg(&essay), arg(&source), "--json", arg(&source)]);
    assert_eq!(out.code, Some(1), "{out:?}");
    for file in [&essay, &source] {
        assert_eq!(std::fs::read_to_string(file).unwrap(), text);
    }
    // Two outputs in one file.
    let report = dir.path().join("report.json");
    let out = run(&[
        "compare",
        arg(&essay),
        arg(&source),
        "--json",
        arg(&report),
        "--csv",
        arg(&report),
    ]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stderr.contains("is named for two outputs"), "{out:?}");
}

/// A rerun into the same report replaces its folder of pair pages whole: no page of the earlier
/// run (with other documents' full text) is left behind; a folder holding anything else is not
/// replaced.
#[test]
fn a_rerun_replaces_the_pair_pages_whole() {
    let dir = tempfile::tempdir().unwrap();
    let many = collection(dir.path(), "many", 8);
    let few = collection(dir.path(), "few", 2);
    let html = dir.path().join("report.html");
    let pages = dir.path().join("report-pairs");
    let out = run(&[
        "collection",
        arg(&many),
        VERSIONS[0],
        VERSIONS[1],
        "--html",
        arg(&html),
    ]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(std::fs::read_dir(&pages).unwrap().count(), 4);
    let out = run(&[
        "collection",
        arg(&few),
        VERSIONS[0],
        VERSIONS[1],
        "--html",
        arg(&html),
    ]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let left: Vec<String> = std::fs::read_dir(&pages)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["1.html"]);
    let page = std::fs::read_to_string(pages.join("1.html")).unwrap();
    assert!(
        page.contains("few-000") && !page.contains("many-"),
        "{page}"
    );
    // A run without pairs leaves no folder of pages.
    let alone = dir.path().join("alone");
    std::fs::create_dir(&alone).unwrap();
    std::fs::write(
        alone.join("one.txt"),
        "A single document has no pair at all.",
    )
    .unwrap();
    let out = run(&[
        "collection",
        arg(&alone),
        VERSIONS[0],
        VERSIONS[1],
        "--html",
        arg(&html),
    ]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!pages.exists());
    // Someone's own file in the folder: the run is refused, the file kept.
    std::fs::create_dir(&pages).unwrap();
    std::fs::write(pages.join("notes.txt"), "mine").unwrap();
    let out = run(&[
        "collection",
        arg(&few),
        VERSIONS[0],
        VERSIONS[1],
        "--html",
        arg(&html),
    ]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stderr
            .contains("holds notes.txt, which simdoc did not write"),
        "{out:?}"
    );
    assert!(pages.join("notes.txt").exists());
}
