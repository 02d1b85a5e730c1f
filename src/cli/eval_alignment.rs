//! `simdoc eval alignment`: build a PAN-style text-alignment corpus from the shared data, run
//! simdoc over it, or score another detector's PAN XML, with PAN's measures per size and
//! obfuscation.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use anyhow::Context;
use clap::{Args, Subcommand};

use simdoc::compare::PreparedPair;
use simdoc::compare::passages::{PassageOptions, passages_of};
use simdoc::eval::alignment::corpus::{self, CorpusSpec, Manifest};
use simdoc::eval::alignment::run::{self, PairOutcome};
use simdoc::eval::alignment::{Annotation, pan_xml};
use simdoc::model::ReferenceModel;
use simdoc::similarity::Method;

use super::output::RunOutputs;
use super::reference::reference_model;

#[derive(Debug, Args)]
pub struct AlignmentArgs {
    #[command(subcommand)]
    pub command: AlignmentCommand,
}

#[derive(Debug, Subcommand)]
pub enum AlignmentCommand {
    /// Build the corpus into a folder (PAN 2013's layout; about 200 MB with the 5 MB pairs).
    ///
    /// Cases of 1, 3, 6 or 12 consecutive positive PAN sentence pairs (the originals into a
    /// Wikipedia background, the same sentences or their rewrites into a Reuters one), 1-3 per
    /// pair, at backgrounds of about 5 KB, 50 KB, 500 KB and 5 MB, with as many unrelated pairs.
    Build(BuildArgs),
    /// Run simdoc on every pair of a corpus and score its passages with PAN's measures.
    Run(Box<RunArgs>),
    /// Score another detector's PAN XML (one file per pair, as PAN names them) on a corpus.
    Score(ScoreArgs),
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The folder to write the corpus into.
    pub out: PathBuf,
    /// The shared data folder (default: $SIMDOC_DATA).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// The part of PAN's training pairs the cases come from: tune (to choose on) or holdout.
    #[arg(long, default_value = "tune")]
    pub split: String,
    /// The random seed.
    #[arg(long, default_value_t = 2013)]
    pub seed: u64,
    /// Background sizes in bytes, comma-separated (default 5000,50000,500000,5000000).
    #[arg(long, value_delimiter = ',')]
    pub sizes: Vec<usize>,
    /// Pairs with cases per obfuscation, one number per size (default 20,20,10,4).
    #[arg(long, value_delimiter = ',')]
    pub pairs: Vec<usize>,
    /// How the reused text sits in the suspicious document: inside (cases of 1-12 sentences in
    /// unrelated text, PAN's setting), mostly (one case making up 50-100% of it; the size is
    /// the suspicious document's), identical (the suspicious document is the source) or pool
    /// (50 KB documents against a pool of Wikipedia articles, 1-3 cases each in a source of
    /// its own; the size is the number of sources; run as `simdoc sources` runs).
    #[arg(long, default_value = "inside")]
    pub regime: corpus::Regime,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The corpus folder (`simdoc eval alignment build`).
    pub corpus: PathBuf,
    #[command(flatten)]
    pub matching: super::MatchingArgs,
    /// Passages: the largest number of unmatched sentences between two matches of one passage.
    #[arg(long, value_name = "N", default_value_t = simdoc::compare::passages::DEFAULT_GAP)]
    pub passage_gap: u32,
    /// Passages: the fewest matched pairs a passage must have to be reported (default: 1 when
    /// matches are judged against chance, else 2).
    #[arg(long, value_name = "N")]
    pub min_passage: Option<usize>,
    /// Only the pairs of these background sizes (bytes, comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub sizes: Vec<usize>,
    #[command(flatten)]
    pub model: super::ModelArg,
    /// Write simdoc's detections as PAN XML into this folder (one file per pair).
    #[arg(long, value_name = "DIR")]
    pub detections: Option<PathBuf>,
    /// Write the scores as JSON to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// The configuration's name in the table.
    #[arg(long, default_value = "simdoc")]
    pub label: String,
    /// Also try these permissions (comma-separated), each with every --sweep-max-e-value value, from
    /// the same comparisons: one row per configuration, best mean plagdet first.
    #[arg(long, value_delimiter = ',')]
    pub sweep_permission: Vec<f64>,
    /// Also try these passage E-value bars (comma-separated; `off` for none). (`--sweep-chance`
    /// is its former name.)
    #[arg(
        long = "sweep-max-e-value",
        alias = "sweep-chance",
        value_delimiter = ','
    )]
    pub sweep_max_e_value: Vec<super::ChanceBar>,
}

#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// The corpus folder.
    pub corpus: PathBuf,
    /// The folder of the detector's PAN XML files.
    #[arg(long)]
    pub detections: PathBuf,
    /// The detector's name in the table.
    #[arg(long, default_value = "detector")]
    pub label: String,
    /// Write the scores as JSON to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

