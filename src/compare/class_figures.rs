//! The figures of a comparison computed from its repetition classes ([`super::classes`]) and
//! their counts, never from a list of every sentence pair: the same values as counting pair by
//! pair ([`Comparison::figures_of`] over all the pairs), in time and memory linear in the
//! sentences, the class pairs and the one-to-two matches.
//!
//! - *matched* (resemblance): a counted sentence is matched when its class has an EQ class pair
//!   with a class holding a counted sentence, or it has an EQ one-to-two match with a counted
//!   sentence;
//! - *common* (overlap): a maximum one-to-one matching of sentences is a maximum flow between
//!   classes whose capacities are their counted members ([`figures::maximum_flow`]); a sentence
//!   in a one-to-two match is its own vertex, since its match is its alone;
//! - *pairs*: each EQ class pair counts the product of its classes' sizes;
//! - *containment*: a sentence's best directional Sim is its class's, or its one-to-two match's.

use rustc_hash::{FxHashMap, FxHashSet};

use super::{Comparison, Figures, figures};
use crate::similarity::{ScoredPair, Thresholds};

/// Overlap, resemblance, odds ratio and containment under `thresholds` (see the module docs).
pub fn figures(c: &Comparison, thresholds: &Thresholds) -> Figures {
    let sentences = c.sentence_counts();
    let counted = |side: usize, p: u32| c.counted[side].get(p as usize) == Some(&true);
    // Per side, per class: how many of its members count.
    let counted_in: [Vec<u64>; 2] = [0, 1].map(|side| {
        let classes = &c.classes[side];
        let mut counts = vec![0u64; classes.len()];
        for position in 0..classes.positions() {
            if let Some(class) = classes.class_of(position)
                && counted(side, position as u32)
            {
                counts[class as usize] += 1;
            }
        }
        counts
    });
    let eq_classes: Vec<ScoredPair> = c.class_pairs().filter(|p| p.is_eq(thresholds)).collect();
    let eq_class_keys: FxHashSet<(u32, u32)> =
        eq_classes.iter().map(|p| (p.left, p.right)).collect();
    let eq_joined: Vec<&ScoredPair> = c.joined.iter().filter(|p| p.is_eq(thresholds)).collect();

    // Matched sentences.
    let mut class_has_partner = [
        vec![false; c.classes[0].len()],
        vec![false; c.classes[1].len()],
    ];
    for p in &eq_classes {
        if counted_in[1][p.right as usize] > 0 {
            class_has_partner[0][p.left as usize] = true;
        }
        if counted_in[0][p.left as usize] > 0 {
            class_has_partner[1][p.right as usize] = true;
        }
    }
    let mut joined_partner: [FxHashSet<u32>; 2] = Default::default();
    let mut split_edges: Vec<(u32, u32)> = Vec::new();
    for p in &eq_joined {
        if counted(0, p.left) && counted(1, p.right) {
            joined_partner[0].insert(p.left);
            joined_partner[1].insert(p.right);
            split_edges.push((p.left, p.right));
        }
    }
    let matched = [0, 1].map(|side| {
        (0..c.classes[side].positions())
            .filter(|&position| {
                counted(side, position as u32)
                    && (joined_partner[side].contains(&(position as u32))
                        || c.classes[side]
                            .class_of(position)
                            .is_some_and(|class| class_has_partner[side][class as usize]))
            })
            .count()
    });

    // Pairs: every member pair of an EQ class pair, and the one-to-two pairs not among them.
    let class_of = |side: usize, p: u32| c.classes[side].class_of(p as usize);
    let mut pairs: u64 = eq_classes
        .iter()
        .map(|p| {
            c.classes[0].members(p.left).len() as u64 * c.classes[1].members(p.right).len() as u64
        })
        .sum();
    pairs += eq_joined
        .iter()
        .filter(|p| match (class_of(0, p.left), class_of(1, p.right)) {
            (Some(a), Some(b)) => !eq_class_keys.contains(&(a, b)),
            _ => true,
        })
        .count() as u64;

    let common = common_sentences(c, &counted_in, &eq_classes, &split_edges);
    Figures::from_counts(
        sentences,
        matched,
        common,
        containment(c, thresholds.permission),
        usize::try_from(pairs).unwrap_or(usize::MAX),
    )
}

