//! Word relatedness from word vectors learned on the reference corpus: positive pointwise mutual
//! information over sentence windows, reduced by a truncated SVD; the cosine of two words'
//! vectors, mapped to `[0, 1]`, is the `c(i, j)` the fuzzy-set matcher reads in eq. 3.2.
//!
//! Why not eq. 3.1 alone: the thesis's co-occurrence coefficient (the Jaccard of the units two
//! words occur in) is large only for words that occur *together*, which on a reference corpus
//! means words of one topic ("tsunami", "aid"), while a paraphrase replaces a word by one used
//! *instead* of it ("help" for "aid"). Words used in the same contexts have similar PPMI rows,
//! and the SVD makes that similarity measurable between words that never co-occur (Levy,
//! Goldberg & Dagan 2015, "Improving distributional similarity with lessons learned from word
//! embeddings": PPMI with context-distribution smoothing 0.75, SVD without eigenvalue weighting).
//! Measured against eq. 3.1 in EVALUATION.md ("Word relatedness").
//!
//! Steps, exact and deterministic:
//! 1. terms occurring at least `min_count` times are the vocabulary of the vectors;
//! 2. `n(i, j)`: how often `j` occurs within `window` words of `i` in one sentence (both
//!    orders; the corpus's refined content words, stopwords already removed);
//! 3. PPMI(i, j) = max(0, ln(n(i, j) N / (n(i) P_0.75(j) N))) with `n(i) = sum_j n(i, j)`,
//!    `N = sum_i n(i)` and the smoothed context distribution `P_0.75(j) = n(j)^0.75 / sum_k
//!    n(k)^0.75`;
//! 4. the `dimensions` leading left singular vectors of the PPMI matrix ([`crate::linalg`]),
//!    each row normalised to unit length;
//! 5. for each term its `per_term` nearest terms by cosine; `c = min(1, scale (cos -
//!    threshold) / (1 - threshold))` where the cosine exceeds `threshold`, kept if `c >= floor`;
//!    a pair kept by either term is stored for both (symmetric, as eq. 3.1 is).

use rayon::prelude::*;

use super::correlations::{Correlations, quantise};
use super::{BuildError, BuildProgress, TermId};

/// How word vectors are learned and turned into `c` (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VectorParams {
    /// Words on each side of a word that count as its context, within a sentence.
    pub window: u32,
    /// Dimensions kept by the SVD.
    pub dimensions: u32,
    /// A term gets a vector only if it occurs at least this often in the corpus.
    pub min_count: u32,
    /// Cosines at or below this give `c = 0`.
    pub threshold: f64,
    /// How fast `c` rises above the threshold: `c = min(1, scale (cos - threshold) / (1 -
    /// threshold))`.
    pub scale: f64,
}

impl Default for VectorParams {
    fn default() -> Self {
        VectorParams {
            window: 2,
            dimensions: 300,
            min_count: 10,
            threshold: 0.2,
            scale: 2.0,
        }
    }
}

impl VectorParams {
    /// `c` for a cosine (see the module docs).
    pub fn relatedness(&self, cosine: f64) -> f64 {
        if cosine <= self.threshold {
            return 0.0;
        }
        (self.scale * (cosine - self.threshold) / (1.0 - self.threshold)).min(1.0)
    }
}

/// Sentences as ordered term sequences, in compressed rows (repeats kept).
#[derive(Clone, Debug)]
pub struct Sequences {
    starts: Vec<usize>,
    terms: Vec<TermId>,
}

impl Default for Sequences {
    fn default() -> Self {
        Sequences::new()
    }
}

impl Sequences {
    pub fn new() -> Self {
        Sequences {
            starts: vec![0],
            terms: Vec::new(),
        }
    }

    /// Appends a sentence's terms in order.
    pub fn push(&mut self, terms: &[TermId]) {
        self.terms.extend_from_slice(terms);
        self.starts.push(self.terms.len());
    }

