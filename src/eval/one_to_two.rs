//! Split sentences matched one-to-two (WikiSplit): each original sentence compared, as a
//! document comparison would, with its two halves as two consecutive sentences.
//!
//! Sentence by sentence, EQ (thesis eq. 3.4) rejects each half (a part of the original); the
//! one-to-two matches of [`crate::compare::joined`] take the two halves together. The report
//! gives the share of rows whose original is EQ-matched to both halves as one unit, to a single
//! half, or to nothing, at the comparison's thresholds.

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use serde::Serialize;

use crate::compare::{CompareOptions, compare};
use crate::document::{SourceFormat, parse_text};
use crate::similarity::{ModelView, Thresholds};

/// How the originals of a WikiSplit set were matched to their halves.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct OneToTwoReport {
    pub rows: u64,
    /// Rows whose original is matched to the two halves taken together.
    pub one_to_two: f64,
    /// Rows whose original is matched to one half alone (and not one-to-two).
    pub one_to_one: f64,
    /// Rows with no match at all.
    pub unmatched: f64,
}

/// Compares each `(original, [half, half])` with `options` and sums up at `thresholds`.
pub fn report(
    rows: &[(String, [String; 2])],
    model: &dyn ModelView,
    options: &CompareOptions,
    thresholds: &Thresholds,
) -> OneToTwoReport {
    let never = AtomicBool::new(false);
    let outcomes: Vec<(bool, bool)> = rows
        .par_iter()
        .map(|(original, halves)| {
            let left = parse_text(original, "original", SourceFormat::Text);
            // Blank lines keep the halves two paragraphs, so each is its own sentence even where
            // the tokenised text would confuse the splitter.
            let right = parse_text(
                &format!("{}\n\n{}", halves[0], halves[1]),
                "split",
                SourceFormat::Text,
            );
            let Ok(comparison) = compare(&left, &right, model, options, &never) else {
                return (false, false);
            };
            let matches: Vec<_> = comparison.matches(thresholds).collect();
            let joined = matches.iter().any(|p| p.joined.is_some());
            (joined, !joined && !matches.is_empty())
        })
        .collect();
    let n = outcomes.len().max(1) as f64;
    let share =
        |f: &dyn Fn(&(bool, bool)) -> bool| outcomes.iter().filter(|o| f(o)).count() as f64 / n;
    OneToTwoReport {
        rows: outcomes.len() as u64,
        one_to_two: share(&|o| o.0),
        one_to_one: share(&|o| o.1),
        unmatched: share(&|o| !o.0 && !o.1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::table::TableModel;

    #[test]
    fn a_split_is_matched_one_to_two_and_a_stranger_is_not() {
        let rows = vec![
            (
                "Volcanic ash closed the northern airports and airlines cancelled many flights."
                    .to_string(),
                [
                    "Volcanic ash closed the northern airports.".to_string(),
                    "Airlines cancelled many flights.".to_string(),
                ],
            ),
            (
                "Gardeners planted tomatoes beside the old stone wall.".to_string(),
                [
                    "Volcanic ash closed the northern airports.".to_string(),
                    "Airlines cancelled many flights.".to_string(),
                ],
            ),
        ];
        let model = TableModel::new();
        let thresholds = Thresholds {
            permission: 0.8,
            variation: 0.15,
            max_e_value: None,
            min_words: 0,
        };
        let r = report(&rows, &model, &CompareOptions::default(), &thresholds);
        assert_eq!(r.rows, 2);
        assert_eq!((r.one_to_two, r.one_to_one, r.unmatched), (0.5, 0.0, 0.5));
    }
}
