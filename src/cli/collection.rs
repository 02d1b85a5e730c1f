//! `simdoc collection PATH... [--preset NAME] [--method NAME] [parameters] [--json FILE] [--csv
//! FILE] [--html FILE]`: which documents of a collection contain, duplicate or reuse which others,
//! with the evidence of the highest-ranked pairs. The options are in [`super::collection_args`].

use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use anyhow::Context;

use super::collection_args::{CollectionArgs, IdfSource, NormaliserName};
use super::inputs::{gather_documents, progress_bar, skipped_lines};
use super::output::{RunOutputs, refuse_overwriting};
use super::reference::reference_model;
use simdoc::collection::evidence::{
    EvidenceOptions, SENTENCE_BUDGET, evidence_cut_note, pairs_within_budget,
};
use simdoc::collection::run::{MAX_MATRIX_DOCUMENTS, RunOutcome, RunSettings, detect};
use simdoc::collection::{DocId, Job, Method, Normaliser, Progress, fuzzy, tables};
use simdoc::selection::gather::{GatherRequest, Gathered};

use simdoc::model::ReferenceModel;
use simdoc::render::collection::CollectionReport;
use simdoc::render::collection_html::{HtmlOptions, collection_html};
use simdoc::render::collection_pages::{evidence_and_pages, is_page_name, page_link, pages_folder};
use simdoc::render::collection_ranking::discount_and_rank;

use simdoc::render::{heatmap, png};
use simdoc::similarity::Method as SentenceMethod;

/// Most documents whose odds-ratio matrix is printed as a table after the summary.
const MAX_MATRIX_TABLE: usize = 30;

