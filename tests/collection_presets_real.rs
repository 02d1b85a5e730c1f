//! The collection presets on small real sets (EVALUATION.md, "Collection presets", measures
//! them on the full ones): the teacher preset finds reworded reuse of a source that the papers'
//! defaults miss, and keeps to verbatim reuse on BBC summaries; the news preset groups the
//! versions of a story and nothing else.

use crate::common;

use std::path::Path;

use simdoc::eval::Format;

/// `simdoc collection` with `args` and JSON out: the submission-source pairs as (source,
/// submission) file names, sorted, and how many submission-submission pairs there were; with no
/// source marked, every pair as (a, b) file names, sorted.
fn run(args: &[&str]) -> (Vec<(String, String)>, usize) {
    let dir = tempfile::tempdir().expect("temp dir");
    let json = dir.path().join("out.json");
    let json_arg = json.display().to_string();
    let mut all = vec!["collection", "--json", &json_arg, "--show", "0"];
    all.extend(args);
    let output = common::simdoc(&all);
    assert!(output.status.success(), "{}", common::text(&output.stderr));
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("valid json");
    let names: Vec<String> = value["documents"]
        .as_array()
        .expect("documents")
        .iter()
        .map(|d| {
            let path = d.as_str().unwrap_or_default();
            path.rsplit('/').next().unwrap_or_default().to_string()
        })
        .collect();
    let name = |v: &serde_json::Value| names[v.as_u64().expect("an index") as usize].clone();
    let mut pairs = Vec::new();
    let mut between = 0;
    for pair in value["pairs"].as_array().expect("pairs") {
        match pair["kind"].as_str() {
            Some("submission_submission") => between += 1,
            // Sources contain submissions, or submissions reuse sources.
            Some(_) if pair["relation"] == "reuses" => {
                pairs.push((name(&pair["b"]), name(&pair["a"])))
            }
            _ => pairs.push((name(&pair["a"]), name(&pair["b"]))),
        }
    }
    pairs.sort();
    (pairs, between)
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write");
}

