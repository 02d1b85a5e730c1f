//! The hierarchy builder on hand-made event streams: sections and containers, merged and dropped
//! nodes, spans, hard breaks, boilerplate and nesting past the maximum depth. Apart from the
//! builder so that it reads on its own.

use super::*;

/// Splits at ". " only: enough to test the builder without the real splitter.
fn naive_split(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, _) in text.match_indices(". ") {
        out.push(start..i + 1);
        start = i + 2;
    }
    if start < text.len() {
        out.push(start..text.len());
    }
    out
}

#[test]
fn headings_nest_and_close_at_same_or_higher_level() {
    let mut b = HierarchyBuilder::new("T");
    b.heading(1, "One");
    b.block(NodeKind::Paragraph, "a. b");
    b.heading(2, "One.one");
    b.block(NodeKind::Paragraph, "c");
    b.heading(2, "One.two");
    b.block(NodeKind::Paragraph, "d");
    b.heading(1, "Two");
    b.block(NodeKind::Paragraph, "e");
    let doc = b.finish(SourceFormat::Text, naive_split);
    let labels: Vec<(&str, Option<usize>)> = doc
        .nodes
        .iter()
        .map(|n| (n.label.as_str(), n.parent))
        .collect();
    assert_eq!(
        labels,
        vec![
            ("T", None),
            ("One", Some(0)),
            ("", Some(1)),
            ("One.one", Some(1)),
            ("", Some(3)),
            ("One.two", Some(1)),
            ("", Some(5)),
            ("Two", Some(0)),
            ("", Some(7)),
        ]
    );
    let texts: Vec<&str> = doc.sentences.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        texts,
        vec!["One", "a.", "b", "One.one", "c", "One.two", "d", "Two", "e"]
    );
    assert_eq!(doc.nodes[1].own_sentences, 0..1);
    assert_eq!(doc.nodes[1].subtree_sentences, 0..7);
    assert_eq!(doc.nodes[0].subtree_sentences, 0..9);
}

#[test]
fn sections_do_not_outlive_their_container() {
    let mut b = HierarchyBuilder::new("T");
    b.open(NodeKind::Table, "");
    b.open(NodeKind::TableCell, "");
    b.heading(2, "Inside");
    b.block(NodeKind::Paragraph, "x");
    b.close();
    b.open(NodeKind::TableCell, "");
    b.block(NodeKind::Paragraph, "y");
    b.close();
    b.close();
    b.block(NodeKind::Paragraph, "after");
    let doc = b.finish(SourceFormat::Html, naive_split);
    let after = doc.sentences.iter().find(|s| s.text == "after").unwrap();
    assert_eq!(doc.nodes[after.node].parent, Some(0));
}

#[test]
fn empty_nodes_dropped_and_single_children_merged() {
    let mut b = HierarchyBuilder::new("T");
    b.open(NodeKind::List, "");
    b.open(NodeKind::ListItem, "");
    b.block(NodeKind::Paragraph, "only item");
    b.close();
    b.close();
    b.open(NodeKind::Table, "");
    b.open(NodeKind::TableRow, "");
    b.close();
    b.close();
    b.block(NodeKind::Paragraph, "tail");
    let doc = b.finish(SourceFormat::Html, naive_split);
    // Root, the merged list (list > item > paragraph collapsed into the list), the tail.
    assert_eq!(doc.nodes.len(), 3);
    assert_eq!(doc.nodes[1].kind, NodeKind::List);
    assert_eq!(doc.nodes[1].own_sentences, 0..1);
    assert_eq!(doc.nodes[2].kind, NodeKind::Paragraph);
}

#[test]
fn spans_point_into_document_text() {
    let mut b = HierarchyBuilder::new("T");
    b.block(NodeKind::Paragraph, "  First one.   Second\n one. ");
    b.block(NodeKind::Paragraph, "Third.");
    let doc = b.finish(SourceFormat::Text, naive_split);
    for s in &doc.sentences {
        assert_eq!(&doc.text[s.span.clone()], s.text);
    }
    assert_eq!(doc.text, "First one. Second one.\n\nThird.");
}

#[test]
fn hard_breaks_end_sentences_within_one_block() {
    let mut b = HierarchyBuilder::new("T");
    b.block(
        NodeKind::Paragraph,
        &format!("Item one{HARD_BREAK} http://x.y/z {HARD_BREAK}{HARD_BREAK}Next. More"),
    );
    let doc = b.finish(SourceFormat::Html, naive_split);
    let texts: Vec<&str> = doc.sentences.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(texts, vec!["Item one", "http://x.y/z", "Next.", "More"]);
    assert_eq!(doc.nodes.len(), 1);
    for s in &doc.sentences {
        assert_eq!(&doc.text[s.span.clone()], s.text);
    }
}

#[test]
fn boilerplate_is_inherited() {
    let mut b = HierarchyBuilder::new("T");
    b.open(NodeKind::Region, "nav");
    b.block(NodeKind::Paragraph, "Home");
    b.block(NodeKind::Paragraph, "About");
    b.close();
    b.block(NodeKind::Paragraph, "Body");
    let doc = b.finish(SourceFormat::Html, naive_split);
    assert_eq!(doc.boilerplate_mask(), vec![true, true, false]);
}

/// Containers and headings nested past [`MAX_DEPTH`] make no deeper nodes, and their text
/// keeps its reading order: 1,000 nested quotes, each with a heading and a paragraph before
/// the next quote and one after it closes.
#[test]
fn nesting_past_the_maximum_depth_is_flattened_in_reading_order() {
    let levels = 1000;
    let mut b = HierarchyBuilder::new("T");
    for i in 0..levels {
        b.open(NodeKind::Quote, "");
        b.heading(1, &format!("Heading {i}"));
        b.block(NodeKind::Paragraph, &format!("Before {i}"));
    }
    for i in (0..levels).rev() {
        b.block(NodeKind::Paragraph, &format!("After {i}"));
        b.close();
    }
    let doc = b.finish(SourceFormat::Html, naive_split);
    let depth = (0..doc.nodes.len()).map(|id| doc.depth(id)).max();
    assert!(depth <= Some(MAX_DEPTH + 1), "{depth:?}");
    let expected: Vec<String> = (0..levels)
        .flat_map(|i| [format!("Heading {i}"), format!("Before {i}")])
        .chain((0..levels).rev().map(|i| format!("After {i}")))
        .collect();
    let texts: Vec<&str> = doc.sentences.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(texts, expected);
}

#[test]
fn deep_nesting_does_not_overflow() {
    let mut b = HierarchyBuilder::new("T");
    for _ in 0..200_000 {
        b.open(NodeKind::Quote, "");
    }
    b.block(NodeKind::Paragraph, "deep");
    for _ in 0..200_000 {
        b.close();
    }
    let doc = b.finish(SourceFormat::Html, naive_split);
    assert_eq!(doc.sentences.len(), 1);
    assert_eq!(doc.nodes.len(), 1);
}