/// How many matched sentence pairs are identical: each identical EQ class pair counts the
/// product of its classes' sizes (a one-to-two match is never identical: its joint Sim beats
/// both halves', so neither half scored 1 both ways).
pub fn identical_pairs(c: &Comparison, thresholds: &Thresholds) -> usize {
    let pairs: u64 = c
        .class_pairs()
        .filter(|p| p.identical && p.is_eq(thresholds))
        .map(|p| {
            c.classes[0].members(p.left).len() as u64 * c.classes[1].members(p.right).len() as u64
        })
        .sum();
    usize::try_from(pairs).unwrap_or(usize::MAX)
}

/// The size of a maximum one-to-one matching of counted sentences, as a flow between classes
/// (see the module docs). `split_edges` are the counted one-to-two pairs, by position.
fn common_sentences(
    c: &Comparison,
    counted_in: &[Vec<u64>; 2],
    eq_classes: &[ScoredPair],
    split_edges: &[(u32, u32)],
) -> usize {
    // Vertices: one per class (capacity: its counted members not split off), then one per
    // split sentence (capacity 1).
    let mut capacity = counted_in.clone();
    let mut split_vertex: [FxHashMap<u32, u32>; 2] = Default::default();
    let mut split_of_class: [FxHashMap<u32, Vec<u32>>; 2] = Default::default();
    for &(l, r) in split_edges {
        for (side, position) in [(0, l), (1, r)] {
            if split_vertex[side].contains_key(&position) {
                continue;
            }
            let Some(class) = c.classes[side].class_of(position as usize) else {
                continue;
            };
            let vertex = capacity[side].len() as u32;
            capacity[side].push(1);
            capacity[side][class as usize] -= 1;
            split_vertex[side].insert(position, vertex);
            split_of_class[side].entry(class).or_default().push(vertex);
        }
    }
    let vertices_of = |side: usize, class: u32| -> Vec<u32> {
        let mut vertices = vec![class];
        if let Some(split) = split_of_class[side].get(&class) {
            vertices.extend_from_slice(split);
        }
        vertices
    };
    let mut edges: Vec<(u32, u32)> = Vec::new();
    for p in eq_classes {
        let rights = vertices_of(1, p.right);
        for l in vertices_of(0, p.left) {
            edges.extend(rights.iter().map(|&r| (l, r)));
        }
    }
    for &(l, r) in split_edges {
        if let (Some(&a), Some(&b)) = (split_vertex[0].get(&l), split_vertex[1].get(&r)) {
            edges.push((a, b));
        }
    }
    edges.sort_unstable();
    edges.dedup();
    let flow = figures::maximum_flow(&capacity[0], &capacity[1], &edges);
    usize::try_from(flow).unwrap_or(usize::MAX)
}

/// Containment both ways (see [`Comparison::containment`]): each counted sentence's best
/// directional Sim at or above `permission`, from its class's pairs and its one-to-two matches.
pub fn containment(c: &Comparison, permission: f64) -> [f64; 2] {
    let mut class_best = [
        vec![0.0f64; c.classes[0].len()],
        vec![0.0f64; c.classes[1].len()],
    ];
    for pair in c.class_pairs() {
        for (side, class, sim) in [(0, pair.left, pair.sim_lr), (1, pair.right, pair.sim_rl)] {
            if sim >= permission
                && let Some(slot) = class_best[side].get_mut(class as usize)
            {
                *slot = slot.max(sim);
            }
        }
    }
    let mut sentence_best: [FxHashMap<u32, f64>; 2] = Default::default();
    for pair in &c.joined {
        for (side, position, sim) in [(0, pair.left, pair.sim_lr), (1, pair.right, pair.sim_rl)] {
            if sim >= permission {
                let slot = sentence_best[side].entry(position).or_insert(0.0);
                *slot = slot.max(sim);
            }
        }
    }
    let sentences = c.sentence_counts();
    [0, 1].map(|side| {
        let classes = &c.classes[side];
        let sum: f64 = c.counted[side]
            .iter()
            .enumerate()
            .filter(|(_, counted)| **counted)
            .map(|(position, _)| {
                let of_class = classes
                    .class_of(position)
                    .map_or(0.0, |class| class_best[side][class as usize]);
                let own = sentence_best[side]
                    .get(&(position as u32))
                    .copied()
                    .unwrap_or(0.0);
                of_class.max(own)
            })
            .sum();
        figures::ratio_f64(sum, sentences[side])
    })
}
