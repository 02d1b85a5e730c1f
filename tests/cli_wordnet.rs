//! WordNet relations and the learned verdict from the command line: `simdoc model build
//! --wordnet` reads WordNet's dictionary files (CI installs Debian's `wordnet-base`), `simdoc
//! model info --term` lists a word's relations, the wordnet and verdict presets compare and
//! explain, and a model without what a preset needs is refused with the reason.

use crate::common;
use common::{simdoc, text};

use std::path::PathBuf;

/// WordNet's dictionary folder: `$SIMDOC_WORDNET`, else Debian's `/usr/share/wordnet`; the test
/// that reads it fails when it is missing.
fn wordnet_dir() -> PathBuf {
    let dir = std::env::var_os("SIMDOC_WORDNET")
        .map_or_else(|| PathBuf::from("/usr/share/wordnet"), PathBuf::from);
    assert!(
        dir.join("data.noun").is_file(),
        "no WordNet dictionary files in {} (install Debian's wordnet-base, as .ci/run does, or \
         set SIMDOC_WORDNET)",
        dir.display()
    );
    dir
}

/// Runs where the real-data tests run (CI installs `wordnet-base` beside the shared data);
/// elsewhere it shows as ignored, and `--ignored` runs it wherever WordNet is installed.
#[test]
#[cfg_attr(
    not(simdoc_data),
    ignore = "needs WordNet's dictionary files, installed where SIMDOC_DATA is (CI)"
)]
fn model_build_reads_wordnet_and_info_lists_a_words_relations() {
    let wordnet = wordnet_dir();
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.simdoc-model");
    let out = simdoc(&[
        "model",
        "build",
        "--from",
        "embedded",
        "--wordnet",
        wordnet.to_str().unwrap(),
        "-o",
        model.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("WordNet: 82655 lemmas, 268060 related pairs"),
        "{stderr}"
    );
    let out = simdoc(&["model", "info", model.to_str().unwrap(), "--term", "help"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let info = text(&out.stdout);
    assert!(
        info.contains("WordNet 3.0 Copyright 2006 by Princeton University"),
        "{info}"
    );
    assert!(info.contains("WordNet lemma help (noun, verb):"), "{info}");
    assert!(
        info.contains("synonyms: aid, assistance, assistant, supporter"),
        "{info}"
    );
    // The corpus statistics are the embedded model's; its verdict was trained with the
    // relations it had, so a model given new ones has none.
    assert!(info.contains("documents:           6514"), "{info}");
    assert!(info.contains("pair verdict:        none"), "{info}");
    // Built twice by the same command (in two folders), the same bytes.
    let built = |folder: &std::path::Path| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_simdoc"))
            .current_dir(folder)
            .args(["model", "build", "--from", "embedded", "--wordnet"])
            .arg(&wordnet)
            .args(["-o", "m.simdoc-model"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        std::fs::read(folder.join("m.simdoc-model")).unwrap()
    };
    let (first, second) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    assert!(built(first.path()) == built(second.path()));
}

#[test]
fn the_embedded_model_lists_wordnet_relations_and_its_verdict() {
    let out = simdoc(&["model", "info", "--term", "went"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let info = text(&out.stdout);
    assert!(
        info.contains("WordNet lemma go (noun, verb, adj):"),
        "{info}"
    );
    assert!(
        info.contains("pair verdict:        logistic regression over 43 features, threshold 0.43"),
        "{info}"
    );
    assert!(info.contains("trained by simdoc"), "{info}");
}

fn write_pair(dir: &std::path::Path) -> (PathBuf, PathBuf) {
    let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
    std::fs::write(
        &a,
        "The charity helped the victims of the flood. Prices rose sharply in March.",
    )
    .unwrap();
    std::fs::write(
        &b,
        "The charity aided the victims of the flood. A completely different sentence about tea.",
    )
    .unwrap();
    (a, b)
}

#[test]
fn the_wordnet_and_verdict_presets_compare_and_explain_why() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = write_pair(dir.path());
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let out = simdoc(&["compare", a, b, "--preset", "wordnet", "--json-full", "-"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let matches = report["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 1, "{matches:?}");
    // "helped" and "aided" share no stem: WordNet relates them, and the word view says why.
    let words = &matches[0]["words"];
    let helped = words["a"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["word"] == "helped")
        .unwrap_or_else(|| panic!("{words}"));
    assert_eq!(helped["kind"], "related", "{words}");
    assert_eq!(helped["c"], 1.0, "{words}");
    assert_eq!(helped["why"], "synonyms", "{words}");
    assert!(matches[0].get("verdict").is_none());

    let out = simdoc(&["compare", a, b, "--preset", "verdict", "--json", "-"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let matches = report["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 1, "{matches:?}");
    let p = matches[0]["verdict"].as_f64().unwrap();
    assert!((0.45..=1.0).contains(&p), "{p}");
    // The permission is the probability: above this pair's, no match.
    let stricter = format!("{}", (p + 1.0) / 2.0);
    let out = simdoc(&[
        "compare",
        a,
        b,
        "--preset",
        "verdict",
        "--permission",
        &stricter,
        "--json",
        "-",
    ]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["matches"].as_array().unwrap().len(), 0);
}

#[test]
fn a_model_without_wordnet_or_a_verdict_is_refused_by_the_presets_that_need_them() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c.txt");
    std::fs::write(&corpus, "Cats and dogs. Dogs and birds.").unwrap();
    let model = dir.path().join("m.simdoc-model");
    let out = simdoc(&[
        "model",
        "build",
        corpus.to_str().unwrap(),
        "-o",
        model.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (a, b) = write_pair(dir.path());
    for preset in ["wordnet", "verdict"] {
        let out = simdoc(&[
            "compare",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--preset",
            preset,
            "--model",
            model.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            text(&out.stderr).contains("has no WordNet relations"),
            "{}",
            text(&out.stderr)
        );
    }
    // Sentence pairs default to the verdict preset; a model without a verdict falls back to
    // the measured preset, which needs neither, and the summary says which one decided.
    let msrp = dir.path().join("msr_paraphrase_train.txt");
    std::fs::write(
        &msrp,
        "Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n\
         1\t1\t2\tThe cat sat on the mat.\tThe cat sat on the mat!\n\
         0\t3\t4\tThe weather was cold.\tParliament passed the budget.\n",
    )
    .unwrap();
    let pairs = |extra: &[&str]| {
        let mut args = vec![
            "eval",
            "pairs",
            "--format",
            "msrp",
            dir.path().to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = simdoc(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    assert!(pairs(&[]).contains("preset: verdict"));
    let fallback = pairs(&["--model", model.to_str().unwrap()]);
    assert!(fallback.contains("preset: measured"), "{fallback}");
    // The verdict decides pairs of `compare` and `eval pairs`, not the attribution of sources.
    let out = simdoc(&[
        "sources",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--preset",
        "verdict",
    ]);
    // A preset the command does not take: a usage error.
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("use --verdict false"),
        "{}",
        text(&out.stderr)
    );
}

/// `--related-evidence` counts a swapped synonym in the search judged against chance: the pair
/// that says "aided" for "helped" is less likely by chance with it than without; the flag is
/// refused where nothing is judged against chance, and an unknown kind is refused by name.
#[test]
fn related_evidence_counts_a_swapped_synonym_against_chance() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = write_pair(dir.path());
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let e_value = |kinds: &str| -> f64 {
        let out = simdoc(&[
            "compare",
            a,
            b,
            "--related-evidence",
            kinds,
            "--max-e-value",
            "off",
            "--json",
            "-",
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let matches = report["matches"].as_array().unwrap();
        assert_eq!(matches.len(), 1, "{matches:?}");
        matches[0]["e_value"].as_f64().unwrap()
    };
    let (off, synonyms) = (e_value("off"), e_value("synonyms"));
    assert!(synonyms < off, "with synonyms {synonyms}, without {off}");

    let out = simdoc(&[
        "compare",
        a,
        b,
        "--preset",
        "measured",
        "--related-evidence",
        "synonyms",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--related-evidence"),
        "{}",
        text(&out.stderr)
    );
    let out = simdoc(&["compare", a, b, "--related-evidence", "antonyms"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("antonyms"),
        "{}",
        text(&out.stderr)
    );
}
