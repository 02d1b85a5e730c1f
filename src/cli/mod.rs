//! The command line: clap definitions, and one module per subcommand that calls the library.
//!
//! Exit codes (also in `simdoc --help`): 0 success, 1 a failure while working (an input could not
//! be read, an output could not be written), 2 a usage error (clap's own code).

mod collection;
mod collection_args;
mod compare;
mod eval;
mod eval_alignment;
mod eval_changes;
mod inputs;
mod inspect;
mod model;
mod options_apply;
mod output;
mod reference;
mod sources;
mod verdict;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use simdoc::compare::chance::related::RelatedKinds;

/// See how two documents reuse each other's text. Without a command, opens the viewer.
#[derive(Debug, Parser)]
#[command(name = "simdoc", version, about, long_about = None)]
#[command(
    after_help = "Exit codes: 0 success, 1 failure (the message names the file and the cause), 2 usage error."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print a document's semantic hierarchy with each node's sentences.
    Inspect(inspect::InspectArgs),
    /// Find which documents of a collection contain, duplicate or reuse which others.
    Collection(Box<collection_args::CollectionArgs>),
    /// Compare two documents: figures, matched pairs, reports and the dotplot.
    Compare(compare::CompareArgs),
    /// One document against many sources: each sentence's source, and how much of the document
    /// each source holds.
    Sources(Box<sources::SourcesArgs>),
    /// Build or describe a reference model (word correlations, 4-gram counts, idf).
    Model(model::ModelArgs),
    /// Measure detection quality on labelled sentence pairs or document pairs.
    Eval(eval::EvalArgs),
    /// Open the viewer with two documents loaded and compared.
    #[cfg(feature = "gui")]
    View(ViewArgs),
    /// Internal: read one document sent on standard input and answer on standard output (the
    /// worker process every PDF is read in: simdoc::document::worker).
    #[command(hide = true)]
    ReadWorker,
}

impl Command {
    /// Whether this command reads untrusted PDFs, which then go to worker processes.
    pub fn reads_documents(&self) -> bool {
        !matches!(self, Command::ReadWorker)
    }
}

/// From now on, PDFs are read in worker processes: this program with `read-worker`
/// ([`simdoc::document::worker`]). Where the program cannot find itself, or
/// `SIMDOC_PDF_IN_PROCESS=1` asks so (to measure what the workers cost), they are read here,
/// with the in-process checks only.
pub fn read_pdfs_in_workers() {
    if std::env::var_os("SIMDOC_PDF_IN_PROCESS").is_some_and(|v| v == "1") {
        return;
    }
    if let Ok(program) = std::env::current_exe() {
        simdoc::document::worker::read_pdfs_in_workers(simdoc::document::worker::WorkerCommand {
            program,
            args: vec!["read-worker".into()],
        });
    }
}

/// Arguments of `simdoc view`.
#[cfg(feature = "gui")]
#[derive(Debug, Default, clap::Args)]
pub struct ViewArgs {
    /// Document A (left, x axis of the dotplot).
    pub a: Option<std::path::PathBuf>,
    /// Document B (right, y axis of the dotplot).
    pub b: Option<std::path::PathBuf>,
    /// Open the bundled example pair (Wikipedia's "Guinea" and "History of Guinea").
    #[arg(long, conflicts_with_all = ["a", "b"])]
    pub example: bool,
    /// Start with the two semantic hierarchies instead of the texts.
    #[arg(long)]
    pub hierarchies: bool,
    /// Start in the Sources view: document A against these sources (folders or files), each
    /// of its sentences coloured by the source it comes from.
    #[arg(long, num_args = 1.., value_name = "PATH", requires = "a", conflicts_with = "b")]
    pub sources: Vec<std::path::PathBuf>,
    #[command(flatten)]
    pub model: ModelArg,
    /// Open under this matching preset (as `simdoc compare --preset`); the preset menu changes
    /// it later. Default: the one the viewer last used.
    #[arg(long, value_parser = preset_parser())]
    pub preset: Option<simdoc::compare::Preset>,
}

