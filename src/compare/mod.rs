//! Two documents to a [`Comparison`]: scored sentence pairs, figures, tree matching, passages
//! (runs of matches, [`passages`]) and the word-by-word view of a matched pair ([`word_alignment`]).
//!
//! *Compute once, threshold live*: a comparison scores every pair with a directional score at
//! or above a floor (default [`DEFAULT_FLOOR`], the lowest preset permission), finds the
//! one-to-two matches among them, and keeps both scores of the pairs that matches and
//! containment can need at that floor or above ([`pruning`]), so that moving a threshold never
//! re-runs the matcher. Any thresholds with a permission at or above the floor are then applied by
//! filtering ([`Comparison::matches`]), without rescoring; only a permission below the floor
//! needs a new comparison ([`Comparison::covers`]).

pub mod chance;
pub mod changes;
pub(crate) mod class_figures;
pub(crate) mod classes;
pub(crate) mod counting;
pub(crate) mod figures;
pub(crate) mod joined;
mod matches;
pub(crate) mod partners_capped;
pub mod passages;
mod prepared;
pub(crate) mod preset;
pub mod pruning;
pub(crate) mod tree;
pub(crate) mod word_alignment;

use rustc_hash::FxHashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::document::Document;
use crate::document::exclusions::Exclusions;
use crate::similarity::{
    Cancelled, MatchRules, Method, ModelView, PARTNERS_KEPT, ScoredPair, Thresholds,
};
use crate::text::RefineOptions;

pub use classes::{CappedPartners, MOST_CAPPED_NOTES, SentenceClasses, capped_notes};
pub use figures::Figures;
pub use partners_capped::PartnersCapped;
pub use passages::Passage;
pub use prepared::PreparedPair;
pub use preset::{NamedPreset, Preset};
pub use tree::{NodeEdge, NodeMatch, TreeMatching};
pub use word_alignment::{AlignedWord, WordAlignment, WordMatch};

/// The default floor: pairs scoring below it in both directions are not kept. The measured
/// preset's permission, so that every preset is applied by filtering.
pub const DEFAULT_FLOOR: f64 = 0.4;

/// The floor a comparison under `rules` and `thresholds` scores down to: [`DEFAULT_FLOOR`], or
/// the permission when it is lower, so that the thresholds apply by filtering. Under the
/// learned verdict the permission is a probability, not a Sim, and the floor stays the
/// default (the verdict then judges the pairs the floor lets through).
pub fn floor_for(rules: &MatchRules, thresholds: &Thresholds) -> f64 {
    if rules.verdict {
        DEFAULT_FLOOR
    } else {
        DEFAULT_FLOOR.min(thresholds.permission)
    }
}

/// How to compare.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CompareOptions {
    pub method: Method,
    /// Pairs whose smaller directional score is below this are not kept.
    pub floor: f64,
    /// Compare boilerplate (navigation, footers, ...) too.
    pub include_boilerplate: bool,
    /// What refining keeps besides content words.
    pub refine: RefineOptions,
    /// Which pairs may match at all.
    pub rules: MatchRules,
    /// Count headings, titles and short fragments towards the figures too ([`counting`]).
    pub count_fragments: bool,
    /// Match split and merged sentences one-to-two ([`joined`]).
    pub one_to_two: bool,
    /// Judge matches against chance ([`chance`]): search seeds and links instead of every pair
    /// at the floor. `None`: the thesis's way, every pair whose Sims reach the floor.
    #[serde(default)]
    pub chance_search: Option<chance::ChanceSearch>,
    /// Sentences left out as boilerplate is: quotations, a bibliography
    /// ([`crate::document::exclusions`]). Nothing by default.
    #[serde(default)]
    pub exclusions: Exclusions,
    /// Partners a sentence keeps among those reaching the floor both ways, in a comparison
    /// scored by Sims (not judged against chance) and per source in `simdoc sources`
    /// ([`crate::similarity::partners`]); 0 keeps every pair, as the thesis lists them.
    #[serde(default = "default_partners_kept")]
    pub partners_kept: usize,
}

fn default_partners_kept() -> usize {
    PARTNERS_KEPT
}

impl CompareOptions {
    /// The options of a comparison with `method` under `preset`: its refining, rules and
    /// search, scoring down to the floor its thresholds need ([`floor_for`]), the rest at their
    /// defaults. What every view compares with (`compare`, `sources`, a collection's evidence,
    /// the viewer), so that one preset reads the same everywhere.
    pub fn for_preset(preset: &Preset, method: Method) -> CompareOptions {
        CompareOptions {
            method,
            floor: floor_for(&preset.rules, &preset.thresholds),
            refine: preset.refine,
            rules: preset.rules,
            chance_search: preset.chance_search,
            ..CompareOptions::default()
        }
    }
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            method: Method::Fuzzy,
            floor: DEFAULT_FLOOR,
            include_boilerplate: false,
            refine: Preset::MEASURED.refine,
            rules: Preset::MEASURED.rules,
            count_fragments: false,
            one_to_two: true,
            chance_search: None,
            exclusions: Exclusions::default(),
            partners_kept: PARTNERS_KEPT,
        }
    }
}

