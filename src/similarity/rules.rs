//! Rules on top of the thesis's Sim that decide which sentence pairs may match at all.
//!
//! Neither rule is in the thesis; each is a parameter, off in [`MatchRules::THESIS`], and was
//! measured before it became a default (EVALUATION.md, "Sentence matching"):
//! - *short sentences*: with one or two content words, a single shared word already gives Sim
//!   0.5 both ways ("Guinea is a republic." and the heading "History of Guinea" share
//!   "guinea"), which says nothing about reuse; such sentences match only a sentence with the
//!   same terms;
//! - *aligned relatedness* ([`Relate::Aligned`], [`super::aligned`]): a related word counts only
//!   where it replaces the word, not anywhere in the other sentence;
//! - *content floor*: when stopwords are kept as terms ([`crate::text::RefineOptions`]), two
//!   sentences can share many function words and nothing else; a direction's Sim then counts
//!   only if the content words alone reach the floor. This also keeps candidate generation
//!   exact and fast: the index looks at content words only, with this floor.
//!
//! Two more choices ride with the rules because a preset makes them with the rest: what the
//! relatedness `c` of eq. 3.2 is read from ([`RelatedWords`]: the model's correlations, the
//! thesis's kind, or WordNet's relations, [`super::lexical`]), and whether a pair is decided by
//! the learned verdict's probability instead of its two Sims ([`super::verdict`]).

use serde::{Deserialize, Serialize};

use super::PreparedSentence;
use super::lexical::{RelatedWords, WordnetWeights};

/// Where a word of the other sentence may vouch for a word in eq. 3.2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Relate {
    /// Every word of the other sentence, as the thesis's eq. 3.2 says.
    #[default]
    All,
    /// Only a word absent from this sentence, in the same aligned gap ([`super::aligned`]): a
    /// word that replaces it.
    Aligned,
}

impl Relate {
    pub fn name(self) -> &'static str {
        match self {
            Relate::All => "all",
            Relate::Aligned => "aligned",
        }
    }
}

impl std::str::FromStr for Relate {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "all" => Ok(Relate::All),
            "aligned" => Ok(Relate::Aligned),
            _ => Err(format!(
                "unknown relate mode `{s}` (expected all or aligned)"
            )),
        }
    }
}

/// Which pairs may match, and how related words count (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MatchRules {
    /// Sentences with fewer distinct content terms than this match only a sentence with the
    /// same terms (0: no such rule).
    pub min_terms: usize,
    /// With kept stopwords: the Sim of a direction counts (else it is 0) only if the content
    /// terms alone have at least this Sim in that direction. Ignored for sentences without
    /// stopwords, whose content terms are all their terms.
    pub content_floor: f64,
    /// Where related words count in eq. 3.2.
    pub relate: Relate,
    /// What the relatedness of two words is read from.
    pub related_words: RelatedWords,
    /// Decide a pair by the model's learned verdict: it matches when the verdict's
    /// probability reaches the permission ([`super::ScoredPair::is_eq`]).
    pub verdict: bool,
}

impl MatchRules {
    /// The thesis as written: no rule beyond eq. 3.4.
    pub const THESIS: MatchRules = MatchRules {
        min_terms: 0,
        content_floor: 0.0,
        relate: Relate::All,
        related_words: RelatedWords::Correlations,
        verdict: false,
    };

    /// The rules of the measured preset (`scripts/select-defaults.sh`, EVALUATION.md,
    /// "Operating point"): the short-sentence rule off (it cost PAN tune 0.015 F1: PAN's
    /// reworded fragments are short), relatedness as the thesis counts it (aligned relatedness
    /// scored within one standard error but compares 14x slower), and a content floor of 0.2
    /// for the kept stopwords (0.002 F1 on PAN against none, and what keeps candidate
    /// generation fast: 1.1 s against 2.8 s at 0.1 on two 5,000-sentence documents).
    pub const MEASURED: MatchRules = MatchRules {
        min_terms: 0,
        content_floor: 0.2,
        relate: Relate::All,
        related_words: RelatedWords::Correlations,
        verdict: false,
    };

    /// The measured rules with WordNet's relations counted where one word replaces another, and
    /// a content floor of 0.3 (`scripts/select-wordnet-weights.sh`, EVALUATION.md, "WordNet
    /// relatedness"): WordNet relates far more words than two sentences share, so at the
    /// measured preset's 0.2 a document comparison scores many more candidates (2.9 s of CPU
    /// against 1.2 s on two 1,000-sentence documents) for a mean F1 within one bootstrap
    /// standard error (0.8566 against 0.8565; 0.4 falls outside it, 0.8516).
    pub const WORDNET: MatchRules = MatchRules {
        content_floor: 0.3,
        relate: Relate::Aligned,
        related_words: RelatedWords::Wordnet(WordnetWeights::MEASURED),
        ..MatchRules::MEASURED
    };

    /// [`Self::WORDNET`] with pairs decided by the learned verdict (EVALUATION.md, "A learned
    /// pair verdict").
    pub const VERDICT: MatchRules = MatchRules {
        verdict: true,
        ..MatchRules::WORDNET
    };

    /// Whether these rules read WordNet's relations: as the relatedness of eq. 3.2, or in the
    /// learned verdict's features. Sentences are prepared with their words' lemmas only then.
    pub fn reads_wordnet(&self) -> bool {
        matches!(self.related_words, RelatedWords::Wordnet(_)) || self.verdict
    }

    /// Whether two sentences may match at all: both have at least [`Self::min_terms`] content
    /// terms, or they have the same terms.
    pub fn may_match(&self, left: &PreparedSentence, right: &PreparedSentence) -> bool {
        (left.content().len() >= self.min_terms && right.content().len() >= self.min_terms)
            || left.set == right.set
    }

    /// The floor the content terms alone must reach for a directional Sim to reach `floor`:
    /// `floor` itself when no stopwords are kept (content terms are all the terms), else the
    /// content floor.
    pub fn content_floor_for(&self, floor: f64, stopwords_kept: bool) -> f64 {
        if stopwords_kept {
            self.content_floor
        } else {
            floor
        }
    }
}

impl Default for MatchRules {
    fn default() -> Self {
        MatchRules::MEASURED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentence(terms: &[u32], content: Option<&[u32]>) -> PreparedSentence {
        PreparedSentence::with_content(terms.to_vec(), content.map(<[u32]>::to_vec), String::new())
    }

    #[test]
    fn short_sentences_match_only_their_own_terms() {
        let rules = MatchRules {
            min_terms: 3,
            ..MatchRules::MEASURED
        };
        let short = sentence(&[1, 2], None);
        let long = sentence(&[1, 2, 3], None);
        assert!(!rules.may_match(&short, &long));
        assert!(rules.may_match(&short, &sentence(&[2, 1], None)));
        assert!(rules.may_match(&long, &sentence(&[3, 4, 5], None)));
        // Stopwords do not make a sentence long: two content words and three stopwords.
        let padded = sentence(&[1, 2, 90, 91, 92], Some(&[1, 2]));
        assert!(!rules.may_match(&padded, &long));
        assert!(MatchRules::THESIS.may_match(&short, &long));
        assert!(
            MatchRules::MEASURED.may_match(&short, &long),
            "measured: the rule is off"
        );
    }

    #[test]
    fn content_floor_applies_only_with_stopwords() {
        let rules = MatchRules::MEASURED;
        assert_eq!(rules.content_floor_for(0.4, false), 0.4);
        assert_eq!(rules.content_floor_for(0.4, true), 0.2);
    }
}
