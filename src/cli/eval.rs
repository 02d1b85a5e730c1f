//! `simdoc eval pairs` and `simdoc eval documents`: how well the matchers find what labelled data
//! says they should (precision, recall, F1, FP and FN rates, threshold sweeps and their plot).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use simdoc::compare::CompareOptions;
use simdoc::eval::documents;
use simdoc::eval::pairs::{self, PairsReport};
use simdoc::eval::plot::SweepPlot;
use simdoc::eval::{Format, score_pairs};
use simdoc::model::ReferenceModel;
use simdoc::render::png;
use simdoc::similarity::{Method, Thresholds};

use super::output::{RunOutputs, is_stdout, refuse_overwriting};
use super::reference::reference_model;

#[derive(Debug, Args)]
pub struct EvalArgs {
    #[command(subcommand)]
    pub command: EvalCommand,
}

#[derive(Debug, Subcommand)]
pub enum EvalCommand {
    /// Score labelled sentence pairs (MSRP, PAN, STS-B, WikiSplit) with the sentence matchers.
    ///
    /// Each pair is scored by every matcher once. By default the fuzzy pairs are decided by the
    /// verdict preset (the learned verdict's probability, the best F1 on the training pairs);
    /// under --preset measured or thesis by EQ at the permission and variation thresholds
    /// (thesis eq. 3.4). STS-B pairs count as the same when
    /// graded 4 or more; WikiSplit compares each original with its split as one text, against a
    /// built negative per row (see EVALUATION.md).
    Pairs(PairsArgs),
    /// Compare labelled document pairs (a `file,source,label` CSV) and score "reused".
    ///
    /// Each file is compared with its source; the label is a category name, or `non` for a file
    /// that does not reuse its source. Paths are relative to --root when given, else to the CSV
    /// file's folder. A file counts as reused when its degree of resemblance to its source (the
    /// share of its sentences matching one of the source's) reaches --threshold.
    Documents(DocumentsArgs),
    /// Text alignment as PAN measures it: build a corpus of reused passages in unrelated
    /// backgrounds of 5 KB to 5 MB, run simdoc over it (or score another detector), report
    /// plagdet, precision, recall and granularity per size and obfuscation.
    Alignment(super::eval_alignment::AlignmentArgs),
    /// The editor's change list: build revisions of training texts with known edits (reworded,
    /// deleted, added and moved sentences and paragraphs), run simdoc's change list over them
    /// (or score another tool's), report precision, recall and F1 per kind of change.
    Changes(super::eval_changes::ChangesArgs),
}

/// A matcher, or all three.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodChoice {
    One(Method),
    All,
}

impl MethodChoice {
    fn methods(self) -> Vec<Method> {
        match self {
            MethodChoice::One(m) => vec![m],
            MethodChoice::All => Method::ALL.to_vec(),
        }
    }
}

impl std::str::FromStr for MethodChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "all" {
            Ok(MethodChoice::All)
        } else {
            s.parse::<Method>().map(MethodChoice::One).map_err(|_| {
                format!("unknown method `{s}` (expected fuzzy, overlap, fourgram, exact or all)")
            })
        }
    }
}

