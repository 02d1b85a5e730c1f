//! `simdoc sources` on real data: BBC business summaries (sentences copied out of their article)
//! against all 510 business articles.

use crate::common;

/// Per summary: counted sentences, then the first two sources holding evidence of it, with
/// their containment (to four places), judged against chance (the default). Summary 007's
/// article has a byte-identical twin (253), which ties and ranks second; a second source is
/// another article on the same story (003's 127 shares 43% of it), and none where no other
/// article holds evidence (001, 009). Scored by Sims alone, every summary had a second source,
/// at 6-41%.
/// A summary's number, its counted sentences and its first sources.
type Expected = (u32, usize, &'static [(&'static str, f64)]);

const EXPECTED: [Expected; 9] = [
    (1, 8, &[("001.txt", 1.0)]),
    (2, 6, &[("002.txt", 1.0), ("328.txt", 0.1955)]),
    (3, 5, &[("003.txt", 1.0), ("127.txt", 0.4279)]),
    (4, 8, &[("004.txt", 1.0), ("474.txt", 0.0756)]),
    (5, 5, &[("005.txt", 1.0), ("435.txt", 0.0923)]),
    (6, 4, &[("006.txt", 1.0), ("044.txt", 0.3078)]),
    (7, 6, &[("007.txt", 1.0), ("253.txt", 1.0)]),
    (8, 6, &[("008.txt", 1.0), ("016.txt", 0.0745)]),
    (9, 5, &[("009.txt", 1.0)]),
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
            .filter(|s| s["containment"].as_f64().is_some_and(|c| c > 0.0))
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
