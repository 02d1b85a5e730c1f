//! A pair's two directional Sims (thesis eq. 3.3) as a reader can check them.
//!
//! Printing both to three decimals misled in two ways (issue 29, "Sim 0.000 / 1.000" on a
//! nearest miss). A direction that reads 0 while the other reads 1 is not a rounding: with
//! stopwords kept, a direction counts only when the content words alone reach the content floor
//! ([`crate::similarity::MatchRules::content_floor`]), and a long sentence that holds a short one
//! has most of its content words unmatched, so that direction is set to 0 while the short
//! sentence lies wholly inside it. Such a 0 now says why. And a Sim above 0 but below 0.0005
//! (a sentence of thousands of words) printed as 0.000; it now reads "< 0.001".

use crate::compare::CompareOptions;
use crate::similarity::ScoredPair;

/// The content floor that can set a direction to 0 under `options`, if any: only with
/// stopwords kept (without them the content words are all the words, and the floor is the
/// comparison's own).
pub fn content_floor(options: &CompareOptions) -> Option<f64> {
    (options.refine.keep_stopwords && options.rules.content_floor > 0.0)
        .then_some(options.rules.content_floor)
}

/// One direction's Sim (`sim`, the other direction being `other`) as text.
pub fn sim_value(sim: f64, other: f64, content_floor: Option<f64>) -> String {
    if sim == 0.0 && other > 0.0 {
        return match content_floor {
            Some(floor) => {
                format!("0 (its content words cover under the content floor {floor:.2})")
            }
            None => "0".to_string(),
        };
    }
    if sim > 0.0 && sim < 0.0005 {
        return "< 0.001".to_string();
    }
    format!("{sim:.3}")
}

/// Both Sims of `pair`, named by direction: "Sim(A,B) 0.412 · Sim(B,A) 1.000".
pub fn sims_text(pair: &ScoredPair, content_floor: Option<f64>) -> String {
    format!(
        "Sim(A,B) {} · Sim(B,A) {}",
        sim_value(pair.sim_lr, pair.sim_rl, content_floor),
        sim_value(pair.sim_rl, pair.sim_lr, content_floor)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_beside_a_positive_direction_says_the_content_floor_set_it() {
        assert_eq!(
            sim_value(0.0, 1.0, Some(0.3)),
            "0 (its content words cover under the content floor 0.30)"
        );
        assert_eq!(sim_value(0.0, 1.0, None), "0");
        assert_eq!(sim_value(0.0, 0.0, Some(0.3)), "0.000");
    }

    #[test]
    fn a_tiny_sim_is_not_printed_as_zero() {
        assert_eq!(sim_value(0.0004, 1.0, Some(0.3)), "< 0.001");
        assert_eq!(sim_value(0.0005, 1.0, None), "0.001");
        assert_eq!(sim_value(0.4123, 0.9, None), "0.412");
    }

    #[test]
    fn both_directions_are_named() {
        let mut options = CompareOptions::default();
        options.refine.keep_stopwords = true;
        options.rules.content_floor = 0.3;
        let floor = content_floor(&options);
        assert_eq!(floor, Some(0.3));
        options.refine.keep_stopwords = false;
        assert_eq!(content_floor(&options), None);
        let pair = ScoredPair::new(3, 7, [0.0, 1.0], false);
        assert_eq!(
            sims_text(&pair, floor),
            "Sim(A,B) 0 (its content words cover under the content floor 0.30) · Sim(B,A) 1.000"
        );
    }
}
