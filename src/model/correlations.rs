//! The pruned, symmetric word-word correlation matrix (thesis eq. 3.1), in compressed sparse rows.
//!
//! Row `i` lists the terms `j != i` whose correlation with `i` is stored, sorted by id, with
//! `c(i, j)` quantised to a `u16`. Every pair is stored in both rows, so `c(i, j) == c(j, i)` for
//! every lookup. The diagonal `c(i, i) = 1` is implicit.
//!
//! # Quantisation
//! `c` in `[0, 1]` is stored as `q = round(c * 65535)` and read back as `q / 65535`, so the error
//! is at most `1 / (2 * 65535) ≈ 7.6e-6`: far below the third decimal the thesis reports its
//! similarities in (Tables 3.3 and 3.4), and 0 and 1 are exact.

use super::TermId;

/// The largest quantised value; stands for `c = 1`.
const Q_MAX: f64 = u16::MAX as f64;

/// `c` in `[0, 1]` to its stored `u16` (values outside are clamped; NaN becomes 0).
pub fn quantise(c: f64) -> u16 {
    if c.is_nan() {
        return 0;
    }
    // In range after the clamp, so the cast cannot truncate.
    (c.clamp(0.0, 1.0) * Q_MAX).round() as u16
}

/// A stored `u16` back to `c`.
pub fn dequantise(q: u16) -> f32 {
    (f64::from(q) / Q_MAX) as f32
}

/// Why row data cannot form a correlation matrix.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CorrelationError {
    #[error("term {row} is correlated with term {col}, outside the {terms} terms")]
    OutOfRange { row: u32, col: u32, terms: usize },
    #[error("term {row} is listed as correlated with itself")]
    Diagonal { row: u32 },
    #[error("the pair ({row}, {col}) is not given as row < column")]
    NotUpper { row: u32, col: u32 },
    #[error("the pair ({row}, {col}) is out of order")]
    NotSorted { row: u32, col: u32 },
    #[error("more than 4 Gi correlation entries")]
    TooLarge,
}

/// Symmetric sparse correlations over `terms` term ids.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Correlations {
    /// `row_starts[i]..row_starts[i + 1]` indexes `cols`/`values` for row `i`.
    row_starts: Vec<u32>,
    cols: Vec<TermId>,
    values: Vec<u16>,
}

impl Correlations {
    /// An empty matrix over `terms` terms.
    pub fn empty(terms: usize) -> Self {
        Correlations {
            row_starts: vec![0; terms + 1],
            cols: Vec::new(),
            values: Vec::new(),
        }
    }

    /// The symmetric matrix holding each `(i, j, q)` of `pairs` at `(i, j)` and `(j, i)`. A pair
    /// given twice (in either order) keeps its larger value, so the result is symmetric whatever
    /// the input.
    pub fn from_pairs(
        terms: usize,
        pairs: impl IntoIterator<Item = (TermId, TermId, u16)>,
    ) -> Result<Self, CorrelationError> {
        let mut entries: Vec<(TermId, TermId, u16)> = Vec::new();
        for (i, j, q) in pairs {
            for (row, col) in [(i, j), (j, i)] {
                if row == col {
                    return Err(CorrelationError::Diagonal { row });
                }
                if row as usize >= terms || col as usize >= terms {
                    return Err(CorrelationError::OutOfRange { row, col, terms });
                }
            }
            entries.push((i, j, q));
            entries.push((j, i, q));
        }
        // Sort by position, larger value first, so dedup keeps the larger; a pair whose value
        // is 0 is no correlation and is not stored (see `from_sorted_upper`).
        entries.sort_unstable_by(|a, b| (a.0, a.1, b.2).cmp(&(b.0, b.1, a.2)));
        entries.dedup_by_key(|e| (e.0, e.1));
        entries.retain(|e| e.2 != 0);
        if entries.len() > u32::MAX as usize {
            return Err(CorrelationError::TooLarge);
        }
        let mut row_starts = vec![0u32; terms + 1];
        for &(row, _, _) in &entries {
            row_starts[row as usize + 1] += 1;
        }
        for i in 0..terms {
            row_starts[i + 1] += row_starts[i];
        }
        Ok(Correlations {
            row_starts,
            cols: entries.iter().map(|e| e.1).collect(),
            values: entries.iter().map(|e| e.2).collect(),
        })
    }