pub fn run(args: &CollectionArgs) -> anyhow::Result<()> {
    if let Some(dir) = &args.from {
        return show_tables(args, dir);
    }
    let method = args.method();
    let method_name = method.as_ref().map_or("fuzzy", Method::name);
    // Checked before any document is read.
    args.check_options_apply()?;
    let params = args.fuzzy_params()?;
    if params.rules.verdict {
        super::usage!(
            "the learned verdict decides sentence pairs of `simdoc compare` and `simdoc eval \
             pairs`; the fuzzy collection mode counts EQ sentences by their Sims (use \
             --verdict false, or --matching-preset wordnet)"
        );
    }
    if let Some(path) = &args.matrix
        && !matches!(extension(path).as_deref(), Some("svg" | "png" | "csv"))
    {
        super::usage!(
            "{}: the matrix file must end in .svg, .png or .csv",
            simdoc::escape::path(path)
        );
    }
    // The outputs' places before the documents are read (again below, against the inputs).
    let pages = args.html.as_deref().map(pages_folder);
    let page_folders: Vec<&Path> = pages.iter().map(|(_, folder)| folder.as_path()).collect();
    let output_files = [
        args.json.as_ref(),
        args.csv.as_ref(),
        args.html.as_ref(),
        args.matrix.as_ref(),
    ];
    refuse_overwriting(&output_files, &page_folders, &[])?;
    // The sources first, then the other documents, each in the stream order asked for; a file
    // given both ways is a source.
    let gathered = gather_documents(&GatherRequest {
        sources: &args.sources,
        paths: &args.paths,
        selection: &args.inputs.selection()?,
        order: &args.order,
        load: &args.read_limit.load_options(),
        except: None,
    })?;
    let is_source = gathered.is_source();
    let Gathered {
        names,
        documents,
        skipped,
        files,
        ..
    } = gathered;
    // The report's pair pages go to a folder beside it, replaced whole.
    let inputs: Vec<std::path::PathBuf> =
        files.into_iter().chain(args.model.file.clone()).collect();
    refuse_overwriting(&output_files, &page_folders, &inputs)?;
    let mut outputs = RunOutputs::new();
    let staged_pages = match &pages {
        Some((_, folder)) => Some(outputs.folder(folder, is_page_name)?),
        None => None,
    };
    if documents.is_empty() {
        anyhow::bail!("no document could be read from the paths given");
    }
    if args.matrix.is_some() && documents.len() > MAX_MATRIX_DOCUMENTS {
        super::usage!(
            "--matrix is for collections of up to {MAX_MATRIX_DOCUMENTS} documents; these are {}",
            documents.len()
        );
    }
    let normaliser = match args.normaliser {
        NormaliserName::Refine => Normaliser::Refine,
        NormaliserName::First5 => Normaliser::StopwordsFirst5,
    };
    if args.idf == IdfSource::Reference && normaliser != Normaliser::Refine {
        super::usage!(
            "--idf reference needs --normaliser refine: the reference model holds refined words"
        );
    }
    let model = reference_model(args.model.file.as_deref())?;
    let model: &ReferenceModel = &model;
    super::reference::check_rules(model, &params.rules)?;
    let bar = progress_bar();
    let cancel = AtomicBool::new(false);
    let mut report = |p: Progress| {
        bar.set_message(p.stage);
        bar.set_length(p.total as u64);
        bar.set_position(p.done as u64);
    };
    let mut job = Job::new(&mut report, &cancel);
    // The comparison each pair's evidence comes from: `simdoc compare`'s under the same
    // matching; a judged fuzzy run decides its pairs with it too.
    let evidence_options = EvidenceOptions::new(
        simdoc::compare::CompareOptions {
            include_boilerplate: params.include_boilerplate,
            ..args
                .matching
                .compare_options(args.matching_preset(), SentenceMethod::Fuzzy, false)?
        },
        params.thresholds,
    );
    let outcome = detect(
        names,
        &documents,
        &RunSettings {
            method: method.as_ref(),
            params: &params,
            normaliser,
            idf_from: (args.idf == IdfSource::Reference).then_some(model),
            matrix: args.matrix.is_some(),
            model,
            evidence: &evidence_options,
        },
        &mut job,
    )?;
    for note in &outcome.notes {
        eprintln!("simdoc: {note}");
    }
    let RunOutcome {
        collection,
        detection,
        resemblances,
        notes,
    } = outcome;
    // The evidence and pages of a judged run's pairs leave out the common text it left out.
    let evidence_options = EvidenceOptions {
        common: resemblances.as_ref().and_then(|r| r.common.clone()),
        ..evidence_options
    };
    let mut report = CollectionReport::new(method_name, &collection.names, &detection, &is_source);
    report.same_text = detection
        .groups
        .iter()
        .map(|group| {
            simdoc::collection::same_text(group, |d| documents.get(d).map(|doc| doc.text.as_str()))
        })
        .collect();
    // A class's student pairs ranked by what they share beyond the sources, before the
    // evidence goes to the highest-ranked ones.
    let ranking_note = discount_and_rank(
        &mut report,
        &|d| documents.get(d),
        model,
        &evidence_options,
        &mut job,
        args.evidence,
    )?;
    let mut wanted = report.evidence_wanted(args.evidence);
    let sentences = |d: DocId| documents.get(d).map_or(0, |doc| doc.sentences.len());
    let affordable = pairs_within_budget(&wanted, sentences, SENTENCE_BUDGET);
    // The notes printed here are the ones the JSON and HTML reports carry.
    report.notes = notes;
    for note in ranking_note
        .into_iter()
        .chain(evidence_cut_note(affordable, wanted.len()))
    {
        eprintln!("simdoc: {note}");
        report.notes.push(note);
    }
    wanted.truncate(affordable);
    // With --html, each pair's page is drawn from the comparison its evidence comes from.
    let (evidence, linked) = evidence_and_pages(
        &report,
        &wanted,
        &documents,
        model,
        &evidence_options,
        &mut job,
        staged_pages.as_deref(),
    )
    .map_err(anyhow::Error::msg)?;
    report.evidence = evidence;
    report.matching = Some(args.matching_in_words()?);
    bar.finish_and_clear();

    if let Some(path) = &args.json {
        outputs.write_json(path, &report.to_json())?;
    }
    if let Some(path) = &args.csv {
        outputs.write_with(path, |out| Ok(report.write_csv(out)?))?;
    }
    if let (Some(path), Some((folder_name, _))) = (&args.html, &pages) {
        let link = |rank: usize| page_link(folder_name, &linked, rank);
        let html = collection_html(&report, &HtmlOptions { pair_link: &link });
        outputs.write_file(path, html.as_bytes())?;
    }
    drop(documents);
    // The matrix is n x n: made only when it is written or printed (20,849 Reuters stories
    // would need 3.5 GB for a matrix nobody asked for).
    let matrix = resemblances
        .as_ref()
        .filter(|_| args.matrix.is_some() || collection.names.len() <= MAX_MATRIX_TABLE)
        .map(fuzzy::Resemblances::odds_matrix);
    if let (Some(path), Some(matrix)) = (&args.matrix, &matrix) {
        outputs.write_file(path, &matrix_bytes(path, &collection.names, matrix)?)?;
    }
    outputs.commit()?;
    // Buffered: a summary with `--show` lists a line per pair.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    report
        .write_summary(&mut out, args.show)
        .and_then(|()| out.write_all(skipped_lines(&skipped, args.show).as_bytes()))
        .context("writing to standard output")?;
    if let Some(matrix) = &matrix
        && matrix.len() <= MAX_MATRIX_TABLE
    {
        write_matrix_table(&mut out, matrix)?;
    }
    out.flush().context("writing to standard output")
}

