//! Speed of a comparison, measured as ratios in one run (BENCHMARKS.md, "Comparing two documents"):
//!
//! ```text
//! SIMDOC_DATA=../shared/data cargo run --release --no-default-features --example bench_compare
//! ```
//!
//! Two real documents of more than 5,000 sentences each with partial reuse are built from
//! enwiki-2015 articles (A: articles of wiki_00..; B: other articles, plus a third of A's
//! articles, half of those with every other sentence dropped) and written to a temporary folder.
//! Reported: loading + normalising both; the indexed comparison against the brute-force path
//! (same pairs checked), also at the thesis preset, with stopwords removed and at the wordnet
//! and verdict presets; the whole `compare` against loading + normalising; re-filtering a
//! comparison of at least 100,000 scored pairs at new thresholds.
//!
//! Each index's search is timed as the median of five runs, its brute force once. `-- seeds`
//! runs only the default's seed search against every pair (as for a profile); `-- presets` only
//! the measured, wordnet and verdict presets' comparisons.
//!
//! `-- --write DIR` only writes the two documents to DIR as `a.txt` and `b.txt` (the selection
//! of defaults times `simdoc compare` on them).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use simdoc::compare::Preset;
use simdoc::compare::{CompareOptions, DEFAULT_FLOOR, PreparedPair};
use simdoc::corpus::read_entries;
use simdoc::document::{self, Document, LoadOptions};
use simdoc::model::ReferenceModel;
use simdoc::similarity::{Method, ScoringRequest, Thresholds};

const MIN_SENTENCES: usize = 5_000;

fn articles(data: &Path, files: std::ops::Range<usize>) -> Vec<String> {
    let mut out = Vec::new();
    for i in files {
        let path = data.join(format!("reference/enwiki-2015/text/AA/wiki_{i:02}"));
        for entry in read_entries(&path, &LoadOptions::default()).expect("enwiki file") {
            out.push(entry.text);
        }
    }
    out
}

fn sentence_count(text: &str) -> usize {
    document::parse_text(text, "x", document::SourceFormat::Text)
        .sentences
        .len()
}

/// Builds the two documents and writes them to `dir`.
fn build_pair(data: &Path, dir: &Path) -> (PathBuf, PathBuf) {
    let pool_a = articles(data, 0..6);
    let pool_b = articles(data, 10..16);
    let mut a = String::new();
    let mut reused = Vec::new();
    for (i, article) in pool_a.iter().enumerate() {
        if sentence_count(&a) >= MIN_SENTENCES {
            break;
        }
        a.push_str(article);
        a.push_str("\n\n");
        if i % 3 == 0 {
            reused.push(article.clone());
        }
    }
    let mut b = String::new();
    for (i, article) in reused.iter().enumerate() {
        if i % 2 == 0 {
            b.push_str(article);
        } else {
            // Partial reuse: every other paragraph only.
            let kept: Vec<&str> = article.split("\n\n").step_by(2).collect();
            b.push_str(&kept.join("\n\n"));
        }
        b.push_str("\n\n");
    }
    for article in &pool_b {
        if sentence_count(&b) >= MIN_SENTENCES {
            break;
        }
        b.push_str(article);
        b.push_str("\n\n");
    }
    let (pa, pb) = (dir.join("a.txt"), dir.join("b.txt"));
    std::fs::write(&pa, a).expect("write a");
    std::fs::write(&pb, b).expect("write b");
    (pa, pb)
}

fn time<R>(f: impl FnOnce() -> R) -> (R, Duration) {
    let start = Instant::now();
    let r = f();
    (r, start.elapsed())
}

/// How many times an index's search is timed (its median kept): a search of tens of
/// milliseconds moves by a fifth from one run to the next on a shared machine, while brute
/// force, seconds long, is timed once.
const INDEX_RUNS: usize = 5;

