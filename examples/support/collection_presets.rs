//! `eval_collection -- presets`: the operating points of collection mode chosen on tuning data
//! and measured on held-out data (EVALUATION.md, "Collection presets").
//!
//! Two questions, two criteria, each computed on the tuning parts only:
//!
//! - **teacher** (sources marked, as `simdoc collection --sources`): on each of bbc,
//!   article-html and pan (`truth_sets.rs`), F1 of *attribution* (the share of contained
//!   submissions paired with one of their own sources) and *pair precision* (the share of
//!   submission-source pairs whose source is the submission's own); the criterion is the mean
//!   of the three F1s, so that reworded reuse (pan) weighs as much as verbatim reuse.
//! - **news** (no roles): on the BBC versions set (below), F1 of story-version pairs: a
//!   reported pair of any relation is right when the two documents are versions of one story;
//!   recall over all such pairs. A pair outside the truth whose refined words are at least 90%
//!   contained one way or the other is a version the truth does not know (the BBC set files
//!   some stories twice with a changed line) and is not counted either way.
//!
//! The unknown versions make a rule of refined-word containment ≥ 0.9 right by construction,
//! and that is what FFP or DSC with one-word shingles at a 0.9 cut computes: the shingle grids
//! start at two words (a version shares passages, not only a vocabulary).
//!
//! Each detector's grid starts with the paper's defaults; the first setting with the highest
//! criterion wins (a tie keeps the earlier one). The preset's detector is the one with the
//! highest criterion. The BBC versions set: the articles of even (tuning) or odd (held-out)
//! position in the five categories' file order, in that order, then a version of every fourth
//! of them, the kinds in turn: a byte copy, the last paragraph cut, a paragraph of the next
//! article added at the end, every twelfth word deleted. The truth: each version with its
//! article, and byte-identical articles (and their versions) with each other.

use std::collections::HashMap;
use std::path::Path;

use simdoc::collection::presets::{
    CollectionPreset, Detector, PresetParams, with_matching, with_permission,
};
use simdoc::collection::{
    DocumentFrequencies, Method, codet, dsc, ffp, fuzzy, imatch, qsign, roul, simhash,
};
use simdoc::compare::Preset as MatchingPreset;
use simdoc::model::ReferenceModel;

use super::question_sets::{Config, NewsSet, Ready, TeacherSet};
use super::truth_sets::{self, Part};

/// One setting of one detector.
#[derive(Clone)]
struct Setting {
    detector: Detector,
    label: String,
    config: Config,
}

impl Setting {
    fn of(params: &PresetParams, detector: Detector, label: &str) -> Setting {
        Setting {
            detector,
            label: label.to_string(),
            config: match params.method(detector) {
                Some(m) => Config::Classic(m),
                None => Config::Fuzzy(params.fuzzy),
            },
        }
    }
}