/// Options shared by both subcommands.
#[derive(Debug, Args)]
pub struct MatchArgs {
    #[command(flatten)]
    pub matching: super::MatchingArgs,
    #[command(flatten)]
    pub model: super::ModelArg,
    /// Write the results as JSON to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Do not print the summary or show progress.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Arguments of `simdoc eval pairs` (its help text is on [`EvalCommand::Pairs`]).
#[derive(Debug, Args)]
pub struct PairsArgs {
    /// The data set's format: msrp, pan, stsb or wikisplit.
    #[arg(long)]
    pub format: Format,
    /// The data set's folder, or (msrp, stsb, wikisplit) one file of it.
    pub path: PathBuf,
    /// The split: msrp train|test; pan train|test|tune|holdout (tune and holdout are fixed parts
    /// of train: holdout is every fifth pair); stsb train|dev|test; wikisplit
    /// train|tune|validation|test. Default: train (wikisplit: validation).
    #[arg(long)]
    pub split: Option<String>,
    /// Sentence matcher: fuzzy, overlap, fourgram, exact or all.
    #[arg(long, default_value = "all")]
    pub method: MethodChoice,
    #[command(flatten)]
    pub common: MatchArgs,
    /// Also sweep the fuzzy thresholds: the permission from 0.5 to 1 by 0.025 (variation off, as
    /// in the thesis's Fig. 3.2(a), and at the given variation), the variation from 0 to 0.5 at
    /// the given permission (Fig. 3.2(b)), and in the JSON the grid of both.
    #[arg(long)]
    pub sweep: bool,
    /// Draw the sweep (FP and FN rates against both thresholds, precision-recall curves):
    /// FILE.svg or FILE.png. Implies --sweep.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Also score the fuzzy method (or the verdict) and word overlap within quartiles of pair
    /// length (mean refined terms), and the verdict's calibration: does a ranking hold once
    /// length, which separates PAN's classes on its own, is held nearly fixed?
    #[arg(long)]
    pub bands: bool,
    /// Write every pair's scores as CSV (for error analysis): label, grade, both Sims (fuzzy and
    /// overlap), whether the rules allow the pair, the binary methods' decisions, the learned
    /// verdict's probability (under the verdict preset) and the two texts.
    #[arg(long, value_name = "FILE")]
    pub scores: Option<PathBuf>,
}

/// Arguments of `simdoc eval documents` (its help text is on [`EvalCommand::Documents`]).
#[derive(Debug, Args)]
pub struct DocumentsArgs {
    /// The label file (CSV: file,source,label).
    #[arg(long)]
    pub labels: PathBuf,
    /// The folder the label file's paths are relative to (default: the label file's folder).
    #[arg(long)]
    pub root: Option<PathBuf>,
    /// Sentence matcher: fuzzy, fourgram or exact.
    #[arg(long, default_value = "fuzzy")]
    pub method: Method,
    /// The figure that decides "reused": resemblance (the share of the file's sentences that
    /// match, thesis eq. 4.1) or containment (each sentence's best similarity into the source,
    /// averaged).
    #[arg(long, default_value = "resemblance")]
    pub score: documents::DocumentScore,
    /// The score of a file in its source at or above which it counts as reused.
    #[arg(long, default_value_t = 0.5)]
    pub threshold: f64,
    /// Also report every resemblance threshold from 0 to 1 by 0.05.
    #[arg(long)]
    pub sweep: bool,
    #[command(flatten)]
    pub common: MatchArgs,
}

pub fn run(args: &EvalArgs) -> anyhow::Result<()> {
    match &args.command {
        EvalCommand::Pairs(args) => run_pairs(args),
        EvalCommand::Documents(args) => run_documents(args),
        EvalCommand::Alignment(args) => super::eval_alignment::run(args),
        EvalCommand::Changes(args) => super::eval_changes::run(args),
    }
}

impl MatchArgs {
    fn thresholds(&self) -> anyhow::Result<Thresholds> {
        self.matching.thresholds()
    }

    /// The comparison options of the chosen preset (refinement and rules) for `method`.
    fn compare_options(&self, method: Method) -> anyhow::Result<CompareOptions> {
        self.matching.compare_options(method, false)
    }

    fn with_model<T>(
        &self,
        f: impl FnOnce(&ReferenceModel) -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        let model = reference_model(self.model.file.as_deref())?;
        super::reference::check_rules(&model, &self.compare_options(Method::Fuzzy)?.rules)?;
        f(&model)
    }
}

/// A progress bar on stderr, hidden when asked or when stderr is not a terminal.
fn progress_bar(quiet: bool, total: u64, message: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if quiet || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("{msg:12} [{bar:40}] {pos}/{len} ({elapsed}, eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_message(message.to_string());
    bar
}

/// Prints the summary on stdout, or on stderr when stdout carries the JSON.
fn print_summary(common: &MatchArgs, summary: &str) {
    if common.quiet {
        return;
    }
    if common.json.as_deref().is_some_and(is_stdout) {
        eprint!("{summary}");
    } else {
        print!("{summary}");
    }
}

/// Whether a picture path asks for PNG (else SVG); other extensions are an error.
fn plot_is_png(path: &Path) -> anyhow::Result<bool> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("png") => Ok(true),
        Some("svg") => Ok(false),
        _ => super::usage!("{}: the plot file must end in .png or .svg", path.display()),
    }
}

/// Size of the sweep plot.
const PLOT_SIZE: (u32, u32) = (1260, 440);

