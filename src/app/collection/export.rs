//! Collection mode's export: the self-contained HTML report of `simdoc collection --html`
//! ([`crate::render::collection_html`]) for the run shown, with the evidence of its
//! highest-ranked pairs (the fuzzy comparison of the two documents: containment both ways and
//! the passages), computed in the background under the run's own matching (its preset's fuzzy
//! comparison, as `simdoc collection --html` computes it).
//!
//! Beside the report, as the command line does, a comparison page for each pair with evidence
//! ([`crate::render::collection_pages`]), linked from its row. With sources, the student pairs
//! are discounted and ranked by what they share beyond them, as the command line ranks them
//! ([`crate::render::collection_ranking`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::result::CollectionResult;
use crate::app::{JobOutput, Pick, SimdocApp};
use crate::collection::Job;
use crate::collection::evidence::{
    EvidenceOptions, SENTENCE_BUDGET, evidence_cut_note, pairs_within_budget,
};
use crate::collection::presets::CollectionPreset;
use crate::collection::tables;
use crate::document::Document;
use crate::render::collection_html::{HtmlOptions, collection_html};
use crate::render::collection_pages::{evidence_and_pages, is_page_name, page_link, pages_folder};
use crate::render::collection_ranking::discount_and_rank;
use crate::similarity::ModelView;

/// How many of the highest-ranked pairs get their evidence (as `simdoc collection --evidence`
/// does by default).
pub const EVIDENCE_PAIRS: usize = 500;

impl SimdocApp {
    /// Asks where to save the HTML report of the collection run shown (or saves it in the
    /// working folder when no dialog is available).
    pub fn pick_collection_export(&mut self) {
        let Some(result) = &self.collection.result else {
            return;
        };
        let name = format!("collection-{}.html", result.detector.name());
        self.ask_where_to_save(
            Pick::CollectionReport,
            "Collection report as HTML",
            name,
            "html",
        );
    }

    /// Writes the HTML report of the collection run shown to `path`, in the background.
    pub fn export_collection(&mut self, path: PathBuf) {
        let Some(result) = self.collection.result.clone() else {
            return;
        };
        // The run's own matching, as `simdoc collection --html` computes the evidence (a result
        // read from simdoc-spark's tables has no documents here: its evidence is the cluster's).
        let options = result.evidence_options();
        let model = Arc::clone(&self.model);
        let progress = Arc::clone(&self.collection.progress);
        let repaint = self.repainter();
        self.jobs.spawn(
            format!("Exporting {}", path.display()),
            repaint,
            move |cancel| {
                let mut report = |p| {
                    if let Ok(mut slot) = progress.lock() {
                        *slot = Some(p);
                    }
                };
                let mut job = Job::new(&mut report, cancel);
                let result = write_report(&path, &result, &*model, &options, &mut job)
                    .map(|()| format!("Exported {}", path.display()))
                    .map_err(|e| format!("{}: cannot export: {e}", path.display()));
                JobOutput::Exported { result }
            },
        );
    }
}

