//! The walk over one story of a DOCX (the body, a header, a note): paragraphs, headings, lists,
//! tables, runs and fields, in document order, into the hierarchy builder.

use roxmltree::Node;

use super::styles::{Style, Styles, numbering_level, on_off};
use super::{MC, W};
use crate::document::builder::{HARD_BREAK, HierarchyBuilder};
use crate::document::formats::xml::{Edge, attr_in, name_in, traverse};
use crate::document::tree::NodeKind;

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
pub(super) struct Walk<'s, 'b> {
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
    pub(super) fn new(styles: &'s Styles, builder: &'b mut HierarchyBuilder) -> Self {
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

    pub(super) fn run(&mut self, root: Node<'_, '_>) {
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
    pub(super) fn finish(mut self) -> Option<String> {
        while !self.paragraphs.is_empty() {
            self.close_paragraph();
        }
        self.close_lists();
        self.title
    }
}
