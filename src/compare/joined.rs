//! One-to-two matches: a sentence of one document against two consecutive sentences of the
//! other taken together.
//!
//! Writers split a long sentence in two (WikiSplit's edits) or glue two into one (the BBC
//! summaries join extracted sentences with no space after the full stop). Sentence by sentence,
//! each half is only a part of the whole: Sim(half, whole) is high, Sim(whole, half) low, and
//! EQ (thesis eq. 3.4) rejects the pair by design (the thesis's subset example, 3.2.2). Taken
//! together, the two halves are the whole again. Not in the thesis; an extension of its EQ to
//! one-to-two units.
//!
//! Candidates come from the pairs already scored (either direction at the floor): two
//! consecutive sentences of one side that both reach the floor *into* the same sentence of the
//! other side. Their terms are united and scored against that sentence with the comparison's
//! own matcher; the join is kept when both directional Sims reach the floor and it scores
//! better (a higher smaller Sim) than either half alone. Each of the two pairs is then reported
//! with the joint Sims and a [`Joined`] mark.

use rustc_hash::FxHashMap;

use crate::similarity::{
    JoinSide, Joined, MatchRules, Method, ModelView, PreparedDoc, PreparedSentence, ScoredPair,
    fuzzy,
};

/// The one-to-two matches among `pairs` (sorted by (left, right)), as pairs with the joint
/// Sims, sorted by (left, right). Only the graded methods have them (the binary methods score
/// no partial pairs to start from).
pub fn find<'a>(
    pairs: &[ScoredPair],
    left: &'a PreparedDoc,
    right: &'a PreparedDoc,
    method: Method,
    model: &dyn ModelView,
    rules: &MatchRules,
    floor: f64,
) -> Vec<ScoredPair> {
    if !method.is_graded() {
        return Vec::new();
    }
    // Repeated sentences (a form letter, a heading on every page) make the same join over and
    // over: each distinct (first, second, other) triple of sentence forms is scored once per
    // side the two sentences are on (the two sides' Sims are each other's mirror image). A form
    // is hashed once per position, not once per look-up: hashing three whole sentences per
    // pair was most of the time of a page of 10,000 repeated headings compared with itself.
    let mut forms = FormIds::new(left.sentences.len(), right.sentences.len());
    let mut scored: FxHashMap<([u32; 3], bool), (f64, f64)> = FxHashMap::default();
    let mut score = |first: &'a PreparedSentence,
                     second: &'a PreparedSentence,
                     other: &'a PreparedSentence,
                     key: [u32; 3],
                     joint_on_left: bool| {
        *scored.entry((key, joint_on_left)).or_insert_with(|| {
            let joint = first.followed_by(second);
            let (a, b) = if joint_on_left {
                (&joint, other)
            } else {
                (other, &joint)
            };
            match method {
                Method::Fuzzy => fuzzy::sentence_similarity(a, b, model, rules),
                Method::Overlap => fuzzy::sentence_overlap(a, b, rules),
                Method::Fourgram | Method::Exact => (0.0, 0.0),
            }
        })
    };
    let mut found = Vec::new();
    // Left sentences i, i + 1 both inside right sentence j.
    let mut into_right: FxHashMap<u32, Vec<&ScoredPair>> = FxHashMap::default();
    // Right sentences j, j + 1 both inside left sentence i.
    let mut into_left: FxHashMap<u32, Vec<&ScoredPair>> = FxHashMap::default();
    for pair in pairs {
        if pair.sim_lr >= floor {
            into_right.entry(pair.right).or_default().push(pair);
        }
        if pair.sim_rl >= floor {
            into_left.entry(pair.left).or_default().push(pair);
        }
    }
    for (&j, halves) in &into_right {
        // `pairs` is sorted by (left, right): each list is sorted by left.
        for w in halves.windows(2) {
            let (a, b) = (w[0], w[1]);
            if b.left != a.left + 1 {
                continue;
            }
            let (first, second) = (
                &left.sentences[a.left as usize],
                &left.sentences[b.left as usize],
            );
            let other = &right.sentences[j as usize];
            let key = [
                forms.of(Side::Left, a.left, first),
                forms.of(Side::Left, b.left, second),
                forms.of(Side::Right, j, other),
            ];
            let (sim_lr, sim_rl) = score(first, second, other, key, true);
            if keeps(sim_lr, sim_rl, a, b, floor) {
                for (pair, with) in [(a, b.left), (b, a.left)] {
                    found.push(joined_pair(pair, sim_lr, sim_rl, JoinSide::Left, with));
                }
            }
        }
    }
    for (&i, halves) in &into_left {
        let mut halves = halves.clone();
        halves.sort_unstable_by_key(|p| p.right);
        for w in halves.windows(2) {
            let (a, b) = (w[0], w[1]);
            if b.right != a.right + 1 {
                continue;
            }
            let (first, second) = (
                &right.sentences[a.right as usize],
                &right.sentences[b.right as usize],
            );
            let other = &left.sentences[i as usize];
            let key = [
                forms.of(Side::Right, a.right, first),
                forms.of(Side::Right, b.right, second),
                forms.of(Side::Left, i, other),
            ];
            let (sim_lr, sim_rl) = score(first, second, other, key, false);
            if keeps(sim_lr, sim_rl, a, b, floor) {
                for (pair, with) in [(a, b.right), (b, a.right)] {
                    found.push(joined_pair(pair, sim_lr, sim_rl, JoinSide::Right, with));
                }
            }
        }
    }
    // A pair may take part in two joins (its left sentence with a neighbour, or its right one):
    // keep the better (higher smaller Sim, then higher larger Sim). Two joins that score exactly
    // alike are each other's mirror image, and picking either would depend on which document is
    // called left: then the pair keeps its own Sims only.
    let strength = |p: &ScoredPair| (p.min_sim(), p.sim_lr.max(p.sim_rl));
    found.sort_unstable_by(|x, y| {
        (x.left, x.right).cmp(&(y.left, y.right)).then(
            strength(y)
                .partial_cmp(&strength(x))
                .unwrap_or(std::cmp::Ordering::Equal),
        )
    });
    let mut kept: Vec<ScoredPair> = Vec::with_capacity(found.len());
    for group in found.chunk_by(|x, y| (x.left, x.right) == (y.left, y.right)) {
        let tied = group.len() > 1 && strength(&group[0]) == strength(&group[1]);
        if !tied {
            kept.push(group[0]);
        }
    }
    kept
}

