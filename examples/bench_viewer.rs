//! Frame times of the viewer on a large comparison, measured through egui_kittest (BENCHMARKS.md,
//! "The viewer"):
//!
//! ```text
//! SIMDOC_DATA=../shared/data cargo run --release --example bench_viewer
//! ```
//!
//! Two documents of about 10,000 real sentences each (enwiki-2015 articles) and a comparison of
//! 100,000 matched pairs (a band around the diagonal, half identical, scores spread over
//! 0.5..1). Each frame is `Harness::step` (the whole UI: layout, text, plot) plus tessellation of
//! its shapes into meshes; what is not measured is the GPU upload and draw.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use simdoc::app::sources::{SourcesInput, SourcesRun};
use simdoc::app::state::{Analysis, LoadedDoc, View};
use simdoc::app::{CentralView, Settings, SimdocApp};
use simdoc::compare::passages::passages_of;
use simdoc::compare::{CompareOptions, Comparison, PreparedPair};
use simdoc::corpus::read_entries;
use simdoc::document::{self, Document, LoadOptions, SourceFormat};
use simdoc::model::ReferenceModel;
use simdoc::similarity::{Method, ScoredPair};

const SENTENCES: usize = 10_000;
const PARTNERS: u32 = 10;

fn document(data: &std::path::Path, first_file: usize, name: &str) -> Document {
    let mut text = String::new();
    let mut file = first_file;
    loop {
        let path = data.join(format!("reference/enwiki-2015/text/AA/wiki_{file:02}"));
        for entry in read_entries(&path, &LoadOptions::default()).expect("enwiki file") {
            text.push_str(&entry.text);
            text.push_str("\n\n");
        }
        let doc = document::parse_text(&text, name, SourceFormat::Text);
        if doc.sentences.len() >= SENTENCES || file > first_file + 40 {
            return doc;
        }
        file += 1;
    }
}

fn frame(harness: &mut Harness<'_, SimdocApp>) -> Duration {
    let start = Instant::now();
    harness.step();
    let shapes = harness.output().shapes.clone();
    let pixels_per_point = harness.output().pixels_per_point;
    let meshes = harness.ctx.tessellate(shapes, pixels_per_point);
    std::hint::black_box(meshes);
    start.elapsed()
}

/// 30 frames, each after a wheel step over `at`: up by 400 points, and every tenth a jump back
/// down by 30,000.
fn scroll_frames(harness: &mut Harness<'_, SimdocApp>, at: egui::Pos2) -> Vec<Duration> {
    (0..30)
        .map(|k| {
            harness.hover_at(at);
            harness.event(egui::Event::MouseWheel {
                unit: egui::MouseWheelUnit::Point,
                delta: egui::vec2(0.0, if k % 10 == 9 { 30_000.0 } else { -400.0 }),
                modifiers: egui::Modifiers::NONE,
                phase: egui::TouchPhase::Move,
                source: egui::MouseWheelSource::Wheel,
            });
            frame(harness)
        })
        .collect()
}

fn summary(mut times: Vec<Duration>) -> String {
    times.sort();
    format!(
        "median {:.1} ms, max {:.1} ms ({} frames)",
        times[times.len() / 2].as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3,
        times.len()
    )
}