/// `--from DIR`: the tables of a cluster run, reported as a run here is.
fn show_tables(args: &CollectionArgs, dir: &Path) -> anyhow::Result<()> {
    let result = tables::read_results(dir)?;
    for unreadable in &result.unreadable {
        eprintln!(
            "simdoc: skipped: {}",
            simdoc::escape::terminal(&unreadable.error)
        );
    }
    let shown = |id: usize| simdoc::escape::terminal(&result.names[id]);
    for (id, warning) in &result.warnings {
        eprintln!(
            "simdoc: {}: {}",
            shown(*id),
            simdoc::escape::terminal(warning)
        );
    }
    for compared in &result.compared {
        if let Err(error) = &compared.evidence {
            eprintln!(
                "simdoc: no evidence for {} and {}: {}",
                shown(compared.a),
                shown(compared.b),
                simdoc::escape::terminal(error)
            );
        }
    }
    // A cluster run marks no sources: every pair is between submissions.
    let mut report = CollectionReport::new(&result.method, &result.names, &result.detection, &[]);
    // The executors ranked the pairs as this report does and compared the first ones where the
    // documents are (the `evidence` table); a run without it shows no evidence.
    report.evidence =
        tables::evidence_in_order(&result.compared, report.ranked().map(|(_, p)| (p.a, p.b)));
    refuse_overwriting(
        &[args.json.as_ref(), args.csv.as_ref(), args.html.as_ref()],
        &[],
        &[],
    )?;
    let mut outputs = RunOutputs::new();
    if let Some(path) = &args.json {
        outputs.write_json(path, &report.to_json())?;
    }
    if let Some(path) = &args.csv {
        outputs.write_with(path, |out| Ok(report.write_csv(out)?))?;
    }
    if let Some(path) = &args.html {
        // The documents stay on the cluster: the evidence comes from its table, and there are
        // no pair pages (they would need the documents' sentences).
        let html = collection_html(
            &report,
            &HtmlOptions {
                pair_link: &|_| None,
            },
        );
        outputs.write_file(path, html.as_bytes())?;
    }
    outputs.commit()?;
    // Buffered: a summary with `--show` lists a line per pair.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    report
        .write_summary(&mut out, args.show)
        .context("writing to standard output")?;
    out.flush().context("writing to standard output")
}

fn extension(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

/// The matrix file's bytes, in the format its extension names.
fn matrix_bytes(path: &Path, names: &[String], matrix: &[Vec<f64>]) -> anyhow::Result<Vec<u8>> {
    let shown = || simdoc::escape::path(path);
    Ok(match extension(path).as_deref() {
        Some("csv") => {
            let mut out = Vec::new();
            heatmap::odds_csv(names, matrix, &mut out)
                .with_context(|| format!("{}: cannot write", shown()))?;
            out
        }
        Some("png") => png::svg_to_png(&heatmap::odds_heatmap_svg(names, matrix), 1.0)
            .with_context(|| format!("{}: cannot draw the matrix", shown()))?,
        _ => heatmap::odds_heatmap_svg(names, matrix).into_bytes(),
    })
}

/// The odds-ratio matrix as a table (thesis Table 4.1), documents numbered as in the summary.
fn write_matrix_table(out: &mut impl Write, matrix: &[Vec<f64>]) -> std::io::Result<()> {
    writeln!(
        out,
        "
odds ratios (thesis Table 4.1; 100 = identical):"
    )?;
    write!(out, "{:>5}", "")?;
    for b in 0..matrix.len() {
        write!(out, "{:>8}", b + 1)?;
    }
    writeln!(out)?;
    for (a, row) in matrix.iter().enumerate() {
        write!(out, "{:>5}", a + 1)?;
        for value in row {
            write!(out, "{value:>8.3}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}
