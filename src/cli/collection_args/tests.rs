//! Tests of the collection command's arguments: presets pick the detector, options override
//! the preset's values, names are checked.

use clap::Parser;
use simdoc::collection::presets::{CollectionPreset, Detector, PresetParams};
use simdoc::collection::{Method, codet, qsign};
use simdoc::compare::Preset as MatchingPreset;

use super::CollectionArgs;
use crate::cli::{Cli, Command};

fn parse(extra: &[&str]) -> Result<CollectionArgs, clap::Error> {
    let mut argv = vec!["simdoc", "collection", "folder"];
    argv.extend(extra);
    match Cli::try_parse_from(argv)?.command {
        Some(Command::Collection(args)) => Ok(*args),
        other => panic!("not a collection command: {other:?}"),
    }
}

#[test]
fn paper_is_every_papers_default_with_codet_and_the_thesis_matching() {
    let args = parse(&["--preset", "paper"]).unwrap();
    assert_eq!(args.detector(), Detector::CoDet);
    assert_eq!(
        args.method(),
        Some(Method::CoDet(codet::CoDetParams::default()))
    );
    let fuzzy = args.fuzzy_params().unwrap();
    assert_eq!(fuzzy.thresholds, MatchingPreset::THESIS.thresholds);
    assert_eq!(fuzzy.refine, MatchingPreset::THESIS.refine);
    assert_eq!(fuzzy.containment, 0.9);
    for (method, default) in [
        ("ffp", Method::Ffp(Default::default())),
        ("dsc", Method::Dsc(Default::default())),
        ("imatch", Method::IMatch(Default::default())),
        ("simhash", Method::SimHash(Default::default())),
        ("qsign", Method::QSign(Default::default())),
        ("roul", Method::Roul(Default::default())),
    ] {
        let args = parse(&["--preset", "paper", "--method", method]).unwrap();
        assert_eq!(args.method(), Some(default), "{method}");
    }
}

#[test]
fn a_preset_picks_the_detector_unless_a_method_is_named() {
    for (name, preset) in CollectionPreset::NAMED {
        let params = preset.params();
        let args = parse(&["--preset", name]).unwrap();
        assert_eq!(args.detector(), params.detector, "{name}");
        assert_eq!(args.method(), params.method(params.detector), "{name}");
        let named = parse(&["--preset", name, "--method", "qsign"]).unwrap();
        assert_eq!(named.method(), Some(Method::QSign(params.qsign.clone())));
    }
    // No --preset: documents without sources, teacher with them.
    let args = parse(&[]).unwrap();
    assert_eq!(args.chosen_preset(), CollectionPreset::Documents);
    assert_eq!(args.detector(), Detector::Fuzzy);
    let args = parse(&["--sources", "s"]).unwrap();
    assert_eq!(args.chosen_preset(), CollectionPreset::Teacher);
    assert_eq!(args.detector(), CollectionPreset::Teacher.params().detector);
}

#[test]
fn options_override_the_presets_values() {
    for (name, preset) in CollectionPreset::NAMED {
        let args = parse(&["--preset", name, "--method", "codet", "--etl", "0.35"]).unwrap();
        let expected = codet::CoDetParams {
            equivalency_threshold: 0.35,
            ..preset.params().codet
        };
        assert_eq!(args.method(), Some(Method::CoDet(expected)), "{name}");
        let args = parse(&["--preset", name, "--method", "qsign", "--theta", "0.8"]).unwrap();
        let expected = qsign::QSignParams {
            overlap_threshold: 0.8,
            ..preset.params().qsign
        };
        assert_eq!(args.method(), Some(Method::QSign(expected)), "{name}");
        let fuzzy = parse(&[
            "--preset",
            name,
            "--containment",
            "0.4",
            "--permission",
            "0.66",
        ])
        .unwrap()
        .fuzzy_params()
        .unwrap();
        assert_eq!(fuzzy.containment, 0.4);
        assert_eq!(fuzzy.thresholds.permission, 0.66);
        assert_eq!(
            fuzzy.thresholds.variation,
            preset.params().fuzzy.thresholds.variation
        );
    }
}

#[test]
fn the_matching_preset_replaces_the_presets_matching_only() {
    let args = parse(&["--preset", "paper", "--matching-preset", "measured"]).unwrap();
    let fuzzy = args.fuzzy_params().unwrap();
    assert_eq!(fuzzy.thresholds, MatchingPreset::MEASURED.thresholds);
    assert_eq!(fuzzy.refine, MatchingPreset::MEASURED.refine);
    assert_eq!(fuzzy.rules, MatchingPreset::MEASURED.rules);
    assert_eq!(fuzzy.containment, PresetParams::paper().fuzzy.containment);
    let thesis = parse(&["--matching-preset", "thesis", "--variation", "0.3"])
        .unwrap()
        .fuzzy_params()
        .unwrap();
    assert_eq!(thesis.thresholds.permission, 0.825);
    assert_eq!(thesis.thresholds.variation, 0.3);
}

#[test]
fn a_matching_preset_given_as_the_preset_points_to_the_right_option() {
    let error = parse(&["--preset", "thesis"]).unwrap_err().to_string();
    assert!(error.contains("--matching-preset thesis"), "{error}");
    let error = parse(&["--preset", "loose"]).unwrap_err().to_string();
    assert!(
        error.contains("expected paper, teacher, news, documents"),
        "{error}"
    );
}
