//! `simdoc model build PATH... -o FILE` (or `--from MODEL`, with `--wordnet DIR`), `simdoc model
//! info [FILE]` and `simdoc model train-verdict`: the reference model.

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
    /// Train the learned pair verdict (logistic regression over pair features) on labelled
    /// sentence pairs and store it in a model (see EVALUATION.md, "A learned pair verdict").
    TrainVerdict(super::verdict::TrainArgs),
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
    #[arg(required_unless_present = "from", conflicts_with = "from")]
    pub paths: Vec<PathBuf>,
    /// Where to write the model.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Read no corpus: start from this model file's statistics (`embedded` for the built-in
    /// model) and add what the other options give (--wordnet, --sentence-rates). Its verdict,
    /// if any, is dropped when --wordnet is given (it was trained with the relations it had).
    #[arg(long, value_name = "MODEL")]
    pub from: Option<PathBuf>,
    /// Also store WordNet's relations between words, read from its dictionary files in DIR
    /// (index.*, data.*, *.exc: Debian's `wordnet-base` installs them in /usr/share/wordnet).
    #[arg(long, value_name = "DIR")]
    pub wordnet: Option<PathBuf>,
    /// Also count how many sentences of these files or folders hold each term (stopwords and
    /// numbers kept): the rates a comparison's chance model leans on where the documents
    /// cannot say. Read as a corpus is; the model's vocabulary and statistics are unchanged.
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub sentence_rates: Vec<PathBuf>,
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
        ModelCommand::TrainVerdict(args) => super::verdict::train(args),
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
    let start = std::time::Instant::now();
    let command = recorded_command(std::env::args().skip(1));
    let recorded = format!(
        "built by simdoc {} with `{command}`",
        env!("CARGO_PKG_VERSION")
    );
    let mut model = match &args.from {
        Some(path) => {
            let file = (path.as_os_str() != "embedded").then_some(path.as_path());
            super::reference::reference_model(file)?.into_owned()
        }
        None => {
            let progress = BarProgress::new(args.quiet);
            let model = model::build(&args.paths, &build_params(args), &progress)?;
            progress.bar.finish_and_clear();
            model
        }
    };
    if args.from.is_none() {
        let note = match &args.note {
            Some(note) => format!("{note}\n{recorded}"),
            None => recorded.clone(),
        };
        model.set_source(note);
    }
    if let Some(dir) = &args.wordnet {
        let mut lexicon = simdoc::model::wordnet::read::read_wordnet(dir)?;
        let mut note = format!("{}\n{}", lexicon.source(), WORDNET_NOTICE);
        if args.from.is_some()
            && let Some(extra) = &args.note
        {
            note = format!("{extra}\n{note}");
        }
        lexicon.set_source(format!(
            "{note}\nadded by simdoc {} with `{command}`",
            env!("CARGO_PKG_VERSION")
        ));
        model.set_lexicon(Some(lexicon));
        model.clear_verdict();
    }
    if !args.sentence_rates.is_empty() {
        let progress = BarProgress::new(args.quiet);
        let rates = simdoc::model::sentence_rates::SentenceRates::count(
            &args.sentence_rates,
            &model,
            &progress,
        )?;
        progress.bar.finish_and_clear();
        if !args.quiet {
            eprintln!(
                "counted {} sentences ({} stopwords and numbers kept)",
                rates.sentences(),
                rates.texts_kept()
            );
        }
        model.set_sentence_rates(Some(rates));
    }
    model.save(&args.output)?;
    let size = std::fs::metadata(&args.output)
        .with_context(|| format!("{}: cannot read the written model", args.output.display()))?
        .len();
    if !args.quiet {
        let s = model.stats();
        eprintln!(
            "wrote {} ({size} bytes) in {:.1} s: {} documents, {} units, {} terms, {} correlation \
             entries, {} 4-grams{}",
            args.output.display(),
            start.elapsed().as_secs_f64(),
            s.counts.documents,
            s.counts.units,
            s.terms,
            s.correlation_entries,
            s.fourgrams,
            model.lexicon().map_or(String::new(), |l| {
                let w = l.stats();
                format!(", WordNet: {} lemmas, {} related pairs", w.lemmas, w.pairs)
            })
        );
    }
    Ok(())
}