/// The scored sentence pairs of two documents, ready to be thresholded.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub method: Method,
    pub floor: f64,
    /// Pairs carry the learned verdict's probability and match by it
    /// ([`crate::similarity::ScoredPair::is_eq`]): the permission is a probability, which any
    /// value applies by filtering.
    pub decided_by_verdict: bool,
    pub include_boilerplate: bool,
    /// Per document, per sentence position: whether the sentence takes part.
    pub active: [Vec<bool>; 2],
    /// Per document, per sentence position: whether the sentence counts towards the figures
    /// (takes part, and is not a heading or a fragment unless asked; [`counting`]).
    pub counted: [Vec<bool>; 2],
    /// Every pair with both directional scores at or above the floor, and each sentence's best
    /// pair among those reaching the floor in its own direction only ([`pruning`]), sorted by
    /// (left, right); for the class pairs in [`Self::capped`], the band listed instead of all
    /// ([`classes`]).
    pub pairs: Vec<ScoredPair>,
    /// The pairs of one-to-two matches ([`joined`]), with the joint Sims, sorted by (left,
    /// right). A pair may also be in `pairs` with its own Sims.
    pub joined: Vec<ScoredPair>,
    /// Each document's repetition classes: sentences equal once prepared.
    pub classes: [SentenceClasses; 2],
    /// The scored pairs of classes (`left` and `right` are class ids), sorted: each stands for
    /// all the pairs of its members. Empty when no sentence repeats on either side (then they
    /// are [`Self::pairs`] renumbered, which [`Self::class_pairs`] derives without a second
    /// copy). Read them through [`Self::class_pairs`].
    pub class_pairs: Vec<ScoredPair>,
    /// The class pairs whose members list only some of their partners in [`Self::pairs`].
    pub capped: Vec<CappedPartners>,
    /// The sentences that list only their best partners at the floor both ways
    /// ([`crate::similarity::partners`]).
    pub partners_capped: PartnersCapped,
    /// When matches are judged against chance: what weighs the passages. [`Self::pairs`] are
    /// then the links found around the seeds, each with its E-value, and [`Self::matches`] the
    /// links of passages unlikely enough by chance ([`chance`]).
    pub link_surprises: Option<chance::LinkSurprises>,
    /// The words of each sentence of both documents ([`passages::word_counts`]): what passages
    /// count and [`Thresholds::min_words`] measures runs of matches by. Counted once, when the
    /// documents are prepared, and shared by every view of the comparison (reports, the viewer,
    /// a collection's evidence).
    pub words: [Arc<[u32]>; 2],
    /// The sentences left out besides boilerplate (their [`Self::active`] flags are off).
    pub exclusions: Exclusions,
}

/// Prepares and compares two documents in one go.
pub fn compare(
    left: &Document,
    right: &Document,
    model: &dyn ModelView,
    options: &CompareOptions,
    cancel: &AtomicBool,
) -> Result<Comparison, Cancelled> {
    PreparedPair::new(left, right, model, options).compare(
        model,
        options.method,
        options.floor,
        cancel,
    )
}

impl Comparison {
    /// A comparison from sentence pairs scored elsewhere (sorted by (left, right), between
    /// active sentences), every sentence its own class: for a source pool's index, tests and
    /// benchmarks. `words` are the two documents' [`passages::sentence_words`].
    pub fn from_sentence_pairs(
        method: Method,
        floor: f64,
        active: [Vec<bool>; 2],
        counted: [Vec<bool>; 2],
        words: [Arc<[u32]>; 2],
        pairs: Vec<ScoredPair>,
        joined: Vec<ScoredPair>,
    ) -> Comparison {
        let classes = [
            SentenceClasses::singletons(&active[0]),
            SentenceClasses::singletons(&active[1]),
        ];
        Comparison {
            method,
            floor,
            decided_by_verdict: false,
            include_boilerplate: false,
            active,
            counted,
            pairs,
            joined,
            classes,
            class_pairs: Vec::new(),
            capped: Vec::new(),
            partners_capped: PartnersCapped::default(),
            link_surprises: None,
            words,
            exclusions: Exclusions::default(),
        }
    }