/// Every setting tried, per detector, each grid starting with the paper's defaults.
fn grids() -> Vec<Setting> {
    let mut out = Vec::new();
    let paper = PresetParams::paper();
    for d in Detector::ALL {
        out.push(Setting::of(&paper, d, "paper"));
    }
    let classic = |detector, label: String, method| Setting {
        detector,
        label,
        config: Config::Classic(method),
    };
    for etl in [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] {
        for dt in [2, 3, 5, 8] {
            out.push(classic(
                Detector::CoDet,
                format!("ETL {etl}, DT {dt}"),
                Method::CoDet(codet::CoDetParams {
                    equivalency_threshold: etl,
                    depth_threshold: dt,
                    ..Default::default()
                }),
            ));
        }
    }
    let shares = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
    for share in shares {
        for size in [2, 3, 4] {
            out.push(classic(
                Detector::Ffp,
                format!("containment {share}, shingle {size}"),
                Method::Ffp(ffp::FfpParams {
                    containment_threshold: share,
                    shingle_size: size,
                    ..Default::default()
                }),
            ));
        }
        for size in [2, 3, 4] {
            for (sampling, name) in [
                (dsc::Sampling::Position, "position"),
                (dsc::Sampling::Hash, "hash"),
            ] {
                out.push(classic(
                    Detector::Dsc,
                    format!("containment {share}, shingle {size}, {name} sampling"),
                    Method::Dsc(dsc::DscParams {
                        containment_threshold: share,
                        shingle_size: size,
                        sampling,
                        ..Default::default()
                    }),
                ));
            }
        }
    }
    for skipped in [0, 2, 4] {
        for words in [2, 3, 5, 10, 20, 40] {
            out.push(classic(
                Detector::IMatch,
                format!("skipped {skipped}, words {words}"),
                Method::IMatch(imatch::IMatchParams {
                    skipped_words: skipped,
                    fingerprint_words: words,
                }),
            ));
        }
    }
    for skipped in [0, 2] {
        for distance in [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20] {
            out.push(classic(
                Detector::SimHash,
                format!("skipped {skipped}, distance {distance}"),
                Method::SimHash(simhash::SimHashParams {
                    skipped_words: skipped,
                    max_distance: distance,
                }),
            ));
        }
    }
    for theta in [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7] {
        for reuse in [0.05, 0.1, 0.15, 0.25, 0.4, 0.6, 0.8] {
            out.push(classic(
                Detector::QSign,
                format!("θ {theta}, reuse share {reuse}"),
                Method::QSign(qsign::QSignParams {
                    overlap_threshold: theta,
                    min_reuse_share: reuse,
                    ..Default::default()
                }),
            ));
        }
    }
    for th1 in [24, 32, 40] {
        for th2 in [50, 54] {
            for th4 in [0.7, 0.8, 0.9] {
                out.push(classic(
                    Detector::Roul,
                    format!("th1 {th1}, th2 {th2}, th4 {th4}"),
                    Method::Roul(roul::RoulParams {
                        th1,
                        th2,
                        th4,
                        ..Default::default()
                    }),
                ));
            }
        }
    }
    let base = fuzzy::FuzzyParams::default();
    let mut matchings = vec![(
        "thesis".to_string(),
        with_matching(base, MatchingPreset::THESIS),
    )];
    for permission in [0.4, 0.5, 0.6, 0.7] {
        matchings.push((
            format!("measured, permission {permission}"),
            with_permission(with_matching(base, MatchingPreset::MEASURED), permission),
        ));
    }
    // Judged against chance as `simdoc compare` judges (the EQ sentences only propose
    // candidates): the default comparison's matching, and the measured one at 0.6.
    matchings.push((
        "documents, judged against chance".to_string(),
        with_matching(base, MatchingPreset::DOCUMENTS),
    ));
    matchings.push((
        "measured, permission 0.6, judged against chance".to_string(),
        fuzzy::FuzzyParams {
            chance_search: MatchingPreset::DOCUMENTS.chance_search,
            thresholds: simdoc::similarity::Thresholds {
                max_e_value: MatchingPreset::DOCUMENTS.thresholds.max_e_value,
                ..with_permission(with_matching(base, MatchingPreset::MEASURED), 0.6).thresholds
            },
            ..with_permission(with_matching(base, MatchingPreset::MEASURED), 0.6)
        },
    ));
    // The containment cut only names a pair's relation (contains, duplicate or reuses), which
    // neither criterion looks at; the reporting cut decides which pairs there are.
    for (name, params) in matchings {
        for min_resemblance in [0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 0.9] {
            out.push(Setting {
                detector: Detector::Fuzzy,
                label: format!("{name}, reported from resemblance {min_resemblance}"),
                config: Config::Fuzzy(fuzzy::FuzzyParams {
                    min_resemblance,
                    ..params
                }),
            });
        }
    }
    out
}

/// The winning setting per detector, its criterion and the figures behind it.
type Choice = HashMap<Detector, (Setting, f64, String)>;

