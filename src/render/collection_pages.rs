//! The comparison page of each ranked pair of a collection report: the page `simdoc compare
//! --html` writes for the two documents, which the report's row links to ("open"). The command
//! line and the viewer's export both write them, beside the report, in a folder named after it.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use super::collection::CollectionReport;
use super::html::report_html;
use super::report::{Report, Side};
use crate::collection::evidence::{EvidenceOptions, PairEvidence, evidence_of_pairs};
use crate::collection::{DocId, Job};
use crate::compare::Comparison;
use crate::document::Document;
use crate::similarity::ModelView;

/// Most pair pages written beside a collection report.
pub const MAX_PAIR_PAGES: usize = 500;

/// The folder of a report's pair pages, beside it: `STEM-pairs`, with its name (the links'
/// prefix).
pub fn pages_folder(report: &Path) -> (String, PathBuf) {
    let name = format!(
        "{}-pairs",
        report
            .file_stem()
            .map_or("collection".into(), |s| s.to_string_lossy())
    );
    (name.clone(), report.with_file_name(name))
}

/// The evidence of `pairs` (positions into `documents` of the report's first ranked pairs, in
/// rank order: [`CollectionReport::evidence_wanted`]) and, given the `folder` of the report's
/// pages ([`pages_folder`]), the comparison page of each of the first [`MAX_PAIR_PAGES`] pairs,
/// drawn from the comparison its evidence comes from, so that each pair is compared once.
/// Returns the evidence and, per rank, whether its page was written (empty without a folder);
/// a folder or page that cannot be written, or a cancelled run, is the error.
pub fn evidence_and_pages(
    report: &CollectionReport<'_>,
    pairs: &[(DocId, DocId)],
    documents: &[Document],
    model: &(dyn ModelView + Sync),
    options: &EvidenceOptions,
    job: &mut Job<'_>,
    folder: Option<&Path>,
) -> Result<(Vec<Option<PairEvidence>>, Vec<bool>), String> {
    if let Some(folder) = folder
        && !pairs.is_empty()
    {
        std::fs::create_dir_all(folder)
            .map_err(|e| format!("{}: cannot create: {e}", crate::escape::path(folder)))?;
    }
    let write = |rank: usize, html: &str| {
        let Some(folder) = folder else {
            return Ok(());
        };
        let file = folder.join(format!("{}.html", rank + 1));
        std::fs::write(&file, html)
            .map_err(|e| format!("{}: cannot write: {e}", crate::escape::path(&file)))
    };
    let pages = folder.map(|_| PairPages::new(report, model, options, &write));
    let evidence = evidence_of_pairs(
        pairs,
        documents,
        model,
        options,
        job,
        &|rank, a, b, comparison| {
            if let Some(pages) = &pages {
                pages.visit(rank, a, b, comparison);
            }
        },
    )
    .map_err(|e| e.to_string())?;
    let linked = pages.map(PairPages::finish).transpose()?;
    Ok((evidence, linked.unwrap_or_default()))
}

/// The pages of [`evidence_and_pages`], drawn as each pair's comparison is visited and handed
/// to `write(rank, html)` (rank from 0; the page of rank r is `r + 1`.html).
struct PairPages<'a> {
    /// The names of the ranked pairs' documents, in rank order.
    names: Vec<[&'a str; 2]>,
    model: &'a (dyn ModelView + Sync),
    options: &'a EvidenceOptions,
    write: &'a (dyn Fn(usize, &str) -> Result<(), String> + Sync),
    /// Per rank, whether its page was written.
    written: Vec<AtomicBool>,
    /// The first failed write.
    failed: Mutex<Option<String>>,
}

impl<'a> PairPages<'a> {
    /// The pages of `report`'s ranked pairs, for evidence computed with `options`.
    fn new(
        report: &'a CollectionReport<'a>,
        model: &'a (dyn ModelView + Sync),
        options: &'a EvidenceOptions,
        write: &'a (dyn Fn(usize, &str) -> Result<(), String> + Sync),
    ) -> Self {
        let names: Vec<[&'a str; 2]> = report
            .ranked()
            .take(MAX_PAIR_PAGES)
            .map(|(_, p)| [report.name(p.a), report.name(p.b)])
            .collect();
        PairPages {
            written: names.iter().map(|_| AtomicBool::new(false)).collect(),
            names,
            model,
            options,
            write,
            failed: Mutex::new(None),
        }
    }

    /// Draws and writes the page of the pair at `rank` from its comparison (nothing past
    /// [`MAX_PAIR_PAGES`], or once a write has failed).
    fn visit(&self, rank: usize, a: &Document, b: &Document, comparison: &Comparison) {
        let Some(&[name_a, name_b]) = self.names.get(rank) else {
            return;
        };
        if self.failed.lock().map_or(true, |failed| failed.is_some()) {
            return;
        }
        let sides = [(name_a, a), (name_b, b)].map(|(path, doc)| Side { path, doc });
        let page = Report::new(sides, comparison, self.options.thresholds)
            .with_words(self.model, &self.options.compare);
        match (self.write)(rank, &report_html(&page)) {
            Ok(()) => self.written[rank].store(true, Ordering::Relaxed),
            Err(error) => {
                if let Ok(mut failed) = self.failed.lock() {
                    failed.get_or_insert(error);
                }
            }
        }
    }

    /// Per rank, whether its page was written (what [`page_link`] reads); the first failed
    /// write is the error.
    fn finish(self) -> Result<Vec<bool>, String> {
        if let Some(error) = self.failed.into_inner().ok().flatten() {
            return Err(error);
        }
        Ok(self
            .written
            .into_iter()
            .map(AtomicBool::into_inner)
            .collect())
    }
}

/// The link of rank `rank`'s page from the report, if it was written (`linked` as
/// [`evidence_and_pages`] returns it), percent-encoded: the folder is named after the report,
/// whose name may hold `#`, `?` or spaces.
pub fn page_link(folder_name: &str, linked: &[bool], rank: usize) -> Option<String> {
    linked
        .get(rank)
        .copied()
        .unwrap_or(false)
        .then(|| crate::escape::url_path(&format!("{folder_name}/{}.html", rank + 1)))
}

/// Whether a file in a pages folder is one [`evidence_and_pages`] writes (`12.html`): a folder
/// holding anything else is not replaced by a new run's pages ([`crate::write::Outputs::folder`]).
pub fn is_page_name(name: &std::ffi::OsStr) -> bool {
    name.to_str()
        .and_then(|n| n.strip_suffix(".html"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}
