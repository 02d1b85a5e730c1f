//! The command line's own tests: one list of presets everywhere, usage errors.

use clap::{CommandFactory, Parser};
use simdoc::compare::Preset;

/// Every option naming a matching preset, in every command, offers exactly the library's
/// table, with each preset's purpose as its help.
#[test]
fn every_preset_option_offers_the_librarys_table() {
    let table: Vec<(String, String)> = Preset::all()
        .iter()
        .map(|p| (p.name.to_string(), p.purpose.to_string()))
        .collect();
    let mut found = Vec::new();
    let mut stack = vec![(String::new(), super::Cli::command())];
    while let Some((path, command)) = stack.pop() {
        for arg in command.get_arguments() {
            let id = arg.get_id().as_str();
            // `collection --preset` names a collection preset (paper, teacher, news).
            let matching = id == "matching_preset" || id == "preset" && path != " collection";
            if !matching {
                continue;
            }
            let offered: Vec<(String, String)> = arg
                .get_possible_values()
                .iter()
                .map(|v| {
                    let help = v.get_help().map(|h| h.to_string()).unwrap_or_default();
                    (v.get_name().to_string(), help)
                })
                .collect();
            assert_eq!(offered, table, "{path} --{id}");
            found.push(format!("{path} --{id}"));
        }
        for sub in command.get_subcommands() {
            stack.push((format!("{path} {}", sub.get_name()), sub.clone()));
        }
    }
    for expected in [
        " compare --preset",
        " sources --preset",
        " collection --matching_preset",
    ] {
        assert!(
            found.iter().any(|f| f == expected),
            "{expected} in {found:?}"
        );
    }
}

/// A name outside the table is refused with the table's names.
#[test]
fn an_unknown_preset_is_refused_with_the_names() {
    let error = super::Cli::try_parse_from(["simdoc", "compare", "a", "b", "--preset", "loose"])
        .map(|_| ())
        .unwrap_err()
        .to_string();
    for named in Preset::all() {
        assert!(error.contains(named.name), "{error}");
    }
}
