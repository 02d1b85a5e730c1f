//! Reports of one document against its sources ([`crate::sources::Attribution`]): JSON, CSV and
//! a self-contained HTML page (the document with each sentence coloured by its source, the
//! sources ranked by containment, each source's matched sentences). The viewer exports through
//! the same functions.

use std::fmt::Write as _;
use std::io::Write;

use serde::Serialize;

use super::dotplot::escape;
use crate::document::Document;
use crate::similarity::Thresholds;
use crate::sources::Attribution;

/// The document and its sources as they are named in reports.
#[derive(Clone, Copy)]
pub struct SourcesReport<'a> {
    pub document_path: &'a str,
    pub document: &'a Document,
    /// Per source: its name (path) and document.
    pub source_paths: &'a [String],
    pub sources: &'a [Document],
    pub attribution: &'a Attribution,
    pub thresholds: Thresholds,
}

/// Version of the `sources --json` shape; raised when a field changes meaning or disappears.
pub const SOURCES_JSON_VERSION: u32 = 1;

/// The JSON shape: `{"version": 1, "units": {...}, "document": PATH, "sources": [{"path": PATH, "containment": x,
/// "sentences": [...]}, ...]}`, sources ranked by containment, descending.
#[derive(Serialize)]
pub struct SourcesJson<'a> {
    /// [`SOURCES_JSON_VERSION`].
    pub version: u32,
    /// What sentence positions count ([`super::units`]).
    pub units: super::units::Units,
    pub document: &'a str,
    pub permission: f64,
    /// Counted sentences of the document.
    pub sentences: usize,
    /// The document in all sources together (each sentence's best Sim into any source).
    pub containment: f64,
    /// Share of counted sentences attributed to some source.
    pub attributed: f64,
    pub sources: Vec<SourceJson<'a>>,
    /// Per sentence of the document, in order.
    pub attribution: Vec<SentenceJson<'a>>,
    /// The sentences that list only their best partners in a source;
    /// absent when none do.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partners_capped: Option<&'a crate::sources::SourcePartnersCapped>,
}

#[derive(Serialize)]
pub struct SourceJson<'a> {
    pub path: &'a str,
    /// The document in this source ([`crate::compare::Comparison::containment`] of the pair).
    pub containment: f64,
    /// This source in the document.
    pub used: f64,
    /// Document sentences matched in the source (both Sims at the permission).
    pub matched: usize,
    pub sentences: Vec<MatchJson<'a>>,
}

#[derive(Serialize)]
pub struct MatchJson<'a> {
    pub sentence: u32,
    pub source_sentence: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joined_with: Option<u32>,
    pub sim: f64,
    /// This source is the sentence's best over all sources.
    pub best: bool,
    pub text: &'a str,
    pub source_text: String,
}

#[derive(Serialize)]
pub struct SentenceJson<'a> {
    pub sentence: usize,
    pub text: &'a str,
    pub counted: bool,
    /// The source's path, when the sentence is attributed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_sentence: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sim: Option<f64>,
}

fn sentence_text(doc: &Document, position: u32) -> &str {
    doc.sentences
        .get(position as usize)
        .map_or("", |s| s.text.as_str())
}

/// A source sentence's text, with its joined neighbour for a one-to-two match.
fn source_text(doc: &Document, position: u32, joined_with: Option<u32>) -> String {
    match joined_with {
        Some(with) => {
            let (first, second) = (position.min(with), position.max(with));
            format!(
                "{} {}",
                sentence_text(doc, first),
                sentence_text(doc, second)
            )
        }
        None => sentence_text(doc, position).to_string(),
    }
}

