//! Accuracy of the collection detectors on the shared data (EVALUATION.md, "Collection
//! detectors"). Run: `SIMDOC_DATA=/work/shared/data cargo run --release --no-default-features
//! --example eval_collection` (add `-- sweep` for the parameter sweeps behind the defaults, or
//! `-- sweep only=qsign` for just the sweep lines whose label starts with `qsign`; `-- presets`
//! for the presets of collection mode chosen on tuning data and measured on held-out data,
//! `support/collection_presets.rs`).
//!
//! 1. documents/bbc-news: 2,225 articles; the truth is the groups of byte-identical files
//!    (hashed here). Precision and recall over duplicate pairs.
//! 2. The BBC summaries mixed into the articles (articles first, then summaries): for each
//!    summary the highest-scoring document said to contain it (recall at 1), and the precision
//!    of every containment decision.
//! 3. documents/lee-news: Pearson correlation of Roul et al.'s LSI cosine with human grades
//!    (`eval_collection/lee_news.rs`).
//!
//! The sweeps are in `eval_collection/sweeps.rs`.

#[path = "support/collection_presets.rs"]
mod collection_presets;
#[path = "support/question_sets.rs"]
mod question_sets;
#[path = "support/truth_sets.rs"]
mod truth_sets;
// This example's own parts (a folder without a `main.rs` is no example of its own).
#[path = "eval_collection/lee_news.rs"]
mod lee_news;
#[path = "eval_collection/sweeps.rs"]
mod sweeps;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use simdoc::collection::{
    Collection, Detection, Method, Normaliser, Relation, codet, dsc, fuzzy, hashing,
    pairs_within_groups, qsign, without_job,
};
use simdoc::document::{self, Document, SourceFormat};
use simdoc::eval::metrics::harmonic_mean as f1;
use simdoc::model::ReferenceModel;

use lee_news::lee_section;
use sweeps::sweeps;
use truth_sets::CATEGORIES;

fn main() {
    let Some(data) = std::env::var_os("SIMDOC_DATA").map(PathBuf::from) else {
        eprintln!("skipped: SIMDOC_DATA not set");
        return;
    };
    if std::env::args().any(|a| a == "presets") {
        collection_presets::run(&data);
        return;
    }
    let sweep = std::env::args().any(|a| a == "sweep");
    let only = std::env::args().find_map(|a| a.strip_prefix("only=").map(str::to_owned));
    let bbc = load_bbc(&data);
    if let Some(prefix) = only {
        let repaired = mixed(&data, &bbc, true);
        sweeps(&bbc, &repaired, &prefix);
        return;
    }
    let methods = variants();
    duplicates_section(&bbc, &methods);
    let repaired = summaries_section(&data, &bbc, &methods, true);
    summaries_section(&data, &bbc, &methods, false);
    lee_section(&data);
    if sweep {
        sweeps(&bbc, &repaired, "");
    }
}

/// The articles with their names and the id of their byte-identity group.
struct Bbc {
    names: Vec<String>,
    documents: Vec<Document>,
    /// Same value = byte-identical files.
    identity: Vec<usize>,
}

fn load_bbc(data: &Path) -> Bbc {
    let mut files = Vec::new();
    for cat in CATEGORIES {
        let dir = data.join("documents/bbc-news/bbc").join(cat);
        let mut list: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "txt"))
            .collect();
        list.sort();
        files.extend(list);
    }
    let loaded: Vec<(Vec<u8>, Document)> = files
        .par_iter()
        .map(|f| {
            let bytes = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let doc = document::parse_bytes(&bytes, f, None).unwrap_or_else(|e| panic!("{e}"));
            (bytes, doc)
        })
        .collect();
    let mut ids: HashMap<[u8; 20], usize> = HashMap::new();
    let mut identity = Vec::new();
    let mut documents = Vec::new();
    for (bytes, doc) in loaded {
        let next = ids.len();
        identity.push(*ids.entry(hashing::sha1(&bytes)).or_insert(next));
        documents.push(doc);
    }
    let names = files
        .iter()
        .map(|f| {
            let cat = f.parent().and_then(|p| p.file_name()).unwrap_or_default();
            format!(
                "{}/{}",
                cat.to_string_lossy(),
                f.file_name().unwrap_or_default().to_string_lossy()
            )
        })
        .collect();
    Bbc {
        names,
        documents,
        identity,
    }
}