/// `view` is handled by `main` (it owns the window); reaching here is a programming error
/// reported as a failure rather than a panic.
#[cfg(feature = "gui")]
fn unreachable_view() -> anyhow::Result<()> {
    anyhow::bail!("the view command must be run by main")
}

/// A probability in [0, 1], for clap.
pub(crate) fn probability(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        Ok(p) => Err(format!("{p} is not a probability (expected 0 to 1)")),
        Err(e) => Err(format!("`{text}` is not a number: {e}")),
    }
}

/// A matching preset by name, for clap: the values (and, in `--help`, what each is for) are the
/// library's table ([`simdoc::compare::Preset::all`]), so the command line lists exactly the
/// presets the viewer's menu does.
pub(crate) fn preset_parser()
-> impl clap::builder::TypedValueParser<Value = simdoc::compare::Preset> {
    use clap::builder::TypedValueParser;
    use simdoc::compare::Preset;
    clap::builder::PossibleValuesParser::new(
        Preset::all()
            .iter()
            .map(|p| clap::builder::PossibleValue::new(p.name).help(p.purpose)),
    )
    // Only the table's names get here.
    .map(|name| Preset::named(&name).unwrap_or_default())
}

/// What the relatedness of two words is read from, as a command-line value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RelatedWordsArg {
    /// The model's correlations between stems (thesis eq. 3.1 co-occurrence, or word vectors).
    Correlations,
    /// WordNet's relations between words (the model must carry them).
    Wordnet,
}

/// The reference model a command reads, as every command takes it (`--model FILE`).
#[derive(Clone, Debug, Default, clap::Args)]
pub struct ModelArg {
    /// A reference model file (`simdoc model build`); default: the embedded model.
    #[arg(long = "model", value_name = "MODEL")]
    pub file: Option<std::path::PathBuf>,
}

/// How large a file a command reads, as every command that reads files takes it
/// (`--max-bytes N`): the bound [`simdoc::document::LoadOptions`] puts on each file.
#[derive(Clone, Debug, clap::Args)]
pub struct MaxBytesArg {
    /// Refuse files larger than this many bytes.
    #[arg(long = "max-bytes", value_name = "BYTES", default_value_t = simdoc::document::LoadOptions::default().max_bytes)]
    pub max_bytes: u64,
}

impl MaxBytesArg {
    /// The load options of a command's files: the default ones with this bound.
    pub fn load_options(&self) -> simdoc::document::LoadOptions {
        simdoc::document::LoadOptions {
            max_bytes: self.max_bytes,
            ..simdoc::document::LoadOptions::default()
        }
    }
}

/// How sentences are matched, as every command takes it: a named preset and explicit values
/// over it.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct MatchingArgs {
    /// Matching preset (default: documents; `eval pairs`: verdict).
    #[arg(long, value_parser = preset_parser())]
    pub preset: Option<simdoc::compare::Preset>,
    #[command(flatten)]
    pub values: MatchingValues,
}

