//! A collection run as the reader gets it: the summary, JSON and CSV (and, in
//! [`super::collection_html`], the HTML report; the JSON's shape is in
//! [`super::collection_json`]), with pairs ranked by score and, when sources
//! were marked, split into submission-source and submission-submission pairs ([`RoledPairs`]).
//! The command line and the viewer's export use these same functions.
//!
//! Each pair can carry its evidence ([`PairEvidence`]: containment both ways and the passages),
//! computed for the highest-ranked pairs only (see [`CollectionReport::evidence_wanted`]).

use std::io::Write;

use super::counted;
use super::percent;
use crate::collection::discounted_rank::discounted_order;
use crate::collection::evidence::PairEvidence;
use crate::collection::roles::{PairKind, RoledPairs};
use crate::collection::source_discount::SourceDiscount;
use crate::collection::{DetectedPair, Detection, DocId};

/// A detection with the documents' roles and the evidence found for its pairs.
pub struct CollectionReport<'a> {
    pub method: &'a str,
    /// The documents' names, in stream order.
    pub names: &'a [String],
    pub detection: &'a Detection,
    /// The sources' positions, ascending; empty when none were marked.
    pub sources: Vec<DocId>,
    pub pairs: RoledPairs,
    /// The evidence of the pairs in output order ([`CollectionReport::ranked`]): the first
    /// `evidence.len()` pairs have an entry (`None` when it could not be computed).
    pub evidence: Vec<Option<PairEvidence>>,
    /// How the evidence was computed, in words ("the teacher preset's matching: ..."), when
    /// known: the figures of a pair depend on it, and the same pair compared otherwise shows
    /// others.
    pub matching: Option<String>,
    /// For submission-submission pairs with evidence, in output order like `evidence`: the
    /// figures with the text found in marked sources left out ([`crate::collection::source_discount`]).
    pub discounts: Vec<Option<SourceDiscount>>,
    /// Per duplicate group, in the order of [`Detection::groups`]: whether its documents hold
    /// the same text ([`crate::collection::same_text`]); a group without an entry (the
    /// documents were not at hand: a cluster's tables) is called near-identical.
    pub same_text: Vec<bool>,
    /// What the run has to tell its reader beside its pairs (text left out of every pair,
    /// candidates or evidence cut by a budget), in the words the command line prints to
    /// standard error: the JSON and HTML reports carry the same list, so a report read
    /// without the terminal it was made in still says what the figures leave out.
    pub notes: Vec<String>,
    /// Whether the submission-submission pairs are ranked by the evidence left without the
    /// sources' text ([`Self::rank_by_discounts`]) rather than by score.
    pub discount_ranked: bool,
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
            evidence: Vec::new(),
            matching: None,
            discounts: Vec::new(),
            same_text: Vec::new(),
            notes: Vec::new(),
            discount_ranked: false,
        }
    }

    /// The discount of the pair at `rank` (0-based, output order), if computed.
    pub fn discount_at(&self, rank: usize) -> Option<&SourceDiscount> {
        self.discounts.get(rank).and_then(Option::as_ref)
    }

    /// The first `limit` submission-submission pairs in output order, for their discounts:
    /// (rank, a, b).
    pub fn discounts_wanted(&self, limit: usize) -> Vec<(usize, DocId, DocId)> {
        self.ranked()
            .enumerate()
            .filter(|&(_, (kind, _))| kind == Some(PairKind::SubmissionSubmission))
            .take(limit)
            .map(|(rank, (_, p))| (rank, p.a, p.b))
            .collect()
    }

    /// Ranks the submission-submission pairs by the evidence left once the sources' text is
    /// left out ([`crate::collection::discounted_rank`]), given their discounts by output
    /// rank; the discounts, and any evidence already computed, move with their pairs. Called
    /// before the evidence and pair pages, which then follow the new order.
    pub fn rank_by_discounts(&mut self, discounts: Vec<Option<SourceDiscount>>) {
        let first = self.pairs.submission_source.len();
        let count = self.pairs.submission_submission.len();
        let order = discounted_order(
            &(first..first + count)
                .map(|rank| discounts.get(rank).and_then(Option::as_ref))
                .collect::<Vec<_>>(),
        );
        // Per new output rank, its old one.
        let ranks: Vec<usize> = (0..first).chain(order.iter().map(|&i| first + i)).collect();
        let raw = std::mem::take(&mut self.pairs.submission_submission);
        self.pairs.submission_submission =
            order.iter().filter_map(|&i| raw.get(i).copied()).collect();
        self.discounts = permuted(discounts, &ranks);
        self.evidence = permuted(std::mem::take(&mut self.evidence), &ranks);
        self.discount_ranked = true;
    }

    /// Whether sources were marked.
    pub fn has_roles(&self) -> bool {
        !self.sources.is_empty()
    }

    pub fn is_source(&self, d: DocId) -> bool {
        self.sources.binary_search(&d).is_ok()
    }

    /// The pairs reported (source-source pairs are left out).
    pub fn pair_count(&self) -> usize {
        self.pairs.submission_source.len() + self.pairs.submission_submission.len()
    }

    pub fn name(&self, d: DocId) -> &str {
        self.names.get(d).map_or("", String::as_str)
    }

    /// The pairs in output order with their kind (`None` without roles): with sources, the
    /// submission-source pairs first; each list ranked by score, descending, or the
    /// submission-submission pairs by their discount ([`Self::rank_by_discounts`]).
    pub fn ranked(&self) -> impl Iterator<Item = (Option<PairKind>, &DetectedPair)> {
        let roles = self.has_roles();
        self.pairs
            .iter()
            .map(move |(kind, p)| (roles.then_some(kind), p))
    }

    /// The document pairs whose evidence to compute: the first `limit` in output order.
    pub fn evidence_wanted(&self, limit: usize) -> Vec<(DocId, DocId)> {
        self.ranked().take(limit).map(|(_, p)| (p.a, p.b)).collect()
    }

    /// The evidence of the pair at `rank` (0-based, output order), if computed.
    pub fn evidence_at(&self, rank: usize) -> Option<&PairEvidence> {
        self.evidence.get(rank).and_then(Option::as_ref)
    }

    fn pair_line(&self, rank: usize, pair: &DetectedPair) -> String {
        let mut contained = self.evidence_at(rank).map_or(String::new(), |e| {
            format!(
                "  [{} in b, {} in a]",
                percent(e.containment[0]),
                percent(e.containment[1])
            )
        });
        if let Some(d) = self.discount_at(rank) {
            contained.push_str(&format!(
                "  [without the sources' text: {} in b, {} in a]",
                percent(d.containment[0]),
                percent(d.containment[1])
            ));
        }
        format!(
            "{:<20} {:>6.3}  {}  {}{contained}",
            pair.relation.name(),
            pair.score,
            self.shown_name(pair.a),
            self.shown_name(pair.b)
        )
    }

    /// A document's name as the summary prints it: escaped for the terminal
    /// ([`crate::escape::terminal`]), so that a name holding a newline or an escape sequence is
    /// still one run of text on its line.
    fn shown_name(&self, d: DocId) -> std::borrow::Cow<'_, str> {
        crate::escape::terminal(self.name(d))
    }

    fn write_pairs(
        &self,
        out: &mut dyn Write,
        heading: &str,
        pairs: &[DetectedPair],
        first_rank: usize,
        show: usize,
    ) -> std::io::Result<()> {
        writeln!(out, "\n{heading}")?;
        for (rank, pair) in (first_rank..).zip(pairs).take(show) {
            writeln!(out, "{}", self.pair_line(rank, pair))?;
        }
        if pairs.len() > show {
            writeln!(out, "... {} more (see --json / --csv)", pairs.len() - show)?;
        }
        Ok(())
    }

    /// The human summary: counts, documents (up to 30), ranked pairs (at most `show` per list)
    /// and duplicate groups.
    pub fn write_summary(&self, out: &mut dyn Write, show: usize) -> std::io::Result<()> {
        let names = self.names;
        let roles = if self.has_roles() {
            format!(
                " ({}, {})",
                counted(self.sources.len(), "source", "sources"),
                counted(
                    names.len() - self.sources.len(),
                    "submission",
                    "submissions"
                )
            )
        } else {
            String::new()
        };
        let groups = self.detection.groups.len();
        writeln!(
            out,
            "{}: {}{roles}, {}, {}",
            self.method,
            counted(names.len(), "document", "documents"),
            counted(self.pair_count(), "pair", "pairs"),
            if self.has_roles() {
                counted(
                    groups,
                    "group of identical documents",
                    "groups of identical documents",
                )
            } else {
                counted(groups, "duplicate group", "duplicate groups")
            }
        )?;
        if let Some(matching) = &self.matching {
            writeln!(out, "evidence: {matching}")?;
        }
        if names.len() <= 30 {
            writeln!(out, "\ndocuments:")?;
            for (i, name) in names.iter().enumerate() {
                let role = if self.is_source(i) { "  (source)" } else { "" };
                writeln!(out, "{:>4}. {}{role}", i + 1, crate::escape::terminal(name))?;
            }
        }
        let evidence_note = if self.evidence.is_empty() {
            String::new()
        } else {
            "; [x in b, y in a]: the share of a's text found in b and of b's in a".to_string()
        };
        if self.has_roles() {
            self.write_pairs(
                out,
                &format!(
                    "submission-source pairs, ranked (relation, score, a, b; the source is the \
                     container: \"source contains submission\", \"submission reuses \
                     source\"{evidence_note}):"
                ),
                &self.pairs.submission_source,
                0,
                show,
            )?;
            self.write_pairs(
                out,
                &format!(
                    "submission-submission pairs, ranked {}(read \"a relation b\"{evidence_note}):",
                    if self.discount_ranked {
                        "by the larger share left without the sources' text, then by score "
                    } else {
                        ""
                    }
                ),
                &self.pairs.submission_submission,
                self.pairs.submission_source.len(),
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
                &format!(
                    "pairs, ranked by score (relation, score, a, b; read \"a relation \
                     b\"{evidence_note}):"
                ),
                &self.pairs.submission_submission,
                0,
                show,
            )?;
        }
        let with_evidence = self.evidence.iter().flatten().count();
        if with_evidence > 0 && with_evidence < self.pair_count() {
            writeln!(
                out,
                "(evidence for the first {with_evidence} of {} pairs; --evidence N for more)",
                self.pair_count()
            )?;
        }
        if self.has_roles() {
            writeln!(out, "\nidentical and near-identical documents:")?;
        } else {
            writeln!(
                out,
                "\nduplicate groups (the first is the longest, the one to keep):"
            )?;
        }
        for (i, group) in self.detection.groups.iter().enumerate().take(show) {
            if self.has_roles() {
                writeln!(out, "{:>4}. {}", i + 1, self.identical_group_words(i))?;
                continue;
            }
            let members: Vec<std::borrow::Cow<'_, str>> =
                group.iter().map(|&d| self.shown_name(d)).collect();
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

    /// Duplicate group `index` in a class's words: "identical submissions: a, b, c" when their
    /// texts are the same ([`Self::same_text`]), "near-identical submissions (each at least N%
    /// found in the other): a, b" otherwise, with the least containment of its duplicate pairs;
    /// "... to source s: a, b" when a source is among them (nobody is to be "kept": in a class,
    /// each identical submission is a finding). Names escaped for the terminal.
    pub fn identical_group_words(&self, index: usize) -> String {
        self.group_words(index, |d| self.shown_name(d).into_owned())
    }

    /// [`Self::identical_group_words`] with names written by `name`.
    pub fn group_words(&self, index: usize, name: impl Fn(DocId) -> String) -> String {
        let group = self
            .detection
            .groups
            .get(index)
            .map_or(&[][..], Vec::as_slice);
        let mut members: Vec<DocId> = group.to_vec();
        members.sort_unstable();
        let kind = if self.same_text.get(index).copied().unwrap_or(false) {
            "identical".to_string()
        } else {
            // The least containment among the group's duplicate pairs (their score).
            let least = self
                .detection
                .pairs
                .iter()
                .filter(|p| p.relation.is_duplicate())
                .filter(|p| {
                    members.binary_search(&p.a).is_ok() && members.binary_search(&p.b).is_ok()
                })
                .map(|p| p.score)
                .fold(f64::INFINITY, f64::min);
            if least.is_finite() {
                format!(
                    "near-identical (each at least {} found in the other)",
                    percent(least)
                )
            } else {
                "near-identical".to_string()
            }
        };
        let (sources, submissions): (Vec<DocId>, Vec<DocId>) =
            members.into_iter().partition(|&d| self.is_source(d));
        let submissions: Vec<String> = submissions.into_iter().map(&name).collect();
        if sources.is_empty() {
            format!("{kind} submissions: {}", submissions.join(", "))
        } else {
            let sources: Vec<String> = sources.into_iter().map(&name).collect();
            if submissions.is_empty() {
                format!("{kind} sources: {}", sources.join(", "))
            } else {
                format!(
                    "{kind} to source {}: {}",
                    sources.join(", "),
                    submissions.join(", ")
                )
            }
        }
    }

    /// The pairs as CSV, one row per pair in output order, with document names. The evidence
    /// columns are empty for pairs without evidence; `passages` lists each passage as
    /// `a FIRST-LAST / b FIRST-LAST` (sentences counted from 0, as every output numbers them), separated by `; `.
    pub fn write_csv(&self, out: impl Write) -> Result<(), csv::Error> {
        let mut w = crate::escape::CsvWriter::new(out);
        let mut header = vec!["a", "b", "relation", "score"];
        if self.has_roles() {
            header.push("kind");
        }
        header.extend(["a_in_b", "b_in_a", "matched_a", "matched_b", "passages"]);
        if self.has_roles() {
            header.extend(["a_in_b_without_sources", "b_in_a_without_sources"]);
        }
        w.write_record(&header)?;
        for (rank, (kind, p)) in self.ranked().enumerate() {
            let mut record = vec![
                self.name(p.a).to_string(),
                self.name(p.b).to_string(),
                p.relation.name().to_string(),
                p.score.to_string(),
            ];
            if let Some(kind) = kind {
                record.push(kind.name().to_string());
            }
            match self.evidence_at(rank) {
                Some(e) => record.extend([
                    e.containment[0].to_string(),
                    e.containment[1].to_string(),
                    e.matched_sentences[0].to_string(),
                    e.matched_sentences[1].to_string(),
                    passage_spans(e),
                ]),
                None => record.extend(std::iter::repeat_n(String::new(), 5)),
            }
            if self.has_roles() {
                match self.discount_at(rank) {
                    Some(d) => record.extend(d.containment.map(|c| c.to_string())),
                    None => record.extend(std::iter::repeat_n(String::new(), 2)),
                }
            }
            w.write_record(&record)?;
        }
        w.flush()?;
        Ok(())
    }
}

/// `items` (by output rank) in the order `ranks` gives (per new rank, its old one), without
/// trailing gaps: a list that held nothing still holds nothing.
fn permuted<T>(mut items: Vec<Option<T>>, ranks: &[usize]) -> Vec<Option<T>> {
    let mut out: Vec<Option<T>> = ranks
        .iter()
        .map(|&old| items.get_mut(old).and_then(Option::take))
        .collect();
    while out.last().is_some_and(Option::is_none) {
        out.pop();
    }
    out
}

/// The passages of `evidence` as `a 3-5 / b 10-12; ...`, sentences counted from 0 as every
/// output numbers them (`simdoc compare`'s change list, its JSON report's positions, the viewer),
/// so that a passage named here is found by the same number in the pair's comparison.
pub fn passage_spans(evidence: &PairEvidence) -> String {
    let span = |[first, last]: [u32; 2]| {
        if first == last {
            format!("{first}")
        } else {
            format!("{first}-{last}")
        }
    };
    evidence
        .passages
        .iter()
        .map(|p| format!("a {} / b {}", span(p.a), span(p.b)))
        .collect::<Vec<_>>()
        .join("; ")
}
