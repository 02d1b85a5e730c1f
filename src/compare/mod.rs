//! Two documents to a [`Comparison`]: scored sentence pairs, figures, tree matching, passages
//! (runs of matches, [`passages`]) and the word-by-word view of a matched pair ([`alignment`]).
//!
//! *Compute once, threshold live*: a comparison scores every pair with a directional score at
//! or above a floor (default [`DEFAULT_FLOOR`], the lowest preset permission), finds the
//! one-to-two matches among them, and keeps both scores of the pairs that matches and
//! containment can need at that floor or above ([`pruning`]), so that moving a threshold never
//! re-runs the matcher. Any thresholds with a permission at or above the floor are then applied by
//! filtering ([`Comparison::matches`]), without rescoring; only a permission below the floor
//! needs a new comparison ([`Comparison::covers`]).

pub mod alignment;
pub mod chance;
pub mod changes;
pub mod class_figures;
pub mod classes;
pub mod counting;
pub mod figures;
pub mod joined;
mod matches;
pub(crate) mod partners_capped;
pub mod passages;
pub mod preset;
pub mod pruning;
pub mod tree;

use rustc_hash::FxHashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::document::Document;
use crate::document::exclusions::Exclusions;
use crate::similarity::lexical::WithoutLexicon;
use crate::similarity::{
    Cancelled, CappedPairs, Explanation, MatchRules, Method, ModelView, NeededPairs, PARTNERS_KEPT,
    PartnersKept, PreparedDoc, ScoredPair, ScoringRequest, TermId, Thresholds, Vocabulary,
};
use crate::text::RefineOptions;

pub use alignment::{AlignedWord, WordAlignment, WordMatch};
pub use classes::{CappedPartners, MOST_CAPPED_NOTES, SentenceClasses, capped_notes};
pub use figures::Figures;
pub use partners_capped::PartnersCapped;
pub use passages::Passage;
pub use preset::{NamedPreset, Preset};
pub use tree::{NodeEdge, NodeMatch, TreeMatching};

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
    pub chance: Option<chance::ChanceOptions>,
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
            chance: preset.chance,
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
            chance: None,
            exclusions: Exclusions::default(),
            partners_kept: PARTNERS_KEPT,
        }
    }
}

/// Two documents' sentences prepared with one shared vocabulary, and the rules they are
/// matched under.
#[derive(Clone, Debug)]
pub struct PreparedPair {
    pub vocabulary: Vocabulary,
    pub left: PreparedDoc,
    pub right: PreparedDoc,
    pub include_boilerplate: bool,
    pub rules: MatchRules,
    /// Per document, per sentence: whether it counts towards the figures ([`counting`]).
    pub counted: [Vec<bool>; 2],
    /// Look for one-to-two matches ([`joined`]).
    pub one_to_two: bool,
    /// Judge matches against chance ([`chance`]).
    pub chance: Option<chance::ChanceOptions>,
    /// The words of each sentence of both documents ([`Comparison::words`]).
    pub words: [Arc<[u32]>; 2],
    /// What was left out besides boilerplate.
    pub exclusions: Exclusions,
    /// [`CompareOptions::partners_kept`].
    pub partners_kept: usize,
}

impl PreparedPair {
    /// Prepares both documents as `options` says (its method and floor are not used here).
    pub fn new(
        left: &Document,
        right: &Document,
        model: &dyn ModelView,
        options: &CompareOptions,
    ) -> Self {
        // Each term's WordNet lemmas are kept only under rules that read them (memory).
        let without_lexicon = WithoutLexicon(model);
        let model: &dyn ModelView = if options.rules.reads_wordnet() {
            model
        } else {
            &without_lexicon
        };
        let mut vocabulary = Vocabulary::new(model);
        let include = options.include_boilerplate;
        let mut prepared_left = vocabulary.prepare_with(left, model, include, &options.refine);
        let mut prepared_right = vocabulary.prepare_with(right, model, include, &options.refine);
        if !include {
            // Each side reads the other's terms only, which propagation leaves as they are (it
            // changes which sentences are included): no copy of either is needed (copying both
            // was a quarter of the peak memory of a document of one-letter paragraphs).
            counting::propagate_boilerplate(left, &mut prepared_left, right, &prepared_right);
            counting::propagate_boilerplate(right, &mut prepared_right, left, &prepared_left);
        }
        prepared_left.leave_out(left, &options.exclusions);
        prepared_right.leave_out(right, &options.exclusions);
        let counted = [(left, &prepared_left), (right, &prepared_right)].map(|(doc, prepared)| {
            let active = active_mask(prepared);
            if options.count_fragments {
                active
            } else {
                counting::counted_mask(doc, prepared, &active)
            }
        });
        PreparedPair {
            vocabulary,
            left: prepared_left,
            right: prepared_right,
            include_boilerplate: include,
            rules: options.rules,
            counted,
            one_to_two: options.one_to_two,
            chance: options.chance,
            words: passages::sentence_words([left, right]).map(Arc::from),
            exclusions: options.exclusions,
            partners_kept: options.partners_kept,
        }
    }

