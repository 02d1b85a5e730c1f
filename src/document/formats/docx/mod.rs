//! DOCX (Office Open XML, ECMA-376 part 1 "WordprocessingML") to a semantic hierarchy.
//!
//! The main part (named by `_rels/.rels`, usually `word/document.xml`) is read in document
//! order:
//!
//! - a paragraph (`w:p`) whose style, or whose own properties, give an outline level (the
//!   built-in "heading 1".."heading 9" styles, or `w:outlineLvl`, following `w:basedOn`) is a
//!   heading of that level; the built-in "Title" style ranks above "heading 1"; headings nest as
//!   sections;
//! - a paragraph with numbering (`w:numPr`, in its properties or its style) is a list item; its
//!   level (`w:ilvl`) nests lists;
//! - tables (`w:tbl`, `w:tr`, `w:tc`) are tables, rows and cells;
//! - other paragraphs are paragraphs; text boxes are read where they are anchored (the
//!   `mc:Fallback` copy Word writes beside a drawing is skipped, so nothing is read twice).
//!
//! Text is the runs' `w:t`, tabs and breaks (a line break ends a sentence, as `<br>` does in
//! HTML). Left out: tracked deletions (`w:del`, `w:moveFrom`; insertions are read), hidden text
//! (`w:vanish` on the run, its character style or its paragraph style), field codes and the
//! results of computed fields (page numbers, dates, tables of contents, cross-references: only a
//! `HYPERLINK` field's result, the visible link text, is read), comments and note reference marks.
//!
//! Footnotes and endnotes follow the body in a [`NodeKind::Notes`] node; page headers come first
//! and footers last, each a boilerplate [`NodeKind::Region`]. The title is the core properties'
//! `dc:title`, else the first "Title" paragraph, else the file name.

mod styles;
mod walk;

use super::container::Container;
use super::xml::{self, attr_in, name_in};
use crate::document::LoadError;
use crate::document::builder::{HierarchyBuilder, SentenceSplitter};
use crate::document::tree::{Document, NodeKind, SourceFormat};
use styles::{Styles, read_styles};
use walk::Walk;

/// WordprocessingML, transitional and strict.
const W: &[&str] = &[
    "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "http://purl.oclc.org/ooxml/wordprocessingml/main",
];
const MC: &[&str] = &["http://schemas.openxmlformats.org/markup-compatibility/2006"];
const PACKAGE_RELS: &[&str] = &["http://schemas.openxmlformats.org/package/2006/relationships"];
const DC: &[&str] = &["http://purl.org/dc/elements/1.1/"];

/// One relationship of a part: its type (the last segment of the type URI) and target part.
struct Relationship {
    kind: String,
    target: String,
}

/// Reads a DOCX container into a document named `file_name`.
pub fn parse(
    container: &Container<'_>,
    file_name: &str,
    split: SentenceSplitter,
) -> Result<Document, LoadError> {
    let main = main_part(container)?;
    let rels = relationships(container, &main)?;
    let styles = match rels.iter().find(|r| r.kind == "styles") {
        Some(rel) => read_styles(container, &rel.target)?,
        None => Styles::default(),
    };
    let mut text = container
        .read_string_optional(&main)?
        .ok_or_else(|| container.missing(format!("main document part ({main})")))?;
    let body_xml = xml::parse(container, &main, &mut text)?;
    let body = body_xml
        .root_element()
        .children()
        .find(|n| name_in(*n, W) == Some("body"))
        .ok_or_else(|| container.missing(format!("document body (w:body in {main})")))?;

    let mut builder = HierarchyBuilder::new(file_name);
    // Headers first, then the body, notes and footers (see the module docs).
    for rel in rels.iter().filter(|r| r.kind == "header") {
        read_region(container, &rel.target, "header", &styles, &mut builder)?;
    }
    builder.open_scope();
    let mut walk = Walk::new(&styles, &mut builder);
    walk.run(body);
    let title = walk.finish();
    builder.close();
    builder.open(NodeKind::Notes, "notes");
    for kind in ["footnotes", "endnotes"] {
        for rel in rels.iter().filter(|r| r.kind == kind) {
            read_notes(container, &rel.target, &styles, &mut builder)?;
        }
    }
    builder.close();
    for rel in rels.iter().filter(|r| r.kind == "footer") {
        read_region(container, &rel.target, "footer", &styles, &mut builder)?;
    }
    let title = core_title(container)?.or(title);
    if let Some(title) = title {
        builder.set_title(title);
    }
    Ok(builder.finish(SourceFormat::Docx, split))
}

