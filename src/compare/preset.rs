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
//! - [`Preset::TEACHER`] and [`Preset::NEWS`]: the sentence matching of collection mode's
//!   teacher and news presets (the measured matching at permission 0.6 and 0.5), so that a pair
//!   of their reports compared alone, or a document's sources, read as the report does.
//!
//! The wordnet and verdict presets need a model with WordNet's relations and a verdict (the
//! embedded one has both); EVALUATION.md, "WordNet relatedness" and "A learned pair verdict",
//! says how they were chosen and what they score.
//!
//! [`Preset::all`] is the one table of them (name, title, purpose, settings) that the command
//! line's `--preset` (its values and their help), the viewer's preset menu, saved settings and
//! reports all read.

use serde::{Deserialize, Serialize};

use super::chance::ChanceSearch;
use crate::similarity::{MatchRules, Thresholds};
use crate::text::RefineOptions;

/// A named matching configuration (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Preset {
    pub refine: RefineOptions,
    pub rules: MatchRules,
    pub thresholds: Thresholds,
    /// Judge a document comparison's matches against chance, and how to search for them
    /// ([`crate::compare::chance`]); `None` for every pair whose Sims reach the floor.
    #[serde(default, alias = "chance")]
    pub chance_search: Option<ChanceSearch>,
}

impl Preset {
    /// The thesis: stopwords and numbers removed, no rule beyond eq. 3.4, 0.825 / 0.15.
    pub const THESIS: Preset = Preset {
        refine: RefineOptions::THESIS,
        rules: MatchRules::THESIS,
        thresholds: Thresholds::THESIS,
        chance_search: None,
    };

    /// Chosen by measurement (see [`Thresholds::MEASURED`] and EVALUATION.md).
    pub const MEASURED: Preset = Preset {
        refine: RefineOptions::MEASURED,
        rules: MatchRules::MEASURED,
        thresholds: Thresholds::MEASURED,
        chance_search: None,
    };

    /// What a document comparison shows by default: the measured preset's sentence matching,
    /// with every match judged against chance in its comparison, chosen by plagdet on the
    /// text-alignment corpus (EVALUATION.md, "Text alignment").
    pub const DOCUMENTS: Preset = Preset {
        refine: RefineOptions::MEASURED,
        rules: MatchRules::MEASURED,
        thresholds: Thresholds::DOCUMENTS,
        chance_search: Some(ChanceSearch::DEFAULT),
    };

    /// WordNet's relations counted where one word replaces another (see the module docs).
    pub const WORDNET: Preset = Preset {
        refine: RefineOptions::MEASURED,
        rules: MatchRules::WORDNET,
        thresholds: Thresholds::WORDNET,
        chance_search: None,
    };

    /// Pairs decided by the learned verdict (see the module docs).
    pub const VERDICT: Preset = Preset {
        refine: RefineOptions::MEASURED,
        rules: MatchRules::VERDICT,
        thresholds: Thresholds::VERDICT,
        chance_search: None,
    };

    /// Collection mode's teacher preset's sentence matching: the measured matching with every
    /// pair whose Sims reach 0.6 (chosen with the preset: EVALUATION.md, "Collection presets").
    pub const TEACHER: Preset = Preset {
        thresholds: Thresholds {
            permission: 0.6,
            ..Thresholds::MEASURED
        },
        ..Preset::MEASURED
    };

    /// Collection mode's news preset's sentence matching: the measured matching at 0.5.
    pub const NEWS: Preset = Preset {
        thresholds: Thresholds {
            permission: 0.5,
            ..Thresholds::MEASURED
        },
        ..Preset::MEASURED
    };

    /// Every preset a user can choose, in the order menus and help list them: the default of a
    /// comparison of documents first, then the thesis as written.
    pub const fn all() -> &'static [NamedPreset] {
        &PRESETS
    }

    /// The preset called `name` (as [`NamedPreset::name`]).
    pub fn named(name: &str) -> Option<Preset> {
        NamedPreset::named(name).map(|p| p.preset)
    }

    /// The name of the preset equal to this configuration, if any.
    pub fn name(&self) -> Option<&'static str> {
        self.named_preset().map(|p| p.name)
    }

    /// The table's entry equal to this configuration, if any.
    pub fn named_preset(&self) -> Option<&'static NamedPreset> {
        PRESETS.iter().find(|p| p.preset == *self)
    }
}

