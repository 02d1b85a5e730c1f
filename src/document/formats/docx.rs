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

use std::collections::HashMap;

use roxmltree::Node;

use super::container::Container;
use super::xml::{self, Edge, attr_in, name_in, traverse};
use crate::document::LoadError;
use crate::document::builder::{HARD_BREAK, HierarchyBuilder, SentenceSplitter};
use crate::document::tree::{Document, NodeKind, SourceFormat};

/// WordprocessingML, transitional and strict.
const W: &[&str] = &[
    "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "http://purl.oclc.org/ooxml/wordprocessingml/main",
];
const MC: &[&str] = &["http://schemas.openxmlformats.org/markup-compatibility/2006"];
const PACKAGE_RELS: &[&str] = &["http://schemas.openxmlformats.org/package/2006/relationships"];
const DC: &[&str] = &["http://purl.org/dc/elements/1.1/"];

/// How deep a `w:basedOn` chain is followed (real ones are a few levels; a cycle stops here).
const MAX_STYLE_DEPTH: usize = 16;
/// Deepest list nesting read (Word has nine levels).
const MAX_LIST_LEVEL: usize = 9;

/// What a paragraph or character style contributes.
#[derive(Clone, Debug, Default)]
struct Style {
    /// Outline level, 1 = top ("Title" is 0, above it).
    heading: Option<u8>,
    /// Whether the style is the built-in "Title".
    title: bool,
    /// `w:vanish` in the style's run properties.
    hidden: Option<bool>,
    /// The style numbers its paragraphs (a list style), at this level.
    list_level: Option<usize>,
    based_on: Option<String>,
}

/// The document's styles, by id.
#[derive(Default)]
struct Styles(HashMap<String, Style>);

impl Styles {
    /// Follows `w:basedOn` until `get` gives a value.
    fn resolve<T>(&self, id: &str, get: impl Fn(&Style) -> Option<T>) -> Option<T> {
        let mut current = self.0.get(id);
        for _ in 0..MAX_STYLE_DEPTH {
            let style = current?;
            if let Some(value) = get(style) {
                return Some(value);
            }
            current = style.based_on.as_deref().and_then(|b| self.0.get(b));
        }
        None
    }
}

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

fn read_styles(container: &Container<'_>, part: &str) -> Result<Styles, LoadError> {
    let Some(mut text) = container.read_string_optional(part)? else {
        return Ok(Styles::default());
    };
    let doc = xml::parse(container, part, &mut text)?;
    let mut styles = HashMap::new();
    for style in doc
        .root_element()
        .children()
        .filter(|n| name_in(*n, W) == Some("style"))
    {
        let Some(id) = attr_in(style, W, "styleId") else {
            continue;
        };
        let child = |name: &str| style.children().find(|n| name_in(*n, W) == Some(name));
        fn val<'a>(node: Node<'a, '_>) -> Option<&'a str> {
            attr_in(node, W, "val")
        }
        let name = child("name")
            .and_then(val)
            .unwrap_or("")
            .to_ascii_lowercase();
        let ppr = child("pPr");
        let outline = ppr
            .and_then(|p| p.children().find(|n| name_in(*n, W) == Some("outlineLvl")))
            .and_then(val)
            .and_then(|v| v.parse::<u8>().ok())
            .filter(|&l| l < 9)
            .map(|l| l + 1);
        let named = name
            .strip_prefix("heading ")
            .and_then(|n| n.trim().parse::<u8>().ok())
            .filter(|l| (1..=9).contains(l));
        let title = name == "title";
        let hidden = child("rPr")
            .and_then(|r| r.children().find(|n| name_in(*n, W) == Some("vanish")))
            .map(on_off);
        let list_level = ppr
            .and_then(|p| p.children().find(|n| name_in(*n, W) == Some("numPr")))
            .map(|num| numbering_level(num).unwrap_or(0));
        styles.insert(
            id.to_string(),
            Style {
                // The title ranks above "heading 1": level 0.
                heading: outline.or(named).or(title.then_some(0)),
                title,
                hidden,
                list_level,
                based_on: child("basedOn").and_then(val).map(str::to_string),
            },
        );
    }
    Ok(Styles(styles))
}

/// A WordprocessingML on/off property: on unless `w:val` says `false`, `0` or `off`.
fn on_off(node: Node<'_, '_>) -> bool {
    !matches!(attr_in(node, W, "val"), Some("false" | "0" | "off"))
}

