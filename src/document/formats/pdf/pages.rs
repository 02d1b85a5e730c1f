//! The pages to read: each page once, in the order the page tree first lists it.
//!
//! `lopdf` lists a document's pages (`Document::get_pages`, which `pdf-extract` reads the pages
//! by) by walking `/Kids` from the catalog's `/Pages`, with no memory of what it has met: a page
//! listed twice in `/Kids` is read twice, and a `/Kids` that lists one of its ancestors is walked
//! round and round until `lopdf`'s step limit (as many steps as the file has objects). Every line
//! then shows on "every page", and is taken for a running header or footer (issue 44: "2
//! sentences (0 compared)"); or the walk spends its steps in the cycle and finds no page at all.
//!
//! [`read_each_page_once`] walks the tree as `lopdf` does (the same `/Type`s, the same depth
//! limit), but enters each node of the tree and walks each `/Kids` array once (nodes may share
//! one, through a reference), and lists each page once: its steps are at most the entries of
//! the file's distinct `/Kids` arrays, without `lopdf`'s step limit, which a tree listing its
//! pages more than once can reach before its last page;
//! where that differs from `lopdf`'s list, it hangs the pages it found, in order, under a new
//! root node, so that `lopdf` and `pdf-extract` list them so too. Each page keeps its
//! `/Parent`, through which `pdf-extract` finds what it inherits (`/Resources`, `/MediaBox`):
//! the new root only lists.

use std::collections::HashSet;

use pdf_extract::{Dictionary, Document, Object, ObjectId};

/// Deepest page tree walked, as `lopdf`'s own walk (`PageTreeIter::PAGE_TREE_DEPTH_LIMIT`).
const MAX_TREE_DEPTH: usize = 256;

/// The `/Kids` of the page tree node `id`, as `lopdf` reads them.
fn kids(doc: &Document, id: ObjectId) -> &[Object] {
    doc.get_dictionary(id)
        .and_then(|node| node.get_deref(b"Kids", doc))
        .and_then(Object::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The pages of `doc`, each once, in the order the page tree first lists them (see the module
/// docs).
pub fn distinct_pages(doc: &Document) -> Vec<ObjectId> {
    let Ok(root) = doc
        .catalog()
        .and_then(|catalog| catalog.get(b"Pages"))
        .and_then(Object::as_reference)
    else {
        return Vec::new();
    };
    let mut pages = Vec::new();
    let mut listed: HashSet<ObjectId> = HashSet::new();
    let mut entered: HashSet<ObjectId> = HashSet::from([root]);
    // The `/Kids` arrays walked, by address: nodes sharing one list the same kids.
    let mut walked: HashSet<*const Object> = HashSet::new();
    let top = kids(doc, root);
    walked.insert(top.as_ptr());
    // The nodes being walked, each with the kids it has left.
    let mut stack: Vec<&[Object]> = vec![top];
    while let Some(level) = stack.last_mut() {
        let Some((kid, rest)) = level.split_first() else {
            stack.pop();
            continue;
        };
        *level = rest;
        let Ok(id) = kid.as_reference() else {
            continue;
        };
        match doc.get_dictionary(id).and_then(Dictionary::get_type) {
            Ok(b"Page") if listed.insert(id) => pages.push(id),
            // `lopdf`'s stack holds the levels above the one walked: one less than ours.
            Ok(b"Pages") if stack.len() <= MAX_TREE_DEPTH && entered.insert(id) => {
                let below = kids(doc, id);
                if walked.insert(below.as_ptr()) {
                    stack.push(below);
                }
            }
            _ => {}
        }
    }
    pages
}

/// Makes `doc` list each of its pages once (see the module docs). Documents whose page tree
/// lists each page once, without a cycle, are left as they are.
pub fn read_each_page_once(doc: &mut Document) {
    let pages = distinct_pages(doc);
    if doc.page_iter().eq(pages.iter().copied()) {
        return;
    }
    // A number no object has (object numbers are at most `u32::MAX`: none is left past it).
    let Some(root_id) = doc
        .objects
        .keys()
        .next_back()
        .map_or(Some(1), |(number, _)| number.checked_add(1))
        .map(|number| (number, 0))
    else {
        return;
    };
    let mut root = Dictionary::new();
    root.set("Type", Object::Name(b"Pages".to_vec()));
    root.set("Count", Object::Integer(pages.len() as i64));
    root.set(
        "Kids",
        Object::Array(pages.into_iter().map(Object::Reference).collect()),
    );
    let Ok(catalog) = doc.catalog_mut() else {
        return;
    };
    catalog.set("Pages", Object::Reference(root_id));
    doc.objects.insert(root_id, Object::Dictionary(root));
    doc.max_id = doc.max_id.max(root_id.0);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A document whose catalog (1) lists the page tree root 2; `nodes` are added from 2 on.
    fn document(nodes: &[Dictionary]) -> Document {
        let mut doc = Document::with_version("1.4");
        let mut catalog = Dictionary::new();
        catalog.set("Type", Object::Name(b"Catalog".to_vec()));
        catalog.set("Pages", Object::Reference((2, 0)));
        doc.objects.insert((1, 0), Object::Dictionary(catalog));
        for (i, node) in nodes.iter().enumerate() {
            doc.objects
                .insert((2 + i as u32, 0), Object::Dictionary(node.clone()));
        }
        doc.trailer.set("Root", Object::Reference((1, 0)));
        doc.max_id = 1 + nodes.len() as u32;
        doc
    }

    fn node(kind: &[u8], kids: &[u32]) -> Dictionary {
        let mut node = Dictionary::new();
        node.set("Type", Object::Name(kind.to_vec()));
        node.set(
            "Kids",
            Object::Array(kids.iter().map(|&k| Object::Reference((k, 0))).collect()),
        );
        node
    }

    fn numbers(doc: &Document) -> Vec<u32> {
        doc.page_iter().map(|(number, _)| number).collect()
    }

    #[test]
    fn pages_listed_twice_or_in_cycles_are_read_once_in_first_order() {
        // Root 2 lists pages 3 and 4, itself, node 5, and page 3 again; node 5 lists page 4, the
        // root and page 6.
        let mut doc = document(&[
            node(b"Pages", &[3, 2, 5, 3]),
            node(b"Page", &[]),
            node(b"Page", &[]),
            node(b"Pages", &[4, 2, 6]),
            node(b"Page", &[]),
        ]);
        doc.objects
            .insert((2, 0), Object::Dictionary(node(b"Pages", &[3, 4, 2, 5, 3])));
        read_each_page_once(&mut doc);
        assert_eq!(numbers(&doc), [3, 4, 6]);
        assert_eq!(doc.get_pages().len(), 3);
    }

    #[test]
    fn a_tree_that_lists_each_page_once_is_left_as_it_is() {
        let mut doc = document(&[
            node(b"Pages", &[3, 4]),
            node(b"Pages", &[5]),
            node(b"Page", &[]),
            node(b"Page", &[]),
        ]);
        let before = doc.objects.clone();
        read_each_page_once(&mut doc);
        assert_eq!(doc.objects, before);
        assert_eq!(numbers(&doc), [5, 4]);
    }
}
