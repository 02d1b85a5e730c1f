//! The editor's change list of a report ([`crate::compare::changes`]) as people and programs
//! read it: the `--changes` JSON (which `simdoc eval changes` also reads back, from simdoc or
//! from another tool), the summary's lines and the CSV's rows. The HTML report's section is in
//! [`super::changes_html`]; the viewer's Changes view lists the same changes.
//!
//! Every span is `[start, end)` in characters (Unicode scalar values) of the document as read,
//! the offsets the JSON report's matches use ([`crate::document::offsets`]): of the decoded file
//! for plain text, of simdoc's extracted text for HTML and the packaged formats (each document's
//! `offsets_into` says which).

use serde::{Deserialize, Serialize};

use super::report::Report;
use crate::compare::WordAlignment;
use crate::compare::changes::{Change, ChangeKind};
use crate::compare::word_alignment::WordMatch;
use crate::document::Document;
use crate::document::offsets::OffsetsInto;
use crate::similarity::JoinSide;

/// Version of the `--changes` JSON's shape; raised when a field changes meaning or disappears.
pub const CHANGES_VERSION: u32 = 1;

/// The `--changes` JSON.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ChangesFile {
    #[serde(default)]
    pub version: u32,
    /// What offsets and sentence positions count ([`super::units`]).
    #[serde(default)]
    pub units: super::units::Units,
    /// The two documents: A (the first version) and B.
    #[serde(default)]
    pub documents: Vec<ChangesDocument>,
    /// How many changes of each kind (runs, not sentences).
    #[serde(default)]
    pub counts: ChangeCounts,
    /// In A's reading order; an addition where it would stand in A.
    pub changes: Vec<JsonChange>,
}

/// One document of a change list.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ChangesDocument {
    pub path: String,
    pub sentences: usize,
    /// What the spans count characters of: `file` (the decoded file) or `extracted_text`.
    pub offsets_into: OffsetsInto,
}

/// The changes of each kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangeCounts {
    pub added: usize,
    pub deleted: usize,
    pub changed: usize,
    pub moved: usize,
}

/// One change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonChange {
    pub kind: ChangeKind,
    /// `[start, end)` in A's characters; `null` for an addition.
    pub a: Option<[usize; 2]>,
    /// `[start, end)` in B's characters; `null` for a deletion.
    pub b: Option<[usize; 2]>,
    /// The first and last sentence (inclusive, from 0) in A, as the JSON report numbers them.
    #[serde(default)]
    pub a_sentences: Option<[u32; 2]>,
    #[serde(default)]
    pub b_sentences: Option<[u32; 2]>,
    /// For a changed block, its reworded pairs; for a moved one, the pairs reworded as they
    /// moved (an identical pair is not listed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reworded: Vec<JsonReworded>,
}

/// A reworded pair of a change and the words that differ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonReworded {
    pub a_sentence: u32,
    pub b_sentence: u32,
    pub a: [usize; 2],
    pub b: [usize; 2],
    /// The pair's E-value alone, when the comparison is judged against chance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub e_value: Option<f64>,
    /// The words that differ, in one line: `-word` (only in A), `+word` (only in B),
    /// `walking/walked` (another form), `helps~aid 0.50` (a related word, with c)
    /// ([`super::words::changes_line`]); absent when the words were not aligned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub words: Option<String>,
    /// The compared words only in A's sentence, and only in B's, as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub only_a: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub only_b: Vec<String>,
}

/// `[start, end)` in characters of sentences `first..=last` of `doc`; `None` for positions it
/// does not have.
pub fn span(doc: &Document, [first, last]: [u32; 2]) -> Option<[usize; 2]> {
    let start = doc.sentences.get(first as usize)?.offsets.start;
    let end = doc.sentences.get(last as usize)?.offsets.end;
    Some([start, end.max(start)])
}

