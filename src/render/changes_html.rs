//! The HTML report's change list ([`crate::compare::changes`]): one row per change, its kind,
//! where it lies in both documents and its text in each, the reworded sentences with the words
//! that differ marked as the matched pairs' table marks them ([`super::words`]).

use std::fmt::Write;

use super::dotplot::escape;
use super::report::{Report, pair_range};
use crate::compare::changes::{Change, ChangeKind};
use crate::similarity::JoinSide;

/// Most changes listed (the first in A's reading order, when there are more).
pub const MAX_CHANGE_ROWS: usize = 1_000;
/// Most sentences of each side shown for one change.
const SHOWN_SENTENCES: u32 = 6;

/// The colours of a diff, as the viewer's Changes view uses them: green added, red deleted,
/// amber changed, violet moved.
pub const CSS: &str = ".ch{font-weight:600;border-radius:3px;padding:0 .3em;color:#fff}\
.ch-added{background:#2e9e4f}.ch-deleted{background:#c0392b}.ch-changed{background:#d68a00}\
.ch-moved{background:#8e44ad}.changes td.text{text-align:left;min-width:20em}\
.t-added{background:#2e9e4f22}.t-deleted{background:#c0392b22;text-decoration:line-through}";

/// The section: the counts, then the table.
pub fn changes_html(out: &mut String, report: &Report<'_>, linked: bool) {
    let changes = &report.changes;
    let counts = ChangeKind::ALL
        .map(|kind| {
            format!(
                r#"<span class="ch ch-{0}">{1}</span> {0}"#,
                kind.name(),
                changes.count(kind)
            )
        })
        .join(" · ");
    let _ = write!(
        out,
        "<h2 id=\"changes\">Changes</h2><p>What changed from A to B, in A's reading order: {counts}. Added and \
         deleted: sentences in one version only; changed: reworded in place; moved: found out \
         of order, its reworded sentences marked. The words that differ are marked as in the \
         matched pairs below.</p>"
    );
    if changes.list.is_empty() {
        out.push_str("<p>No changes.</p>");
        return;
    }
    if !report.words.is_empty() {
        out.push_str(super::words::LEGEND_HTML);
    }
    out.push_str(
        "<table class=\"changes\"><thead><tr><th>change</th><th>A</th><th>B</th>\
         <th>A text</th><th>B text</th></tr></thead>",
    );
    for change in changes.list.iter().take(MAX_CHANGE_ROWS) {
        let place = |side: &str, range: Option<[u32; 2]>| match range {
            Some([first, last]) => {
                let first_link = super::html::sentence_link(side, first, linked);
                if first == last {
                    first_link
                } else {
                    format!("{first_link}–{last}")
                }
            }
            None => String::new(),
        };
        let _ = write!(
            out,
            r#"<tr><td><span class="ch ch-{0}">{0}</span></td><td>{1}</td><td>{2}</td>"#,
            change.kind.name(),
            place("a", change.a),
            place("b", change.b)
        );
        for side in [JoinSide::Left, JoinSide::Right] {
            out.push_str(r#"<td class="text">"#);
            side_text(out, report, change, side);
            out.push_str("</td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
    if changes.list.len() > MAX_CHANGE_ROWS {
        let _ = write!(
            out,
            "<p class=\"note\">The first {MAX_CHANGE_ROWS} of {} changes in A's reading order; \
             `simdoc compare --changes FILE` lists them all.</p>",
            changes.list.len()
        );
    }
}

/// One side's text of a change: its sentences (the first few), each reworded one with its words
/// marked when the report has them aligned.
fn side_text(out: &mut String, report: &Report<'_>, change: &Change, side: JoinSide) {
    let index = usize::from(side == JoinSide::Right);
    let Some([first, last]) = (if index == 0 { change.a } else { change.b }) else {
        return;
    };
    let doc = report.sides[index].doc;
    let class = match change.kind {
        ChangeKind::Added => " class=\"t-added\"",
        ChangeKind::Deleted => " class=\"t-deleted\"",
        ChangeKind::Changed | ChangeKind::Moved => "",
    };
    let shown_last = last.min(first.saturating_add(SHOWN_SENTENCES - 1));
    let _ = write!(out, "<span{class}>");
    for position in first..=shown_last {
        let Some(sentence) = doc.sentences.get(position as usize) else {
            continue;
        };
        if position > first {
            out.push(' ');
        }
        // The reworded pair this sentence is in, and which of its sentences it is.
        let reworded = change.pairs.iter().find_map(|&m| {
            let [from, to] = pair_range(report.matches.get(m)?, side);
            (from..=to)
                .contains(&position)
                .then(|| (m, (position - from) as u8))
        });
        let words = reworded.and_then(|(m, part)| {
            let alignment = report.words.get(m)?.as_ref()?;
            let words = if index == 0 {
                &alignment.a
            } else {
                &alignment.b
            };
            Some((words, part))
        });
        match words {
            Some((words, part)) => super::words::sentence_html(out, &sentence.text, words, part),
            None => out.push_str(&escape(&sentence.text)),
        }
    }
    out.push_str("</span>");
    if shown_last < last {
        let _ = write!(out, " … ({} more sentences)", last - shown_last);
    }
}
