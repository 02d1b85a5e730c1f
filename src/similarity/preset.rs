//! Named matching configurations: how sentences are refined, which pairs may match, and the
//! thresholds of eq. 3.4, chosen together because they were measured together.
//!
//! - [`Preset::THESIS`]: the thesis as written (3.1 refinement, eq. 3.4 at 0.825 / 0.15, no
//!   other rule), kept so its figures stay reproducible;
//! - [`Preset::MEASURED`]: the Sim-based sentence matching with the best F1 on the training data
//!   (MSRP train, PAN tune), chosen by `scripts/select-defaults.sh`; what the documents preset,
//!   `simdoc sources` and a collection's fuzzy comparison build on (they decide by the Sims);
//! - [`Preset::DOCUMENTS`]: the measured sentence matching with every match judged against chance
//!   in its comparison, chosen by plagdet on the text-alignment corpus; the default of every
//!   comparison of documents.
//! - [`Preset::WORDNET`]: the measured refinement with WordNet's relations between words,
//!   counted where one word replaces another, at its own thresholds;
//! - [`Preset::VERDICT`]: the same pairs decided by the learned verdict's probability
//!   (its permission is a probability); the default for deciding whether two sentences say the
//!   same ([`Preset::for_sentence_pairs`]).
//!
//! The last two need a model with WordNet's relations and a verdict (the embedded one has
//! both); EVALUATION.md, "WordNet relatedness" and "A learned pair verdict", says how they were
//! chosen and what they score.

use serde::{Deserialize, Serialize};

use super::{MatchRules, Thresholds};
use crate::compare::chance::ChanceOptions;
use crate::text::RefineOptions;

/// A named matching configuration (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Preset {
    pub refine: RefineOptions,
    pub rules: MatchRules,
    pub thresholds: Thresholds,
    /// Judge a document comparison's matches against chance, and how to search for them
    /// ([`crate::compare::chance`]); `None` for every pair whose Sims reach the floor.
    #[serde(default)]
    pub chance: Option<ChanceOptions>,
}

impl Preset {
    /// The thesis: stopwords and numbers removed, no rule beyond eq. 3.4, 0.825 / 0.15.
    pub const THESIS: Preset = Preset {
        refine: RefineOptions::THESIS,
        rules: MatchRules::THESIS,
        thresholds: Thresholds::THESIS,
        chance: None,
    };

    /// Chosen by measurement (see [`Thresholds::MEASURED`] and EVALUATION.md).
    pub const MEASURED: Preset = Preset {
        refine: RefineOptions::MEASURED,
        rules: MatchRules::MEASURED,
        thresholds: Thresholds::MEASURED,
        chance: None,
    };

    /// What a document comparison shows by default: the measured preset's sentence matching,
    /// with every match judged against chance in its comparison, chosen by plagdet on the
    /// text-alignment corpus (EVALUATION.md, "Text alignment").
    pub const DOCUMENTS: Preset = Preset {
        refine: RefineOptions::MEASURED,
        rules: MatchRules::MEASURED,
        thresholds: Thresholds::DOCUMENTS,
        chance: Some(ChanceOptions::DEFAULT),
    };

    /// WordNet's relations counted where one word replaces another (see the module docs).
    pub const WORDNET: Preset = Preset {
        refine: RefineOptions::MEASURED,
        rules: MatchRules::WORDNET,
        thresholds: Thresholds::WORDNET,
        chance: None,
    };

    /// Pairs decided by the learned verdict (see the module docs).
    pub const VERDICT: Preset = Preset {
        refine: RefineOptions::MEASURED,
        rules: MatchRules::VERDICT,
        thresholds: Thresholds::VERDICT,
        chance: None,
    };

    /// The presets by name, for command lines and settings.
    pub const NAMED: [(&'static str, Preset); 5] = [
        ("documents", Preset::DOCUMENTS),
        ("measured", Preset::MEASURED),
        ("thesis", Preset::THESIS),
        ("wordnet", Preset::WORDNET),
        ("verdict", Preset::VERDICT),
    ];

    /// The preset called `name`.
    pub fn named(name: &str) -> Option<Preset> {
        Preset::NAMED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, p)| p)
    }

    /// The name of the preset equal to this configuration, if any.
    pub fn name(&self) -> Option<&'static str> {
        Preset::NAMED
            .iter()
            .find(|(_, p)| p == self)
            .map(|&(n, _)| n)
    }
}

impl Preset {
    /// The default for a yes/no decision on a pair of sentences (`simdoc eval pairs`): the
    /// verdict preset, whose F1 is the best on the training data, the criterion for such a
    /// decision (10-fold cross-validated F1 0.835 on MSRP train and 0.903 on PAN tune, against
    /// 0.816 and 0.885 for the measured preset; EVALUATION.md, "A learned pair verdict"). It
    /// needs the model's verdict and WordNet table; with a model that lacks either, the measured
    /// preset, which needs neither.
    pub fn for_sentence_pairs(model: &dyn super::ModelView) -> Preset {
        if super::lexical::require(model, &Preset::VERDICT.rules).is_ok() {
            Preset::VERDICT
        } else {
            Preset::MEASURED
        }
    }
}

/// The default is what a comparison of documents shows: [`Preset::DOCUMENTS`].
impl Default for Preset {
    fn default() -> Self {
        Preset::DOCUMENTS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_found_by_name_and_named_back() {
        assert_eq!(Preset::named("thesis"), Some(Preset::THESIS));
        assert_eq!(Preset::named("measured"), Some(Preset::MEASURED));
        assert_eq!(Preset::named("Thesis"), None);
        assert_eq!(Preset::THESIS.name(), Some("thesis"));
        assert_eq!(Preset::default(), Preset::DOCUMENTS);
        assert_eq!(Preset::named("documents"), Some(Preset::DOCUMENTS));
        let custom = Preset {
            thresholds: Thresholds {
                permission: 0.61,
                variation: 0.0,
                chance: None,
                min_words: 0,
            },
            ..Preset::MEASURED
        };
        assert_eq!(custom.name(), None);
    }

    #[test]
    fn sentence_pairs_are_decided_by_the_verdict_where_the_model_has_one() {
        let embedded = crate::model::ReferenceModel::embedded();
        assert_eq!(Preset::for_sentence_pairs(embedded), Preset::VERDICT);
        // Without WordNet's table the verdict cannot be computed: the measured preset.
        let without = crate::similarity::lexical::WithoutLexicon(embedded);
        assert_eq!(Preset::for_sentence_pairs(&without), Preset::MEASURED);
    }
}