    /// Scores the pair with `method` down to `floor`. Sentences that are equal once prepared
    /// are scored once, as a class ([`classes`]); the pairs listed are bounded whatever the
    /// repetition.
    pub fn compare(
        &self,
        model: &dyn ModelView,
        method: Method,
        floor: f64,
        cancel: &AtomicBool,
    ) -> Result<Comparison, Cancelled> {
        let (left_classes, left_representatives) = SentenceClasses::group(&self.left);
        let (right_classes, right_representatives) = SentenceClasses::group(&self.right);
        if let Some(options) = self.chance.filter(|_| method.is_graded()) {
            let reference = chance::null::reference_rates(model, &self.vocabulary);
            let found = chance::search::search(
                &chance::search::SearchRequest {
                    docs: [&self.left, &self.right],
                    classes: [
                        (&left_classes, &left_representatives),
                        (&right_classes, &right_representatives),
                    ],
                    model,
                    reference: reference
                        .as_ref()
                        .map(|r| r as &(dyn Fn(TermId) -> f64 + Sync)),
                    method,
                    rules: &self.rules,
                    options: &options,
                    right_parts: &[],
                },
                cancel,
            )?;
            // Under the verdict, a link's probability decides whether it may be one (it takes
            // the place of the larger Sim, [`ScoredPair::is_link`]); chance still decides whether
            // the links are evidence.
            let mut pairs = found.pairs;
            self.apply_verdict(&mut pairs, [&self.left, &self.right], model, method);
            return Ok(Comparison {
                method,
                floor: 0.0,
                include_boilerplate: self.include_boilerplate,
                active: [active_mask(&self.left), active_mask(&self.right)],
                counted: self.counted.clone(),
                pairs,
                joined: Vec::new(),
                classes: [left_classes, right_classes],
                class_pairs: Vec::new(),
                capped: found.capped,
                partners_capped: PartnersCapped::default(),
                chance: Some(found.evidence),
                words: self.words.clone(),
                exclusions: self.exclusions,
                decided_by_verdict: self.decides_by_verdict(model, method),
            });
        }
        // Only the one-way pairs that pruning and one-to-two matches use are kept as they are
        // scored (a subset of all pairs at the floor that gives the same result).
        let neighbours = [&left_classes, &right_classes]
            .map(|classes| classes::neighbours(classes, self.one_to_two));
        let needed = NeededPairs::WithOneWay {
            left: &neighbours[0],
            right: &neighbours[1],
        };
        // Each class keeps its few best partners at the floor both ways: templated lines (a
        // table, a list) would otherwise pair all with all. A class counts when one of its
        // sentences does (a line may repeat as a heading and in the text).
        let class_counted = [(&left_classes, 0), (&right_classes, 1)].map(|(classes, side)| {
            (0..classes.len() as u32)
                .map(|class| {
                    classes
                        .members(class)
                        .iter()
                        .any(|&p| self.counted[side].get(p as usize) == Some(&true))
                })
                .collect::<Vec<bool>>()
        });
        let CappedPairs {
            pairs: mut class_pairs,
            capped: capped_classes,
        } = method.matcher().score_capped_pairs(
            &ScoringRequest {
                left: &left_representatives,
                right: &right_representatives,
                model,
                floor,
                rules: &self.rules,
            },
            needed,
            PartnersKept::counting(self.partners_kept, [&class_counted[0], &class_counted[1]]),
            cancel,
        )?;
        let partners_capped = PartnersCapped::of_classes(
            capped_classes,
            [&left_classes, &right_classes],
            self.partners_kept,
        );
        self.apply_verdict(
            &mut class_pairs,
            [&left_representatives, &right_representatives],
            model,
            method,
        );
        let mut comparison = self.assemble(
            class_pairs,
            [left_classes, right_classes],
            model,
            method,
            floor,
        );
        comparison.partners_capped = partners_capped;
        Ok(comparison)
    }

    /// [`Self::compare`] from every pair at the floor instead of the needed ones: what the
    /// needed pairs must give the same result as.
    #[cfg(test)]
    pub(crate) fn compare_keeping_every_pair(
        &self,
        model: &dyn ModelView,
        method: Method,
        floor: f64,
    ) -> Comparison {
        let (left_classes, left_representatives) = SentenceClasses::group(&self.left);
        let (right_classes, right_representatives) = SentenceClasses::group(&self.right);
        let never = AtomicBool::new(false);
        let mut class_pairs = method
            .matcher()
            .score_pairs(
                &ScoringRequest {
                    left: &left_representatives,
                    right: &right_representatives,
                    model,
                    floor,
                    rules: &self.rules,
                },
                &never,
            )
            .expect("never cancelled");
        self.apply_verdict(
            &mut class_pairs,
            [&left_representatives, &right_representatives],
            model,
            method,
        );
        self.assemble(
            class_pairs,
            [left_classes, right_classes],
            model,
            method,
            floor,
        )
    }

