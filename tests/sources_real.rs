//! `simdoc sources` on real data: BBC business summaries (sentences copied out of their article)
//! against all 510 business articles.

mod common;

/// Per summary: counted sentences, then the first two sources with their containment (to four
/// places). Summary 007's article has a byte-identical twin (253), which ties and ranks second.
/// A summary's number, its counted sentences and its first two sources.
type Expected = (u32, usize, [(&'static str, f64); 2]);

const EXPECTED: [Expected; 9] = [
    (1, 8, [("001.txt", 1.0), ("177.txt", 0.0578)]),
    (2, 6, [("002.txt", 1.0), ("328.txt", 0.1424)]),
    (3, 5, [("003.txt", 1.0), ("127.txt", 0.383)]),
    (4, 8, [("004.txt", 1.0), ("297.txt", 0.1036)]),
    (5, 5, [("005.txt", 1.0), ("435.txt", 0.1756)]),
    (6, 4, [("006.txt", 1.0), ("044.txt", 0.4096)]),
    (7, 6, [("007.txt", 1.0), ("253.txt", 1.0)]),
    (8, 6, [("008.txt", 1.0), ("065.txt", 0.1478)]),
    (9, 5, [("009.txt", 1.0), ("191.txt", 0.0843)]),
];

#[test]
#[cfg_attr(
    not(simdoc_data),
    ignore = "needs SIMDOC_DATA (the shared data folder)"
)]
fn each_summary_is_found_whole_in_its_own_article_first() {
    let data = common::data_dir();
    let articles = data.join("documents/bbc-news/bbc/business");
    let summaries = data.join("documents/bbc-news-summaries/BBC News Summary/Summaries/business");
    for (number, sentences, top) in EXPECTED {
        let summary = summaries.join(format!("{number:03}.txt"));
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_simdoc"))
            .arg("sources")
            .arg(&summary)
            .arg(&articles)
            .args(["--json", "-"])
            .output()
            .expect("run simdoc");
        assert!(output.status.success(), "{}", common::text(&output.stderr));
        let value: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("JSON on standard output");
        assert_eq!(value["sentences"], sentences, "summary {number}");
        // Every sentence is attributed, each to its own article at Sim 1.
        assert_eq!(value["containment"], 1.0, "summary {number}");
        assert_eq!(value["attributed"], 1.0, "summary {number}");
        for sentence in value["attribution"].as_array().expect("attribution") {
            if sentence["counted"] == true {
                assert!(
                    sentence["source"]
                        .as_str()
                        .is_some_and(|s| s.ends_with(&format!("/{number:03}.txt"))),
                    "summary {number}: {sentence}"
                );
                assert_eq!(sentence["sim"], 1.0, "summary {number}: {sentence}");
            }
        }
        let ranked: Vec<(String, f64)> = value["sources"]
            .as_array()
            .expect("sources")
            .iter()
            .take(2)
            .map(|s| {
                let path = s["path"].as_str().unwrap_or_default();
                let name = path.rsplit('/').next().unwrap_or_default().to_string();
                let containment = s["containment"].as_f64().unwrap_or(f64::NAN);
                (name, (containment * 1e4).round() / 1e4)
            })
            .collect();
        let expected: Vec<(String, f64)> = top.iter().map(|&(n, c)| (n.to_string(), c)).collect();
        assert_eq!(ranked, expected, "summary {number}");
    }
}