#[derive(Clone, Copy)]
enum Side {
    Left,
    Right,
}

/// Numbers for sentence forms: equal prepared sentences, on either side, get the same number,
/// and each position's sentence is hashed once.
struct FormIds<'a> {
    by_form: FxHashMap<&'a PreparedSentence, u32>,
    /// Per side and position, its form's number ([`Self::UNSEEN`] until asked for).
    of_position: [Vec<u32>; 2],
}

impl<'a> FormIds<'a> {
    const UNSEEN: u32 = u32::MAX;

    fn new(left_len: usize, right_len: usize) -> Self {
        FormIds {
            by_form: FxHashMap::default(),
            of_position: [vec![Self::UNSEEN; left_len], vec![Self::UNSEEN; right_len]],
        }
    }

    /// The number of `sentence`'s form; `position` is its place on `side`.
    fn of(&mut self, side: Side, position: u32, sentence: &'a PreparedSentence) -> u32 {
        let slot = &mut self.of_position[side as usize][position as usize];
        if *slot == Self::UNSEEN {
            let next = self.by_form.len() as u32;
            *slot = *self.by_form.entry(sentence).or_insert(next);
        }
        *slot
    }
}

/// Whether a join with these Sims reaches the floor both ways and beats both halves alone.
fn keeps(sim_lr: f64, sim_rl: f64, a: &ScoredPair, b: &ScoredPair, floor: f64) -> bool {
    let joint = sim_lr.min(sim_rl);
    joint >= floor && joint > a.min_sim() && joint > b.min_sim()
}