    /// The comparison from the scored pairs of the two sides' classes: the pairs listed,
    /// one-to-two matches and pruning.
    fn assemble(
        &self,
        mut class_pairs: Vec<ScoredPair>,
        [left_classes, right_classes]: [SentenceClasses; 2],
        model: &dyn ModelView,
        method: Method,
        floor: f64,
    ) -> Comparison {
        class_pairs.sort_unstable_by_key(|p| (p.left, p.right));
        let (pairs, capped) = classes::expand(&class_pairs, [&left_classes, &right_classes]);
        if left_classes.all_single() && right_classes.all_single() {
            // Ordinary prose: the class pairs are the pairs; keep one copy.
            class_pairs = Vec::new();
        }
        let mut joined = if self.one_to_two {
            joined::find(
                &pairs,
                &self.left,
                &self.right,
                method,
                model,
                &self.rules,
                floor,
            )
        } else {
            Vec::new()
        };
        self.apply_verdict(&mut joined, [&self.left, &self.right], model, method);
        let pairs = pruning::keep_needed(
            pairs,
            floor,
            self.left.sentences.len(),
            self.right.sentences.len(),
        );
        Comparison {
            method,
            floor,
            decided_by_verdict: self.decides_by_verdict(model, method),
            include_boilerplate: self.include_boilerplate,
            active: [active_mask(&self.left), active_mask(&self.right)],
            counted: self.counted.clone(),
            pairs,
            joined,
            classes: [left_classes, right_classes],
            class_pairs,
            capped,
            partners_capped: PartnersCapped::default(),
            chance: None,
            words: self.words.clone(),
            exclusions: self.exclusions,
        }
    }

    /// Under rules that decide by the learned verdict, sets each pair's probability (one place
    /// for every path: [`crate::similarity::verdict::Verdict::assign`]). Pairs are between
    /// sentences of `docs` (the classes' representatives, or the documents for one-to-two
    /// pairs). A model without a usable verdict leaves the pairs to their Sims; the command line
    /// refuses such a model first ([`crate::similarity::lexical::require`]).
    fn apply_verdict(
        &self,
        pairs: &mut [ScoredPair],
        [left, right]: [&PreparedDoc; 2],
        model: &dyn ModelView,
        method: Method,
    ) {
        if !self.decides_by_verdict(model, method) {
            return;
        }
        if let Some(Ok(verdict)) = crate::similarity::verdict::Verdict::of(model) {
            verdict.assign(pairs, left, right, &self.vocabulary, model);
        }
    }

    /// Whether pairs are decided by the learned verdict: the rules ask for it, the method is
    /// graded and the model has a verdict this simdoc can apply.
    fn decides_by_verdict(&self, model: &dyn ModelView, method: Method) -> bool {
        self.rules.verdict
            && method.is_graded()
            && matches!(crate::similarity::verdict::Verdict::of(model), Some(Ok(_)))
    }

    /// Explains why two sentences (by position) scored what they did.
    pub fn explain(
        &self,
        model: &dyn ModelView,
        method: Method,
        left: usize,
        right: usize,
    ) -> Option<Explanation> {
        let l = self.left.sentences.get(left)?;
        let r = self.right.sentences.get(right)?;
        Some(
            method
                .matcher()
                .explain(l, r, &self.vocabulary, model, &self.rules),
        )
    }
}

/// Which sentences take part: included (not boilerplate, unless asked) and with refined terms.
fn active_mask(doc: &PreparedDoc) -> Vec<bool> {
    let mut mask = vec![false; doc.sentences.len()];
    for (i, _) in doc.active() {
        mask[i as usize] = true;
    }
    mask
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
    pub chance: Option<chance::ChanceEvidence>,
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
            chance: None,
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
            || self.chance.is_some()
            || self.decided_by_verdict
            || thresholds.permission >= self.floor
    }

    /// Whether the figures under `thresholds` are counted over [`Self::matches`] alone, not from
    /// every pair at the permission: when matches are judged against chance (only evidence
    /// counts), and when [`Thresholds::min_words`] leaves out short runs (a sentence whose
    /// matches were left out must not count through its one-way pairs). The pairs of repeated
    /// sentences listed only in part ([`Self::capped`]) then count as listed.
    fn counts_matches_only(&self, thresholds: &Thresholds) -> bool {
        self.chance.is_some() || thresholds.min_words > 0
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
            chance: self.chance.as_ref().map(chance::ChanceEvidence::swapped),
            words: [self.words[1].clone(), self.words[0].clone()],
            exclusions: self.exclusions,
        }
    }
}

#[cfg(test)]
mod tests;
