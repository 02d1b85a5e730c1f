//! Word-word correlations from co-occurrence units (thesis eq. 3.1), exact, pruned per term.
//!
//! `c(i, j) = n(i, j) / (n(i) + n(j) - n(i, j))` where `n(i)` is the number of units holding term
//! `i` and `n(i, j)` the number holding both: the Jaccard coefficient of the two terms' unit sets.
//! The thesis counts documents; simdoc lets the unit be a document or a paragraph
//! ([`super::CooccurrenceUnit`]).
//!
//! Pruning, which the thesis leaves open (it stores the full matrix):
//! - only terms in at least `min_df` units take part: two terms that each occur once, in the
//!   same unit, would otherwise get `c = 1` by chance;
//! - a correlation is kept only if `c >= floor`;
//! - each term keeps at most its `per_term` strongest correlates (ties: smaller term id first);
//!   a pair is stored if either term keeps it, in both rows, so the matrix stays symmetric.
//!
//! Method (exact, memory linear in the number of term occurrences): a forward index (unit -> its
//! distinct eligible terms) and an inverted index (term -> its units). For each term `i`, in
//! parallel, walk `i`'s units and count every co-occurring term in a dense per-thread counter;
//! compute `c` for the touched terms only, keep the best, and reset only the touched counters.
//! The cost is the sum over units of (distinct eligible terms in the unit)².

use rayon::prelude::*;

use super::correlations::{Correlations, quantise};
use super::{BuildError, BuildProgress, ModelParams, TermId};

/// Units as lists of distinct term ids (sorted), in compressed sparse rows.
#[derive(Clone, Debug)]
pub struct Units {
    starts: Vec<usize>,
    terms: Vec<TermId>,
}

impl Default for Units {
    fn default() -> Self {
        Units::new()
    }
}

impl Units {
    pub fn new() -> Self {
        Units {
            starts: vec![0],
            terms: Vec::new(),
        }
    }

    /// Appends a unit; `terms` are sorted and deduplicated here.
    pub fn push(&mut self, terms: &mut Vec<TermId>) {
        terms.sort_unstable();
        terms.dedup();
        self.terms.extend_from_slice(terms);
        self.starts.push(self.terms.len());
    }

    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    pub fn unit(&self, u: usize) -> &[TermId] {
        &self.terms[self.starts[u]..self.starts[u + 1]]
    }

    /// Rewrites every term id through `map` (used when the vocabulary is sorted at the end of a
    /// build); rows are sorted again.
    pub fn remap(&mut self, map: &[TermId]) {
        for t in &mut self.terms {
            *t = map[*t as usize];
        }
        for u in 0..self.len() {
            self.terms[self.starts[u]..self.starts[u + 1]].sort_unstable();
        }
    }

    /// Number of units holding each of `terms` term ids.
    pub fn frequencies(&self, terms: usize) -> Vec<u32> {
        let mut n = vec![0u32; terms];
        for &t in &self.terms {
            n[t as usize] += 1;
        }
        n
    }
}

/// The pruned correlation matrix of `units` over `terms` term ids (see the module docs).
pub fn correlations(
    units: &Units,
    terms: usize,
    params: &ModelParams,
    progress: &dyn BuildProgress,
) -> Result<Correlations, BuildError> {
    let n = units.frequencies(terms);
    // Dense ids for the eligible terms; the map is increasing, so unit rows stay sorted.
    let eligible: Vec<TermId> = (0..terms)
        .filter(|&t| n[t] >= params.min_df.max(1))
        .map(|t| t as TermId)
        .collect();
    let mut dense = vec![u32::MAX; terms];
    for (d, &t) in eligible.iter().enumerate() {
        dense[t as usize] = d as u32;
    }
    let (forward, inverted) = indexes(units, &dense, eligible.len());
    let dense_n: Vec<u32> = eligible.iter().map(|&t| n[t as usize]).collect();

    progress.phase("correlating terms", eligible.len() as u64);
    let rows: Vec<Vec<(u32, u16)>> = (0..eligible.len())
        .into_par_iter()
        .map_init(
            || Counter::new(eligible.len()),
            |counter, i| {
                if progress.cancelled() {
                    return Vec::new();
                }
                let row = strongest(i as u32, &forward, &inverted, &dense_n, counter, params);
                progress.advance(1);
                row
            },
        )
        .collect();
    if progress.cancelled() {
        return Err(BuildError::Cancelled);
    }
    let pairs = rows.iter().enumerate().flat_map(|(i, row)| {
        let eligible = &eligible;
        row.iter()
            .map(move |&(j, q)| (eligible[i], eligible[j as usize], q))
    });
    Ok(Correlations::from_pairs(terms, pairs)?)
}

/// The forward index restricted to eligible terms (dense ids), without units that hold fewer
/// than two of them (they add to no `n(i, j)`), and the inverted index over it.
fn indexes(units: &Units, dense: &[u32], eligible: usize) -> (Units, Vec<Vec<u32>>) {
    let mut forward = Units::new();
    let mut row = Vec::new();
    for u in 0..units.len() {
        row.clear();
        row.extend(
            units
                .unit(u)
                .iter()
                .map(|&t| dense[t as usize])
                .filter(|&d| d != u32::MAX),
        );
        if row.len() >= 2 {
            forward.push(&mut row);
        }
    }
    let mut inverted: Vec<Vec<u32>> = vec![Vec::new(); eligible];
    for u in 0..forward.len() {
        for &d in forward.unit(u) {
            // Fewer than 2^32 units: `Units` of a build are capped by `super::build`.
            inverted[d as usize].push(u as u32);
        }
    }
    (forward, inverted)
}

/// A dense co-occurrence counter that remembers which slots it touched.
struct Counter {
    counts: Vec<u32>,
    touched: Vec<u32>,
}

impl Counter {
    fn new(len: usize) -> Self {
        Counter {
            counts: vec![0; len],
            touched: Vec::new(),
        }
    }
}

/// Term `i`'s correlates (dense ids, quantised `c`) that survive the floor and the cap.
fn strongest(
    i: u32,
    forward: &Units,
    inverted: &[Vec<u32>],
    n: &[u32],
    counter: &mut Counter,
    params: &ModelParams,
) -> Vec<(u32, u16)> {
    for &u in &inverted[i as usize] {
        for &j in forward.unit(u as usize) {
            let slot = &mut counter.counts[j as usize];
            if *slot == 0 {
                counter.touched.push(j);
            }
            *slot += 1;
        }
    }
    let n_i = f64::from(n[i as usize]);
    let mut kept: Vec<(f64, u32)> = Vec::new();
    for &j in &counter.touched {
        let n_ij = f64::from(counter.counts[j as usize]);
        counter.counts[j as usize] = 0;
        if j == i {
            continue;
        }
        let c = n_ij / (n_i + f64::from(n[j as usize]) - n_ij);
        if c >= params.floor {
            kept.push((c, j));
        }
    }
    counter.touched.clear();
    let strongest_first = |a: &(f64, u32), b: &(f64, u32)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
    let cap = params.per_term as usize;
    if kept.len() > cap {
        if cap > 0 {
            kept.select_nth_unstable_by(cap - 1, strongest_first);
        }
        kept.truncate(cap);
    }
    kept.iter().map(|&(c, j)| (j, quantise(c))).collect()
}
