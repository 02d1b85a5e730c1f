//! Comparison reports: JSON (versioned, for programs), CSV (matched pairs with their text, for
//! spreadsheets) and a short human summary. The command line and the viewer's export both use
//! these, so the same comparison always reports the same way.

use std::io::Write;

use rayon::prelude::*;

use super::dotplot::{Dotplot, Tier};
use super::percent;
use crate::compare::CompareOptions;
use crate::compare::changes::Changes;
use crate::compare::passages::{Passage, PassageOptions, passages_of};
use crate::compare::word_alignment::{Relatedness, align};
use crate::compare::{
    Comparison, Figures, MOST_CAPPED_NOTES, TreeMatching, WordAlignment, capped_notes,
};
use crate::document::Document;
use crate::similarity::{JoinSide, Method, ModelView, ScoredPair, Thresholds};

/// How many changes the summary lists after their counts.
pub const SUMMARY_CHANGES: usize = 5;

/// One compared document and the name it is reported under (usually its path).
#[derive(Clone, Copy, Debug)]
pub struct Side<'a> {
    pub path: &'a str,
    pub doc: &'a Document,
}

/// Everything a report says about one comparison under one set of thresholds.
#[derive(Clone, Debug)]
pub struct Report<'a> {
    pub sides: [Side<'a>; 2],
    pub comparison: &'a Comparison,
    pub thresholds: Thresholds,
    pub figures: Figures,
    pub trees: TreeMatching,
    /// The matched pairs under the thresholds.
    pub matches: Vec<ScoredPair>,
    /// The passages among the matches ([`crate::compare::passages`]) of at least `min_pairs` pairs.
    pub passages: Vec<Passage>,
    /// For each match, the passage (index into `passages`) it belongs to.
    pub passage_of: Vec<Option<u32>>,
    /// How the passages were found.
    pub passage_options: PassageOptions,
    /// For each match, its words aligned ([`Report::with_words`]); empty until asked for, and
    /// `None` for the pairs of repeated sentences listed only in part.
    pub words: Vec<Option<WordAlignment>>,
    /// What was added, deleted, changed or moved from A to B ([`crate::compare::changes`]),
    /// from the matches: what the summary, the CSV, the HTML report and `--changes` list.
    pub changes: Changes,
    /// The name of the preset the comparison ran under ([`crate::compare::Preset::name`]),
    /// said in the summary's method line; `None` for settings no preset has.
    pub preset: Option<&'static str>,
}

/// The first and last sentence a pair covers on one side: its own, or with the neighbour it
/// was taken together with in a one-to-two match.
pub fn pair_range(pair: &ScoredPair, side: JoinSide) -> [u32; 2] {
    pair.sentences(side)
}

/// The sentences of one side of a pair: its own, or with its neighbour in reading order when
/// this side's sentences were taken together (a one-to-two match).
pub fn pair_sentences<'d>(doc: &'d Document, pair: &ScoredPair, side: JoinSide) -> Vec<&'d str> {
    let [first, last] = pair_range(pair, side);
    (first..=last)
        .filter_map(|p| doc.sentences.get(p as usize).map(|s| s.text.as_str()))
        .collect()
}

/// The word-by-word alignment of one matched pair of `docs` under the comparison's `options`
/// (its refinement, and the relatedness its rules read from `model` when the method uses it).
pub fn align_pair(
    docs: [&Document; 2],
    pair: &ScoredPair,
    method: Method,
    model: &dyn ModelView,
    options: &CompareOptions,
) -> WordAlignment {
    let related = if method == Method::Fuzzy {
        Relatedness::of(model, &options.rules.related_words)
    } else {
        None
    };
    align(
        &pair_sentences(docs[0], pair, JoinSide::Left),
        &pair_sentences(docs[1], pair, JoinSide::Right),
        &options.refine,
        related,
    )
}

