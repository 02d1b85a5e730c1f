//! `simdoc model train-verdict`: trains the learned pair verdict on MSRP train and PAN tune (never
//! PAN holdout) and stores it in a model, with the data and the command in its note.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use simdoc::eval::Format;
use simdoc::eval::verdict::{
    Fitting, LabelledFeatures, TermNames, TrainOptions, TrainReport, features_named, features_of,
    train as train_verdict,
};
use simdoc::similarity::WordnetWeights;
use simdoc::similarity::verdict::Verdict;

use super::output::RunOutputs;
use super::reference::reference_model;

#[derive(Debug, Args)]
pub struct TrainArgs {
    /// The MSRP folder (its train split is read).
    #[arg(long, value_name = "DIR")]
    pub msrp: PathBuf,
    /// The PAN sentence-pair folder (its tune split is read: never holdout).
    #[arg(long, value_name = "DIR")]
    pub pan: PathBuf,
    /// The model to add the verdict to (default: the embedded model); its WordNet relations
    /// give the relatedness features.
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Where to write the model with the verdict.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Folds of the cross-validation that chooses the penalty and gives the figures.
    #[arg(long, default_value_t = 10)]
    pub folds: usize,
    /// The c of WordNet's relations in the relatedness features: synonym,derived,hypernym
    /// (default: those of the wordnet preset).
    #[arg(long, value_name = "S,D,H")]
    pub wordnet_weights: Option<WordnetWeights>,
    /// Leave these features out (set them to 0 before the fit), each a feature's name or the
    /// start of several ("bleu", "meteor", "edit_rate", ...): to measure what they add. The
    /// model written then has weight 0 for them.
    #[arg(long, value_name = "NAME", value_delimiter = ',')]
    pub without: Vec<String>,
    /// The prior strength of the TF-KLD features' smoothing: pseudo-pairs at the rate of all
    /// terms added to each term's counts.
    #[arg(long, value_name = "M", default_value_t = simdoc::similarity::verdict::kld::PRIOR_STRENGTH)]
    pub kld_prior: f64,
    /// Compute the training pairs' own TF-KLD features from counts that include them (by
    /// default each fit's pairs see counts without their own fold, as held-out pairs do).
    #[arg(long)]
    pub plain_fitting: bool,
    /// Write the training report (grids, choices, cross-validated figures, length bands) as
    /// JSON to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Do not print the summary.
    #[arg(short, long)]
    pub quiet: bool,
}