    /// The scored pairs of repetition classes (see [`Self::class_pairs`] the field), derived
    /// from [`Self::pairs`] when every class is one sentence.
    pub fn class_pairs(&self) -> impl Iterator<Item = ScoredPair> + '_ {
        let derived = self.classes[0].all_single() && self.classes[1].all_single();
        let stored = (!derived).then(|| self.class_pairs.iter().copied());
        let renumbered = derived.then(|| {
            self.pairs.iter().filter_map(|p| {
                Some(ScoredPair {
                    left: self.classes[0].class_of(p.left as usize)?,
                    right: self.classes[1].class_of(p.right as usize)?,
                    ..*p
                })
            })
        });
        stored
            .into_iter()
            .flatten()
            .chain(renumbered.into_iter().flatten())
    }

    /// A test of whether a pair of sentences joins two repetition classes listed only in part
    /// ([`Self::capped`]): such a pair is one of a band standing for many, not a place in the
    /// reading order of both documents.
    pub fn capped_test(&self) -> impl Fn(&ScoredPair) -> bool + '_ {
        let capped: FxHashSet<(u32, u32)> = self
            .capped
            .iter()
            .filter_map(|c| {
                Some((
                    self.classes[0].class_of(c.left as usize)?,
                    self.classes[1].class_of(c.right as usize)?,
                ))
            })
            .collect();
        move |pair: &ScoredPair| {
            !capped.is_empty()
                && match (
                    self.classes[0].class_of(pair.left as usize),
                    self.classes[1].class_of(pair.right as usize),
                ) {
                    (Some(l), Some(r)) => capped.contains(&(l, r)),
                    _ => false,
                }
        }
    }

    /// Whether `thresholds` can be applied by filtering this comparison (permission at or above
    /// the floor); if not, the documents must be compared again with a lower floor.
    pub fn covers(&self, thresholds: &Thresholds) -> bool {
        !self.method.is_graded()
            || self.link_surprises.is_some()
            || self.decided_by_verdict
            || thresholds.permission >= self.floor
    }

    /// Whether the figures under `thresholds` are counted over [`Self::matches`] alone, not from
    /// every pair at the permission: when matches are judged against chance (only evidence
    /// counts), and when [`Thresholds::min_words`] leaves out short runs (a sentence whose
    /// matches were left out must not count through its one-way pairs). The pairs of repeated
    /// sentences listed only in part ([`Self::capped`]) then count as listed.
    fn counts_matches_only(&self, thresholds: &Thresholds) -> bool {
        self.link_surprises.is_some() || thresholds.min_words > 0
    }

    /// Sentences counted in each document (the denominators of the figures).
    pub fn sentence_counts(&self) -> [usize; 2] {
        [
            self.counted[0].iter().filter(|&&a| a).count(),
            self.counted[1].iter().filter(|&&a| a).count(),
        ]
    }

    /// Overlap, resemblance, odds ratio and containment under `thresholds`, from the classes
    /// and their counts: exact however many pairs were listed ([`class_figures`]).
    pub fn figures(&self, thresholds: &Thresholds) -> Figures {
        if self.counts_matches_only(thresholds) {
            // Judged against chance, only the links of the passages that count are matches;
            // with a shortest match, only the runs long enough.
            let matches: Vec<ScoredPair> = self.matches(thresholds).copied().collect();
            return self.figures_of(&matches, thresholds);
        }
        class_figures::figures(self, thresholds)
    }

    /// [`Self::figures`], given the matches under `thresholds` already filtered: counted over
    /// them when no sentence repeats (the same figures, about twice as fast as the class-level
    /// flow: 0.6 against 1.45 ms at 21,000 pairs in `examples/bench_compare`), from the
    /// classes otherwise.
    pub fn figures_given(&self, matches: &[ScoredPair], thresholds: &Thresholds) -> Figures {
        let single = self.classes[0].all_single() && self.classes[1].all_single();
        if single || self.counts_matches_only(thresholds) {
            self.figures_of(matches, thresholds)
        } else {
            self.figures(thresholds)
        }
    }

    /// How many of the matched pairs under `thresholds` are identical, counted from the classes
    /// (all of them, however many are listed).
    pub fn identical_pairs(&self, thresholds: &Thresholds) -> usize {
        if self.counts_matches_only(thresholds) {
            // Judged against chance the matches are the links of the passages that count.
            return self.matches(thresholds).filter(|p| p.identical).count();
        }
        class_figures::identical_pairs(self, thresholds)
    }

    /// Containment both ways, [A in B, B in A]: for each counted sentence its best directional
    /// Sim into the other document among the pairs (single or one-to-two) whose Sim in that
    /// direction reaches the permission, 0 for a sentence without one, averaged over the
    /// document's counted sentences. Directional by nature, so the variation threshold does not
    /// apply. Not in the thesis; see [`figures::Figures::containment`].
    pub fn containment(&self, permission: f64) -> [f64; 2] {
        class_figures::containment(self, permission)
    }

    /// The figures of a set of matches already filtered from this comparison under
    /// `thresholds`, counted pair by pair: the same as [`Self::figures`] when no class pair is
    /// [`Self::capped`] (then the matches are all the pairs), else `common` and `pairs` count
    /// only the pairs listed.
    pub fn figures_of(&self, matches: &[ScoredPair], thresholds: &Thresholds) -> Figures {
        let sentences = self.sentence_counts();
        let mut matched_left = vec![false; self.active[0].len()];
        let mut matched_right = vec![false; self.active[1].len()];
        let mut edges = Vec::with_capacity(matches.len());
        let counted = |side: usize, p: u32| self.counted[side].get(p as usize) == Some(&true);
        let mut pairs = 0;
        for pair in matches {
            if (pair.left as usize) < matched_left.len()
                && (pair.right as usize) < matched_right.len()
            {
                pairs += 1;
            } else {
                continue;
            }
            // Only counted sentences count as matched (a heading matched to a heading is shown,
            // not counted).
            if counted(0, pair.left) && counted(1, pair.right) {
                matched_left[pair.left as usize] = true;
                matched_right[pair.right as usize] = true;
                edges.push((pair.left, pair.right));
            }
        }
        let matched = [
            matched_left.iter().filter(|&&m| m).count(),
            matched_right.iter().filter(|&&m| m).count(),
        ];
        let common = figures::maximum_matching(&edges, matched_left.len(), matched_right.len());
        let containment = if self.counts_matches_only(thresholds) {
            self.containment_of(matches)
        } else {
            self.containment(thresholds.permission)
        };
        Figures::from_counts(sentences, matched, common, containment, pairs)
    }

    /// Containment both ways counted over `matches` only: each counted sentence's best
    /// directional Sim among the matches it is in, 0 without one, averaged. What a comparison
    /// judged against chance reports: only evidence counts, not every pair whose Sim reaches
    /// the permission one way.
    pub fn containment_of(&self, matches: &[ScoredPair]) -> [f64; 2] {
        let mut best = [
            vec![0.0f64; self.counted[0].len()],
            vec![0.0f64; self.counted[1].len()],
        ];
        for pair in matches {
            if let Some(b) = best[0].get_mut(pair.left as usize) {
                *b = b.max(pair.sim_lr);
            }
            if let Some(b) = best[1].get_mut(pair.right as usize) {
                *b = b.max(pair.sim_rl);
            }
        }
        [0, 1].map(|side| {
            let (sum, count) = self.counted[side]
                .iter()
                .zip(&best[side])
                .filter(|(c, _)| **c)
                .fold((0.0, 0usize), |(s, n), (_, b)| (s + b, n + 1));
            figures::ratio_f64(sum, count)
        })
    }

    /// The node-level view under `thresholds` (thesis 4.3).
    pub fn tree_matching(
        &self,
        left: &Document,
        right: &Document,
        thresholds: &Thresholds,
    ) -> TreeMatching {
        tree::match_trees(
            left,
            right,
            [&self.active[0], &self.active[1]],
            self.matches(thresholds),
        )
    }

    /// The node-level view of a set of matches already filtered from this comparison.
    pub fn tree_matching_of(
        &self,
        left: &Document,
        right: &Document,
        matches: &[ScoredPair],
    ) -> TreeMatching {
        tree::match_trees(
            left,
            right,
            [&self.active[0], &self.active[1]],
            matches.iter(),
        )
    }

    /// The same comparison seen from the other document.
    pub fn swapped(&self) -> Comparison {
        let swap = |pairs: &[ScoredPair]| {
            let mut pairs: Vec<ScoredPair> = pairs.iter().map(ScoredPair::swapped).collect();
            pairs.sort_unstable_by_key(|p| (p.left, p.right));
            pairs
        };
        Comparison {
            method: self.method,
            floor: self.floor,
            decided_by_verdict: self.decided_by_verdict,
            include_boilerplate: self.include_boilerplate,
            active: [self.active[1].clone(), self.active[0].clone()],
            counted: [self.counted[1].clone(), self.counted[0].clone()],
            pairs: swap(&self.pairs),
            joined: swap(&self.joined),
            classes: [self.classes[1].clone(), self.classes[0].clone()],
            class_pairs: swap(&self.class_pairs),
            capped: self.capped.iter().map(CappedPartners::swapped).collect(),
            partners_capped: self.partners_capped.swapped(),
            link_surprises: self
                .link_surprises
                .as_ref()
                .map(chance::LinkSurprises::swapped),
            words: [self.words[1].clone(), self.words[0].clone()],
            exclusions: self.exclusions,
        }
    }
}

#[cfg(test)]
mod tests;
