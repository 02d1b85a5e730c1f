//! The JSON report of a comparison: versioned, for programs. Every sentence and passage carries
//! character offsets into the document as read ([`crate::document::offsets`]), and each
//! document lists its unmatched sentences, so that tools outside simdoc can highlight, score or
//! extract what it found and what changed.
//!
//! Two levels of detail ([`JsonDetail`]). The compact report (the command line's default) leaves
//! out what a reader can recompute from the rest: each match's offsets (its sentences' offsets
//! are in `sentence_offsets`), each match's words aligned (from the two sentences) and the
//! hierarchy nodes' shading. The full report (`--json-full`) has them all. On a 5 MB text
//! against a revised copy the matches' words were most of a 512 MB report.

use serde::Serialize;

use super::dotplot::Tier;
use super::report::{Report, pair_range, tier};
use crate::compare::passages::Passage;
use crate::compare::{CappedPartners, PartnersCapped, WordAlignment};
use crate::document::Document;
use crate::document::offsets::OffsetsInto;
use crate::similarity::{JoinSide, Thresholds};

/// Version of the JSON report's shape; raised when a field changes meaning or disappears.
/// Version 2: `detail`, the documents' `unmatched` sentences, and the compact level without
/// the matches' `offsets` and `words` and without `nodes`. Version 3: each match's and each
/// passage's E-value is `e_value` (was `chance`, a word that also named the bar and the search),
/// and the thresholds' bar on it `max_e_value`.
pub const REPORT_VERSION: u32 = 3;

/// How much a JSON report holds (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JsonDetail {
    /// Without what can be recomputed: the matches' offsets and words, the nodes.
    Compact,
    /// Everything.
    Full,
}

impl Report<'_> {
    /// The full JSON report (see [`JsonReport`] for its shape).
    pub fn to_json(&self) -> JsonReport<'_> {
        self.to_json_with(JsonDetail::Full)
    }

    /// The JSON report at a level of detail.
    pub fn to_json_with(&self, detail: JsonDetail) -> JsonReport<'_> {
        let unmatched = self.unmatched_sentences();
        let documents = [0, 1].map(|side| {
            JsonDocument::new(
                self.sides[side].path,
                self.sides[side].doc,
                &unmatched[side],
            )
        });
        let figures = JsonFigures {
            containment: self.figures.containment,
            overlap: self.figures.overlap,
            resemblance: self.figures.resemblance,
            odds_ratio: self.figures.odds_ratio,
            common: self.figures.common,
            matched: self.figures.matched,
            compared: self.figures.sentences,
            pairs: self.figures.pairs,
        };
        let full = detail == JsonDetail::Full;
        let matches = JsonMatches { report: self, full };
        let mut nodes = Vec::new();
        for (doc, shares) in [&self.trees.left, &self.trees.right]
            .into_iter()
            .enumerate()
        {
            for (node, share) in shares.iter().enumerate() {
                nodes.push(JsonNode {
                    doc,
                    node,
                    shaded: share.shaded(),
                    subtree_shaded: share.subtree_shaded(),
                    partners: share
                        .partners
                        .iter()
                        .map(|&(node, sentences)| JsonPartner { node, sentences })
                        .collect(),
                });
            }
        }
        JsonReport {
            version: REPORT_VERSION,
            units: super::units::Units::default(),
            detail,
            method: self.comparison.method.name(),
            thresholds: self.thresholds,
            floor: self.comparison.floor,
            include_boilerplate: self.comparison.include_boilerplate,
            exclusions: self.comparison.exclusions,
            documents,
            figures,
            passages: self
                .passages
                .iter()
                .map(|passage| JsonPassage {
                    passage,
                    offsets: PairOffsets {
                        a: side_offsets(self.sides[0].doc, passage.a),
                        b: side_offsets(self.sides[1].doc, passage.b),
                    },
                })
                .collect(),
            matches,
            nodes: full.then_some(nodes),
            capped: &self.comparison.capped,
            partners_capped: (!self.comparison.partners_capped.is_empty())
                .then_some(&self.comparison.partners_capped),
        }
    }
}