    /// Appends every sentence of `other` with its ids mapped through `map`.
    pub fn extend_mapped(&mut self, other: &Sequences, map: &[TermId]) {
        for s in 0..other.len() {
            self.terms
                .extend(other.sentence(s).iter().map(|&t| map[t as usize]));
            self.starts.push(self.terms.len());
        }
    }

    /// Rewrites every term id through `map`, keeping the order.
    pub fn remap(&mut self, map: &[TermId]) {
        for t in &mut self.terms {
            *t = map[*t as usize];
        }
    }

    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn sentence(&self, s: usize) -> &[TermId] {
        &self.terms[self.starts[s]..self.starts[s + 1]]
    }
}

/// The stages reported to the build's progress.
const PHASES: [&str; 3] = [
    "counting word contexts",
    "reducing word vectors",
    "finding related words",
];

/// The relatedness matrix of `sequences` over `terms` term ids (see the module docs).
pub fn correlations(
    sequences: &Sequences,
    terms: usize,
    params: &VectorParams,
    floor: f64,
    per_term: u32,
    progress: &dyn BuildProgress,
) -> Result<Correlations, BuildError> {
    let mut count = vec![0u64; terms];
    for &t in &sequences.terms {
        count[t as usize] += 1;
    }
    let eligible: Vec<TermId> = (0..terms as TermId)
        .filter(|&t| count[t as usize] >= u64::from(params.min_count.max(1)))
        .collect();
    let mut dense = vec![u32::MAX; terms];
    for (d, &t) in eligible.iter().enumerate() {
        dense[t as usize] = d as u32;
    }
    let contexts = context_counts(sequences, &dense, eligible.len(), params.window, progress)?;
    let ppmi = ppmi_columns(&contexts);
    drop(contexts);
    progress.phase(PHASES[1], crate::linalg::STAGES as u64);
    let svd = crate::linalg::truncated_svd(
        &ppmi,
        eligible.len(),
        params.dimensions as usize,
        // A fixed seed: the same corpus gives the same model.
        0x5eed_2005,
        &mut |_| {
            progress.advance(1);
            if progress.cancelled() {
                Err(BuildError::Cancelled)
            } else {
                Ok(())
            }
        },
    )?;
    drop(ppmi);
    let vectors = unit_rows(&svd.basis, svd.rank);
    let pairs = nearest(&vectors, svd.rank, params, floor, per_term, progress)?;
    let pairs = pairs
        .into_iter()
        .map(|(i, j, c)| (eligible[i as usize], eligible[j as usize], c));
    Ok(Correlations::from_pairs(terms, pairs)?)
}

/// Per eligible term (dense id), its context counts `(j, n(i, j))`, sorted by `j`.
fn context_counts(
    sequences: &Sequences,
    dense: &[u32],
    eligible: usize,
    window: u32,
    progress: &dyn BuildProgress,
) -> Result<Vec<Vec<(u32, u32)>>, BuildError> {
    // Sentences in dense ids; other terms become gaps (they still separate words, as the
    // window is counted in the corpus's refined words).
    const GAP: u32 = u32::MAX;
    let mut occurrences: Vec<Vec<u32>> = vec![Vec::new(); eligible];
    let mut flat: Vec<u32> = Vec::with_capacity(sequences.terms.len() + sequences.len());
    let mut bounds: Vec<(u32, u32)> = Vec::with_capacity(sequences.terms.len());
    for s in 0..sequences.len() {
        let start = flat.len() as u32;
        flat.extend(sequences.sentence(s).iter().map(|&t| dense[t as usize]));
        let end = flat.len() as u32;
        for p in start..end {
            let d = flat[p as usize];
            bounds.push((start, end));
            if d != GAP {
                occurrences[d as usize].push(p);
            }
        }
    }
    if flat.len() >= u32::MAX as usize {
        return Err(BuildError::TooLarge);
    }
    progress.phase(PHASES[0], eligible as u64);
    let window = window as usize;
    let rows: Vec<Vec<(u32, u32)>> = (0..eligible)
        .into_par_iter()
        .map_init(
            || (vec![0u32; eligible], Vec::new()),
            |(counts, touched), i| {
                if progress.cancelled() {
                    return Vec::new();
                }
                for &p in &occurrences[i] {
                    let p = p as usize;
                    let (start, end) = bounds[p];
                    let lo = p.saturating_sub(window).max(start as usize);
                    let hi = (p + window + 1).min(end as usize);
                    for &j in &flat[lo..hi] {
                        if j == GAP || j as usize == i {
                            continue;
                        }
                        let slot = &mut counts[j as usize];
                        if *slot == 0 {
                            touched.push(j);
                        }
                        *slot += 1;
                    }
                }
                touched.sort_unstable();
                let row: Vec<(u32, u32)> = touched
                    .iter()
                    .map(|&j| {
                        let n = counts[j as usize];
                        counts[j as usize] = 0;
                        (j, n)
                    })
                    .collect();
                touched.clear();
                progress.advance(1);
                row
            },
        )
        .collect();
    if progress.cancelled() {
        return Err(BuildError::Cancelled);
    }
    Ok(rows)
}