/// A preset as users meet it (see [`Preset::all`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NamedPreset {
    /// What command lines and saved settings call it.
    pub name: &'static str,
    /// What menus show.
    pub title: &'static str,
    /// What it is for, in one line (help and tooltips).
    pub purpose: &'static str,
    pub preset: Preset,
}

impl NamedPreset {
    /// The entry called `name`.
    pub fn named(name: &str) -> Option<&'static NamedPreset> {
        PRESETS.iter().find(|p| p.name == name)
    }
}

/// The table (see [`Preset::all`]).
const PRESETS: [NamedPreset; 7] = [
    NamedPreset {
        name: "documents",
        title: "Documents",
        purpose: "the default for comparing documents: only passages unlikely by chance in this \
                  comparison count (chosen by plagdet on documents of 0.5 KB to 5 MB)",
        preset: Preset::DOCUMENTS,
    },
    NamedPreset {
        name: "thesis",
        title: "Thesis",
        purpose: "the thesis as written: permission 0.825, variation 0.15 (eq. 3.4), stopwords \
                  and numbers removed, no other rule",
        preset: Preset::THESIS,
    },
    NamedPreset {
        name: "measured",
        title: "Measured",
        purpose: "every sentence pair whose Sims reach 0.4, the best F1 on isolated sentence \
                  pairs; on long documents chance pairs pass too",
        preset: Preset::MEASURED,
    },
    NamedPreset {
        name: "verdict",
        title: "Verdict",
        purpose: "pairs decided by the learned verdict's probability (the permission applies to \
                  it): the default for deciding whether two sentences say the same",
        preset: Preset::VERDICT,
    },
    NamedPreset {
        name: "wordnet",
        title: "WordNet",
        purpose: "the measured matching with WordNet's relations between words (synonyms, \
                  derived forms, hypernyms) counted where one word replaces another",
        preset: Preset::WORDNET,
    },
    NamedPreset {
        name: "teacher",
        title: "Teacher",
        purpose: "collection mode's teacher preset (submissions against sources): every sentence \
                  pair whose Sims reach 0.6, as its reports count them",
        preset: Preset::TEACHER,
    },
    NamedPreset {
        name: "news",
        title: "News",
        purpose: "collection mode's news preset (versions of one story in a feed): every sentence \
                  pair whose Sims reach 0.5, as its reports count them",
        preset: Preset::NEWS,
    },
];

impl Preset {
    /// The default for a yes/no decision on a pair of sentences (`simdoc eval pairs`): the
    /// verdict preset, whose F1 is the best on the training data, the criterion for such a
    /// decision (10-fold cross-validated F1 0.835 on MSRP train and 0.903 on PAN tune, against
    /// 0.816 and 0.885 for the measured preset; EVALUATION.md, "A learned pair verdict"). It
    /// needs the model's verdict and WordNet table; with a model that lacks either, the measured
    /// preset, which needs neither.
    pub fn for_sentence_pairs(model: &dyn crate::similarity::ModelView) -> Preset {
        if crate::similarity::lexical::require(model, &Preset::VERDICT.rules).is_ok() {
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
                max_e_value: None,
                min_words: 0,
            },
            ..Preset::MEASURED
        };
        assert_eq!(custom.name(), None);
    }

    #[test]
    fn the_table_names_each_preset_once_and_the_collection_presets_match() {
        use crate::collection::presets::CollectionPreset;
        let names: Vec<&str> = Preset::all().iter().map(|p| p.name).collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        for (i, p) in Preset::all().iter().enumerate() {
            assert_eq!(Preset::named(p.name), Some(p.preset));
            // No two entries share settings, so a configuration names one preset.
            assert!(
                Preset::all()[..i].iter().all(|q| q.preset != p.preset),
                "{}",
                p.name
            );
            assert!(!p.purpose.is_empty() && !p.title.is_empty());
        }
        assert_eq!(Preset::all()[0].preset, Preset::default());
        assert_eq!(
            Preset::named("teacher"),
            Some(CollectionPreset::Teacher.matching())
        );
        assert_eq!(
            Preset::named("news"),
            Some(CollectionPreset::News.matching())
        );
        assert_eq!(
            Preset::named("documents"),
            Some(CollectionPreset::Documents.matching())
        );
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