/// Five groups of ten PAN held-out sentence pairs: the originals make `original-K.txt`, their
/// reworded copies `reworded-K.txt` (not `source-K.txt`: a file named SOURCE describes its folder
/// and is left out); five groups of non-plagiarised pairs make `other-K.txt`
/// sources and `clean-K.txt` submissions (same books, not reused).
#[test]
#[cfg_attr(
    not(simdoc_data),
    ignore = "needs SIMDOC_DATA (the shared data folder)"
)]
fn teacher_finds_reworded_reuse_that_the_papers_defaults_miss() {
    let data = common::data_dir();
    let set = Format::Pan
        .load(&data.join("pairs/pan10"), Some("holdout"))
        .expect("PAN holdout");
    let dir = tempfile::tempdir().expect("temp dir");
    let (sources, submissions) = (dir.path().join("sources"), dir.path().join("submissions"));
    std::fs::create_dir_all(&sources).expect("mkdir");
    std::fs::create_dir_all(&submissions).expect("mkdir");
    for (positive, source_name, submission_name) in
        [(true, "original", "reworded"), (false, "other", "clean")]
    {
        let pairs: Vec<_> = set
            .pairs
            .iter()
            .filter(|p| p.positive == positive)
            .collect();
        for (k, group) in pairs.chunks_exact(10).take(5).enumerate() {
            let join = |left: bool| {
                group
                    .iter()
                    .map(|p| {
                        if left {
                            p.left.as_str()
                        } else {
                            p.right.as_str()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("\n\n")
            };
            write(&sources, &format!("{source_name}-{k}.txt"), &join(true));
            write(
                &submissions,
                &format!("{submission_name}-{k}.txt"),
                &join(false),
            );
        }
    }
    let (sources_arg, submissions_arg) = (
        sources.display().to_string(),
        submissions.display().to_string(),
    );
    let folders = ["--sources", &sources_arg, "--", &submissions_arg];
    let expected: Vec<(String, String)> = (0..5)
        .map(|k| (format!("original-{k}.txt"), format!("reworded-{k}.txt")))
        .collect();
    let (teacher, _) = run(&folders);
    assert_eq!(teacher, expected);
    let (paper, _) = run(&[&["--preset", "paper"][..], &folders].concat());
    assert_eq!(paper, vec![]);
}

/// BBC business summaries 1-9 with their articles and three sport articles as sources, five
/// tech articles as further submissions: the teacher preset pairs each summary with its own
/// article and nothing else.
#[test]
#[cfg_attr(
    not(simdoc_data),
    ignore = "needs SIMDOC_DATA (the shared data folder)"
)]
fn teacher_pairs_bbc_summaries_with_their_own_articles_only() {
    let data = common::data_dir();
    let bbc = data.join("documents/bbc-news/bbc");
    let summaries = data.join("documents/bbc-news-summaries/BBC News Summary/Summaries/business");
    let path = |dir: &Path, n: u32| dir.join(format!("{n:03}.txt")).display().to_string();
    let mut sources: Vec<String> = (1..=9).map(|n| path(&bbc.join("business"), n)).collect();
    sources.extend((1..=3).map(|n| path(&bbc.join("sport"), n)));
    let mut submissions: Vec<String> = (1..=9).map(|n| path(&summaries, n)).collect();
    submissions.extend((1..=5).map(|n| path(&bbc.join("tech"), n)));
    let mut args = vec!["--sources"];
    args.extend(sources.iter().map(String::as_str));
    args.push("--");
    args.extend(submissions.iter().map(String::as_str));
    let (pairs, between) = run(&args);
    let expected: Vec<(String, String)> = (1..=9)
        .map(|n| (format!("{n:03}.txt"), format!("{n:03}.txt")))
        .collect();
    assert_eq!(pairs, expected);
    assert_eq!(between, 0);
}

/// Twenty BBC business articles and four versions of the first four (a copy, the last
/// paragraph cut, a paragraph of another story added, every twelfth word deleted): the news
/// preset pairs each version with its story and nothing else.
#[test]
#[cfg_attr(
    not(simdoc_data),
    ignore = "needs SIMDOC_DATA (the shared data folder)"
)]
fn news_pairs_the_versions_of_a_story_only() {
    let data = common::data_dir();
    let business = data.join("documents/bbc-news/bbc/business");
    let dir = tempfile::tempdir().expect("temp dir");
    let read = |n: u32| {
        let bytes = std::fs::read(business.join(format!("{n:03}.txt"))).expect("article");
        String::from_utf8_lossy(&bytes).into_owned()
    };
    for n in 1..=20 {
        write(dir.path(), &format!("{n:03}.txt"), &read(n));
    }
    let paragraphs = |text: &str| -> Vec<String> {
        text.split("\n\n")
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect()
    };
    let second = paragraphs(&read(2));
    let third = paragraphs(&read(3));
    let fourth = read(4);
    write(dir.path(), "v1-copy.txt", &read(1));
    write(
        dir.path(),
        "v2-cut.txt",
        &second[..second.len() - 1].join("\n\n"),
    );
    write(
        dir.path(),
        "v3-added.txt",
        &format!(
            "{}\n\n{}",
            third.join("\n\n"),
            paragraphs(&read(20)).last().expect("a paragraph")
        ),
    );
    let deleted: String = paragraphs(&fourth)
        .iter()
        .map(|p| {
            p.split_whitespace()
                .enumerate()
                .filter(|(i, _)| (i + 1) % 12 != 0)
                .map(|(_, w)| w)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n\n");
    write(dir.path(), "v4-deleted.txt", &deleted);
    let folder = dir.path().display().to_string();
    // No sources marked: pairs in any direction, read unordered.
    let (pairs, _) = run(&["--preset", "news", &folder]);
    let mut pairs: Vec<(String, String)> = pairs
        .into_iter()
        .map(|(a, b)| if a < b { (a, b) } else { (b, a) })
        .collect();
    pairs.sort();
    let expected: Vec<(String, String)> = [
        ("001.txt", "v1-copy.txt"),
        ("002.txt", "v2-cut.txt"),
        ("003.txt", "v3-added.txt"),
        ("004.txt", "v4-deleted.txt"),
    ]
    .iter()
    .map(|&(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(pairs, expected);
}