/// `f`'s result and its median time over [`INDEX_RUNS`] runs.
fn time_median<R>(mut f: impl FnMut() -> R) -> (R, Duration) {
    let mut times = Vec::with_capacity(INDEX_RUNS);
    let mut result = None;
    for _ in 0..INDEX_RUNS {
        let (r, t) = time(&mut f);
        times.push(t);
        result = Some(r);
    }
    (result.expect("timed at least once"), median(times))
}

/// The index against brute force on the same work: every pair with a directional score at
/// the floor, found both ways and checked equal.
struct Race {
    indexed: Duration,
    brute_force: Duration,
    pairs: usize,
}

impl std::fmt::Display for Race {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "indexed {:.2?}, brute force {:.2?} -> {:.0}x faster, identical pairs: true ({} \
             pairs at the floor)",
            self.indexed,
            self.brute_force,
            self.brute_force.as_secs_f64() / self.indexed.as_secs_f64().max(1e-9),
            self.pairs
        )
    }
}

/// Times `method`'s index (the median of [`INDEX_RUNS`]) and its brute force (once) on `pair` at
/// `floor`; panics if they differ.
fn index_against_brute_force(
    method: Method,
    pair: &PreparedPair,
    model: &ReferenceModel,
    floor: f64,
) -> Race {
    let matcher = method.matcher();
    let never = AtomicBool::new(false);
    let request = ScoringRequest {
        left: &pair.left,
        right: &pair.right,
        model,
        floor,
        rules: &pair.rules,
    };
    let (mut indexed, indexed_time) = time_median(|| {
        matcher
            .score_pairs(&request, &never)
            .expect("not cancelled")
    });
    let (mut brute, brute_time) = time(|| matcher.score_pairs_brute_force(&request));
    indexed.sort_by_key(|p| (p.left, p.right));
    brute.sort_by_key(|p| (p.left, p.right));
    assert!(
        brute == indexed,
        "{} at floor {floor}: indexed and brute force differ",
        method.name()
    );
    Race {
        indexed: indexed_time,
        brute_force: brute_time,
        pairs: indexed.len(),
    }
}

