//! A check of a PDF's form XObjects (reusable drawings that a page or another form paints with
//! `Do`; to the text extractor, any stream a `Do` names, whatever its `/Subtype`) before any
//! content is run: a form that paints itself, directly or through others, would
//! send the text extractor into endless recursion (a stack overflow ends the process: no error
//! can be returned), and forms nested deeper than [`MAX_FORM_DEPTH`] are no real document's.
//!
//! The graph is built from resource dictionaries, without parsing any content: a form paints
//! what its own `/Resources /XObject` names; a form without resources of its own uses those of
//! whatever paints it, so, if its content paints anything at all (a `Do` operator), it may paint
//! anything named beside it.

use std::collections::{HashMap, HashSet};

use pdf_extract::{Dictionary, Document, Object, ObjectId};

/// Deepest nesting of forms read.
pub const MAX_FORM_DEPTH: usize = 64;

/// What is wrong with the forms.
#[derive(Debug, PartialEq, Eq)]
pub enum FormProblem {
    /// A form paints itself, directly or through others.
    Cycle,
    /// Forms nest deeper than [`MAX_FORM_DEPTH`].
    TooDeep,
}

fn resolve<'a>(doc: &'a Document, object: &'a Object) -> Option<&'a Object> {
    doc.dereference(object).ok().map(|(_, o)| o)
}

/// A dictionary's own `/Resources`, resolved.
fn own_resources<'a>(doc: &'a Document, dict: &'a Dictionary) -> Option<&'a Dictionary> {
    dict.get(b"Resources")
        .ok()
        .and_then(|r| resolve(doc, r))
        .and_then(|r| r.as_dict().ok())
}

/// The object ids a resource dictionary's `/XObject` names.
fn xobjects(doc: &Document, resources: &Dictionary) -> Vec<ObjectId> {
    let Some(Object::Dictionary(names)) =
        resources.get(b"XObject").ok().and_then(|x| resolve(doc, x))
    else {
        return Vec::new();
    };
    names
        .iter()
        .filter_map(|(_, value)| value.as_reference().ok())
        .collect()
}

/// Checks the forms of `doc` (see the module docs).
pub fn check(doc: &Document) -> Result<(), FormProblem> {
    // Every stream, not only those of `/Subtype /Form`: `pdf-extract` runs the content of
    // whatever stream a `Do` names, whatever its subtype (a fuzzed file whose self-painting
    // "form" had lost its `/Subtype` overflowed the stack past a check of forms only).
    let forms: HashMap<ObjectId, &Dictionary> = doc
        .objects
        .iter()
        .filter_map(|(id, object)| match object {
            Object::Stream(stream) => Some((*id, &stream.dict)),
            _ => None,
        })
        .collect();
    if forms.is_empty() {
        return Ok(());
    }
    let mut paints: HashMap<ObjectId, HashSet<ObjectId>> = HashMap::new();
    // Whether each form's content has a `Do` at all, unpacked once per form.
    let mut paints_anything: HashMap<ObjectId, bool> = HashMap::new();
    // Every resource dictionary in the file (of pages, page tree nodes, forms, or on its own).
    let resource_dicts = doc.objects.values().filter_map(|object| match object {
        Object::Dictionary(dict) => Some(dict),
        Object::Stream(stream) => Some(&stream.dict),
        _ => None,
    });
    for holder in resource_dicts {
        for resources in own_resources(doc, holder)
            .into_iter()
            .chain(holder.get(b"XObject").is_ok().then_some(holder))
        {
            let named: Vec<ObjectId> = xobjects(doc, resources)
                .into_iter()
                .filter(|id| forms.contains_key(id))
                .collect();
            // A form without resources of its own that paints anything (`Do` in its content)
            // may paint what is named beside it.
            for id in &named {
                let paints_any = *paints_anything
                    .entry(*id)
                    .or_insert_with(|| invokes_do(doc, *id));
                if own_resources(doc, forms[id]).is_none() && paints_any {
                    paints.entry(*id).or_default().extend(named.iter().copied());
                }
            }
        }
    }
    for (id, dict) in &forms {
        if let Some(resources) = own_resources(doc, dict) {
            let named = xobjects(doc, resources)
                .into_iter()
                .filter(|id| forms.contains_key(id));
            paints.entry(*id).or_default().extend(named);
        }
    }
    // Depth-first search with an explicit stack: white (unseen), grey (on the path), black.
    let mut depth_done: HashMap<ObjectId, usize> = HashMap::new();
    let mut on_path: HashSet<ObjectId> = HashSet::new();
    for &start in forms.keys() {
        if depth_done.contains_key(&start) {
            continue;
        }
        let mut stack: Vec<(ObjectId, Vec<ObjectId>)> = vec![(start, children(&paints, start))];
        on_path.insert(start);
        while let Some((node, pending)) = stack.last_mut() {
            let node = *node;
            if let Some(child) = pending.pop() {
                if on_path.contains(&child) {
                    return Err(FormProblem::Cycle);
                }
                if !depth_done.contains_key(&child) {
                    if stack.len() >= MAX_FORM_DEPTH {
                        return Err(FormProblem::TooDeep);
                    }
                    on_path.insert(child);
                    stack.push((child, children(&paints, child)));
                }
                continue;
            }
            let depth = children(&paints, node)
                .iter()
                .map(|c| depth_done.get(c).copied().unwrap_or(0) + 1)
                .max()
                .unwrap_or(0);
            if depth > MAX_FORM_DEPTH {
                return Err(FormProblem::TooDeep);
            }
            depth_done.insert(node, depth);
            on_path.remove(&node);
            stack.pop();
        }
    }
    Ok(())
}

/// Whether a form's content has a `Do` operator (a token `Do` between delimiters).
fn invokes_do(doc: &Document, id: ObjectId) -> bool {
    let Ok(Object::Stream(stream)) = doc.get_object(id) else {
        return false;
    };
    let content = stream
        .decompressed_content()
        .unwrap_or_else(|_| stream.content.clone());
    // As the content parser reads an operator (`lopdf`: the longest run of letters, `*`, `'`
    // and `"`): "Do" is one when the bytes on either side cannot extend the run. Any other byte
    // ends it: a fuzzed "/Fm Do\x03" painted itself past a check that wanted whitespace there.
    let extends =
        |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_alphabetic() || b"*'\"".contains(b));
    memchr::memmem::find_iter(&content, b"Do").any(|at| {
        !extends(at.checked_sub(1).and_then(|i| content.get(i))) && !extends(content.get(at + 2))
    })
}

fn children(paints: &HashMap<ObjectId, HashSet<ObjectId>>, id: ObjectId) -> Vec<ObjectId> {
    paints
        .get(&id)
        .map(|set| set.iter().copied().collect())
        .unwrap_or_default()
}