/// The first setting of each detector with the highest criterion; the time spent per detector
/// goes to standard error.
fn choose(settings: &[Setting], mut criterion: impl FnMut(&Config) -> (f64, String)) -> Choice {
    let mut best: Choice = HashMap::new();
    let mut seconds: HashMap<Detector, f64> = HashMap::new();
    for s in settings {
        let started = std::time::Instant::now();
        let (value, figures) = criterion(&s.config);
        *seconds.entry(s.detector).or_default() += started.elapsed().as_secs_f64();
        // The fuzzy comparison's whole grid, counted and judged against chance side by side
        // (EVALUATION.md, "Collection presets": the judged rows).
        if s.detector == Detector::Fuzzy {
            eprintln!("  fuzzy setting: {} | {value:.3} | {figures}", s.label);
        }
        let entry = best
            .entry(s.detector)
            .or_insert((s.clone(), value, figures.clone()));
        if value > entry.1 {
            *entry = (s.clone(), value, figures);
        }
    }
    for d in Detector::ALL {
        eprintln!("  {}: {:.1} s", d.name(), seconds.get(&d).unwrap_or(&0.0));
    }
    best
}

/// The teacher criterion over the tuning sets, and each set's F1.
fn teacher_criterion(sets: &mut [TeacherSet], config: &Config) -> (f64, String) {
    let f1s: Vec<f64> = sets.iter_mut().map(|t| t.measure(config).f1()).collect();
    let figures = f1s
        .iter()
        .map(|f| format!("{f:.3}"))
        .collect::<Vec<_>>()
        .join(" / ");
    (f1s.iter().sum::<f64>() / f1s.len() as f64, figures)
}

/// The news criterion, with recall and precision.
fn news_criterion(set: &mut NewsSet, config: &Config) -> (f64, String) {
    let f = set.measure(config);
    (f.f1(), format!("{:.3} / {:.3}", f.recall(), f.precision()))
}

fn same_config(a: &Config, b: &Config) -> bool {
    match (a, b) {
        (Config::Classic(x), Config::Classic(y)) => x == y,
        (Config::Fuzzy(x), Config::Fuzzy(y)) => x == y,
        _ => false,
    }
}

/// Within this much of the fuzzy comparison's criterion, another detector is taken as the
/// preset's: the fuzzy comparison matches every sentence with every other through the reference
/// model and costs the most by far (the tables' "seconds" column).
const NEAR_FUZZY: f64 = 0.005;

/// The preset's detector: the highest criterion, unless that is the fuzzy comparison and
/// another detector comes within [`NEAR_FUZZY`] of it.
fn preset_detector(choice: &Choice) -> Detector {
    let mut ranked: Vec<(Detector, f64)> =
        Detector::ALL.iter().map(|&d| (d, choice[&d].1)).collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (top, value) = ranked[0];
    if top == Detector::Fuzzy
        && let Some(&(other, _)) = ranked
            .iter()
            .find(|&&(d, v)| d != Detector::Fuzzy && v >= value - NEAR_FUZZY)
    {
        return other;
    }
    top
}