pub fn run(args: &AlignmentArgs) -> anyhow::Result<()> {
    match &args.command {
        AlignmentCommand::Build(args) => build(args),
        AlignmentCommand::Run(args) => run_simdoc(args),
        AlignmentCommand::Score(args) => score_other(args),
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
    if !args.pairs.is_empty() {
        spec.pairs_per_size = args.pairs.clone();
    }
    spec.regime = args.regime;
    let manifest = corpus::build(&data, &spec, &args.out)?;
    let cases: usize = manifest.pairs.iter().map(|p| p.cases.len()).sum();
    eprintln!(
        "{}: {} pairs, {cases} cases",
        args.out.display(),
        manifest.pairs.len()
    );
    Ok(())
}

fn run_simdoc(args: &RunArgs) -> anyhow::Result<()> {
    // The report's folder is checked before the runs, not after them.
    super::output::refuse_overwriting(&[args.json.as_ref()], &[], &[])?;
    let manifest = Manifest::read(&args.corpus)?;
    let model = reference_model(args.model.file.as_deref())?;
    let model: &ReferenceModel = &model;
    let thresholds = args.matching.thresholds()?;
    let options = args.matching.compare_options(Method::Fuzzy, false)?;
    let passages = PassageOptions {
        gap: args.passage_gap,
        min_pairs: args
            .min_passage
            .unwrap_or(simdoc::compare::passages::default_min_pairs(
                options.chance_search.is_some(),
            ))
            .max(1),
    };
    if let Some(dir) = &args.detections {
        std::fs::create_dir_all(dir).with_context(|| format!("{}", dir.display()))?;
    }
    if manifest.spec.regime == corpus::Regime::Pool {
        // A pool is checked as `simdoc sources` checks it, at the options' one configuration.
        anyhow::ensure!(
            args.sweep_permission.is_empty() && args.sweep_max_e_value.is_empty(),
            "a pool corpus is run at one configuration: leave out --sweep-permission and --sweep-max-e-value"
        );
        let results = simdoc::eval::alignment::pool_run::evaluate(
            &args.corpus,
            &manifest,
            &args.sizes,
            model,
            &options,
            &thresholds,
        )?;
        let score = run::score(&args.corpus, &manifest, &results, 0);
        print!("{}", run::markdown(&score, &args.label));
        if let Some(path) = &args.json {
            write_json_now(path, &score)?;
        }
        return Ok(());
    }
    let never = AtomicBool::new(false);
    // The configurations: the one the options name, then the sweep's.
    let mut configs = vec![thresholds];
    for &permission in &args.sweep_permission {
        for chance in args.sweep_max_e_value.iter().map(|c| c.0).chain(
            args.sweep_max_e_value
                .is_empty()
                .then_some(thresholds.max_e_value),
        ) {
            let config = simdoc::similarity::Thresholds {
                permission,
                max_e_value: chance,
                ..thresholds
            };
            if !configs.contains(&config) {
                configs.push(config);
            }
        }
    }
    let detect = |pair: &corpus::CorpusPair,
                  docs: [&simdoc::document::Document; 2]|
     -> anyhow::Result<Vec<PairOutcome>> {
        let comparison = PreparedPair::new(docs[0], docs[1], model, &options).compare(
            model,
            options.method,
            options.floor,
            &never,
        )?;
        let mut outcomes = Vec::with_capacity(configs.len());
        for (k, config) in configs.iter().enumerate() {
            let matches: Vec<_> = comparison.matches(config).copied().collect();
            let (found, _) = passages_of(&comparison, &matches, config, passages);
            let detections = run::detections_of(&found, docs, [&pair.suspicious, &pair.source]);
            if k == 0
                && let Some(dir) = &args.detections
            {
                write_detections(dir, &pair.suspicious, &pair.source, &detections)?;
            }
            outcomes.push(PairOutcome {
                detections,
                containment: comparison.figures_given(&matches, config).containment[0],
            });
        }
        Ok(outcomes)
    };
    let results = run::evaluate(&args.corpus, &manifest, &args.sizes, detect, &|_| {})?;
    let score = run::score(&args.corpus, &manifest, &results, 0);
    print!("{}", run::markdown(&score, &args.label));
    if configs.len() > 1 {
        let mut rows: Vec<(simdoc::similarity::Thresholds, run::AlignmentScore)> = configs
            .iter()
            .enumerate()
            .map(|(k, c)| (*c, run::score(&args.corpus, &manifest, &results, k)))
            .collect();
        rows.sort_by(|x, y| y.1.mean_plagdet.total_cmp(&x.1.mean_plagdet));
        println!();
        print!("{}", run::sweep_markdown(&rows));
    }
    if let Some(path) = &args.json {
        write_json_now(path, &score)?;
    }
    Ok(())
}

fn write_detections(
    dir: &Path,
    suspicious: &str,
    source: &str,
    detections: &[Annotation],
) -> anyhow::Result<()> {
    // One file per pair, written from the parallel runs: each on its own, not one transaction.
    let path = dir.join(pan_xml::pair_file_name(suspicious, source));
    std::fs::write(
        &path,
        pan_xml::detections_xml(suspicious, detections).as_bytes(),
    )
    .with_context(|| format!("{}: cannot write", simdoc::escape::path(&path)))
}

/// Writes `value` as JSON to `path` (or standard output for `-`) at once.
fn write_json_now(path: &Path, value: &impl serde::Serialize) -> anyhow::Result<()> {
    let mut outputs = RunOutputs::new();
    outputs.write_json(path, value)?;
    outputs.commit()
}

fn score_other(args: &ScoreArgs) -> anyhow::Result<()> {
    super::output::refuse_overwriting(&[args.json.as_ref()], &[], &[])?;
    let manifest = Manifest::read(&args.corpus)?;
    let results: Vec<(usize, Vec<PairOutcome>, f64)> = manifest
        .pairs
        .iter()
        .enumerate()
        .map(|(i, pair)| {
            let path = args
                .detections
                .join(pan_xml::pair_file_name(&pair.suspicious, &pair.source));
            // A detector that wrote no file for a pair detected nothing there.
            let detections = if path.exists() {
                pan_xml::read(&path, "detected-plagiarism")?
            } else {
                Vec::new()
            };
            Ok((
                i,
                vec![PairOutcome {
                    detections,
                    containment: 0.0,
                }],
                0.0,
            ))
        })
        .collect::<anyhow::Result<_>>()?;
    let score = run::score(&args.corpus, &manifest, &results, 0);
    print!("{}", run::markdown(&score, &args.label));
    if let Some(path) = &args.json {
        write_json_now(path, &score)?;
    }
    Ok(())
}
