//! Which sentences of a comparison list only their best partners, and how a summary says so.
//!
//! A comparison scored by Sims keeps each sentence's few best partners at the floor both ways
//! ([`crate::similarity::partners`]): templated lines would otherwise pair all with all. The
//! figures that read a sentence's best partner (matched sentences, containment) are unchanged;
//! the number of matched pairs counts the pairs listed. The summary, the JSON report and the
//! viewer say where that applied.

use serde::Serialize;

use super::classes::{SentenceClasses, thousands};

/// The sentences (positions, ascending, every member of a capped repetition class) that list
/// only their `kept` best partners, per document.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PartnersCapped {
    pub kept: usize,
    pub left: Vec<u32>,
    pub right: Vec<u32>,
}

impl PartnersCapped {
    /// From the classes (ids, per side) whose partners were capped at `kept`.
    pub fn of_classes(
        capped: [Vec<u32>; 2],
        classes: [&SentenceClasses; 2],
        kept: usize,
    ) -> PartnersCapped {
        let [left, right] = [0, 1].map(|side| {
            let mut sentences: Vec<u32> = capped[side]
                .iter()
                .flat_map(|&class| classes[side].members(class).iter().copied())
                .collect();
            sentences.sort_unstable();
            sentences
        });
        PartnersCapped { kept, left, right }
    }

    pub fn is_empty(&self) -> bool {
        self.left.is_empty() && self.right.is_empty()
    }

    /// The same seen from the other document.
    pub fn swapped(&self) -> PartnersCapped {
        PartnersCapped {
            kept: self.kept,
            left: self.right.clone(),
            right: self.left.clone(),
        }
    }

    /// One line for the summary (none when nothing was capped), e.g. "2,000 sentences of A and
    /// 2,000 sentences of B have more than 10 partners at the floor both ways: each lists its 10
    /// best (the first: sentence 0 of A)". It does not guess why: templated lines have
    /// thousands of partners, and a sentence of prose may have two.
    pub fn describe(&self) -> Option<String> {
        let first = match (self.left.first(), self.right.first()) {
            (Some(&a), _) => format!("sentence {a} of A"),
            (None, Some(&b)) => format!("sentence {b} of B"),
            (None, None) => return None,
        };
        let counts = match (self.left.len(), self.right.len()) {
            (a, 0) => format!("{} {} of A", thousands(a as u64), sentences(a)),
            (0, b) => format!("{} {} of B", thousands(b as u64), sentences(b)),
            (a, b) => format!(
                "{} {} of A and {} {} of B",
                thousands(a as u64),
                sentences(a),
                thousands(b as u64),
                sentences(b)
            ),
        };
        let verb = if self.left.len() + self.right.len() == 1 {
            "has"
        } else {
            "have"
        };
        let (more_than, best) = kept_words(self.kept);
        Some(format!(
            "{counts} {verb} more than {more_than} at the floor both ways: each lists its \
             {best} (the first: {first})"
        ))
    }
}

/// How a note names `kept` partners: "more than 10 partners" and "its 10 best", or "more than
/// one partner" and "its best".
pub(crate) fn kept_words(kept: usize) -> (String, String) {
    if kept == 1 {
        ("one partner".to_string(), "best".to_string())
    } else {
        (format!("{kept} partners"), format!("{kept} best"))
    }
}

fn sentences(n: usize) -> &'static str {
    if n == 1 { "sentence" } else { "sentences" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_counts_both_sides_and_names_the_first() {
        let capped = PartnersCapped {
            kept: 10,
            left: (0..2_000).collect(),
            right: vec![3],
        };
        assert_eq!(
            capped.describe().as_deref(),
            Some(
                "2,000 sentences of A and 1 sentence of B have more than 10 partners at the \
                 floor both ways: each lists its 10 best (the \
                 first: sentence 0 of A)"
            )
        );
        assert_eq!(
            capped.swapped().describe().as_deref(),
            Some(
                "1 sentence of A and 2,000 sentences of B have more than 10 partners at the \
                 floor both ways: each lists its 10 best (the \
                 first: sentence 3 of A)"
            )
        );
        assert_eq!(PartnersCapped::default().describe(), None);
        let one = PartnersCapped {
            kept: 1,
            left: vec![7],
            right: Vec::new(),
        };
        assert_eq!(
            one.describe().as_deref(),
            Some(
                "1 sentence of A has more than one partner at the floor both ways: each lists \
                 its best (the first: sentence 7 of A)"
            )
        );
    }
}
