//! Submission pairs ranked by the evidence left once the sources' text is discounted.
//!
//! In a class whose sources were marked, most pairs of submissions share text because both
//! students took it from the same source. Ranked by the raw score, those pairs crowd out the
//! pair that shares text of its own: on the Clough-Stevenson answers the one real shared
//! non-source text between two students ranked #139 of 231, below ten pairs that read 0% once
//! the sources' text is left out (issue 41). The teacher's question is the text two students
//! share *beyond* the sources, so that is the key the submission-submission pairs are ranked
//! by: the larger of the pair's two containments with the sources' text left out
//! ([`SourceDiscount::containment`]), the same "larger share" the raw score of a judged run
//! is. Ties (every pair whose shared text is all the sources' reads 0) keep their raw order;
//! pairs without a discount (past the budget, or `--evidence` smaller than the list) follow, in
//! their raw order. The raw score stays on every pair: the ranking changes, not the figures.
//!
//! Pairs are re-ranked rather than dropped: a pair whose text is all the sources' may still be
//! two students who copied the same source into the same places, which the teacher may want to
//! see, below the pairs that share text of their own.

use super::source_discount::SourceDiscount;

/// The ranking key of a discounted pair: the larger share left without the sources' text.
pub fn discounted_share(discount: &SourceDiscount) -> f64 {
    discount.containment[0].max(discount.containment[1])
}

/// The new order of submission-submission pairs given in their raw order with their discounts
/// (`None`: not computed): `order[new] = old`. Discounted pairs first, by
/// [`discounted_share`] descending; ties and the pairs without a discount keep their raw order.
pub fn discounted_order(discounts: &[Option<&SourceDiscount>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..discounts.len()).collect();
    let key = |i: usize| {
        discounts
            .get(i)
            .copied()
            .flatten()
            .map_or(f64::NEG_INFINITY, discounted_share)
    };
    // Stable: equal keys keep the raw ranking (score, then document order).
    order.sort_by(|&x, &y| key(y).total_cmp(&key(x)));
    order
}

/// The note telling the reader how the submission-submission pairs are ranked, when `ranked`
/// of their `total` were ranked by the discounted evidence.
pub fn ranking_note(ranked: usize, total: usize) -> Option<String> {
    if ranked == 0 {
        return None;
    }
    let which = if ranked < total {
        format!(
            "the first {ranked} of {total} submission-submission pairs (by score) are ranked \
             by the larger share left once the text found in a marked source is left out, then \
             by score; the other {} follow by score (their discount was not computed: \
             --evidence or the comparison budget)",
            total - ranked
        )
    } else {
        format!(
            "the {total} submission-submission pair{} ranked by the larger share left once the \
             text found in a marked source is left out, then by score",
            if total == 1 { " is" } else { "s are" }
        )
    };
    Some(format!(
        "{which}; the score shown is the raw one, with the sources' text"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn discount(a_in_b: f64, b_in_a: f64) -> SourceDiscount {
        SourceDiscount {
            containment: [a_in_b, b_in_a],
            matched_sentences: [1, 1],
            found_in_sources: [0, 0],
        }
    }

    #[test]
    fn pairs_sharing_text_of_their_own_rank_before_pairs_sharing_only_the_sources() {
        // Raw order: two pairs whose shared text is all the sources' (0 left), then a pair
        // with 20% of its own, one with 5%, and one whose discount was not computed.
        let only_sources = discount(0.0, 0.0);
        let own = discount(0.2, 0.1);
        let little = discount(0.0, 0.05);
        let discounts = [
            Some(&only_sources),
            Some(&only_sources),
            Some(&own),
            None,
            Some(&little),
        ];
        assert_eq!(discounted_order(&discounts), [2, 4, 0, 1, 3]);
    }

    #[test]
    fn without_discounts_the_raw_order_stays() {
        assert_eq!(discounted_order(&[None, None, None]), [0, 1, 2]);
        assert_eq!(discounted_order(&[]), Vec::<usize>::new());
    }

    #[test]
    fn the_note_says_how_many_pairs_were_ranked_so() {
        assert_eq!(ranking_note(0, 4), None);
        let all = ranking_note(4, 4).expect("a note");
        assert!(
            all.starts_with("the 4 submission-submission pairs are ranked"),
            "{all}"
        );
        let some = ranking_note(3, 10).expect("a note");
        assert!(
            some.contains("the first 3 of 10") && some.contains("other 7"),
            "{some}"
        );
    }
}