impl Report<'_> {
    /// The change list in its JSON shape.
    pub fn changes_json(&self) -> ChangesFile {
        let [a, b] = self.sides;
        let count = |kind| self.changes.count(kind);
        ChangesFile {
            version: CHANGES_VERSION,
            units: super::units::Units::default(),
            documents: [a, b]
                .iter()
                .map(|side| ChangesDocument {
                    path: side.path.to_string(),
                    sentences: side.doc.sentences.len(),
                    offsets_into: side.doc.offsets_into,
                })
                .collect(),
            counts: ChangeCounts {
                added: count(ChangeKind::Added),
                deleted: count(ChangeKind::Deleted),
                changed: count(ChangeKind::Changed),
                moved: count(ChangeKind::Moved),
            },
            changes: self
                .changes
                .list
                .iter()
                .map(|change| self.change_json(change))
                .collect(),
        }
    }

    /// One change in its JSON shape.
    pub fn change_json(&self, change: &Change) -> JsonChange {
        let [a, b] = self.sides;
        JsonChange {
            kind: change.kind,
            a: change.a.and_then(|r| span(a.doc, r)),
            b: change.b.and_then(|r| span(b.doc, r)),
            a_sentences: change.a,
            b_sentences: change.b,
            reworded: change
                .pairs
                .iter()
                .filter_map(|&m| {
                    let pair = self.matches.get(m)?;
                    let words = self.words.get(m).and_then(Option::as_ref);
                    let [only_a, only_b] = words.map(only_words).unwrap_or_default();
                    Some(JsonReworded {
                        a_sentence: pair.left,
                        b_sentence: pair.right,
                        a: span(a.doc, pair.sentences(JoinSide::Left))?,
                        b: span(b.doc, pair.sentences(JoinSide::Right))?,
                        e_value: pair.e_value,
                        words: words.map(super::words::changes_line),
                        only_a,
                        only_b,
                    })
                })
                .collect(),
        }
    }

    /// The text of a change as it reads in `side` (0 = A, 1 = B): its sentences, joined by a
    /// space; empty for a side it has none in.
    pub fn change_text(&self, change: &Change, side: usize) -> String {
        let range = if side == 0 { change.a } else { change.b };
        let doc = self.sides[side].doc;
        range.map_or_else(String::new, |[first, last]| {
            (first..=last)
                .filter_map(|p| doc.sentences.get(p as usize))
                .map(|s| s.text.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
    }

    /// A change as a row of the CSV report ([`Report::write_csv`]'s 16 columns).
    pub fn change_row(&self, change: &Change) -> [String; 16] {
        let json = self.change_json(change);
        let mut row: [String; 16] = Default::default();
        for (side, range, span) in [(0, change.a, json.a), (1, change.b, json.b)] {
            if let Some([first, last]) = range {
                row[side] = first.to_string();
                row[14 + side] = last.to_string();
                row[8 + side] = self.change_text(change, side);
            }
            if let Some([start, end]) = span {
                row[10 + 2 * side] = start.to_string();
                row[11 + 2 * side] = (end - start).to_string();
            }
        }
        row[4] = change.kind.name().to_string();
        // The reworded pairs' words: "A 12 / B 13: -word; +word", one pair after another.
        row[7] = json
            .reworded
            .iter()
            .filter_map(|r| {
                let words = r.words.as_deref()?;
                Some(format!("A {} / B {}: {words}", r.a_sentence, r.b_sentence))
            })
            .collect::<Vec<_>>()
            .join(" | ");
        row
    }

    /// The summary's lines about the change list: the counts, then the first `first` changes.
    pub fn changes_summary(&self, first: usize) -> String {
        let changes = &self.changes;
        let counts = ChangeKind::ALL
            .map(|kind| format!("{} {}", changes.count(kind), kind.name()))
            .join(", ");
        let mut out = format!("changes: {counts}\n");
        for change in changes.list.iter().take(first) {
            let place = place_in_words(change);
            let side = usize::from(change.kind == ChangeKind::Added);
            let text = shorten(&self.change_text(change, side), 70);
            out.push_str(&format!(
                "  {:<8} {place}: {}\n",
                change.kind.name(),
                crate::escape::terminal(&text)
            ));
        }
        if changes.list.len() > first {
            out.push_str(&format!(
                "  ... and {} more (--changes FILE lists them all)\n",
                changes.list.len() - first
            ));
        }
        out
    }
}

/// Where a change lies, in sentences: "A 12-14 · B 13".
pub fn place_in_words(change: &Change) -> String {
    let range = |side: &str, r: Option<[u32; 2]>| match r {
        Some([first, last]) if first == last => Some(format!("{side} {first}")),
        Some([first, last]) => Some(format!("{side} {first}-{last}")),
        None => None,
    };
    [range("A", change.a), range("B", change.b)]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The compared words only in A's sentence and only in B's, as written.
fn only_words(alignment: &WordAlignment) -> [Vec<String>; 2] {
    [&alignment.a, &alignment.b].map(|words| {
        words
            .iter()
            .filter(|w| w.kind == WordMatch::Unmatched)
            .map(|w| w.word.clone())
            .collect()
    })
}

/// `text` cut to at most `most` characters, with an ellipsis when cut.
fn shorten(text: &str, most: usize) -> String {
    if text.chars().count() <= most {
        return text.to_string();
    }
    let cut: String = text.chars().take(most.saturating_sub(1)).collect();
    format!("{}…", cut.trim_end())
}
