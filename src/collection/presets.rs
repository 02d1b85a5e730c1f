//! Named operating points of collection mode: one name sets every detector's parameters (and
//! the detector run when none is named).
//!
//! - [`CollectionPreset::Paper`]: each paper's defaults exactly (the `Default` of every
//!   detector's parameters; the thesis's own matching, 0.825 / 0.15, for the fuzzy comparison),
//!   and CoDet as the detector. The faithful reference point.
//! - [`CollectionPreset::Teacher`]: a folder of sources and submissions; find the submissions
//!   that reuse a source, also when revised, with few false submission-source pairs.
//! - [`CollectionPreset::News`]: a feed of stories; find the versions of one story (copies,
//!   cuts, additions, light edits), with few pairs of merely related stories.
//! - [`CollectionPreset::Documents`]: any folder of documents; find every pair that shares a
//!   passage, however small a part of either, judged against chance as `simdoc compare` judges
//!   one pair (its default matching, the documents preset), so that a pair reads the same in
//!   both.
//!
//! The papers leave operating points to their users (CoDet's ETL is tested at several values,
//! qSign's and DSC's thresholds are the experimenters'), and at their defaults reworded reuse
//! is found by none of the collection detectors. The teacher and news values were chosen on
//! tuning parts of sets built from public data where the truth is known, by a named criterion
//! per preset, and checked on held-out parts: `examples/eval_collection.rs` (`presets`) and
//! EVALUATION.md, "Collection presets", which give the grids, the criterion and the figures.

use super::{Method, codet, dsc, ffp, fuzzy, imatch, qsign, roul, simhash};
use crate::compare::Preset as MatchingPreset;
use crate::similarity::Thresholds;

/// Every detector of collection mode, without its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Detector {
    CoDet,
    Dsc,
    Ffp,
    IMatch,
    SimHash,
    QSign,
    Roul,
    /// The thesis's fuzzy-set comparison of every document pair ([`fuzzy`]).
    Fuzzy,
}

impl Detector {
    /// Every detector, in the order of [`Method::all_defaults`], then the fuzzy comparison.
    pub const ALL: [Detector; 8] = [
        Detector::Ffp,
        Detector::CoDet,
        Detector::IMatch,
        Detector::SimHash,
        Detector::Dsc,
        Detector::QSign,
        Detector::Roul,
        Detector::Fuzzy,
    ];

    /// The name used on the command line and in reports (as [`Method::name`]).
    pub fn name(self) -> &'static str {
        match self {
            Detector::CoDet => "codet",
            Detector::Dsc => "dsc",
            Detector::Ffp => "ffp",
            Detector::IMatch => "imatch",
            Detector::SimHash => "simhash",
            Detector::QSign => "qsign",
            Detector::Roul => "roul",
            Detector::Fuzzy => "fuzzy",
        }
    }
}

/// A named operating point (module docs). The command line takes `Teacher` when sources are
/// marked and `Documents` otherwise (the question decides; EVALUATION.md, "Collection
/// presets").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CollectionPreset {
    Paper,
    Teacher,
    News,
    Documents,
}

impl CollectionPreset {
    /// The presets by name, for command lines and settings.
    pub const NAMED: [(&'static str, CollectionPreset); 4] = [
        ("paper", CollectionPreset::Paper),
        ("teacher", CollectionPreset::Teacher),
        ("news", CollectionPreset::News),
        ("documents", CollectionPreset::Documents),
    ];

    /// The preset called `name`.
    pub fn named(name: &str) -> Option<CollectionPreset> {
        Self::NAMED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, p)| p)
    }

    /// The preset for the question asked when none is chosen. With sources marked it is the
    /// teacher's ("which submissions reuse which sources?"); without, the documents preset's
    /// ("which documents share a passage?"): partial reuse planted between two of 500
    /// documents is found at recall 1.00 with 0.16 unrelated pairs per 10,000, where the news
    /// preset's FFP, made for versions of one story, finds 1 of 20 (EVALUATION.md, "Collection
    /// presets"). A feed of thousands of stories asks for versions: `--preset news`.
    pub fn for_question(sources_marked: bool) -> CollectionPreset {
        if sources_marked {
            CollectionPreset::Teacher
        } else {
            CollectionPreset::Documents
        }
    }

    /// The preset's name.
    pub fn name(self) -> &'static str {
        match self {
            CollectionPreset::Paper => "paper",
            CollectionPreset::Teacher => "teacher",
            CollectionPreset::News => "news",
            CollectionPreset::Documents => "documents",
        }
    }

    /// The sentence matching of this preset's fuzzy comparison, as a matching preset: what
    /// its evidence (containment, passages) and pair pages are computed with, and what
    /// `simdoc compare --preset teacher` and `simdoc sources --preset teacher` use, so that one
    /// pair shows the same figures wherever it is shown.
    pub fn matching(self) -> MatchingPreset {
        self.params().fuzzy.matching()
    }

    /// Every detector's parameters under this preset.
    pub fn params(self) -> PresetParams {
        match self {
            CollectionPreset::Paper => PresetParams::paper(),
            CollectionPreset::Teacher => PresetParams::teacher(),
            CollectionPreset::News => PresetParams::news(),
            CollectionPreset::Documents => PresetParams::documents(),
        }
    }
}

