//! The collection report page on small hand-made reports.

use super::*;
use crate::collection::evidence::PairEvidence;
use crate::collection::source_discount::SourceDiscount;
use crate::collection::{DetectedPair, Detection, Relation};
use crate::compare::passages::Passage;

fn evidence(a_in_b: f64, b_in_a: f64) -> PairEvidence {
    PairEvidence {
        containment: [a_in_b, b_in_a],
        matched_sentences: [2, 2],
        sentences: [4, 10],
        passages: vec![Passage {
            a: [0, 1],
            b: [4, 5],
            pairs: 2,
            words: 20,
            score: 1.0,
            e_value: None,
            members: vec![0, 1],
        }],
    }
}

fn names() -> Vec<String> {
    ["source.txt", "alice.txt", "bob.txt", "carol.txt"]
        .map(String::from)
        .to_vec()
}

#[test]
fn each_submission_lists_its_sources_and_the_pairs_carry_their_evidence() {
    let names = names();
    let detection = Detection {
        pairs: vec![
            DetectedPair::new(0, 1, Relation::Contains, 0.9),
            DetectedPair::new(2, 0, Relation::Reuses, 0.4),
            DetectedPair::new(1, 2, Relation::Reuses, 0.3),
        ],
        groups: Vec::new(),
    };
    let mut report = CollectionReport::new("codet", &names, &detection, &[true]);
    // Output order: source-alice (0.9), bob-source (0.4), then alice-bob.
    report.evidence = vec![Some(evidence(0.8, 0.25)), Some(evidence(0.35, 0.1)), None];
    let link = |rank: usize| (rank == 0).then(|| "pairs/1.html".to_string());
    let html = collection_html(&report, &HtmlOptions { pair_link: &link });
    // alice is found at 25% in the source (b in a of "source contains alice"), bob at 35%.
    assert!(
        html.contains(
            r##"<tr><td>alice.txt</td><td><a href="#pair-0">source.txt</a> (25%)</td></tr>"##
        ),
        "{html}"
    );
    assert!(
        html.contains(
            r##"<tr><td>bob.txt</td><td><a href="#pair-1">source.txt</a> (35%)</td></tr>"##
        ),
        "{html}"
    );
    assert!(
        html.contains(&format!(
            "<tr><td>carol.txt</td><td>{NO_SOURCE_REPORTED}</td></tr>"
        )),
        "{html}"
    );
    assert!(html.contains(r#"<td>a 0-1 / b 4-5</td><td><a href="pairs/1.html">open</a></td>"#));
    // With sources, a pair without evidence spans the discount column too.
    assert!(html.contains(r#"<td class="none" colspan="4">not computed</td><td></td>"#));
    // The most reused submission first, the one with no source last.
    let row = |name: &str| html.find(&format!("<tr><td>{name}</td>")).unwrap();
    assert!(row("bob.txt") < row("alice.txt") && row("alice.txt") < row("carol.txt"));
    // The matrix: submissions by the one source, alice's cell at 25%.
    assert!(
        html.contains(r#"color:#222" title="alice.txt in source.txt: 25%">25</td>"#),
        "{html}"
    );
    assert!(html.contains("<p class=\"none\">None.</p>"));
}

#[test]
fn a_class_words_identical_documents_as_findings_and_discounts_its_student_pairs() {
    let names = names();
    let detection = Detection {
        pairs: vec![
            DetectedPair::new(1, 2, Relation::Duplicate, 1.0),
            DetectedPair::new(0, 3, Relation::Duplicate, 1.0),
        ],
        groups: vec![vec![2, 1], vec![3, 0]],
    };
    let mut report = CollectionReport::new("imatch", &names, &detection, &[true]);
    // Output order: source-carol (submission-source), then alice-bob.
    report.evidence = vec![Some(evidence(1.0, 1.0)), Some(evidence(1.0, 1.0))];
    report.discounts = vec![
        None,
        Some(SourceDiscount {
            containment: [0.25, 0.2],
            matched_sentences: [1, 1],
            found_in_sources: [3, 4],
        }),
    ];
    report.matching = Some("the teacher preset's matching".to_string());
    // The first group's texts are the same, the second's only each found in the other.
    report.same_text = vec![true, false];
    let html = collection_html(
        &report,
        &HtmlOptions {
            pair_link: &|_| None,
        },
    );
    assert!(html.contains("<li>identical submissions: alice.txt, bob.txt</li>"));
    assert!(html.contains(
        "<li>near-identical (each at least 100% found in the other) to source source.txt: \
         carol.txt</li>"
    ));
    assert!(!html.contains("(keep)"));
    assert!(
        html.contains("<td>25% / 20% (3 and 4 sentences left out)</td>"),
        "{html}"
    );
    assert!(html.contains("<p>Evidence: the teacher preset's matching. "));
}

#[test]
fn names_are_escaped_and_the_group_names_the_one_to_keep() {
    let names = vec!["<b>.txt".to_string(), "b&c.txt".to_string()];
    let detection = Detection {
        pairs: vec![DetectedPair::new(0, 1, Relation::Duplicate, 1.0)],
        groups: vec![vec![1, 0]],
    };
    let report = CollectionReport::new("imatch", &names, &detection, &[]);
    let html = collection_html(
        &report,
        &HtmlOptions {
            pair_link: &|_| None,
        },
    );
    assert!(!html.contains("<b>.txt"));
    assert!(
        html.contains(r#"<li><span class="keep">b&amp;c.txt (keep)</span>, &lt;b&gt;.txt</li>"#),
        "{html}"
    );
}

#[test]
fn the_runs_notes_come_first_escaped() {
    let names = names();
    let detection = Detection::default();
    let mut report = CollectionReport::new("fuzzy", &names, &detection, &[]);
    report.notes = vec!["3 sentences held by more than 2 documents <left out>".to_string()];
    let html = collection_html(
        &report,
        &HtmlOptions {
            pair_link: &|_| None,
        },
    );
    let notes = html
        .find("<h2>Notes on this run</h2>")
        .expect("a notes block");
    assert!(html.contains("<li>3 sentences held by more than 2 documents &lt;left out&gt;</li>"));
    assert!(notes < html.find("<h2>Pairs").expect("the pairs"));
    report.notes.clear();
    let html = collection_html(
        &report,
        &HtmlOptions {
            pair_link: &|_| None,
        },
    );
    assert!(!html.contains("Notes on this run"));
}

#[test]
fn a_class_ranks_its_student_pairs_by_what_they_share_beyond_the_sources() {
    let names = names();
    let detection = Detection {
        pairs: vec![
            DetectedPair::new(0, 1, Relation::Contains, 0.9),
            DetectedPair::new(1, 2, Relation::Reuses, 0.6),
            DetectedPair::new(2, 3, Relation::Reuses, 0.3),
        ],
        groups: Vec::new(),
    };
    let mut report = CollectionReport::new("fuzzy", &names, &detection, &[true]);
    // Output order: source-alice, alice-bob (0.6, all of it the source's), bob-carol (0.3).
    report.evidence = vec![
        Some(evidence(0.9, 0.5)),
        Some(evidence(0.6, 0.6)),
        Some(evidence(0.3, 0.2)),
    ];
    let discount = |left: f64| SourceDiscount {
        containment: [left, left / 2.0],
        matched_sentences: [1, 1],
        found_in_sources: [2, 2],
    };
    report.rank_by_discounts(vec![None, Some(discount(0.0)), Some(discount(0.3))]);
    let order: Vec<(usize, usize)> = report.ranked().map(|(_, p)| (p.a, p.b)).collect();
    assert_eq!(order, [(0, 1), (2, 3), (1, 2)]);
    // The figures moved with their pairs; the raw score stays.
    assert_eq!(report.evidence_at(1).map(|e| e.containment[0]), Some(0.3));
    assert_eq!(report.discount_at(1).map(|d| d.containment[0]), Some(0.3));
    assert_eq!(report.discount_at(2).map(|d| d.containment[0]), Some(0.0));
    assert_eq!(report.ranked().nth(1).map(|(_, p)| p.score), Some(0.3));
    let html = collection_html(
        &report,
        &HtmlOptions {
            pair_link: &|_| None,
        },
    );
    assert!(html.contains("Two submissions are ranked by the larger of these shares"));
}