/// WordNet's licence asks that its notice appear on all copies: it is stored with the relations
/// (and in `assets/WORDNET-LICENSE` beside the embedded model).
pub const WORDNET_NOTICE: &str = "WordNet 3.0 Copyright 2006 by Princeton University. All rights \
reserved. Used under the WordNet 3.0 licence (use, copy, modify and distribute for any purpose \
and without fee, with this notice; provided \"as is\", without warranties).";

/// The model parameters of a corpus build.
fn build_params(args: &BuildArgs) -> ModelParams {
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
    ModelParams {
        relatedness,
        unit: args.unit.into(),
        min_df: args.min_df,
        floor: args.floor,
        per_term: args.per_term,
    }
}

/// The command line as typed, for the source note, without `--note`'s value (the note already
/// holds it).
pub(super) fn recorded_command(args: impl Iterator<Item = String>) -> String {
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
    match model.lexicon() {
        Some(lexicon) => {
            let w = lexicon.stats();
            writeln!(
                out,
                "WordNet:             {} lemmas, {} exception forms; {} related pairs: {} \
                 synonyms, {} derived forms, {} hypernym/hyponym, {} similar-to",
                w.lemmas, w.exceptions, w.pairs, w.synonyms, w.derived, w.hypernyms, w.similar
            )?;
            for line in lexicon.source().lines() {
                writeln!(out, "  {line}")?;
            }
        }
        None => writeln!(out, "WordNet:             none")?,
    }
    match model.verdict() {
        Some(v) => {
            writeln!(
                out,
                "pair verdict:        logistic regression over {} features, threshold {}",
                v.features.len(),
                v.threshold
            )?;
            for line in v.note.lines() {
                writeln!(out, "  {line}")?;
            }
            match &v.terms {
                Some(t) => writeln!(
                    out,
                    "  TF-KLD term counts: {} terms, held {} times by pairs of the same meaning and \
                     {} by others (once per pair), prior strength {}",
                    t.terms.len(),
                    t.totals.same_either,
                    t.totals.different_either,
                    t.strength
                )?,
                None => writeln!(
                    out,
                    "  no TF-KLD term counts (trained before format version 5: train it again)"
                )?,
            }
        }
        None => writeln!(out, "pair verdict:        none")?,
    }
    match model.sentence_rates() {
        Some(rates) => writeln!(
            out,
            "sentence rates:      {} sentences counted; {} stopwords and numbers kept",
            rates.sentences(),
            rates.texts_kept()
        )?,
        None => writeln!(
            out,
            "sentence rates:      none (a comparison's chance model reads the documents alone)"
        )?,
    }
    for word in &args.term {
        write_term(&mut out, model, word, args.top)?;
        if let Some(lexicon) = model.lexicon() {
            write_relations(&mut out, lexicon, word, args.top)?;
        }
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

/// A word's WordNet lemmas and the lemmas related to each, grouped by relation.
fn write_relations(
    out: &mut impl Write,
    lexicon: &simdoc::model::wordnet::Lexicon,
    word: &str,
    top: usize,
) -> std::io::Result<()> {
    let lower = word.to_lowercase();
    let mut lemmas = Vec::new();
    lexicon.lemmas_of(&lower, &mut lemmas);
    if lemmas.is_empty() {
        return writeln!(out, "  WordNet: no lemma for {word:?}");
    }
    for lemma in lemmas {
        let parts: Vec<&str> = lexicon
            .parts_of_speech(lemma)
            .map(|p| p.file_name())
            .collect();
        writeln!(
            out,
            "  WordNet lemma {} ({}):",
            lexicon.lemma_text(lemma),
            parts.join(", ")
        )?;
        let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
        for (other, relation) in lexicon.related(lemma) {
            let name = relation.describe();
            match groups.iter_mut().find(|(n, _)| *n == name) {
                Some((_, words)) => words.push(lexicon.lemma_text(other)),
                None => groups.push((name, vec![lexicon.lemma_text(other)])),
            }
        }
        groups.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, words) in groups {
            let more = words.len().saturating_sub(top);
            let shown = words[..words.len().min(top)].join(", ");
            let tail = if more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            };
            writeln!(out, "    {name}: {shown}{tail}")?;
        }
    }
    Ok(())
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
