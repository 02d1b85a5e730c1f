//! Latent semantic indexing for Roul et al.'s conceptual fingerprints (step 6 and Fig. 1 step 4:
//! `U, s, V = getSVD(termDocMat); lsiFing = s * transpose(V)`).
//!
//! The term-document matrix is large and sparse, so the truncated SVD is computed the way
//! gensim (which Roul et al. used, sect. 3.1) computes it ([`crate::linalg`]: a randomized range
//! finder with power iterations, then a dense thin SVD of the small projected matrix). A
//! document's fingerprint is `U_kᵀ x`, which for a column of the matrix equals its column of
//! `S_k V_kᵀ` and folds new documents into the same space.
//!
//! Choices: rank k = 200 by default (gensim's default number of topics; the paper gives none),
//! 10 extra sample columns, 2 power iterations, a seeded Rademacher test matrix so that results
//! repeat.

use super::super::Cancelled;
use super::super::prepare::TermId;
use crate::linalg::{self, TruncatedSvd};

/// A sparse vector over terms: (term, weight), terms distinct.
pub type SparseVector = Vec<(TermId, f64)>;

/// The first k left singular vectors of a term-document matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct LsiSpace {
    svd: TruncatedSvd,
    /// The k largest singular values, descending.
    pub singular_values: Vec<f64>,
}

/// The passes of [`LsiSpace::fit_with`] reported to its checkpoint: sampling the range, two
/// products per power iteration, the small SVD and the basis.
pub const FIT_STAGES: usize = linalg::STAGES;

impl LsiSpace {
    /// Fits the space to the matrix whose columns are `columns` (documents) over `terms` rows;
    /// terms at or beyond `terms` are ignored. The rank is capped by the matrix size.
    pub fn fit(columns: &[SparseVector], terms: usize, rank: usize, seed: u64) -> LsiSpace {
        match Self::fit_with(columns, terms, rank, seed, &mut |_| Ok(())) {
            Ok(space) => space,
            Err(Cancelled) => unreachable!("the checkpoint never cancels"),
        }
    }

    /// [`LsiSpace::fit`] that calls `checkpoint(stage)` before each of its [`FIT_STAGES`]
    /// passes over the matrix, so that a long fit reports progress and stops when the
    /// checkpoint says the run was cancelled (each pass is one sparse product or one dense
    /// factorisation; the whole detector takes about 6 s on 20,000 Reuters stories, 3,500
    /// documents per second in BENCHMARKS.md, so one pass takes less than that; passes were
    /// not timed one by one).
    pub fn fit_with(
        columns: &[SparseVector],
        terms: usize,
        rank: usize,
        seed: u64,
        checkpoint: &mut dyn FnMut(usize) -> Result<(), Cancelled>,
    ) -> Result<LsiSpace, Cancelled> {
        let svd = linalg::truncated_svd(columns, terms, rank, seed, checkpoint)?;
        Ok(LsiSpace {
            singular_values: svd.singular_values.clone(),
            svd,
        })
    }

    pub fn rank(&self) -> usize {
        self.svd.rank
    }

    /// The document's coordinates in the space, `U_kᵀ x` (terms unknown to the space ignored).
    pub fn project(&self, vector: &[(TermId, f64)]) -> Vec<f64> {
        let mut out = vec![0.0; self.svd.rank];
        for &(t, w) in vector {
            let t = t as usize;
            if t < self.svd.rows {
                for (o, u) in out.iter_mut().zip(self.svd.row(t)) {
                    *o += w * u;
                }
            }
        }
        out
    }
}

/// Cosine similarity (Roul et al. eq. 4); 0 when either vector is zero.
pub fn cosine(a: &[f64], b: &[f64]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na: f64 = a.iter().map(|x| x * x).sum::<f64>().sqrt();
    let nb: f64 = b.iter().map(|x| x * x).sum::<f64>().sqrt();
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na * nb)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rank-2 matrix: terms 0-1 belong to topic A, terms 2-3 to topic B.
    fn two_topics() -> Vec<SparseVector> {
        vec![
            vec![(0, 2.0), (1, 2.0)],
            vec![(0, 1.0), (1, 1.0)],
            vec![(2, 3.0), (3, 3.0)],
            vec![(2, 1.0), (3, 1.0)],
        ]
    }

    #[test]
    fn singular_values_of_a_known_matrix() {
        let space = LsiSpace::fit(&two_topics(), 4, 2, 7);
        // Orthogonal blocks. Topic A: columns (2,2), (1,1) along u = (1,1)/√2, so
        // σ² = 8 + 2 = 10; topic B: (3,3), (1,1), σ² = 18 + 2 = 20.
        assert_eq!(space.rank(), 2);
        assert!((space.singular_values[0] - 20f64.sqrt()).abs() < 1e-9);
        assert!((space.singular_values[1] - 10f64.sqrt()).abs() < 1e-9);
        // Folding in: documents of one topic are parallel, of different topics orthogonal.
        let a = space.project(&[(0, 1.0)]);
        let a2 = space.project(&[(1, 5.0)]);
        let b = space.project(&[(3, 1.0)]);
        assert!((cosine(&a, &a2) - 1.0).abs() < 1e-9);
        assert!(cosine(&a, &b).abs() < 1e-9);
        // A column's projection is its column of S V^T: its norm is the column's norm here.
        let p = space.project(&two_topics()[0]);
        assert!((p.iter().map(|x| x * x).sum::<f64>() - 8.0).abs() < 1e-9);
    }

    #[test]
    fn rank_is_capped_and_empty_input_gives_an_empty_space() {
        let space = LsiSpace::fit(&two_topics(), 4, 200, 1);
        assert_eq!(space.rank(), 4, "4 terms, 4 documents");
        let empty = LsiSpace::fit(&[], 10, 5, 1);
        assert_eq!(empty.rank(), 0);
        assert!(empty.project(&[(1, 1.0)]).is_empty());
        assert_eq!(cosine(&[], &[]), 0.0);
    }

    #[test]
    fn fit_reports_every_stage_and_stops_when_cancelled() {
        let mut seen = Vec::new();
        let space = LsiSpace::fit_with(&two_topics(), 4, 2, 7, &mut |stage| {
            seen.push(stage);
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, (0..FIT_STAGES).collect::<Vec<_>>());
        assert_eq!(space, LsiSpace::fit(&two_topics(), 4, 2, 7));

        let mut seen = Vec::new();
        let cancelled = LsiSpace::fit_with(&two_topics(), 4, 2, 7, &mut |stage| {
            seen.push(stage);
            if stage == 2 { Err(Cancelled) } else { Ok(()) }
        });
        assert_eq!(cancelled, Err(Cancelled));
        assert_eq!(seen, vec![0, 1, 2], "no pass runs after the cancel");
    }
}