/// The methods evaluated: every paper default plus the variants the papers leave open.
fn variants() -> Vec<(String, Detector, Normaliser)> {
    let mut out: Vec<(String, Detector, Normaliser)> = Method::all_defaults()
        .into_iter()
        .map(|m| {
            (
                m.name().to_string(),
                Detector::Classic(m),
                Normaliser::Refine,
            )
        })
        .collect();
    out.push((
        "fuzzy (thesis method, measured thresholds)".into(),
        Detector::Fuzzy(fuzzy::FuzzyParams::default()),
        Normaliser::Refine,
    ));
    out.push((
        "codet first-5".into(),
        Detector::Classic(Method::CoDet(Default::default())),
        Normaliser::StopwordsFirst5,
    ));
    out.push((
        "codet WS off".into(),
        Detector::Classic(Method::CoDet(codet::CoDetParams {
            word_sorting: false,
            ..Default::default()
        })),
        Normaliser::Refine,
    ));
    out.push((
        "dsc hash sampling".into(),
        Detector::Classic(Method::Dsc(dsc::DscParams {
            sampling: dsc::Sampling::Hash,
            ..Default::default()
        })),
        Normaliser::Refine,
    ));
    out.push((
        "qsign 16/1".into(),
        Detector::Classic(Method::QSign(qsign::QSignParams {
            signature_bits: 16,
            bits_per_word: 1,
            ..Default::default()
        })),
        Normaliser::Refine,
    ));
    out
}

fn prepare(names: &[String], docs: &[Document], normaliser: Normaliser) -> Collection {
    without_job(|job| Collection::from_documents(names.to_vec(), docs, normaliser, job))
        .expect("never cancelled")
}

/// A detector of `simdoc::collection::Method`, or the thesis's fuzzy comparison of every
/// document pair (`collection::fuzzy`), which reads the documents rather than the collection.
enum Detector {
    Classic(Method),
    Fuzzy(fuzzy::FuzzyParams),
}

fn run(method: &Method, collection: &Collection) -> (Detection, f64) {
    run_detector(&Detector::Classic(method.clone()), collection, &[])
}

fn run_detector(
    detector: &Detector,
    collection: &Collection,
    docs: &[Document],
) -> (Detection, f64) {
    let start = Instant::now();
    let d = match detector {
        Detector::Classic(method) => {
            without_job(|job| method.detect(collection, job)).expect("never cancelled")
        }
        Detector::Fuzzy(params) => {
            let r = without_job(|job| {
                fuzzy::resemblances(docs, ReferenceModel::embedded(), params, job)
            })
            .expect("never cancelled");
            Detection::from_pairs(r.pairs(params.containment), collection)
        }
    };
    (d, start.elapsed().as_secs_f64())
}

fn ratio(n: usize, d: usize) -> f64 {
    if d == 0 { 0.0 } else { n as f64 / d as f64 }
}

fn truth_groups(identity: &[usize]) -> Vec<Vec<usize>> {
    let mut by: HashMap<usize, Vec<usize>> = HashMap::new();
    for (doc, &id) in identity.iter().enumerate() {
        by.entry(id).or_default().push(doc);
    }
    by.into_values().filter(|g| g.len() > 1).collect()
}

