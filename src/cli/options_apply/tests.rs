//! A test per option: every detector option of `simdoc collection` (generated from clap's own
//! list of arguments under the detectors' headings) changes the run's parameters with each
//! detector that accepts it and is refused with every other; every option of the search judged
//! against chance is refused by a matching that does not judge and changes one that does.

use clap::{CommandFactory, Parser};
use simdoc::collection::presets::Detector;
use simdoc::compare::Preset;

use super::super::collection_args::CollectionArgs;
use super::super::{Cli, Command, MatchingValues};

fn collection(extra: &[String]) -> Result<CollectionArgs, clap::Error> {
    let mut argv = vec!["simdoc".to_string(), "collection".into(), "folder".into()];
    argv.extend(extra.iter().cloned());
    match Cli::try_parse_from(argv)?.command {
        Some(Command::Collection(args)) => Ok(*args),
        other => panic!("not a collection command: {other:?}"),
    }
}

/// What a run's detector and fuzzy comparison are configured with.
fn configuration(args: &CollectionArgs) -> String {
    format!("{:?} {:?}", args.method(), args.fuzzy_params().ok())
}

/// Values tried for an option, in turn: one of them must change what it sets.
const VALUES: [&str; 6] = ["7", "0.37", "3", "0.8", "0.1", "45"];

#[test]
fn every_detector_option_changes_its_detectors_run_and_is_refused_by_the_others() {
    let mut command = Cli::command();
    command.build();
    let collection_command = command
        .find_subcommand("collection")
        .expect("a collection command");
    let headings = [
        "CoDet",
        "DSC / FFP / Roul",
        "I-Match / SimHash",
        "qSign",
        "Roul",
    ];
    let mut checked = Vec::new();
    for arg in collection_command.get_arguments() {
        let id = arg.get_id().as_str();
        let fuzzy_own = matches!(id, "containment" | "min_resemblance");
        if !arg
            .get_help_heading()
            .is_some_and(|h| headings.contains(&h))
            && !fuzzy_own
        {
            continue;
        }
        let flag = format!("--{}", arg.get_long().expect("a long option"));
        let takes_value = arg.get_action().takes_values();
        let mut values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .map(|v| v.get_name().to_string())
            .collect();
        values.extend(VALUES.map(String::from));
        // qSign's false-hit rate refines the range derived from a word flexibility.
        let needs: Vec<String> = if flag == "--false-hit-rate" {
            vec!["--word-flexibility".into(), "3".into()]
        } else {
            Vec::new()
        };
        let mut accepted_by = Vec::new();
        for detector in Detector::ALL {
            let mut base = vec!["--method".to_string(), detector.name().to_string()];
            base.extend(needs.iter().cloned());
            let baseline = collection(&base).expect("the baseline parses");
            if baseline.check_options_apply().is_err() {
                // The option it refines is refused here already (qSign's word flexibility).
                continue;
            }
            let candidates: Vec<Option<&String>> = if takes_value {
                values.iter().map(Some).collect()
            } else {
                vec![None]
            };
            let mut outcome = None;
            for value in candidates {
                let mut with = base.clone();
                with.push(flag.clone());
                with.extend(value.cloned());
                let Ok(args) = collection(&with) else {
                    continue;
                };
                match args.check_options_apply() {
                    Err(err) => {
                        assert!(err.to_string().contains(&flag), "{err}");
                        outcome = Some(false);
                        break;
                    }
                    Ok(()) if configuration(&args) != configuration(&baseline) => {
                        outcome = Some(true);
                        break;
                    }
                    Ok(()) => {}
                }
            }
            match outcome {
                Some(true) => accepted_by.push(detector),
                Some(false) => {}
                None => panic!(
                    "{flag} with {} is accepted and changes nothing",
                    detector.name()
                ),
            }
        }
        assert!(
            !accepted_by.is_empty(),
            "{flag} is refused by every detector"
        );
        checked.push(flag);
    }
    assert!(checked.len() >= 28, "{checked:?}");
    // Where the words and idf come from: the detectors' preparation, not the fuzzy comparison's.
    for extra in [["--normaliser", "first5"], ["--idf", "reference"]] {
        let argv: Vec<String> = ["--method", "fuzzy", extra[0], extra[1]]
            .iter()
            .map(|a| a.to_string())
            .collect();
        let args = collection(&argv).expect("parses");
        assert!(args.check_options_apply().is_err(), "{extra:?}");
    }
    let args =
        collection(&["--method", "dsc", "--idf", "reference"].map(String::from)).expect("parses");
    assert!(
        args.check_options_apply().is_err(),
        "DSC hashes shingles, not idf"
    );
    // A matching option with no fuzzy comparison in the run.
    let args = collection(
        &[
            "--method",
            "simhash",
            "--evidence",
            "0",
            "--permission",
            "0.5",
        ]
        .map(String::from),
    )
    .expect("parses");
    assert!(args.check_options_apply().is_err());
    let args = collection(&["--method", "simhash", "--permission", "0.5"].map(String::from))
        .expect("parses");
    assert!(
        args.check_options_apply().is_ok(),
        "the evidence uses the matching"
    );
}

#[derive(Debug, Parser)]
struct Values {
    #[command(flatten)]
    values: MatchingValues,
}

