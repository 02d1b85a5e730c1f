//! One document against many sources, measured where the truth is known (EVALUATION.md, "One
//! document against many sources"). Run:
//!
//! ```text
//! SIMDOC_DATA=../shared/data cargo run --release --no-default-features --example eval_sources
//! ```
//!
//! Three sets, each a pool of sources and documents of which some are contained in a source of
//! the pool ("contained") and the rest in none ("clean"):
//! - **bbc**: BBC summaries (sentences copied out of their article) against the articles. Every
//!   fifth summary is a document; of those, the ones whose article is held out of the pool
//!   (every tenth summary, offset 5) are clean. Byte-identical articles (the set has 98 groups)
//!   are all the summary's own source: a "clean" summary whose article has a twin in the pool
//!   is contained in the twin.
//! - **article-html**: the hand-made article bodies against the HTML pages; pages of odd
//!   position (in the ground truth's key order) are held out, so their bodies are clean.
//! - **pan**: reworded reuse from PAN's held-out sentence pairs (as in `eval_containment`):
//!   groups of ten plagiarised pairs give a source (the ten originals) and a *reworded* copy;
//!   groups of ten non-plagiarised pairs (a sentence from near the original in the same book)
//!   give a source and a clean document on the same topic; a *partial* copy takes three
//!   reworded sentences of one group and seven non-plagiarised rewrites of another, and is
//!   contained in the first group's source only.
//!
//! The sets are built in `support/truth_sets.rs` (their held-out parts; collection mode on the
//! same sets is `eval_collection -- presets`). For every method and preset of `simdoc sources`,
//! and a containment cut c (a source "holds" the document when its containment reaches c):
//! *attributed* is the share of contained documents whose top
//! source is their own and reaches c; *false pairs* counts (document, source) pairs at or above
//! c where the source is not the document's own, over all documents; *clean flagged* counts
//! clean documents with any source at or above c. `-- NAME` runs one set (bbc, article-html,
//! pan); `PRESET=NAME` runs one preset; with `SHOW_MISSES=1` every contained document whose top
//! source is not its own is listed on standard error with its three first sources; with
//! `SHOW_FLAGS=1` every clean document with a source is, with the sentences matched in it.

// Shared with `eval_collection`, which also uses the tuning parts.
#[allow(dead_code)]
#[path = "support/truth_sets.rs"]
mod truth_sets;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use simdoc::compare::CompareOptions;
use simdoc::compare::Preset;
use simdoc::model::ReferenceModel;
use simdoc::similarity::Method;
use simdoc::sources::SourceIndex;
use truth_sets::Part;

const CUTS: [f64; 3] = [0.1, 0.25, 0.5];

/// A document's sources as (source, containment), ranked.
type Ranked = Vec<(usize, f64)>;