/// The explicit matching values, each over a preset's. Apart from [`MatchingArgs`] so that
/// `simdoc collection`, whose `--preset` names a collection preset, takes them with its own
/// matching-preset option.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct MatchingValues {
    /// Permission threshold (thesis eq. 3.4): both directional similarities must reach it
    /// (overrides the preset's).
    #[arg(long)]
    pub permission: Option<f64>,
    /// Variation threshold (thesis eq. 3.4): the two similarities may differ by at most this;
    /// 1 turns it off (overrides the preset's).
    #[arg(long)]
    pub variation: Option<f64>,
    /// Keep stopwords as terms: true or false (overrides the preset's).
    #[arg(long, value_name = "BOOL")]
    pub keep_stopwords: Option<bool>,
    /// Keep numbers as terms: true or false (overrides the preset's).
    #[arg(long, value_name = "BOOL")]
    pub keep_numbers: Option<bool>,
    /// Sentences with fewer content terms match only identical ones; 0 turns the rule off
    /// (overrides the preset's).
    #[arg(long, value_name = "N")]
    pub min_terms: Option<usize>,
    /// With stopwords kept: a direction's similarity counts only if the content words alone
    /// reach this (overrides the preset's).
    #[arg(long, value_name = "X")]
    pub content_floor: Option<f64>,
    /// Where a related word counts (thesis eq. 3.2): all (any word of the other sentence, as
    /// the thesis says) or aligned (only a word that replaces it, in the same place between the
    /// words both sentences keep) (overrides the preset's).
    #[arg(long, value_name = "MODE")]
    pub relate: Option<simdoc::similarity::Relate>,
    /// What the relatedness of two words is read from: correlations (the model's, thesis eq.
    /// 3.1) or wordnet (WordNet's relations between the words) (overrides the preset's).
    #[arg(long, value_name = "KIND")]
    pub related_words: Option<RelatedWordsArg>,
    /// The c of WordNet's relations: synonym,derived,hypernym (each 0 to 1; implies
    /// --related-words wordnet).
    #[arg(long, value_name = "S,D,H")]
    pub wordnet_weights: Option<simdoc::similarity::WordnetWeights>,
    /// Decide pairs by the model's learned verdict: true or false (overrides the preset's; the
    /// permission is then a probability).
    #[arg(long, value_name = "BOOL")]
    pub verdict: Option<bool>,
    /// Count headings, titles and fragments of fewer than three content words towards the
    /// figures too (by default they are shown and matched but not counted).
    #[arg(long)]
    pub count_fragments: bool,
    /// Match a sentence split in two, or two glued into one, one-to-two: true (the default) or
    /// false.
    #[arg(long, value_name = "BOOL")]
    pub one_to_two: Option<bool>,
    /// Partners a sentence keeps among those reaching the floor both ways, when matches are
    /// scored by Sims (not judged against chance): a templated line lists its best ones, not
    /// every line alike; `simdoc sources` keeps them per source. 0 lists every pair, as the
    /// thesis does (default 10).
    #[arg(long, value_name = "N")]
    pub partners: Option<usize>,
    /// Judged against chance: the largest E-value (expected number of passages as good by
    /// chance in this comparison) a passage may have to count; `off` counts every passage
    /// (overrides the preset's). (`--chance` is its former name.)
    #[arg(long = "max-e-value", alias = "chance", value_name = "E")]
    pub max_e_value: Option<ChanceBar>,
    /// Judge matches against chance (true) or take every pair whose Sims reach the permission
    /// (false) (overrides the preset's).
    #[arg(long, value_name = "BOOL")]
    pub judge_chance: Option<bool>,
    /// Judged against chance: a link's surprise -ln P must reach this many nats.
    #[arg(long, value_name = "NATS")]
    pub link_bar: Option<f64>,
    /// Judged against chance: a seed's surprise -ln P must reach this many nats for it to be a
    /// link.
    #[arg(long, value_name = "NATS")]
    pub seed_link_bar: Option<f64>,
    /// Judged against chance: the most sentences between consecutive links of a passage, on each
    /// side, plus one.
    #[arg(long, value_name = "N")]
    pub reach: Option<u32>,
    /// Judged against chance: seeds have an E-value of at most this times the sentences of
    /// both documents.
    #[arg(long, value_name = "X")]
    pub seeds_per_sentence: Option<f64>,
    /// Judged against chance: how many sentences the reference model's word rates (its share of
    /// sentences holding each word) are worth in each document's (0: the two documents' own
    /// rates alone).
    #[arg(long, value_name = "N")]
    pub prior_sentences: Option<f64>,
    /// Judged against chance: fill the gaps between two links on one diagonal where the text
    /// is identical on both sides (true) or leave them to the evidence of their own (false).
    #[arg(long, value_name = "BOOL")]
    pub bridge_identical: Option<bool>,
    /// Judged against chance: weigh a shared word given the heavier shared words it comes with
    /// elsewhere in the documents (true, the default) or each on its own (false).
    #[arg(long, value_name = "BOOL")]
    pub cooccurrence_discount: Option<bool>,
    /// Judged against chance: the discount counts how often words come together in a sample
    /// of about this many of the sentences holding each word (all of them when fewer).
    #[arg(long, value_name = "N")]
    pub discount_list_cap: Option<u32>,
    /// Judged against chance: the discount weighs a word given a heavier one only when their
    /// coming together in a document is at least this many nats unlikely at the word's own rate
    /// (0: whenever they come together more often than the word alone).
    #[arg(long, value_name = "NATS")]
    pub discount_bar: Option<f64>,
    /// Judged against chance: which words WordNet relates count as evidence when one sentence
    /// holds one where the other holds the other, each with its own chance rate: `off`, or kinds
    /// separated by commas among lemmas, synonyms, derived, hypernyms, similar (words sharing a
    /// lemma under two stems always count with any kind). Off by default: measured on the
    /// text-alignment corpora it loses (EVALUATION.md); kept to run that measurement again.
    #[arg(long, value_name = "KINDS")]
    pub related_evidence: Option<RelatedKinds>,
    /// Judged against chance: a related pair (`--related-evidence`) weighs this many nats less
    /// than a shared word of the same rates.
    #[arg(long, value_name = "NATS")]
    pub related_discount: Option<f64>,
    /// Leave out quotations: sentences in a block quote or mostly between quotation marks
    /// ("…", “…”, „…“, «…»). In `simdoc sources`, the document's only.
    #[arg(long)]
    pub exclude_quotations: bool,
    /// Leave out a bibliography: a section headed References, Bibliography, Works Cited, ...
    /// with everything in it. In `simdoc sources`, the document's only.
    #[arg(long)]
    pub exclude_bibliography: bool,
    /// Leave out matches in a run of fewer words than this (a run: matches with at most two
    /// unmatched sentences between them; its words counted on the side that has fewer), as
    /// WCopyfind's shortest phrase; 0 (the default) keeps every match.
    #[arg(long, value_name = "N")]
    pub min_words: Option<u32>,
}

