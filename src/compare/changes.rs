//! What changed from one version of a text to the next, for an editor (issue 29, item 1): each
//! sentence and passage of a comparison classified as added, deleted, changed or moved, the list
//! that Meld or a word processor's "compare documents" gives, at the sentence level and from the
//! matches the comparison already found (so a reworded sentence is "changed", not a deletion
//! beside an addition).
//!
//! Definitions, with A the first version and B the second:
//! - A *unit* is a passage ([`Passage`]) or a match that lies in no passage.
//! - The *alignment* is the heaviest chain of units going forward in both documents: each unit
//!   of the chain ends, in A and in B, before the next one starts; a unit weighs its matched
//!   pairs. It is the longest common subsequence of the two texts taken at the level of units,
//!   which is what a diff keeps in place; found in O(u log u) for u units (a weighted longest
//!   increasing subsequence, with a Fenwick tree of prefix maxima over B's positions).
//! - A matched sentence is *moved* when none of its pairs lies in a unit of the alignment: its
//!   text is in the other version, but out of order relative to the text around it.
//! - A sentence with a pair on the alignment is *changed* when none of its aligned pairs is
//!   identical (the same refined terms), and unchanged otherwise.
//! - A sentence of A that counts (the caller says which: the viewer passes the sentences the
//!   figures count, leaving out boilerplate, headings and fragments) and has no match at all is
//!   *deleted*; one of B, *added*. Sentences that do not count are none of these.
//!
//! A change of the list is a run of consecutive sentences of one kind: deleted sentences of A,
//! added sentences of B, changed sentences of A (with the span of their aligned partners in B),
//! or one moved unit. The list follows A's reading order; an addition takes the place in A just
//! after the aligned pair that precedes it in B.

use serde::Serialize;

use super::passages::Passage;
use crate::similarity::ScoredPair;

/// How a sentence or a run of sentences changed from A to B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
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
}

/// One change: a run of sentences of one kind, with its first and last sentence (inclusive) in
/// A and in B where it has any (a deletion has none in B, an addition none in A).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    pub kind: ChangeKind,
    pub a: Option<[u32; 2]>,
    pub b: Option<[u32; 2]>,
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

/// A passage or a lone match: what the alignment chains.
struct Unit {
    a: [u32; 2],
    b: [u32; 2],
    /// Indices into the matches.
    members: Vec<usize>,
}