/// The PPMI matrix (step 3 of the module docs) by columns: column `j` lists `(i, PPMI(i, j))`.
/// The counts are symmetric, so the rows of the counts are also its columns.
fn ppmi_columns(contexts: &[Vec<(u32, u32)>]) -> Vec<crate::linalg::SparseVector> {
    let row_sums: Vec<f64> = contexts
        .iter()
        .map(|row| row.iter().map(|&(_, n)| f64::from(n)).sum())
        .collect();
    let total: f64 = row_sums.iter().sum();
    let smoothed: Vec<f64> = row_sums.iter().map(|n| n.powf(0.75)).collect();
    let smoothed_total: f64 = smoothed.iter().sum();
    if total <= 0.0 || smoothed_total <= 0.0 {
        return vec![Vec::new(); contexts.len()];
    }
    // Column j of the PPMI matrix holds PPMI(i, j) for the words i that have j as a context:
    // row j of the symmetric counts, with the word's and the context's roles applied.
    contexts
        .par_iter()
        .enumerate()
        .map(|(j, row)| {
            let context = smoothed[j] / smoothed_total;
            row.iter()
                .filter_map(|&(i, n)| {
                    let word = row_sums[i as usize] / total;
                    let pmi = (f64::from(n) / total).ln() - word.ln() - context.ln();
                    (pmi > 0.0).then_some((i, pmi))
                })
                .collect()
        })
        .collect()
}

/// The rows of a row-major `rows × width` matrix scaled to unit length, as `f32` (cosines need
/// no more precision than the 16-bit quantised `c` they become).
fn unit_rows(basis: &[f64], width: usize) -> Vec<f32> {
    let mut out = vec![0f32; basis.len()];
    if width == 0 {
        return out;
    }
    out.par_chunks_mut(width)
        .zip(basis.par_chunks(width))
        .for_each(|(o, row)| {
            let norm = row.iter().map(|x| x * x).sum::<f64>().sqrt();
            if norm > 0.0 {
                for (o, x) in o.iter_mut().zip(row) {
                    *o = (x / norm) as f32;
                }
            }
        });
    out
}

