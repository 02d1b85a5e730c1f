//! Runs: consecutive sentences of one kind of change made into one change of the list.

use super::{Change, ChangeKind};
use crate::similarity::ScoredPair;

/// The maximal runs of sentences whose kind is `kind`, as [first, last]: consecutive positions,
/// bridging sentences that take no part in the comparison (`bridge[p]`: a heading or fragment
/// that was not compared, between two deleted sentences of one paragraph, say) but never
/// starting or ending on one.
pub fn of_kind(kinds: &[Option<ChangeKind>], bridge: &[bool], kind: ChangeKind) -> Vec<[u32; 2]> {
    let mut out: Vec<[u32; 2]> = Vec::new();
    // The last position of the open run, and whether only bridged positions followed it.
    let mut open = false;
    for (position, k) in kinds.iter().enumerate() {
        let position = position as u32;
        if *k == Some(kind) {
            match out.last_mut() {
                Some(run) if open => run[1] = position,
                _ => out.push([position, position]),
            }
            open = true;
        } else if !(k.is_none() && bridge.get(position as usize) == Some(&true)) {
            open = false;
        }
    }
    out
}

/// Groups pairs (indices into `pairs`, sorted by (A, B)) into blocks of text that go together:
/// each pair of a block follows the one before it by 0 to `reach` sentences on each side (not 0
/// on both). Pairs are added greedily in (A, B) order to the block whose last pair they may
/// follow with the shortest step, as passages are chained ([`crate::compare::passages`]).
pub fn blocks(pairs: &[ScoredPair], members: &[usize], reach: u32) -> Vec<Vec<usize>> {
    let mut blocks: Vec<Vec<usize>> = Vec::new();
    // The blocks whose last pair is within reach in A of the pairs still to come (they come
    // in A's order, so a block left behind stays behind).
    let mut open: Vec<usize> = Vec::new();
    for &m in members {
        let p = &pairs[m];
        let last_of = |k: usize| blocks[k].last().map(|&l| &pairs[l]);
        open.retain(|&k| last_of(k).is_some_and(|l| l.left.saturating_add(reach) >= p.left));
        let step = |last: &ScoredPair| -> Option<u32> {
            let da = p.left.checked_sub(last.left)?;
            let db = p.right.checked_sub(last.right)?;
            (da <= reach && db <= reach && da + db > 0).then_some(da + db)
        };
        let best = open
            .iter()
            .filter_map(|&k| last_of(k).and_then(step).map(|s| (s, k)))
            .min();
        match best {
            Some((_, k)) => blocks[k].push(m),
            None => {
                blocks.push(vec![m]);
                open.push(blocks.len() - 1);
            }
        }
    }
    blocks
}

/// The [first, last] of `values`, if any.
pub fn span(values: impl Iterator<Item = u32> + Clone) -> Option<[u32; 2]> {
    Some([values.clone().min()?, values.max()?])
}

/// The change of a block of pairs of `kind` (changed or moved): its spans in A and B (each pair
/// with the sentence it was taken together with, in a one-to-two match), and its pairs that are
/// not identical.
pub fn block_change(pairs: &[ScoredPair], block: &[usize], kind: ChangeKind) -> Change {
    use crate::similarity::JoinSide;
    let sides = |side: JoinSide| block.iter().flat_map(move |&m| pairs[m].sentences(side));
    Change {
        kind,
        a: span(sides(JoinSide::Left)),
        b: span(sides(JoinSide::Right)),
        pairs: block
            .iter()
            .copied()
            .filter(|&m| !pairs[m].identical)
            .collect(),
    }
}