/// The `w:ilvl` of a `w:numPr`; `None` when the numbering is switched off (`w:numId` 0).
fn numbering_level(num_pr: Node<'_, '_>) -> Option<usize> {
    let child = |name: &str| {
        num_pr
            .children()
            .find(|n| name_in(*n, W) == Some(name))
            .and_then(|n| attr_in(n, W, "val"))
    };
    if child("numId") == Some("0") {
        return None;
    }
    Some(
        child("ilvl")
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or(0)
            .min(MAX_LIST_LEVEL - 1),
    )
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

/// A field being read: `w:fldChar begin`, its instruction, `separate`, its result, `end`.
struct Field {
    instruction: String,
    in_result: bool,
    /// Whether text read now inside it is hidden: all of it until `separate`, and then the
    /// result unless the field is a hyperlink (only a hyperlink's result is text a reader
    /// wrote; the others are computed).
    hides: bool,
}

fn is_hyperlink(instruction: &str) -> bool {
    instruction
        .split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("HYPERLINK"))
}

/// A paragraph being read.
struct Paragraph {
    text: String,
    heading: Option<u8>,
    title: bool,
    list_level: Option<usize>,
    /// Hidden unless a run says otherwise (from the paragraph style).
    hidden: bool,
}

/// The walk over one story (the body, a header, a note): a pre-order traversal with explicit
/// state instead of recursion.
struct Walk<'s, 'b> {
    styles: &'s Styles,
    builder: &'b mut HierarchyBuilder,
    /// Open paragraphs (a text box's paragraphs sit inside another paragraph).
    paragraphs: Vec<Paragraph>,
    fields: Vec<Field>,
    /// How many of `fields` hide their text: kept as they open, separate and end, so whether
    /// a run shows costs the same however deeply fields nest.
    hiding_fields: usize,
    /// Open lists per open table cell (the body is the first entry).
    lists: Vec<usize>,
    /// The first "Title" paragraph's text.
    title: Option<String>,
}

impl<'s, 'b> Walk<'s, 'b> {
    fn new(styles: &'s Styles, builder: &'b mut HierarchyBuilder) -> Self {
        Walk {
            styles,
            builder,
            paragraphs: Vec::new(),
            fields: Vec::new(),
            hiding_fields: 0,
            lists: vec![0],
            title: None,
        }
    }

    fn run(&mut self, root: Node<'_, '_>) {
        // While inside a skipped subtree: its root.
        let mut skipping: Option<roxmltree::NodeId> = None;
        for edge in traverse(root) {
            match edge {
                Edge::Open(node) => {
                    if skipping.is_some() {
                        continue;
                    }
                    if node.is_text() {
                        continue;
                    }
                    if self.skips(node) {
                        skipping = Some(node.id());
                        continue;
                    }
                    self.open(node);
                }
                Edge::Close(node) => {
                    if skipping == Some(node.id()) {
                        skipping = None;
                    } else if skipping.is_none() {
                        self.close(node);
                    }
                }
            }
        }
    }

    /// Subtrees that hold no text to read.
    fn skips(&self, node: Node<'_, '_>) -> bool {
        if name_in(node, MC) == Some("Fallback") {
            return true;
        }
        match name_in(node, W) {
            Some(
                "del" | "moveFrom" | "delText" | "delInstrText" | "pPr" | "rPr" | "sectPr"
                | "tblPr" | "trPr" | "tcPr" | "tblGrid" | "footnoteReference" | "endnoteReference"
                | "commentReference" | "annotationRef" | "sym",
            ) => true,
            Some("fldSimple") => !attr_in(node, W, "instr").is_some_and(is_hyperlink),
            Some("r") => self.run_hidden(node),
            _ => false,
        }
    }

    fn run_hidden(&self, run: Node<'_, '_>) -> bool {
        let props = run.children().find(|n| name_in(*n, W) == Some("rPr"));
        let direct = props
            .and_then(|p| p.children().find(|n| name_in(*n, W) == Some("vanish")))
            .map(on_off);
        let styled = props
            .and_then(|p| p.children().find(|n| name_in(*n, W) == Some("rStyle")))
            .and_then(|s| attr_in(s, W, "val"))
            .and_then(|id| self.styles.resolve(id, |s| s.hidden));
        let paragraph = self.paragraphs.last().is_some_and(|p| p.hidden);
        direct.or(styled).unwrap_or(paragraph)
    }

    /// Whether text read now is shown: outside fields, or in a hyperlink's result.
    fn showing(&self) -> bool {
        self.hiding_fields == 0
    }

    fn end_field(&mut self) {
        if self.fields.pop().is_some_and(|f| f.hides) {
            self.hiding_fields -= 1;
        }
    }

