//! The comparison page of each ranked pair of a collection report: the page `simdoc compare
//! --html` writes for the two documents, which the report's row links to ("open"). The command
//! line and the viewer's export both write them, beside the report, in a folder named after it.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;

use super::collection::CollectionReport;
use super::html::report_html;
use super::report::{Report, Side};
use crate::collection::DocId;
use crate::collection::evidence::EvidenceOptions;
use crate::compare::PreparedPair;
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

/// The page of each of the report's first ranked pairs that has evidence (at most
/// [`MAX_PAIR_PAGES`]), computed on every core and handed to `write(rank, html)` (rank from 0;
/// the page of rank r is `r + 1`.html). `document(d)` is the collection's document `d`.
/// Returns, per rank, whether its page was written; a document missing or a failed write is an
/// error naming the pair.
pub fn write_pair_pages<'d>(
    report: &CollectionReport<'_>,
    document: &(dyn Fn(DocId) -> Option<&'d Document> + Sync),
    model: &(dyn ModelView + Sync),
    options: &EvidenceOptions,
    cancel: &AtomicBool,
    write: &(dyn Fn(usize, &str) -> Result<(), String> + Sync),
) -> Result<Vec<bool>, String> {
    let pages: Vec<(usize, DocId, DocId)> = report
        .ranked()
        .enumerate()
        .take(report.evidence.len().min(MAX_PAIR_PAGES))
        .map(|(rank, (_, p))| (rank, p.a, p.b))
        .collect();
    let written: Vec<Result<usize, String>> = pages
        .par_iter()
        .map(|&(rank, a, b)| {
            let (Some(doc_a), Some(doc_b)) = (document(a), document(b)) else {
                return Err(format!(
                    "pair {} names a document that is not loaded",
                    rank + 1
                ));
            };
            let compare = &options.compare;
            let comparison = PreparedPair::new(doc_a, doc_b, model, compare)
                .compare(model, compare.method, compare.floor, cancel)
                .map_err(|_| "cancelled".to_string())?;
            let sides = [(a, doc_a), (b, doc_b)].map(|(d, doc)| Side {
                path: report.name(d),
                doc,
            });
            let page = Report::new(sides, &comparison, options.thresholds)
                .with_words(model, &compare.refine);
            write(rank, &report_html(&page))?;
            Ok(rank)
        })
        .collect();
    let mut linked = vec![false; pages.len()];
    for rank in written {
        linked[rank?] = true;
    }
    Ok(linked)
}

/// The link of rank `rank`'s page from the report, if it was written (`linked` as
/// [`write_pair_pages`] returns it).
pub fn page_link(folder_name: &str, linked: &[bool], rank: usize) -> Option<String> {
    linked
        .get(rank)
        .copied()
        .unwrap_or(false)
        .then(|| format!("{folder_name}/{}.html", rank + 1))
}
