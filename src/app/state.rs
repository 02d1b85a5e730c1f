//! The viewer's state, kept apart from the code that draws it (as in egui's demo app):
//! [`Settings`] persist between runs; [`Analysis`] is what a background comparison produced;
//! [`View`] is derived from the analysis and the current thresholds, recomputed (cheaply, by
//! filtering) whenever either changes; [`Selection`] is shared by every panel.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use crate::compare::Passage;
use crate::compare::Preset;
use crate::compare::chance::ChanceSearch;
use crate::compare::changes::Changes;
use crate::compare::passages::{PassageOptions, passages_of};
use crate::compare::{CompareOptions, Comparison, Figures, PreparedPair, TreeMatching};
use crate::document::exclusions::{Exclusions, LeftOut};
use crate::document::{Document, NodeId};
use crate::render::Tier;
use crate::similarity::{MatchRules, Method, ScoredPair, Thresholds};
use crate::text::RefineOptions;

/// How many recent files the Open menu remembers.
pub const RECENT_FILES: usize = 10;

/// Which document: the first (left, x axis) or the second (right, y axis).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    Left,
    Right,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Left, Side::Right];

    pub fn index(self) -> usize {
        match self {
            Side::Left => 0,
            Side::Right => 1,
        }
    }

    pub fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }

    /// "A" or "B", as the documents are called in the viewer and the reports.
    pub fn letter(self) -> &'static str {
        match self {
            Side::Left => "A",
            Side::Right => "B",
        }
    }
}

/// What the central area shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CentralView {
    /// The two texts side by side.
    Texts,
    /// The two semantic hierarchies side by side, with lines between matched nodes.
    Hierarchies,
    /// Collection mode: a folder, a detector, ranked pairs and the odds-ratio heatmap.
    Collection,
    /// One document against many sources: each sentence coloured by the source it comes from.
    Sources,
}

/// Choices that persist between runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub method: Method,
    pub thresholds: Thresholds,
    /// What refining keeps besides content words (part of a preset).
    pub refine: RefineOptions,
    /// Which pairs may match at all (part of a preset).
    pub rules: MatchRules,
    /// Judge matches against chance, and how to search for them (part of a preset; settings
    /// saved before it was renamed call it `chance`).
    #[serde(alias = "chance")]
    pub chance_search: Option<ChanceSearch>,
    /// The preset the matching was last chosen from ([`crate::compare::NamedPreset::name`]),
    /// kept through changes of its values, and its values as they were when chosen: a preset
    /// re-chosen by a later version is then told apart from the user's own changes
    /// ([`Settings::renew_preset`]).
    pub preset_name: Option<String>,
    pub preset_as_chosen: Option<Preset>,
    pub include_boilerplate: bool,
    /// Match split and merged sentences one-to-two.
    pub one_to_two: bool,
    /// Count headings, titles and short fragments towards the figures too.
    pub count_fragments: bool,
    /// Sentences left out of comparisons: quotations, a bibliography.
    pub exclusions: Exclusions,
    /// Partners each sentence lists at the floor both ways, at the presets scored by Sims
    /// ([`crate::similarity::PARTNERS_KEPT`]; 0: every pair, as the thesis lists them).
    pub partners_kept: usize,
    /// Passages: the largest number of unmatched sentences between two matches of one.
    pub passage_gap: u32,
    /// Passages: the fewest matched pairs one must have to be listed.
    pub min_passage: usize,
    /// Scroll the other text along when one is scrolled inside the selected passage.
    pub scroll_in_step: bool,
    /// Most recent first.
    pub recent_files: Vec<PathBuf>,
    pub central_view: CentralView,
    /// Shade tree nodes by their subtree's matched share instead of their own sentences'.
    pub shade_subtrees: bool,
    /// The bundled example has been shown once (on first start).
    pub example_shown: bool,
}

impl Settings {
    /// How passages are found under these settings.
    pub fn passage_options(&self) -> PassageOptions {
        PassageOptions {
            gap: self.passage_gap,
            min_pairs: self.min_passage.max(1),
        }
    }

