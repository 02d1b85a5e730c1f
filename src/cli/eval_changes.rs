//! `simdoc eval changes`: build revisions of training texts with known edits, run simdoc's
//! change list over them (or score another tool's), with precision, recall and F1 per kind of
//! change ([`simdoc::eval::changes`]).

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use anyhow::Context;
use clap::{Args, Subcommand};

use simdoc::compare::PreparedPair;
use simdoc::compare::changes::ChangeRules;
use simdoc::eval::changes::corpus::{self, CorpusSpec, Manifest};
use simdoc::eval::changes::run;
use simdoc::eval::changes::score::{ChangeScore, markdown};
use simdoc::model::ReferenceModel;
use simdoc::render::report::{Report, Side};
use simdoc::similarity::Method;

use super::output::RunOutputs;
use super::reference::reference_model;

#[derive(Debug, Args)]
pub struct ChangesArgs {
    #[command(subcommand)]
    pub command: ChangesCommand,
}

#[derive(Debug, Subcommand)]
pub enum ChangesCommand {
    /// Build revisions with known edits into a folder: Wikipedia texts of about 10, 30 and
    /// 70 KB, each revised with PAN paraphrases as changed sentences, sentences and a paragraph
    /// deleted, Reuters sentences and a paragraph added, paragraphs moved (one reworded inside).
    Build(BuildArgs),
    /// Run simdoc's change list on every revision and score it per kind of change.
    Run(Box<RunArgs>),
    /// Score another tool's change lists (one `--changes`-shaped JSON file per revision).
    Score(ScoreArgs),
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The folder to write the revisions into.
    pub out: PathBuf,
    /// The shared data folder (default: $SIMDOC_DATA).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// The part of the texts and pairs to draw from: tune (to choose on) or holdout.
    #[arg(long, default_value = "tune")]
    pub split: String,
    /// The random seed.
    #[arg(long, default_value_t = 43)]
    pub seed: u64,
    /// Sizes of A in bytes, comma-separated (default 10000,30000,70000).
    #[arg(long, value_delimiter = ',')]
    pub sizes: Vec<usize>,
    /// Revisions per size, one number per size (default 40,40,20).
    #[arg(long, value_delimiter = ',')]
    pub revisions: Vec<usize>,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The folder of revisions (`simdoc eval changes build`).
    pub corpus: PathBuf,
    #[command(flatten)]
    pub matching: super::MatchingArgs,
    #[command(flatten)]
    pub model: super::ModelArg,
    /// Only the revisions of these sizes (bytes, comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub sizes: Vec<usize>,
    /// Write simdoc's change lists (as `--changes` writes them) into this folder.
    #[arg(long, value_name = "DIR")]
    pub detections: Option<PathBuf>,
    /// Write the scores as JSON to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// The configuration's name in the table.
    #[arg(long, default_value = "simdoc")]
    pub label: String,
    /// The pair bar of the change list run (the largest E-value of a reworded pair of its
    /// own); default: simdoc's.
    #[arg(long)]
    pub pair_bar: Option<f64>,
    /// Also try these pair bars (comma-separated), from the same comparisons: one row each,
    /// best macro F1 first.
    #[arg(long, value_delimiter = ',')]
    pub sweep_pair_bar: Vec<f64>,
}

#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// The folder of revisions.
    pub corpus: PathBuf,
    /// The folder of the tool's change lists: NNNNN.json per revision.
    #[arg(long)]
    pub detections: PathBuf,
    /// The tool's name in the table.
    #[arg(long, default_value = "tool")]
    pub label: String,
    /// Write the scores as JSON to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

pub fn run(args: &ChangesArgs) -> anyhow::Result<()> {
    match &args.command {
        ChangesCommand::Build(args) => build(args),
        ChangesCommand::Run(args) => run_simdoc(args),
        ChangesCommand::Score(args) => score_other(args),
    }
}

fn build(args: &BuildArgs) -> anyhow::Result<()> {
    let data = match &args.data {
        Some(data) => data.clone(),
        None => std::env::var_os("SIMDOC_DATA")
            .map(PathBuf::from)
            .context("give --data or set SIMDOC_DATA to the shared data folder")?,
    };
    let mut spec = CorpusSpec::standard(&args.split);
    spec.seed = args.seed;
    if !args.sizes.is_empty() {
        spec.sizes = args.sizes.clone();
    }
    if !args.revisions.is_empty() {
        spec.revisions = args.revisions.clone();
    }
    let manifest = corpus::build(&data, &spec, &args.out)?;
    eprintln!(
        "{}: {} revisions",
        simdoc::escape::path(&args.out),
        manifest.revisions.len()
    );
    Ok(())
}