    fn push_text(&mut self, text: &str) {
        if !self.showing() {
            return;
        }
        if let Some(paragraph) = self.paragraphs.last_mut() {
            paragraph.text.push_str(text);
        }
    }

    fn open(&mut self, node: Node<'_, '_>) {
        match name_in(node, W) {
            Some("p") => self.open_paragraph(node),
            Some("t") => {
                if let Some(text) = node.text() {
                    self.push_text(text);
                }
            }
            Some("tab" | "ptab") => self.push_text("\t"),
            Some("br" | "cr") => {
                let kind = attr_in(node, W, "type");
                if matches!(kind, Some("page" | "column")) {
                    self.push_text(" ");
                } else {
                    self.push_text(&HARD_BREAK.to_string());
                }
            }
            Some("noBreakHyphen") => self.push_text("-"),
            Some("fldChar") => match attr_in(node, W, "fldCharType") {
                Some("begin") => {
                    self.fields.push(Field {
                        instruction: String::new(),
                        in_result: false,
                        hides: true,
                    });
                    self.hiding_fields += 1;
                }
                Some("separate") => {
                    if let Some(field) = self.fields.last_mut()
                        && !field.in_result
                    {
                        field.in_result = true;
                        if is_hyperlink(&field.instruction) {
                            field.hides = false;
                            self.hiding_fields -= 1;
                        }
                    }
                }
                Some("end") => self.end_field(),
                _ => {}
            },
            Some("instrText") => {
                if let (Some(field), Some(text)) = (self.fields.last_mut(), node.text())
                    && !field.in_result
                {
                    field.instruction.push_str(text);
                }
            }
            Some("tbl") => {
                self.close_lists();
                self.builder.open(NodeKind::Table, "");
            }
            Some("tr") => self.builder.open(NodeKind::TableRow, ""),
            Some("tc") => {
                self.builder.open(NodeKind::TableCell, "");
                self.lists.push(0);
            }
            _ => {}
        }
    }

    fn close(&mut self, node: Node<'_, '_>) {
        match name_in(node, W) {
            Some("p") => self.close_paragraph(),
            Some("tbl" | "tr") => self.builder.close(),
            Some("tc") => {
                self.close_lists();
                self.lists.pop();
                self.builder.close();
            }
            _ => {}
        }
    }

    fn open_paragraph(&mut self, node: Node<'_, '_>) {
        let props = node.children().find(|n| name_in(*n, W) == Some("pPr"));
        let prop =
            |name: &str| props.and_then(|p| p.children().find(|n| name_in(*n, W) == Some(name)));
        let style = prop("pStyle").and_then(|s| attr_in(s, W, "val"));
        let styles = self.styles;
        let from_style =
            |get: fn(&Style) -> Option<u8>| style.and_then(|id| styles.resolve(id, get));
        let own_outline = prop("outlineLvl")
            .and_then(|o| attr_in(o, W, "val"))
            .and_then(|v| v.parse::<u8>().ok())
            .filter(|&l| l < 9)
            .map(|l| l + 1);
        let heading = own_outline.or_else(|| from_style(|s| s.heading));
        let title = style.and_then(|id| styles.resolve(id, |s| s.title.then_some(true)));
        let list_level = match prop("numPr") {
            Some(num) => numbering_level(num),
            None => style.and_then(|id| styles.resolve(id, |s| s.list_level)),
        };
        let hidden = style
            .and_then(|id| styles.resolve(id, |s| s.hidden))
            .unwrap_or(false);
        self.paragraphs.push(Paragraph {
            text: String::new(),
            heading,
            title: title.unwrap_or(false),
            list_level,
            hidden,
        });
    }

    fn close_paragraph(&mut self) {
        let Some(paragraph) = self.paragraphs.pop() else {
            return;
        };
        if paragraph.title && self.title.is_none() {
            let text = crate::document::builder::collapse_whitespace(&paragraph.text);
            if !text.is_empty() {
                self.title = Some(text);
            }
        }
        match (paragraph.heading, paragraph.list_level) {
            (Some(level), _) => {
                self.close_lists();
                self.builder.heading(level, &paragraph.text);
            }
            (None, Some(level)) => {
                self.open_lists_to(level + 1);
                self.builder.open(NodeKind::ListItem, "");
                self.builder.block(NodeKind::Paragraph, &paragraph.text);
                self.builder.close();
            }
            (None, None) => {
                self.close_lists();
                self.builder.block(NodeKind::Paragraph, &paragraph.text);
            }
        }
    }