    /// The options a comparison under these settings uses (scoring down to the default floor
    /// or the permission, whichever is lower).
    pub fn compare_options(&self) -> CompareOptions {
        CompareOptions {
            method: self.method,
            floor: crate::compare::floor_for(&self.rules, &self.thresholds),
            include_boilerplate: self.include_boilerplate,
            refine: self.refine,
            rules: self.rules,
            count_fragments: self.count_fragments,
            one_to_two: self.one_to_two,
            chance_search: self.chance_search,
            exclusions: self.exclusions,
            partners_kept: self.partners_kept,
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            method: Method::Fuzzy,
            thresholds: Preset::DOCUMENTS.thresholds,
            refine: Preset::DOCUMENTS.refine,
            rules: Preset::DOCUMENTS.rules,
            chance_search: Preset::DOCUMENTS.chance_search,
            preset_name: Preset::DOCUMENTS.name().map(str::to_string),
            preset_as_chosen: Some(Preset::DOCUMENTS),
            include_boilerplate: false,
            one_to_two: true,
            count_fragments: false,
            exclusions: Exclusions::default(),
            partners_kept: crate::similarity::PARTNERS_KEPT,
            passage_gap: crate::compare::passages::DEFAULT_GAP,
            min_passage: crate::compare::passages::default_min_pairs(true),
            scroll_in_step: false,
            recent_files: Vec::new(),
            central_view: CentralView::Texts,
            shade_subtrees: false,
            example_shown: false,
        }
    }
}

impl Settings {
    /// The default settings with `preset`'s matching (and the passages it implies).
    pub fn with_preset(preset: Preset) -> Settings {
        Settings {
            thresholds: preset.thresholds,
            refine: preset.refine,
            rules: preset.rules,
            chance_search: preset.chance_search,
            preset_name: preset.name().map(str::to_string),
            preset_as_chosen: Some(preset),
            min_passage: crate::compare::passages::default_min_pairs(
                preset.chance_search.is_some(),
            ),
            ..Settings::default()
        }
    }

    /// The matching configuration these settings describe.
    pub fn preset(&self) -> Preset {
        Preset {
            refine: self.refine,
            rules: self.rules,
            thresholds: self.thresholds,
            chance_search: self.chance_search,
        }
    }

    /// Brings saved settings up to date with the preset table: when the matching is still what
    /// its preset was when chosen but the preset has been re-chosen since (a newer version of
    /// simdoc), the preset's values now; the user's own changes are kept. Says what changed.
    pub fn renew_preset(&mut self) -> Option<String> {
        let named = crate::compare::NamedPreset::named(self.preset_name.as_deref()?)?;
        let as_chosen = self.preset_as_chosen?;
        if self.preset() != as_chosen || as_chosen == named.preset {
            return None;
        }
        let changed = differences(&as_chosen, &named.preset);
        self.thresholds = named.preset.thresholds;
        self.refine = named.preset.refine;
        self.rules = named.preset.rules;
        self.chance_search = named.preset.chance_search;
        self.preset_as_chosen = Some(named.preset);
        Some(format!(
            "The {} preset was re-chosen since you last used simdoc; its values are now in use ({})",
            named.title,
            changed.join(", ")
        ))
    }

    /// Puts `path` first in the recent files.
    pub fn remember(&mut self, path: &Path) {
        self.recent_files.retain(|p| p != path);
        self.recent_files.insert(0, path.to_path_buf());
        self.recent_files.truncate(RECENT_FILES);
    }
}

/// How matching configuration `to` differs from `from`, value by value, in words ("permission
/// 0.4 (was 0.5)"); the options that are not single numbers are named only.
pub fn differences(from: &Preset, to: &Preset) -> Vec<String> {
    let mut out = Vec::new();
    let mut number = |name: &str, was: f64, now: f64| {
        if was != now {
            out.push(format!("{name} {now} (was {was})"));
        }
    };
    number(
        "permission",
        from.thresholds.permission,
        to.thresholds.permission,
    );
    number(
        "variation",
        from.thresholds.variation,
        to.thresholds.variation,
    );
    number(
        "minimum words",
        f64::from(from.thresholds.min_words),
        f64::from(to.thresholds.min_words),
    );
    if from.thresholds.max_e_value != to.thresholds.max_e_value {
        out.push("the chance bar".to_string());
    }
    if from.refine != to.refine {
        out.push("the refinement".to_string());
    }
    if from.rules != to.rules {
        out.push("the matching rules".to_string());
    }
    if from.chance_search != to.chance_search {
        out.push("judging against chance".to_string());
    }
    out
}

/// A document loaded for one side.
#[derive(Clone, Debug)]
pub struct LoadedDoc {
    pub path: PathBuf,
    pub doc: Arc<Document>,
}

impl LoadedDoc {
    /// The name shown for the document: its file name.
    pub fn file_name(&self) -> String {
        self.path.file_name().map_or_else(
            || self.path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    }
}

/// What a finished comparison job produced.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub docs: [LoadedDoc; 2],
    pub prepared: Arc<PreparedPair>,
    pub comparison: Comparison,
    /// The options it was compared under (the word view refines as they say).
    pub options: CompareOptions,
    /// Per document, per sentence: left out by the exclusions (a quotation, the bibliography),
    /// shown dimmed and saying so when hovered.
    pub left_out: [Vec<Option<LeftOut>>; 2],
}

