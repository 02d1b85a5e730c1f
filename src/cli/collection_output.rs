//! What `simdoc collection` writes: the summary, JSON and CSV, with pairs ranked by score and,
//! when sources were marked (`--sources`), split into submission-source and
//! submission-submission pairs ([`RoledPairs`]).

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use serde::Serialize;

use simdoc::collection::roles::{PairKind, RoledPairs};
use simdoc::collection::{DetectedPair, Detection, DocId};

/// A detection with the documents' roles, as the outputs show it.
pub struct CollectionReport<'a> {
    pub method: &'a str,
    /// The documents' names, in stream order.
    pub names: &'a [String],
    pub detection: &'a Detection,
    /// The sources' positions; empty when none were marked.
    pub sources: Vec<DocId>,
    pub pairs: RoledPairs,
}

impl<'a> CollectionReport<'a> {
    pub fn new(
        method: &'a str,
        names: &'a [String],
        detection: &'a Detection,
        is_source: &[bool],
    ) -> Self {
        CollectionReport {
            method,
            names,
            detection,
            sources: (0..names.len())
                .filter(|&d| is_source.get(d).copied().unwrap_or(false))
                .collect(),
            pairs: RoledPairs::split(&detection.pairs, is_source),
        }
    }

    fn has_roles(&self) -> bool {
        !self.sources.is_empty()
    }

    fn pair_count(&self) -> usize {
        self.pairs.submission_source.len() + self.pairs.submission_submission.len()
    }

    fn name(&self, d: DocId) -> &str {
        self.names.get(d).map_or("", String::as_str)
    }

    fn pair_line(&self, pair: &DetectedPair) -> String {
        format!(
            "{:<20} {:>6.3}  {}  {}",
            pair.relation.name(),
            pair.score,
            self.name(pair.a),
            self.name(pair.b)
        )
    }

    fn write_pairs(
        &self,
        out: &mut impl Write,
        heading: &str,
        pairs: &[DetectedPair],
        show: usize,
    ) -> std::io::Result<()> {
        writeln!(out, "\n{heading}")?;
        for pair in pairs.iter().take(show) {
            writeln!(out, "{}", self.pair_line(pair))?;
        }
        if pairs.len() > show {
            writeln!(out, "... {} more (see --json / --csv)", pairs.len() - show)?;
        }
        Ok(())
    }

    pub fn write_summary(&self, out: &mut impl Write, show: usize) -> std::io::Result<()> {
        let names = self.names;
        let roles = if self.has_roles() {
            format!(
                " ({} sources, {} submissions)",
                self.sources.len(),
                names.len() - self.sources.len()
            )
        } else {
            String::new()
        };
        writeln!(
            out,
            "{}: {} documents{roles}, {} pairs, {} duplicate groups",
            self.method,
            names.len(),
            self.pair_count(),
            self.detection.groups.len()
        )?;
        if names.len() <= 30 {
            writeln!(out, "\ndocuments:")?;
            for (i, name) in names.iter().enumerate() {
                let role = if self.sources.binary_search(&i).is_ok() {
                    "  (source)"
                } else {
                    ""
                };
                writeln!(out, "{:>4}. {name}{role}", i + 1)?;
            }
        }
        if self.has_roles() {
            self.write_pairs(
                out,
                "submission-source pairs, ranked (relation, score, a, b; the source is the \
                 container: \"source contains submission\", \"submission reuses source\"):",
                &self.pairs.submission_source,
                show,
            )?;
            self.write_pairs(
                out,
                "submission-submission pairs, ranked (read \"a relation b\"):",
                &self.pairs.submission_submission,
                show,
            )?;
            if self.pairs.dropped > 0 {
                writeln!(
                    out,
                    "({} pairs of two sources left out)",
                    self.pairs.dropped
                )?;
            }
        } else {
            self.write_pairs(
                out,
                "pairs, ranked by score (relation, score, a, b; read \"a relation b\"):",
                &self.pairs.submission_submission,
                show,
            )?;
        }
        writeln!(
            out,
            "\nduplicate groups (the first is the longest, the one to keep):"
        )?;
        for (i, group) in self.detection.groups.iter().enumerate().take(show) {
            let members: Vec<&str> = group.iter().map(|&d| self.name(d)).collect();
            writeln!(out, "{:>4}. {}", i + 1, members.join("  "))?;
        }
        if self.detection.groups.len() > show {
            writeln!(
                out,
                "... {} more groups",
                self.detection.groups.len() - show
            )?;
        }
        Ok(())
    }

    /// The pairs in output order with their kind (`None` without roles).
    fn ranked(&self) -> impl Iterator<Item = (Option<PairKind>, &DetectedPair)> {
        let roles = self.has_roles();
        self.pairs
            .iter()
            .map(move |(kind, p)| (roles.then_some(kind), p))
    }

    pub fn write_json(&self, path: &Path) -> anyhow::Result<()> {
        let json = CollectionJson {
            method: self.method,
            documents: self.names,
            sources: self.has_roles().then_some(&self.sources),
            pairs: self
                .ranked()
                .map(|(kind, p)| PairJson {
                    a: p.a,
                    b: p.b,
                    relation: p.relation.name(),
                    score: p.score,
                    kind: kind.map(PairKind::name),
                })
                .collect(),
            groups: &self.detection.groups,
        };
        let context = || format!("{}: cannot write", path.display());
        let file = std::fs::File::create(path)
            .with_context(|| format!("{}: cannot create", path.display()))?;
        let mut writer = std::io::BufWriter::new(file);
        serde_json::to_writer_pretty(&mut writer, &json).with_context(context)?;
        writer.flush().with_context(context)
    }

    pub fn write_csv(&self, path: &Path) -> anyhow::Result<()> {
        let context = || format!("{}: cannot write", path.display());
        let file = std::fs::File::create(path)
            .with_context(|| format!("{}: cannot create", path.display()))?;
        let mut w = csv::Writer::from_writer(std::io::BufWriter::new(file));
        let mut header = vec!["a", "b", "relation", "score"];
        if self.has_roles() {
            header.push("kind");
        }
        w.write_record(&header).with_context(context)?;
        for (kind, p) in self.ranked() {
            let mut record = vec![
                self.name(p.a).to_string(),
                self.name(p.b).to_string(),
                p.relation.name().to_string(),
                p.score.to_string(),
            ];
            if let Some(kind) = kind {
                record.push(kind.name().to_string());
            }
            w.write_record(&record).with_context(context)?;
        }
        w.flush().with_context(context)
    }
}

/// The JSON shape of `collection --json`.
#[derive(Serialize)]
struct CollectionJson<'a> {
    method: &'a str,
    documents: &'a [String],
    /// The documents marked as sources (`--sources`).
    #[serde(skip_serializing_if = "Option::is_none")]
    sources: Option<&'a Vec<DocId>>,
    /// Ranked by score, descending; with sources, the submission-source pairs first.
    pairs: Vec<PairJson>,
    groups: &'a [Vec<usize>],
}

#[derive(Serialize)]
struct PairJson {
    a: usize,
    b: usize,
    relation: &'static str,
    score: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
}
