//! The document model: an arena of hierarchy nodes and the sentences in reading order.
//!
//! Thesis 4.1 describes a *semantic hierarchy*: a tree whose root is the document and whose nodes
//! hold the document's content (sections opened by headings, blocks, lists, tables). simdoc keeps
//! that tree in an arena (`Vec<Node>`, root at index 0) and numbers sentences in reading order,
//! i.e. a pre-order walk in which a node's own sentences come before its children's. The thesis
//! numbers sentences by an in-order walk of a binary-tree conversion instead, which does not give
//! reading order (see ../DESIGN.md "Faithful first"); reading order is what a dotplot axis needs.
//!
//! Because of that numbering, every node's sentences form one contiguous range, and so do the
//! sentences of its whole subtree.

use std::ops::Range;

use serde::{Deserialize, Serialize};

/// Index of a node in [`Document::nodes`]. The root is always `0`.
pub type NodeId = usize;

/// What a node of the semantic hierarchy stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// The root: the whole document, labelled with its title.
    Document,
    /// A heading and everything up to the next heading of the same or a higher level. The
    /// heading's text is the section's own sentence(s); its content are its children.
    Section,
    /// A block of running text (`p`, loose text in a `div`, `address`, `dt`/`dd`, a plain-text
    /// paragraph).
    Paragraph,
    /// A quotation block (`blockquote`).
    Quote,
    /// Preformatted text (`pre`).
    Preformatted,
    /// A caption (`figcaption`, `caption`).
    Caption,
    /// A list (`ul`, `ol`, `dl`, or consecutive plain-text list lines).
    List,
    /// One item of a list.
    ListItem,
    /// A table.
    Table,
    /// One row of a table.
    TableRow,
    /// One cell of a table row.
    TableCell,
    /// A region that is not running text of the article: `nav`, `header`, `footer`, `aside`,
    /// `form`; a DOCX or ODT page header or footer. Always marked [`Node::boilerplate`].
    Region,
    /// Footnotes and endnotes of a DOCX or ODT document, gathered at its end: content (not
    /// boilerplate), kept apart so that a note never interrupts the sentence that cites it.
    Notes,
}

impl NodeKind {
    /// A short lowercase name, as used in JSON output and in the viewer.
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Document => "document",
            NodeKind::Section => "section",
            NodeKind::Paragraph => "paragraph",
            NodeKind::Quote => "quote",
            NodeKind::Preformatted => "preformatted",
            NodeKind::Caption => "caption",
            NodeKind::List => "list",
            NodeKind::ListItem => "list_item",
            NodeKind::Table => "table",
            NodeKind::TableRow => "table_row",
            NodeKind::TableCell => "table_cell",
            NodeKind::Region => "region",
            NodeKind::Notes => "notes",
        }
    }
}

/// One node of the semantic hierarchy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Node {
    pub kind: NodeKind,
    /// What the node is called in a tree view: the title for the root, the heading for a
    /// section, the element name for a region (`nav`, `footer`, ...), else empty.
    pub label: String,
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
    /// The node's own sentences (positions in reading order). Empty for pure containers.
    pub own_sentences: Range<usize>,
    /// The sentences of the node and all its descendants; never empty (empty nodes are dropped).
    pub subtree_sentences: Range<usize>,
    /// Navigation, header, footer, aside or form content (or inside one): shown dimmed, and
    /// left out of comparisons unless asked for.
    pub boilerplate: bool,
}

/// One sentence of a document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sentence {
    /// The sentence as it reads in [`Document::text`] (whitespace already collapsed).
    pub text: String,
    /// Byte range of the sentence in [`Document::text`], for highlighting.
    pub span: Range<usize>,
    /// Character range (Unicode scalar values) of the sentence in the document as read: the
    /// decoded file for plain text, [`Document::text`] otherwise ([`Document::offsets_into`];
    /// [`super::offsets`]). What tools outside simdoc highlight and score with.
    pub offsets: Range<usize>,
    /// The node whose own text holds the sentence.
    pub node: NodeId,
    /// Position in reading order, `0..document.sentences.len()`.
    pub position: usize,
}

/// How the document's bytes were read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceFormat {
    Html,
    Text,
    /// Office Open XML word processing (Word 2007 and later).
    Docx,
    /// OpenDocument text (LibreOffice, and Word's "Save as ODT").
    Odt,
    /// The text layer of a PDF.
    Pdf,
    /// An EPUB book: its XHTML chapters in spine order.
    Epub,
}

impl SourceFormat {
    /// The format's usual name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            SourceFormat::Html => "HTML",
            SourceFormat::Text => "text",
            SourceFormat::Docx => "DOCX",
            SourceFormat::Odt => "ODT",
            SourceFormat::Pdf => "PDF",
            SourceFormat::Epub => "EPUB",
        }
    }

    /// Formats read from a container or page description rather than from decoded text.
    pub fn is_packaged(self) -> bool {
        matches!(
            self,
            SourceFormat::Docx | SourceFormat::Odt | SourceFormat::Pdf | SourceFormat::Epub
        )
    }
}

/// A loaded document: its semantic hierarchy and its sentences in reading order. (Serialized
/// only to come back from a worker process: [`super::worker`].)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Document {
    /// From `<title>`, a plain-text document's first heading, or else the file name.
    pub title: String,
    /// The visible text as simdoc reads it, block by block (blocks separated by a blank line).
    /// Sentence spans index into it.
    pub text: String,
    /// The hierarchy; `nodes[0]` is the root.
    pub nodes: Vec<Node>,
    /// All sentences in reading order; `sentences[i].position == i`.
    pub sentences: Vec<Sentence>,
    pub format: SourceFormat,
    /// What the sentences' [`Sentence::offsets`] count characters of.
    pub offsets_into: super::offsets::OffsetsInto,
    /// What reading the file noticed without refusing it (bytes that were not valid UTF-8 and
    /// were replaced), each a phrase about the file for its reader ("3 bytes are not valid
    /// UTF-8 ..."); front ends print them after its name.
    pub warnings: Vec<String>,
}

impl Document {
    /// The root node's id.
    pub const ROOT: NodeId = 0;

    pub fn root(&self) -> &Node {
        &self.nodes[Self::ROOT]
    }

    /// The node ids from the root down to `id` (both included).
    pub fn ancestry(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = vec![id];
        let mut current = id;
        while let Some(parent) = self.nodes.get(current).and_then(|n| n.parent) {
            path.push(parent);
            current = parent;
        }
        path.reverse();
        path
    }

    /// Depth of a node below the root (the root has depth 0).
    pub fn depth(&self, id: NodeId) -> usize {
        self.ancestry(id).len() - 1
    }

    /// For every sentence, whether it lies in boilerplate (a `nav`, `footer`, ... region).
    pub fn boilerplate_mask(&self) -> Vec<bool> {
        self.sentences
            .iter()
            .map(|s| self.nodes[s.node].boilerplate)
            .collect()
    }

    /// The top-level sections' first sentence positions (excluding 0): where a dotplot draws its
    /// faint section boundary lines. Only sections count (a document without headings has none).
    pub fn top_level_boundaries(&self) -> Vec<usize> {
        self.root()
            .children
            .iter()
            .filter(|&&c| self.nodes[c].kind == NodeKind::Section)
            .map(|&c| self.nodes[c].subtree_sentences.start)
            .filter(|&p| p > 0)
            .collect()
    }
}
