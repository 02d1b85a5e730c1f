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
//! First every collection detector at its paper's defaults, with the pool marked as sources
//! (as `simdoc collection --sources` runs them); then `simdoc sources` for every method and
//! preset. For the latter, and a containment cut c (a source "holds" the document when
//! its containment reaches c): *attributed* is the share of contained documents whose top
//! source is their own and reaches c; *false pairs* counts (document, source) pairs at or above
//! c where the source is not the document's own, over all documents; *clean flagged* counts
//! clean documents with any source at or above c. `-- NAME` runs one set (bbc, article-html,
//! pan); with `SHOW_MISSES=1` every contained document whose top source is not its own is listed
//! on standard error with its three first sources.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use simdoc::collection::roles::RoledPairs;
use simdoc::collection::{self, Collection, Normaliser, without_job};
use simdoc::compare::{CompareOptions, DEFAULT_FLOOR};
use simdoc::document::{self, Document, SourceFormat, parse_text};
use simdoc::eval::Format;
use simdoc::model::ReferenceModel;
use simdoc::similarity::{Method, Preset};
use simdoc::sources::SourceIndex;

const CUTS: [f64; 3] = [0.1, 0.25, 0.5];
const CATEGORIES: [&str; 5] = ["business", "entertainment", "politics", "sport", "tech"];

/// A document's sources as (source, containment), ranked.
type Ranked = Vec<(usize, f64)>;

/// A pool of sources and documents with the sources each is contained in (empty: clean).
struct Set {
    name: &'static str,
    sources: Vec<Document>,
    /// Each document, the sources it is contained in (empty: clean) and how it was made.
    documents: Vec<(Document, Vec<usize>, &'static str)>,
}

fn main() {
    let Some(data) = std::env::var_os("SIMDOC_DATA").map(PathBuf::from) else {
        eprintln!("set SIMDOC_DATA to the shared data folder");
        std::process::exit(2);
    };
    // `-- NAME` runs one set only.
    let only = std::env::args().nth(1);
    let sets: Vec<Set> = [
        ("bbc", bbc as fn(&Path) -> Set),
        ("article-html", article_html),
        ("pan", pan),
    ]
    .into_iter()
    .filter(|(name, _)| only.as_deref().is_none_or(|o| o == *name))
    .map(|(_, load)| load(&data))
    .collect();
    let model = ReferenceModel::embedded();
    let methods = Method::ALL;
    for set in &sets {
        collection_detectors(set);
    }
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
            for (preset_name, preset) in Preset::NAMED {
                let options = CompareOptions {
                    method,
                    floor: DEFAULT_FLOOR.min(preset.thresholds.permission),
                    refine: preset.refine,
                    rules: preset.rules,
                    ..CompareOptions::default()
                };
                let never = AtomicBool::new(false);
                let mut index = SourceIndex::new(&set.sources, model, &options);
                // Per document: (source, containment) ranked, and its own sources.
                let results: Vec<(Ranked, &[usize], &str)> = set
                    .documents
                    .iter()
                    .map(|(doc, own, kind)| {
                        let a = index
                            .attribute(doc, model, &preset.thresholds, &never)
                            .expect("not cancelled");
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

/// Collection mode with the pool marked as sources (`simdoc collection --sources`): every
/// detector at its paper's defaults over the sources (first in the stream) and the documents.
/// *Attributed*: contained documents paired with one of their own sources; *false pairs*:
/// submission-source pairs with another source; *clean flagged*: clean documents in any
/// submission-source pair; *between submissions*: submission-submission pairs.
fn collection_detectors(set: &Set) {
    let mut documents: Vec<Document> = set.sources.clone();
    documents.extend(set.documents.iter().map(|d| d.0.clone()));
    let names: Vec<String> = (0..documents.len()).map(|i| i.to_string()).collect();
    let is_source: Vec<bool> = (0..documents.len())
        .map(|i| i < set.sources.len())
        .collect();
    let collection =
        without_job(|job| Collection::from_documents(names, &documents, Normaliser::Refine, job))
            .expect("not cancelled");
    let contained = set.documents.iter().filter(|d| !d.1.is_empty()).count();
    println!(
        "\n{} in collection mode ({} sources marked, {} submissions):",
        set.name,
        set.sources.len(),
        set.documents.len()
    );
    println!("| detector | attributed | false pairs | clean flagged | between submissions |");
    println!("|---|---|---|---|---|");
    for method in collection::Method::all_defaults() {
        let detection = without_job(|job| method.detect(&collection, job)).expect("not cancelled");
        let roled = RoledPairs::split(&detection.pairs, &is_source);
        let n = set.sources.len();
        // (submission, source) of every submission-source pair.
        let pairs: Vec<(usize, usize)> = roled
            .submission_source
            .iter()
            .map(|p| {
                if p.a < n {
                    (p.b - n, p.a)
                } else {
                    (p.a - n, p.b)
                }
            })
            .collect();
        let own = |d: usize, s: usize| set.documents[d].1.contains(&s);
        let attributed = (0..set.documents.len())
            .filter(|&d| {
                !set.documents[d].1.is_empty() && pairs.iter().any(|&(x, s)| x == d && own(d, s))
            })
            .count();
        let false_pairs = pairs.iter().filter(|&&(d, s)| !own(d, s)).count();
        let flagged = (0..set.documents.len())
            .filter(|&d| set.documents[d].1.is_empty() && pairs.iter().any(|&(x, _)| x == d))
            .count();
        println!(
            "| {} | {:.1}% | {false_pairs} | {flagged} | {} |",
            method.name(),
            100.0 * attributed as f64 / contained.max(1) as f64,
            roled.submission_submission.len()
        );
    }
}

/// The BBC summaries' text joins sentences with no space after the full stop; one is put back
/// so that the splitter sees the sentences the summary was made of (as `eval_collection` does).
fn separate_sentences(text: &str) -> String {
    let mut fixed = String::with_capacity(text.len() + 64);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        fixed.push(c);
        if c == '.' && chars.peek().is_some_and(|n| n.is_uppercase()) {
            fixed.push(' ');
        }
    }
    fixed
}

fn bbc(data: &Path) -> Set {
    let articles_dir = data.join("documents/bbc-news/bbc");
    let summaries_dir = data.join("documents/bbc-news-summaries/BBC News Summary/Summaries");
    let mut names = Vec::new();
    for cat in CATEGORIES {
        let mut list: Vec<String> = std::fs::read_dir(articles_dir.join(cat))
            .expect("bbc category folder")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".txt"))
            .collect();
        list.sort();
        names.extend(list.into_iter().map(|n| format!("{cat}/{n}")));
    }
    let bytes: Vec<Vec<u8>> = names
        .iter()
        .map(|n| std::fs::read(articles_dir.join(n)).expect("article"))
        .collect();
    let held_out = |i: usize| i % 10 == 5;
    let pool: Vec<usize> = (0..names.len()).filter(|&i| !held_out(i)).collect();
    // Pool position of each article text (twins share a text).
    let mut by_text: HashMap<&[u8], Vec<usize>> = HashMap::new();
    for (position, &i) in pool.iter().enumerate() {
        by_text.entry(&bytes[i]).or_default().push(position);
    }
    let sources = pool
        .par_iter()
        .map(|&i| {
            document::parse_bytes(&bytes[i], &articles_dir.join(&names[i]), None)
                .expect("article parses")
        })
        .collect();
    let documents = (0..names.len())
        .filter(|i| i % 5 == 0)
        .collect::<Vec<_>>()
        .par_iter()
        .map(|&i| {
            let text = std::fs::read(summaries_dir.join(&names[i])).expect("summary");
            let text = separate_sentences(&String::from_utf8_lossy(&text));
            let own = by_text
                .get(bytes[i].as_slice())
                .cloned()
                .unwrap_or_default();
            (
                parse_text(&text, "summary", SourceFormat::Text),
                own,
                "summary",
            )
        })
        .collect();
    Set {
        name: "bbc",
        sources,
        documents,
    }
}

fn article_html(data: &Path) -> Set {
    let root = data.join("documents/article-html");
    let truth: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("ground-truth.json")).expect("ground truth"),
    )
    .expect("ground truth is JSON");
    let mut entries: Vec<(String, String)> = truth
        .as_object()
        .expect("an object of pages")
        .iter()
        .map(|(id, v)| (id.clone(), v["articleBody"].as_str().unwrap_or("").into()))
        .collect();
    entries.sort();
    let pool: Vec<&String> = entries.iter().step_by(2).map(|(id, _)| id).collect();
    let sources = pool
        .par_iter()
        .map(|id| {
            let path = root.join("html").join(format!("{id}.html"));
            let bytes = std::fs::read(&path).expect("page");
            document::parse_bytes(&bytes, &path, None).expect("page parses")
        })
        .collect();
    let documents = entries
        .par_iter()
        .enumerate()
        .map(|(i, (_, body))| {
            let own = if i % 2 == 0 { vec![i / 2] } else { Vec::new() };
            let body = body.replace('\n', "\n\n");
            (parse_text(&body, "body", SourceFormat::Text), own, "body")
        })
        .collect();
    Set {
        name: "article-html",
        sources,
        documents,
    }
}