impl<'a> Report<'a> {
    pub fn new(sides: [Side<'a>; 2], comparison: &'a Comparison, thresholds: Thresholds) -> Self {
        let matches: Vec<ScoredPair> = comparison.matches(&thresholds).copied().collect();
        let (passages, passage_of) =
            passages_of(comparison, &matches, &thresholds, PassageOptions::default());
        let changes = comparison.changes([sides[0].doc, sides[1].doc], &matches, &thresholds);
        Report {
            sides,
            comparison,
            thresholds,
            // Exact however many pairs are listed (from the classes when sentences repeat).
            figures: comparison.figures_given(&matches, &thresholds),
            trees: comparison.tree_matching_of(sides[0].doc, sides[1].doc, &matches),
            matches,
            passages,
            passage_of,
            passage_options: PassageOptions::default(),
            words: Vec::new(),
            changes,
            preset: None,
        }
    }

    /// Names the preset the comparison ran under, for the summary.
    pub fn with_preset(mut self, preset: Option<&'static str>) -> Self {
        self.preset = preset;
        self
    }

    /// Finds the passages again with other options.
    pub fn with_passages(mut self, options: PassageOptions) -> Self {
        (self.passages, self.passage_of) =
            passages_of(self.comparison, &self.matches, &self.thresholds, options);
        self.passage_options = options;
        self
    }

    /// Aligns the words of every match; `options` must be those the comparison ran with,
    /// `model` the one it scored with.
    ///
    /// The pairs of repeated sentences listed only in part ([`Comparison::capped`]) are not
    /// aligned: they are a band of identical or near-identical pairs (a million for 100,000
    /// repeated sentences), whose alignments would repeat one another and cost gigabytes.
    pub fn with_words(mut self, model: &dyn ModelView, options: &CompareOptions) -> Self {
        let docs = [self.sides[0].doc, self.sides[1].doc];
        let method = self.comparison.method;
        let is_capped = self.comparison.capped_test();
        self.words = self
            .matches
            .par_iter()
            .map(|pair| (!is_capped(pair)).then(|| align_pair(docs, pair, method, model, options)))
            .collect();
        self
    }

    /// Aligns the words of the pairs the change list names as reworded only (what `--changes`
    /// shows without the other reports); the other matches keep theirs if they have them.
    pub fn with_change_words(mut self, model: &dyn ModelView, options: &CompareOptions) -> Self {
        if !self.words.is_empty() {
            return self;
        }
        let docs = [self.sides[0].doc, self.sides[1].doc];
        let method = self.comparison.method;
        let mut named = vec![false; self.matches.len()];
        for change in &self.changes.list {
            for &m in &change.pairs {
                if let Some(flag) = named.get_mut(m) {
                    *flag = true;
                }
            }
        }
        self.words = self
            .matches
            .par_iter()
            .zip(named)
            .map(|(pair, named)| named.then(|| align_pair(docs, pair, method, model, options)))
            .collect();
        self
    }

    /// The sentences of each document that no match under the thresholds covers (a sentence
    /// taken together with its neighbour in a one-to-two match is covered), in reading order.
    pub fn unmatched_sentences(&self) -> [Vec<u32>; 2] {
        let mut covered = self.sides.map(|side| vec![false; side.doc.sentences.len()]);
        for pair in &self.matches {
            for (side, join) in [(0, JoinSide::Left), (1, JoinSide::Right)] {
                let [first, last] = pair_range(pair, join);
                for position in first..=last {
                    if let Some(flag) = covered[side].get_mut(position as usize) {
                        *flag = true;
                    }
                }
            }
        }
        covered.map(|flags| {
            (0u32..)
                .zip(flags)
                .filter(|&(_, covered)| !covered)
                .map(|(position, _)| position)
                .collect()
        })
    }

    /// The dotplot marks: one per matched pair, tiered.
    pub fn marks(&self) -> Vec<(u32, u32, Tier)> {
        self.matches
            .iter()
            .map(|p| (p.left, p.right, tier(p)))
            .collect()
    }

    /// Draws the dotplot of this report into an SVG string.
    pub fn dotplot_svg(&self, width: u32, height: u32) -> String {
        let marks = self.marks();
        let boundaries = [
            self.sides[0].doc.top_level_boundaries(),
            self.sides[1].doc.top_level_boundaries(),
        ];
        let names = self.sides.map(|side| {
            std::path::Path::new(side.path).file_name().map_or_else(
                || side.path.to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        });
        let title = format!("A: {} vs B: {}", names[0], names[1]);
        let method = self.comparison.method;
        let mut caption = method.title().to_string();
        if method.is_graded() {
            caption.push_str(&format!(", {}", thresholds_in_words(&self.thresholds)));
        }
        caption.push_str(&format!(" · {}", containment_in_words(&self.figures)));
        let passages: Vec<([u32; 2], [u32; 2])> =
            self.passages.iter().map(|p| (p.a, p.b)).collect();
        Dotplot {
            x_name: &names[0],
            y_name: &names[1],
            x_len: self.sides[0].doc.sentences.len(),
            y_len: self.sides[1].doc.sentences.len(),
            x_boundaries: &boundaries[0],
            y_boundaries: &boundaries[1],
            marks: &marks,
            title: &title,
            caption: &caption,
            passages: &passages,
            width,
            height,
        }
        .to_svg()
    }

    /// Writes the matched pairs as CSV: positions, scores, tier and both sentences' text, then
    /// the unmatched sentences of A and of B (tier `unmatched`, the other side empty), then one
    /// row per change of the change list (tier `added`, `deleted`, `changed` or `moved`: its
    /// first and last sentence on each side, its text, the reworded pairs' words); each row has
    /// its sentences' character offsets and lengths (as the JSON report counts them) and, last,
    /// the last sentence on each side.
    pub fn write_csv(&self, out: impl Write) -> Result<(), csv::Error> {
        let mut writer = crate::escape::CsvWriter::new(out);
        writer.write_record([
            "left",
            "right",
            "sim_lr",
            "sim_rl",
            "tier",
            "joined_with",
            "passage",
            "word_changes",
            "left_text",
            "right_text",
            "left_offset",
            "left_length",
            "right_offset",
            "right_length",
            "left_last",
            "right_last",
        ])?;
        let span = |side: usize, range: [u32; 2]| {
            let doc = self.sides[side].doc;
            let start = doc
                .sentences
                .get(range[0] as usize)
                .map(|s| s.offsets.start);
            let end = doc.sentences.get(range[1] as usize).map(|s| s.offsets.end);
            match (start, end) {
                (Some(start), Some(end)) => {
                    [start.to_string(), end.saturating_sub(start).to_string()]
                }
                _ => [String::new(), String::new()],
            }
        };
        for (i, p) in self.matches.iter().enumerate() {
            let left = span(0, pair_range(p, JoinSide::Left));
            let right = span(1, pair_range(p, JoinSide::Right));
            let text = |side: usize, position: u32| {
                self.sides[side]
                    .doc
                    .sentences
                    .get(position as usize)
                    .map_or("", |s| s.text.as_str())
            };
            writer.write_record([
                p.left.to_string().as_str(),
                p.right.to_string().as_str(),
                format!("{:.4}", p.sim_lr).as_str(),
                format!("{:.4}", p.sim_rl).as_str(),
                tier(p).name(),
                joined_with(p).as_str(),
                self.passage_of
                    .get(i)
                    .copied()
                    .flatten()
                    .map_or(String::new(), |n| (n + 1).to_string())
                    .as_str(),
                self.words
                    .get(i)
                    .and_then(Option::as_ref)
                    .map_or(String::new(), super::words::changes_line)
                    .as_str(),
                text(0, p.left),
                text(1, p.right),
                left[0].as_str(),
                left[1].as_str(),
                right[0].as_str(),
                right[1].as_str(),
                pair_range(p, JoinSide::Left)[1].to_string().as_str(),
                pair_range(p, JoinSide::Right)[1].to_string().as_str(),
            ])?;
        }
        for (side, positions) in self.unmatched_sentences().iter().enumerate() {
            for &position in positions {
                let sentence = self.sides[side]
                    .doc
                    .sentences
                    .get(position as usize)
                    .map_or("", |s| s.text.as_str());
                let [offset, length] = span(side, [position, position]);
                let position = position.to_string();
                let mut record = [""; 16];
                record[side] = position.as_str();
                record[4] = "unmatched";
                record[8 + side] = sentence;
                record[10 + 2 * side] = offset.as_str();
                record[11 + 2 * side] = length.as_str();
                record[14 + side] = position.as_str();
                writer.write_record(record)?;
            }
        }
        for change in &self.changes.list {
            writer.write_record(self.change_row(change))?;
        }
        writer.flush()?;
        Ok(())
    }

    /// A few lines for people: the documents, the method and thresholds, the figures, the
    /// change list's counts and first changes, and the repeated sentences whose partners are not
    /// all listed.
    pub fn summary(&self) -> String {
        // Names and titles come from the files: escaped for the terminal.
        use crate::escape::terminal;
        let f = &self.figures;
        let [a, b] = self.sides;
        let identical = self.comparison.identical_pairs(&self.thresholds);
        let thresholds = if self.comparison.method.is_graded() {
            format!(" ({})", thresholds_in_words(&self.thresholds))
        } else {
            String::new()
        };
        let thresholds = match self.preset {
            Some(name) => format!(", preset {name}{thresholds}"),
            None => thresholds,
        };
        format!(
            "A: {} — \"{}\", {} sentences ({} compared)\n\
             B: {} — \"{}\", {} sentences ({} compared)\n\
             method: {}{}\n\
             {}\n\
             containment: A in B {:.3} / B in A {:.3}\n\
             matched pairs: {} ({} identical, {} similar) in {} passage{} of {} or more\n\
             matched sentences: A {} / B {}; common (one-to-one): {}\n\
             overlap: A {:.3} / B {:.3}\n\
             resemblance: A in B {:.3} / B in A {:.3}\n\
             odds ratio: {:.3}\n",
            terminal(a.path),
            terminal(&a.doc.title),
            a.doc.sentences.len(),
            f.sentences[0],
            terminal(b.path),
            terminal(&b.doc.title),
            b.doc.sentences.len(),
            f.sentences[1],
            self.comparison.method.name(),
            thresholds,
            containment_in_words(f),
            f.containment[0],
            f.containment[1],
            f.pairs,
            identical,
            f.pairs.saturating_sub(identical),
            self.passages.len(),
            if self.passages.len() == 1 { "" } else { "s" },
            self.passage_options.min_pairs,
            f.matched[0],
            f.matched[1],
            f.common,
            f.overlap[0],
            f.overlap[1],
            f.resemblance[0],
            f.resemblance[1],
            f.odds_ratio,
        ) + if self.comparison.too_short_to_judge(&self.thresholds) {
            "too short to judge against chance: a text found whole and verbatim in the other \
             counts as found\n"
        } else {
            ""
        } + &self.changes_summary(SUMMARY_CHANGES)
            + &self
                .comparison
                .exclusions
                .describe()
                .map(|what| format!("left out: {what}\n"))
                .unwrap_or_default()
            + &capped_notes(&self.comparison.capped, MOST_CAPPED_NOTES)
                .iter()
                .map(|note| format!("listed in part: {note}\n"))
                .collect::<String>()
            + &self
                .comparison
                .partners_capped
                .describe()
                .map(|note| format!("listed in part: {note}\n"))
                .unwrap_or_default()
    }
}

/// The thresholds as the viewer's controls say them: "permission 0.4, variation off" (a variation
/// of 1 or more filters nothing, and the viewer's slider reads "off" there), and the chance bar
/// when matches are judged against chance.
pub fn thresholds_in_words(thresholds: &Thresholds) -> String {
    let variation = if thresholds.variation >= 1.0 {
        "off".to_string()
    } else {
        thresholds.variation.to_string()
    };
    let shortest = if thresholds.min_words > 0 {
        format!(", matches under {} words left out", thresholds.min_words)
    } else {
        String::new()
    };
    // Judged against chance the bar is what decides; say it (the permission only admits links).
    let chance = thresholds
        .max_e_value
        .map(|bar| format!(", judged against chance: passages at E-value {bar:e} or below"))
        .unwrap_or_default();
    format!(
        "permission {}, variation {variation}{shortest}{chance}",
        thresholds.permission
    )
}

/// The containment figure in plain words, the larger direction first: "62% of B's text is found
/// in A (and 40% of A's in B)". The documents are called A and B, as everywhere in reports.
pub fn containment_in_words(figures: &Figures) -> String {
    let [a_in_b, b_in_a] = figures.containment;
    if b_in_a >= a_in_b {
        format!(
            "{} of B's text is found in A (and {} of A's in B)",
            percent(b_in_a),
            percent(a_in_b)
        )
    } else {
        format!(
            "{} of A's text is found in B (and {} of B's in A)",
            percent(a_in_b),
            percent(b_in_a)
        )
    }
}

/// For a pair of a one-to-two match, the two sentences taken together ("A 12+13", "B 7+8").
fn joined_with(pair: &ScoredPair) -> String {
    match pair.joined {
        Some(j) => {
            let (letter, own) = match j.side {
                JoinSide::Left => ("A", pair.left),
                JoinSide::Right => ("B", pair.right),
            };
            let (first, second) = (own.min(j.with), own.max(j.with));
            format!("{letter} {first}+{second}")
        }
        None => String::new(),
    }
}

pub(super) fn tier(pair: &ScoredPair) -> Tier {
    if pair.identical {
        Tier::Identical
    } else {
        Tier::Similar
    }
}
