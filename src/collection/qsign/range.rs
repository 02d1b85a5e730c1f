//! qSign's search range (Kim et al. sect. 2.1.2): the probabilities that extra words switch a
//! signature's bits, and the range d they give for a word flexibility k and a false-hit rate.

/// The inputs of qSign's search range (Kim et al. sect. 2.1.2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdaptiveRange {
    /// k: how many additional words a reused sentence may have and still be found.
    pub word_flexibility: u32,
    /// ρ_fp: the acceptable probability that a sentence with k + 1 additional words is still
    /// within the range.
    pub false_hit_rate: f64,
}

impl AdaptiveRange {
    /// The largest d ≤ `cap` with `P_max_bit_diff(m, l, n, k + 1, d) ≤ ρ_fp` for a query of
    /// `words` words; 0 when even d = 0 exceeds ρ_fp (the paper leaves that case open: a
    /// saturated signature no longer tells extra words apart, so only equal signatures are
    /// searched).
    pub fn bit_difference(&self, bits: u32, bits_per_word: u32, words: usize, cap: u32) -> u32 {
        let extra = self.word_flexibility as usize + 1;
        let mut chosen = 0;
        for d in 0..=cap.min(bits) {
            if max_bit_difference_probability(bits, bits_per_word, words, extra, d)
                <= self.false_hit_rate
            {
                chosen = d;
            } else {
                break;
            }
        }
        chosen
    }
}

/// `P_bitswitch(m, l, n, k) = (1 - 1/m)^{nl} · (1 - (1 - 1/m)^{kl})` (Kim et al. sect. 2.1.2):
/// the chance that a bit unset by n words is set by k more, each setting l random bits.
pub fn bit_switch_probability(bits: u32, bits_per_word: u32, words: usize, extra: usize) -> f64 {
    let stay_unset = 1.0 - 1.0 / f64::from(bits.max(1));
    let per_word = f64::from(bits_per_word);
    stay_unset.powf(words as f64 * per_word) * (1.0 - stay_unset.powf(extra as f64 * per_word))
}

/// `P_exact_bit_diff(m, l, n, k, t) = C(m, t) · p^t · (1 - p)^{m - t}` with p = P_bitswitch.
pub fn exact_bit_difference_probability(
    bits: u32,
    bits_per_word: u32,
    words: usize,
    extra: usize,
    difference: u32,
) -> f64 {
    if difference > bits {
        return 0.0;
    }
    let p = bit_switch_probability(bits, bits_per_word, words, extra);
    let choose = (0..difference).fold(1.0, |c, i| c * f64::from(bits - i) / f64::from(i + 1));
    choose * p.powi(difference as i32) * (1.0 - p).powi((bits - difference) as i32)
}

/// `P_max_bit_diff(m, l, n, k, d) = Σ_{0 ≤ t ≤ d} P_exact_bit_diff(m, l, n, k, t)`.
pub fn max_bit_difference_probability(
    bits: u32,
    bits_per_word: u32,
    words: usize,
    extra: usize,
    difference: u32,
) -> f64 {
    (0..=difference.min(bits))
        .map(|t| exact_bit_difference_probability(bits, bits_per_word, words, extra, t))
        .sum::<f64>()
        .min(1.0)
}
