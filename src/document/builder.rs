//! Building a [`Document`] from a stream of structure events.
//!
//! Both front ends (HTML and plain text) describe what they read as events: open a container,
//! meet a heading, add a block of text, close the container. The builder turns those into the
//! semantic hierarchy of thesis 4.1:
//!
//! - a heading opens a [`NodeKind::Section`] that holds everything up to the next heading of the
//!   same or a higher level (a smaller or equal level number), but never outlives the container
//!   it was opened in (a heading inside a table cell does not swallow the rest of the page);
//! - empty nodes are dropped, and a container with no text of its own and a single child is
//!   merged with that child (the container keeps its kind and label);
//! - a table row of short cells (a data table) becomes one line of text in the
//!   row node; rows with prose keep a node per cell;
//! - sentences are numbered in reading order (pre-order, own text before children's), so a
//!   node's own sentences and its subtree's sentences are each one contiguous range.
//!
//! Every walk here is iterative: a document nested 100,000 levels deep must not overflow the
//! stack. Nor is the hierarchy that deep: containers opened deeper than [`MAX_DEPTH`] make no
//! node (their content goes to the deepest node, in reading order), and headings there are
//! leaves, so every node is at most `MAX_DEPTH + 1` levels below the root. Whatever walks a
//! node's ancestors (outlines, the viewer's trees, reports) then costs a bounded amount per node:
//! 200,000 nested lists in an ODT (0.9 MB) made an outline of tens of GB, indented by depth.

use std::ops::Range;

use super::tree::{Document, Node, NodeKind, Sentence, SourceFormat};

/// The deepest a container opens a node of its own, below the root: deeper, its content goes to
/// the node at this depth (see the module docs). Far beyond what a reader could follow; the HTML
/// parser's own limit, which counts every tag, is 512 ([`super::nesting::MAX_DEPTH`]).
pub const MAX_DEPTH: usize = 128;

/// A table cell with at most this many words is data, not prose (see `join_data_rows`).
const DATA_CELL_WORDS: usize = 12;

/// Splits a block of text into sentences: byte ranges into the text, in order, trimmed.
pub type SentenceSplitter = fn(&str) -> Vec<Range<usize>>;

#[derive(Debug)]
struct RawNode {
    kind: NodeKind,
    label: String,
    parent: Option<usize>,
    children: Vec<usize>,
    /// Own text, whitespace already collapsed (except preformatted text, which keeps lines).
    text: String,
    boilerplate: bool,
    /// Levels below the root (the root's is 0).
    depth: u32,
}

#[derive(Clone, Copy, Debug)]
enum Frame {
    Container(usize),
    /// A container opened past [`MAX_DEPTH`]: no node of its own; holds the node its content
    /// goes to.
    Flattened(usize),
    /// A sectioning scope without a node of its own (HTML `article`, `section`, `main`): sections
    /// opened inside it end with it. Holds the node that was current when it opened.
    Scope(usize),
    Section {
        node: usize,
        level: u8,
    },
}

impl Frame {
    fn node(self) -> usize {
        match self {
            Frame::Container(node)
            | Frame::Flattened(node)
            | Frame::Scope(node)
            | Frame::Section { node, .. } => node,
        }
    }
}

/// Collects structure events and turns them into a [`Document`] (see the module docs).
#[derive(Debug)]
pub struct HierarchyBuilder {
    nodes: Vec<RawNode>,
    /// Open containers and sections; the root's frame is never popped.
    stack: Vec<Frame>,
}

impl HierarchyBuilder {
    /// A builder whose root is titled `title`.
    pub fn new(title: impl Into<String>) -> Self {
        let root = RawNode {
            kind: NodeKind::Document,
            label: title.into(),
            parent: None,
            children: Vec::new(),
            text: String::new(),
            boilerplate: false,
            depth: 0,
        };
        HierarchyBuilder {
            nodes: vec![root],
            stack: vec![Frame::Container(0)],
        }
    }

    /// Replaces the root's title.
    pub fn set_title(&mut self, title: impl Into<String>) {
        self.nodes[0].label = title.into();
    }

    /// The root's title so far.
    pub fn title(&self) -> &str {
        &self.nodes[0].label
    }