/// The table rows of one tool: all revisions, then each size.
fn rows(
    label: &str,
    all: &ChangeScore,
    by_size: &[(usize, ChangeScore)],
) -> Vec<(String, ChangeScore)> {
    let mut rows = vec![(
        format!("{label}, all {} revisions", all.revisions),
        all.clone(),
    )];
    for (size, score) in by_size {
        rows.push((
            format!("{label}, {} KB ({})", size / 1000, score.revisions),
            score.clone(),
        ));
    }
    rows
}

fn run_simdoc(args: &RunArgs) -> anyhow::Result<()> {
    let manifest = Manifest::read(&args.corpus)?;
    let model = reference_model(args.model.file.as_deref())?;
    let model: &ReferenceModel = &model;
    let thresholds = args.matching.thresholds()?;
    let options = args.matching.compare_options(Method::Fuzzy, false)?;
    let mut configs = vec![ChangeRules {
        pair_bar: args.pair_bar.unwrap_or(ChangeRules::DEFAULT.pair_bar),
        ..ChangeRules::DEFAULT
    }];
    for &pair_bar in &args.sweep_pair_bar {
        let rules = ChangeRules {
            pair_bar,
            ..ChangeRules::DEFAULT
        };
        if !configs.contains(&rules) {
            configs.push(rules);
        }
    }
    if let Some(dir) = &args.detections {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create", simdoc::escape::path(dir)))?;
    }
    let never = AtomicBool::new(false);
    let scores = run::evaluate(&args.corpus, &manifest, &args.sizes, |revision, docs| {
        let comparison = PreparedPair::new(docs[0], docs[1], model, &options).compare(
            model,
            options.method,
            options.floor,
            &never,
        )?;
        let names = [
            format!("a/{}.txt", revision.name),
            format!("b/{}.txt", revision.name),
        ];
        let sides = [0, 1].map(|i| Side {
            path: &names[i],
            doc: docs[i],
        });
        let mut report = Report::new(sides, &comparison, thresholds);
        let mut lists = Vec::with_capacity(configs.len());
        for (k, rules) in configs.iter().enumerate() {
            report.changes = comparison.changes_with(docs, &report.matches, &thresholds, rules);
            let file = report.changes_json();
            if k == 0
                && let Some(dir) = &args.detections
            {
                // One file per revision, written from the parallel runs: each on its own.
                let path = dir.join(format!("{}.json", revision.name));
                std::fs::write(&path, serde_json::to_string_pretty(&file)?)
                    .with_context(|| format!("{}: cannot write", simdoc::escape::path(&path)))?;
            }
            lists.push(file.changes);
        }
        Ok(lists)
    })?;
    let Some((all, by_size)) = scores.first() else {
        anyhow::bail!("no revisions to run");
    };
    print!("{}", markdown(&rows(&args.label, all, by_size)));
    if configs.len() > 1 {
        let mut sweep: Vec<(String, ChangeScore)> = configs
            .iter()
            .zip(&scores)
            .map(|(rules, (all, _))| (format!("pair bar {}", rules.pair_bar), all.clone()))
            .collect();
        sweep.sort_by(|x, y| y.1.macro_f1().total_cmp(&x.1.macro_f1()));
        println!();
        print!("{}", markdown(&sweep));
    }
    if let Some(path) = &args.json {
        let mut outputs = RunOutputs::new();
        outputs.write_json(path, all)?;
        outputs.commit()?;
    }
    Ok(())
}

fn score_other(args: &ScoreArgs) -> anyhow::Result<()> {
    let manifest = Manifest::read(&args.corpus)?;
    let (all, by_size) = run::score_files(&args.corpus, &manifest, &args.detections)?;
    print!("{}", markdown(&rows(&args.label, &all, &by_size)));
    if let Some(path) = &args.json {
        let mut outputs = RunOutputs::new();
        outputs.write_json(path, &all)?;
        outputs.commit()?;
    }
    Ok(())
}
