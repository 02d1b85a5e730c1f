//! Passages inside or beside other passages: one copy, not several.
//!
//! A document that repeats a paragraph (a news story and its update, a clause of a contract)
//! matches each copy of it with each: copied whole, it shows the copy's own diagonal and, inside
//! its span, the repeated paragraph matched with its other occurrences. Those matches are real,
//! but as passages they split one act of copying into many (an identical 500 KB news text read
//! as 20 passages, PAN's granularity 20). A passage lying within another on both sides is
//! folded into it: its pairs stay matches, shown and counted, and point at the passage around
//! them.
//!
//! Likewise two passages that follow each other on one diagonal within a passage's reach (a
//! copied heading and the paragraph under it, when the paragraph repeats the heading's words and
//! so gains nothing from chaining it) are one passage ([`join_adjacent`]).

use super::Passage;

/// How many of the kept passages before a candidate, in order of their first sentence in A, are
/// looked at for one that holds it: bounded, so that thousands of passages that hold none of
/// each other (templated text) cost linear time.
const LOOKED_BACK: usize = 64;

/// Folds every passage lying within a larger one on both sides into it (see the module docs):
/// the result keeps the others in their order; a folded passage's members join its holder's
/// (its `pairs` grow by theirs; its range, words, score and E-value stay the holder's).
pub fn fold_nested(passages: Vec<Passage>) -> Vec<Passage> {
    if passages.len() < 2 {
        return passages;
    }
    let span = |p: &Passage| (p.a[1] - p.a[0]) as u64 + (p.b[1] - p.b[0]) as u64;
    // Largest first: a holder is kept before what it holds.
    let mut order: Vec<usize> = (0..passages.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(span(&passages[i])), passages[i].a[0]));
    let holds = |outer: &Passage, inner: &Passage| {
        outer.a[0] <= inner.a[0]
            && inner.a[1] <= outer.a[1]
            && outer.b[0] <= inner.b[0]
            && inner.b[1] <= outer.b[1]
    };
    // Kept passages by their first sentence in A: (a start, index).
    let mut kept: Vec<(u32, usize)> = Vec::new();
    let mut folded_into: Vec<Option<usize>> = vec![None; passages.len()];
    for &i in &order {
        let inner = &passages[i];
        let before = kept.partition_point(|&(start, _)| start <= inner.a[0]);
        let holder = kept[..before]
            .iter()
            .rev()
            .take(LOOKED_BACK)
            .map(|&(_, k)| k)
            .find(|&k| holds(&passages[k], inner));
        match holder {
            Some(k) => folded_into[i] = Some(k),
            None => kept.insert(before, (inner.a[0], i)),
        }
    }
    let mut passages: Vec<Option<Passage>> = passages.into_iter().map(Some).collect();
    for i in 0..passages.len() {
        if let Some(k) = folded_into[i]
            && let Some(inner) = passages[i].take()
            && let Some(holder) = passages[k].as_mut()
        {
            holder.pairs += inner.pairs;
            holder.members.extend(inner.members);
        }
    }
    passages.into_iter().flatten().collect()
}

/// Joins passages that follow each other in both documents, the next starting at most `reach`
/// sentences after the previous one ends on each side (see the module docs). Both are evidence
/// already; the joined passage keeps the smaller E-value, and its score is the mean over all its
/// pairs. Sorted by first sentence in A (then B) on return.
pub fn join_adjacent(mut passages: Vec<Passage>, reach: u32) -> Vec<Passage> {
    passages.sort_by_key(|p| (p.a[0], p.b[0]));
    let mut out: Vec<Passage> = Vec::with_capacity(passages.len());
    for next in passages {
        if let Some(last) = out.last_mut() {
            let follows = |end: u32, start: u32| start > end && start - end <= reach.max(1);
            if follows(last.a[1], next.a[0]) && follows(last.b[1], next.b[0]) {
                let total = (last.pairs + next.pairs).max(1) as f64;
                last.score =
                    (last.score * last.pairs as f64 + next.score * next.pairs as f64) / total;
                last.a[1] = next.a[1];
                last.b[1] = next.b[1];
                last.pairs += next.pairs;
                last.words += next.words;
                last.e_value = match (last.e_value, next.e_value) {
                    (Some(x), Some(y)) => Some(x.min(y)),
                    (x, y) => x.or(y),
                };
                last.members.extend(next.members);
                continue;
            }
        }
        out.push(next);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passage(a: [u32; 2], b: [u32; 2], members: Vec<usize>) -> Passage {
        Passage {
            a,
            b,
            pairs: members.len(),
            words: 10,
            score: 1.0,
            e_value: Some(1e-9),
            members,
        }
    }

    #[test]
    fn a_passage_inside_another_on_both_sides_is_folded_into_it() {
        let passages = vec![
            passage([0, 100], [0, 100], vec![0, 1, 2]),
            // The repeated paragraph matched with its other occurrence, inside the copy.
            passage([10, 12], [60, 62], vec![3, 4]),
            // Inside on one side only: a passage of its own.
            passage([20, 22], [200, 202], vec![5]),
        ];
        let folded = fold_nested(passages);
        assert_eq!(folded.len(), 2);
        assert_eq!(folded[0].a, [0, 100]);
        assert_eq!(folded[0].pairs, 5);
        assert_eq!(folded[0].members, vec![0, 1, 2, 3, 4]);
        assert_eq!(folded[1].b, [200, 202]);
    }

    #[test]
    fn a_heading_matched_apart_from_its_paragraph_joins_it() {
        let passages = vec![
            passage([1, 5], [1, 5], vec![1, 2, 3]),
            passage([0, 0], [0, 0], vec![0]),
            // Past the reach on one side: apart.
            passage([6, 8], [12, 14], vec![4]),
        ];
        let joined = join_adjacent(passages, 3);
        assert_eq!(joined.len(), 2);
        assert_eq!((joined[0].a, joined[0].b), ([0, 5], [0, 5]));
        assert_eq!(joined[0].pairs, 4);
        assert_eq!(joined[0].members, vec![0, 1, 2, 3]);
    }

    #[test]
    fn passages_that_hold_none_of_each_other_stay_in_their_order() {
        let passages: Vec<Passage> = (0..10u32)
            .map(|i| passage([i * 10, i * 10 + 5], [i * 10, i * 10 + 5], vec![i as usize]))
            .collect();
        let folded = fold_nested(passages.clone());
        assert_eq!(folded, passages);
    }
}
