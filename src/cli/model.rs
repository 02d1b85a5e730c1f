//! `simdoc model build PATH... -o FILE` and `simdoc model info [FILE]`: the reference model.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use simdoc::model::vectors::VectorParams;
use simdoc::model::{
    self, BuildProgress, CooccurrenceUnit, ModelParams, ReferenceModel, Relatedness,
};

#[derive(Debug, Args)]
pub struct ModelArgs {
    #[command(subcommand)]
    pub command: ModelCommand,
}

#[derive(Debug, Subcommand)]
pub enum ModelCommand {
    /// Build a reference model from text, HTML, WikiExtractor or Reuters SGML files (folders are
    /// read recursively).
    Build(BuildArgs),
    /// Describe a model file (without FILE: the default model built into simdoc).
    Info(InfoArgs),
}

/// The unit of co-occurrence, as a command-line value.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum UnitArg {
    /// Whole documents (as in the thesis).
    Document,
    /// Each paragraph, heading or list item of a document.
    Paragraph,
}

impl From<UnitArg> for CooccurrenceUnit {
    fn from(unit: UnitArg) -> Self {
        match unit {
            UnitArg::Document => CooccurrenceUnit::Document,
            UnitArg::Paragraph => CooccurrenceUnit::Paragraph,
        }
    }
}

/// What word relatedness is computed from, as a command-line value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RelatednessArg {
    /// The thesis's eq. 3.1: how often two words occur in the same unit.
    Cooccurrence,
    /// The cosine of word vectors (PPMI over sentence windows, reduced by an SVD).
    Vectors,
}

fn default_relatedness() -> RelatednessArg {
    match ModelParams::default().relatedness {
        Relatedness::Cooccurrence => RelatednessArg::Cooccurrence,
        Relatedness::Vectors(_) => RelatednessArg::Vectors,
    }
}

