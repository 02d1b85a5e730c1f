//! A self-contained HTML report: the figures, the dotplot (inline SVG), both documents with their
//! matched sentences highlighted (each linked to its partners), the change list
//! ([`super::changes_html`]), the passages and the table of matched pairs.
//! No scripts, no external resources: it opens anywhere and can be archived as is, and it prints
//! (a print stylesheet puts the documents one under the other and keeps table rows whole).
//!
//! Long documents are summarised, so that the page still opens in a browser in seconds (a 5 MB
//! text against a revised copy made a 117 MB page that headless Chromium had not drawn after
//! 180 s): beyond [`MAX_DOCUMENT_SENTENCES`] sentences the documents are not shown whole but
//! through the text of their largest passages, and the passage and match tables stop at
//! [`MAX_PASSAGE_ROWS`] and [`MAX_MATCH_ROWS`] rows, saying how many more the JSON and CSV hold.

use std::fmt::Write;

use super::dotplot::{Tier, escape};
use super::report::Report;
use crate::compare::{MOST_CAPPED_NOTES, capped_notes};
use crate::document::Document;

/// Documents up to this many sentences each are shown whole.
pub const MAX_DOCUMENT_SENTENCES: usize = 5_000;
/// Most passages listed (the largest by words, when there are more).
pub const MAX_PASSAGE_ROWS: usize = 1_000;
/// Most matched pairs listed (the first in A's reading order, when there are more).
pub const MAX_MATCH_ROWS: usize = 2_000;
/// Passages whose text is shown when the documents are not shown whole, and how many
/// sentences of each side of one.
const SHOWN_PASSAGES: usize = 100;
const SHOWN_PASSAGE_SENTENCES: usize = 6;

/// For print: the documents one under the other, no link colours, rows and headings kept
/// with what follows them.
pub const PRINT_CSS: &str = "@media print{body{margin:0;font-size:10pt}\
.docs{display:block}.doc{margin-bottom:1em}a{color:inherit;text-decoration:none}\
tr,.block{break-inside:avoid}h1,h2,h3{break-after:avoid}svg{max-width:100%;height:auto}\
thead{display:table-header-group}}";

/// Whether the page shows both documents whole (and so has an anchor for each sentence).
fn shows_documents(report: &Report<'_>) -> bool {
    let [a, b] = report.sides;
    a.doc.sentences.len().max(b.doc.sentences.len()) <= MAX_DOCUMENT_SENTENCES
}