/// The JSON report. `version` changes when the shape does.
#[derive(Serialize)]
pub struct JsonReport<'a> {
    pub version: u32,
    /// What offsets and sentence positions count ([`super::units`]).
    pub units: super::units::Units,
    /// `compact` or `full` ([`JsonDetail`]).
    pub detail: JsonDetail,
    pub method: &'static str,
    pub thresholds: Thresholds,
    /// Pairs below this score in either direction were not kept.
    pub floor: f64,
    pub include_boilerplate: bool,
    /// What was left out of both documents: quotations, a bibliography
    /// ([`crate::document::exclusions`]).
    pub exclusions: crate::document::exclusions::Exclusions,
    pub documents: [JsonDocument<'a>; 2],
    pub figures: JsonFigures,
    /// Runs of matches along a diagonal (see [`crate::compare::passages`]).
    pub passages: Vec<JsonPassage<'a>>,
    /// The matches listed; fewer than `figures.pairs` when `capped` is not empty.
    pub matches: JsonMatches<'a>,
    /// Each hierarchy node's matched share and partner nodes (full reports only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<Vec<JsonNode>>,
    /// Classes of repeated sentences with more partners than are listed: each sentence of the
    /// larger class lists `shown` of them (the figures count them all).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub capped: &'a [CappedPartners],
    /// The sentences that list only their `kept` best partners at the floor both ways
    /// (templated lines; [`crate::similarity::partners`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partners_capped: Option<&'a PartnersCapped>,
}

#[derive(Serialize)]
pub struct JsonDocument<'a> {
    pub path: &'a str,
    pub title: &'a str,
    pub sentences: usize,
    /// What every `offset` and `length` of this document counts characters (Unicode scalar
    /// values) of: `file`, the decoded file (plain text), or `extracted_text`, the `text` below
    /// (HTML and the packaged formats, whose files are markup).
    pub offsets_into: OffsetsInto,
    /// simdoc's extracted text, when the offsets point into it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<&'a str>,
    /// `[offset, length]` of each sentence, by position (matched or not).
    pub sentence_offsets: Vec<[usize; 2]>,
    /// `[position, offset, length]` of each sentence with no match under the thresholds, in
    /// reading order: what the other document left out or changed beyond the thresholds
    /// (boilerplate and sentences without content words are among them).
    pub unmatched: Vec<[usize; 3]>,
}

impl<'a> JsonDocument<'a> {
    fn new(path: &'a str, doc: &'a Document, unmatched: &[u32]) -> Self {
        JsonDocument {
            path,
            title: &doc.title,
            sentences: doc.sentences.len(),
            offsets_into: doc.offsets_into,
            text: (doc.offsets_into == OffsetsInto::ExtractedText).then_some(doc.text.as_str()),
            sentence_offsets: doc
                .sentences
                .iter()
                .map(|s| [s.offsets.start, s.offsets.len()])
                .collect(),
            unmatched: unmatched
                .iter()
                .filter_map(|&position| {
                    let sentence = doc.sentences.get(position as usize)?;
                    Some([
                        position as usize,
                        sentence.offsets.start,
                        sentence.offsets.len(),
                    ])
                })
                .collect(),
        }
    }
}

/// A character range of one document, as its `offsets_into` counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TextSpan {
    pub offset: usize,
    pub length: usize,
}

/// Where a match or passage lies in each document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PairOffsets {
    pub a: TextSpan,
    pub b: TextSpan,
}

/// A passage and where it lies in both documents: from its first sentence's start to its last
/// one's end.
#[derive(Serialize)]
pub struct JsonPassage<'a> {
    #[serde(flatten)]
    pub passage: &'a Passage,
    pub offsets: PairOffsets,
}