impl Analysis {
    pub fn new(
        docs: [LoadedDoc; 2],
        prepared: Arc<PreparedPair>,
        comparison: Comparison,
        options: CompareOptions,
    ) -> Analysis {
        let left_out = [&docs[0].doc, &docs[1].doc].map(|doc| options.exclusions.reasons(doc));
        Analysis {
            docs,
            prepared,
            comparison,
            options,
            left_out,
        }
    }
}

/// The strongest match of one sentence, for highlighting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SentenceMark {
    pub tier: Tier,
    /// The smaller directional score of its best pair.
    pub score: f64,
    /// Index into [`View::matches`] of that pair.
    pub pair: usize,
}

/// For each sentence of one side, the indices of its pairs, in one flat array (CSR): no
/// allocation per sentence, which matters at 100,000 matches.
#[derive(Clone, Debug, Default)]
struct Partners {
    /// `offsets[s]..offsets[s + 1]` indexes `pairs` for sentence `s`.
    offsets: Vec<u32>,
    pairs: Vec<u32>,
}

impl Partners {
    fn new(sentences: usize, positions: impl Iterator<Item = u32> + Clone) -> Partners {
        let mut offsets = vec![0u32; sentences + 1];
        for position in positions.clone() {
            if let Some(o) = offsets.get_mut(position as usize + 1) {
                *o += 1;
            }
        }
        for s in 0..sentences {
            offsets[s + 1] += offsets[s];
        }
        let mut fill = offsets.clone();
        let mut pairs = vec![0u32; offsets[sentences] as usize];
        for (index, position) in positions.enumerate() {
            if let Some(at) = fill.get_mut(position as usize)
                && (position as usize) < sentences
            {
                pairs[*at as usize] = index as u32;
                *at += 1;
            }
        }
        Partners { offsets, pairs }
    }

    fn of(&self, position: usize) -> &[u32] {
        match (self.offsets.get(position), self.offsets.get(position + 1)) {
            (Some(&a), Some(&b)) => &self.pairs[a as usize..b as usize],
            _ => &[],
        }
    }
}

/// Everything the panels draw that depends on the thresholds.
#[derive(Clone, Debug)]
pub struct View {
    /// Distinct for every view ever made, so panels can cache what they derive from one.
    pub id: u64,
    pub thresholds: Thresholds,
    pub figures: Figures,
    /// EQ pairs, sorted by (left, right).
    pub matches: Vec<ScoredPair>,
    /// Per side, per sentence position: its strongest match.
    pub marks: [Vec<Option<SentenceMark>>; 2],
    /// Per side: indices into `matches` of every pair each sentence is in (see
    /// [`View::pairs_of`]).
    partners: [Partners; 2],
    pub trees: TreeMatching,
    /// Runs of matches along a diagonal, sorted by their first A sentence.
    pub passages: Vec<Passage>,
    /// For each match, the index of its passage in `passages`, if it is in one.
    pub passage_of: Vec<Option<u32>>,
    /// What was added, deleted, changed or moved from A to B, and the alignment the texts
    /// scroll along ([`crate::compare::changes`]).
    pub changes: Changes,
}

impl View {
    /// Derives the view of `analysis` under `thresholds`: filtering, no rescoring. It runs on
    /// the UI thread each time a slider moves, within the frame (`examples/bench_viewer` times
    /// it and its parts). Splitting it over two threads was tried and was slower: each half
    /// allocates large vectors, and a second thread paid for fresh memory.
    pub fn new(analysis: &Analysis, thresholds: Thresholds, passages: PassageOptions) -> View {
        let comparison = &analysis.comparison;
        let matches: Vec<ScoredPair> = comparison.matches(&thresholds).copied().collect();
        let counts = [
            analysis.docs[0].doc.sentences.len(),
            analysis.docs[1].doc.sentences.len(),
        ];
        let (passages, passage_of) = passages_of(comparison, &matches, &thresholds, passages);
        // The library's change list, the one every report lists.
        let changes = comparison.changes(
            [&analysis.docs[0].doc, &analysis.docs[1].doc],
            &matches,
            &thresholds,
        );
        static NEXT_ID: AtomicU64 = AtomicU64::new(0);
        View {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            thresholds,
            figures: comparison.figures_given(&matches, &thresholds),
            trees: comparison.tree_matching_of(
                &analysis.docs[0].doc,
                &analysis.docs[1].doc,
                &matches,
            ),
            partners: [
                Partners::new(counts[0], matches.iter().map(|p| p.left)),
                Partners::new(counts[1], matches.iter().map(|p| p.right)),
            ],
            marks: strongest_marks(&matches, counts),
            matches,
            passages,
            passage_of,
            changes,
        }
    }
}