pub fn train(args: &TrainArgs) -> anyhow::Result<()> {
    let model = reference_model(args.model.as_deref())?;
    if model.lexicon().is_none() {
        anyhow::bail!(
            "the model has no WordNet relations, which the verdict's features use: add them \
             with `simdoc model build --from MODEL --wordnet DIR`"
        );
    }
    let weights = args.wordnet_weights.unwrap_or(WordnetWeights::MEASURED);
    // The report's folder is checked before the training, not after it.
    super::output::refuse_overwriting(&[args.report.as_ref()], &[], &[])?;
    let left_out = features_named(&args.without).map_err(anyhow::Error::msg)?;
    if !(args.kld_prior.is_finite() && args.kld_prior >= 0.0) {
        anyhow::bail!("--kld-prior must be a number >= 0, not {}", args.kld_prior);
    }
    let mut names = TermNames::default();
    let inputs = [
        ("msrp train", Format::Msrp, &args.msrp, "train"),
        ("pan tune", Format::Pan, &args.pan, "tune"),
    ];
    let mut sets = Vec::new();
    for (name, format, path, split) in inputs {
        let set = format
            .load(path, Some(split))
            .with_context(|| format!("reading {name}"))?;
        let texts: Vec<(&str, &str)> = set
            .pairs
            .iter()
            .map(|p| (p.left.as_str(), p.right.as_str()))
            .collect();
        let (features, lengths, terms) = features_of(&texts, &*model, weights, &mut names);
        sets.push(LabelledFeatures {
            name: name.to_string(),
            features,
            labels: set.pairs.iter().map(|p| p.positive).collect(),
            lengths,
            terms,
        });
    }
    let options = TrainOptions {
        folds: args.folds,
        left_out: left_out.clone(),
        prior_strength: args.kld_prior,
        fitting: if args.plain_fitting {
            Fitting::Plain
        } else {
            Fitting::Cross
        },
        ..TrainOptions::new(weights)
    };
    let trained = train_verdict(&sets, &names, &options)?;
    let r = &trained.report;
    let command = super::model::recorded_command(std::env::args().skip(1));
    let note = format!(
        "trained by simdoc {} with `{command}` on MSRP train ({} pairs) and PAN tune ({} pairs): \
         L2 penalty {} (of 1e-4..1e4, by {}-fold cross-validated log loss), threshold {} (of \
         0.01..0.99, by the mean F1 of the two sets); WordNet weights {}, {}, {}; TF-KLD \
         counts of {} terms, prior strength {}",
        env!("CARGO_PKG_VERSION"),
        sets[0].labels.len(),
        sets[1].labels.len(),
        r.penalty,
        r.folds,
        r.threshold,
        weights.synonym,
        weights.derived,
        weights.hypernym,
        trained.terms.terms.len(),
        r.prior_strength
    );
    let stored = Verdict::store(
        &trained.regression,
        weights,
        r.threshold,
        trained.terms.clone(),
        note,
    );
    let mut model = model.into_owned();
    model.set_verdict(stored)?;
    model.save(&args.output)?;
    if let Some(path) = &args.report {
        let mut outputs = RunOutputs::new();
        outputs.write_json(path, r)?;
        outputs.commit()?;
    }
    if !args.quiet {
        if !left_out.is_empty() {
            let names: Vec<&str> = left_out
                .iter()
                .map(|&i| simdoc::similarity::verdict::FEATURE_NAMES[i])
                .collect();
            eprintln!("left out: {}", names.join(", "));
        }
        eprint!("{}", summary(r));
        eprintln!("wrote {}", args.output.display());
    }
    Ok(())
}

/// The report as text.
fn summary(r: &TrainReport) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "penalty (mean {}-fold log loss):", r.folds);
    for (penalty, loss) in &r.penalties {
        let mark = if *penalty == r.penalty {
            "  chosen"
        } else {
            ""
        };
        let _ = writeln!(out, "  {penalty:>8} {loss:.4}{mark}");
    }
    let _ = writeln!(out, "threshold {} (mean F1 of the sets)", r.threshold);
    let _ = writeln!(
        out,
        "{:<12} {:>6} {:>6} {:>6} {:>6} {:>6} {:>7} {:>6}",
        "set", "acc", "prec", "recall", "F1", "AUC", "logloss", "brier"
    );
    for (label, figures) in [("CV", &r.cross_validated), ("in-sample", &r.in_sample)] {
        for s in figures {
            let _ = writeln!(
                out,
                "{:<12} {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>7.4} {:>6.4}  ({label})",
                s.name,
                s.figures.accuracy,
                s.figures.precision,
                s.figures.recall,
                s.figures.f1,
                s.auc.unwrap_or(f64::NAN),
                s.log_loss,
                s.brier
            );
        }
    }
    let _ = writeln!(
        out,
        "length bands (out-of-fold; mean refined terms of a pair):"
    );
    for set in &r.bands {
        for b in &set.bands {
            let _ = writeln!(
                out,
                "  {:<10} {:>5.1}-{:<5.1} {:>5} pairs, {:>4.2} positive: verdict AUC {:.3} F1 {:.3}, overlap AUC {:.3}",
                set.set,
                b.from,
                b.to,
                b.pairs,
                b.positive_share,
                b.auc.unwrap_or(f64::NAN),
                b.f1,
                b.overlap_auc.unwrap_or(f64::NAN)
            );
        }
    }
    out
}