fn run_pairs(args: &PairsArgs) -> anyhow::Result<()> {
    // A pair of sentences is no comparison of documents: there is no chance to judge it
    // against, so a pair is decided as a yes/no question, by the preset with the best F1 on the
    // training data unless another is named (the verdict, or the measured preset with a model
    // that has no verdict).
    let model = reference_model(args.common.model.file.as_deref())?;
    let model: &ReferenceModel = &model;
    let default = simdoc::compare::Preset::for_sentence_pairs(model);
    let preset_name = args.common.matching.preset.unwrap_or(default).name();
    let thresholds = args.common.matching.preset_with(default)?.thresholds;
    let options = args
        .common
        .matching
        .compare_options_with(default, Method::Fuzzy, false)?;
    super::reference::check_rules(model, &options.rules)?;
    let plot_png = args.plot.as_deref().map(plot_is_png).transpose()?;
    let inputs: Vec<PathBuf> = std::iter::once(args.path.clone())
        .chain(args.common.model.file.clone())
        .collect();
    refuse_overwriting(
        &[
            args.common.json.as_ref(),
            args.plot.as_ref(),
            args.scores.as_ref(),
        ],
        &[],
        &inputs,
    )?;
    let mut outputs = RunOutputs::new();
    let set = args.format.load(&args.path, args.split.as_deref())?;
    let report = {
        let texts: Vec<(&str, &str)> = set
            .pairs
            .iter()
            .map(|p| (p.left.as_str(), p.right.as_str()))
            .collect();
        let halves_len = set.halves.as_ref().map_or(0, Vec::len);
        let bar = progress_bar(
            args.common.quiet,
            (texts.len() + halves_len) as u64,
            "scoring",
        );
        let scores = score_pairs(&texts, model, &options, &|n| bar.inc(n));
        let halves = set
            .halves
            .as_ref()
            .map(|h| score_pairs(h, model, &options, &|n| bar.inc(n)));
        bar.finish_and_clear();
        if let Some(path) = &args.scores {
            outputs.write_with(path, |out| write_scores(out, &set.pairs, &scores))?;
        }
        let mut report = pairs::report(
            &set,
            &scores,
            &args.method.methods(),
            thresholds,
            args.sweep || args.plot.is_some(),
            halves.as_deref(),
        );
        if args.bands {
            report.bands = Some(simdoc::eval::bands::report(&set, &scores, thresholds));
        }
        if let Some(halves) = &set.halves {
            // Two (half, original) pairs per row, in order.
            let rows: Vec<(String, [String; 2])> = halves
                .chunks_exact(2)
                .map(|h| (h[0].1.clone(), [h[0].0.clone(), h[1].0.clone()]))
                .collect();
            report.one_to_two = Some(simdoc::eval::one_to_two::report(
                &rows,
                model,
                &options,
                &thresholds,
            ));
        }
        report.preset = preset_name;
        report
    };
    if let Some(path) = &args.common.json {
        outputs.write_json(path, &report)?;
    }
    if let (Some(path), Some(is_png)) = (&args.plot, plot_png) {
        outputs.write_file(path, &plot_bytes(path, is_png, &report)?)?;
    }
    outputs.commit()?;
    print_summary(&args.common, &report.summary());
    Ok(())
}

/// One row of `--scores`.
#[derive(serde::Serialize)]
struct ScoreRow<'a> {
    pair: usize,
    label: u8,
    grade: Option<f64>,
    sim_lr: f64,
    sim_rl: f64,
    min_sim: f64,
    overlap_lr: f64,
    overlap_rl: f64,
    /// The rules let the graded methods pair the two at all (short sentences).
    may_match: u8,
    fourgram: u8,
    exact: u8,
    /// The learned verdict's probability (under rules that decide by it).
    verdict: Option<f64>,
    /// The sentences, as CSV cells no spreadsheet evaluates ([`simdoc::escape::csv_cell`]).
    left: std::borrow::Cow<'a, str>,
    right: std::borrow::Cow<'a, str>,
}

fn write_scores(
    out: &mut dyn std::io::Write,
    pairs: &[simdoc::eval::LabeledPair],
    scores: &[simdoc::eval::PairScore],
) -> anyhow::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    for (i, (pair, score)) in pairs.iter().zip(scores).enumerate() {
        writer.serialize(ScoreRow {
            pair: i + 1,
            label: u8::from(pair.positive),
            grade: pair.grade,
            sim_lr: score.sim_lr,
            sim_rl: score.sim_rl,
            min_sim: score.sim_lr.min(score.sim_rl),
            overlap_lr: score.overlap_lr,
            overlap_rl: score.overlap_rl,
            may_match: u8::from(score.may_match),
            fourgram: u8::from(score.fourgram_match),
            exact: u8::from(score.exact_match),
            verdict: score.verdict,
            left: simdoc::escape::csv_cell(&pair.left),
            right: simdoc::escape::csv_cell(&pair.right),
        })?;
    }
    Ok(writer.flush()?)
}

