//! What changed from one version of a text to the next, for an editor (issue 29, item 1; issue
//! 43): each sentence classified as added, deleted, changed or moved, the list that Meld,
//! Draftable or `git diff --color-moved` give, at the sentence level and from the matches the
//! comparison already found and counted (so a reworded sentence is "changed", not a deletion
//! beside an addition). Computed once per comparison and thresholds, and read by every output:
//! the viewer's Changes view, the summary, the `--changes` JSON, the CSV and the HTML report.
//!
//! Definitions, with A the first version and B the second:
//! - The pairs read are the comparison's matches under the thresholds, the ones its figures
//!   count ([`crate::compare::Comparison::matches`]). A pair that is not identical must also be
//!   *evidence on its own* by the comparison's standard ([`ChangeRules`]): judged against chance,
//!   its own E-value at most [`ChangeRules::pair_bar`]. A passage counts as a whole, so a deleted
//!   sentence inside a copied passage may be one of its links through a word or two it shares
//!   with a neighbour (E-values of 3 and 541, Sims as low as 0); such a pair does not make its
//!   sentences "changed", they are deleted and added.
//! - The *alignment* is the heaviest chain of those pairs going forward in both documents
//!   ([`chain`]): what a diff keeps in place.
//! - A sentence without such a pair is *deleted* (A) or *added* (B) when it took part in the
//!   comparison (boilerplate and what was left out, quotations say, did not). Headings count:
//!   an editor deletes and adds them too, and an unchanged one is paired by its text ([`gaps`]).
//! - A sentence with a pair on the alignment is unchanged when one of its aligned pairs is
//!   identical (the same refined terms), else *changed*.
//! - A sentence whose pairs all lie off the alignment is *moved*: its text is in the other
//!   version, out of order relative to the text around it.
//!
//! A change of the list is a run of consecutive sentences of one kind: deleted sentences of A,
//! added sentences of B (a run may pass over sentences that take no part, a heading, say), a
//! block of changed pairs going forward together, or a block of moved pairs going forward
//! together (a moved paragraph), which names the pairs inside it that are not identical (the
//! sentences reworded as they moved). The list follows A's reading order; an addition takes the
//! place in A just after the aligned pair that precedes it in B.

pub(crate) mod chain;
pub(crate) mod gaps;
pub(crate) mod runs;

use serde::{Deserialize, Serialize};

use super::Comparison;
use crate::document::Document;
use crate::similarity::{JoinSide, ScoredPair, Thresholds};

/// How a sentence or a run of sentences changed from A to B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// In A only.
    Deleted,
    /// In B only.
    Added,
    /// In both, in place, reworded.
    Changed,
    /// In both, out of order.
    Moved,
}

impl ChangeKind {
    pub const ALL: [ChangeKind; 4] = [
        ChangeKind::Added,
        ChangeKind::Deleted,
        ChangeKind::Changed,
        ChangeKind::Moved,
    ];

    /// The kind as the viewer and reports name it.
    pub fn name(self) -> &'static str {
        match self {
            ChangeKind::Deleted => "deleted",
            ChangeKind::Added => "added",
            ChangeKind::Changed => "changed",
            ChangeKind::Moved => "moved",
        }
    }

    /// The kind called `name` ([`Self::name`]).
    pub fn named(name: &str) -> Option<ChangeKind> {
        ChangeKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// One change: a run of sentences of one kind, with its first and last sentence (inclusive) in
/// A and in B where it has any (a deletion has none in B, an addition none in A).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    pub kind: ChangeKind,
    pub a: Option<[u32; 2]>,
    pub b: Option<[u32; 2]>,
    /// For a changed or moved block: its pairs that are not identical (indices into the
    /// matches the list was made from), in (A, B) order; for a moved block, the sentences
    /// reworded as they moved. Empty for additions and deletions.
    #[serde(skip)]
    pub pairs: Vec<usize>,
}

/// What decides the change list besides the matches (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ChangeRules {
    /// Judged against chance (with a passage bar, [`Thresholds::max_e_value`]), a pair that is not
    /// identical makes its sentences changed or moved only when its own E-value is at most
    /// this. Chosen on the generated revisions of the training texts (EVALUATION.md, "The
    /// editor's change list").
    pub pair_bar: f64,
    /// The most sentences on each side between two pairs of one changed or moved block.
    pub reach: u32,
}

impl ChangeRules {
    pub const DEFAULT: ChangeRules = ChangeRules {
        pair_bar: 30.0,
        reach: 3,
    };
}

impl Default for ChangeRules {
    fn default() -> Self {
        ChangeRules::DEFAULT
    }
}

/// The changes of a comparison, and each sentence's kind of change.
#[derive(Clone, Debug, Default)]
pub struct Changes {
    /// In A's reading order (see the module's documentation).
    pub list: Vec<Change>,
    /// Per side (0 = A, 1 = B), per sentence position: how it changed; `None` for an unchanged
    /// sentence or one that takes no part.
    pub sentence: [Vec<Option<ChangeKind>>; 2],
    /// The pairs on the alignment, as (A position, B position), sorted by A then B.
    pub aligned: Vec<(u32, u32)>,
}

