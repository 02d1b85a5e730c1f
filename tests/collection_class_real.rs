//! A class, for teachers (issue 29): the BBC business summaries as 95 submissions with five of
//! their articles marked as sources, one summary handed in twice, and a second student who
//! wrote from the same article as the first. The collection report, `simdoc compare` and
//! `simdoc sources` give one pair the same figures under the teacher preset and say which
//! matching made them; text two students share only because both took it from a marked source
//! is discounted in their pair; the identical submissions are worded for a class; the
//! submissions are listed most reused first; and the submissions-by-sources grid is drawn.

use crate::common;

use std::path::{Path, PathBuf};

use common::{arg, json_of, simdoc, text};
use serde_json::Value;

const SOURCES: u32 = 5;
const SUMMARIES: u32 = 95;

/// The class in `dir`: `sources/NNN-article.txt`, `answers/summary-NNN.txt`, plus
/// `answers/copy-of-summary-007.txt` and `answers/second-student-001.txt` (the article's second
/// and third paragraphs and a sentence of the student's own).
fn write_class(data: &Path, dir: &Path) -> (PathBuf, PathBuf) {
    let articles = data.join("documents/bbc-news/bbc/business");
    let summaries = data.join("documents/bbc-news-summaries/BBC News Summary/Summaries/business");
    let (sources, answers) = (dir.join("sources"), dir.join("answers"));
    std::fs::create_dir_all(&sources).unwrap();
    std::fs::create_dir_all(&answers).unwrap();
    for n in 1..=SOURCES {
        std::fs::copy(
            articles.join(format!("{n:03}.txt")),
            sources.join(format!("{n:03}-article.txt")),
        )
        .unwrap();
    }
    for n in 1..=SUMMARIES {
        std::fs::copy(
            summaries.join(format!("{n:03}.txt")),
            answers.join(format!("summary-{n:03}.txt")),
        )
        .unwrap();
    }
    std::fs::copy(
        summaries.join("007.txt"),
        answers.join("copy-of-summary-007.txt"),
    )
    .unwrap();
    let article = std::fs::read_to_string(articles.join("001.txt")).unwrap();
    let paragraphs: Vec<&str> = article.split("\n\n").collect();
    std::fs::write(
        answers.join("second-student-001.txt"),
        format!(
            "{}\n\n{}\n\nIn my view the results show how much the firm still depends on its \
             old media business.\n",
            paragraphs[1], paragraphs[2]
        ),
    )
    .unwrap();
    (sources, answers)
}

fn name_of(report: &Value, d: &Value) -> String {
    report["documents"][d.as_u64().unwrap() as usize]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
#[cfg_attr(
    not(simdoc_data),
    ignore = "needs SIMDOC_DATA (the shared data folder)"
)]
fn a_class_report_agrees_with_the_pair_discounts_the_sources_and_reads_for_a_teacher() {
    let data = common::data_dir();
    let dir = tempfile::tempdir().unwrap();
    let (sources, answers) = write_class(&data, dir.path());
    let (json_path, html_path) = (dir.path().join("class.json"), dir.path().join("class.html"));
    let out = simdoc(&[
        "collection",
        "--sources",
        arg(&sources),
        "--json",
        arg(&json_path),
        "--html",
        arg(&html_path),
        "--",
        arg(&answers),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: Value = serde_json::from_reader(std::fs::File::open(&json_path).unwrap()).unwrap();
    let matching = report["matching"].as_str().unwrap();
    assert!(
        matching.starts_with("the teacher preset's matching (fuzzy-set IR, permission 0.6"),
        "{matching}"
    );
    let pairs = report["pairs"].as_array().unwrap();

    // One pair, one set of figures: source 001 contains summary 001.
    let pair = pairs
        .iter()
        .find(|p| {
            name_of(&report, &p["a"]).ends_with("001-article.txt")
                && name_of(&report, &p["b"]).ends_with("summary-001.txt")
        })
        .expect("the summary is paired with its article");
    let evidence = &pair["evidence"]["containment"];
    let summary = answers.join("summary-001.txt");
    let article = sources.join("001-article.txt");
    let compared = json_of(&[
        "compare",
        arg(&summary),
        arg(&article),
        "--preset",
        "teacher",
        "--json",
        "-",
        "--quiet",
    ]);
    let figures = &compared["figures"]["containment"];
    // compare's [summary in article, article in summary] is the pair's [b in a, a in b].
    assert_eq!(figures[0].as_f64(), evidence[1].as_f64(), "{compared}");
    assert_eq!(figures[1].as_f64(), evidence[0].as_f64(), "{compared}");
    let attributed = json_of(&[
        "sources",
        arg(&summary),
        arg(&sources),
        "--preset",
        "teacher",
        "--json",
        "-",
        "--quiet",
    ]);
    let first = &attributed["sources"][0];
    assert!(first["path"].as_str().unwrap().ends_with("001-article.txt"));
    assert_eq!(first["containment"].as_f64(), evidence[1].as_f64());

    // The two students who wrote from article 001 share only its text: discounted.
    let students = pairs
        .iter()
        .find(|p| {
            let names = [name_of(&report, &p["a"]), name_of(&report, &p["b"])];
            names.iter().any(|n| n.ends_with("summary-001.txt"))
                && names.iter().any(|n| n.ends_with("second-student-001.txt"))
        })
        .expect("the two students of article 001 are a pair");
    assert_eq!(students["kind"], "submission_submission");
    let discount = &students["source_discount"];
    let found = discount["found_in_sources"].as_array().unwrap();
    assert!(found.iter().all(|n| n.as_u64().unwrap() > 0), "{students}");
    for side in 0..2 {
        let before = students["evidence"]["containment"][side].as_f64().unwrap();
        let after = discount["containment"][side].as_f64().unwrap();
        assert!(after < before, "{students}");
    }

    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(html.contains("Evidence: the teacher preset's matching (fuzzy-set IR"));
    // The identical submissions, worded for a class: nobody is "kept".
    assert!(html.contains("<h2>Identical and near-identical documents</h2>"));
    let group = html
        .split("<li>identical submissions: ")
        .nth(1)
        .and_then(|rest| rest.split("</li>").next())
        .expect("a group of identical submissions");
    assert!(
        group.contains("copy-of-summary-007.txt") && group.contains("summary-007.txt"),
        "{group}"
    );
    assert!(!html.contains("(keep)"));
    // The submissions most reused first: the five summaries of the sources (whole in their
    // articles) before any submission with no source reported.
    let table = html
        .split("<h2>Submissions and the sources they reuse</h2>")
        .nth(1)
        .and_then(|rest| rest.split("</table>").next())
        .unwrap();
    let row_of = |name: &str| table.find(&format!("{name}</td>")).unwrap_or(usize::MAX);
    let first_without = table
        .find("no source reported")
        .expect("some reuse no source");
    for n in 1..=SOURCES {
        assert!(
            row_of(&format!("summary-{n:03}.txt")) < first_without,
            "{n}"
        );
    }
    // The grid of 97 submissions by 5 sources is drawn.
    let matrix = html.split("<h2>Matrix</h2>").nth(1).unwrap();
    assert!(!matrix.starts_with("<p class=\"none\">Not drawn"));
    assert_eq!(
        matrix.matches(r#"<tr><th class="r">"#).count(),
        SUMMARIES as usize + 2
    );
}
