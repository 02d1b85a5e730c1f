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
//! 3. documents/lee-news: Pearson correlation of Roul et al.'s LSI cosine with human grades.

#[path = "support/collection_presets.rs"]
mod collection_presets;
#[path = "support/question_sets.rs"]
mod question_sets;
#[path = "support/truth_sets.rs"]
mod truth_sets;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use simdoc::collection::roul::lsi::{LsiSpace, cosine};
use simdoc::collection::roul::{tfidf_vectors, unit_length};
use simdoc::collection::{
    Collection, Detection, Method, Normaliser, Relation, codet, dsc, fuzzy, hashing,
    pairs_within_groups, qsign, roul, without_job,
};
use simdoc::document::{self, Document, SourceFormat};
use simdoc::eval::metrics::harmonic_mean as f1;
use simdoc::model::ReferenceModel;

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

/// Lines of a latin-1 file.
fn latin1_lines(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text: String = bytes.iter().map(|&b| char::from(b)).collect();
    text.lines()
        .map(str::to_string)
        .filter(|l| !l.trim().is_empty())
        .collect()
}

fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let cov: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
    let vy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
    cov / (vx * vy).sqrt()
}

fn lee_section(data: &Path) {
    let dir = data.join("documents/lee-news");
    let background = latin1_lines(&dir.join("lee_background.cor"));
    let rated = latin1_lines(&dir.join("lee.cor"));
    let grades: Vec<Vec<f64>> = std::fs::read_to_string(dir.join("similarities0-1.txt"))
        .expect("similarities0-1.txt")
        .lines()
        .map(|l| {
            l.split_whitespace()
                .filter_map(|v| v.parse().ok())
                .collect()
        })
        .collect();
    // The upper triangle, as gensim's test reads it (np.triu_indices(50, 1)).
    let human: Vec<f64> = grades
        .iter()
        .take(rated.len())
        .enumerate()
        .flat_map(|(i, row)| row.iter().take(rated.len()).skip(i + 1).copied())
        .collect();
    println!("## Lee: LSI cosine against human grades\n");
    println!(
        "{} background documents span the LSI space; the {} rated documents are folded in; {} pairs.\n",
        background.len(),
        rated.len(),
        human.len()
    );
    println!("| representation | Pearson r |");
    println!("|---|---|");
    let all: Vec<String> = background.iter().chain(&rated).cloned().collect();
    let names: Vec<String> = (0..all.len()).map(|i| format!("lee#{i}")).collect();
    let docs: Vec<Document> = all
        .iter()
        .zip(&names)
        .map(|(t, n)| document::parse_text(t, n, SourceFormat::Text))
        .collect();
    let mut c = prepare(&names, &docs, Normaliser::Refine);
    // idf from the background only.
    let nb = background.len();
    let mut df = vec![0u32; c.vocabulary.len()];
    for doc in &c.documents[..nb] {
        let terms: HashSet<u32> = doc.terms().collect();
        for t in terms {
            df[t as usize] += 1;
        }
    }
    let df_of: HashMap<String, u32> = (0..c.vocabulary.len())
        .map(|t| (c.term(t as u32).to_string(), df[t]))
        .collect();
    c.use_reference_frequencies(nb as u32, |t| df_of.get(t).copied().unwrap_or(0));
    let raw = tfidf_vectors(&c);
    let mut unit = raw.clone();
    unit.iter_mut().for_each(unit_length);
    let correlate = |label: &str, vectors: &[Vec<f64>]| {
        let mut ours = Vec::new();
        for i in 0..rated.len() {
            for j in i + 1..rated.len() {
                ours.push(cosine(&vectors[i], &vectors[j]));
            }
        }
        println!("| {label} | {:.3} |", pearson(&ours, &human));
    };
    let dense = |v: &Vec<(u32, f64)>| {
        let mut d = vec![0.0; c.vocabulary.len()];
        for &(t, w) in v {
            d[t as usize] = w;
        }
        d
    };
    let tfidf: Vec<Vec<f64>> = unit[nb..].iter().map(dense).collect();
    correlate("TF-IDF cosine, no LSI", &tfidf);
    for (label, columns) in [
        ("unit-length TF-IDF", &unit),
        ("TF-IDF (eq. 1-3) unscaled", &raw),
    ] {
        for rank in [50, 100, 200] {
            let space = LsiSpace::fit(&columns[..nb], c.vocabulary.len(), rank, 0x5eed);
            let projected: Vec<Vec<f64>> = columns[nb..].iter().map(|v| space.project(v)).collect();
            correlate(&format!("LSI rank {rank}, {label}"), &projected);
        }
    }
    println!();
}

