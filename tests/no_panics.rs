//! No input makes loading, splitting, refining or comparing panic (property tests over arbitrary
//! bytes and over HTML-like text built from tags, entities and odd characters).

use std::path::Path;
use std::sync::atomic::AtomicBool;

use proptest::prelude::*;
use simdoc::compare::{CompareOptions, compare};
use simdoc::document::{Document, SourceFormat, parse_bytes, parse_text};
use simdoc::similarity::Method;
use simdoc::similarity::table::TableModel;

fn html_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("<p>".to_string()),
        Just("</p>".to_string()),
        Just("<div>".to_string()),
        Just("</div>".to_string()),
        Just("<h2>".to_string()),
        Just("</h2>".to_string()),
        Just("<table><tr><td>".to_string()),
        Just("</td></tr></table>".to_string()),
        Just("<li>".to_string()),
        Just("<br>".to_string()),
        Just("<script>x<y".to_string()),
        Just("</script>".to_string()),
        Just("<!--".to_string()),
        Just("-->".to_string()),
        Just("&amp;&#0;&#xFFFF;".to_string()),
        Just("Mr. Smith said. ".to_string()),
        Just("U.S.A".to_string()),
        "\\PC{0,12}",
    ];
    prop::collection::vec(piece, 0..60).prop_map(|v| v.concat())
}

fn check(doc: &Document) {
    for s in &doc.sentences {
        assert_eq!(&doc.text[s.span.clone()], s.text);
        assert!(s.node < doc.nodes.len());
    }
    for n in &doc.nodes {
        assert!(n.own_sentences.end <= doc.sentences.len());
        assert!(n.subtree_sentences.start <= n.own_sentences.start);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_bytes_load_or_fail_cleanly(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        for name in ["x.html", "x.txt", "x"] {
            match parse_bytes(&bytes, Path::new(name), None) {
                Ok(doc) => check(&doc),
                Err(err) => prop_assert!(err.to_string().starts_with(name)),
            }
        }
    }

    #[test]
    fn html_like_text_parses_and_compares(a in html_like(), b in html_like()) {
        let left = parse_text(&a, "a", SourceFormat::Html);
        let right = parse_text(&b, "b", SourceFormat::Text);
        check(&left);
        check(&right);
        let model = TableModel::new();
        let never = AtomicBool::new(false);
        for method in Method::ALL {
            let options = CompareOptions { method, ..CompareOptions::default() };
            let cmp = compare(&left, &right, &model, &options, &never).expect("not cancelled");
            let f = cmp.figures(&Default::default());
            prop_assert!(f.odds_ratio.is_finite() && f.odds_ratio >= 0.0);
            prop_assert!(f.overlap.iter().chain(&f.resemblance).all(|x| (0.0..=1.0).contains(x)));
        }
    }
}