/// A sentence position, linked to the sentence when the page shows the documents.
pub(super) fn sentence_link(side: &str, position: u32, linked: bool) -> String {
    if linked {
        format!(r##"<a href="#{side}-{position}">{position}</a>"##)
    } else {
        position.to_string()
    }
}

fn tier_of(identical: bool) -> Tier {
    if identical {
        Tier::Identical
    } else {
        Tier::Similar
    }
}

fn hex(tier: Tier) -> String {
    let [r, g, b] = tier.rgb();
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Writes one document's blocks with matched sentences highlighted and linked.
fn document_html(out: &mut String, report: &Report<'_>, side: usize, doc: &Document) {
    let prefix = ["a", "b"][side];
    let other = ["b", "a"][side];
    // Partners of each sentence under the report's thresholds.
    let mut partners: Vec<Vec<(u32, bool)>> = vec![Vec::new(); doc.sentences.len()];
    for p in &report.matches {
        let (mine, theirs) = if side == 0 {
            (p.left, p.right)
        } else {
            (p.right, p.left)
        };
        if let Some(list) = partners.get_mut(mine as usize) {
            list.push((theirs, p.identical));
        }
    }
    for (id, node) in doc.nodes.iter().enumerate() {
        if node.own_sentences.is_empty() {
            continue;
        }
        let depth = doc.depth(id).min(6);
        let class = if node.boilerplate {
            "block boilerplate"
        } else {
            "block"
        };
        let tag = if node.kind == crate::document::NodeKind::Section {
            "h3"
        } else {
            "p"
        };
        let _ = write!(
            out,
            r#"<{tag} class="{class} {}" style="margin-left:{}em">"#,
            node.kind.name(),
            depth
        );
        for position in node.own_sentences.clone() {
            let sentence = &doc.sentences[position];
            let list = &partners[position];
            if list.is_empty() {
                let _ = write!(
                    out,
                    r#"<span id="{prefix}-{position}">{}</span> "#,
                    escape(&sentence.text)
                );
            } else {
                let identical = list.iter().any(|&(_, same)| same);
                let title: Vec<String> = list
                    .iter()
                    .map(|(p, _)| format!("{} {p}", other.to_uppercase()))
                    .collect();
                let _ = write!(
                    out,
                    r##"<a id="{prefix}-{position}" class="match {}" href="#{other}-{}" title="matches {}">{}</a> "##,
                    tier_of(identical).name(),
                    list[0].0,
                    title.join(", "),
                    escape(&sentence.text)
                );
            }
        }
        let _ = write!(out, "</{tag}>");
    }
}

/// The whole report page.
pub fn report_html(report: &Report<'_>) -> String {
    let f = &report.figures;
    let [a, b] = report.sides;
    let mut out = String::with_capacity(64 * 1024);
    let _ = write!(
        out,
        r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>simdoc: {} vs {}</title><style>
body{{font-family:system-ui,sans-serif;margin:1.5em;color:#222}}
table{{border-collapse:collapse}} td,th{{border:1px solid #ccc;padding:.2em .6em;text-align:right}}
th:first-child,td:first-child{{text-align:left}}
.docs{{display:flex;gap:2em}} .doc{{flex:1;min-width:0}}
.block{{line-height:1.5}} .boilerplate{{color:#888}}
a.match{{color:inherit;text-decoration:none;border-radius:3px;padding:0 1px}}
a.identical{{background:{}33}} a.similar{{background:{}33}}
a.match:target,span:target{{outline:2px solid #f39c12}}
.matches td{{font-size:.9em}} .matches td.text{{text-align:left;min-width:20em}}
.legend{{font-size:.9em;color:#444}} .note{{color:#555}} {} {} {PRINT_CSS}
</style></head><body>"#,
        escape(&a.doc.title),
        escape(&b.doc.title),
        hex(Tier::Identical),
        hex(Tier::Similar),
        super::words::CSS,
        super::changes_html::CSS
    );
    let _ = write!(
        out,
        "<h1>simdoc report</h1><p>A: <b>{}</b> ({})<br>B: <b>{}</b> ({})<br>Method: {}",
        escape(&a.doc.title),
        escape(a.path),
        escape(&b.doc.title),
        escape(b.path),
        report.comparison.method.title()
    );
    if report.comparison.method.is_graded() {
        let _ = write!(
            out,
            "; {}",
            super::report::thresholds_in_words(&report.thresholds)
        );
    }
    out.push_str("</p>");
    let _ = write!(
        out,
        "<p><strong>{}</strong></p>",
        escape(&super::report::containment_in_words(f))
    );
    let _ = write!(
        out,
        "<table><tr><th></th><th>A</th><th>B</th></tr>\
         <tr><td>Sentences compared</td><td>{}</td><td>{}</td></tr>\
         <tr><td>Containment (in the other)</td><td>{:.3}</td><td>{:.3}</td></tr>\
         <tr><td>Matched sentences</td><td>{}</td><td>{}</td></tr>\
         <tr><td>Overlap (eq. 3.5)</td><td>{:.3}</td><td>{:.3}</td></tr>\
         <tr><td>Resemblance (eq. 4.1)</td><td>{:.3}</td><td>{:.3}</td></tr>\
         <tr><td>Odds ratio (eq. 4.3)</td><td colspan=2>{:.3}</td></tr>\
         <tr><td>Matched pairs / common sentences</td><td colspan=2>{} / {}</td></tr></table>",
        f.sentences[0],
        f.sentences[1],
        f.containment[0],
        f.containment[1],
        f.matched[0],
        f.matched[1],
        f.overlap[0],
        f.overlap[1],
        f.resemblance[0],
        f.resemblance[1],
        f.odds_ratio,
        f.pairs,
        f.common
    );
    out.push_str("<h2>Dotplot</h2>");
    out.push_str(&report.dotplot_svg(720, 720));
    if shows_documents(report) {
        out.push_str(r#"<h2>Documents</h2><div class="docs"><div class="doc">"#);
        let _ = write!(out, "<h3>A: {}</h3>", escape(&a.doc.title));
        document_html(&mut out, report, 0, a.doc);
        out.push_str(r#"</div><div class="doc">"#);
        let _ = write!(out, "<h3>B: {}</h3>", escape(&b.doc.title));
        document_html(&mut out, report, 1, b.doc);
        out.push_str("</div></div>");
    } else {
        passage_texts_html(&mut out, report);
    }
    super::changes_html::changes_html(&mut out, report, shows_documents(report));
    passages_html(&mut out, report);
    matches_html(&mut out, report);
    out.push_str("</body></html>\n");
    out
}

/// The passage table: where each run of matches lies in both documents.
fn passages_html(out: &mut String, report: &Report<'_>) {
    let linked = shows_documents(report);
    let _ = write!(
        out,
        "<h2>Passages</h2><p>Runs of matched sentences in the same order in both documents \
         (at most {} unmatched sentences between two matches, at least {} matched pairs).</p>",
        report.passage_options.gap, report.passage_options.min_pairs
    );
    if report.passages.is_empty() {
        out.push_str("<p>No passages.</p>");
        return;
    }
    let judged = report.comparison.link_surprises.is_some();
    if judged {
        out.push_str(
            "<p>Each passage's E-value is the expected number of passages at least as good by \
             chance in this comparison (both documents' sizes and how common their shared \
             words are taken into account): far below 1 is evidence of reuse.</p>",
        );
    }
    let shown = largest_passages(report, MAX_PASSAGE_ROWS);
    if shown.len() < report.passages.len() {
        let _ = write!(
            out,
            "<p class=\"note\">The {} largest of {} passages (by words), largest first; the JSON \
             and CSV list them all.</p>",
            shown.len(),
            report.passages.len()
        );
    }
    let _ = write!(
        out,
        "<table class=\"passages\"><thead><tr><th>#</th><th>A sentences</th><th>B sentences</th>\
         <th>pairs</th><th>words</th><th>mean score</th>{}</tr></thead>",
        if judged { "<th>E-value</th>" } else { "" }
    );
    for (n, p) in shown.into_iter().map(|n| (n, &report.passages[n])) {
        let _ = write!(
            out,
            r##"<tr><td>{}</td><td>{}–{}</td><td>{}–{}</td><td>{}</td><td>{}</td><td>{:.3}</td>"##,
            n + 1,
            sentence_link("a", p.a[0], linked),
            p.a[1],
            sentence_link("b", p.b[0], linked),
            p.b[1],
            p.pairs,
            p.words,
            p.score,
        );
        if judged {
            let _ = write!(
                out,
                "<td>{}</td>",
                p.e_value.map_or(String::new(), super::e_value)
            );
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
}

/// The positions of the `most` largest passages (by words, then pairs): all of them in reading
/// order when there are no more than `most`, else the largest first.
fn largest_passages(report: &Report<'_>, most: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..report.passages.len()).collect();
    if order.len() > most {
        order.sort_by_key(|&n| {
            let p = &report.passages[n];
            (std::cmp::Reverse(p.words), std::cmp::Reverse(p.pairs), n)
        });
        order.truncate(most);
    }
    order
}

/// Instead of the whole documents, when they are too long to show: the text of the largest
/// passages, side by side, each cut to a few sentences.
fn passage_texts_html(out: &mut String, report: &Report<'_>) {
    let [a, b] = report.sides;
    let _ = write!(
        out,
        "<h2>Documents</h2><p class=\"note\">Not shown whole: A has {} sentences and B {}, over \
         the {MAX_DOCUMENT_SENTENCES} shown in full. Below, the text of the largest passages \
         ({} of {}, at most {SHOWN_PASSAGE_SENTENCES} sentences of each side); the JSON report \
         holds every sentence's offsets in the files.</p>",
        a.doc.sentences.len(),
        b.doc.sentences.len(),
        SHOWN_PASSAGES.min(report.passages.len()),
        report.passages.len()
    );
    let text = |doc: &Document, [first, last]: [u32; 2]| -> String {
        let shown_last = last.min(first.saturating_add(SHOWN_PASSAGE_SENTENCES as u32 - 1));
        let mut text: String = (first..=shown_last)
            .filter_map(|p| doc.sentences.get(p as usize))
            .map(|s| escape(&s.text) + " ")
            .collect();
        if shown_last < last {
            let _ = write!(text, "… ({} more sentences)", last - shown_last);
        }
        text
    };
    out.push_str(
        "<table class=\"matches\"><thead><tr><th>#</th><th>A</th><th>A text</th><th>B</th>\
         <th>B text</th></tr></thead>",
    );
    for n in largest_passages(report, SHOWN_PASSAGES) {
        let p = &report.passages[n];
        let _ = write!(
            out,
            r#"<tr><td>{}</td><td>{}–{}</td><td class="text">{}</td><td>{}–{}</td><td class="text">{}</td></tr>"#,
            n + 1,
            p.a[0],
            p.a[1],
            text(a.doc, p.a),
            p.b[0],
            p.b[1],
            text(b.doc, p.b),
        );
    }
    out.push_str("</table>");
}

/// The table of matched pairs with both sentences, their words marked when the report has them
/// aligned.
fn matches_html(out: &mut String, report: &Report<'_>) {
    let linked = shows_documents(report);
    let [a, b] = report.sides;
    out.push_str("<h2>Matched pairs</h2>");
    if !report.words.is_empty() {
        out.push_str(super::words::LEGEND_HTML);
    }
    out.push_str(
        r#"<table class="matches"><thead><tr><th>A</th><th>B</th><th>Sim(A,B)</th><th>Sim(B,A)</th><th>tier</th><th>passage</th><th>E-value alone</th><th>A sentence</th><th>B sentence</th></tr></thead>"#,
    );
    // The bands of repeated sentences listed only in part are said once, below the table,
    // not row by row (a million rows for 100,000 repeated sentences).
    let is_capped = report.comparison.capped_test();
    let mut listed = 0usize;
    let listable = report.matches.iter().filter(|p| !is_capped(p)).count();
    for (i, p) in report.matches.iter().enumerate() {
        if is_capped(p) {
            continue;
        }
        if listed == MAX_MATCH_ROWS {
            break;
        }
        listed += 1;
        let passage = report.passage_of.get(i).copied().flatten();
        let _ = write!(
            out,
            r##"<tr><td>{}</td><td>{}</td><td>{:.3}</td><td>{:.3}</td><td>{}</td><td>{}</td><td>{}</td>"##,
            sentence_link("a", p.left, linked),
            sentence_link("b", p.right, linked),
            p.sim_lr,
            p.sim_rl,
            tier_of(p.identical).name(),
            passage.map_or(String::new(), |n| (n + 1).to_string()),
            p.e_value.map_or(String::new(), super::e_value),
        );
        for (doc, side) in [
            (a.doc, crate::similarity::JoinSide::Left),
            (b.doc, crate::similarity::JoinSide::Right),
        ] {
            out.push_str(r#"<td class="text">"#);
            let sentences = super::report::pair_sentences(doc, p, side);
            let words = report
                .words
                .get(i)
                .and_then(Option::as_ref)
                .map(|w| match side {
                    crate::similarity::JoinSide::Left => &w.a,
                    crate::similarity::JoinSide::Right => &w.b,
                });
            for (part, sentence) in (0u8..).zip(&sentences) {
                if part > 0 {
                    out.push_str(" <b>+</b> ");
                }
                match words {
                    Some(words) => super::words::sentence_html(out, sentence, words, part),
                    None => out.push_str(&escape(sentence)),
                }
            }
            out.push_str("</td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
    if listed < listable {
        let _ = write!(
            out,
            "<p class=\"note\">The first {listed} of {listable} matched pairs in A's reading \
             order; the JSON and CSV list them all.</p>"
        );
    }
    for note in capped_notes(&report.comparison.capped, MOST_CAPPED_NOTES) {
        let _ = write!(out, "<p>Not listed pair by pair: {}.</p>", escape(&note));
    }
    if let Some(note) = report.comparison.partners_capped.describe() {
        let _ = write!(out, "<p>Listed in part: {}.</p>", escape(&note));
    }
}