impl Changes {
    /// How many changes of `kind` the list holds.
    pub fn count(&self, kind: ChangeKind) -> usize {
        self.list.iter().filter(|c| c.kind == kind).count()
    }

    /// How many sentences of `side` changed as `kind`.
    pub fn sentences(&self, side: usize, kind: ChangeKind) -> usize {
        self.sentence[side]
            .iter()
            .filter(|k| **k == Some(kind))
            .count()
    }

    /// Where sentence `position` of `side` lies in the other document along the alignment: the
    /// partner of the nearest aligned pair at or before it, moved on by as many sentences as
    /// `position` is past that pair (so that two texts scrolled by it stay side by side between
    /// aligned pairs too). `None` before the first aligned pair.
    pub fn partner_along(&self, side: usize, position: u32) -> Option<u32> {
        let mine = |p: &(u32, u32)| if side == 0 { p.0 } else { p.1 };
        let theirs = |p: &(u32, u32)| if side == 0 { p.1 } else { p.0 };
        // Aligned pairs go forward in both documents, so sorted by A they are sorted by B too
        // (up to the order of one sentence's several partners).
        let at = self.aligned.partition_point(|p| mine(p) <= position);
        let before = self.aligned.get(at.checked_sub(1)?)?;
        let next = self.aligned.get(at).map(theirs);
        let guess = theirs(before) + (position - mine(before));
        Some(next.map_or(guess, |next| {
            guess.min(next.saturating_sub(1).max(theirs(before)))
        }))
    }
}

impl Comparison {
    /// The change list of this comparison of `docs` under `thresholds`, from `matches`, its
    /// matches under them ([`Self::matches`], sorted by (left, right)): what every output lists.
    pub fn changes(
        &self,
        docs: [&Document; 2],
        matches: &[ScoredPair],
        thresholds: &Thresholds,
    ) -> Changes {
        self.changes_with(docs, matches, thresholds, &ChangeRules::DEFAULT)
    }

    /// [`Self::changes`] under other rules (to measure them).
    pub fn changes_with(
        &self,
        docs: [&Document; 2],
        matches: &[ScoredPair],
        thresholds: &Thresholds,
        rules: &ChangeRules,
    ) -> Changes {
        let judged = self.link_surprises.is_some();
        let bar = thresholds.max_e_value.map(|_| rules.pair_bar);
        let evidence: Vec<bool> = matches
            .iter()
            .map(|p| evidence_on_its_own(p, judged, bar))
            .collect();
        let keys = docs.map(|doc| {
            doc.sentences
                .iter()
                .map(|s| gaps::text_key(&s.text))
                .collect::<Vec<u64>>()
        });
        changes(
            matches,
            &evidence,
            [&self.active[0], &self.active[1]],
            [&keys[0], &keys[1]],
            rules,
        )
    }
}

/// Whether a matched pair makes its sentences changed or moved (see the module docs): it is
/// identical, or the comparison is not judged against chance (its matches are then pairs whose
/// Sims pass the thresholds, evidence by the thesis's standard), or its own E-value is at most
/// `bar` (`None`: no bar, every match).
pub fn evidence_on_its_own(pair: &ScoredPair, judged: bool, bar: Option<f64>) -> bool {
    if pair.identical || !judged {
        return true;
    }
    match (bar, pair.e_value) {
        (None, _) => true,
        (Some(bar), Some(e)) => e <= bar,
        (Some(_), None) => false,
    }
}