/// Per side, each sentence's strongest match among `matches` (identical before similar, then
/// the higher smaller Sim), for sides of `counts` sentences.
fn strongest_marks(matches: &[ScoredPair], counts: [usize; 2]) -> [Vec<Option<SentenceMark>>; 2] {
    let mut marks: [Vec<Option<SentenceMark>>; 2] = [vec![None; counts[0]], vec![None; counts[1]]];
    for (index, pair) in matches.iter().enumerate() {
        let tier = if pair.identical {
            Tier::Identical
        } else {
            Tier::Similar
        };
        let mark = SentenceMark {
            tier,
            score: pair.min_sim(),
            pair: index,
        };
        for (side, position) in [(0, pair.left), (1, pair.right)] {
            let Some(slot) = marks[side].get_mut(position as usize) else {
                continue;
            };
            let better = slot.is_none_or(|m| (mark.tier, -mark.score) < (m.tier, -m.score));
            if better {
                *slot = Some(mark);
            }
        }
    }
    marks
}

impl View {
    /// Indices into [`View::matches`] of the pairs the sentence at `position` of `side` is in.
    pub fn pairs_of(&self, side: Side, position: usize) -> &[u32] {
        self.partners[side.index()].of(position)
    }
}

/// What the user picked; every panel reads it and may change it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Selection {
    /// The selected pair (positions), if any.
    pub pair: Option<(u32, u32)>,
    /// A selected sentence without a pair (an unmatched one).
    pub sentence: Option<(Side, u32)>,
    /// A selected hierarchy node.
    pub node: Option<(Side, NodeId)>,
    /// One-shot requests for the text panes to bring a sentence into view.
    pub scroll_to: [Option<u32>; 2],
    /// The selected passage (index into [`View::passages`]).
    pub passage: Option<usize>,
}

impl Selection {
    /// Selects a matched pair and asks both panes to show it.
    pub fn select_pair(&mut self, pair: &ScoredPair) {
        self.pair = Some((pair.left, pair.right));
        self.sentence = None;
        self.node = None;
        self.passage = None;
        self.scroll_to = [Some(pair.left), Some(pair.right)];
    }

    /// Selects a passage and its first pair, and asks both panes to show its start.
    pub fn select_passage(&mut self, view: &View, index: usize) {
        let Some(passage) = view.passages.get(index) else {
            return;
        };
        if let Some(first) = passage.members.first().and_then(|&m| view.matches.get(m)) {
            self.select_pair(first);
        }
        self.passage = Some(index);
    }

    /// Whether the sentence at `position` of `side` is part of the selection.
    pub fn is_selected(&self, side: Side, position: u32) -> bool {
        let in_pair = self.pair.is_some_and(|(l, r)| match side {
            Side::Left => l == position,
            Side::Right => r == position,
        });
        in_pair || self.sentence == Some((side, position))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Settings saved while a preset's values were older: untouched, they take the preset's
    /// values now and say so; changed by the user, they are kept.
    #[test]
    fn a_saved_preset_takes_its_new_values_unless_the_user_changed_them() {
        let old_documents = Preset {
            thresholds: Thresholds {
                permission: 0.5,
                ..Preset::DOCUMENTS.thresholds
            },
            ..Preset::DOCUMENTS
        };
        let saved = Settings::with_preset(old_documents);
        let saved = Settings {
            preset_name: Some("documents".to_string()),
            ..saved
        };
        let mut renewed = saved.clone();
        let note = renewed.renew_preset().expect("a note");
        assert_eq!(renewed.preset(), Preset::DOCUMENTS);
        assert!(
            note.starts_with("The Documents preset was re-chosen")
                && note.contains(&format!(
                    "permission {} (was 0.5)",
                    Preset::DOCUMENTS.thresholds.permission
                )),
            "{note}"
        );
        // Changed by the user after choosing it: kept.
        let mut edited = Settings {
            thresholds: Thresholds {
                permission: 0.7,
                ..saved.thresholds
            },
            ..saved
        };
        let before = edited.clone();
        assert_eq!(edited.renew_preset(), None);
        assert_eq!(edited, before);
        // Up to date: nothing to say.
        let mut current = Settings::default();
        assert_eq!(current.renew_preset(), None);
        assert_eq!(current.preset_name.as_deref(), Some("documents"));
    }
}