/// An E-value bar: a positive number, or `off` (`None`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChanceBar(pub Option<f64>);

impl std::str::FromStr for ChanceBar {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text == "off" {
            return Ok(ChanceBar(None));
        }
        match text.trim().parse::<f64>() {
            Ok(e) if e > 0.0 => Ok(ChanceBar(Some(e))),
            Ok(e) => Err(format!("{e} is not a positive E-value")),
            Err(e) => Err(format!("`{text}` is not a number or `off`: {e}")),
        }
    }
}

impl MatchingValues {
    /// The options of a comparison with `method` under `preset` with these values over it,
    /// scoring down to the default floor or the permission, whichever is lower.
    pub fn compare_options(
        &self,
        preset: simdoc::compare::Preset,
        method: simdoc::similarity::Method,
        include_boilerplate: bool,
    ) -> anyhow::Result<simdoc::compare::CompareOptions> {
        self.check_method(method)?;
        let preset = self.over(preset)?;
        Ok(simdoc::compare::CompareOptions {
            include_boilerplate,
            count_fragments: self.count_fragments,
            one_to_two: self.one_to_two.unwrap_or(true),
            exclusions: self.exclusions(),
            partners_kept: self.partners.unwrap_or(simdoc::similarity::PARTNERS_KEPT),
            ..simdoc::compare::CompareOptions::for_preset(&preset, method)
        })
    }

    /// The sentences these values leave out.
    pub fn exclusions(&self) -> simdoc::document::exclusions::Exclusions {
        simdoc::document::exclusions::Exclusions {
            quotations: self.exclude_quotations,
            bibliography: self.exclude_bibliography,
        }
    }