    fn current(&self) -> usize {
        self.stack.last().map_or(0, |f| f.node())
    }

    /// Whether the current node is as deep as a container may open a node.
    fn at_max_depth(&self) -> bool {
        self.nodes[self.current()].depth as usize >= MAX_DEPTH
    }

    fn add_node(&mut self, kind: NodeKind, label: String, text: String) -> usize {
        let parent = self.current();
        let id = self.nodes.len();
        let depth = self.nodes[parent].depth + 1;
        self.nodes.push(RawNode {
            kind,
            label,
            parent: Some(parent),
            children: Vec::new(),
            text,
            boilerplate: kind == NodeKind::Region,
            depth,
        });
        self.nodes[parent].children.push(id);
        id
    }

    /// Opens a container (list, item, table, row, cell, quote, region...) as a child of the
    /// current node, or past [`MAX_DEPTH`] without a node of its own. Close it with
    /// [`HierarchyBuilder::close`].
    pub fn open(&mut self, kind: NodeKind, label: impl Into<String>) {
        if self.at_max_depth() {
            let current = self.current();
            self.stack.push(Frame::Flattened(current));
            return;
        }
        let id = self.add_node(kind, label.into(), String::new());
        self.stack.push(Frame::Container(id));
    }

    /// Closes the innermost open container or scope, and every section opened inside it.
    pub fn close(&mut self) {
        while self.stack.len() > 1 {
            if let Some(Frame::Container(_) | Frame::Flattened(_) | Frame::Scope(_)) =
                self.stack.pop()
            {
                return;
            }
        }
    }

    /// Opens a sectioning scope: no node, but headings inside it do not reach past its
    /// [`HierarchyBuilder::close`].
    pub fn open_scope(&mut self) {
        let current = self.current();
        self.stack.push(Frame::Scope(current));
    }

    /// How many containers are open (the root not counted).
    pub fn open_containers(&self) -> usize {
        self.stack
            .iter()
            .skip(1)
            .filter(|f| matches!(f, Frame::Container(_) | Frame::Flattened(_)))
            .count()
    }

    /// A heading of `level` (1 = most important): closes the open sections of the same or a
    /// lower rank inside the current container, then opens a new section whose own text is the
    /// heading (past [`MAX_DEPTH`], a section that holds nothing else).
    pub fn heading(&mut self, level: u8, text: &str) {
        let text = collapse_whitespace(text);
        if !has_text(&text) {
            return;
        }
        while let Some(Frame::Section { level: open, .. }) = self.stack.last() {
            if *open >= level {
                self.stack.pop();
            } else {
                break;
            }
        }
        let label = text.clone();
        let deepest = self.at_max_depth();
        let node = self.add_node(NodeKind::Section, label, text);
        if !deepest {
            self.stack.push(Frame::Section { node, level });
        }
    }

    /// A block of text (paragraph, caption...) as a leaf child of the current node. Whitespace is
    /// collapsed except in [`NodeKind::Preformatted`] blocks, which keep their line breaks, and at
    /// [`HARD_BREAK`]s, which become line breaks. A line break always ends a sentence.
    pub fn block(&mut self, kind: NodeKind, text: &str) {
        let text = if kind == NodeKind::Preformatted {
            collapse_preformatted(text)
        } else {
            collapse_keeping_hard_breaks(text)
        };
        if has_text(&text) {
            self.add_node(kind, String::new(), text);
        }
    }

    /// Adds text to the current node's own text (used for text directly inside a list item or
    /// a table cell, which is that node's content rather than a paragraph of its own).
    pub fn own_text(&mut self, text: &str) {
        let text = collapse_whitespace(text);
        if !has_text(&text) {
            return;
        }
        let current = self.current();
        let own = &mut self.nodes[current].text;
        if !own.is_empty() {
            own.push(' ');
        }
        own.push_str(&text);
    }

    /// Prunes, merges, splits into sentences and numbers everything in reading order.
    pub fn finish(mut self, format: SourceFormat, split: SentenceSplitter) -> Document {
        self.inherit_boilerplate();
        let mut keep = self.prune_and_merge();
        self.join_data_rows(&mut keep);
        self.assemble(&keep, format, split)
    }