/// The default's search (the documents preset: matches judged against chance) starts from the
/// seeds, the pairs that share a rare feature and pass the seed bar, found through an exact index
/// of the features; times it against looking at every pair (same seeds checked). The documents
/// are searched whole (every sentence its own class) and the word rates are the two documents'
/// own, as under the default options.
fn default_search_against_brute_force(pair: &PreparedPair, never: &AtomicBool) {
    use simdoc::compare::chance::{ChanceSearch, null::NullModel, seeds};
    let docs = [&pair.left, &pair.right];
    let null = NullModel::new(&pair.left, &pair.right, None);
    let ones = docs.map(|d| vec![1u32; d.sentences.len()]);
    let counts = [&ones[0][..], &ones[1][..]];
    let [n, m] = null.sentences;
    let ln_p_bar =
        (ChanceSearch::DEFAULT.seeds_per_sentence * (n + m) as f64).ln() - null.ln_pairs();
    let taking_part = docs.map(seeds::taking_part);
    let sides = taking_part
        .each_ref()
        .map(|side| side.iter().collect::<Vec<_>>());
    let (found, indexed) = time_median(|| {
        let terms = docs.map(|d| seeds::weighted(d, &null));
        let slices = terms
            .each_ref()
            .map(|t| t.iter().map(Vec::as_slice).collect::<Vec<_>>());
        let lengths = docs.map(|d| d.sentences.iter().map(|s| s.set.len()).collect::<Vec<_>>());
        let candidates = seeds::hits([&sides[0], &sides[1]], counts);
        seeds::find(
            &null,
            [&slices[0], &slices[1]],
            [&lengths[0], &lengths[1]],
            &candidates,
            ln_p_bar,
            never,
        )
        .expect("not cancelled")
    });
    let (brute, brute_time) = time(|| seeds::find_brute_force(&null, docs, counts, ln_p_bar));
    assert!(found == brute, "the seed index and every pair differ");
    println!(
        "   default (documents preset) seeds: indexed {indexed:.2?}, brute force \
         {brute_time:.2?} -> {:.0}x faster, identical seeds: true ({} seeds)",
        brute_time.as_secs_f64() / indexed.as_secs_f64().max(1e-9),
        found.len()
    );
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// The presets with WordNet's relations and with the learned verdict (issue 27), beside the
/// measured preset in the same loop: preparing both documents (each content word's lemmas are
/// looked up once, when the model has WordNet's relations) and the whole comparison (scoring,
/// one-to-two matches and, for the verdict, every kept pair's probability). No brute force
/// here: scoring every pair by its words takes minutes on these documents;
/// tests/wordnet_properties.rs checks the index against it.
fn compare_presets(a: &Document, b: &Document, model: &ReferenceModel, never: &AtomicBool) {
    let without_wordnet = {
        let mut plain = model.clone();
        plain.set_lexicon(None);
        plain.clear_verdict();
        plain
    };
    let (_, plain_prepare) =
        time(|| PreparedPair::new(a, b, &without_wordnet, &CompareOptions::default()));
    println!(
        "normalise both without WordNet lemmas (a model without WordNet's relations): \
         {plain_prepare:.2?}"
    );
    for (label, preset) in [
        ("measured", Preset::MEASURED),
        ("wordnet", Preset::WORDNET),
        ("verdict", Preset::VERDICT),
    ] {
        let options = CompareOptions {
            refine: preset.refine,
            rules: preset.rules,
            floor: simdoc::compare::floor_for(&preset.rules, &preset.thresholds),
            ..CompareOptions::default()
        };
        let (other, prepare_time) = time(|| PreparedPair::new(a, b, model, &options));
        let (comparison, compare_time) = time(|| {
            other
                .compare(model, Method::Fuzzy, options.floor, never)
                .expect("not cancelled")
        });
        println!(
            "{label:>8} preset: normalise both {prepare_time:.2?}, comparison {compare_time:.2?} \
             ({} pairs kept, {} matched)",
            comparison.pairs.len(),
            comparison.matches(&preset.thresholds).count()
        );
    }
}

fn main() {
    let Some(data) = std::env::var_os("SIMDOC_DATA").map(PathBuf::from) else {
        eprintln!("set SIMDOC_DATA to the shared data folder");
        std::process::exit(2);
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, out] = args.as_slice()
        && flag == "--write"
    {
        let out = PathBuf::from(out);
        std::fs::create_dir_all(&out).expect("output folder");
        let (a, b) = build_pair(&data, &out);
        println!("{}\n{}", a.display(), b.display());
        return;
    }
    let dir = std::env::temp_dir().join("simdoc-bench-compare");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (pa, pb) = build_pair(&data, &dir);
    let model = ReferenceModel::embedded();
    let never = AtomicBool::new(false);

    // Loading + normalising (refining every sentence) both documents.
    let ((a, b, pair), load_time) = time(|| {
        let a = document::load(&pa, &LoadOptions::default()).expect("load a");
        let b = document::load(&pb, &LoadOptions::default()).expect("load b");
        let pair = PreparedPair::new(&a, &b, model, &CompareOptions::default());
        (a, b, pair)
    });
    println!(
        "documents: A {} sentences, B {} sentences ({} and {} bytes)",
        a.sentences.len(),
        b.sentences.len(),
        std::fs::metadata(&pa).map(|m| m.len()).unwrap_or(0),
        std::fs::metadata(&pb).map(|m| m.len()).unwrap_or(0)
    );
    println!("load + normalise both: {load_time:.2?}");

    // `bench_compare seeds`: the default's seed search only (as for a profile).
    if args.iter().any(|a| a == "seeds") {
        default_search_against_brute_force(&pair, &never);
        return;
    }

    // `bench_compare presets`: the measured, wordnet and verdict presets only (as for a
    // profile, or to time a change to WordNet's relations).
    if args.iter().any(|a| a == "presets") {
        compare_presets(&a, &b, model, &never);
        return;
    }

    // The default comparison: the measured preset, scored down to the default floor.
    let measured = Preset::MEASURED.thresholds;
    for method in Method::ALL {
        let race = index_against_brute_force(method, &pair, model, DEFAULT_FLOOR);
        // The whole comparison: scoring, one-to-two matches, keeping the pairs needed
        // (compare::pruning), then figures and tree matching.
        let (comparison, compare_time) = time(|| {
            pair.compare(model, method, DEFAULT_FLOOR, &never)
                .expect("not cancelled")
        });
        let ((), figures_time) = time(|| {
            let _ = comparison.figures(&measured);
            let _ = comparison.tree_matching(&a, &b, &measured);
        });
        let whole = load_time + compare_time + figures_time;
        println!(
            "{:>8}: {race}; comparison {compare_time:.2?} \
             ({} pairs kept, {} matched); whole compare {whole:.2?} = {:.2}x load + normalise",
            method.name(),
            comparison.pairs.len(),
            comparison.matches(&measured).count(),
            whole.as_secs_f64() / load_time.as_secs_f64(),
        );
    }

    // The fuzzy index at other operating points, on the same documents: how much of its lead
    // over brute force the measured preset's candidates cost (function words kept, so content
    // words need reach only the content floor, 0.2: a sentence becomes a candidate of every
    // sentence sharing a fifth of its content words).
    let operating_points = [
        (
            "thesis preset (stopwords removed, floor 0.825)",
            Preset::THESIS.refine,
            Preset::THESIS.rules,
            Thresholds::THESIS.permission,
        ),
        (
            "measured rules and floor 0.4, stopwords and numbers removed",
            Preset::THESIS.refine,
            Preset::MEASURED.rules,
            DEFAULT_FLOOR,
        ),
    ];
    for (label, refine, rules, floor) in operating_points {
        let options = CompareOptions {
            refine,
            rules,
            floor,
            ..CompareOptions::default()
        };
        let other = PreparedPair::new(&a, &b, model, &options);
        let race = index_against_brute_force(Method::Fuzzy, &other, model, floor);
        println!("   fuzzy at the {label}: {race}");
    }

    default_search_against_brute_force(&pair, &never);
    compare_presets(&a, &b, model, &never);

    // Re-filtering: the fuzzy comparison at a low floor. It keeps only the pairs its matches and
    // containment need (compare::pruning: two-way pairs and each sentence's best one-way pair),
    // so the scored pairs it re-filters are far fewer than the pairs at the floor.
    let floor = 0.05;
    let big = pair
        .compare(model, Method::Fuzzy, floor, &never)
        .expect("not cancelled");
    // The figures from the repetition classes against counting pair by pair over the matches
    // (the same values when nothing is capped), in the same run.
    let mut runs = Vec::new();
    let mut pair_by_pair = Vec::new();
    let mut thresholds = Thresholds::THESIS;
    for i in 0..21 {
        thresholds.permission = 0.5 + 0.02 * f64::from(i % 20);
        let (figures, t) = time(|| {
            let matched = big.matches(&thresholds).count();
            let figures = big.figures(&thresholds);
            assert!(figures.pairs == matched);
            figures
        });
        runs.push(t);
        let (counted, t) = time(|| {
            let matches: Vec<_> = big.matches(&thresholds).copied().collect();
            big.figures_of(&matches, &thresholds)
        });
        assert_eq!(figures, counted);
        pair_by_pair.push(t);
    }
    println!(
        "re-filter {} scored pairs (floor {floor:.2}) at a new permission: median {:.2?} \
         (matches + figures from the classes, with the one-to-one matching as a flow); \
         counting pair by pair over the matches: {:.2?}",
        big.pairs.len(),
        median(runs),
        median(pair_by_pair)
    );
}