/// The changes from A to B given the comparison's `matches` (sorted by (left, right)), its
/// `passages` (whose members index `matches`) and which sentences of each side take part.
pub fn changes(matches: &[ScoredPair], passages: &[Passage], active: [&[bool]; 2]) -> Changes {
    let units = units(matches, passages);
    let on_chain = heaviest_chain(&units, active[1].len());
    let mut aligned_match = vec![false; matches.len()];
    for (unit, _) in units.iter().zip(&on_chain).filter(|(_, on)| **on) {
        for &m in &unit.members {
            aligned_match[m] = true;
        }
    }
    // Per side and sentence: (has a match, has an aligned match, has an aligned identical one).
    let mut seen: [Vec<[bool; 3]>; 2] = [
        vec![[false; 3]; active[0].len()],
        vec![[false; 3]; active[1].len()],
    ];
    let mut aligned = Vec::new();
    for (index, pair) in matches.iter().enumerate() {
        let on = aligned_match[index];
        if on {
            aligned.push((pair.left, pair.right));
        }
        for (side, position) in [(0, pair.left), (1, pair.right)] {
            if let Some(flags) = seen[side].get_mut(position as usize) {
                flags[0] = true;
                flags[1] |= on;
                flags[2] |= on && pair.identical;
            }
        }
    }
    let sentence = [0, 1].map(|side| {
        let unmatched = if side == 0 {
            ChangeKind::Deleted
        } else {
            ChangeKind::Added
        };
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
    let list = change_list(&sentence, &units, &on_chain, matches, &aligned);
    Changes {
        list,
        sentence,
        aligned,
    }
}

/// The passages, then every match in no passage as a unit of its own.
fn units(matches: &[ScoredPair], passages: &[Passage]) -> Vec<Unit> {
    let mut in_passage = vec![false; matches.len()];
    let mut units: Vec<Unit> = passages
        .iter()
        .map(|p| {
            let members: Vec<usize> = p
                .members
                .iter()
                .copied()
                .filter(|&m| m < matches.len())
                .collect();
            for &m in &members {
                in_passage[m] = true;
            }
            Unit {
                a: p.a,
                b: p.b,
                members,
            }
        })
        .collect();
    units.extend(
        matches
            .iter()
            .enumerate()
            .filter(|(m, _)| !in_passage[*m])
            .map(|(m, p)| Unit {
                a: [p.left, p.left],
                b: [p.right, p.right],
                members: vec![m],
            }),
    );
    units
}

/// Which units lie on the heaviest chain going forward in both documents (`b_len` sentences
/// in B). Units are taken in order of their start in A; a unit may follow every unit that ended
/// before it starts in A (inserted into the tree by then) and ended before it starts in B (a
/// prefix of the tree).
fn heaviest_chain(units: &[Unit], b_len: usize) -> Vec<bool> {
    let mut by_start: Vec<usize> = (0..units.len()).collect();
    by_start.sort_by_key(|&u| (units[u].a[0], units[u].b[0]));
    let mut by_end: Vec<usize> = (0..units.len()).collect();
    by_end.sort_by_key(|&u| units[u].a[1]);
    let b_slots = units
        .iter()
        .map(|u| u.b[1] as usize + 1)
        .max()
        .unwrap_or(0)
        .max(b_len);
    let mut tree = PrefixMax::new(b_slots);
    let mut best = vec![(0u64, None::<usize>); units.len()];
    let mut inserted = 0;
    for &v in &by_start {
        while let Some(&u) = by_end.get(inserted)
            && units[u].a[1] < units[v].a[0]
        {
            tree.raise(units[u].b[1] as usize, (best[u].0, u));
            inserted += 1;
        }
        let (weight, previous) = tree.max_before(units[v].b[0] as usize);
        best[v] = (weight + units[v].members.len() as u64, previous);
    }
    let mut on = vec![false; units.len()];
    let mut at = (0..units.len()).max_by_key(|&u| (best[u].0, std::cmp::Reverse(u)));
    while let Some(u) = at {
        on[u] = true;
        at = best[u].1;
    }
    on
}

/// A Fenwick tree of prefix maxima of (weight, unit) over B's positions.
struct PrefixMax {
    tree: Vec<(u64, Option<usize>)>,
}

impl PrefixMax {
    fn new(len: usize) -> PrefixMax {
        PrefixMax {
            tree: vec![(0, None); len + 1],
        }
    }

    /// Records a chain of `value.0` ending with unit `value.1` at position `at`.
    fn raise(&mut self, at: usize, value: (u64, usize)) {
        let mut i = at + 1;
        while i < self.tree.len() {
            if value.0 > self.tree[i].0 {
                self.tree[i] = (value.0, Some(value.1));
            }
            i += i & i.wrapping_neg();
        }
    }

    /// The heaviest chain ending before position `end` (exclusive), and its last unit.
    fn max_before(&self, end: usize) -> (u64, Option<usize>) {
        let mut best = (0, None);
        let mut i = end.min(self.tree.len() - 1);
        while i > 0 {
            if self.tree[i].0 > best.0 {
                best = self.tree[i];
            }
            i -= i & i.wrapping_neg();
        }
        best
    }
}

/// The runs of [`changes`]'s documentation, in A's reading order.
fn change_list(
    sentence: &[Vec<Option<ChangeKind>>; 2],
    units: &[Unit],
    on_chain: &[bool],
    matches: &[ScoredPair],
    aligned: &[(u32, u32)],
) -> Vec<Change> {
    // (place in A, doubled so that an addition goes between two sentences of A; the change)
    let mut placed: Vec<(u64, Change)> = Vec::new();
    for [first, last] in runs(&sentence[0], ChangeKind::Deleted) {
        placed.push((
            2 * u64::from(first),
            Change {
                kind: ChangeKind::Deleted,
                a: Some([first, last]),
                b: None,
            },
        ));
    }
    let mut by_b: Vec<(u32, u32)> = aligned.iter().map(|&(a, b)| (b, a)).collect();
    by_b.sort_unstable();
    for [first, last] in runs(&sentence[1], ChangeKind::Added) {
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
            },
        ));
    }
    for [first, last] in runs(&sentence[0], ChangeKind::Changed) {
        let partners = aligned
            .iter()
            .filter(|(a, _)| (first..=last).contains(a))
            .map(|&(_, b)| b);
        let b = partners
            .clone()
            .min()
            .zip(partners.max())
            .map(|(low, high)| [low, high]);
        placed.push((
            2 * u64::from(first),
            Change {
                kind: ChangeKind::Changed,
                a: Some([first, last]),
                b,
            },
        ));
    }
    for (unit, _) in units.iter().zip(on_chain).filter(|(_, on)| !**on) {
        // A unit off the chain whose sentences all have aligned pairs elsewhere (repeated text)
        // moved nothing.
        let moves = unit.members.iter().any(|&m| {
            let p = &matches[m];
            sentence[0].get(p.left as usize) == Some(&Some(ChangeKind::Moved))
                || sentence[1].get(p.right as usize) == Some(&Some(ChangeKind::Moved))
        });
        if moves {
            placed.push((
                2 * u64::from(unit.a[0]),
                Change {
                    kind: ChangeKind::Moved,
                    a: Some(unit.a),
                    b: Some(unit.b),
                },
            ));
        }
    }
    placed.sort_by_key(|(place, change)| (*place, change.kind, change.b));
    placed.into_iter().map(|(_, change)| change).collect()
}

/// The maximal runs of consecutive positions whose kind is `kind`.
fn runs(kinds: &[Option<ChangeKind>], kind: ChangeKind) -> Vec<[u32; 2]> {
    let mut out: Vec<[u32; 2]> = Vec::new();
    for (position, k) in kinds.iter().enumerate() {
        if *k != Some(kind) {
            continue;
        }
        let position = position as u32;
        match out.last_mut() {
            Some(run) if run[1] + 1 == position => run[1] = position,
            _ => out.push([position, position]),
        }
    }
    out
}

#[cfg(test)]
mod tests;