    /// The symmetric matrix of pairs given once each, as `(i, j, q)` with `i < j`, sorted by
    /// `(i, j)` without repeats (the order a model file stores them in). Linear time: no sort.
    pub fn from_sorted_upper(
        terms: usize,
        pairs: &[(TermId, TermId, u16)],
    ) -> Result<Self, CorrelationError> {
        let mut lower = vec![0u32; terms];
        let mut upper = vec![0u32; terms];
        let mut previous: Option<(TermId, TermId)> = None;
        // A pair stored with `c` = 0 says nothing (an absent pair has `c` = 0 too): it is
        // checked like any other and then left out, so that every stored correlate is positive
        // (a damaged or hand-made file can hold one; found by fuzzing the model loader).
        let mut zeros = 0usize;
        for &(i, j, q) in pairs {
            if i >= j {
                return Err(CorrelationError::NotUpper { row: i, col: j });
            }
            if j as usize >= terms {
                return Err(CorrelationError::OutOfRange {
                    row: i,
                    col: j,
                    terms,
                });
            }
            if previous.is_some_and(|p| p >= (i, j)) {
                return Err(CorrelationError::NotSorted { row: i, col: j });
            }
            previous = Some((i, j));
            if q == 0 {
                zeros += 1;
                continue;
            }
            upper[i as usize] += 1;
            lower[j as usize] += 1;
        }
        let total = (pairs.len() - zeros)
            .checked_mul(2)
            .filter(|&n| n <= u32::MAX as usize);
        let Some(total) = total else {
            return Err(CorrelationError::TooLarge);
        };
        let mut row_starts = vec![0u32; terms + 1];
        for t in 0..terms {
            row_starts[t + 1] = row_starts[t] + lower[t] + upper[t];
        }
        // Next free slot of each row's lower part (columns < row) and upper part (columns > row).
        let mut next_lower: Vec<u32> = row_starts[..terms].to_vec();
        let mut next_upper: Vec<u32> = (0..terms).map(|t| row_starts[t] + lower[t]).collect();
        let mut cols = vec![0 as TermId; total];
        let mut values = vec![0u16; total];
        // Pairs come by increasing (i, j): row i's upper entries arrive by increasing j, and row
        // j's lower entries by increasing i, so both parts fill in sorted order.
        for &(i, j, q) in pairs.iter().filter(|p| p.2 != 0) {
            let slot = &mut next_upper[i as usize];
            cols[*slot as usize] = j;
            values[*slot as usize] = q;
            *slot += 1;
            let slot = &mut next_lower[j as usize];
            cols[*slot as usize] = i;
            values[*slot as usize] = q;
            *slot += 1;
        }
        Ok(Correlations {
            row_starts,
            cols,
            values,
        })
    }

    /// Number of term rows.
    pub fn terms(&self) -> usize {
        self.row_starts.len().saturating_sub(1)
    }

    /// Number of stored entries (each pair counts twice, once per row).
    pub fn entries(&self) -> usize {
        self.cols.len()
    }

    fn row_range(&self, id: TermId) -> std::ops::Range<usize> {
        let id = id as usize;
        match (self.row_starts.get(id), self.row_starts.get(id + 1)) {
            (Some(&start), Some(&end)) => start as usize..end as usize,
            _ => 0..0,
        }
    }

    /// Row `id`: its stored correlates and quantised values, sorted by id. Empty for an id
    /// outside the matrix.
    pub fn row(&self, id: TermId) -> (&[TermId], &[u16]) {
        let range = self.row_range(id);
        (&self.cols[range.clone()], &self.values[range])
    }

    /// `c(a, b)`: 1 on the diagonal, the stored value, or 0 if the pair was pruned.
    pub fn get(&self, a: TermId, b: TermId) -> f32 {
        if a == b {
            return 1.0;
        }
        let (cols, values) = self.row(a);
        match cols.binary_search(&b) {
            Ok(k) => dequantise(values[k]),
            Err(_) => 0.0,
        }
    }