#[test]
fn every_chance_search_option_is_refused_where_nothing_is_judged_and_counts_where_it_is() {
    // Values unlike the documents preset's own.
    let options = [
        ("--max-e-value", "1e-3"),
        ("--link-bar", "5.5"),
        ("--seed-link-bar", "5.5"),
        ("--reach", "7"),
        ("--seeds-per-sentence", "7"),
        ("--prior-sentences", "7"),
        ("--bridge-identical", "false"),
        ("--cooccurrence-discount", "false"),
        ("--discount-list-cap", "7"),
        ("--discount-bar", "0.37"),
        ("--related-evidence", "synonyms"),
        ("--related-discount", "2"),
    ];
    for (flag, value) in options {
        let parsed = Values::try_parse_from(["values", flag, value]).expect("parses");
        let err = parsed
            .values
            .over(Preset::MEASURED)
            .expect_err("the measured matching does not judge");
        assert!(err.to_string().contains(flag), "{err}");
        let judged = parsed
            .values
            .over(Preset::DOCUMENTS)
            .expect("the default judges");
        assert_ne!(judged, Preset::DOCUMENTS, "{flag} changes nothing");
        // Turned on for the run, the search takes it.
        let on = Values::try_parse_from(["values", "--judge-chance", "true", flag, value])
            .expect("parses");
        assert!(on.values.over(Preset::MEASURED).is_ok(), "{flag}");
        // Turned off, it is refused.
        let off = Values::try_parse_from(["values", "--judge-chance", "false", flag, value])
            .expect("parses");
        assert!(off.values.over(Preset::DOCUMENTS).is_err(), "{flag}");
    }
}

#[test]
fn the_matching_options_a_method_does_not_read_are_refused() {
    use simdoc::similarity::Method;
    // (option, value, the methods that read it)
    let cases: [(&str, &str, &[Method]); 8] = [
        ("--relate", "aligned", &[Method::Fuzzy]),
        ("--related-words", "wordnet", &[Method::Fuzzy]),
        ("--verdict", "true", &[Method::Fuzzy]),
        ("--permission", "0.5", &[Method::Fuzzy, Method::Overlap]),
        ("--variation", "0.5", &[Method::Fuzzy, Method::Overlap]),
        ("--judge-chance", "false", &[Method::Fuzzy, Method::Overlap]),
        ("--link-bar", "5.5", &[Method::Fuzzy, Method::Overlap]),
        ("--max-e-value", "1e-3", &[Method::Fuzzy, Method::Overlap]),
    ];
    for (flag, value, readers) in cases {
        let parsed = Values::try_parse_from(["values", flag, value]).expect("parses");
        for method in Method::ALL {
            let options = parsed
                .values
                .compare_options(Preset::DOCUMENTS, method, false);
            if readers.contains(&method) {
                let options = options.expect("accepted");
                let plain = Values::try_parse_from(["values"]).expect("parses");
                let baseline = plain
                    .values
                    .compare_options(Preset::DOCUMENTS, method, false)
                    .expect("accepted");
                let with = parsed.values.over(Preset::DOCUMENTS).expect("accepted");
                assert!(
                    options != baseline || with != Preset::DOCUMENTS,
                    "{flag} changes nothing with {}",
                    method.name()
                );
            } else {
                let err = options.expect_err("refused");
                assert!(err.to_string().contains(flag), "{err}");
            }
        }
    }
}

#[test]
fn the_judging_budget_is_taken_by_a_judged_fuzzy_run_only() {
    let run = |extra: &[&str]| {
        let mut argv: Vec<String> = extra.iter().map(|a| a.to_string()).collect();
        argv.extend(["--judging-budget", "1000"].map(String::from));
        collection(&argv).expect("parses")
    };
    let err = run(&["--method", "ffp"])
        .check_options_apply()
        .expect_err("FFP judges nothing");
    assert!(err.to_string().contains("--judging-budget"), "{err}");
    let counted = run(&["--method", "fuzzy", "--judge-chance", "false"]);
    let err = counted.fuzzy_params().expect_err("a counted run");
    assert!(err.to_string().contains("--judging-budget"), "{err}");
    let judged = run(&["--method", "fuzzy", "--judge-chance", "true"]);
    assert_eq!(judged.fuzzy_params().expect("judged").judging_budget, 1000);
    // Not given: the default budget.
    let default = collection(&["--method", "fuzzy"].map(String::from)).expect("parses");
    assert_eq!(
        default.fuzzy_params().expect("judged").judging_budget,
        simdoc::collection::fuzzy::judged::JUDGING_BUDGET
    );
}

#[test]
fn max_sharing_is_taken_by_a_judged_fuzzy_run_only() {
    let run = |extra: &[&str]| {
        let mut argv: Vec<String> = extra.iter().map(|a| a.to_string()).collect();
        argv.extend(["--max-sharing", "3"].map(String::from));
        collection(&argv).expect("parses")
    };
    // Another detector: refused, naming the option.
    let err = run(&["--method", "ffp"])
        .check_options_apply()
        .expect_err("FFP does not read it");
    assert!(err.to_string().contains("--max-sharing"), "{err}");
    // The fuzzy comparison counting EQ sentences: nothing is judged, nothing left out.
    let counted = run(&["--method", "fuzzy", "--judge-chance", "false"]);
    assert!(counted.check_options_apply().is_ok());
    let err = counted.fuzzy_params().expect_err("a counted run");
    assert!(err.to_string().contains("--max-sharing"), "{err}");
    // Judged: it sets the bar.
    let judged = run(&["--method", "fuzzy", "--judge-chance", "true"]);
    assert_eq!(judged.fuzzy_params().expect("judged").max_sharing, Some(3));
    // `off`, and counts too small to mean anything.
    let off = collection(
        &[
            "--method",
            "fuzzy",
            "--judge-chance",
            "true",
            "--max-sharing",
            "off",
        ]
        .map(String::from),
    )
    .expect("parses");
    assert_eq!(off.fuzzy_params().expect("judged").max_sharing, None);
    for bad in ["1", "0", "many"] {
        assert!(
            collection(&["--max-sharing", bad].map(String::from)).is_err(),
            "{bad}"
        );
    }
}
