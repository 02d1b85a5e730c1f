//! The fuzzy collection mode judged against chance (`--judge-chance`, or a matching preset that
//! judges): its pairs are decided by the comparison `simdoc compare` makes, so a planted copy is
//! reported with `compare`'s containment, and unrelated articles sharing common sentences are
//! not (disambiguation pages' "... may refer to:"); counted by EQ sentences, the same run
//! reports hundreds of such pairs.

use std::path::Path;

use super::common;

/// The articles of enwiki's wiki_42 (59), each its title line and body.
fn articles(data: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(data.join("reference/enwiki-2015/text/AA/wiki_42"))
        .expect("wiki_42");
    text.split("<doc ")
        .skip(1)
        .filter_map(|article| {
            article
                .split_once('\n')
                .and_then(|(_, rest)| rest.split("</doc>").next())
                .map(str::to_string)
        })
        .collect()
}

/// The pairs of a collection run's JSON as (file name a, file name b, relation, [a in b, b in
/// a]).
fn pairs(report: &serde_json::Value) -> Vec<(String, String, String, [f64; 2])> {
    let names: Vec<String> = report["documents"]
        .as_array()
        .expect("documents")
        .iter()
        .map(|d| {
            let name = d.as_str().expect("a document's name");
            // The file's name: the report names documents by the path given.
            Path::new(name)
                .file_name()
                .map_or(name.to_string(), |f| f.to_string_lossy().into_owned())
        })
        .collect();
    report["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .map(|p| {
            let name = |side: &str| names[p[side].as_u64().expect("position") as usize].clone();
            let containment = &p["evidence"]["containment"];
            (
                name("a"),
                name("b"),
                p["relation"].as_str().expect("relation").to_string(),
                [0, 1].map(|k| containment[k].as_f64().unwrap_or(f64::NAN)),
            )
        })
        .collect()
}

fn collection(dir: &Path, flags: &[&str]) -> serde_json::Value {
    let mut args = vec!["collection", common::arg(dir), "--method", "fuzzy"];
    args.extend_from_slice(flags);
    let out = dir.with_extension("json");
    args.extend_from_slice(&["--json", common::arg(&out)]);
    let run = common::simdoc(&args);
    assert!(run.status.success(), "{}", common::text(&run.stderr));
    serde_json::from_str(&std::fs::read_to_string(&out).expect("the report")).expect("JSON")
}

#[test]
#[cfg_attr(
    not(simdoc_data),
    ignore = "needs SIMDOC_DATA (the shared data folder)"
)]
fn a_judged_collection_reports_the_planted_copy_with_compares_containment_and_nothing_else() {
    let data = common::data_dir();
    let articles = articles(&data);
    assert!(articles.len() > 50, "{} articles", articles.len());
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path().join("articles");
    std::fs::create_dir(&dir).expect("folder");
    // Four sentences of the first article copied into the middle of the second.
    let source = &articles[0];
    let copied: Vec<&str> = source
        .split_inclusive(". ")
        .filter(|s| s.split_whitespace().count() >= 8)
        .take(4)
        .collect();
    assert_eq!(copied.len(), 4, "{source}");
    let host = &articles[1];
    let middle = host.len() / 2;
    let cut = host[middle..]
        .find(". ")
        .map_or(host.len(), |k| middle + k + 2);
    let planted = format!(
        "{}\n\n{}\n\n{}",
        &host[..cut],
        copied.concat(),
        &host[cut..]
    );
    for (k, article) in articles.iter().enumerate().take(40) {
        let text = if k == 1 { &planted } else { article };
        std::fs::write(dir.join(format!("article{k:02}.txt")), text).expect("write");
    }

    let judged = pairs(&collection(
        &dir,
        &["--matching-preset", "documents", "--min-resemblance", "0"],
    ));
    let planted = |(a, b, _, _): &(String, String, String, [f64; 2])| {
        let mut names = [a.as_str(), b.as_str()];
        names.sort_unstable();
        names == ["article00.txt", "article01.txt"]
    };
    assert!(judged.iter().any(planted), "{judged:?}");
    // Wikipedia's own reuse between related articles (the Comoros articles share the CIA World
    // Factbook's text) is reuse too; what is judged away is the chance of common sentences.
    assert!(judged.len() <= 8, "{judged:?}");

    // The same pair, the same figures: `simdoc compare` under the same preset, for every pair.
    for (a, b, _, containment) in &judged {
        let compared = common::json_of(&[
            "compare",
            common::arg(&dir.join(a)),
            common::arg(&dir.join(b)),
            "--preset",
            "documents",
            "--json",
            "-",
        ]);
        let figures = &compared["figures"]["containment"];
        for side in 0..2 {
            let expected = figures[side].as_f64().expect("containment");
            assert!(
                (containment[side] - expected).abs() < 1e-9,
                "{a} and {b}: collection {containment:?}, compare {figures}"
            );
        }
    }

    // Counted by EQ sentences at the same Sims (`--judge-chance false`), unrelated articles
    // sharing a common sentence make pairs by the hundred: the flag changes what is reported.
    let counted = pairs(&collection(
        &dir,
        &[
            "--matching-preset",
            "documents",
            "--min-resemblance",
            "0",
            "--judge-chance",
            "false",
        ],
    ));
    // (303 pairs when written, against 5 judged: README's "hundreds".)
    assert!(
        counted.len() >= 100 && counted.len() > 10 * judged.len(),
        "{counted:?}"
    );
    // And `--judge-chance true` over a preset that counts (the measured one) judges.
    let measured_judged = pairs(&collection(
        &dir,
        &[
            "--matching-preset",
            "measured",
            "--min-resemblance",
            "0",
            "--judge-chance",
            "true",
        ],
    ));
    let measured_counted = pairs(&collection(
        &dir,
        &["--matching-preset", "measured", "--min-resemblance", "0"],
    ));
    assert!(measured_judged.iter().any(planted), "{measured_judged:?}");
    assert!(
        10 * measured_judged.len() < measured_counted.len(),
        "judged {measured_judged:?}, counted {measured_counted:?}"
    );
}