fn main() {
    let Some(data) = std::env::var_os("SIMDOC_DATA").map(PathBuf::from) else {
        eprintln!("set SIMDOC_DATA to the shared data folder");
        std::process::exit(2);
    };
    // `-- NAME` runs one set only.
    let only = std::env::args().nth(1);
    // `PRESET=NAME` runs one preset only.
    let only_preset = std::env::var("PRESET").ok();
    let sets = truth_sets::sets(&data, Part::HeldOut, only.as_deref());
    let model = ReferenceModel::embedded();
    let methods = Method::ALL;
    for set in &sets {
        let contained = set.documents.iter().filter(|d| !d.1.is_empty()).count();
        let mut kinds: Vec<&str> = Vec::new();
        for (_, own, kind) in &set.documents {
            if !own.is_empty() && !kinds.contains(kind) {
                kinds.push(kind);
            }
        }
        println!(
            "\n{}: {} sources; {} documents, {contained} contained, {} clean",
            set.name,
            set.sources.len(),
            set.documents.len(),
            set.documents.len() - contained
        );
        print!("| method | preset |");
        for c in CUTS {
            print!(
                " c = {c}: attributed ({}) / false pairs / clean flagged |",
                kinds.join(" · ")
            );
        }
        println!();
        println!("|---|---|{}", "---|".repeat(CUTS.len()));
        for method in methods {
            for &simdoc::compare::NamedPreset {
                name: preset_name,
                preset,
                ..
            } in Preset::all()
            {
                if only_preset.as_ref().is_some_and(|only| only != preset_name) {
                    continue;
                }
                // As `simdoc sources --preset NAME` compares: the preset's refining, rules,
                // floor and chance search (the documents preset's matches judged against
                // chance over every source searched).
                let options = CompareOptions::for_preset(&preset, method);
                let never = AtomicBool::new(false);
                let mut index = SourceIndex::new(&set.sources, model, &options);
                // Per document: (source, containment) ranked, and its own sources.
                let show_flags = std::env::var_os("SHOW_FLAGS").is_some();
                let results: Vec<(Ranked, &[usize], &str)> = set
                    .documents
                    .iter()
                    .enumerate()
                    .map(|(d, (doc, own, kind))| {
                        let a = index
                            .attribute(doc, model, &preset.thresholds, &never)
                            .expect("not cancelled");
                        if show_flags && own.is_empty() {
                            show_flagged(d, doc, &set.sources, &a);
                        }
                        let ranked = a
                            .sources
                            .iter()
                            .map(|s| (s.source, s.containment))
                            .collect();
                        (ranked, own.as_slice(), *kind)
                    })
                    .collect();
                if std::env::var_os("SHOW_MISSES").is_some() {
                    for (d, (ranked, own, _)) in results.iter().enumerate() {
                        if !own.is_empty() && !ranked.first().is_some_and(|f| own.contains(&f.0)) {
                            eprintln!(
                                "miss {d}: own {own:?}, ranked {:?}",
                                &ranked[..ranked.len().min(3)]
                            );
                        }
                    }
                }
                print!("| {} | {preset_name} |", method.name());
                for c in CUTS {
                    // Per kind of contained document.
                    let attributed: Vec<String> = kinds
                        .iter()
                        .map(|&kind| {
                            let of_kind = results.iter().filter(|r| r.2 == kind && !r.1.is_empty());
                            let total = of_kind.clone().count();
                            let hit = of_kind
                                .filter(|(ranked, own, _)| {
                                    ranked
                                        .first()
                                        .is_some_and(|&(s, x)| x >= c && own.contains(&s))
                                })
                                .count();
                            format!("{:.1}%", 100.0 * hit as f64 / total.max(1) as f64)
                        })
                        .collect();
                    let false_pairs: usize = results
                        .iter()
                        .map(|(ranked, own, _)| {
                            ranked
                                .iter()
                                .filter(|&&(s, x)| x >= c && !own.contains(&s))
                                .count()
                        })
                        .sum();
                    let flagged = results
                        .iter()
                        .filter(|(ranked, own, _)| {
                            own.is_empty() && ranked.iter().any(|&(_, x)| x >= c)
                        })
                        .count();
                    print!(" {} / {false_pairs} / {flagged} |", attributed.join(" · "));
                }
                println!();
            }
        }
    }
}

/// A clean document's matches, on standard error: each source it is found in, with the sentence
/// pairs matched (what flagged it).
fn show_flagged(
    d: usize,
    doc: &simdoc::document::Document,
    sources: &[simdoc::document::Document],
    attribution: &simdoc::sources::Attribution,
) {
    for share in &attribution.sources {
        eprintln!(
            "clean {d}: source {} containment {:.3}",
            share.source, share.containment
        );
        let source = &sources[share.source];
        for m in &share.sentences {
            eprintln!(
                "  sim {:.2}\n    doc: {}\n    src: {}",
                m.sim,
                doc.sentences[m.sentence as usize].text,
                source.sentences[m.source_sentence as usize].text
            );
        }
    }
}