fn main() {
    let Some(data) = std::env::var_os("SIMDOC_DATA").map(PathBuf::from) else {
        eprintln!("set SIMDOC_DATA to the shared data folder");
        std::process::exit(2);
    };
    let a = Arc::new(document(&data, 0, "A"));
    let b = Arc::new(document(&data, 30, "B"));
    let model = ReferenceModel::embedded();
    let prepared = PreparedPair::new(&a, &b, model, &CompareOptions::default());
    let (na, nb) = (a.sentences.len() as u32, b.sentences.len() as u32);
    let mut pairs = Vec::new();
    for i in 0..na {
        let center = (u64::from(i) * u64::from(nb) / u64::from(na)) as u32;
        for d in 0..PARTNERS {
            let j = (center + d).min(nb - 1);
            let score = 0.5 + 0.5 * f64::from((i * 7 + d * 13) % 100) / 100.0;
            pairs.push(ScoredPair::new(
                i,
                j,
                [score, (score + 0.01).min(1.0)],
                (i + d) % 2 == 0,
            ));
        }
    }
    pairs.sort_by_key(|p| (p.left, p.right));
    pairs.dedup_by_key(|p| (p.left, p.right));
    let comparison = Comparison::from_sentence_pairs(
        Method::Fuzzy,
        0.5,
        [vec![true; na as usize], vec![true; nb as usize]],
        [vec![true; na as usize], vec![true; nb as usize]],
        simdoc::compare::passages::sentence_words([&a, &b]).map(Arc::from),
        pairs,
        Vec::new(),
    );
    println!(
        "documents: {na} x {nb} sentences; {} scored pairs",
        comparison.pairs.len()
    );
    let analysis = Analysis::new(
        [
            LoadedDoc {
                path: PathBuf::from("a.txt"),
                doc: Arc::clone(&a),
            },
            LoadedDoc {
                path: PathBuf::from("b.txt"),
                doc: Arc::clone(&b),
            },
        ],
        Arc::new(prepared),
        comparison,
        CompareOptions::default(),
    );
    // Each part as the view derives it, the median of 15 runs (the first run of each pays for
    // cold memory).
    let median = |f: &mut dyn FnMut()| -> Duration {
        let mut times: Vec<Duration> = (0..15)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect();
        times.sort();
        times[times.len() / 2]
    };
    for permission in [0.5, 0.8] {
        let thresholds = simdoc::similarity::Thresholds {
            permission,
            variation: 0.15,
            max_e_value: None,
            min_words: 0,
        };
        let matches: Vec<_> = analysis.comparison.matches(&thresholds).copied().collect();
        let filter = median(&mut || {
            let _ = analysis.comparison.matches(&thresholds).count();
        });
        let figures = median(&mut || {
            let _ = analysis.comparison.figures_given(&matches, &thresholds);
        });
        let trees = median(&mut || {
            let _ = analysis.comparison.tree_matching_of(&a, &b, &matches);
        });
        let passages = median(&mut || {
            let _ = passages_of(
                &analysis.comparison,
                &matches,
                &thresholds,
                Default::default(),
            );
        });
        let view = median(&mut || {
            let _ = View::new(&analysis, thresholds, Default::default());
        });
        println!(
            "View::new at permission {permission}: median {view:.1?} (its parts one by one: filter {filter:.1?}, figures {figures:.1?}, tree matching {trees:.1?}, passages {passages:.1?})"
        );
    }
    let settings = Settings {
        example_shown: true,
        thresholds: simdoc::similarity::Thresholds {
            permission: 0.5,
            variation: 0.15,
            max_e_value: None,
            min_words: 0,
        },
        ..Settings::default()
    };
    let mut app = SimdocApp::new(settings, Arc::new(model));
    app.docs = [
        Some(analysis.docs[0].clone()),
        Some(analysis.docs[1].clone()),
    ];
    app.view = Some(View::new(
        &analysis,
        app.settings.thresholds,
        app.settings.passage_options(),
    ));
    app.analysis = Some(analysis);
    println!(
        "matches shown at permission 0.5: {}",
        app.view.as_ref().map_or(0, |v| v.matches.len())
    );

    // The articles hold letters the bundled fonts lack (the app draws them with a fallback
    // font or as boxes); kittest refuses them unless told.
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .allow_missing_glyphs()
        .build_ui_state(|ui, app: &mut SimdocApp| app.ui(ui), app);
    for _ in 0..5 {
        frame(&mut harness);
    }

    let idle: Vec<Duration> = (0..20).map(|_| frame(&mut harness)).collect();
    println!("idle frame: {}", summary(idle));

    let mut slider = Vec::new();
    for k in 0..20 {
        let value = 0.5 + 0.025 * f64::from(k);
        harness
            .get_by_role_and_label(Role::Slider, "Permission")
            .set_value_accesskit(value);
        slider.push(frame(&mut harness));
        frame(&mut harness);
    }
    println!("frame after a slider move: {}", summary(slider));

    let scroll = scroll_frames(&mut harness, egui::pos2(250.0, 450.0));
    println!("scroll frame (text pane): {}", summary(scroll));

    let plot = egui::pos2(1150.0, 330.0);
    let mut hover = Vec::new();
    for k in 0..20 {
        harness.hover_at(plot + egui::vec2(f32::from(k as u8) * 3.0, f32::from(k as u8) * 3.0));
        hover.push(frame(&mut harness));
    }
    println!("frame hovering the dotplot: {}", summary(hover));

    harness.state_mut().settings.central_view = CentralView::Hierarchies;
    frame(&mut harness);
    let trees: Vec<Duration> = (0..20).map(|_| frame(&mut harness)).collect();
    println!("hierarchies view frame: {}", summary(trees));

    // The Sources view with document A against B and A itself: every sentence coloured by its
    // source, the document's 10,000 sentences in one scroll area.
    let sources = vec![Document::clone(&b), Document::clone(&a)];
    let attribution = simdoc::sources::attribute(
        &a,
        &sources,
        model,
        &CompareOptions::default(),
        &harness.state().settings.thresholds,
        &std::sync::atomic::AtomicBool::new(false),
    )
    .expect("never cancelled");
    let run = SourcesRun {
        input: Arc::new(SourcesInput {
            document: LoadedDoc {
                path: PathBuf::from("a.txt"),
                doc: Arc::clone(&a),
            },
            names: vec!["b.txt".into(), "a.txt".into()],
            sources,
            skipped: Vec::new(),
            base: None,
        }),
        ranks: attribution.ranks(),
        attribution,
        thresholds: harness.state().settings.thresholds,
        options: CompareOptions::default(),
    };
    harness.state_mut().sources.run = Some(Arc::new(run));
    harness.state_mut().settings.central_view = CentralView::Sources;
    frame(&mut harness);
    let sources_idle: Vec<Duration> = (0..20).map(|_| frame(&mut harness)).collect();
    println!("sources view frame: {}", summary(sources_idle));
    let scroll = scroll_frames(&mut harness, egui::pos2(950.0, 450.0));
    println!("scroll frame (sources view): {}", summary(scroll));
}