/// The report of `result` at `path`, with the evidence of its first [`EVIDENCE_PAIRS`] pairs
/// and their comparison pages when its documents are at hand; a run read from simdoc-spark's
/// tables holds names only, and shows the evidence the cluster computed, without pages, as
/// `simdoc collection --from` does.
fn write_report(
    path: &Path,
    result: &CollectionResult,
    model: &(dyn ModelView + Sync),
    options: &EvidenceOptions,
    job: &mut Job<'_>,
) -> Result<(), String> {
    let mut report = result.report();
    report.same_text = result
        .detection
        .groups
        .iter()
        .map(|group| {
            crate::collection::same_text(group, |d| {
                result.documents.get(d).map(|doc| doc.text.as_str())
            })
        })
        .collect();
    // The notes the viewer's summary shows (text left out, a budget reached), as the command
    // line's report carries them.
    report.notes = result.notes.clone();
    report.matching = result
        .preset
        .map(|preset| matching_in_words(preset, options));
    // The report and its folder of pair pages are one transaction: the pages are staged beside
    // the report and replace an earlier export's whole.
    let (folder_name, target_folder) = pages_folder(path);
    let mut outputs = crate::write::Outputs::new();
    let folder = outputs
        .folder(&target_folder, is_page_name)
        .map_err(|e| e.to_string())?;
    let mut linked = Vec::new();
    if !result.documents.is_empty() {
        // A class's student pairs ranked by what they share beyond the sources, as
        // `simdoc collection --sources` ranks them, before the evidence goes to the first ones:
        // the list's ranking when the run made it, else made here (a ranking cancelled).
        let ranking_note = if report.discount_ranked {
            result.ranking_note.clone()
        } else {
            let document_at = |d: usize| result.documents.get(d).map(|doc| &**doc);
            discount_and_rank(
                &mut report,
                &document_at,
                model,
                options,
                job,
                EVIDENCE_PAIRS,
            )
            .map_err(|e| e.to_string())?
        };
        report.notes.extend(ranking_note);
        // Only the documents of the pairs wanted are handed over (copied once each), not the
        // whole collection.
        let mut wanted = report.evidence_wanted(EVIDENCE_PAIRS);
        // The same bound as the command line's: pairs of long documents stop the evidence
        // early (the report says for how many pairs it was computed).
        let sentences = |d: usize| result.documents.get(d).map_or(0, |doc| doc.sentences.len());
        let affordable = pairs_within_budget(&wanted, sentences, SENTENCE_BUDGET);
        report
            .notes
            .extend(evidence_cut_note(affordable, wanted.len()));
        wanted.truncate(affordable);
        let mut local: Vec<Option<usize>> = vec![None; result.documents.len()];
        let mut documents: Vec<Document> = Vec::new();
        // A position with no document (none is expected) maps past the end: no evidence.
        let mut place = |d: usize| -> usize {
            if let Some(at) = local.get(d).copied().flatten() {
                return at;
            }
            let Some(doc) = result.documents.get(d) else {
                return usize::MAX;
            };
            documents.push(Document::clone(doc));
            if let Some(slot) = local.get_mut(d) {
                *slot = Some(documents.len() - 1);
            }
            documents.len() - 1
        };
        let pairs: Vec<(usize, usize)> =
            wanted.iter().map(|&(a, b)| (place(a), place(b))).collect();
        // Each pair's page is drawn from the comparison its evidence comes from.
        let (evidence, written) = evidence_and_pages(
            &report,
            &pairs,
            &documents,
            model,
            options,
            job,
            Some(&folder),
        )?;
        linked = written;
        report.evidence = evidence;
    } else {
        report.evidence = tables::evidence_in_order(
            &result.cluster_evidence,
            report.ranked().map(|(_, pair)| (pair.a, pair.b)),
        );
    }
    let link = |rank: usize| page_link(&folder_name, &linked, rank);
    let html = collection_html(&report, &HtmlOptions { pair_link: &link });
    outputs
        .write(path, html.as_bytes())
        .and_then(|()| outputs.commit())
        .map_err(|e| e.to_string())
}

