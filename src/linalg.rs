//! Truncated SVD of a large sparse matrix, for Roul et al.'s LSI and the reference model's word
//! vectors.
//!
//! A randomized range finder with power iterations (Halko, Martinsson, Tropp 2011, alg. 4.4),
//! then a dense thin SVD of the small projected matrix with `faer`. The test matrix is a seeded
//! Rademacher matrix, so results repeat. The sparse products, which are nearly all the work, run
//! on rayon's threads, each output entry summed in a fixed order (results do not depend on
//! scheduling).

use faer::Mat;
use rayon::prelude::*;

/// A sparse vector: (index, value), indices distinct.
pub type SparseVector = Vec<(u32, f64)>;

/// Extra sampled dimensions beyond the rank (Halko et al.'s p).
const OVERSAMPLING: usize = 10;
/// Power iterations for a sharper range (Halko et al.'s q).
const POWER_ITERATIONS: usize = 2;

/// The passes of [`truncated_svd`] reported to its checkpoint: sampling the range, two products
/// per power iteration, the small SVD and the basis.
pub const STAGES: usize = 3 + 2 * POWER_ITERATIONS;

/// The first k left singular vectors and singular values of a matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct TruncatedSvd {
    /// U_k, row-major: the k coordinates of row r at `r * rank .. (r + 1) * rank`.
    pub basis: Vec<f64>,
    pub rank: usize,
    pub rows: usize,
    /// The k largest singular values, descending.
    pub singular_values: Vec<f64>,
}

impl TruncatedSvd {
    /// Row `r` of U_k.
    pub fn row(&self, r: usize) -> &[f64] {
        &self.basis[r * self.rank..(r + 1) * self.rank]
    }
}

/// A dense row-major matrix of `rows × width` as a faer matrix.
fn to_faer(data: &[f64], rows: usize, width: usize) -> Mat<f64> {
    Mat::from_fn(rows, width, |i, c| data[i * width + c])
}

/// Orthonormalises the columns of a row-major `rows × width` matrix in place (thin QR).
fn orthonormalise(data: &mut [f64], rows: usize, width: usize) {
    let q = to_faer(data, rows, width).qr().compute_thin_Q();
    let cols = q.ncols().min(width);
    for i in 0..rows {
        for c in 0..width {
            data[i * width + c] = if c < cols { q[(i, c)] } else { 0.0 };
        }
    }
}

/// The matrix by rows: for each row, its (column, value) entries in column order.
fn rows_of(columns: &[SparseVector], rows: usize) -> Vec<SparseVector> {
    let mut by_row: Vec<SparseVector> = vec![Vec::new(); rows];
    for (j, column) in columns.iter().enumerate() {
        for &(t, w) in column {
            // Fewer than 2^32 columns: callers index columns by u32.
            by_row[t as usize].push((j as u32, w));
        }
    }
    by_row
}

/// `A X` for A given by rows (`rows × columns`) and X row-major `columns × width`. Each output
/// row is summed by one thread in column order, so the result does not depend on scheduling.
fn times(by_row: &[SparseVector], x: &[f64], width: usize) -> Vec<f64> {
    let mut y = vec![0.0; by_row.len() * width];
    y.par_chunks_mut(width.max(1))
        .zip(by_row.par_iter())
        .for_each(|(yr, row)| {
            for &(j, w) in row {
                let xj = &x[j as usize * width..(j as usize + 1) * width];
                for (a, b) in yr.iter_mut().zip(xj) {
                    *a += w * b;
                }
            }
        });
    y
}

/// `Aᵀ Y` for Y row-major `rows × width`.
fn transpose_times(columns: &[SparseVector], y: &[f64], width: usize) -> Vec<f64> {
    let mut z = vec![0.0; columns.len() * width];
    z.par_chunks_mut(width.max(1))
        .zip(columns.par_iter())
        .for_each(|(zj, column)| {
            for &(t, w) in column {
                let yt = &y[t as usize * width..(t as usize + 1) * width];
                for (a, b) in zj.iter_mut().zip(yt) {
                    *a += w * b;
                }
            }
        });
    z
}

/// SplitMix64: the seeded source of the ±1 test matrix.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The rank-`rank` truncated SVD of the matrix whose columns are `columns` over `rows` rows
/// (entries at or beyond `rows` are ignored; the rank is capped by the matrix size). Calls
/// `checkpoint(stage)` before each of its [`STAGES`] passes, so that a long fit reports progress
/// and stops at the next pass when the checkpoint returns an error.
pub fn truncated_svd<E>(
    columns: &[SparseVector],
    rows: usize,
    rank: usize,
    seed: u64,
    checkpoint: &mut dyn FnMut(usize) -> Result<(), E>,
) -> Result<TruncatedSvd, E> {
    let filtered: Vec<SparseVector>;
    let columns = if columns
        .iter()
        .all(|c| c.iter().all(|&(t, _)| (t as usize) < rows))
    {
        columns
    } else {
        filtered = columns
            .iter()
            .map(|c| {
                c.iter()
                    .copied()
                    .filter(|&(t, _)| (t as usize) < rows)
                    .collect()
            })
            .collect();
        &filtered
    };
    let count = columns.len();
    let rank = rank.min(rows).min(count);
    if rank == 0 {
        return Ok(TruncatedSvd {
            basis: Vec::new(),
            rank: 0,
            rows,
            singular_values: Vec::new(),
        });
    }
    let mut stage = 0;
    let mut next_stage = || {
        stage += 1;
        checkpoint(stage - 1)
    };
    next_stage()?;
    let width = (rank + OVERSAMPLING).min(rows).min(count);
    let mut state = seed;
    let omega: Vec<f64> = (0..count * width)
        .map(|_| {
            if splitmix(&mut state) & 1 == 1 {
                1.0
            } else {
                -1.0
            }
        })
        .collect();
    let by_row = rows_of(columns, rows);
    let mut y = times(&by_row, &omega, width);
    orthonormalise(&mut y, rows, width);
    for _ in 0..POWER_ITERATIONS {
        next_stage()?;
        let mut z = transpose_times(columns, &y, width);
        orthonormalise(&mut z, count, width);
        next_stage()?;
        y = times(&by_row, &z, width);
        orthonormalise(&mut y, rows, width);
    }
    next_stage()?;
    // Bᵀ = Aᵀ Q (columns × width); Bᵀ = W S Vbᵀ gives B = Vb S Wᵀ, so U = Q Vb.
    let bt = to_faer(&transpose_times(columns, &y, width), count, width);
    let (vb, mut values) = match bt.thin_svd() {
        Ok(svd) => {
            let s = svd.S().column_vector();
            let values: Vec<f64> = (0..s.nrows()).map(|i| s[i]).collect();
            (svd.V().to_owned(), values)
        }
        // The SVD of a finite matrix converges; should it not, the space is empty rather than
        // wrong.
        Err(_) => (Mat::zeros(width, 0), Vec::new()),
    };
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    let rank = rank.min(order.len());
    order.truncate(rank);
    next_stage()?;
    let mut basis = vec![0.0; rows * rank];
    basis
        .par_chunks_mut(rank.max(1))
        .enumerate()
        .for_each(|(t, out)| {
            let qt = &y[t * width..(t + 1) * width];
            for (c, &o) in order.iter().enumerate() {
                out[c] = (0..width).map(|i| qt[i] * vb[(i, o)]).sum();
            }
        });
    values = order.iter().map(|&o| values[o]).collect();
    Ok(TruncatedSvd {
        basis,
        rank,
        rows,
        singular_values: values,
    })
}
