//! `simdoc sources DOC SOURCES...`: one document against many sources. Which source each sentence
//! comes from and how much of the document each source holds, through one sentence index over
//! all sources ([`simdoc::sources`]).

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use anyhow::Context;
use clap::Args;

use simdoc::document;
use simdoc::model::ReferenceModel;
use simdoc::render::sources::{SourcesReport, sources_html};
use simdoc::selection::gather::GatherRequest;
use simdoc::similarity::Method;
use simdoc::sources::SourceIndex;

use super::output::{RunOutputs, is_stdout, refuse_overwriting};
use super::reference::reference_model;

#[derive(Debug, Args)]
pub struct SourcesArgs {
    /// The document whose sources are sought.
    pub document: PathBuf,
    /// The sources: files or folders (walked recursively; Reuters .sgm and WikiExtractor files
    /// hold many documents). The document itself is left out if it is among them.
    #[arg(required = true)]
    pub sources: Vec<PathBuf>,
    /// Sentence matcher: fuzzy (fuzzy-set IR), overlap (the same without word relatedness),
    /// fourgram (three least-frequent 4-grams) or exact.
    #[arg(long, default_value = "fuzzy")]
    pub method: Method,
    #[command(flatten)]
    pub matching: super::MatchingArgs,
    #[command(flatten)]
    pub model: super::ModelArg,
    /// Compare navigation, headers, footers, asides and forms too.
    #[arg(long)]
    pub include_boilerplate: bool,
    /// Write the JSON report to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write every (source, sentence) match as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write a self-contained HTML report.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Print at most this many sources (all go to the files).
    #[arg(long, default_value_t = 20)]
    pub show: usize,
    #[command(flatten)]
    pub read_limit: super::MaxBytesArg,
    #[command(flatten)]
    pub inputs: super::inputs::InputArgs,
    /// Do not print the summary.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(args: &SourcesArgs) -> anyhow::Result<()> {
    // The default is `compare`'s: matches judged against chance, here over every source
    // searched ([`simdoc::sources`]).
    let preset = simdoc::compare::Preset::default();
    let thresholds = args.matching.preset_with(preset)?.thresholds;
    let options =
        args.matching
            .compare_options_with(preset, args.method, args.include_boilerplate)?;
    let model = reference_model(args.model.file.as_deref())?;
    let model: &ReferenceModel = &model;
    if options.rules.verdict {
        super::usage!(
            "the learned verdict decides sentence pairs of `simdoc compare` and `simdoc eval pairs`; `simdoc sources` attributes sentences by their Sims (use --verdict false)"
        );
    }
    super::reference::check_rules(model, &options.rules)?;
    let load = args.read_limit.load_options();
    // The outputs' places before anything is read (again below, against the inputs).
    let outputs = [args.json.as_ref(), args.csv.as_ref(), args.html.as_ref()];
    refuse_overwriting(&outputs, &[], &[])?;
    let document = document::load(&args.document, &load)?;
    super::inputs::print_warnings(&args.document.display().to_string(), &document);
    // The document itself is no source of its own.
    let loaded = super::inputs::gather_documents(&GatherRequest {
        sources: &args.sources,
        paths: &[],
        selection: &args.inputs.selection()?,
        order: &simdoc::selection::Order::Name,
        load: &load,
        except: Some(&args.document),
    })?;
    let inputs: Vec<PathBuf> = std::iter::once(args.document.clone())
        .chain(loaded.files.iter().cloned())
        .chain(args.model.file.iter().cloned())
        .collect();
    refuse_overwriting(&outputs, &[], &inputs)?;
    let skipped = loaded.skipped;
    let (names, sources) = (loaded.names, loaded.documents);
    if sources.is_empty() {
        if skipped.is_empty() {
            anyhow::bail!("no source could be read from the paths given");
        }
        anyhow::bail!(
            "no source could be read from the paths given: {} file(s) left out (README, SOURCE, \
             LICENSE and the like describe a folder; --all-files reads them, --include picks files)",
            skipped.len()
        );
    }
    let bar = super::inputs::progress_bar();
    bar.set_message("indexing sources");
    let mut index = SourceIndex::new(&sources, model, &options);
    bar.set_message("matching");
    let never = AtomicBool::new(false);
    let attribution = index.attribute(&document, model, &thresholds, &never)?;
    bar.finish_and_clear();
    let document_path = args.document.display().to_string();
    let report = SourcesReport {
        document_path: &document_path,
        document: &document,
        source_paths: &names,
        sources: &sources,
        attribution: &attribution,
        thresholds,
    };
    let json_to_stdout = args.json.as_deref().is_some_and(is_stdout);
    let mut outputs = RunOutputs::new();
    if let Some(path) = &args.json {
        outputs.write_json(path, &report.to_json())?;
    }
    if let Some(path) = &args.csv {
        outputs.write_with(path, |out| Ok(report.write_csv(out)?))?;
    }
    if let Some(path) = &args.html {
        outputs.write_file(path, sources_html(&report).as_bytes())?;
    }
    outputs.commit()?;
    if !args.quiet && !json_to_stdout {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        out.write_all(report.summary(args.show).as_bytes())
            .and_then(|()| {
                out.write_all(super::inputs::skipped_lines(&skipped, args.show).as_bytes())
            })
            .and_then(|()| out.flush())
            .context("writing to standard output")?;
    }
    Ok(())
}
