//! Document bytes through every front end: the HTML and plain-text paths (forced, and chosen by
//! extension and sniffing as `simdoc compare` does) and the collection reader's container formats
//! (WikiExtractor, Reuters SGML). Nothing may panic, and every document must be consistent:
//! sentence spans index its text on character boundaries, nodes point at existing sentences.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use simdoc::corpus::entries_from_bytes;
use simdoc::document::{Document, LoadOptions, SourceFormat, parse_bytes};

fn check(doc: &Document) {
    for sentence in &doc.sentences {
        assert_eq!(
            doc.text.get(sentence.span.clone()),
            Some(sentence.text.as_str())
        );
        assert!(sentence.node < doc.nodes.len());
    }
    for node in &doc.nodes {
        assert!(node.own_sentences.end <= doc.sentences.len());
        assert!(node.subtree_sentences.start <= node.own_sentences.start);
        assert!(node.own_sentences.end <= node.subtree_sentences.end);
    }
}

fuzz_target!(|bytes: &[u8]| {
    for (name, format) in [
        ("x.html", None),
        ("x.txt", None),
        ("x", None),
        ("x", Some(SourceFormat::Html)),
        ("x", Some(SourceFormat::Text)),
    ] {
        match parse_bytes(bytes, Path::new(name), format) {
            Ok(doc) => check(&doc),
            Err(error) => assert!(error.to_string().starts_with(name)),
        }
    }
    if let Ok(entries) = entries_from_bytes(bytes, Path::new("c"), &LoadOptions::default()) {
        for entry in entries {
            check(&entry.to_document());
        }
    }
});