/// Every detector's parameters, and the detector run when none is named.
#[derive(Clone, Debug, PartialEq)]
pub struct PresetParams {
    pub detector: Detector,
    pub codet: codet::CoDetParams,
    pub dsc: dsc::DscParams,
    pub ffp: ffp::FfpParams,
    pub imatch: imatch::IMatchParams,
    pub simhash: simhash::SimHashParams,
    pub qsign: qsign::QSignParams,
    pub roul: roul::RoulParams,
    pub fuzzy: fuzzy::FuzzyParams,
}

impl PresetParams {
    /// The papers' defaults; the fuzzy comparison with the thesis's matching.
    pub fn paper() -> Self {
        PresetParams {
            detector: Detector::CoDet,
            codet: Default::default(),
            dsc: Default::default(),
            ffp: Default::default(),
            imatch: Default::default(),
            simhash: Default::default(),
            qsign: Default::default(),
            roul: Default::default(),
            fuzzy: with_matching(fuzzy::FuzzyParams::default(), MatchingPreset::THESIS),
        }
    }

    /// Containment and revised reuse with few false pairs. Chosen on the tuning parts of bbc,
    /// article-html and pan (EVALUATION.md, "Collection presets"; criterion: the mean over the
    /// three of F1 of attribution and pair precision). The fuzzy comparison leads by far (0.915
    /// against FFP's 0.820), so it is the detector; every other detector gets its own best
    /// setting.
    pub fn teacher() -> Self {
        PresetParams {
            detector: Detector::Fuzzy,
            codet: codet::CoDetParams {
                equivalency_threshold: 0.1,
                ..Default::default()
            },
            dsc: dsc::DscParams {
                containment_threshold: 0.1,
                sampling: dsc::Sampling::Hash,
                ..Default::default()
            },
            ffp: ffp::FfpParams {
                containment_threshold: 0.2,
                shingle_size: 2,
                ..Default::default()
            },
            imatch: imatch::IMatchParams {
                skipped_words: 4,
                fingerprint_words: 2,
            },
            simhash: simhash::SimHashParams {
                skipped_words: 0,
                max_distance: 16,
            },
            qsign: qsign::QSignParams {
                overlap_threshold: 0.3,
                min_reuse_share: 0.1,
                ..Default::default()
            },
            roul: roul::RoulParams {
                th1: 24,
                th2: 50,
                th4: 0.8,
                ..Default::default()
            },
            fuzzy: fuzzy::FuzzyParams {
                min_resemblance: 0.2,
                ..with_matching(fuzzy::FuzzyParams::default(), MatchingPreset::TEACHER)
            },
        }
    }

    /// Versions of one story in a feed. Chosen on the tuning part of the BBC versions set
    /// (EVALUATION.md, "Collection presets"; criterion: F1 of story-version pairs). FFP is the
    /// detector: within 0.005 of the fuzzy comparison (0.998 against 1.000, one pair in 323)
    /// at a small part of its cost, which counts for a feed.
    pub fn news() -> Self {
        PresetParams {
            detector: Detector::Ffp,
            codet: codet::CoDetParams {
                equivalency_threshold: 0.7,
                depth_threshold: 3,
                ..Default::default()
            },
            dsc: dsc::DscParams {
                containment_threshold: 0.7,
                shingle_size: 3,
                sampling: dsc::Sampling::Hash,
                ..Default::default()
            },
            ffp: ffp::FfpParams {
                containment_threshold: 0.8,
                shingle_size: 2,
                ..Default::default()
            },
            imatch: imatch::IMatchParams {
                skipped_words: 0,
                fingerprint_words: 2,
            },
            simhash: simhash::SimHashParams {
                skipped_words: 0,
                max_distance: 14,
            },
            qsign: qsign::QSignParams {
                overlap_threshold: 0.1,
                min_reuse_share: 0.6,
                ..Default::default()
            },
            roul: roul::RoulParams {
                th2: 50,
                ..Default::default()
            },
            fuzzy: fuzzy::FuzzyParams {
                min_resemblance: 0.9,
                ..with_matching(fuzzy::FuzzyParams::default(), MatchingPreset::NEWS)
            },
        }
    }

    /// Shared passages between any two documents: the fuzzy comparison judged against chance
    /// with `simdoc compare`'s default matching ([`MatchingPreset::DOCUMENTS`]), a pair
    /// reported when one of its passages passes the chance bar over the whole collection
    /// ([`fuzzy::judged`]), however small a share of either document it is (cut 0). Measured,
    /// not tuned: it has no parameter of its own beyond the compare default, which plagdet
    /// chose. The other detectors keep the teacher preset's settings (reuse, not versions).
    pub fn documents() -> Self {
        PresetParams {
            detector: Detector::Fuzzy,
            fuzzy: fuzzy::FuzzyParams {
                min_resemblance: 0.0,
                max_sharing: Some(DOCUMENTS_MAX_SHARING),
                ..with_matching(fuzzy::FuzzyParams::default(), MatchingPreset::DOCUMENTS)
            },
            ..PresetParams::teacher()
        }
    }

