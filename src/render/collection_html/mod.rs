//! The collection report as one self-contained HTML page (no scripts, no external resources):
//! what a teacher or an editor reads after a collection run.
//!
//! - The run's notes (text left out of every pair, a budget reached), as the command line
//!   prints them, first: they qualify every figure below.
//! - With sources marked, each submission first, with the sources it reuses and how much of it
//!   is found in each: the teacher's question "which submissions reuse which sources, and how
//!   much?" answered per submission, the most reused first, including the ones that reuse none.
//! - The ranked pairs, each with its evidence (containment both ways, the passages) and a link
//!   to the pair's own report when one was written; for two submissions, also the figures
//!   with the text found in the sources left out ([`crate::collection::source_discount`]).
//! - The matrix of containment with document names on its axes (submissions against sources
//!   when roles were given: a class of a few hundred submissions is still a readable grid of a
//!   few sources), for collections small enough to read as a grid.
//! - The duplicate groups with the document to keep; in a class, the groups of identical
//!   submissions (each one a finding, none to keep).
//!
//! A print stylesheet keeps rows whole and the grid on the page.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::collection::{CollectionReport, passage_spans};
use super::dotplot::escape;
use super::percent;
use crate::collection::DocId;
use crate::collection::roles::PairKind;

/// Most pair rows listed; the rest are in the JSON and CSV.
pub const MAX_PAIR_ROWS: usize = 2000;

/// Most rows or columns of the matrix: beyond it a grid is no longer readable.
pub const MAX_MATRIX_SIDE: usize = 60;

/// Most rows (submissions) of a class's submissions-by-sources grid: its columns, the sources,
/// stay under [`MAX_MATRIX_SIDE`], so a row is one line and a few hundred rows read as a list.
pub const MAX_CLASS_ROWS: usize = 500;

/// What the page links to and what it may add besides the report.
pub struct HtmlOptions<'a> {
    /// The address of the pair report of the pair at a rank (output order), if one exists.
    pub pair_link: &'a dyn Fn(usize) -> Option<String>,
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}\
table{border-collapse:collapse;margin-bottom:1em}\
td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left;vertical-align:top}\
td.n{text-align:right}th.v{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;\
font-weight:normal;padding:.4em .1em}td.c{width:1.6em;height:1.6em;padding:0;text-align:center;\
font-size:.7em}.keep{font-weight:bold}.none{color:#888}.scale span{display:inline-block;\
width:2.2em;text-align:center;font-size:.8em}th.r{text-align:left;font-weight:normal;\
white-space:nowrap}.notes{border-left:4px solid #c80;padding-left:.8em}\
@media print{body{margin:0;font-size:9pt}a{color:inherit;text-decoration:none}\
tr{break-inside:avoid}h1,h2{break-after:avoid}thead{display:table-header-group}\
td.c{-webkit-print-color-adjust:exact;print-color-adjust:exact}}";

/// Fill for a containment share: white at 0 to deep red at 1.
fn shade(share: f64) -> String {
    let t = share.clamp(0.0, 1.0);
    let lerp = |from: f64, to: f64| (from + (to - from) * t).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        lerp(255.0, 178.0),
        lerp(255.0, 24.0),
        lerp(255.0, 43.0)
    )
}

/// The whole page.
pub fn collection_html(report: &CollectionReport<'_>, options: &HtmlOptions<'_>) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let _ = write!(
        out,
        r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>simdoc: collection ({})</title><style>{STYLE}</style></head><body>"#,
        escape(report.method)
    );
    let roles = if report.has_roles() {
        format!(
            " ({} sources, {} submissions)",
            report.sources.len(),
            report.names.len() - report.sources.len()
        )
    } else {
        String::new()
    };
    let _ = write!(
        out,
        "<h1>Collection: {}</h1><p>{} documents{roles}; detector <b>{}</b>; {} pairs; {} \
         duplicate groups. Containment is the share of a document's text found in the other \
         (the mean of each sentence's best fuzzy-set similarity).</p>",
        escape(report.method),
        report.names.len(),
        escape(report.method),
        report.pair_count(),
        report.detection.groups.len()
    );
    if let Some(matching) = &report.matching {
        let _ = write!(
            out,
            "<p>Evidence: {}. A pair opened elsewhere shows these figures under the same \
             matching.</p>",
            escape(matching)
        );
    }
    notes(&mut out, report);
    if report.has_roles() {
        by_submission(&mut out, report);
    }
    pairs_table(&mut out, report, options);
    matrix(&mut out, report);
    groups(&mut out, report);
    out.push_str("</body></html>\n");
    out
}

