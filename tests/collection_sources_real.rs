//! `simdoc collection --sources` on real data: BBC business summaries (the submissions, each
//! made of sentences copied from its article) with their articles and unrelated sport articles
//! marked as sources, and unrelated tech articles as further submissions.

use crate::common;

use std::path::Path;

/// Every detector, and the summaries (by number) it pairs with their own article.
const EXPECTED: [(&str, &[u32]); 8] = [
    ("codet", &[1, 2, 3, 4, 5, 6, 7, 8, 9]),
    ("dsc", &[6]),
    ("ffp", &[1, 2, 3, 4, 5, 6, 7, 8, 9]),
    ("imatch", &[]),
    ("simhash", &[]),
    ("qsign", &[1, 2, 3, 4, 5, 6, 7, 8, 9]),
    ("roul", &[4, 6, 8, 9]),
    ("fuzzy", &[1, 2, 3, 4, 5, 6, 7, 8, 9]),
];

fn files(dir: &Path, numbers: impl Iterator<Item = u32>) -> Vec<String> {
    numbers
        .map(|n| dir.join(format!("{n:03}.txt")).display().to_string())
        .collect()
}

#[test]
#[cfg_attr(
    not(simdoc_data),
    ignore = "needs SIMDOC_DATA (the shared data folder)"
)]
fn sources_contain_their_submissions_and_never_reuse_them() {
    let data = common::data_dir();
    let bbc = data.join("documents/bbc-news/bbc");
    let summaries = data.join("documents/bbc-news-summaries/BBC News Summary/Summaries/business");
    let articles = files(&bbc.join("business"), 1..=9);
    let mut sources = articles.clone();
    sources.extend(files(&bbc.join("sport"), 1..=3));
    let mut submissions = files(&summaries, 1..=9);
    submissions.extend(files(&bbc.join("tech"), 1..=5));
    let dir = tempfile::tempdir().expect("temp dir");
    let json = dir.path().join("out.json");
    let json_arg = json.display().to_string();
    for (method, expected) in EXPECTED {
        // The sources also come last among the plain paths: the user's word outranks the
        // stream order.
        // The papers' defaults (the presets are `collection_presets_real`).
        let mut args = vec![
            "collection",
            "--preset",
            "paper",
            "--method",
            method,
            "--json",
            &json_arg,
        ];
        args.extend(submissions.iter().map(String::as_str));
        args.extend(sources.iter().map(String::as_str));
        args.push("--sources");
        args.extend(sources.iter().map(String::as_str));
        let output = common::simdoc(&args);
        assert!(
            output.status.success(),
            "{method}: {}",
            common::text(&output.stderr)
        );
        let value: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).expect("json"))
                .expect("valid json");
        let names: Vec<&str> = value["documents"]
            .as_array()
            .expect("documents")
            .iter()
            .filter_map(|d| d.as_str())
            .collect();
        // Each file once, the sources first.
        assert_eq!(names.len(), sources.len() + submissions.len(), "{method}");
        assert_eq!(
            names[..sources.len()],
            sources.iter().map(String::as_str).collect::<Vec<_>>()[..]
        );
        let is_source =
            |d: &serde_json::Value| d.as_u64().is_some_and(|d| (d as usize) < sources.len());
        let mut found = Vec::new();
        let mut between_submissions = 0;
        let mut last_score = f64::INFINITY;
        for pair in value["pairs"].as_array().expect("pairs") {
            let (a, b) = (&pair["a"], &pair["b"]);
            let relation = pair["relation"].as_str().unwrap_or_default();
            let score = pair["score"].as_f64().unwrap_or(f64::NAN);
            assert!(!(is_source(a) && is_source(b)), "{method}: {pair}");
            if is_source(a) || is_source(b) {
                assert_eq!(pair["kind"], "submission_source", "{method}: {pair}");
                // The source is the container: never contained in, nor reusing, a submission.
                match relation {
                    "reuses" => assert!(is_source(b), "{method}: {pair}"),
                    _ => assert!(is_source(a), "{method}: {pair}"),
                }
                // Ranked by score within the submission-source pairs.
                assert!(score <= last_score, "{method}: not ranked at {pair}");
                last_score = score;
                let (source, submission) = (
                    names[a.as_u64().unwrap_or(0) as usize],
                    names[b.as_u64().unwrap_or(0) as usize],
                );
                let number = |path: &str| path.rsplit('/').next().unwrap_or_default().to_string();
                if relation != "reuses"
                    && number(source) == number(submission)
                    && source.contains("/business/")
                    && submission.contains("Summaries")
                {
                    // The evidence: the summary (b) is made of its article's sentences, so
                    // nearly all of it is found there, and only a part of the article in it.
                    let evidence = &pair["evidence"];
                    let share = |i: usize| evidence["containment"][i].as_f64().unwrap_or(-1.0);
                    assert!(share(1) >= 0.95, "{method}: {pair}");
                    assert!(share(0) > 0.2 && share(0) < 0.6, "{method}: {pair}");
                    assert!(
                        !evidence["passages"].as_array().is_none_or(Vec::is_empty),
                        "{method}: {pair}"
                    );
                    found.push(
                        number(submission)
                            .trim_end_matches(".txt")
                            .parse::<u32>()
                            .unwrap_or(0),
                    );
                } else {
                    panic!("{method}: a false pair {source} {relation} {submission}");
                }
            } else {
                assert_eq!(pair["kind"], "submission_submission", "{method}: {pair}");
                between_submissions += 1;
            }
        }
        found.sort_unstable();
        assert_eq!(found, expected, "{method}");
        // The summaries share no text with each other or with the tech articles.
        assert_eq!(between_submissions, 0, "{method}");
    }
}