    fn open_lists_to(&mut self, depth: usize) {
        let Some(open) = self.lists.last_mut() else {
            return;
        };
        while *open > depth {
            self.builder.close();
            *open -= 1;
        }
        while *open < depth {
            self.builder.open(NodeKind::List, "");
            *open += 1;
        }
    }

    fn close_lists(&mut self) {
        self.open_lists_to(0);
    }

    /// Closes what the story left open (lists; unbalanced fields are dropped) and gives the
    /// first "Title" paragraph's text.
    fn finish(mut self) -> Option<String> {
        while !self.paragraphs.is_empty() {
            self.close_paragraph();
        }
        self.close_lists();
        self.title
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::document::formats::tests::{outline, zip_of};
    use crate::document::sentences;

    const NS: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006""#;

    fn rels(targets: &[(&str, &str)]) -> String {
        let base = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
        let items: String = targets
            .iter()
            .enumerate()
            .map(|(i, (kind, target))| {
                format!(r#"<Relationship Id="rId{i}" Type="{base}/{kind}" Target="{target}"/>"#)
            })
            .collect();
        format!(
            r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{items}</Relationships>"#
        )
    }

    fn read(parts: &[(&str, &str)]) -> Result<Document, LoadError> {
        let bytes = zip_of(parts);
        let path = Path::new("t.docx");
        // Without the limit on the unpacking ratio: some of these documents repeat one
        // structure thousands of times, which deflate packs over 100 times.
        let container = Container::with_limits(
            &bytes,
            path,
            SourceFormat::Docx,
            super::super::container::MAX_ENTRIES,
            super::super::container::MAX_UNPACKED_BYTES,
        )?;
        parse(&container, "t.docx", sentences::split)
    }

    fn styles() -> String {
        format!(
            r#"<w:styles {NS}>
              <w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>
              <w:style w:type="paragraph" w:styleId="H2"><w:name w:val="My sub"/><w:basedOn w:val="Base2"/></w:style>
              <w:style w:type="paragraph" w:styleId="Base2"><w:name w:val="base"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>
              <w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>
              <w:style w:type="character" w:styleId="Secret"><w:name w:val="secret"/><w:rPr><w:vanish/></w:rPr></w:style>
            </w:styles>"#
        )
    }

    fn p(style: &str, runs: &str) -> String {
        let props = if style.is_empty() {
            String::new()
        } else {
            format!(r#"<w:pPr><w:pStyle w:val="{style}"/></w:pPr>"#)
        };
        format!("<w:p>{props}{runs}</w:p>")
    }

    fn r(text: &str) -> String {
        format!(r#"<w:r><w:t xml:space="preserve">{text}</w:t></w:r>"#)
    }

    #[test]
    fn structure_tracked_changes_hidden_text_fields_notes_and_page_regions() {
        let body = [
            p("Title", &r("The Title")),
            p("Heading1", &r("Chapter")),
            p(
                "",
                &[
                    r("Kept "),
                    r#"<w:del><w:r><w:delText>deleted </w:delText></w:r></w:del>"#.to_string(),
                    format!("<w:ins>{}</w:ins>", r("inserted ")),
                    r#"<w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden </w:t></w:r>"#.to_string(),
                    r#"<w:r><w:rPr><w:rStyle w:val="Secret"/></w:rPr><w:t>styled-hidden </w:t></w:r>"#
                        .to_string(),
                    r("text"),
                    r#"<w:r><w:footnoteReference w:id="2"/></w:r>"#.to_string(),
                    r(". Page "),
                    r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>"#.to_string(),
                    r("7"),
                    r#"<w:r><w:fldChar w:fldCharType="end"/></w:r>"#.to_string(),
                    r(" and "),
                    r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> HYPERLINK "http://x" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>"#.to_string(),
                    r("a link"),
                    r#"<w:r><w:fldChar w:fldCharType="end"/></w:r>"#.to_string(),
                    r(" end."),
                ]
                .concat(),
            ),
            p("H2", &r("Sub part")),
            r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr></w:pPr><w:r><w:t>First item</w:t></w:r></w:p>"#.to_string(),
            r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="3"/></w:numPr></w:pPr><w:r><w:t>Nested item</w:t></w:r></w:p>"#.to_string(),
            r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr></w:pPr><w:r><w:t>Second item</w:t></w:r></w:p>"#.to_string(),
            format!(
                "<w:tbl><w:tblPr/><w:tr><w:tc><w:tcPr/>{}</w:tc><w:tc>{}</w:tc></w:tr></w:tbl>",
                p("", &r("Cell one")),
                p("", &r("Cell two"))
            ),
            format!(
                r#"<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><w:txbxContent>{}</w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent>{}</w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r>{}</w:p>"#,
                p("", &r("Boxed text.")),
                p("", &r("Boxed text.")),
                r("After the box.")
            ),
            "<w:sectPr/>".to_string(),
        ]
        .concat();
        let document = format!(r#"<w:document {NS}><w:body>{body}</w:body></w:document>"#);
        let footnotes = format!(
            r#"<w:footnotes {NS}><w:footnote w:type="separator" w:id="0"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:id="2">{}</w:footnote></w:footnotes>"#,
            p("", &r("The footnote says this."))
        );
        let header = format!(r#"<w:hdr {NS}>{}</w:hdr>"#, p("", &r("Running head")));
        let footer = format!(
            r#"<w:ftr {NS}><w:p><w:fldSimple w:instr=" PAGE "><w:r><w:t>3</w:t></w:r></w:fldSimple></w:p></w:ftr>"#
        );
        let doc = read(&[
            (
                "_rels/.rels",
                &rels(&[("officeDocument", "word/document.xml")]),
            ),
            (
                "word/_rels/document.xml.rels",
                &rels(&[
                    ("styles", "styles.xml"),
                    ("footnotes", "footnotes.xml"),
                    ("header", "header1.xml"),
                    ("footer", "footer1.xml"),
                ]),
            ),
            ("word/document.xml", &document),
            ("word/styles.xml", &styles()),
            ("word/footnotes.xml", &footnotes),
            ("word/header1.xml", &header),
            ("word/footer1.xml", &footer),
        ])
        .unwrap();
        assert_eq!(doc.title, "The Title");
        assert_eq!(doc.format, SourceFormat::Docx);
        assert_eq!(
            outline(&doc),
            vec![
                "document ",
                "  region [bp] Running head",
                "  section The Title",
                "    section Chapter",
                "      paragraph Kept inserted text.|Page and a link end.",
                "      section Sub part",
                "        list ",
                "          list_item First item",
                "          list Nested item",
                "          list_item Second item",
                "        table ",
                "          table_cell Cell one",
                "          table_cell Cell two",
                "        paragraph Boxed text.",
                "        paragraph After the box.",
                "  notes The footnote says this.",
            ]
        );
    }

    #[test]
    fn deeply_nested_open_fields_keep_their_text_rules() {
        // 50,000 hyperlink fields, each opened and separated but never ended, each followed by
        // a sentence: all of it is link text, shown. A page-number field inside them stays
        // hidden, and closing it does not close the links around it.
        let n = 50_000;
        let open_link = r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> HYPERLINK "http://x" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>"#;
        let mut runs = String::with_capacity(n * (open_link.len() + 60));
        for _ in 0..n {
            runs.push_str(open_link);
            runs.push_str(&r("Go on. "));
        }
        runs.push_str(r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>"#);
        runs.push_str(&r("9 "));
        runs.push_str(r#"<w:r><w:fldChar w:fldCharType="end"/></w:r>"#);
        runs.push_str(&r("Done."));
        let document = format!(
            r#"<w:document {NS}><w:body>{}</w:body></w:document>"#,
            p("", &runs)
        );
        let doc = read(&[
            (
                "_rels/.rels",
                &rels(&[("officeDocument", "word/document.xml")]),
            ),
            ("word/document.xml", &document),
        ])
        .unwrap();
        let texts: Vec<&str> = doc.sentences.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts.len(), n + 1);
        assert!(
            texts[..n].iter().all(|t| *t == "Go on."),
            "{:?}",
            &texts[..3]
        );
        assert_eq!(texts[n], "Done.");
    }

    #[test]
    fn a_docx_without_its_document_part_names_it() {
        let err = read(&[
            ("[Content_Types].xml", "<Types/>"),
            (
                "_rels/.rels",
                &rels(&[("officeDocument", "word/document.xml")]),
            ),
        ])
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "t.docx: is not a complete DOCX file: it has no main document part (word/document.xml)"
        );
        let err = read(&[("word/document.xml", "<w:document not xml")]).unwrap_err();
        assert!(
            err.to_string().starts_with(
                "t.docx: is not a readable DOCX file: part word/document.xml is not well-formed XML"
            ),
            "{err}"
        );
        let no_body = format!(r#"<w:document {NS}/>"#);
        let err = read(&[("word/document.xml", &no_body)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "t.docx: is not a complete DOCX file: it has no document body (w:body in word/document.xml)"
        );
    }
}
