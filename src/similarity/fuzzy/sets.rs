//! Eq. 3.2-3.3 over two term sets, the one loop every kind of relatedness goes through (the
//! model's correlate rows, or WordNet's relations between the sentences' words), so that the
//! indexed and brute-force paths take their products in the same order and agree bit for bit.

use super::*;

/// c(a, b) looked up in a sorted correlate row; 1 for the same term.
pub(super) fn lookup(row: &[(TermId, f32)], a: TermId, b: TermId) -> f32 {
    if a == b {
        return 1.0;
    }
    row.binary_search_by_key(&b, |&(t, _)| t)
        .map_or(0.0, |i| row[i].1)
}

/// Both directional similarities (eq. 3.2-3.3) of two term sets, given each left term's sorted
/// correlate row. The products are taken in a fixed order (left terms ascending, then right terms
/// ascending), so the indexed and brute-force paths give bit-identical results.
pub(super) fn directional_sims<'r>(
    left: &[TermId],
    right: &[TermId],
    row_of: impl Fn(TermId) -> Option<&'r [(TermId, f32)]>,
    right_products: &mut Vec<f64>,
) -> (f64, f64) {
    sims_of_sets(
        left,
        right,
        |w| row_of(w).unwrap_or(&[]),
        |row, w, k| lookup(row, w, k),
        right_products,
    )
}

/// [`directional_sims`] with `c(w, k)` given for each pair of a left and a right term (1 for the
/// same term), in the same order of products.
pub(super) fn directional_sims_by(
    left: &[TermId],
    right: &[TermId],
    c: &impl Fn(TermId, TermId) -> f32,
    right_products: &mut Vec<f64>,
) -> (f64, f64) {
    sims_of_sets(
        left,
        right,
        |_| (),
        |_, w, k| if w == k { 1.0 } else { c(w, k) },
        right_products,
    )
}

/// Eq. 3.2-3.3 for two term sets: `per_left(w)` is computed once per left term (its correlate
/// row, say) and `c(&that, w, k)` relates it to a right term. The one loop of both kinds of
/// relatedness, so that they take their products in the same order.
pub(super) fn sims_of_sets<R>(
    left: &[TermId],
    right: &[TermId],
    per_left: impl Fn(TermId) -> R,
    c: impl Fn(&R, TermId, TermId) -> f32,
    right_products: &mut Vec<f64>,
) -> (f64, f64) {
    if left.is_empty() || right.is_empty() {
        return (0.0, 0.0);
    }
    right_products.clear();
    right_products.resize(right.len(), 1.0);
    let mut sum_left = 0.0;
    for &w in left {
        let of_w = per_left(w);
        let mut product = 1.0f64;
        for (slot, &k) in right.iter().enumerate() {
            let c = c(&of_w, w, k);
            if c > 0.0 {
                let factor = 1.0 - f64::from(c);
                product *= factor;
                right_products[slot] *= factor;
            }
        }
        sum_left += 1.0 - product;
    }
    let sum_right: f64 = right_products.iter().map(|p| 1.0 - p).sum();
    (sum_left / left.len() as f64, sum_right / right.len() as f64)
}

/// Both Sims of a pair under `rules` with WordNet's relations between the words the two
/// sentences write their terms with ([`lexical`]), `c(l, r)` giving them for a left and a
/// right term ([`Lexical::c`] of their lemmas, or the same from a
/// [`super::pair_relations::PairLinks`]). The indexed
/// and brute-force paths both score a pair through this, so their values are bit-identical.
pub(super) fn lexical_sims(
    left: &PreparedSentence,
    right: &PreparedSentence,
    rules: &MatchRules,
    c: &impl PairRelatedness,
    scratch: &mut AlignScratch,
    both_ways_only: bool,
) -> Option<(f64, f64)> {
    let mut products = Vec::new();
    sims_under_rules(
        left,
        right,
        rules,
        c,
        |a, b, _| directional_sims_by(a, b, &|l, r| c.c(l, r), &mut products),
        scratch,
        both_ways_only,
    )
}

/// WordNet's `c` between the words of two sentences, straight from the lexicon.
pub(super) struct WordsOf<'a> {
    pub(super) lexical: &'a Lexical<'a>,
    pub(super) left: &'a PreparedSentence,
    pub(super) right: &'a PreparedSentence,
}

impl PairRelatedness for WordsOf<'_> {
    fn c(&self, l: TermId, r: TermId) -> f32 {
        self.lexical
            .c(self.left.lemmas_of(l), self.right.lemmas_of(r))
    }
    fn left_relates(&self, l: TermId) -> bool {
        !self.left.lemmas_of(l).is_empty()
    }
    fn right_relates(&self, r: TermId) -> bool {
        !self.right.lemmas_of(r).is_empty()
    }
}

/// Sim(S_i, S_j) and Sim(S_j, S_i) straight from a model (eq. 3.2-3.3), for two term sets.
pub fn similarity(left: &[TermId], right: &[TermId], model: &dyn ModelView) -> (f64, f64) {
    let rows = correlate_rows(left.iter().copied(), model, |_| true);
    let mut scratch = Vec::new();
    directional_sims(
        left,
        right,
        |w| rows.get(&w).map(Vec::as_slice),
        &mut scratch,
    )
}
