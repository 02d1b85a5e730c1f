//! Two documents compared with a method, with the embedded reference model, under the
//! measured or the thesis's thresholds, then under the default (the documents preset, matches
//! judged against chance). The input is split at its first NUL byte into the two
//! documents (no NUL: the document against itself); the first byte chooses HTML or plain text
//! for each (bits 0 and 1), the thesis's preset (bit 2) and the method (bits 3 and 4, of
//! `Method::ALL`): one method per input, so each runs four times as fast as all four did. Nothing may panic; scores, figures and views must be in range and consistent; the
//! index must find exactly the pairs brute force finds, and the pairs a comparison needs must
//! keep their contract (`simdoc::similarity::needed`). Inputs over 2 KB are skipped: the method
//! runs several times on each input, and small documents reach the same code faster.
#![no_main]

use std::sync::atomic::AtomicBool;

use libfuzzer_sys::fuzz_target;
use simdoc::compare::{CompareOptions, PreparedPair, floor_for};
use simdoc::document::{SourceFormat, parse_text};
use simdoc::model::ReferenceModel;
use simdoc::similarity::needed::contract_violation;
use simdoc::similarity::{Method, NeededPairs, Neighbours, ScoringRequest};
use simdoc::compare::Preset;

fn format(bit: bool) -> SourceFormat {
    if bit {
        SourceFormat::Html
    } else {
        SourceFormat::Text
    }
}

/// Largest input tried.
const MAX_INPUT: usize = 2 * 1024;

fuzz_target!(|bytes: &[u8]| {
    if bytes.len() > MAX_INPUT {
        return;
    }
    let Some((&selector, rest)) = bytes.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let (a, b) = text.split_once('\0').unwrap_or((&text, &text));
    let left = parse_text(a, "a", format(selector & 1 == 1));
    let right = parse_text(b, "b", format(selector & 2 == 2));
    let model = ReferenceModel::embedded();
    let never = AtomicBool::new(false);
    let preset = if selector & 4 == 4 {
        Preset::THESIS
    } else {
        Preset::MEASURED
    };
    let options = CompareOptions {
        refine: preset.refine,
        rules: preset.rules,
        ..CompareOptions::default()
    };
    let prepared = PreparedPair::new(&left, &right, model, &options);
    let (sides, rules, floor) = (
        [&prepared.left, &prepared.right],
        &prepared.rules,
        options.floor,
    );
    let near = sides.map(|side| Neighbours::in_order(side.sentences.len()));
    let method = Method::ALL[usize::from(selector >> 3) % Method::ALL.len()];
    let matcher = method.matcher();
    let request = ScoringRequest {
        left: sides[0],
        right: sides[1],
        model,
        floor,
        rules,
    };
    let mut indexed = matcher
        .score_pairs(&request, &never)
        .expect("never cancelled");
    let mut brute = matcher.score_pairs_brute_force(&request);
    indexed.sort_by_key(|p| (p.left, p.right));
    brute.sort_by_key(|p| (p.left, p.right));
    assert_eq!(
        indexed,
        brute,
        "{}: the index against brute force",
        method.name()
    );
    for needed in [
        NeededPairs::WithOneWay {
            left: &near[0],
            right: &near[1],
        },
        NeededPairs::BothWays,
    ] {
        let returned = matcher
            .score_needed_pairs(&request, needed, &never)
            .expect("never cancelled");
        let violation = contract_violation(&indexed, &returned, floor, needed);
        assert!(violation.is_none(), "{}: {violation:?}", method.name());
    }
    let comparison = prepared
        .compare(model, method, options.floor, &never)
        .expect("never cancelled");
    for pair in &comparison.pairs {
        assert!((0.0..=1.0).contains(&pair.sim_lr) && (0.0..=1.0).contains(&pair.sim_rl));
    }
    let figures = comparison.figures(&preset.thresholds);
    for share in figures
        .overlap
        .iter()
        .chain(&figures.resemblance)
        .chain(&figures.containment)
    {
        assert!((0.0..=1.0).contains(share), "{figures:?}");
    }
    assert!(figures.odds_ratio.is_finite() && figures.odds_ratio >= 0.0);
    assert!(figures.common <= figures.matched[0].min(figures.matched[1]));
    let swapped = comparison.swapped().figures(&preset.thresholds);
    assert_eq!(swapped.common, figures.common);
    assert_eq!(swapped.matched, [figures.matched[1], figures.matched[0]]);
    let trees = comparison.tree_matching(&left, &right, &preset.thresholds);
    assert_eq!(trees.left.len(), left.nodes.len());
    assert_eq!(trees.right.len(), right.nodes.len());

    // The default: the same documents with every match judged against chance (the documents
    // preset's seeds, links and chains).
    let documents = Preset::DOCUMENTS;
    let judged_options = CompareOptions {
        refine: documents.refine,
        rules: documents.rules,
        chance_search: documents.chance_search,
        floor: floor_for(&documents.rules, &documents.thresholds),
        ..CompareOptions::default()
    };
    let judged = PreparedPair::new(&left, &right, model, &judged_options)
        .compare(model, method, judged_options.floor, &never)
        .expect("never cancelled");
    let figures = judged.figures(&documents.thresholds);
    for share in figures.overlap.iter().chain(&figures.containment) {
        assert!((0.0..=1.0).contains(share), "{figures:?}");
    }
    for chain in judged.evidence_chains(&documents.thresholds) {
        assert!(!chain.members.is_empty() && !chain.ln_e.is_nan(), "{chain:?}");
        assert!(chain.members.iter().all(|&m| m < judged.pairs.len()));
    }
});