/// The main document part named by the package relationships, or the usual name when the
/// package has none.
fn main_part(container: &Container<'_>) -> Result<String, LoadError> {
    const USUAL: &str = "word/document.xml";
    let Some(mut text) = container.read_string_optional("_rels/.rels")? else {
        return Ok(USUAL.to_string());
    };
    let rels = xml::parse(container, "_rels/.rels", &mut text)?;
    let main = rels
        .root_element()
        .children()
        .filter(|n| name_in(*n, PACKAGE_RELS) == Some("Relationship"))
        .find(|n| {
            n.attribute("Type")
                .is_some_and(|t| t.ends_with("/officeDocument"))
        })
        .and_then(|n| n.attribute("Target"))
        .map(|t| xml::resolve("", t));
    Ok(main.unwrap_or_else(|| USUAL.to_string()))
}

/// The relationships of `part` (from `folder/_rels/name.rels`), internal targets only.
fn relationships(container: &Container<'_>, part: &str) -> Result<Vec<Relationship>, LoadError> {
    let (folder, name) = part.rsplit_once('/').unwrap_or(("", part));
    let rels_name = if folder.is_empty() {
        format!("_rels/{name}.rels")
    } else {
        format!("{folder}/_rels/{name}.rels")
    };
    let Some(mut text) = container.read_string_optional(&rels_name)? else {
        return Ok(Vec::new());
    };
    let rels = xml::parse(container, &rels_name, &mut text)?;
    Ok(rels
        .root_element()
        .children()
        .filter(|n| name_in(*n, PACKAGE_RELS) == Some("Relationship"))
        .filter(|n| n.attribute("TargetMode") != Some("External"))
        .filter_map(|n| {
            let kind = n.attribute("Type")?.rsplit('/').next()?.to_string();
            let target = xml::resolve(part, n.attribute("Target")?);
            Some(Relationship { kind, target })
        })
        .collect())
}

fn read_region(
    container: &Container<'_>,
    part: &str,
    label: &str,
    styles: &Styles,
    builder: &mut HierarchyBuilder,
) -> Result<(), LoadError> {
    let Some(mut text) = container.read_string_optional(part)? else {
        return Ok(());
    };
    let doc = xml::parse(container, part, &mut text)?;
    builder.open(NodeKind::Region, label);
    let mut walk = Walk::new(styles, builder);
    walk.run(doc.root_element());
    walk.finish();
    builder.close();
    Ok(())
}

fn read_notes(
    container: &Container<'_>,
    part: &str,
    styles: &Styles,
    builder: &mut HierarchyBuilder,
) -> Result<(), LoadError> {
    let Some(mut text) = container.read_string_optional(part)? else {
        return Ok(());
    };
    let doc = xml::parse(container, part, &mut text)?;
    for note in doc
        .root_element()
        .children()
        .filter(|n| matches!(name_in(*n, W), Some("footnote" | "endnote")))
    {
        // Separators are the rule above the notes, not notes.
        if attr_in(note, W, "type").is_some_and(|t| t != "normal") {
            continue;
        }
        let mut walk = Walk::new(styles, builder);
        walk.run(note);
        walk.finish();
    }
    Ok(())
}

/// The core properties' title, if the package has one.
fn core_title(container: &Container<'_>) -> Result<Option<String>, LoadError> {
    const CORE: &str = "docProps/core.xml";
    let Some(mut text) = container.read_string_optional(CORE)? else {
        return Ok(None);
    };
    let doc = xml::parse(container, CORE, &mut text)?;
    Ok(doc
        .descendants()
        .find(|n| name_in(*n, DC) == Some("title"))
        .and_then(|n| n.text())
        .map(crate::document::builder::collapse_whitespace)
        .filter(|t| !t.is_empty()))
}

#[cfg(test)]
mod tests;