/// The changes from A to B given `matches` (sorted by (left, right)), which of them are
/// evidence on their own (`evidence`, one flag per match), which sentences of each side count
/// (`active`: those the comparison took part, not boilerplate nor left out; one that did not
/// and has no pair may lie inside a run) and each
/// sentence's text key ([`gaps::text_key`]; sentences of the same text in one gap of the
/// alignment are no change, [`gaps`]).
pub fn changes(
    matches: &[ScoredPair],
    evidence: &[bool],
    active: [&[bool]; 2],
    keys: [&[u64]; 2],
    rules: &ChangeRules,
) -> Changes {
    let kept: Vec<usize> = (0..matches.len())
        .filter(|&m| evidence.get(m) == Some(&true))
        .collect();
    let on_kept = chain::heaviest_chain(matches, &kept, active[1].len());
    let mut aligned_match = vec![false; matches.len()];
    for (&m, _) in kept.iter().zip(&on_kept).filter(|(_, on)| **on) {
        aligned_match[m] = true;
    }
    // Per side and sentence: (has a pair, has an aligned pair, has an aligned identical one).
    let mut seen: [Vec<[bool; 3]>; 2] = [
        vec![[false; 3]; active[0].len()],
        vec![[false; 3]; active[1].len()],
    ];
    let mut aligned = Vec::new();
    for &m in &kept {
        let pair = &matches[m];
        let on = aligned_match[m];
        if on {
            aligned.push((pair.left, pair.right));
        }
        for (side, positions) in [
            (0, pair.sentences(JoinSide::Left)),
            (1, pair.sentences(JoinSide::Right)),
        ] {
            for position in positions[0]..=positions[1] {
                if let Some(flags) = seen[side].get_mut(position as usize) {
                    flags[0] = true;
                    flags[1] |= on;
                    flags[2] |= on && pair.identical;
                }
            }
        }
    }
    // Sentences of the same text in one gap of the alignment: unchanged, and aligned.
    let free = [0, 1].map(|side| seen[side].iter().map(|f| !f[0]).collect::<Vec<bool>>());
    for pair in gaps::same_text_pairs(&aligned, [&free[0], &free[1]], keys) {
        aligned.push((pair.left, pair.right));
        for (side, position) in [(0, pair.left), (1, pair.right)] {
            if let Some(flags) = seen[side].get_mut(position as usize) {
                *flags = [true; 3];
            }
        }
    }
    aligned.sort_unstable();
    let sentence = [0, 1].map(|side| {
        let unmatched = [ChangeKind::Deleted, ChangeKind::Added][side];
        seen[side]
            .iter()
            .zip(active[side])
            .map(
                |(&[matched, on, identical], &takes_part)| match (matched, on, identical) {
                    (false, _, _) => takes_part.then_some(unmatched),
                    (true, false, _) => Some(ChangeKind::Moved),
                    (true, true, false) => Some(ChangeKind::Changed),
                    (true, true, true) => None,
                },
            )
            .collect::<Vec<_>>()
    });
    let bridge = [0, 1].map(|side| {
        seen[side]
            .iter()
            .zip(active[side])
            .map(|(flags, &takes_part)| !takes_part && !flags[0])
            .collect::<Vec<bool>>()
    });
    let list = change_list(
        matches,
        &kept,
        &aligned_match,
        &sentence,
        &bridge,
        &aligned,
        rules,
    );
    Changes {
        list,
        sentence,
        aligned,
    }
}

/// The runs and blocks of [`changes`]'s documentation, in A's reading order.
fn change_list(
    matches: &[ScoredPair],
    kept: &[usize],
    aligned_match: &[bool],
    sentence: &[Vec<Option<ChangeKind>>; 2],
    bridge: &[Vec<bool>; 2],
    aligned: &[(u32, u32)],
    rules: &ChangeRules,
) -> Vec<Change> {
    // (place in A, doubled so that an addition goes between two sentences of A; the change)
    let mut placed: Vec<(u64, Change)> = Vec::new();
    for [first, last] in runs::of_kind(&sentence[0], &bridge[0], ChangeKind::Deleted) {
        placed.push((
            2 * u64::from(first),
            Change {
                kind: ChangeKind::Deleted,
                a: Some([first, last]),
                b: None,
                pairs: Vec::new(),
            },
        ));
    }
    let mut by_b: Vec<(u32, u32)> = aligned.iter().map(|&(a, b)| (b, a)).collect();
    by_b.sort_unstable();
    for [first, last] in runs::of_kind(&sentence[1], &bridge[1], ChangeKind::Added) {
        let before = by_b.partition_point(|&(b, _)| b < first);
        let place = before
            .checked_sub(1)
            .map_or(0, |i| 2 * u64::from(by_b[i].1) + 1);
        placed.push((
            place,
            Change {
                kind: ChangeKind::Added,
                a: None,
                b: Some([first, last]),
                pairs: Vec::new(),
            },
        ));
    }
    let kind_of =
        |side: usize, position: u32| sentence[side].get(position as usize).copied().flatten();
    // Changed: the aligned pairs of changed sentences; moved: the pairs off the alignment both
    // of whose sentences moved (a pair off it whose sentence is aligned elsewhere is repeated
    // text, which moved nothing).
    let changed: Vec<usize> = kept
        .iter()
        .copied()
        .filter(|&m| {
            let p = &matches[m];
            aligned_match[m] && !p.identical && kind_of(0, p.left) == Some(ChangeKind::Changed)
        })
        .collect();
    let moved: Vec<usize> = kept
        .iter()
        .copied()
        .filter(|&m| {
            let p = &matches[m];
            !aligned_match[m]
                && kind_of(0, p.left) == Some(ChangeKind::Moved)
                && kind_of(1, p.right) == Some(ChangeKind::Moved)
        })
        .collect();
    for (members, kind, reach) in [
        (&changed, ChangeKind::Changed, 1),
        (&moved, ChangeKind::Moved, rules.reach),
    ] {
        for block in runs::blocks(matches, members, reach) {
            let change = runs::block_change(matches, &block, kind);
            let place = change.a.map_or(0, |[first, _]| 2 * u64::from(first));
            placed.push((place, change));
        }
    }
    placed.sort_by(|(x, c), (y, d)| (x, c.kind, c.b).cmp(&(y, d.kind, d.b)));
    placed.into_iter().map(|(_, change)| change).collect()
}

#[cfg(test)]
mod tests;