fn duplicates_section(bbc: &Bbc, methods: &[(String, Detector, Normaliser)]) {
    let truth_groups = truth_groups(&bbc.identity);
    let truth = pairs_within_groups(&truth_groups);
    println!("## BBC articles: byte-identical duplicates\n");
    println!(
        "{} articles, {} byte-identical groups, {} duplicate pairs.\n",
        bbc.documents.len(),
        truth_groups.len(),
        truth.len()
    );
    println!(
        "| method | groups | pairs in groups | precision | recall | F1 | false pairs with ≥ 90% words shared both ways | related pairs (any relation) | precision (any) | recall (any) | seconds |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let mut prepared: HashMap<Normaliser, Collection> = HashMap::new();
    for (label, method, normaliser) in methods {
        let c = prepared
            .entry(*normaliser)
            .or_insert_with(|| prepare(&bbc.names, &bbc.documents, *normaliser));
        let (d, secs) = run_detector(method, c, &bbc.documents);
        let found = pairs_within_groups(&d.groups);
        let hit = found.intersection(&truth).count();
        let any: HashSet<(usize, usize)> = d
            .pairs
            .iter()
            .map(|p| (p.a.min(p.b), p.a.max(p.b)))
            .collect();
        let any_hit = any.intersection(&truth).count();
        let (p, r) = (ratio(hit, found.len()), ratio(hit, truth.len()));
        let false_pairs: Vec<&(usize, usize)> = found.difference(&truth).collect();
        let near = false_pairs
            .iter()
            .filter(|&&&(x, y)| {
                word_containment(c, x, y) >= 0.9 && word_containment(c, y, x) >= 0.9
            })
            .count();
        println!(
            "| {label} | {} | {} | {:.3} | {:.3} | {:.3} | {near} of {} | {} | {:.3} | {:.3} | {:.2} |",
            d.groups.len(),
            found.len(),
            p,
            r,
            f1(p, r),
            false_pairs.len(),
            any.len(),
            ratio(any_hit, any.len()),
            ratio(any_hit, truth.len()),
            secs
        );
    }
    println!();
}

/// Articles plus summaries: names, documents, and for each the identity group of its article
/// and whether it is a summary.
struct Mixed {
    names: Vec<String>,
    documents: Vec<Document>,
    canon: Vec<usize>,
    summary: Vec<bool>,
}

/// The summaries join sentences with no space after the full stop ("$10.9bn.For the"); the
/// repair puts a space after a full stop followed by a capital letter or a quote.
fn repair_summary(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if matches!(c, '.' | '!' | '?')
            && chars.peek().is_some_and(|n| n.is_uppercase() || *n == '"')
        {
            out.push(' ');
        }
    }
    out
}

fn mixed(data: &Path, bbc: &Bbc, repair: bool) -> Mixed {
    let base = data.join("documents/bbc-news-summaries/BBC News Summary/Summaries");
    let summaries: Vec<Document> = bbc
        .names
        .par_iter()
        .map(|name| {
            let path = base.join(name);
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let text = String::from_utf8_lossy(&bytes);
            let text = if repair {
                repair_summary(&text)
            } else {
                text.into_owned()
            };
            document::parse_text(&text, name, SourceFormat::Text)
        })
        .collect();
    let mut names = bbc.names.clone();
    names.extend(bbc.names.iter().map(|n| format!("summary/{n}")));
    let mut documents = bbc.documents.clone();
    documents.extend(summaries);
    let mut canon = bbc.identity.clone();
    canon.extend(bbc.identity.iter().copied());
    let n = bbc.names.len();
    let summary = (0..2 * n).map(|i| i >= n).collect();
    Mixed {
        names,
        documents,
        canon,
        summary,
    }
}

/// Whether "x contains y" is right: same article content, and not a summary containing an
/// article.
fn correct_containment(m: &Mixed, x: usize, y: usize) -> bool {
    m.canon[x] == m.canon[y] && (!m.summary[x] || m.summary[y])
}

/// Share of `inner`'s distinct terms that `outer` also has.
fn word_containment(c: &Collection, inner: usize, outer: usize) -> f64 {
    let a: HashSet<u32> = c.documents[inner].terms().collect();
    let b: HashSet<u32> = c.documents[outer].terms().collect();
    ratio(a.intersection(&b).count(), a.len())
}