/// Each term's strongest relations (step 5): `(i, j, quantised c)` with `i != j`.
fn nearest(
    vectors: &[f32],
    width: usize,
    params: &VectorParams,
    floor: f64,
    per_term: u32,
    progress: &dyn BuildProgress,
) -> Result<Vec<(u32, u32, u16)>, BuildError> {
    let terms = vectors.len().checked_div(width).unwrap_or(0);
    progress.phase(PHASES[2], terms as u64);
    let cap = per_term as usize;
    let row = |i: usize| &vectors[i * width..(i + 1) * width];
    let found: Vec<Vec<(u32, u32, u16)>> = (0..terms)
        .into_par_iter()
        .map_init(Vec::new, |kept: &mut Vec<(f32, u32)>, i| {
            if progress.cancelled() || cap == 0 {
                return Vec::new();
            }
            kept.clear();
            let vi = row(i);
            for j in 0..terms {
                if j == i {
                    continue;
                }
                let cosine: f32 = vi.iter().zip(row(j)).map(|(a, b)| a * b).sum();
                if f64::from(cosine) > params.threshold {
                    kept.push((cosine, j as u32));
                }
            }
            let strongest_first =
                |a: &(f32, u32), b: &(f32, u32)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
            if kept.len() > cap {
                kept.select_nth_unstable_by(cap - 1, strongest_first);
                kept.truncate(cap);
            }
            progress.advance(1);
            kept.iter()
                .filter_map(|&(cosine, j)| {
                    let c = params.relatedness(f64::from(cosine));
                    (c >= floor && c > 0.0).then(|| (i as u32, j, quantise(c)))
                })
                .collect()
        })
        .collect();
    if progress.cancelled() {
        return Err(BuildError::Cancelled);
    }
    Ok(found.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::NoProgress;

    #[test]
    fn relatedness_maps_cosines_to_c() {
        let p = VectorParams {
            threshold: 0.2,
            scale: 2.0,
            ..VectorParams::default()
        };
        assert_eq!(p.relatedness(0.1), 0.0);
        assert_eq!(p.relatedness(0.2), 0.0);
        assert!((p.relatedness(0.4) - 0.5).abs() < 1e-12);
        assert!((p.relatedness(0.6) - 1.0).abs() < 1e-12);
        assert_eq!(p.relatedness(0.61), 1.0);
        assert_eq!(p.relatedness(0.95), 1.0);
    }

    #[test]
    fn context_counts_stay_inside_sentences_and_windows() {
        let mut s = Sequences::new();
        s.push(&[0, 1, 2, 3]);
        s.push(&[3, 0]);
        let dense: Vec<u32> = vec![0, 1, 2, 3];
        let rows = context_counts(&s, &dense, 4, 1, &NoProgress).unwrap();
        // Window 1: 0-1, 1-2, 2-3 in the first sentence, 3-0 in the second.
        assert_eq!(rows[0], vec![(1, 1), (3, 1)]);
        assert_eq!(rows[1], vec![(0, 1), (2, 1)]);
        assert_eq!(rows[3], vec![(0, 1), (2, 1)]);
        let rows = context_counts(&s, &dense, 4, 3, &NoProgress).unwrap();
        assert_eq!(rows[0], vec![(1, 1), (2, 1), (3, 2)]);
        // A term without a vector is a gap: it separates, and is not counted.
        let dense_gap: Vec<u32> = vec![0, u32::MAX, 1, 2];
        let rows = context_counts(&s, &dense_gap, 3, 1, &NoProgress).unwrap();
        assert_eq!(rows[0], vec![(2, 1)]);
        assert_eq!(rows[1], vec![(2, 1)]);
    }

    /// Words used in the same contexts are related though they never occur together: "aid" and
    /// "help" each appear between the same words, never with each other.
    #[test]
    fn substitutable_words_become_related() {
        let mut s = Sequences::new();
        // ids: 0 send, 1 aid, 2 help, 3 victim, 4 bake, 5 bread, 6 oven, 7 warm
        for _ in 0..20 {
            s.push(&[0, 1, 3]);
            s.push(&[0, 2, 3]);
            s.push(&[4, 5, 6]);
            s.push(&[7, 5, 6]);
            s.push(&[4, 6, 7]);
        }
        let params = VectorParams {
            window: 1,
            dimensions: 4,
            min_count: 1,
            threshold: 0.5,
            scale: 1.0,
        };
        let m = correlations(&s, 8, &params, 0.0, 3, &NoProgress).unwrap();
        let c = |a: u32, b: u32| m.get(a, b);
        assert!(c(1, 2) > 0.9, "aid ~ help: {}", c(1, 2));
        assert_eq!(c(1, 2), c(2, 1));
        assert_eq!(c(1, 5), 0.0, "aid and bread share no context");
    }
}