impl<'a> SourcesReport<'a> {
    fn path_of(&self, source: usize) -> &'a str {
        self.source_paths.get(source).map_or("", String::as_str)
    }

    fn is_best(&self, source: usize, sentence: u32) -> bool {
        self.attribution
            .sentences
            .get(sentence as usize)
            .copied()
            .flatten()
            .is_some_and(|s| s.source == source)
    }

    pub fn to_json(&self) -> SourcesJson<'a> {
        let a = self.attribution;
        let sources = a
            .sources
            .iter()
            .map(|share| {
                let source = &self.sources[share.source];
                SourceJson {
                    path: self.path_of(share.source),
                    containment: share.containment,
                    used: share.used,
                    matched: share.matched,
                    sentences: share
                        .sentences
                        .iter()
                        .map(|m| MatchJson {
                            sentence: m.sentence,
                            source_sentence: m.source_sentence,
                            joined_with: m.joined_with,
                            sim: m.sim,
                            best: self.is_best(share.source, m.sentence),
                            text: sentence_text(self.document, m.sentence),
                            source_text: source_text(source, m.source_sentence, m.joined_with),
                        })
                        .collect(),
                }
            })
            .collect();
        let attribution = self
            .document
            .sentences
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let found = a.sentences.get(i).copied().flatten();
                SentenceJson {
                    sentence: i,
                    text: &s.text,
                    counted: a.counted.get(i).copied().unwrap_or(false),
                    source: found.map(|f| self.path_of(f.source)),
                    source_sentence: found.map(|f| f.source_sentence),
                    sim: found.map(|f| f.sim),
                }
            })
            .collect();
        SourcesJson {
            version: SOURCES_JSON_VERSION,
            units: super::units::Units::default(),
            document: self.document_path,
            permission: self.thresholds.permission,
            sentences: a.counted_sentences(),
            containment: a.containment(),
            attributed: a.attributed_share(),
            sources,
            attribution,
            partners_capped: (!a.partners_capped.is_empty()).then_some(&a.partners_capped),
        }
    }

    /// One row per (source, document sentence) match, sources ranked as in the JSON:
    /// `source,containment,sentence,source_sentence,sim,best,text,source_text`.
    pub fn write_csv(&self, out: impl Write) -> Result<(), csv::Error> {
        let mut w = crate::escape::CsvWriter::new(out);
        w.write_record([
            "source",
            "containment",
            "sentence",
            "source_sentence",
            "sim",
            "best",
            "text",
            "source_text",
        ])?;
        for share in &self.attribution.sources {
            let source = &self.sources[share.source];
            for m in &share.sentences {
                w.write_record([
                    self.path_of(share.source),
                    &share.containment.to_string(),
                    &m.sentence.to_string(),
                    &m.source_sentence.to_string(),
                    &m.sim.to_string(),
                    &self.is_best(share.source, m.sentence).to_string(),
                    sentence_text(self.document, m.sentence),
                    &source_text(source, m.source_sentence, m.joined_with),
                ])?;
            }
        }
        w.flush()?;
        Ok(())
    }

    /// A short summary for the terminal: the figures and up to `show` sources.
    pub fn summary(&self, show: usize) -> String {
        let a = self.attribution;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}: {} counted {}; {:.1}% attributed to {} of {} {}; found in them: {:.3}",
            crate::escape::terminal(self.document_path),
            a.counted_sentences(),
            if a.counted_sentences() == 1 {
                "sentence"
            } else {
                "sentences"
            },
            100.0 * a.attributed_share(),
            a.sources.len(),
            self.sources.len(),
            if self.sources.len() == 1 {
                "source"
            } else {
                "sources"
            },
            a.containment()
        );
        let _ = writeln!(
            out,
            "\nsources (containment of the document in the source, used = the source in the document):"
        );
        for (rank, share) in a.sources.iter().take(show).enumerate() {
            let _ = writeln!(
                out,
                "{:>4}. {:>6.3}  used {:>6.3}  {:>4} {:<9}  {}",
                rank + 1,
                share.containment,
                share.used,
                share.sentences.len(),
                if share.sentences.len() == 1 {
                    "sentence"
                } else {
                    "sentences"
                },
                crate::escape::terminal(self.path_of(share.source))
            );
        }
        if a.sources.len() > show {
            let _ = writeln!(
                out,
                "... {} more (see --json / --csv)",
                a.sources.len() - show
            );
        }
        if let Some(note) = a.partners_capped.describe() {
            let _ = writeln!(out, "\n{note}");
        }
        out
    }
}

/// Distinct colours for the first sources (by rank); the rest share grey.
const PALETTE: [&str; 10] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#bcbd22", "#7f7f7f",
];
const OTHER: &str = "#aaaaaa";

/// A source's colour by its rank.
pub fn colour_of_rank(rank: usize) -> &'static str {
    PALETTE.get(rank).copied().unwrap_or(OTHER)
}