/// Of the wrong containment decisions, how many have at least 90% of the contained document's
/// words in the container (real containments the byte-level truth does not know).
fn plausible_false_decisions(m: &Mixed, c: &Collection, d: &Detection) -> (usize, usize) {
    let mut wrong = 0;
    let mut plausible = 0;
    for p in &d.pairs {
        let mut check = |x: usize, y: usize| {
            if !correct_containment(m, x, y) {
                wrong += 1;
                if word_containment(c, y, x) >= 0.9 {
                    plausible += 1;
                }
            }
        };
        match p.relation {
            Relation::Contains => check(p.a, p.b),
            r if r.is_duplicate() => {
                check(p.a, p.b);
                check(p.b, p.a);
            }
            _ => {}
        }
    }
    (wrong, plausible)
}

/// (recall at 1, precision of containment decisions, decisions) on the mixed set.
fn containment_scores(m: &Mixed, d: &Detection) -> (f64, f64, usize) {
    // Every "x contains y" statement: Contains as given, duplicates both ways.
    let mut statements: Vec<(usize, usize, f64)> = Vec::new();
    for p in &d.pairs {
        match p.relation {
            Relation::Contains => statements.push((p.a, p.b, p.score)),
            r if r.is_duplicate() => {
                statements.push((p.a, p.b, p.score));
                statements.push((p.b, p.a, p.score));
            }
            _ => {}
        }
    }
    let correct = |x: usize, y: usize| correct_containment(m, x, y);
    let right = statements
        .iter()
        .filter(|&&(x, y, _)| correct(x, y))
        .count();
    let mut best: HashMap<usize, (f64, usize)> = HashMap::new();
    for &(x, y, score) in &statements {
        if m.summary[y] {
            let e = best.entry(y).or_insert((f64::NEG_INFINITY, usize::MAX));
            if score > e.0 || (score == e.0 && x < e.1) {
                *e = (score, x);
            }
        }
    }
    let summaries = m.summary.iter().filter(|&&s| s).count();
    let found = best
        .iter()
        .filter(|&(&y, &(_, x))| !m.summary[x] && m.canon[x] == m.canon[y])
        .count();
    (
        ratio(found, summaries),
        ratio(right, statements.len()),
        statements.len(),
    )
}

fn summaries_section(
    data: &Path,
    bbc: &Bbc,
    methods: &[(String, Detector, Normaliser)],
    repair: bool,
) -> Mixed {
    let m = mixed(data, bbc, repair);
    let sentences: usize = m.documents[bbc.names.len()..]
        .iter()
        .map(|d| d.sentences.len())
        .sum();
    println!(
        "## BBC summaries mixed into the articles ({})\n",
        if repair {
            "summary sentences separated"
        } else {
            "summary text as distributed"
        }
    );
    println!(
        "{} documents; the {} summaries have {sentences} sentences as simdoc splits them.\n",
        m.documents.len(),
        bbc.names.len()
    );
    println!(
        "| method | recall at 1 | containment decisions | precision | F1 | wrong decisions with ≥ 90% of the words contained | seconds |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut prepared: HashMap<Normaliser, Collection> = HashMap::new();
    for (label, method, normaliser) in methods {
        let c = prepared
            .entry(*normaliser)
            .or_insert_with(|| prepare(&m.names, &m.documents, *normaliser));
        let (d, secs) = run_detector(method, c, &m.documents);
        let (recall, precision, decisions) = containment_scores(&m, &d);
        let (wrong, plausible) = plausible_false_decisions(&m, c, &d);
        println!(
            "| {label} | {recall:.3} | {decisions} | {precision:.3} | {:.3} | {plausible} of {wrong} | {secs:.2} |",
            f1(precision, recall)
        );
    }
    println!();
    m
}
