//! A self-contained HTML report: the figures, the dotplot (inline SVG), both documents with their
//! matched sentences highlighted (each linked to its partners), and the table of matched pairs.
//! No scripts, no external resources: it opens anywhere and can be archived as is.

use std::fmt::Write;

use super::dotplot::{Tier, escape};
use super::report::Report;
use crate::document::Document;

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
.matches td{{font-size:.9em}}
</style></head><body>"#,
        escape(&a.doc.title),
        escape(&b.doc.title),
        hex(Tier::Identical),
        hex(Tier::Similar)
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
            "; permission {}, variation {}",
            report.thresholds.permission, report.thresholds.variation
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
    out.push_str(r#"<h2>Documents</h2><div class="docs"><div class="doc">"#);
    let _ = write!(out, "<h3>A: {}</h3>", escape(&a.doc.title));
    document_html(&mut out, report, 0, a.doc);
    out.push_str(r#"</div><div class="doc">"#);
    let _ = write!(out, "<h3>B: {}</h3>", escape(&b.doc.title));
    document_html(&mut out, report, 1, b.doc);
    out.push_str("</div></div>");
    out.push_str(r#"<h2>Matched pairs</h2><table class="matches"><tr><th>A</th><th>B</th><th>Sim(A,B)</th><th>Sim(B,A)</th><th>tier</th><th>A sentence</th></tr>"#);
    for p in &report.matches {
        let text = a
            .doc
            .sentences
            .get(p.left as usize)
            .map_or("", |s| s.text.as_str());
        let _ = write!(
            out,
            r##"<tr><td><a href="#a-{l}">{l}</a></td><td><a href="#b-{r}">{r}</a></td><td>{:.3}</td><td>{:.3}</td><td>{}</td><td style="text-align:left">{}</td></tr>"##,
            p.sim_lr,
            p.sim_rl,
            tier_of(p.identical).name(),
            escape(text),
            l = p.left,
            r = p.right,
        );
    }
    out.push_str("</table></body></html>\n");
    out
}