    /// `preset` with the explicit values over it; an error for a threshold outside [0, 1].
    pub fn over(
        &self,
        mut preset: simdoc::compare::Preset,
    ) -> anyhow::Result<simdoc::compare::Preset> {
        let thresholds = &mut preset.thresholds;
        thresholds.permission = self.permission.unwrap_or(thresholds.permission);
        thresholds.variation = self.variation.unwrap_or(thresholds.variation);
        thresholds.min_words = self.min_words.unwrap_or(thresholds.min_words);
        for (name, value) in [
            ("--permission", thresholds.permission),
            ("--variation", thresholds.variation),
        ] {
            if !(0.0..=1.0).contains(&value) {
                usage!("{name} must be between 0 and 1 (got {value})");
            }
        }
        let refine = &mut preset.refine;
        refine.keep_stopwords = self.keep_stopwords.unwrap_or(refine.keep_stopwords);
        refine.keep_numbers = self.keep_numbers.unwrap_or(refine.keep_numbers);
        let rules = &mut preset.rules;
        rules.min_terms = self.min_terms.unwrap_or(rules.min_terms);
        rules.content_floor = self.content_floor.unwrap_or(rules.content_floor);
        rules.relate = self.relate.unwrap_or(rules.relate);
        rules.related_words = match (
            self.related_words,
            self.wordnet_weights,
            rules.related_words,
        ) {
            (Some(RelatedWordsArg::Correlations), Some(_), _) => {
                usage!("--wordnet-weights needs --related-words wordnet")
            }
            (Some(RelatedWordsArg::Correlations), None, _) => {
                simdoc::similarity::RelatedWords::Correlations
            }
            (_, Some(weights), _) => simdoc::similarity::RelatedWords::Wordnet(weights),
            (
                Some(RelatedWordsArg::Wordnet),
                None,
                simdoc::similarity::RelatedWords::Wordnet(w),
            ) => simdoc::similarity::RelatedWords::Wordnet(w),
            (Some(RelatedWordsArg::Wordnet), None, _) => simdoc::similarity::RelatedWords::Wordnet(
                simdoc::similarity::WordnetWeights::MEASURED,
            ),
            (None, None, current) => current,
        };
        rules.verdict = self.verdict.unwrap_or(rules.verdict);
        if let Some(ChanceBar(bar)) = self.max_e_value {
            preset.thresholds.max_e_value = bar;
        }
        match self.judge_chance {
            Some(false) => preset.chance_search = None,
            Some(true) if preset.chance_search.is_none() => {
                preset.chance_search = Some(simdoc::compare::chance::ChanceSearch::DEFAULT);
                // Judged against chance with no bar would count every chain: the documents
                // preset's bar unless --chance names one.
                if self.max_e_value.is_none() {
                    preset.thresholds.max_e_value =
                        simdoc::compare::Preset::DOCUMENTS.thresholds.max_e_value;
                }
            }
            _ => {}
        }
        if preset.chance_search.is_none()
            && let Some(flag) = self.chance_options_given().first()
        {
            usage!(
                "{flag} is an option of the search judged against chance and changes nothing \
                 here: this matching takes every pair whose Sims reach the permission (--judge-chance \
                 true judges it)"
            );
        }
        if let Some(chance) = &mut preset.chance_search {
            chance.link_bar = self.link_bar.unwrap_or(chance.link_bar);
            chance.seed_link_bar = self.seed_link_bar.unwrap_or(chance.seed_link_bar);
            chance.reach = self.reach.unwrap_or(chance.reach).max(1);
            chance.seeds_per_sentence =
                self.seeds_per_sentence.unwrap_or(chance.seeds_per_sentence);
            chance.prior_sentences = self
                .prior_sentences
                .unwrap_or(chance.prior_sentences)
                .max(0.0);
            chance.bridge_identical = self.bridge_identical.unwrap_or(chance.bridge_identical);
            chance.cooccurrence_discount = self
                .cooccurrence_discount
                .unwrap_or(chance.cooccurrence_discount);
            chance.discount_list_cap = self
                .discount_list_cap
                .unwrap_or(chance.discount_list_cap)
                .max(1);
            chance.discount_bar = self.discount_bar.unwrap_or(chance.discount_bar).max(0.0);
            chance.related_evidence = self.related_evidence.unwrap_or(chance.related_evidence);
            chance.related_discount = self
                .related_discount
                .unwrap_or(chance.related_discount)
                .max(0.0);
        }
        if !(0.0..=1.0).contains(&rules.content_floor) {
            usage!(
                "--content-floor must be between 0 and 1 (got {})",
                rules.content_floor
            );
        }
        Ok(preset)
    }
}

