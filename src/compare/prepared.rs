//! Two documents prepared for comparing ([`PreparedPair`]) and scored into a [`Comparison`]:
//! refining with one shared vocabulary, boilerplate and exclusions, which sentences count,
//! then the matcher over the sentences' repetition classes, one-to-two matches, pruning and the
//! learned verdict. Apart from [`Comparison`] itself, which only reads the scored pairs.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::document::Document;
use crate::document::exclusions::Exclusions;
use crate::similarity::lexical::WithoutLexicon;
use crate::similarity::{
    Cancelled, CappedPairs, Explanation, MatchRules, Method, ModelView, NeededPairs, PartnersKept,
    PreparedDoc, ScoredPair, ScoringRequest, TermId, Vocabulary,
};

use super::{
    CompareOptions, Comparison, PartnersCapped, SentenceClasses, chance, classes, counting, joined,
    passages, pruning,
};

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
    pub chance_search: Option<chance::ChanceSearch>,
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
        PreparedPair::leaving_out(left, right, model, options, [&[], &[]])
    }

    /// [`PreparedPair::new`] with the sentences marked in `left_out` (per side, by position;
    /// a shorter mask leaves the rest in) taking no part, as boilerplate takes none: the text a
    /// collection's documents have in common ([`crate::collection::fuzzy::common_text`]).
    pub fn leaving_out(
        left: &Document,
        right: &Document,
        model: &dyn ModelView,
        options: &CompareOptions,
        left_out: [&[bool]; 2],
    ) -> Self {
        // Each term's WordNet lemmas are kept only under rules, or a search judged against
        // chance, that read them (memory).
        let without_lexicon = WithoutLexicon(model);
        let reads_wordnet = options.rules.reads_wordnet()
            || options
                .chance_search
                .is_some_and(|search| !search.related_evidence.is_off());
        let model: &dyn ModelView = if reads_wordnet {
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
        prepared_left.leave_out_marked(left_out[0]);
        prepared_right.leave_out_marked(left_out[1]);
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
            chance_search: options.chance_search,
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
        if let Some(options) = self.chance_search.filter(|_| method.is_graded()) {
            // The search reads each class's representative in place.
            let left_classes = SentenceClasses::of(&self.left);
            let right_classes = SentenceClasses::of(&self.right);
            let reference = chance::null::reference_rates(model, &self.vocabulary);
            let found = chance::search::search(
                &chance::search::SearchRequest {
                    docs: [&self.left, &self.right],
                    classes: [&left_classes, &right_classes],
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
                link_surprises: Some(found.evidence),
                words: self.words.clone(),
                exclusions: self.exclusions,
                decided_by_verdict: self.decides_by_verdict(model, method),
            });
        }
        let (left_classes, left_representatives) = SentenceClasses::group(&self.left);
        let (right_classes, right_representatives) = SentenceClasses::group(&self.right);
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
            link_surprises: None,
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
pub(super) fn active_mask(doc: &PreparedDoc) -> Vec<bool> {
    let mut mask = vec![false; doc.sentences.len()];
    for (i, _) in doc.active() {
        mask[i as usize] = true;
    }
    mask
}