fn joined_pair(
    pair: &ScoredPair,
    sim_lr: f64,
    sim_rl: f64,
    side: JoinSide,
    with: u32,
) -> ScoredPair {
    ScoredPair {
        sim_lr,
        sim_rl,
        joined: Some(Joined { side, with }),
        ..*pair
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::table::TableModel;
    use crate::similarity::{MatchRules, ScoringRequest, Thresholds, Vocabulary};

    /// "Alpha beta gamma delta. Epsilon zeta eta theta." split into two sentences on the left,
    /// one sentence on the right.
    #[test]
    fn a_split_sentence_matches_one_to_two() {
        let model = TableModel::new();
        let mut vocabulary = Vocabulary::new(&model);
        let left = vocabulary.prepare_texts(
            &[
                "Alpha beta gamma delta.",
                "Epsilon zeta eta theta.",
                "Unrelated words entirely here.",
            ],
            &model,
        );
        let right =
            vocabulary.prepare_texts(&["Alpha beta gamma delta epsilon zeta eta theta."], &model);
        let rules = MatchRules::MEASURED;
        let pairs = Method::Fuzzy
            .matcher()
            .score_pairs_brute_force(&ScoringRequest {
                left: &left,
                right: &right,
                model: &model,
                floor: 0.3,
                rules: &rules,
            });
        // Each half: Sim(half, whole) = 1, Sim(whole, half) = 0.5.
        assert_eq!(pairs.len(), 2);
        assert!(pairs.iter().all(|p| p.sim_lr == 1.0 && p.sim_rl == 0.5));
        assert!(!pairs[0].is_eq(&Thresholds::THESIS));
        let joined = find(&pairs, &left, &right, Method::Fuzzy, &model, &rules, 0.3);
        assert_eq!(joined.len(), 2);
        assert_eq!((joined[0].left, joined[0].right), (0, 0));
        assert_eq!((joined[1].left, joined[1].right), (1, 0));
        assert_eq!((joined[0].sim_lr, joined[0].sim_rl), (1.0, 1.0));
        assert_eq!(
            joined[0].joined,
            Some(Joined {
                side: JoinSide::Left,
                with: 1
            })
        );
        assert_eq!(joined[1].joined.map(|j| j.with), Some(0));
        // Seen from the other side, the same join is on the right.
        let swapped: Vec<ScoredPair> = pairs.iter().map(ScoredPair::swapped).collect();
        let mut swapped_sorted = swapped.clone();
        swapped_sorted.sort_unstable_by_key(|p| (p.left, p.right));
        let other = find(
            &swapped_sorted,
            &right,
            &left,
            Method::Fuzzy,
            &model,
            &rules,
            0.3,
        );
        assert_eq!(other.len(), 2);
        assert_eq!(other[0].joined.map(|j| j.side), Some(JoinSide::Right));
    }

    /// A document compared with itself: sentences 0 and 1 taken together are all of sentence 2
    /// (which has one word more), so the same three sentences join once with the pair on the
    /// left and once with it on the right; each join has its own direction's Sims.
    #[test]
    fn the_same_three_sentences_joined_on_either_side_keep_their_own_directions() {
        let model = TableModel::new();
        let mut vocabulary = Vocabulary::new(&model);
        let doc = vocabulary.prepare_texts(
            &[
                "Alpha beta gamma delta.",
                "Epsilon zeta eta theta.",
                "Alpha beta gamma delta epsilon zeta eta theta iota.",
            ],
            &model,
        );
        let rules = MatchRules::MEASURED;
        let pairs = Method::Fuzzy
            .matcher()
            .score_pairs_brute_force(&ScoringRequest {
                left: &doc,
                right: &doc,
                model: &model,
                floor: 0.3,
                rules: &rules,
            });
        let joined = find(&pairs, &doc, &doc, Method::Fuzzy, &model, &rules, 0.3);
        let sims_of = |left: u32, right: u32| {
            let pair = joined
                .iter()
                .find(|p| (p.left, p.right) == (left, right))
                .expect("joined");
            (pair.sim_lr, pair.sim_rl)
        };
        let whole_in_joint = 8.0 / 9.0;
        // Sentences 0 + 1 on the left inside sentence 2 on the right, and the mirror image.
        assert_eq!(sims_of(0, 2), (1.0, whole_in_joint));
        assert_eq!(sims_of(2, 0), (whole_in_joint, 1.0));
    }

    #[test]
    fn a_join_that_does_not_beat_its_halves_is_dropped() {
        let model = TableModel::new();
        let mut vocabulary = Vocabulary::new(&model);
        // Both left sentences are each the whole right sentence: the join adds nothing.
        let left = vocabulary.prepare_texts(
            &["Alpha beta gamma delta.", "Alpha beta gamma delta."],
            &model,
        );
        let right = vocabulary.prepare_texts(&["Alpha beta gamma delta."], &model);
        let rules = MatchRules::MEASURED;
        let pairs = Method::Fuzzy
            .matcher()
            .score_pairs_brute_force(&ScoringRequest {
                left: &left,
                right: &right,
                model: &model,
                floor: 0.3,
                rules: &rules,
            });
        assert_eq!(pairs.len(), 2);
        assert!(find(&pairs, &left, &right, Method::Fuzzy, &model, &rules, 0.3).is_empty());
        assert!(find(&pairs, &left, &right, Method::Exact, &model, &rules, 0.3).is_empty());
    }
}