    /// A table row whose cells are all short leaves (a data table: a name, a number, a date, a
    /// short note per cell) keeps its cells' text as one line of its own, cells separated by
    /// spaces, and drops the cell nodes. A lone number or name is no sentence to compare; the
    /// row is. Rows with prose in their cells keep one node per cell.
    fn join_data_rows(&mut self, keep: &mut [bool]) {
        for id in 0..self.nodes.len() {
            if !keep[id] || self.nodes[id].kind != NodeKind::TableRow {
                continue;
            }
            let cells = &self.nodes[id].children;
            let data_row = cells.len() >= 2
                && self.nodes[id].text.is_empty()
                && cells.iter().all(|&c| {
                    let cell = &self.nodes[c];
                    cell.kind == NodeKind::TableCell
                        && cell.children.is_empty()
                        && cell.text.split_whitespace().count() <= DATA_CELL_WORDS
                        && !cell.text.contains('\n')
                });
            if !data_row {
                continue;
            }
            let cells = std::mem::take(&mut self.nodes[id].children);
            let texts: Vec<&str> = cells.iter().map(|&c| self.nodes[c].text.as_str()).collect();
            let joined = texts.join(" ");
            for &c in &cells {
                keep[c] = false;
            }
            self.nodes[id].text = joined;
        }
    }

    fn inherit_boilerplate(&mut self) {
        // Parents always come before their children in the arena.
        for id in 1..self.nodes.len() {
            if let Some(parent) = self.nodes[id].parent
                && self.nodes[parent].boilerplate
            {
                self.nodes[id].boilerplate = true;
            }
        }
    }

    /// Drops nodes with no text in their subtree and merges text-less single-child containers
    /// into their child. Returns which nodes survive.
    fn prune_and_merge(&mut self) -> Vec<bool> {
        let mut keep = vec![true; self.nodes.len()];
        // Children always have larger ids than their parents, so a reverse sweep is a
        // post-order visit without recursion.
        for id in (0..self.nodes.len()).rev() {
            let children = std::mem::take(&mut self.nodes[id].children);
            let live: Vec<usize> = children.into_iter().filter(|&c| keep[c]).collect();
            self.nodes[id].children = live;
            if id == 0 {
                break;
            }
            let empty = self.nodes[id].text.is_empty();
            if empty && self.nodes[id].children.is_empty() {
                keep[id] = false;
            } else if empty && self.nodes[id].children.len() == 1 {
                let child = self.nodes[id].children[0];
                self.absorb(id, child);
                keep[child] = false;
            }
        }
        // The root too absorbs a lone child, keeping its kind and title.
        if self.nodes[0].text.is_empty() && self.nodes[0].children.len() == 1 {
            let child = self.nodes[0].children[0];
            self.absorb(0, child);
            keep[child] = false;
        }
        keep
    }

    fn absorb(&mut self, parent: usize, child: usize) {
        let text = std::mem::take(&mut self.nodes[child].text);
        let children = std::mem::take(&mut self.nodes[child].children);
        let label = std::mem::take(&mut self.nodes[child].label);
        let boilerplate = self.nodes[child].boilerplate;
        for &grandchild in &children {
            self.nodes[grandchild].parent = Some(parent);
        }
        let node = &mut self.nodes[parent];
        node.text = text;
        node.children = children;
        if node.label.is_empty() {
            node.label = label;
        }
        // A region absorbing its content stays boilerplate; content absorbing a region becomes
        // boilerplate only if all of it was.
        node.boilerplate = node.boilerplate || boilerplate;
    }

