//! The Changes list on hand-made matches: kinds, moves off the heaviest chain, runs, and which
//! pairs are evidence on their own.

use super::*;

fn pair(left: u32, right: u32, identical: bool) -> ScoredPair {
    let sim = if identical { 1.0 } else { 0.7 };
    ScoredPair::new(left, right, [sim, sim], identical)
}

fn all(n: usize) -> Vec<bool> {
    vec![true; n]
}

/// Sentences whose texts all differ (no text key).
fn no_keys(counted: [&[bool]; 2]) -> [Vec<u64>; 2] {
    counted.map(|c| vec![0; c.len()])
}

/// The changes with every match evidence on its own and no two sentences of the same text.
fn of(matches: &[ScoredPair], counted: [&[bool]; 2]) -> Changes {
    let keys = no_keys(counted);
    changes(
        matches,
        &all(matches.len()),
        counted,
        [&keys[0], &keys[1]],
        &ChangeRules::DEFAULT,
    )
}

/// A change as (kind, A range, B range).
type Listed = (ChangeKind, Option<[u32; 2]>, Option<[u32; 2]>);

fn kinds(changes: &Changes) -> Vec<Listed> {
    changes.list.iter().map(|c| (c.kind, c.a, c.b)).collect()
}

#[test]
fn the_same_text_has_no_changes() {
    let matches: Vec<ScoredPair> = (0..5).map(|i| pair(i, i, true)).collect();
    let changes = of(&matches, [&all(5), &all(5)]);
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
    let changes = of(&matches, [&all(8), &all(8)]);
    assert_eq!(
        kinds(&changes),
        vec![
            (ChangeKind::Changed, Some([1, 1]), Some([3, 3])),
            // B 6 follows B 5, the partner of A 3: it goes between A 3 and A 4.
            (ChangeKind::Added, None, Some([6, 6])),
            (ChangeKind::Deleted, Some([4, 4]), None),
            (ChangeKind::Moved, Some([5, 6]), Some([0, 1])),
        ]
    );
    assert_eq!(changes.list[0].pairs, vec![1]);
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
    let changes = of(&matches, [&all(5), &all(6)]);
    assert_eq!(changes.aligned, vec![(0, 3), (1, 4), (2, 5)]);
    assert_eq!(
        kinds(&changes),
        vec![
            // B 2 comes before every aligned pair in B: at the start of A.
            (ChangeKind::Added, None, Some([2, 2])),
            (ChangeKind::Moved, Some([3, 4]), Some([0, 1])),
        ]
    );
}

#[test]
fn a_pair_in_order_is_in_place_even_inside_another_block() {
    // A 0..=9 -> B 0..=9 in order, except that A 5's partner is B 6 and B 5 is new; a second
    // partner of A 5 lies far off (repeated text): neither is a move.
    let mut matches: Vec<ScoredPair> = (0..10u32)
        .filter(|&i| i != 5)
        .map(|i| pair(i, i, true))
        .collect();
    matches.push(pair(5, 6, false));
    matches.push(pair(5, 30, true));
    matches.sort_by_key(|p| (p.left, p.right));
    let changes = of(&matches, [&all(10), &all(31)]);
    assert_eq!(changes.count(ChangeKind::Moved), 0, "{:?}", changes.list);
}

#[test]
fn a_reworded_sentence_inside_a_moved_paragraph_is_named() {
    // A 0..=9 stay; A 10..=12 moved to the front of B, A 11 reworded as it moved.
    let mut matches: Vec<ScoredPair> = (0..10u32).map(|i| pair(i, i + 3, true)).collect();
    matches.extend([pair(10, 0, true), pair(11, 1, false), pair(12, 2, true)]);
    let changes = of(&matches, [&all(13), &all(13)]);
    let moved: Vec<&Change> = changes
        .list
        .iter()
        .filter(|c| c.kind == ChangeKind::Moved)
        .collect();
    assert_eq!(moved.len(), 1, "{:?}", changes.list);
    assert_eq!((moved[0].a, moved[0].b), (Some([10, 12]), Some([0, 2])));
    assert_eq!(moved[0].pairs, vec![11], "the reworded pair named");
    assert_eq!(changes.count(ChangeKind::Changed), 0);
}

#[test]
fn a_pair_that_is_not_evidence_on_its_own_leaves_its_sentences_deleted_and_added() {
    // A 3..=6 deleted (a paragraph); A 4 shares a word or two with B 3 (now A 7's place), a
    // link of the passage around it but no evidence alone.
    let mut matches: Vec<ScoredPair> = (0..3u32).map(|i| pair(i, i, true)).collect();
    let mut weak = pair(4, 3, false);
    weak.e_value = Some(541.0);
    matches.push(weak);
    matches.extend((7..10u32).map(|i| pair(i, i - 4, true)));
    let judged = |bar: Option<f64>| -> Vec<bool> {
        matches
            .iter()
            .map(|p| evidence_on_its_own(p, true, bar))
            .collect()
    };
    let counted = [&all(10)[..], &all(6)[..]];
    let keys = no_keys(counted);
    let keys = [&keys[0][..], &keys[1][..]];
    let strict = changes(
        &matches,
        &judged(Some(1e-5)),
        counted,
        keys,
        &ChangeRules::DEFAULT,
    );
    assert_eq!(
        kinds(&strict),
        vec![(ChangeKind::Deleted, Some([3, 6]), None)],
        "one deleted paragraph"
    );
    // Taken as evidence, the weak pair splits the deletion in three.
    let loose = changes(
        &matches,
        &judged(None),
        counted,
        keys,
        &ChangeRules::DEFAULT,
    );
    assert_eq!(loose.list.len(), 3, "{:?}", loose.list);
}

#[test]
fn runs_pass_over_sentences_that_take_no_part() {
    // A 2 took no part (boilerplate, say) before two deleted sentences: the run starts after
    // it; A 5 stayed, which ends the run.
    let matches = vec![pair(0, 0, true), pair(1, 1, true), pair(5, 2, true)];
    let counted = [true, true, false, true, true, true];
    let changes = of(&matches, [&counted, &all(3)]);
    assert_eq!(
        kinds(&changes),
        vec![(ChangeKind::Deleted, Some([3, 4]), None)]
    );
    // Between two deleted sentences, it lies inside the run.
    let counted = [true, true, true, true, false, true, true];
    let matches = vec![pair(0, 0, true), pair(1, 1, true), pair(6, 2, true)];
    let changes = of(&matches, [&counted, &all(3)]);
    assert_eq!(
        kinds(&changes),
        vec![(ChangeKind::Deleted, Some([2, 5]), None)]
    );
}

#[test]
fn sentences_that_take_no_part_are_not_changes() {
    let matches = vec![pair(0, 0, true)];
    let changes = of(&matches, [&[true, false], &[true, false, true]]);
    assert_eq!(changes.sentence[0], vec![None, None]);
    assert_eq!(
        changes.sentence[1],
        vec![None, None, Some(ChangeKind::Added)]
    );
}

#[test]
fn the_partner_along_the_alignment_keeps_the_texts_side_by_side() {
    let matches = vec![pair(2, 0, true), pair(10, 5, true)];
    let changes = of(&matches, [&all(12), &all(8)]);
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
    let changes = of(&sorted, [&all(n as usize), &all(n as usize)]);
    assert!(changes.aligned.len() >= (n as usize) * 9 / 10 - 1);
}
