//! `simdoc compare A B`: the comparison the viewer shows, headless.
//!
//! Prints a human summary (unless `--quiet`) and writes any of: the JSON report (`--json FILE`,
//! or `-` for standard output; compact, or `--json-full`), the change list as JSON
//! (`--changes FILE`), the matched pairs as CSV, the HTML report, the dotplot as PNG or
//! SVG (by extension), PAN's detection XML (`--pan DIR`). The written reports list the passages
//! (runs of matches) and each match's words aligned.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use anyhow::Context;
use clap::Args;

use simdoc::compare::PreparedPair;
use simdoc::compare::passages::PassageOptions;
use simdoc::document;
use simdoc::eval::alignment::pan_xml;
use simdoc::eval::alignment::run::detections_of;
use simdoc::model::ReferenceModel;
use simdoc::render::report::{Report, Side};
use simdoc::render::report_json::JsonDetail;
use simdoc::render::{html, png};
use simdoc::similarity::Method;

use super::output::{RunOutputs, is_stdout, refuse_overwriting};
use super::reference::reference_model;

/// Size of the dotplot written by `--dotplot`.
const DOTPLOT_SIZE: u32 = 900;

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The first document (x axis of the dotplot).
    pub a: PathBuf,
    /// The second document (y axis of the dotplot).
    pub b: PathBuf,
    /// Sentence matcher: fuzzy (fuzzy-set IR), overlap (the same without word relatedness),
    /// fourgram (three least-frequent 4-grams) or exact.
    #[arg(long, default_value = "fuzzy")]
    pub method: Method,
    #[command(flatten)]
    pub matching: super::MatchingArgs,
    #[command(flatten)]
    pub model: super::ModelArg,
    #[command(flatten)]
    pub read_limit: super::MaxBytesArg,
    /// Compare navigation, headers, footers, asides and forms too.
    #[arg(long)]
    pub include_boilerplate: bool,
    /// Write the JSON report to FILE (`-` for standard output): compact, on one line, without
    /// what can be recomputed from the rest (each match's offsets and words aligned, the
    /// hierarchy nodes); see --json-full.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the full JSON report (indented, with each match's offsets and words aligned and
    /// the hierarchy nodes' shading) to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub json_full: Option<PathBuf>,
    /// Write the matched pairs with both sentences as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write the change list as JSON to FILE (`-` for standard output): what was added,
    /// deleted, changed (reworded in place, with the words that differ) or moved from A to B,
    /// each change with its span `[start, end)` in characters of each file as read (the JSON
    /// report's offsets) and its sentences.
    #[arg(long, value_name = "FILE")]
    pub changes: Option<PathBuf>,
    /// Write a self-contained HTML report.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write the dotplot: FILE.png or FILE.svg.
    #[arg(long, value_name = "FILE")]
    pub dotplot: Option<PathBuf>,
    /// Write the passages as PAN's text-alignment detections into DIR (created if missing), in
    /// the file PAN names after the pair (`A-B.xml`, A the suspicious document, B the source),
    /// with character offsets into the documents as read.
    #[arg(long, value_name = "DIR")]
    pub pan: Option<PathBuf>,
    /// Passages: the largest number of unmatched sentences between two matches of one passage.
    #[arg(long, value_name = "N", default_value_t = simdoc::compare::passages::DEFAULT_GAP)]
    pub passage_gap: u32,
    /// Passages: the fewest matched pairs a passage must have to be listed (default: 1 when
    /// matches are judged against chance, else 2).
    #[arg(long, value_name = "N")]
    pub min_passage: Option<usize>,
    /// Do not print the summary.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(args: &CompareArgs) -> anyhow::Result<()> {
    let preset = args.matching.preset()?;
    let thresholds = preset.thresholds;
    let dotplot_format = match &args.dotplot {
        Some(path) => match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("png") => Some(true),
            Some("svg") => Some(false),
            _ => super::usage!(
                "{}: the dotplot file must end in .png or .svg",
                simdoc::escape::path(path)
            ),
        },
        None => None,
    };
    let inputs: Vec<PathBuf> = [&args.a, &args.b]
        .into_iter()
        .chain(&args.model.file)
        .cloned()
        .collect();
    refuse_overwriting(
        &[
            args.json.as_ref(),
            args.json_full.as_ref(),
            args.csv.as_ref(),
            args.changes.as_ref(),
            args.html.as_ref(),
            args.dotplot.as_ref(),
        ],
        &[],
        &inputs,
    )?;
    let model = reference_model(args.model.file.as_deref())?;
    let model: &ReferenceModel = &model;
    let options = args.read_limit.load_options();
    let (a, b) = rayon::join(
        || document::load(&args.a, &options),
        || document::load(&args.b, &options),
    );
    let (a, b) = (a?, b?);
    super::inputs::print_warnings(&args.a.display().to_string(), &a);
    super::inputs::print_warnings(&args.b.display().to_string(), &b);
    let compare = args
        .matching
        .compare_options(args.method, args.include_boilerplate)?;
    // The summary names the preset when the settings are one (no value overridden).
    let preset = args.matching.preset()?.name();
    super::reference::check_rules(model, &compare.rules)?;
    let never = AtomicBool::new(false);
    let comparison = PreparedPair::new(&a, &b, model, &compare).compare(
        model,
        compare.method,
        compare.floor,
        &never,
    )?;
    let paths = [args.a.display().to_string(), args.b.display().to_string()];
    let report = Report::new(
        [
            Side {
                path: &paths[0],
                doc: &a,
            },
            Side {
                path: &paths[1],
                doc: &b,
            },
        ],
        &comparison,
        thresholds,
    )
    .with_preset(preset)
    .with_passages(PassageOptions {
        gap: args.passage_gap,
        min_pairs: args
            .min_passage
            .unwrap_or(simdoc::compare::passages::default_min_pairs(
                compare.chance_search.is_some(),
            ))
            .max(1),
    });
    // The word-by-word alignment is for the written reports that show it only.
    let report = if args.json_full.is_some() || args.csv.is_some() || args.html.is_some() {
        report.with_words(model, &compare)
    } else if args.changes.is_some() {
        report.with_change_words(model, &compare)
    } else {
        report
    };

    let json_to_stdout = [&args.json, &args.json_full, &args.changes]
        .into_iter()
        .any(|json| json.as_deref().is_some_and(is_stdout));
    let mut outputs = RunOutputs::new();
    if let Some(path) = &args.json {
        outputs.write_json_compact(path, &report.to_json_with(JsonDetail::Compact))?;
    }
    if let Some(path) = &args.json_full {
        outputs.write_json(path, &report.to_json_with(JsonDetail::Full))?;
    }
    if let Some(path) = &args.changes {
        outputs.write_json(path, &report.changes_json())?;
    }
    if let Some(path) = &args.csv {
        outputs.write_with(path, |out| Ok(report.write_csv(out)?))?;
    }
    if let Some(path) = &args.html {
        outputs.write_file(path, html::report_html(&report).as_bytes())?;
    }
    if let Some(dir) = &args.pan {
        write_pan(
            &mut outputs,
            dir,
            [&args.a, &args.b],
            [&a, &b],
            &report.passages,
        )?;
    }
    if let (Some(path), Some(is_png)) = (&args.dotplot, dotplot_format) {
        let svg = report.dotplot_svg(DOTPLOT_SIZE, DOTPLOT_SIZE);
        if is_png {
            let bytes = png::svg_to_png(&svg, 1.0).with_context(|| {
                format!("{}: cannot draw the dotplot", simdoc::escape::path(path))
            })?;
            outputs.write_file(path, &bytes)?;
        } else {
            outputs.write_file(path, svg.as_bytes())?;
        }
    }
    outputs.commit()?;
    if !args.quiet && !json_to_stdout {
        print!("{}", report.summary());
    } else if !args.quiet {
        eprint!("{}", report.summary());
    }
    Ok(())
}

/// Writes `passages` as PAN's detection XML for the pair `paths` into `dir`.
fn write_pan(
    outputs: &mut RunOutputs,
    dir: &Path,
    paths: [&Path; 2],
    docs: [&document::Document; 2],
    passages: &[simdoc::compare::Passage],
) -> anyhow::Result<()> {
    let names = paths.map(|p| {
        p.file_name().map_or_else(
            || p.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    });
    std::fs::create_dir_all(dir)
        .with_context(|| format!("{}: cannot create", simdoc::escape::path(dir)))?;
    let detections = detections_of(passages, docs, [&names[0], &names[1]]);
    let path = dir.join(pan_xml::pair_file_name(&names[0], &names[1]));
    outputs.write_file(
        &path,
        pan_xml::detections_xml(&names[0], &detections).as_bytes(),
    )
}