/// The sweep plot's bytes: PNG or SVG.
fn plot_bytes(path: &Path, is_png: bool, report: &PairsReport) -> anyhow::Result<Vec<u8>> {
    let Some(sweep) = &report.sweep else {
        bail!("no sweep to plot");
    };
    let points: Vec<(&str, f64, f64)> = report
        .results
        .iter()
        .filter(|r| !r.method.is_graded() && r.figures.tp + r.figures.fp > 0)
        .map(|r| (r.method.name(), r.figures.precision, r.figures.recall))
        .collect();
    let title = format!(
        "{} {} ({} pairs): fuzzy-set thresholds",
        report.dataset,
        report.split,
        report.positives + report.negatives
    );
    let svg = SweepPlot {
        title: &title,
        sweep: &sweep.sweep,
        points: &points,
        width: PLOT_SIZE.0,
        height: PLOT_SIZE.1,
    }
    .to_svg();
    if is_png {
        png::svg_to_png(&svg, 1.0)
            .with_context(|| format!("{}: cannot draw the plot", simdoc::escape::path(path)))
    } else {
        Ok(svg.into_bytes())
    }
}

fn run_documents(args: &DocumentsArgs) -> anyhow::Result<()> {
    let thresholds = args.common.thresholds()?;
    if !(0.0..=1.0).contains(&args.threshold) {
        super::usage!("--threshold must be between 0 and 1");
    }
    refuse_overwriting(
        &[args.common.json.as_ref()],
        &[],
        std::slice::from_ref(&args.labels),
    )?;
    let rows = documents::read_labels(&args.labels, args.root.as_deref())?;
    let options = args.common.compare_options(args.method)?;
    let report = args.common.with_model(|model| {
        let bar = progress_bar(args.common.quiet, rows.len() as u64, "comparing");
        let outcomes =
            documents::compare_rows(&args.labels, &rows, model, &options, &thresholds, &|n| {
                bar.inc(n)
            })?;
        bar.finish_and_clear();
        Ok(documents::report(
            &args.labels,
            &outcomes,
            &options,
            thresholds,
            args.score,
            args.threshold,
            args.sweep,
        ))
    })?;
    if let Some(path) = &args.common.json {
        let mut outputs = RunOutputs::new();
        outputs.write_json(path, &report)?;
        outputs.commit()?;
    }
    print_summary(&args.common, &report.summary());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_choice_parses_all_and_each_method() {
        assert_eq!("all".parse::<MethodChoice>(), Ok(MethodChoice::All));
        assert_eq!(
            "fourgram".parse::<MethodChoice>(),
            Ok(MethodChoice::One(Method::Fourgram))
        );
        assert!("fuzz".parse::<MethodChoice>().is_err());
        assert_eq!(MethodChoice::All.methods(), Method::ALL.to_vec());
    }

    #[test]
    fn presets_and_explicit_thresholds_combine() {
        let args = |preset: Option<&str>, permission: Option<f64>| MatchArgs {
            matching: super::super::MatchingArgs {
                preset: preset.map(|p| simdoc::compare::Preset::named(p).unwrap()),
                values: super::super::MatchingValues {
                    permission,
                    ..Default::default()
                },
            },
            model: Default::default(),
            json: None,
            quiet: true,
        };
        // Documents are compared under the documents preset unless another is named.
        assert_eq!(
            args(None, None).thresholds().unwrap(),
            Thresholds::DOCUMENTS
        );
        assert_eq!(
            args(Some("measured"), None).thresholds().unwrap(),
            Thresholds::MEASURED
        );
        assert_eq!(
            args(Some("measured"), Some(0.7)).thresholds().unwrap(),
            Thresholds {
                permission: 0.7,
                variation: Thresholds::MEASURED.variation,
                max_e_value: None,
                min_words: 0,
            }
        );
        assert!(args(None, Some(1.5)).thresholds().is_err());
    }

    #[test]
    fn plot_extension_decides_the_format() {
        assert!(plot_is_png(Path::new("a.PNG")).unwrap());
        assert!(!plot_is_png(Path::new("a.svg")).unwrap());
        assert!(plot_is_png(Path::new("a.pdf")).is_err());
    }
}