fn pan(data: &Path) -> Set {
    let set = Format::Pan
        .load(&data.join("pairs/pan10"), Some("holdout"))
        .expect("PAN holdout");
    let group = |label: bool| -> Vec<Vec<&simdoc::eval::LabeledPair>> {
        let pairs: Vec<_> = set.pairs.iter().filter(|p| p.positive == label).collect();
        pairs.chunks_exact(10).map(<[_]>::to_vec).collect()
    };
    let (reused, unrelated) = (group(true), group(false));
    let groups = reused.len().min(unrelated.len());
    let text = |pairs: &[&simdoc::eval::LabeledPair], original: bool| -> Document {
        let body = pairs
            .iter()
            .map(|p| if original { &p.left } else { &p.right }.as_str())
            .collect::<Vec<_>>()
            .join("\n\n");
        parse_text(&body, "pan", SourceFormat::Text)
    };
    // Sources: reused group k at 2k, unrelated group k at 2k + 1.
    let mut sources = Vec::new();
    let mut documents = Vec::new();
    for k in 0..groups {
        let (r, u) = (&reused[k], &unrelated[k]);
        sources.push(text(r, true));
        sources.push(text(u, true));
        documents.push((text(r, false), vec![2 * k], "reworded"));
        let other = &unrelated[(k + 1) % groups];
        let partial: Vec<_> = r[..3].iter().chain(&other[3..]).copied().collect();
        documents.push((text(&partial, false), vec![2 * k], "partial"));
        documents.push((text(u, false), Vec::new(), "clean"));
    }
    Set {
        name: "pan",
        sources,
        documents,
    }
}