    /// The detector's parameters as a [`Method`]; `None` for the fuzzy comparison, which reads
    /// the documents rather than a [`super::Collection`] (its parameters are [`Self::fuzzy`]).
    pub fn method(&self, detector: Detector) -> Option<Method> {
        Some(match detector {
            Detector::CoDet => Method::CoDet(self.codet.clone()),
            Detector::Dsc => Method::Dsc(self.dsc.clone()),
            Detector::Ffp => Method::Ffp(self.ffp.clone()),
            Detector::IMatch => Method::IMatch(self.imatch.clone()),
            Detector::SimHash => Method::SimHash(self.simhash.clone()),
            Detector::QSign => Method::QSign(self.qsign.clone()),
            Detector::Roul => Method::Roul(self.roul.clone()),
            Detector::Fuzzy => return None,
        })
    }
}

/// How many documents the documents preset lets hold a text before it is common and left out
/// of the pairs ([`fuzzy::common_text`]): MOSS's default for its `-m`. On planted partial
/// reuse it loses nothing (20 of 20 at 10, 19 of 20 at 2, EVALUATION.md, "Collection
/// presets"); on a feed it keeps templated lines (earnings tables, datelines) held by
/// thousands of stories from pairing every two of them.
pub const DOCUMENTS_MAX_SHARING: usize = 10;

/// `params` with the matching (refining, rules, thresholds and chance search) of `matching`.
pub fn with_matching(params: fuzzy::FuzzyParams, matching: MatchingPreset) -> fuzzy::FuzzyParams {
    fuzzy::FuzzyParams {
        thresholds: matching.thresholds,
        refine: matching.refine,
        rules: matching.rules,
        chance_search: matching.chance_search,
        ..params
    }
}

/// `params` with the permission of eq. 3.4 set to `permission` (variation kept).
pub fn with_permission(params: fuzzy::FuzzyParams, permission: f64) -> fuzzy::FuzzyParams {
    fuzzy::FuzzyParams {
        thresholds: Thresholds {
            permission,
            ..params.thresholds
        },
        ..params
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_none() {
        for (name, preset) in CollectionPreset::NAMED {
            assert_eq!(CollectionPreset::named(name), Some(preset));
            assert_eq!(preset.name(), name);
        }
        assert_eq!(CollectionPreset::named("thesis"), None);
        let names: Vec<&str> = Detector::ALL.iter().map(|d| d.name()).collect();
        assert_eq!(
            names,
            [
                "ffp", "codet", "imatch", "simhash", "dsc", "qsign", "roul", "fuzzy"
            ]
        );
    }

    #[test]
    fn paper_is_every_papers_default() {
        let paper = CollectionPreset::Paper.params();
        let methods: Vec<Method> = Detector::ALL
            .iter()
            .filter_map(|&d| paper.method(d))
            .collect();
        assert_eq!(methods, Method::all_defaults());
        assert_eq!(paper.detector, Detector::CoDet);
        assert_eq!(
            paper.fuzzy,
            fuzzy::FuzzyParams {
                thresholds: MatchingPreset::THESIS.thresholds,
                refine: MatchingPreset::THESIS.refine,
                rules: MatchingPreset::THESIS.rules,
                ..fuzzy::FuzzyParams::default()
            }
        );
    }

    #[test]
    fn a_presets_method_carries_its_parameters_and_fuzzy_has_none() {
        for (_, preset) in CollectionPreset::NAMED {
            let p = preset.params();
            assert_eq!(p.method(Detector::Fuzzy), None);
            assert_eq!(
                p.method(Detector::CoDet),
                Some(Method::CoDet(p.codet.clone()))
            );
            assert_eq!(p.method(Detector::Roul), Some(Method::Roul(p.roul.clone())));
            let names: Vec<&str> = Detector::ALL
                .iter()
                .filter_map(|&d| p.method(d).map(|m| m.name()))
                .collect();
            let expected: Vec<&str> = Detector::ALL[..7].iter().map(|d| d.name()).collect();
            assert_eq!(names, expected);
        }
    }

    #[test]
    fn permission_and_matching_helpers_change_only_their_part() {
        let base = fuzzy::FuzzyParams {
            containment: 0.7,
            min_resemblance: 0.3,
            ..fuzzy::FuzzyParams::default()
        };
        let thesis = with_matching(base, MatchingPreset::THESIS);
        assert_eq!(thesis.thresholds, MatchingPreset::THESIS.thresholds);
        assert_eq!((thesis.containment, thesis.min_resemblance), (0.7, 0.3));
        let stricter = with_permission(thesis, 0.9);
        assert_eq!(stricter.thresholds.permission, 0.9);
        assert_eq!(
            stricter.thresholds.variation,
            MatchingPreset::THESIS.thresholds.variation
        );
        assert_eq!(stricter.refine, MatchingPreset::THESIS.refine);
    }
}
