//! A scored sentence pair ([`ScoredPair`]) and its part in a one-to-two match ([`Joined`]):
//! what every matcher returns and every later stage (pruning, passages, chance, reports) reads.
//! Apart from the matchers, which make pairs, since most of the crate only reads them.

use serde::Serialize;

use super::Thresholds;

/// One scored sentence pair: positions in reading order and both directional scores.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ScoredPair {
    /// Sentence position in the left (first) document.
    pub left: u32,
    /// Sentence position in the right (second) document.
    pub right: u32,
    /// Sim(left, right): how much of the left sentence the right one covers (eq. 3.3).
    pub sim_lr: f64,
    /// Sim(right, left).
    pub sim_rl: f64,
    /// The two sentences have the same refined term sequence.
    pub identical: bool,
    /// Part of a one-to-two match (a sentence split in two, or two glued into one): the Sims
    /// are those of one sentence against two consecutive sentences taken together.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joined: Option<Joined>,
    /// How surprising the pair is in its comparison, when matches are judged against chance
    /// ([`crate::compare::chance`]): its E-value, the expected number of pairs at least as good
    /// among all the pairs the two documents could form by chance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub e_value: Option<f64>,
    /// The learned verdict's probability that the two sentences say the same
    /// ([`verdict`](super::verdict)), when the rules decide by it
    /// ([`MatchRules::verdict`](super::MatchRules::verdict)): then the pair
    /// matches when it reaches the permission, whatever its Sims ([`Self::is_eq`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<f64>,
}

/// Which document's two consecutive sentences were taken together in a one-to-two match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JoinSide {
    Left,
    Right,
}

/// A pair's part in a one-to-two match: its sentence on `side` was taken together with the
/// neighbouring sentence `with` (on the same side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Joined {
    pub side: JoinSide,
    pub with: u32,
}

impl Joined {
    /// The same join seen from the other document.
    pub fn swapped(self) -> Joined {
        Joined {
            side: match self.side {
                JoinSide::Left => JoinSide::Right,
                JoinSide::Right => JoinSide::Left,
            },
            with: self.with,
        }
    }
}

impl ScoredPair {
    /// A pair as a matcher scores it: sentence `left` against sentence `right` with the Sims
    /// `[Sim(left, right), Sim(right, left)]`, not part of a one-to-two match, not yet judged
    /// against chance and without the learned verdict. The one constructor every matcher,
    /// comparison step and test builds pairs with; the later steps add what they know with
    /// [`Self::with_e_value`], [`Self::with_verdict`] or a join ([`crate::compare::joined`]).
    pub fn new(left: u32, right: u32, [sim_lr, sim_rl]: [f64; 2], identical: bool) -> ScoredPair {
        ScoredPair {
            left,
            right,
            sim_lr,
            sim_rl,
            identical,
            joined: None,
            e_value: None,
            verdict: None,
        }
    }

    /// The pair with its E-value in its comparison ([`Self::e_value`]).
    pub fn with_e_value(self, e_value: f64) -> ScoredPair {
        ScoredPair {
            e_value: Some(e_value),
            ..self
        }
    }

    /// The pair with the learned verdict's probability ([`Self::verdict`]), or without one.
    pub fn with_verdict(self, probability: Option<f64>) -> ScoredPair {
        ScoredPair {
            verdict: probability,
            ..self
        }
    }

    /// A pair of different sentences with these Sims, for tests.
    #[cfg(test)]
    pub(crate) fn scored(left: u32, right: u32, sim_lr: f64, sim_rl: f64) -> ScoredPair {
        ScoredPair::new(left, right, [sim_lr, sim_rl], false)
    }

    /// The first and last sentence the pair covers on one side: its own, or with the
    /// neighbour it was taken together with in a one-to-two match.
    pub fn sentences(&self, side: JoinSide) -> [u32; 2] {
        let own = match side {
            JoinSide::Left => self.left,
            JoinSide::Right => self.right,
        };
        match self.joined.filter(|j| j.side == side) {
            Some(j) => [own.min(j.with), own.max(j.with)],
            None => [own, own],
        }
    }

    /// The smaller of the two directional scores.
    pub fn min_sim(&self) -> f64 {
        self.sim_lr.min(self.sim_rl)
    }

    /// Whether the pair matches: EQ of thesis eq. 3.4 (both scores reach `permission` and they
    /// differ by at most `variation`), or, for a pair carrying the learned verdict's
    /// probability, that probability reaching `permission` (the variation does not apply).
    pub fn is_eq(&self, thresholds: &Thresholds) -> bool {
        match self.verdict {
            Some(probability) => probability >= thresholds.permission,
            None => {
                self.min_sim() >= thresholds.permission
                    && (self.sim_lr - self.sim_rl).abs() <= thresholds.variation
            }
        }
    }

    /// The score a pair is decided and ranked by: the verdict's probability when it carries
    /// one, else the smaller Sim.
    pub fn decisive_score(&self) -> f64 {
        self.verdict.unwrap_or_else(|| self.min_sim())
    }

    /// Whether the pair may be a link of a passage when matches are judged against chance: its
    /// larger directional Sim reaches the permission. Whether the pair is evidence is then up to
    /// chance ([`crate::compare::chance`]); the permission only keeps out pairs whose shared
    /// words cover little of either sentence. One direction is enough: a reworded sentence is
    /// often split in two or merged with its neighbour, and then covers its half fully one way
    /// only. The variation threshold does not apply, for the same reason. A pair carrying the
    /// learned verdict's probability may be a link when the probability reaches the permission
    /// (the verdict then takes the Sims' place, as in [`Self::is_eq`]).
    pub fn is_link(&self, thresholds: &Thresholds) -> bool {
        match self.verdict {
            Some(probability) => probability >= thresholds.permission,
            None => self.sim_lr.max(self.sim_rl) >= thresholds.permission,
        }
    }

    /// The same pair seen from the other document.
    pub fn swapped(&self) -> ScoredPair {
        ScoredPair {
            left: self.right,
            right: self.left,
            sim_lr: self.sim_rl,
            sim_rl: self.sim_lr,
            identical: self.identical,
            joined: self.joined.map(Joined::swapped),
            e_value: self.e_value,
            verdict: self.verdict,
        }
    }
}