/// The self-contained HTML page (no scripts, no external resources).
pub fn sources_html(report: &SourcesReport<'_>) -> String {
    let a = report.attribution;
    let rank_of = a.ranks();
    let mut out = String::with_capacity(64 * 1024);
    let _ = write!(
        out,
        r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>simdoc: {} and its sources</title><style>
body{{font-family:system-ui,sans-serif;margin:1.5em;color:#222}}
table{{border-collapse:collapse}} td,th{{border:1px solid #ccc;padding:.2em .6em;text-align:left;vertical-align:top}}
td.n{{text-align:right}}
.swatch{{display:inline-block;width:.9em;height:.9em;border-radius:2px;vertical-align:middle}}
.doc{{line-height:1.6;max-width:60em}}
a.s{{color:inherit;text-decoration:none;border-radius:3px;padding:0 1px}}
:target{{outline:2px solid #f39c12}}
</style></head><body>"#,
        escape(report.document_path)
    );
    let _ = write!(
        out,
        "<h1>{}</h1><p>Against {} sources; permission {}. <strong>{:.1}% of the {} counted \
         sentences are attributed to {} sources; the document is found in them at {:.3}.</strong></p>",
        escape(report.document_path),
        report.sources.len(),
        report.thresholds.permission,
        100.0 * a.attributed_share(),
        a.counted_sentences(),
        a.sources.len(),
        a.containment()
    );
    if let Some(note) = a.partners_capped.describe() {
        let _ = write!(out, "<p><em>{}.</em></p>", escape(&note));
    }
    out.push_str(
        "<h2>Sources</h2><table><tr><th>#</th><th></th><th>source</th><th>containment \
         (document in source)</th><th>used (source in document)</th><th>matched sentences</th></tr>",
    );
    for (rank, share) in a.sources.iter().enumerate() {
        let _ = write!(
            out,
            r##"<tr><td class="n">{}</td><td><span class="swatch" style="background:{}"></span></td><td><a href="#src-{rank}">{}</a></td><td class="n">{:.3}</td><td class="n">{:.3}</td><td class="n">{}</td></tr>"##,
            rank + 1,
            colour_of_rank(rank),
            escape(report.path_of(share.source)),
            share.containment,
            share.used,
            share.matched,
        );
    }
    out.push_str("</table><h2>The document</h2><div class=\"doc\">");
    let mut node = usize::MAX;
    for (i, s) in report.document.sentences.iter().enumerate() {
        if s.node != node {
            if node != usize::MAX {
                out.push_str("</p>");
            }
            out.push_str("<p>");
            node = s.node;
        }
        match a.sentences.get(i).copied().flatten() {
            Some(found) => {
                let rank = rank_of.get(&found.source).copied().unwrap_or(usize::MAX);
                let _ = write!(
                    out,
                    r##"<a class="s" id="d-{i}" href="#src-{rank}-{i}" style="background:{}44" title="{} (sentence {}, Sim {:.3})">{}</a> "##,
                    colour_of_rank(rank),
                    escape(report.path_of(found.source)),
                    found.source_sentence,
                    found.sim,
                    escape(&s.text)
                );
            }
            None => {
                let _ = write!(out, r#"<span id="d-{i}">{}</span> "#, escape(&s.text));
            }
        }
    }
    if node != usize::MAX {
        out.push_str("</p>");
    }
    out.push_str("</div><h2>Matched sentences by source</h2>");
    for (rank, share) in a.sources.iter().enumerate() {
        let source = &report.sources[share.source];
        let _ = write!(
            out,
            r#"<h3 id="src-{rank}"><span class="swatch" style="background:{}"></span> {}. {} ({:.3})</h3><table><tr><th>document sentence</th><th>source sentence</th><th>Sim</th></tr>"#,
            colour_of_rank(rank),
            rank + 1,
            escape(report.path_of(share.source)),
            share.containment
        );
        for m in &share.sentences {
            let best = if report.is_best(share.source, m.sentence) {
                ""
            } else {
                " (a better source exists)"
            };
            let _ = write!(
                out,
                r##"<tr id="src-{rank}-{s}"><td><a href="#d-{s}">{s}</a>. {}</td><td>{}. {}</td><td class="n">{:.3}{best}</td></tr>"##,
                escape(sentence_text(report.document, m.sentence)),
                m.source_sentence,
                escape(&source_text(source, m.source_sentence, m.joined_with)),
                m.sim,
                s = m.sentence,
            );
        }
        out.push_str("</table>");
    }
    out.push_str("</body></html>\n");
    out
}