/// The evidence's matching in words, as `simdoc collection` names it in its reports: the
/// preset, and the chance bar where the matching judges against chance (the bar stays in the
/// thresholds of a matching that does not judge, where it decides nothing).
fn matching_in_words(preset: CollectionPreset, options: &EvidenceOptions) -> String {
    let mut shown = options.thresholds;
    if options.compare.chance_search.is_none() {
        shown.max_e_value = None;
    }
    format!(
        "the {} preset's matching (fuzzy-set IR, {})",
        preset.name(),
        crate::render::report::thresholds_in_words(&shown)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collection::evidence::PairEvidence;
    use crate::collection::presets::Detector;
    use crate::collection::tables::ComparedPair;
    use crate::collection::{DetectedPair, Detection, Relation, without_job};
    use crate::model::ReferenceModel;

    /// A run read from simdoc-spark's tables: names, two pairs, the first with the cluster's
    /// evidence.
    fn cluster_result() -> CollectionResult {
        let pair = DetectedPair::new(0, 1, Relation::Reuses, 0.5);
        let detection = Detection {
            pairs: vec![pair, DetectedPair::new(1, 2, Relation::Reuses, 0.25)],
            groups: Vec::new(),
        };
        let evidence = PairEvidence {
            containment: [0.625, 0.125],
            matched_sentences: [5, 1],
            sentences: [8, 8],
            passages: Vec::new(),
        };
        CollectionResult {
            detector: Detector::SimHash,
            preset: None,
            fuzzy: None,
            names: vec!["a.txt".into(), "b.txt".into(), "c.txt".into()],
            documents: Vec::new(),
            pairs: Vec::new(),
            sources: 0,
            groups: Vec::new(),
            detection,
            matrix: None,
            skipped: Vec::new(),
            notes: Vec::new(),
            common: None,
            cluster_evidence: vec![ComparedPair {
                a: 0,
                b: 1,
                evidence: Ok(evidence),
            }],
            discounts: Vec::new(),
            ranking_note: None,
        }
    }

    /// The exported page of `result`.
    fn exported(result: &CollectionResult) -> String {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("report.html");
        let options = EvidenceOptions::of_fuzzy(&result.fuzzy.unwrap_or_default());
        without_job(|job| {
            write_report(&path, result, ReferenceModel::embedded(), &options, job)
                .map_err(|_| crate::collection::Cancelled)
        })
        .expect("written");
        std::fs::read_to_string(&path).expect("read")
    }

    /// A run read from simdoc-spark's tables has names only: its report shows the evidence the
    /// cluster computed, and links no pair page.
    #[test]
    fn a_cluster_run_is_exported_with_the_clusters_evidence() {
        let html = exported(&cluster_result());
        let cell = |share: &str| format!(r#"<td class="n">{share}</td>"#);
        assert!(html.contains(&cell("62%")), "a in b: {html}");
        assert!(html.contains(&cell("12%")), "b in a: {html}");
        // The second pair was not compared on the cluster.
        assert!(html.contains("not computed"), "{html}");
        assert!(!html.contains(">open</a>"), "no pair page: {html}");
    }

    /// The notes the viewer's summary shows and the run's preset are in the exported report,
    /// as the command line's report carries them.
    #[test]
    fn the_export_carries_the_runs_notes_and_its_preset() {
        let params = CollectionPreset::Documents.params().fuzzy;
        let result = CollectionResult {
            preset: Some(CollectionPreset::Documents),
            fuzzy: Some(params),
            notes: vec!["4 sentences in 5 documents held by more than 2 documents".into()],
            ..cluster_result()
        };
        let html = exported(&result);
        assert!(html.contains("<h2>Notes on this run</h2>"), "{html}");
        assert!(html.contains("<li>4 sentences in 5 documents held by more than 2 documents</li>"));
        assert!(
            html.contains("Evidence: the documents preset's matching (fuzzy-set IR, "),
            "{html}"
        );
    }

    /// With sources, the exported class report ranks the student pairs by what they share
    /// beyond the sources, as `simdoc collection --sources` does: two students sharing their
    /// own sentences before two sharing only the source's, whose raw score is higher.
    #[test]
    fn the_export_ranks_student_pairs_by_what_they_share_beyond_the_sources() {
        use crate::document::{SourceFormat, parse_text};
        let source = "The river flooded the lower town in April. Farmers lost most of their \
                      spring wheat. The council opened the school as a shelter. Volunteers \
                      brought blankets and food from the next valley.";
        let own = "A heron nested on the drowned bus shelter for the whole of May. Children \
                   from the hill farms counted its chicks every morning before school.";
        let texts = [
            source.to_string(),
            format!("{source} My aunt says the bells rang all night. Our street stayed dry."),
            format!("{source} The radio kept playing old songs. A new dam is planned."),
            format!("{own} The market moved to the church square. Prices rose for a while."),
            format!("{own} Our football pitch was closed. The library lost its archive."),
        ];
        let documents = texts
            .iter()
            .map(|t| Arc::new(parse_text(t, "answer.txt", SourceFormat::Text)))
            .collect();
        let detection = Detection {
            pairs: vec![
                DetectedPair::new(1, 2, Relation::Reuses, 0.6),
                DetectedPair::new(3, 4, Relation::Reuses, 0.4),
            ],
            groups: Vec::new(),
        };
        let result = CollectionResult {
            preset: Some(CollectionPreset::Teacher),
            fuzzy: Some(CollectionPreset::Teacher.params().fuzzy),
            names: [
                "source.txt",
                "alice.txt",
                "bob.txt",
                "carol.txt",
                "dave.txt",
            ]
            .map(String::from)
            .to_vec(),
            documents,
            sources: 1,
            detection,
            cluster_evidence: Vec::new(),
            ..cluster_result()
        };
        let html = exported(&result);
        let row = |name: &str| {
            html.find(&format!("<td>{name}</td><td>reuses</td>"))
                .unwrap_or_else(|| panic!("a row for {name}: {html}"))
        };
        assert!(row("carol.txt") < row("alice.txt"), "{html}");
        assert!(
            html.contains("ranked by the larger share left once the text"),
            "{html}"
        );
    }
}
