//! The reference model's correlate rows as the fuzzy matcher reads them: per term, sorted and
//! without the term itself ([`correlate_rows`]), and per left sentence, every term its words
//! relate to ([`RelatedTerms`]), filled once and read for each of the sentence's candidates.
//! Apart from the Sims, which only read them.

use super::*;

/// For each term, its stored correlates (sorted by id) that pass `keep`.
pub(super) fn correlate_rows(
    terms: impl Iterator<Item = TermId>,
    model: &dyn ModelView,
    keep: impl Fn(TermId) -> bool + Sync,
) -> FxHashMap<TermId, Vec<(TermId, f32)>> {
    let distinct: FxHashSet<TermId> = terms.collect();
    let distinct: Vec<TermId> = distinct.into_iter().collect();
    let row_of = |w: TermId| {
        let mut row = Vec::new();
        append_correlate_row(w, model, &keep, &mut row);
        (w, row)
    };
    // A sentence's few terms (one pair explained or joined) are read in place: handing them to
    // the thread pool costs more than reading them, and done once per pair it dominated.
    if distinct.len() < PARALLEL_ROWS {
        distinct.into_iter().map(row_of).collect()
    } else {
        distinct.into_par_iter().map(row_of).collect()
    }
}

/// Appends to `out` the stored correlates of `w` that pass `keep`, sorted by id, without `w`
/// itself and zero correlations: one row of [`correlate_rows`] or of `pair_sims::SentenceRows`.
pub(super) fn append_correlate_row(
    w: TermId,
    model: &dyn ModelView,
    keep: &impl Fn(TermId) -> bool,
    out: &mut Vec<(TermId, f32)>,
) {
    let from = out.len();
    model.correlates(w, out);
    let mut kept = from;
    for at in from..out.len() {
        let (k, c) = out[at];
        if k != w && c > 0.0 && keep(k) {
            out[kept] = (k, c);
            kept += 1;
        }
    }
    out.truncate(kept);
    out[from..].sort_unstable_by_key(|&(k, _)| k);
}

/// From this many distinct terms on, [`correlate_rows`] reads the model's rows in parallel.
const PARALLEL_ROWS: usize = 256;

/// For one left term set: every term it relates to, as `(k, slot of the left word, 1 - c)`,
/// sorted by `k` and then by slot (the left word itself is related with `c = 1`), with where
/// each `k`'s entries start. Filled once per left sentence and read for each of its candidates.
#[derive(Default)]
pub(super) struct RelatedTerms {
    entries: Vec<(TermId, u32, f64)>,
    /// Per term id, the index of its first entry ([`NOT_RELATED`] for a term not related): one
    /// array read per right term. A binary search over the entries (hundreds: every correlate
    /// of every word) cost a third of the indexed scoring; a hash lookup in their place was
    /// slower too (10 MB of prose against itself: 23.6-23.9 s, against 22.1 s). Grown to the
    /// largest id seen; only the entries of the last fill are set, and the next fill clears
    /// them.
    starts: Vec<u32>,
}

/// [`RelatedTerms::starts`] of a term with no entry.
const NOT_RELATED: u32 = u32::MAX;

impl RelatedTerms {
    pub(super) fn fill(&mut self, set: &[TermId], rows: &FxHashMap<TermId, Vec<(TermId, f32)>>) {
        let entries = &mut self.entries;
        for &(k, _, _) in entries.iter() {
            self.starts[k as usize] = NOT_RELATED;
        }
        entries.clear();
        for (slot, &w) in set.iter().enumerate() {
            entries.push((w, slot as u32, 0.0));
            for &(k, c) in rows.get(&w).map_or(&[][..], Vec::as_slice) {
                entries.push((k, slot as u32, 1.0 - f64::from(c)));
            }
        }
        entries.sort_unstable_by_key(|&(k, slot, _)| (k, slot));
        if let Some(&(largest, _, _)) = entries.last()
            && largest as usize >= self.starts.len()
        {
            self.starts.resize(largest as usize + 1, NOT_RELATED);
        }
        for (at, &(k, _, _)) in entries.iter().enumerate().rev() {
            self.starts[k as usize] = at as u32;
        }
    }

    /// Both directional similarities of the left term set (of `left_len` terms) and a right
    /// one. The same products and sums as [`directional_sims`], taken in the same order (a left
    /// word's factors in ascending right-term order, a right term's factors in ascending
    /// left-word order), so the values are bit-identical; but the cost is one lookup per right
    /// term instead of one per pair of words.
    pub(super) fn sims(&self, left_len: usize, right: &[TermId]) -> (f64, f64) {
        if left_len == 0 || right.is_empty() {
            return (0.0, 0.0);
        }
        let mut left_products = [1.0f64; 64];
        let mut heap;
        let products: &mut [f64] = if left_len <= left_products.len() {
            &mut left_products[..left_len]
        } else {
            heap = vec![1.0f64; left_len];
            &mut heap
        };
        let mut sum_right = 0.0;
        for &k in right {
            let mut product = 1.0f64;
            let start = self.starts.get(k as usize).copied().unwrap_or(NOT_RELATED);
            if start != NOT_RELATED {
                for &(t, slot, factor) in &self.entries[start as usize..] {
                    if t != k {
                        break;
                    }
                    products[slot as usize] *= factor;
                    product *= factor;
                }
            }
            sum_right += 1.0 - product;
        }
        let sum_left: f64 = products.iter().map(|p| 1.0 - p).sum();
        (sum_left / left_len as f64, sum_right / right.len() as f64)
    }
}