/// The run's notes ([`CollectionReport::notes`]), before any figure they qualify; nothing
/// when there are none.
fn notes(out: &mut String, report: &CollectionReport<'_>) {
    if report.notes.is_empty() {
        return;
    }
    out.push_str(r#"<div class="notes"><h2>Notes on this run</h2><ul>"#);
    for note in &report.notes {
        let _ = write!(out, "<li>{}</li>", escape(note));
    }
    out.push_str("</ul></div>");
}

/// Per submission, its sources ranked by the share of the submission found in each.
fn by_submission(out: &mut String, report: &CollectionReport<'_>) {
    // submission -> (share found, rank, source)
    let mut found: BTreeMap<DocId, Vec<(Option<f64>, usize, DocId)>> = BTreeMap::new();
    for (rank, (kind, pair)) in report.ranked().enumerate() {
        if kind != Some(PairKind::SubmissionSource) {
            continue;
        }
        // Oriented with the source as the container, except "submission reuses source".
        let (source, submission) = if report.is_source(pair.a) {
            (pair.a, pair.b)
        } else {
            (pair.b, pair.a)
        };
        let share = report.evidence_at(rank).map(|e| {
            if submission == pair.a {
                e.containment[0]
            } else {
                e.containment[1]
            }
        });
        found
            .entry(submission)
            .or_default()
            .push((share, rank, source));
    }
    out.push_str(
        "<h2>Submissions and the sources they reuse</h2><p>The most reused first (by the largest \
         share of the submission found in one source).</p><table><thead><tr><th>submission</th>\
         <th>sources (share of the submission found in each)</th></tr></thead>",
    );
    let best = |submission: DocId| {
        found.get(&submission).map(|list| {
            list.iter()
                .map(|&(share, _, _)| share.unwrap_or(-1.0))
                .fold(-1.0f64, f64::max)
        })
    };
    let mut submissions: Vec<DocId> = (0..report.names.len())
        .filter(|&d| !report.is_source(d))
        .collect();
    // Most reused first; pairs without evidence after those with, submissions without a
    // source last, each in stream order.
    submissions.sort_by(|&x, &y| {
        best(y)
            .unwrap_or(-2.0)
            .total_cmp(&best(x).unwrap_or(-2.0))
            .then(x.cmp(&y))
    });
    for submission in submissions {
        let _ = write!(out, "<tr><td>{}</td><td>", escape(report.name(submission)));
        match found.get_mut(&submission) {
            // Not "no source found": the detector reports a pair from its cut up, and the
            // Sources view (`simdoc sources`) lists every source with any match, so a reworded
            // answer can show a small share there and none here.
            None => out.push_str(NO_SOURCE_REPORTED),
            Some(list) => {
                list.sort_by(|x, y| {
                    y.0.unwrap_or(-1.0)
                        .total_cmp(&x.0.unwrap_or(-1.0))
                        .then(x.1.cmp(&y.1))
                });
                let items: Vec<String> = list
                    .iter()
                    .map(|&(share, rank, source)| {
                        let share = share.map_or("evidence not computed".to_string(), percent);
                        format!(
                            r##"<a href="#pair-{rank}">{}</a> ({share})"##,
                            escape(report.name(source))
                        )
                    })
                    .collect();
                out.push_str(&items.join("<br>"));
            }
        }
        out.push_str("</td></tr>");
    }
    out.push_str("</table>");
}

fn pairs_table(out: &mut String, report: &CollectionReport<'_>, options: &HtmlOptions<'_>) {
    let _ = write!(
        out,
        "<h2>Pairs, ranked by score</h2><p>Read \"a relation b\"{}. <i>a in b</i>: the share of \
         a's text found in b. Passages: sentences of a and of b (counted from 0, as the pair's comparison numbers them), consecutive matches \
         taken together.{}</p><table><thead><tr><th>#</th>{}<th>a</th><th>relation</th><th>b</th>\
         <th>score</th><th>a in b</th><th>b in a</th>{}<th>passages</th><th>report</th></tr></thead>",
        if report.has_roles() {
            "; with sources, the source is the container"
        } else {
            ""
        },
        match (report.has_roles(), report.discount_ranked) {
            (true, true) => {
                " <i>Without the sources</i>: for two submissions, a in b and b in a with the \
                 matches of text found in a marked source left out (as JPlag does with base \
                 code), and how many matched sentences of a and b that leaves out. Two \
                 submissions are ranked by the larger of these shares, then by score: the \
                 text they share beyond the sources first; the score is the raw one."
            }
            (true, false) => {
                " <i>Without the sources</i>: for two submissions, a in b and b in a with the \
                 matches of text found in a marked source left out (as JPlag does with base \
                 code), and how many matched sentences of a and b that leaves out."
            }
            _ => "",
        },
        if report.has_roles() {
            "<th>kind</th>"
        } else {
            ""
        },
        if report.has_roles() {
            "<th>without the sources</th>"
        } else {
            ""
        }
    );
    for (rank, (kind, pair)) in report.ranked().enumerate().take(MAX_PAIR_ROWS) {
        let kind = kind.map_or(String::new(), |k| {
            let label = match k {
                PairKind::SubmissionSource => "submission-source",
                PairKind::SubmissionSubmission => "submission-submission",
            };
            format!("<td>{label}</td>")
        });
        let discount = if report.has_roles() {
            match report.discount_at(rank) {
                Some(d) => format!(
                    "<td>{} / {} ({} and {} sentences left out)</td>",
                    percent(d.containment[0]),
                    percent(d.containment[1]),
                    d.found_in_sources[0],
                    d.found_in_sources[1]
                ),
                None => "<td></td>".to_string(),
            }
        } else {
            String::new()
        };
        let evidence = report.evidence_at(rank).map_or(
            format!(
                r#"<td class="none" colspan="{}">not computed</td>"#,
                if report.has_roles() { 4 } else { 3 }
            ),
            |e| {
                format!(
                    r#"<td class="n">{}</td><td class="n">{}</td>{discount}<td>{}</td>"#,
                    percent(e.containment[0]),
                    percent(e.containment[1]),
                    escape(&passage_spans(e))
                )
            },
        );
        let link = (options.pair_link)(rank).map_or(String::new(), |href| {
            format!(r#"<a href="{}">open</a>"#, escape(&href))
        });
        let _ = write!(
            out,
            r#"<tr id="pair-{rank}"><td class="n">{}</td>{kind}<td>{}</td><td>{}</td><td>{}</td><td class="n">{:.3}</td>{evidence}<td>{link}</td></tr>"#,
            rank + 1,
            escape(report.name(pair.a)),
            pair.relation.name(),
            escape(report.name(pair.b)),
            pair.score,
        );
    }
    out.push_str("</table>");
    if report.pair_count() > MAX_PAIR_ROWS {
        let _ = write!(
            out,
            "<p>{} more pairs are in the JSON and CSV.</p>",
            report.pair_count() - MAX_PAIR_ROWS
        );
    }
}

/// The containment matrix: rows are the contained (submissions), columns the containers
/// (sources, or every document without roles); a cell is the share of the row's text found in
/// the column's document, for the pairs with evidence.
fn matrix(out: &mut String, report: &CollectionReport<'_>) {
    let all: Vec<DocId> = (0..report.names.len()).collect();
    let (rows, columns): (Vec<DocId>, Vec<DocId>) = if report.has_roles() {
        (
            all.iter()
                .copied()
                .filter(|&d| !report.is_source(d))
                .collect(),
            report.sources.clone(),
        )
    } else {
        (all.clone(), all)
    };
    out.push_str("<h2>Matrix</h2>");
    let most_rows = if report.has_roles() {
        MAX_CLASS_ROWS
    } else {
        MAX_MATRIX_SIDE
    };
    if rows.len() > most_rows || columns.len() > MAX_MATRIX_SIDE {
        let _ = write!(
            out,
            "<p class=\"none\">Not drawn: {} rows by {} columns (a grid is drawn up to \
             {most_rows} rows and {MAX_MATRIX_SIDE} columns); the pairs above hold the same \
             figures.</p>",
            rows.len(),
            columns.len()
        );
        return;
    }
    let mut share: BTreeMap<(DocId, DocId), f64> = BTreeMap::new();
    for (rank, (_, pair)) in report.ranked().enumerate() {
        if let Some(e) = report.evidence_at(rank) {
            share.insert((pair.a, pair.b), e.containment[0]);
            share.insert((pair.b, pair.a), e.containment[1]);
        }
    }
    out.push_str(
        "<p>Each cell: the share of the row's text found in the column's document (pairs \
         reported by the detector, with evidence). Scale: <span class=\"scale\">",
    );
    for step in 0..=4 {
        let value = f64::from(step) / 4.0;
        let _ = write!(
            out,
            r#"<span style="background:{}">{}</span>"#,
            shade(value),
            percent(value)
        );
    }
    out.push_str("</span></p><table><thead><tr><th></th>");
    for &column in &columns {
        let _ = write!(
            out,
            r#"<th class="v" title="{0}">{0}</th>"#,
            escape(report.name(column))
        );
    }
    out.push_str("</tr></thead>");
    for &row in &rows {
        let _ = write!(
            out,
            r#"<tr><th class="r">{}</th>"#,
            escape(report.name(row))
        );
        for &column in &columns {
            if row == column {
                out.push_str(r#"<td class="c" style="background:#eee"></td>"#);
                continue;
            }
            match share.get(&(row, column)) {
                Some(&value) => {
                    let _ = write!(
                        out,
                        r#"<td class="c" style="background:{};color:{}" title="{} in {}: {}">{:.0}</td>"#,
                        shade(value),
                        if value > 0.6 { "#fff" } else { "#222" },
                        escape(report.name(row)),
                        escape(report.name(column)),
                        percent(value),
                        value * 100.0
                    );
                }
                None => out.push_str(r#"<td class="c"></td>"#),
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
}

fn groups(out: &mut String, report: &CollectionReport<'_>) {
    if report.has_roles() {
        out.push_str("<h2>Identical and near-identical documents</h2>");
        if report.detection.groups.is_empty() {
            out.push_str("<p class=\"none\">None.</p>");
            return;
        }
        out.push_str("<ol>");
        for index in 0..report.detection.groups.len() {
            let words = report.group_words(index, |d| escape(report.name(d)));
            let _ = write!(out, "<li>{words}</li>");
        }
        out.push_str("</ol>");
        return;
    }
    out.push_str("<h2>Duplicate groups</h2>");
    if report.detection.groups.is_empty() {
        out.push_str("<p class=\"none\">None.</p>");
        return;
    }
    out.push_str(
        "<p>The first of each group is the one to keep: the longest (ties to the earliest).</p><ol>",
    );
    for group in &report.detection.groups {
        let members: Vec<String> = group
            .iter()
            .enumerate()
            .map(|(i, &d)| {
                if i == 0 {
                    format!(
                        r#"<span class="keep">{} (keep)</span>"#,
                        escape(report.name(d))
                    )
                } else {
                    escape(report.name(d))
                }
            })
            .collect();
        let _ = write!(out, "<li>{}</li>", members.join(", "));
    }
    out.push_str("</ol>");
}

#[cfg(test)]
mod tests;

/// What the submissions table says of a submission with no reported source pair.
const NO_SOURCE_REPORTED: &str = r#"<span class="none" title="No pair of this submission with a source reached the detector's cut; simdoc sources (or the viewer's Sources view) lists every source with any match, however small">no source reported (below the cut)</span>"#;
