//! The lengths of the longest common subsequences of every pair of suffixes of two term
//! sequences, which the alignment of [`super::aligned`] walks to find its anchors.
//!
//! Two sequences of at most 64 terms each (nearly every sentence) take the bit-parallel
//! algorithm of Hyyrö ("Bit-parallel LCS-length computation revisited", 2004; after Allison and
//! Dix, 1986, and Crochemore et al., 2001): one machine word per row instead of one cell per pair
//! of terms. Run over both sequences reversed, its row after the last `a` left terms holds, as
//! the zero bits among its lowest `b` bits, the LCS length of those terms with the last `b`
//! right terms. Longer sequences fill the usual table. Both give the same lengths, so the walk
//! over them (and every Sim) is the same bit for bit.

use super::TermId;

/// Up to this many terms a side, the bit-parallel rows (one `u64` each) are used.
const WORD_BITS: usize = 64;

/// The suffix LCS lengths of two sequences, read through [`SuffixLcs::at`]: from the
/// bit-parallel rows, or (when `table` is not empty) from the table.
pub(crate) struct SuffixLcs<'d> {
    /// `rows[a]`: Hyyrö's vector after the last `a` left terms, over the right sequence
    /// reversed (bit `b` for `right[m - 1 - b]`); `rows[0]` is all ones.
    rows: [u64; WORD_BITS + 1],
    /// `table[i * (m + 1) + j]`: the LCS length of `left[i..]` and `right[j..]`.
    table: &'d [u32],
    n: usize,
    m: usize,
}

impl<'d> SuffixLcs<'d> {
    /// The lengths for `left` and `right`; `dp` is scratch space for sequences too long for
    /// the bit-parallel rows.
    pub(crate) fn new(left: &[TermId], right: &[TermId], dp: &'d mut Vec<u32>) -> SuffixLcs<'d> {
        let (n, m) = (left.len(), right.len());
        if n <= WORD_BITS && m <= WORD_BITS {
            let mut rows = [0u64; WORD_BITS + 1];
            let mut v = u64::MAX;
            rows[0] = v;
            for (a, &x) in left.iter().rev().enumerate() {
                let mut matches = 0u64;
                for (b, &y) in right.iter().rev().enumerate() {
                    matches |= u64::from(x == y) << b;
                }
                let u = v & matches;
                v = v.wrapping_add(u) | (v - u);
                rows[a + 1] = v;
            }
            return SuffixLcs {
                rows,
                table: &[],
                n,
                m,
            };
        }
        let width = m + 1;
        dp.clear();
        dp.resize((n + 1) * width, 0);
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                dp[i * width + j] = if left[i] == right[j] {
                    dp[(i + 1) * width + j + 1] + 1
                } else {
                    dp[(i + 1) * width + j].max(dp[i * width + j + 1])
                };
            }
        }
        SuffixLcs {
            rows: [0; WORD_BITS + 1],
            table: dp,
            n,
            m,
        }
    }

    /// The LCS length of `left[i..]` and `right[j..]` (`i <= n`, `j <= m`).
    pub(crate) fn at(&self, i: usize, j: usize) -> u32 {
        if !self.table.is_empty() {
            return self.table[i * (self.m + 1) + j];
        }
        let b = self.m - j;
        let low = if b == WORD_BITS {
            u64::MAX
        } else {
            (1u64 << b) - 1
        };
        b as u32 - (self.rows[self.n - i] & low).count_ones()
    }

    /// Whether the lengths come from the bit-parallel rows.
    #[cfg(test)]
    fn bit_parallel(&self) -> bool {
        self.table.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Every suffix pair's length by the table, whatever the lengths.
    fn by_table(left: &[TermId], right: &[TermId]) -> Vec<u32> {
        let (n, m) = (left.len(), right.len());
        let mut dp = vec![0; (n + 1) * (m + 1)];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                dp[i * (m + 1) + j] = if left[i] == right[j] {
                    dp[(i + 1) * (m + 1) + j + 1] + 1
                } else {
                    dp[(i + 1) * (m + 1) + j].max(dp[i * (m + 1) + j + 1])
                };
            }
        }
        dp
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Small alphabets make long common subsequences; lengths up to 70 cross the 64-term
        /// word both ways.
        #[test]
        fn the_bit_parallel_rows_give_the_tables_lengths(
            left in prop::collection::vec(0u32..4, 0..70),
            right in prop::collection::vec(0u32..4, 0..70),
        ) {
            let expected = by_table(&left, &right);
            let mut dp = Vec::new();
            let lcs = SuffixLcs::new(&left, &right, &mut dp);
            let m = right.len();
            for i in 0..=left.len() {
                for j in 0..=m {
                    prop_assert_eq!(lcs.at(i, j), expected[i * (m + 1) + j], "({}, {})", i, j);
                }
            }
        }
    }

    #[test]
    fn full_words_of_64_terms_count_every_bit() {
        let left: Vec<TermId> = (0..64).collect();
        let mut dp = Vec::new();
        let lcs = SuffixLcs::new(&left, &left, &mut dp);
        assert!(lcs.bit_parallel());
        assert_eq!(lcs.at(0, 0), 64);
        assert_eq!(lcs.at(10, 0), 54);
        assert_eq!(lcs.at(0, 63), 1);
        assert_eq!(lcs.at(64, 0), 0);
    }
}