    /// Each stored pair once, as `(i, j, q)` with `i < j`, in row order.
    pub fn upper_pairs(&self) -> impl Iterator<Item = (TermId, TermId, u16)> + '_ {
        (0..self.terms()).flat_map(move |i| {
            // `i < terms()`, which fits in u32 because `from_pairs` checked every id against it
            // and ids are u32.
            let i = i as TermId;
            let (cols, values) = self.row(i);
            cols.iter()
                .zip(values)
                .filter(move |(j, _)| **j > i)
                .map(move |(&j, &q)| (i, j, q))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Zero-valued pairs are checked, then left out (a fuzzing finding: a damaged model file
    /// listed a correlate with c = 0).
    #[test]
    fn zero_valued_pairs_are_not_stored() {
        let m = Correlations::from_sorted_upper(3, &[(0, 1, 0), (0, 2, 7), (1, 2, 0)]).unwrap();
        assert_eq!(m.entries(), 2);
        assert_eq!(m.row(0), (&[2][..], &[7][..]));
        assert_eq!(m.row(1), (&[][..], &[][..]));
        assert_eq!(
            m,
            Correlations::from_pairs(3, [(0, 1, 0), (0, 2, 7), (2, 1, 0)]).unwrap()
        );
        assert!(matches!(
            Correlations::from_sorted_upper(3, &[(1, 0, 0)]),
            Err(CorrelationError::NotUpper { row: 1, col: 0 })
        ));
    }

    #[test]
    fn quantisation_is_exact_at_the_ends_and_close_inside() {
        assert_eq!(quantise(0.0), 0);
        assert_eq!(quantise(1.0), u16::MAX);
        assert_eq!(dequantise(u16::MAX), 1.0);
        assert_eq!(quantise(2.0), u16::MAX);
        assert_eq!(quantise(-1.0), 0);
        assert_eq!(quantise(f64::NAN), 0);
        for k in 0..=1000 {
            let c = f64::from(k) / 1000.0;
            let back = f64::from(dequantise(quantise(c)));
            assert!((back - c).abs() <= 0.5 / 65535.0 + 1e-7, "{c} -> {back}");
        }
    }

    #[test]
    fn pairs_are_stored_in_both_rows() {
        let m =
            Correlations::from_pairs(4, [(0, 2, quantise(0.5)), (3, 0, quantise(0.25))]).unwrap();
        assert_eq!(m.entries(), 4);
        assert_eq!(m.row(0).0, &[2, 3]);
        assert_eq!(m.row(2).0, &[0]);
        assert_eq!(m.row(1).0, &[] as &[u32]);
        assert_eq!(m.get(0, 2), m.get(2, 0));
        assert!((m.get(0, 3) - 0.25).abs() < 1e-5);
        assert_eq!(m.get(1, 1), 1.0);
        assert_eq!(m.get(1, 2), 0.0);
        assert_eq!(m.get(99, 0), 0.0);
        assert_eq!(
            m.upper_pairs().collect::<Vec<_>>(),
            vec![(0, 2, quantise(0.5)), (0, 3, quantise(0.25))]
        );
    }

    #[test]
    fn sorted_upper_pairs_give_the_same_matrix() {
        let pairs = [(0, 2, 7), (0, 3, 9), (1, 2, 4), (2, 3, 1)];
        let direct = Correlations::from_sorted_upper(4, &pairs).unwrap();
        assert_eq!(direct, Correlations::from_pairs(4, pairs).unwrap());
        assert_eq!(direct.row(2).0, &[0, 1, 3]);
        assert_eq!(direct.row(2).1, &[7, 4, 1]);
        assert_eq!(direct.upper_pairs().collect::<Vec<_>>(), pairs);
        assert_eq!(
            Correlations::from_sorted_upper(4, &[(0, 3, 1), (0, 2, 1)]),
            Err(CorrelationError::NotSorted { row: 0, col: 2 })
        );
        assert_eq!(
            Correlations::from_sorted_upper(4, &[(2, 1, 1)]),
            Err(CorrelationError::NotUpper { row: 2, col: 1 })
        );
        assert_eq!(
            Correlations::from_sorted_upper(2, &[(0, 2, 1)]),
            Err(CorrelationError::OutOfRange {
                row: 0,
                col: 2,
                terms: 2
            })
        );
    }

    #[test]
    fn a_pair_given_twice_keeps_the_larger_value() {
        let m = Correlations::from_pairs(2, [(0, 1, 10), (1, 0, 20)]).unwrap();
        assert_eq!(m.row(0).1, &[20]);
        assert_eq!(m.row(1).1, &[20]);
    }

    #[test]
    fn bad_pairs_are_refused() {
        assert_eq!(
            Correlations::from_pairs(2, [(1, 1, 5)]),
            Err(CorrelationError::Diagonal { row: 1 })
        );
        assert_eq!(
            Correlations::from_pairs(2, [(0, 2, 5)]),
            Err(CorrelationError::OutOfRange {
                row: 0,
                col: 2,
                terms: 2
            })
        );
    }
}
