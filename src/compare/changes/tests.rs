//! The Changes list on hand-made matches: kinds, moves off the heaviest chain, runs.

use super::*;

fn pair(left: u32, right: u32, identical: bool) -> ScoredPair {
    ScoredPair {
        left,
        right,
        sim_lr: if identical { 1.0 } else { 0.7 },
        sim_rl: if identical { 1.0 } else { 0.7 },
        identical,
        joined: None,
        chance: None,
        verdict: None,
    }
}

fn passage(matches: &[ScoredPair], members: Vec<usize>) -> Passage {
    let of = |f: fn(&ScoredPair) -> u32| {
        let values = members.iter().map(|&m| f(&matches[m]));
        [values.clone().min().unwrap_or(0), values.max().unwrap_or(0)]
    };
    Passage {
        a: of(|p| p.left),
        b: of(|p| p.right),
        pairs: members.len(),
        words: 0,
        score: 1.0,
        chance: None,
        members,
    }
}

fn all(n: usize) -> Vec<bool> {
    vec![true; n]
}

#[test]
fn the_same_text_has_no_changes() {
    let matches: Vec<ScoredPair> = (0..5).map(|i| pair(i, i, true)).collect();
    let passages = [passage(&matches, (0..5).collect())];
    let changes = changes(&matches, &passages, [&all(5), &all(5)]);
    assert!(changes.list.is_empty(), "{:?}", changes.list);
    assert_eq!(changes.aligned.len(), 5);
}

#[test]
fn deletions_additions_rewordings_and_moves_are_told_apart() {
    // A has 8 sentences, B has 8.
    // A 0 1 2 3 -> B 2 3 4 5 (in place, A 1 reworded as B 3)
    // A 4       -> deleted
    // A 5 6     -> B 0 1 (moved to the front of B: the lighter block)
    // A 7       -> B 7
    // B 6       -> added
    let matches = vec![
        pair(0, 2, true),
        pair(1, 3, false),
        pair(2, 4, true),
        pair(3, 5, true),
        pair(5, 0, true),
        pair(6, 1, true),
        pair(7, 7, true),
    ];
    let passages = [
        passage(&matches, vec![0, 1, 2, 3]),
        passage(&matches, vec![4, 5]),
    ];
    let changes = changes(&matches, &passages, [&all(8), &all(8)]);
    let kinds: Vec<_> = changes.list.iter().map(|c| (c.kind, c.a, c.b)).collect();
    assert_eq!(
        kinds,
        vec![
            (ChangeKind::Changed, Some([1, 1]), Some([3, 3])),
            // B 6 follows B 5, the partner of A 3: it goes between A 3 and A 4.
            (ChangeKind::Added, None, Some([6, 6])),
            (ChangeKind::Deleted, Some([4, 4]), None),
            (ChangeKind::Moved, Some([5, 6]), Some([0, 1])),
        ]
    );
    assert_eq!(changes.count(ChangeKind::Moved), 1);
    assert_eq!(changes.sentences(0, ChangeKind::Moved), 2);
    assert_eq!(changes.sentences(1, ChangeKind::Added), 1);
    assert_eq!(changes.sentence[0][0], None);
    assert_eq!(changes.sentence[1][3], Some(ChangeKind::Changed));
}

#[test]
fn the_heavier_block_stays_and_the_lighter_one_moved() {
    // Two blocks swapped: A 0..=2 -> B 3..=5 (three pairs), A 3..=4 -> B 0..=1 (two).
    let matches = vec![
        pair(0, 3, true),
        pair(1, 4, true),
        pair(2, 5, true),
        pair(3, 0, true),
        pair(4, 1, true),
    ];
    let passages = [
        passage(&matches, vec![0, 1, 2]),
        passage(&matches, vec![3, 4]),
    ];
    let changes = changes(&matches, &passages, [&all(5), &all(6)]);
    assert_eq!(changes.aligned, vec![(0, 3), (1, 4), (2, 5)]);
    assert_eq!(
        changes.list,
        vec![
            // B 2 comes before every aligned pair in B: at the start of A.
            Change {
                kind: ChangeKind::Added,
                a: None,
                b: Some([2, 2]),
            },
            Change {
                kind: ChangeKind::Moved,
                a: Some([3, 4]),
                b: Some([0, 1]),
            },
        ]
    );
}

#[test]
fn sentences_that_take_no_part_are_not_changes() {
    let matches = vec![pair(0, 0, true)];
    let changes = changes(&matches, &[], [&[true, false], &[true, false, true]]);
    assert_eq!(changes.sentence[0], vec![None, None]);
    assert_eq!(
        changes.sentence[1],
        vec![None, None, Some(ChangeKind::Added)]
    );
}

#[test]
fn the_partner_along_the_alignment_keeps_the_texts_side_by_side() {
    let matches = vec![pair(2, 0, true), pair(10, 5, true)];
    let changes = changes(&matches, &[], [&all(12), &all(8)]);
    assert_eq!(changes.partner_along(0, 1), None);
    assert_eq!(changes.partner_along(0, 2), Some(0));
    // Three sentences past A 2, but B's next aligned sentence is 5: at most up to it.
    assert_eq!(changes.partner_along(0, 5), Some(3));
    assert_eq!(changes.partner_along(0, 9), Some(4));
    assert_eq!(changes.partner_along(0, 11), Some(6));
    assert_eq!(changes.partner_along(1, 5), Some(10));
}

#[test]
fn a_long_chain_is_found_in_time() {
    // 200,000 lone matches along the diagonal with every tenth one out of place.
    let n = 200_000u32;
    let matches: Vec<ScoredPair> = (0..n)
        .map(|i| pair(i, if i % 10 == 0 { n - 1 - i } else { i }, true))
        .collect();
    let mut sorted = matches.clone();
    sorted.sort_by_key(|p| (p.left, p.right));
    let changes = changes(&sorted, &[], [&all(n as usize), &all(n as usize)]);
    assert!(changes.aligned.len() >= (n as usize) * 9 / 10 - 1);
}