fn default_unit() -> UnitArg {
    match ModelParams::default().unit {
        CooccurrenceUnit::Document => UnitArg::Document,
        CooccurrenceUnit::Paragraph => UnitArg::Paragraph,
    }
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    /// Files or folders to read.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Where to write the model.
    #[arg(short, long)]
    pub output: PathBuf,
    /// What word relatedness is computed from.
    #[arg(long, value_enum, default_value_t = default_relatedness())]
    pub relatedness: RelatednessArg,
    /// Vectors: words on each side of a word that count as its context.
    #[arg(long, default_value_t = VectorParams::default().window, help_heading = "Vectors")]
    pub window: u32,
    /// Vectors: dimensions kept by the SVD.
    #[arg(long, default_value_t = VectorParams::default().dimensions, help_heading = "Vectors")]
    pub dimensions: u32,
    /// Vectors: a word gets a vector only if it occurs at least this often.
    #[arg(long, default_value_t = VectorParams::default().min_count, help_heading = "Vectors")]
    pub min_count: u32,
    /// Vectors: cosines at or below this give no relatedness.
    #[arg(long, default_value_t = VectorParams::default().threshold, help_heading = "Vectors")]
    pub threshold: f64,
    /// Vectors: c = min(1, scale (cosine - threshold) / (1 - threshold)).
    #[arg(long, default_value_t = VectorParams::default().scale, help_heading = "Vectors")]
    pub scale: f64,
    /// Co-occurrence: the unit of co-occurrence for the word-word correlations.
    #[arg(long, value_enum, default_value_t = default_unit())]
    pub unit: UnitArg,
    /// Co-occurrence: a term enters the correlation matrix only if it occurs in at least this
    /// many units.
    #[arg(long, default_value_t = ModelParams::default().min_df)]
    pub min_df: u32,
    /// Keep correlations of at least this value (0 to 1).
    #[arg(long, default_value_t = ModelParams::default().floor)]
    pub floor: f64,
    /// Keep at most this many strongest correlates per term.
    #[arg(long, default_value_t = ModelParams::default().per_term)]
    pub per_term: u32,
    /// Text to put first in the model's source note (for example the corpus and its licence);
    /// the build command is always recorded after it.
    #[arg(long)]
    pub note: Option<String>,
    /// Do not show progress.
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct InfoArgs {
    /// The model file.
    pub file: Option<PathBuf>,
    /// Also show a word's document frequency, idf and strongest correlates (the word is refined
    /// first, so "cars" finds the term "car"). Repeatable.
    #[arg(long, value_name = "WORD")]
    pub term: Vec<String>,
    /// How many correlates to show per --term.
    #[arg(long, default_value_t = 12)]
    pub top: usize,
}

pub fn run(args: &ModelArgs) -> anyhow::Result<()> {
    match &args.command {
        ModelCommand::Build(args) => build(args),
        ModelCommand::Info(args) => info(args),
    }
}

/// Progress on stderr with indicatif; hidden when asked or when stderr is not a terminal.
struct BarProgress {
    bar: ProgressBar,
}

impl BarProgress {
    fn new(quiet: bool) -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        if quiet || !std::io::stderr().is_terminal() {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        bar.set_style(
            ProgressStyle::with_template("{msg:20} [{bar:40}] {pos}/{len} ({elapsed}, eta {eta})")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        BarProgress { bar }
    }
}

impl BuildProgress for BarProgress {
    fn phase(&self, name: &str, total: u64) {
        self.bar.set_message(name.to_string());
        self.bar.set_length(total);
        self.bar.set_position(0);
    }

    fn advance(&self, steps: u64) {
        self.bar.inc(steps);
    }
}

fn build(args: &BuildArgs) -> anyhow::Result<()> {
    let relatedness = match args.relatedness {
        RelatednessArg::Cooccurrence => Relatedness::Cooccurrence,
        RelatednessArg::Vectors => Relatedness::Vectors(VectorParams {
            window: args.window,
            dimensions: args.dimensions,
            min_count: args.min_count,
            threshold: args.threshold,
            scale: args.scale,
        }),
    };
    let params = ModelParams {
        relatedness,
        unit: args.unit.into(),
        min_df: args.min_df,
        floor: args.floor,
        per_term: args.per_term,
    };
    let progress = BarProgress::new(args.quiet);
    let start = std::time::Instant::now();
    let mut model = model::build(&args.paths, &params, &progress)?;
    progress.bar.finish_and_clear();
    let command = recorded_command(std::env::args().skip(1));
    let recorded = format!(
        "built by simdoc {} with `{command}`",
        env!("CARGO_PKG_VERSION")
    );
    let note = match &args.note {
        Some(note) => format!("{note}\n{recorded}"),
        None => recorded,
    };
    model.set_source(note);
    model.save(&args.output)?;
    let size = std::fs::metadata(&args.output)
        .with_context(|| format!("{}: cannot read the written model", args.output.display()))?
        .len();
    if !args.quiet {
        let s = model.stats();
        eprintln!(
            "wrote {} ({size} bytes) in {:.1} s: {} documents, {} units, {} terms, {} correlation \
             entries, {} 4-grams",
            args.output.display(),
            start.elapsed().as_secs_f64(),
            s.counts.documents,
            s.counts.units,
            s.terms,
            s.correlation_entries,
            s.fourgrams
        );
    }
    Ok(())
}

/// The command line as typed, for the source note, without `--note`'s value (the note already
/// holds it).
fn recorded_command(args: impl Iterator<Item = String>) -> String {
    let mut words = vec!["simdoc".to_string()];
    let mut skip_next = false;
    for arg in args {
        if std::mem::take(&mut skip_next) {
            continue;
        }
        if arg == "--note" {
            skip_next = true;
            words.push("--note <see above>".to_string());
        } else if arg.starts_with("--note=") {
            words.push("--note <see above>".to_string());
        } else {
            words.push(arg);
        }
    }
    words.join(" ")
}

fn info(args: &InfoArgs) -> anyhow::Result<()> {
    let loaded;
    let (name, size, model) = match &args.file {
        Some(path) => {
            loaded = ReferenceModel::load(path)?;
            let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            (path.display().to_string(), size, &loaded)
        }
        None => (
            simdoc::model::embedded::EMBEDDED_NAME.to_string(),
            ReferenceModel::embedded_bytes().len() as u64,
            ReferenceModel::embedded(),
        ),
    };
    let s = model.stats();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "model:               {name} ({size} bytes)")?;
    writeln!(out, "documents:           {}", s.counts.documents)?;
    writeln!(
        out,
        "units:               {} ({}s)",
        s.counts.units, s.params.unit
    )?;
    writeln!(out, "sentences:           {}", s.counts.sentences)?;
    writeln!(out, "term occurrences:    {}", s.counts.tokens)?;
    writeln!(
        out,
        "terms:               {} ({} bytes of text)",
        s.terms, s.vocabulary_bytes
    )?;
    writeln!(
        out,
        "correlation entries: {} ({} terms with correlates, {:.1} per such term)",
        s.correlation_entries,
        s.correlated_terms,
        s.correlation_entries as f64 / s.correlated_terms.max(1) as f64
    )?;
    writeln!(
        out,
        "4-grams:             {} distinct, {} occurrences, {} characters",
        s.fourgrams, s.fourgram_occurrences, s.alphabet
    )?;
    match s.params.relatedness {
        Relatedness::Cooccurrence => writeln!(
            out,
            "relatedness:         co-occurrence (thesis eq. 3.1): unit {}, min-df {}, floor {}, \
             per-term {}",
            s.params.unit, s.params.min_df, s.params.floor, s.params.per_term
        )?,
        Relatedness::Vectors(v) => writeln!(
            out,
            "relatedness:         word vectors (PPMI + SVD): window {}, dimensions {}, \
             min-count {}, threshold {}, scale {}, floor {}, per-term {}",
            v.window,
            v.dimensions,
            v.min_count,
            v.threshold,
            v.scale,
            s.params.floor,
            s.params.per_term
        )?,
    }
    writeln!(out, "source:")?;
    for line in s.source.lines() {
        writeln!(out, "  {line}")?;
    }
    for word in &args.term {
        write_term(&mut out, model, word, args.top)?;
    }
    out.flush().context("writing to standard output")
}

/// One word's statistics and strongest correlates.
fn write_term(
    out: &mut impl Write,
    model: &ReferenceModel,
    word: &str,
    top: usize,
) -> std::io::Result<()> {
    let refined = simdoc::text::refine(word);
    let Some(term) = refined.first() else {
        return writeln!(out, "\n{word}: a stopword or not a word");
    };
    let Some(id) = model.term_id(term) else {
        return writeln!(out, "\n{word} -> {term}: not in the model");
    };
    writeln!(
        out,
        "\n{word} -> {term}: df {}, idf {:.3}",
        model.df(id),
        model.idf(id)
    )?;
    let mut correlates: Vec<(u32, f32)> = model.correlates(id).collect();
    correlates.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let shown: Vec<String> = correlates
        .iter()
        .take(top)
        .map(|&(j, c)| format!("{} {c:.3}", model.term(j)))
        .collect();
    writeln!(
        out,
        "  {} correlates: {}",
        correlates.len(),
        shown.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorded_command_leaves_the_note_out() {
        let args = [
            "model",
            "build",
            "x",
            "--note",
            "long text",
            "-o",
            "m",
            "--note=again",
        ];
        assert_eq!(
            recorded_command(args.iter().map(|s| s.to_string())),
            "simdoc model build x --note <see above> -o m --note <see above>"
        );
    }
}