fn print_choice(
    name: &str,
    choice: &Choice,
    library: &PresetParams,
    paper_value: &HashMap<Detector, (f64, String)>,
    seconds: &HashMap<Detector, f64>,
) {
    let (criterion, figures) = if name == "teacher" {
        (
            "mean F1 of attribution and pair precision over bbc, article-html, pan",
            "F1 bbc / article-html / pan",
        )
    } else {
        (
            "F1 of story-version pairs, BBC versions",
            "recall / precision",
        )
    };
    println!("\n{name}: chosen on the tuning parts (criterion: {criterion})\n");
    println!(
        "| detector | chosen setting | criterion (tuning) | {figures} | at the paper's defaults | {figures} | seconds | library preset equals the choice |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let mut ranked: Vec<_> = Detector::ALL.iter().map(|d| (d, &choice[d])).collect();
    ranked.sort_by(|a, b| b.1.1.total_cmp(&a.1.1));
    for (d, (setting, value, figures)) in ranked {
        let shipped = Setting::of(library, *d, "");
        let (paper, paper_figures) = &paper_value[d];
        println!(
            "| {} | {} | {value:.3} | {figures} | {paper:.3} | {paper_figures} | {:.2} | {} |",
            d.name(),
            setting.label,
            seconds[d],
            if same_config(&shipped.config, &setting.config) {
                "yes"
            } else {
                "NO"
            }
        );
    }
    let detector = preset_detector(choice);
    println!(
        "\nThe preset's detector by the rule: {} (library preset: {}).",
        detector.name(),
        library.detector.name()
    );
}

/// Runs the whole measurement: tuning, then the held-out figures.
pub fn run(data: &Path) {
    let settings = grids();
    let started = std::time::Instant::now();
    let mut teacher_tune: Vec<TeacherSet> = truth_sets::sets(data, Part::Tune, None)
        .into_iter()
        .map(TeacherSet::new)
        .collect();
    let mut news_tune = NewsSet::new(data, Part::Tune);
    println!("## Collection presets\n");
    println!(
        "Tuning parts: {}; BBC versions: {} documents, {} version pairs.",
        teacher_tune
            .iter()
            .map(|t| format!(
                "{} ({} sources, {} submissions)",
                t.ready.name,
                t.sources,
                t.own.len()
            ))
            .collect::<Vec<_>>()
            .join(", "),
        news_tune.ready.documents.len(),
        news_tune.truth_pairs
    );
    eprintln!("teacher tuning:");
    let teacher = choose(&settings, |config| {
        teacher_criterion(&mut teacher_tune, config)
    });
    eprintln!("news tuning:");
    let news = choose(&settings, |config| news_criterion(&mut news_tune, config));
    let mut teacher_paper = HashMap::new();
    let mut news_paper = HashMap::new();
    let paper = PresetParams::paper();
    for d in Detector::ALL {
        let config = Setting::of(&paper, d, "").config;
        teacher_paper.insert(d, teacher_criterion(&mut teacher_tune, &config));
        news_paper.insert(d, news_criterion(&mut news_tune, &config));
    }
    // Seconds of one run of each chosen setting, nothing cached (all tuning sets for teacher).
    let mut teacher_seconds = HashMap::new();
    let mut news_seconds = HashMap::new();
    for d in Detector::ALL {
        for t in &mut teacher_tune {
            t.ready.fuzzy_cache.clear();
            t.ready.judged_cache.clear();
        }
        news_tune.ready.fuzzy_cache.clear();
        news_tune.ready.judged_cache.clear();
        let started = std::time::Instant::now();
        teacher_criterion(&mut teacher_tune, &teacher[&d].0.config);
        teacher_seconds.insert(d, started.elapsed().as_secs_f64());
        let started = std::time::Instant::now();
        news_criterion(&mut news_tune, &news[&d].0.config);
        news_seconds.insert(d, started.elapsed().as_secs_f64());
    }
    print_choice(
        "teacher",
        &teacher,
        &CollectionPreset::Teacher.params(),
        &teacher_paper,
        &teacher_seconds,
    );
    print_choice(
        "news",
        &news,
        &CollectionPreset::News.params(),
        &news_paper,
        &news_seconds,
    );
    eprintln!(
        "tuning: {} settings in {:.0} s",
        settings.len(),
        started.elapsed().as_secs_f64()
    );
    drop(teacher_tune);
    drop(news_tune);

    held_out(data);
}

/// The held-out figures of every detector at every preset, and idf from the collection or the
/// reference model.
fn held_out(data: &Path) {
    let mut teacher_sets: Vec<TeacherSet> = truth_sets::sets(data, Part::HeldOut, None)
        .into_iter()
        .map(TeacherSet::new)
        .collect();
    let mut news_set = NewsSet::new(data, Part::HeldOut);
    println!("\n### Held out\n");
    for t in &mut teacher_sets {
        let mut kinds: Vec<&str> = Vec::new();
        for (d, kind) in t.kinds.iter().enumerate() {
            if !t.own[d].is_empty() && !kinds.contains(kind) {
                kinds.push(kind);
            }
        }
        println!(
            "{} ({} sources marked, {} submissions, {} contained):\n",
            t.ready.name,
            t.sources,
            t.own.len(),
            t.own.iter().filter(|o| !o.is_empty()).count()
        );
        println!(
            "| detector | preset | attributed ({}) | false pairs | pair precision | F1 | clean flagged | between submissions |",
            kinds.join(" · ")
        );
        println!("|---|---|---|---|---|---|---|---|");
        for d in Detector::ALL {
            for (name, preset) in CollectionPreset::NAMED {
                let config = Setting::of(&preset.params(), d, "").config;
                let f = t.measure(&config);
                println!(
                    "| {} | {name} | {} | {} | {:.3} | {:.3} | {} | {} |",
                    d.name(),
                    f.by_kind,
                    f.false_pairs,
                    f.precision(),
                    f.f1(),
                    f.clean_flagged,
                    f.between_submissions
                );
            }
        }
        println!();
    }
    println!(
        "BBC versions ({} documents, {} version pairs):\n",
        news_set.ready.documents.len(),
        news_set.truth_pairs
    );
    println!(
        "| detector | preset | pairs right | false pairs | unknown versions (not counted) | recall | precision | F1 |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for d in Detector::ALL {
        for (name, preset) in CollectionPreset::NAMED {
            let config = Setting::of(&preset.params(), d, "").config;
            let f = news_set.measure(&config);
            println!(
                "| {} | {name} | {} | {} | {} | {:.3} | {:.3} | {:.3} |",
                d.name(),
                f.right,
                f.false_pairs,
                f.unknown_versions,
                f.recall(),
                f.precision(),
                f.f1()
            );
        }
    }

    // Each preset as a whole: its own detector on every question.
    println!("\n### Each preset with its own detector (held out)\n");
    print!("| preset | detector |");
    for t in &teacher_sets {
        print!(" {} F1 |", t.ready.name);
    }
    println!(" teacher criterion | BBC versions F1 |");
    println!("|---|---|{}---|---|", "---|".repeat(teacher_sets.len()));
    for (name, preset) in CollectionPreset::NAMED {
        let params = preset.params();
        let config = Setting::of(&params, params.detector, "").config;
        let f1s: Vec<f64> = teacher_sets
            .iter_mut()
            .map(|t| t.measure(&config).f1())
            .collect();
        print!("| {name} | {} |", params.detector.name());
        for f in &f1s {
            print!(" {f:.3} |");
        }
        println!(
            " {:.3} | {:.3} |",
            f1s.iter().sum::<f64>() / f1s.len() as f64,
            news_set.measure(&config).f1()
        );
    }

    // idf from the reference model (CoDet sect. 4) against idf from the documents searched,
    // every detector that weighs words at its preset for the question.
    println!("\n### idf: the documents searched or the reference model (held out)\n");
    print!("| detector | preset | idf |");
    for t in &teacher_sets {
        print!(" {} F1 |", t.ready.name);
    }
    println!(" BBC versions F1 |");
    println!("|---|---|---|{}---|", "---|".repeat(teacher_sets.len()));
    let model = ReferenceModel::embedded();
    for d in Detector::ALL.into_iter().filter(|&d| d != Detector::Fuzzy) {
        for (preset_name, preset) in [
            ("teacher", CollectionPreset::Teacher),
            ("news", CollectionPreset::News),
        ] {
            let config = Setting::of(&preset.params(), d, "").config;
            for reference in [false, true] {
                let swap = |r: &mut Ready| {
                    r.collection.frequencies = if reference {
                        DocumentFrequencies::from_reference(&r.collection.vocabulary, model)
                    } else {
                        r.own_frequencies.clone()
                    };
                };
                print!(
                    "| {} | {preset_name} | {} |",
                    d.name(),
                    if reference { "reference" } else { "collection" }
                );
                for t in &mut teacher_sets {
                    swap(&mut t.ready);
                    print!(" {:.3} |", t.measure(&config).f1());
                }
                swap(&mut news_set.ready);
                println!(" {:.3} |", news_set.measure(&config).f1());
            }
        }
    }
    println!();
}
