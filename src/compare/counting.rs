//! Which sentences take part in a comparison, and which count towards its figures.
//!
//! - *Boilerplate seen on one side only.* Boilerplate detection works page by page: a menu that
//!   one page marks up as `nav` and the other as a plain list is left out of one comparison side
//!   and kept on the other, where its items ("More Entertainment") then match whatever they can.
//!   A block of the one document whose sentences are mostly (at least half, and at least
//!   [`MIN_BLOCK_SENTENCES`]) the same as boilerplate sentences of the other is therefore treated
//!   as boilerplate too, for this comparison ([`propagate_boilerplate`]).
//! - *Fragments.* Headings and fragments of fewer than [`MIN_COUNTED_TERMS`] content
//!   terms ("Share", "Reply", "N/A", a date) are shown and may match, but they do not count
//!   towards overlap, resemblance and containment by default: a document of many short labels
//!   would otherwise look copied because its labels are shared ([`counted_mask`]).
//!   [`super::CompareOptions::count_fragments`] restores them. A text made only of headings and
//!   fragments counts them all (its sentences with content words): there is nothing else.

use rustc_hash::FxHashSet;

use crate::document::{Document, NodeKind};
use crate::similarity::{PreparedDoc, PreparedSentence, TermId};

/// Sentences with fewer content terms than this are fragments (see the module docs).
pub const MIN_COUNTED_TERMS: usize = 3;

/// A block needs at least this many sentences seen as boilerplate on the other side to be
/// treated as boilerplate itself (one shared line is no evidence of a menu).
pub const MIN_BLOCK_SENTENCES: usize = 2;

/// Marks as excluded (not `included`) the sentences of blocks of `doc` that are mostly
/// boilerplate of `other` (see the module docs). `prepared` is `doc` prepared for this
/// comparison, `other_prepared` the other side; only the `included` flags change.
pub fn propagate_boilerplate(
    doc: &Document,
    prepared: &mut PreparedDoc,
    other: &Document,
    other_prepared: &PreparedDoc,
) {
    let other_boilerplate: FxHashSet<&[TermId]> = other
        .boilerplate_mask()
        .iter()
        .zip(&other_prepared.sentences)
        .filter(|(boilerplate, s)| **boilerplate && !s.terms.is_empty())
        .map(|(_, s)| s.terms.as_slice())
        .collect();
    if other_boilerplate.is_empty() {
        return;
    }
    let seen: Vec<bool> = prepared
        .sentences
        .iter()
        .map(|s| other_boilerplate.contains(s.terms.as_slice()))
        .collect();
    // Top-down: the largest block that qualifies is marked, with everything inside it.
    let mut stack: Vec<usize> = doc.root().children.clone();
    while let Some(id) = stack.pop() {
        let node = &doc.nodes[id];
        if node.boilerplate {
            continue;
        }
        let range = node.subtree_sentences.clone();
        let included: Vec<usize> = range
            .clone()
            .filter(|&p| prepared.included.get(p).copied().unwrap_or(false))
            .collect();
        let hits = included.iter().filter(|&&p| seen[p]).count();
        if hits >= MIN_BLOCK_SENTENCES && 2 * hits >= included.len() {
            for p in range {
                if let Some(flag) = prepared.included.get_mut(p) {
                    *flag = false;
                }
            }
        } else {
            stack.extend(node.children.iter().copied());
        }
    }
}

/// For every sentence of `doc`: whether it counts towards the figures (it takes part, and is not
/// a heading, the title or a fragment; see the module docs).
pub fn counted_mask(doc: &Document, prepared: &PreparedDoc, active: &[bool]) -> Vec<bool> {
    counted_mask_of(doc, &prepared.sentences, active)
}

/// [`counted_mask`] for a document's prepared sentences held elsewhere (a slice of a larger
/// preparation, as the one-against-many index keeps them).
pub fn counted_mask_of(
    doc: &Document,
    sentences: &[PreparedSentence],
    active: &[bool],
) -> Vec<bool> {
    let terms = |p: usize| sentences.get(p).map_or(0, |s| s.content().len());
    let mask: Vec<bool> = active
        .iter()
        .enumerate()
        .map(|(p, &active)| {
            // A section's own sentences are its heading. (The root's own sentences are text: a
            // plain-text document without paragraphs keeps its sentences there.)
            let heading = doc
                .sentences
                .get(p)
                .is_some_and(|s| doc.nodes[s.node].kind == NodeKind::Section);
            active && !heading && terms(p) >= MIN_COUNTED_TERMS
        })
        .collect();
    if mask.iter().any(|&c| c) {
        return mask;
    }
    // A text of headings and fragments only (a title, a one-line note, a list of names) has
    // nothing else to judge it by: its sentences with content words count, so its copy reads
    // as found instead of a silent 0 of 0.
    active
        .iter()
        .enumerate()
        .map(|(p, &active)| active && terms(p) > 0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{SourceFormat, parse_text};
    use crate::similarity::Vocabulary;
    use crate::similarity::table::TableModel;

    #[test]
    fn a_menu_marked_up_on_one_side_only_is_boilerplate_on_both() {
        let a = parse_text(
            "<html><body><nav><ul><li>World news today</li><li>Business and markets</li>\
             <li>Entertainment and arts</li></ul></nav><p>The storm closed three airports on \
             Monday morning. Thousands of travellers spent the night in crowded terminals. \
             Airlines expect to clear the backlog by Thursday evening. Officials will review \
             the response next week.</p></body></html>",
            "a.html",
            SourceFormat::Html,
        );
        assert!(a.boilerplate_mask()[0], "A's menu is detected");
        let b = parse_text(
            "<html><body><ul><li>World news today</li><li>Business and markets</li>\
             <li>More entertainment stories</li></ul><p>Flights resumed after the storm passed \
             the coast.</p></body></html>",
            "b.html",
            SourceFormat::Html,
        );
        let model = TableModel::new();
        let mut vocabulary = Vocabulary::new(&model);
        let pa = vocabulary.prepare(&a, &model, false);
        let mut pb = vocabulary.prepare(&b, &model, false);
        assert!(
            pb.included.iter().all(|&i| i),
            "B's list is not detected on its own"
        );
        propagate_boilerplate(&b, &mut pb, &a, &pa);
        // The whole list goes, "More entertainment stories" included; the paragraph stays.
        assert_eq!(pb.included, vec![false, false, false, true]);
    }

    #[test]
    fn headings_and_fragments_do_not_count() {
        let doc = parse_text(
            "# Storm report\n\nThe storm closed three airports on Monday. Share.\n",
            "a.md",
            SourceFormat::Text,
        );
        let model = TableModel::new();
        let prepared = Vocabulary::new(&model).prepare(&doc, &model, false);
        let active: Vec<bool> = prepared
            .sentences
            .iter()
            .map(|s| !s.content().is_empty())
            .collect();
        let texts: Vec<&str> = doc.sentences.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Storm report",
                "The storm closed three airports on Monday.",
                "Share."
            ]
        );
        assert_eq!(
            counted_mask(&doc, &prepared, &active),
            vec![false, true, false]
        );
    }
}