    fn assemble(
        mut self,
        keep: &[bool],
        format: SourceFormat,
        split: SentenceSplitter,
    ) -> Document {
        let title = self.nodes[0].label.clone();
        let mut new_id = vec![usize::MAX; self.nodes.len()];
        let mut order = Vec::new();
        // Pre-order walk with an explicit stack; children pushed in reverse to pop in order.
        let mut stack = vec![0usize];
        while let Some(id) = stack.pop() {
            if !keep[id] {
                continue;
            }
            new_id[id] = order.len();
            order.push(id);
            for &c in self.nodes[id].children.iter().rev() {
                stack.push(c);
            }
        }

        let mut text = String::new();
        let mut sentences = Vec::new();
        let mut nodes: Vec<Node> = Vec::with_capacity(order.len());
        for &old in &order {
            // Each raw node's text, label and children are taken as it is turned into a node,
            // so that their memory serves the document's instead of adding to it (a document
            // of one-letter paragraphs holds a raw node, a node and a sentence per paragraph).
            let raw = &mut self.nodes[old];
            let raw_text = std::mem::take(&mut raw.text);
            let first = sentences.len();
            if !raw_text.is_empty() {
                if !text.is_empty() {
                    text.push_str("\n\n");
                }
                let base = text.len();
                text.push_str(&raw_text);
                let mut line_start = 0;
                let lines = raw_text.split('\n').map(|line| {
                    let start = line_start;
                    line_start += line.len() + 1;
                    (start, line)
                });
                let ranges: Vec<Range<usize>> = lines
                    .flat_map(|(start, line)| {
                        split(line)
                            .into_iter()
                            .map(move |r| start + r.start..start + r.end)
                    })
                    .collect();
                for range in ranges {
                    let span = base + range.start..base + range.end;
                    sentences.push(Sentence {
                        text: raw_text[range].to_string(),
                        span,
                        offsets: 0..0,
                        node: nodes.len(),
                        position: sentences.len(),
                    });
                }
            }
            drop(raw_text);
            let raw = &mut self.nodes[old];
            let mut children = std::mem::take(&mut raw.children);
            for child in &mut children {
                *child = new_id[*child];
            }
            nodes.push(Node {
                kind: raw.kind,
                label: std::mem::take(&mut raw.label),
                parent: raw.parent.map(|p| new_id[p]),
                children,
                own_sentences: first..sentences.len(),
                subtree_sentences: first..sentences.len(),
                boilerplate: raw.boilerplate,
            });
        }
        // Subtree ranges: pre-order ids, so a reverse sweep sees children before parents.
        for id in (0..nodes.len()).rev() {
            if let Some(parent) = nodes[id].parent {
                let end = nodes[id].subtree_sentences.end;
                let p = &mut nodes[parent].subtree_sentences;
                p.end = p.end.max(end);
            }
        }
        // A node whose text splits into no sentence (only punctuation, say) and that has no
        // children would have an empty range; it keeps its place but cannot be matched.
        let mut doc = Document {
            title,
            text,
            nodes,
            sentences,
            format,
            offsets_into: super::offsets::OffsetsInto::ExtractedText,
            warnings: Vec::new(),
        };
        super::offsets::char_offsets_of_spans(&mut doc);
        doc
    }
}

/// Whether a block says anything: a rule of dashes or a lone bullet does not.
fn has_text(text: &str) -> bool {
    text.chars().any(char::is_alphanumeric)
}

/// Marks a visible line break in text handed to [`HierarchyBuilder::block`] (an HTML `<br>`):
/// U+2028 LINE SEPARATOR, which never occurs in text read from a file as a line break of its own.
pub const HARD_BREAK: char = '\u{2028}';

/// Collapses whitespace within each line between [`HARD_BREAK`]s; lines join with `\n`, empty
/// lines are dropped.
fn collapse_keeping_hard_breaks(text: &str) -> String {
    if !text.contains(HARD_BREAK) {
        return collapse_whitespace(text);
    }
    let lines: Vec<String> = text
        .split(HARD_BREAK)
        .map(collapse_whitespace)
        .filter(|l| !l.is_empty())
        .collect();
    lines.join("\n")
}

/// Collapses every run of whitespace to one space and trims the ends.
pub fn collapse_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Preformatted text keeps its line breaks; each line's inner whitespace runs are collapsed,
/// blank lines and trailing spaces dropped.
fn collapse_preformatted(text: &str) -> String {
    let lines: Vec<String> = text
        .lines()
        .map(collapse_whitespace)
        .filter(|l| !l.is_empty())
        .collect();
    lines.join("\n")
}

#[cfg(test)]
mod tests;
