//! A document's sentences scored against each other ([`FuzzyMatcher::pairs_within`],
//! [`FuzzyMatcher::pairs_within_capped`]): a collection's sentences, each pair found from one
//! direction only and kept as the caller makes it, without holding every pair. Apart from the
//! scoring of two documents, which searches both ways.

use super::*;

impl FuzzyMatcher {
    /// What scoring a document against itself (`request.left`, which `request.right` must be:
    /// [`ScoringRequest::within`]) reads: WordNet's relations (when the rules read them), the
    /// view the candidate index reads correlations through, and the floor the content terms
    /// must reach (see `score_indexed`).
    fn within<'m>(
        &self,
        request: &ScoringRequest<'m>,
    ) -> (Option<Lexical<'m>>, IndexedView<'m>, f64) {
        let ScoringRequest {
            left: doc,
            right,
            model,
            floor,
            rules,
        } = *request;
        debug_assert!(
            std::ptr::eq(doc, right),
            "a document against itself is asked for with ScoringRequest::within"
        );
        let lexical = self.lexical(model, rules);
        let indexed = IndexedView::new(self, model, lexical.as_ref(), &[doc]);
        let content_floor = rules
            .content_floor_for(floor, doc.options.keep_stopwords)
            .min(floor);
        (lexical, indexed, content_floor)
    }

    /// The pairs of a document's sentences with each other (each with itself included) that
    /// reach the floor both ways, as `keep` makes them (those it returns `None` for are
    /// dropped): what [`SentenceMatcher::score_needed_pairs`] with [`NeededPairs::BothWays`]
    /// returns for a document against itself, without holding a whole [`ScoredPair`] for each
    /// pair a caller only counts (a collection's sentences: 10.9 million pairs on
    /// Reuters-21578, 40 bytes each). The document is `request.left`, which `request.right` must
    /// be (a request made by [`ScoringRequest::within`]).
    pub fn pairs_within<T: Send>(
        &self,
        request: &ScoringRequest<'_>,
        keep: impl Fn(&ScoredPair) -> Option<T> + Sync,
        cancel: &AtomicBool,
    ) -> Result<Vec<T>, Cancelled> {
        let (lexical, indexed, content_floor) = self.within(request);
        let ScoringRequest {
            left: doc,
            floor,
            rules,
            ..
        } = *request;
        let model = indexed.view();
        if content_floor <= 0.0 {
            // Nothing to prune (see `score_indexed`).
            let all = self.score_pairs_brute_force(&ScoringRequest { model, ..*request });
            return Ok(all
                .iter()
                .filter(|p| p.min_sim() >= floor)
                .filter_map(keep)
                .collect());
        }
        let scoring = Scoring::new(doc, doc, model, rules, lexical, floor, true);
        score_itself_both_ways(doc, model, content_floor, &scoring, keep, cancel)
    }
}

impl FuzzyMatcher {
    /// [`Self::pairs_within`] with each sentence keeping its `kept` best partners at the floor
    /// both ways ([`super::partners`]): a collection of templated lines (8,000 one-line
    /// documents sharing a phrase) costs what the partners kept cost, not the square of the
    /// lines. A pair comes once for each of its sentences that keeps it, either way round (the
    /// caller orders and deduplicates what `keep` makes). Also the sentences that kept fewer
    /// partners than they had (or whose search stopped once it held its best), ascending.
    pub fn pairs_within_capped<T: Send>(
        &self,
        request: &ScoringRequest<'_>,
        kept: usize,
        keep: impl Fn(&ScoredPair) -> Option<T> + Sync,
        cancel: &AtomicBool,
    ) -> Result<(Vec<T>, Vec<u32>), Cancelled> {
        let (lexical, indexed, content_floor) = self.within(request);
        let ScoringRequest {
            left: doc,
            floor,
            rules,
            ..
        } = *request;
        let model = indexed.view();
        if content_floor <= 0.0 {
            // Nothing to prune (see `score_indexed`): every pair scored, then each sentence's
            // best kept.
            let all = self.score_pairs_brute_force(&ScoringRequest { model, ..*request });
            let lens = [doc.sentences.len(); 2];
            let capped = partners::keep_best(
                all,
                floor,
                PartnersKept::best(kept),
                lens,
                Default::default(),
            );
            let pairs = capped.pairs.iter().filter(|p| p.min_sim() >= floor);
            let mut sentences = capped.capped[0].clone();
            sentences.extend(&capped.capped[1]);
            sentences.sort_unstable();
            sentences.dedup();
            return Ok((pairs.filter_map(keep).collect(), sentences));
        }
        let scoring = Scoring::new(doc, doc, model, rules, lexical, floor, true);
        score_itself_capped(doc, model, content_floor, &scoring, kept, keep, cancel)
    }
}