impl MatchingArgs {
    /// The preset (default: `default`) with the explicit values over it; an error for a
    /// threshold outside [0, 1].
    pub fn preset_with(
        &self,
        default: simdoc::compare::Preset,
    ) -> anyhow::Result<simdoc::compare::Preset> {
        self.values.over(self.preset.unwrap_or(default))
    }

    /// [`Self::preset_with`] the default preset, what a comparison of documents uses.
    pub fn preset(&self) -> anyhow::Result<simdoc::compare::Preset> {
        self.preset_with(simdoc::compare::Preset::default())
    }

    /// The options of a comparison with `method` under [`Self::preset_with`] `default`, scoring
    /// down to the default floor or the permission, whichever is lower.
    pub fn compare_options_with(
        &self,
        default: simdoc::compare::Preset,
        method: simdoc::similarity::Method,
        include_boilerplate: bool,
    ) -> anyhow::Result<simdoc::compare::CompareOptions> {
        self.values
            .compare_options(self.preset.unwrap_or(default), method, include_boilerplate)
    }

    /// [`Self::compare_options_with`] the default preset.
    pub fn compare_options(
        &self,
        method: simdoc::similarity::Method,
        include_boilerplate: bool,
    ) -> anyhow::Result<simdoc::compare::CompareOptions> {
        self.compare_options_with(
            simdoc::compare::Preset::default(),
            method,
            include_boilerplate,
        )
    }

    /// Just the thresholds of [`Self::preset`].
    pub fn thresholds(&self) -> anyhow::Result<simdoc::similarity::Thresholds> {
        Ok(self.preset()?.thresholds)
    }
}

/// Runs a parsed command; errors are printed with their causes.
pub fn run(command: Command) -> ExitCode {
    let result = match command {
        Command::Inspect(args) => inspect::run(&args),
        Command::Collection(args) => collection::run(&args),
        Command::Compare(args) => compare::run(&args),
        Command::Sources(args) => sources::run(&args),
        Command::Model(args) => model::run(&args),
        Command::Eval(args) => eval::run(&args),
        #[cfg(feature = "gui")]
        Command::View(_) => unreachable_view(),
        Command::ReadWorker => {
            // Buffered: standard output is line-buffered, and the reply is one long line written
            // in many small pieces.
            let out = std::io::BufWriter::with_capacity(64 << 10, std::io::stdout().lock());
            simdoc::document::worker::serve(std::io::stdin().lock(), out)
                .map_err(anyhow::Error::from)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("simdoc: {err:#}");
            ExitCode::from(exit_code_of(&err))
        }
    }
}

/// A mistake in the command line found after clap has parsed it (a file extension, a value out
/// of range, options that do not go together): exit code 2, as clap's own usage errors, so
/// that scripts can tell a wrong call from a failed one.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Returns early with a [`UsageError`] made like `format!`.
macro_rules! usage {
    ($($arg:tt)*) => {
        return Err(anyhow::Error::from($crate::cli::UsageError(format!($($arg)*))))
    };
}
pub(crate) use usage;

/// The exit code of a command's error: 2 for a usage error, 1 for anything else.
fn exit_code_of(err: &anyhow::Error) -> u8 {
    if err.downcast_ref::<UsageError>().is_some() {
        2
    } else {
        1
    }
}

#[cfg(test)]
mod tests;