/// The characters from the start of sentence `first` to the end of sentence `last` of `doc`
/// (empty at the end of the text for positions it does not have).
fn side_offsets(doc: &Document, [first, last]: [u32; 2]) -> TextSpan {
    let start = doc.sentences.get(first as usize).map(|s| s.offsets.start);
    let end = doc.sentences.get(last as usize).map(|s| s.offsets.end);
    match (start, end) {
        (Some(start), Some(end)) => TextSpan {
            offset: start,
            length: end.saturating_sub(start),
        },
        _ => TextSpan {
            offset: doc.sentences.last().map_or(0, |s| s.offsets.end),
            length: 0,
        },
    }
}

#[derive(Serialize)]
pub struct JsonFigures {
    /// [A in B, B in A]: the mean of each sentence's best directional Sim into the other
    /// document (see [`Figures::containment`]).
    pub containment: [f64; 2],
    pub overlap: [f64; 2],
    pub resemblance: [f64; 2],
    pub odds_ratio: f64,
    /// Common sentences (maximum one-to-one matching).
    pub common: usize,
    /// Sentences of each document with at least one match.
    pub matched: [usize; 2],
    /// Sentences of each document that took part.
    pub compared: [usize; 2],
    /// Matched pairs.
    pub pairs: usize,
}

#[derive(Serialize)]
pub struct JsonMatch<'a> {
    pub left: u32,
    pub right: u32,
    pub sim_lr: f64,
    pub sim_rl: f64,
    pub tier: Tier,
    /// The learned verdict's probability that the two sentences say the same, when the
    /// comparison decided by it (`--preset verdict`): the match reached the permission by it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<f64>,
    /// A one-to-two match: which side's sentence was taken together with which neighbour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joined: Option<crate::similarity::Joined>,
    /// Where the pair's sentences lie in each document (both sentences of a one-to-two side);
    /// full reports only (the compact one has them in `sentence_offsets`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offsets: Option<PairOffsets>,
    /// The index of the passage the match belongs to, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passage: Option<u32>,
    /// When matches are judged against chance: the pair's E-value alone (the expected number of
    /// pairs as good by chance in this comparison; its passage's E-value pools its links).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub e_value: Option<f64>,
    /// The pair's words aligned, when the report has them and is full (not for the pairs of
    /// repeated sentences listed only in part: see `capped`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub words: Option<&'a WordAlignment>,
}

#[derive(Serialize)]
pub struct JsonNode {
    /// 0 for the first document, 1 for the second.
    pub doc: usize,
    pub node: usize,
    pub shaded: f64,
    pub subtree_shaded: f64,
    pub partners: Vec<JsonPartner>,
}

#[derive(Serialize)]
pub struct JsonPartner {
    pub node: usize,
    pub sentences: u32,
}

/// The matches of a report, serialised one by one as they are written: a report of 100,000
/// repeated sentences lists a million, which as a vector of [`JsonMatch`] would hold over 100 MB
/// for nothing.
pub struct JsonMatches<'a> {
    report: &'a Report<'a>,
    /// Whether each match carries its offsets and words ([`JsonDetail::Full`]).
    full: bool,
}

impl<'a> JsonMatches<'a> {
    /// Match `i` of the report in its JSON shape.
    fn get(&self, i: usize) -> JsonMatch<'a> {
        let report = self.report;
        let p = &report.matches[i];
        JsonMatch {
            left: p.left,
            right: p.right,
            sim_lr: p.sim_lr,
            sim_rl: p.sim_rl,
            tier: tier(p),
            verdict: p.verdict,
            joined: p.joined,
            offsets: self.full.then(|| PairOffsets {
                a: side_offsets(report.sides[0].doc, pair_range(p, JoinSide::Left)),
                b: side_offsets(report.sides[1].doc, pair_range(p, JoinSide::Right)),
            }),
            passage: report.passage_of.get(i).copied().flatten(),
            e_value: p.e_value,
            words: report
                .words
                .get(i)
                .and_then(Option::as_ref)
                .filter(|_| self.full),
        }
    }
}

impl Serialize for JsonMatches<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((0..self.report.matches.len()).map(|i| self.get(i)))
    }
}
