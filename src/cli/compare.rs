//! `simdoc compare A B`: the comparison the viewer shows, headless.
//!
//! Prints a human summary (unless `--quiet`) and writes any of: the JSON report (`--json FILE`,
//! or `-` for standard output), the matched pairs as CSV, the HTML report, the dotplot as PNG or
//! SVG (by extension). The written reports list the passages (runs of matches) and each match's
//! words aligned.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use anyhow::{Context, bail};
use clap::Args;

use simdoc::compare::PreparedPair;
use simdoc::compare::passages::PassageOptions;
use simdoc::document::{self, LoadOptions};
use simdoc::model::ReferenceModel;
use simdoc::render::report::{Report, Side};
use simdoc::render::{html, png};
use simdoc::similarity::Method;

use super::output::{is_stdout, write_file, write_json, write_with};
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
    /// A reference model file (`simdoc model build`); default: the embedded model.
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Compare navigation, headers, footers, asides and forms too.
    #[arg(long)]
    pub include_boilerplate: bool,
    /// Write the JSON report to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the matched pairs with both sentences as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write a self-contained HTML report.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write the dotplot: FILE.png or FILE.svg.
    #[arg(long, value_name = "FILE")]
    pub dotplot: Option<PathBuf>,
    /// Passages: the largest number of unmatched sentences between two matches of one passage.
    #[arg(long, value_name = "N", default_value_t = simdoc::compare::passages::DEFAULT_GAP)]
    pub passage_gap: u32,
    /// Passages: the fewest matched pairs a passage must have to be listed.
    #[arg(long, value_name = "N", default_value_t = simdoc::compare::passages::DEFAULT_MIN_PAIRS)]
    pub min_passage: usize,
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
            _ => bail!(
                "{}: the dotplot file must end in .png or .svg",
                path.display()
            ),
        },
        None => None,
    };
    let model = reference_model(args.model.as_deref())?;
    let model: &ReferenceModel = &model;
    let options = LoadOptions::default();
    let (a, b) = rayon::join(
        || document::load(&args.a, &options),
        || document::load(&args.b, &options),
    );
    let (a, b) = (a?, b?);
    let compare = args
        .matching
        .compare_options(args.method, args.include_boilerplate)?;
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
    .with_passages(PassageOptions {
        gap: args.passage_gap,
        min_pairs: args.min_passage.max(1),
    });
    // The word-by-word alignment is for the written reports only.
    let report = if args.json.is_some() || args.csv.is_some() || args.html.is_some() {
        report.with_words(model, &compare)
    } else {
        report
    };

    let json_to_stdout = args.json.as_deref().is_some_and(is_stdout);
    if let Some(path) = &args.json {
        write_json(path, &report.to_json())?;
    }
    if let Some(path) = &args.csv {
        write_with(path, |out| Ok(report.write_csv(out)?))?;
    }
    if let Some(path) = &args.html {
        write_file(path, html::report_html(&report).as_bytes())?;
    }
    if let (Some(path), Some(is_png)) = (&args.dotplot, dotplot_format) {
        let svg = report.dotplot_svg(DOTPLOT_SIZE, DOTPLOT_SIZE);
        if is_png {
            let bytes = png::svg_to_png(&svg, 1.0)
                .with_context(|| format!("{}: cannot draw the dotplot", path.display()))?;
            write_file(path, &bytes)?;
        } else {
            write_file(path, svg.as_bytes())?;
        }
    }
    if !args.quiet && !json_to_stdout {
        print!("{}", report.summary());
    } else if !args.quiet {
        eprint!("{}", report.summary());
    }
    Ok(())
}