/// The sweeps behind the defaults the papers do not give.
fn sweeps(bbc: &Bbc, m: &Mixed, only: &str) {
    let c_mixed = prepare(&m.names, &m.documents, Normaliser::Refine);
    let c_bbc = prepare(&bbc.names, &bbc.documents, Normaliser::Refine);
    let truth = pairs_within_groups(&truth_groups(&bbc.identity));
    let dup_scores = |d: &Detection| {
        let found = pairs_within_groups(&d.groups);
        let hit = found.intersection(&truth).count();
        (ratio(hit, found.len()), ratio(hit, truth.len()))
    };
    println!("## Sweeps\n");
    println!(
        "| parameter | summaries recall at 1 | containment precision | BBC duplicate precision | BBC duplicate recall |"
    );
    println!("|---|---|---|---|---|");
    let line = |label: String, method: Method| {
        if !label.starts_with(only) {
            return;
        }
        let (d, _) = run(&method, &c_mixed);
        let (r1, p, _) = containment_scores(m, &d);
        let (d2, _) = run(&method, &c_bbc);
        let (dp, dr) = dup_scores(&d2);
        println!("| {label} | {r1:.3} | {p:.3} | {dp:.3} | {dr:.3} |");
    };
    for etl in [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] {
        line(
            format!("codet ETL {etl}"),
            Method::CoDet(codet::CoDetParams {
                equivalency_threshold: etl,
                ..Default::default()
            }),
        );
    }
    for dt in [1, 2, 3, 5, 8, 12] {
        for ws in [true, false] {
            line(
                format!("codet DT {dt} WS {}", if ws { "on" } else { "off" }),
                Method::CoDet(codet::CoDetParams {
                    depth_threshold: dt,
                    word_sorting: ws,
                    ..Default::default()
                }),
            );
        }
    }
    for psc in [1, 2, 3] {
        line(
            format!("codet PSC {psc}"),
            Method::CoDet(codet::CoDetParams {
                processed_suffix_count: psc,
                ..Default::default()
            }),
        );
    }
    for share in [0.5, 0.6, 0.7, 0.8, 0.9, 1.0] {
        line(
            format!("qsign containment share {share}"),
            Method::QSign(qsign::QSignParams {
                containment_share: share,
                ..Default::default()
            }),
        );
    }
    for d in [0, 1, 2, 3] {
        line(
            format!("qsign 32/2 d {d}"),
            Method::QSign(qsign::QSignParams {
                max_bit_difference: d,
                ..Default::default()
            }),
        );
    }
    for (k, rate) in [(1, 0.1), (1, 0.5), (3, 0.1), (3, 0.5)] {
        line(
            format!("qsign 32/2 derived d (k {k}, rho {rate}, cap 5)"),
            Method::QSign(qsign::QSignParams {
                max_bit_difference: 5,
                adaptive: Some(qsign::AdaptiveRange {
                    word_flexibility: k,
                    false_hit_rate: rate,
                }),
                ..Default::default()
            }),
        );
    }
    for (th1, th3, th4) in [
        (40, 60, 0.9),
        (32, 60, 0.9),
        (40, 62, 0.9),
        (40, 60, 0.8),
        (40, 60, 0.95),
        (46, 60, 0.9),
    ] {
        for th2 in [46, 50, 54] {
            line(
                format!("roul th1 {th1} th2 {th2} th3 {th3} th4 {th4}"),
                Method::Roul(roul::RoulParams {
                    th1,
                    th2,
                    th3,
                    th4,
                    ..Default::default()
                }),
            );
        }
    }
    println!();
}
