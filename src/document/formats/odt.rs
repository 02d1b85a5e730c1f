//! ODT (OpenDocument text, OASIS ODF 1.3 part 3) to a semantic hierarchy.
//!
//! `content.xml`'s `office:text` is read in document order:
//!
//! - `text:h` is a heading of its `text:outline-level` (default 1); headings nest as sections;
//! - `text:list` and `text:list-item` are lists and items (nested lists nest); a list that holds
//!   only headings (numbered headings) makes no list node;
//! - `table:table`, `table:table-row`, `table:table-cell` are tables, rows and cells;
//! - `text:p` is a paragraph; text in frames (`draw:text-box`) is read where it is anchored.
//!
//! Text is the character content with `text:s` (spaces), `text:tab` and `text:line-break` (which
//! ends a sentence, as `<br>` does in HTML). Left out: tracked changes (`text:tracked-changes`
//! holds the deleted text; inserted text stands in the body and is read), hidden text
//! (`text:hidden-text`, hidden paragraphs and sections, and styles with `text:display="none"`),
//! computed fields (page numbers, dates, counts, references, ...), generated indexes (tables of
//! contents) and annotations.
//!
//! Notes (`text:note`) are taken out of their paragraph and gathered after the body in a
//! [`NodeKind::Notes`] node; the master pages' headers come first and footers last, each a
//! boilerplate [`NodeKind::Region`] (from `styles.xml`). The title is `meta.xml`'s `dc:title`,
//! else the file name.

use std::collections::{HashMap, HashSet};

use roxmltree::{Node, NodeId};

use super::container::Container;
use super::xml::{self, Edge, attr_in, name_in, traverse};
use crate::document::LoadError;
use crate::document::builder::{
    HARD_BREAK, HierarchyBuilder, SentenceSplitter, collapse_whitespace,
};
use crate::document::tree::{Document, NodeKind, SourceFormat};

const TEXT: &[&str] = &["urn:oasis:names:tc:opendocument:xmlns:text:1.0"];
const TABLE: &[&str] = &["urn:oasis:names:tc:opendocument:xmlns:table:1.0"];
const OFFICE: &[&str] = &["urn:oasis:names:tc:opendocument:xmlns:office:1.0"];
const STYLE: &[&str] = &["urn:oasis:names:tc:opendocument:xmlns:style:1.0"];
const DRAW: &[&str] = &["urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"];
const SVG: &[&str] = &["urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"];
const DC: &[&str] = &["http://purl.org/dc/elements/1.1/"];

/// How deep a `style:parent-style-name` chain is followed.
const MAX_STYLE_DEPTH: usize = 16;

/// Text elements whose content is computed (a page number, a date, a reference to elsewhere) or
/// generated (an index) rather than written.
const COMPUTED: &[&str] = &[
    "page-number",
    "page-count",
    "page-continuation",
    "date",
    "time",
    "file-name",
    "template-name",
    "author-name",
    "author-initials",
    "chapter",
    "sheet-name",
    "word-count",
    "character-count",
    "paragraph-count",
    "table-count",
    "image-count",
    "object-count",
    "reference-ref",
    "bookmark-ref",
    "note-ref",
    "sequence-ref",
    "variable-get",
    "user-field-get",
    "expression",
    "drop-down",
    "table-of-content",
    "alphabetical-index",
    "illustration-index",
    "table-index",
    "object-index",
    "user-index",
    "bibliography",
    "tracked-changes",
    "hidden-text",
    "note-citation",
    "sequence-decls",
    "variable-decls",
    "user-field-decls",
];

/// Reads an ODT container into a document named `file_name`.
pub fn parse(
    container: &Container<'_>,
    file_name: &str,
    split: SentenceSplitter,
) -> Result<Document, LoadError> {
    if is_encrypted(container)? {
        return Err(LoadError::Encrypted {
            path: container.path().to_path_buf(),
        });
    }
    let mut styles_text = container.read_string_optional("styles.xml")?;
    let styles_xml = match &mut styles_text {
        Some(text) => Some(xml::parse(container, "styles.xml", text)?),
        None => None,
    };
    let mut content_text = container.read_string("content.xml")?;
    let content = xml::parse(container, "content.xml", &mut content_text)?;
    let mut hidden = HiddenStyles::default();
    if let Some(styles) = &styles_xml {
        hidden.collect(styles.root_element());
    }
    hidden.collect(content.root_element());
    let body = content
        .descendants()
        .find(|n| name_in(*n, OFFICE) == Some("text"))
        .ok_or_else(|| container.missing("text body (office:text in content.xml)".into()))?;

    let mut builder = HierarchyBuilder::new(file_name);
    let master_pages: Vec<Node<'_, '_>> = styles_xml
        .as_ref()
        .map(|s| {
            s.descendants()
                .filter(|n| name_in(*n, STYLE) == Some("master-page"))
                .collect()
        })
        .unwrap_or_default();
    let hidden = hidden.resolve();
    read_regions(&master_pages, "header", &hidden, &mut builder);
    builder.open_scope();
    let mut walk = Walk::new(&hidden, &mut builder);
    walk.run(body);
    let notes = walk.finish();
    builder.close();
    builder.open(NodeKind::Notes, "notes");
    for id in notes {
        if let Some(body) = content.get_node(id).and_then(|note| {
            note.children()
                .find(|n| name_in(*n, TEXT) == Some("note-body"))
        }) {
            let mut walk = Walk::new(&hidden, &mut builder);
            walk.run(body);
            walk.finish();
        }
    }
    builder.close();
    read_regions(&master_pages, "footer", &hidden, &mut builder);
    if let Some(title) = meta_title(container)? {
        builder.set_title(title);
    }
    Ok(builder.finish(SourceFormat::Odt, split))
}

/// An encrypted ODF package keeps its manifest in the clear and says so there.
fn is_encrypted(container: &Container<'_>) -> Result<bool, LoadError> {
    const MANIFEST: &str = "META-INF/manifest.xml";
    let Some(text) = container.read_string_optional(MANIFEST)? else {
        return Ok(false);
    };
    Ok(text.contains("encryption-data"))
}

/// The headers (or footers: `which`) of every master page that has one: `style:header`,
/// `style:header-left`, `style:header-first`. The same text on several pages is read once.
fn read_regions(
    master_pages: &[Node<'_, '_>],
    which: &str,
    hidden: &HashSet<String>,
    builder: &mut HierarchyBuilder,
) {
    let mut seen = HashSet::new();
    for page in master_pages {
        for region in page
            .children()
            .filter(|n| name_in(*n, STYLE).is_some_and(|name| name.strip_prefix(which).is_some()))
        {
            let text: String = region
                .descendants()
                .filter(|n| n.is_text())
                .filter_map(|n| n.text())
                .collect();
            if !seen.insert(collapse_whitespace(&text)) {
                continue;
            }
            builder.open(NodeKind::Region, which);
            let mut walk = Walk::new(hidden, builder);
            walk.run(region);
            walk.finish();
            builder.close();
        }
    }
}

fn meta_title(container: &Container<'_>) -> Result<Option<String>, LoadError> {
    let Some(mut text) = container.read_string_optional("meta.xml")? else {
        return Ok(None);
    };
    let meta = xml::parse(container, "meta.xml", &mut text)?;
    Ok(meta
        .descendants()
        .find(|n| name_in(*n, DC) == Some("title"))
        .and_then(|n| n.text())
        .map(collapse_whitespace)
        .filter(|t| !t.is_empty()))
}

/// Style names (paragraph and text styles) whose text is not displayed.
#[derive(Default)]
struct HiddenStyles {
    /// Style name to (hides itself?, parent).
    styles: HashMap<String, (bool, Option<String>)>,
}

impl HiddenStyles {
    fn collect(&mut self, root: Node<'_, '_>) {
        for style in root
            .descendants()
            .filter(|n| name_in(*n, STYLE) == Some("style"))
        {
            let Some(name) = attr_in(style, STYLE, "name") else {
                continue;
            };
            let hides = style
                .children()
                .filter(|n| name_in(*n, STYLE) == Some("text-properties"))
                .any(|p| attr_in(p, TEXT, "display") == Some("none"));
            let parent = attr_in(style, STYLE, "parent-style-name").map(str::to_string);
            self.styles.insert(name.to_string(), (hides, parent));
        }
    }

    /// The names that hide, themselves or through a parent.
    fn resolve(&self) -> HashSet<String> {
        self.styles
            .keys()
            .filter(|name| {
                let mut current = Some(name.as_str());
                for _ in 0..MAX_STYLE_DEPTH {
                    let Some((hides, parent)) = current.and_then(|c| self.styles.get(c)) else {
                        return false;
                    };
                    if *hides {
                        return true;
                    }
                    current = parent.as_deref();
                }
                false
            })
            .cloned()
            .collect()
    }
}

/// The walk over one story (the body, a header, a note).
struct Walk<'h, 'b> {
    hidden: &'h HashSet<String>,
    builder: &'b mut HierarchyBuilder,
    /// Open paragraphs and headings (a frame's paragraphs sit inside another paragraph): text
    /// and heading level.
    blocks: Vec<(String, Option<u8>)>,
    /// Open lists and items, outermost first. Each is opened in the builder only once content
    /// arrives in it (so that a list holding only a numbered heading makes no list node).
    lists: Vec<NodeKind>,
    /// How many of `lists`, from the outermost, are open in the builder. Content opens every
    /// list around it, so the open ones are always the outermost: opening the rest looks at
    /// those only (looking at every list for each paragraph was quadratic in the nesting:
    /// 200,000 nested lists took 22 s to over 60 s).
    lists_opened: usize,
    /// Notes met in the text, read after the body.
    notes: Vec<NodeId>,
}

impl<'h, 'b> Walk<'h, 'b> {
    fn new(hidden: &'h HashSet<String>, builder: &'b mut HierarchyBuilder) -> Self {
        Walk {
            hidden,
            builder,
            blocks: Vec::new(),
            lists: Vec::new(),
            lists_opened: 0,
            notes: Vec::new(),
        }
    }

    fn run(&mut self, root: Node<'_, '_>) {
        let mut skipping: Option<NodeId> = None;
        for edge in traverse(root) {
            match edge {
                Edge::Open(node) => {
                    if skipping.is_some() {
                        continue;
                    }
                    if node.is_text() {
                        if let Some(text) = node.text() {
                            self.push_text(text);
                        }
                        continue;
                    }
                    if self.skips(node) {
                        if name_in(node, TEXT) == Some("note") {
                            self.notes.push(node.id());
                        }
                        skipping = Some(node.id());
                        continue;
                    }
                    self.open(node);
                }
                Edge::Close(node) => {
                    if skipping == Some(node.id()) {
                        skipping = None;
                    } else if skipping.is_none() && node.is_element() {
                        self.close(node);
                    }
                }
            }
        }
    }

    fn skips(&self, node: Node<'_, '_>) -> bool {
        if let Some(name) = name_in(node, TEXT) {
            if COMPUTED.contains(&name) || name == "note" {
                return true;
            }
            if matches!(name, "p" | "h" | "span" | "section")
                && (attr_in(node, TEXT, "style-name").is_some_and(|s| self.hidden.contains(s))
                    || attr_in(node, TEXT, "is-hidden") == Some("true")
                    || attr_in(node, TEXT, "display") == Some("none"))
            {
                return true;
            }
            return name == "hidden-paragraph" && attr_in(node, TEXT, "is-hidden") == Some("true");
        }
        if name_in(node, OFFICE).is_some_and(|n| n.starts_with("annotation")) {
            return true;
        }
        if name_in(node, TABLE) == Some("covered-table-cell") {
            return true;
        }
        matches!(name_in(node, SVG), Some("title" | "desc"))
            || matches!(name_in(node, DRAW), Some("image" | "object" | "object-ole"))
    }

    fn push_text(&mut self, text: &str) {
        if let Some((block, _)) = self.blocks.last_mut() {
            block.push_str(text);
        }
    }

    fn open(&mut self, node: Node<'_, '_>) {
        if let Some(name) = name_in(node, TEXT) {
            match name {
                "p" => self.blocks.push((String::new(), None)),
                "h" => {
                    let level = attr_in(node, TEXT, "outline-level")
                        .and_then(|v| v.parse::<u8>().ok())
                        .unwrap_or(1)
                        .clamp(1, 10);
                    self.blocks.push((String::new(), Some(level)));
                }
                "s" => self.push_text(" "),
                "tab" => self.push_text("\t"),
                "line-break" => self.push_text(&HARD_BREAK.to_string()),
                "list" => self.lists.push(NodeKind::List),
                "list-item" | "list-header" => self.lists.push(NodeKind::ListItem),
                _ => {}
            }
            return;
        }
        match name_in(node, TABLE) {
            Some("table") => {
                self.open_lists();
                self.builder.open(NodeKind::Table, "");
            }
            Some("table-row") => self.builder.open(NodeKind::TableRow, ""),
            Some("table-cell") => self.builder.open(NodeKind::TableCell, ""),
            _ => {}
        }
    }

    fn close(&mut self, node: Node<'_, '_>) {
        if let Some(name) = name_in(node, TEXT) {
            match name {
                "p" | "h" => self.close_block(),
                "list" | "list-item" | "list-header" => self.close_list(),
                _ => {}
            }
            return;
        }
        if matches!(
            name_in(node, TABLE),
            Some("table" | "table-row" | "table-cell")
        ) {
            self.builder.close();
        }
    }

    /// Opens in the builder the lists and items that content has now arrived in.
    fn open_lists(&mut self) {
        for kind in &self.lists[self.lists_opened..] {
            self.builder.open(*kind, "");
        }
        self.lists_opened = self.lists.len();
    }

    /// Closes the innermost list or item, in the builder too if it was opened there.
    fn close_list(&mut self) {
        if self.lists.pop().is_some() && self.lists_opened > self.lists.len() {
            self.builder.close();
            self.lists_opened = self.lists.len();
        }
    }

    fn close_block(&mut self) {
        let Some((text, heading)) = self.blocks.pop() else {
            return;
        };
        match heading {
            Some(level) => self.builder.heading(level, &text),
            None => {
                if text.chars().any(char::is_alphanumeric) {
                    self.open_lists();
                }
                self.builder.block(NodeKind::Paragraph, &text);
            }
        }
    }

    /// Closes what the story left open and gives the notes met.
    fn finish(mut self) -> Vec<NodeId> {
        while !self.blocks.is_empty() {
            self.close_block();
        }
        while !self.lists.is_empty() {
            self.close_list();
        }
        self.notes
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::document::formats::tests::{outline, zip_of};
    use crate::document::sentences;

    const NS: &str = r#"xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/""#;
    const MIMETYPE: &str = "application/vnd.oasis.opendocument.text";

    fn read(parts: &[(&str, &str)]) -> Result<Document, LoadError> {
        let bytes = zip_of(parts);
        let path = Path::new("t.odt");
        let container = Container::open(&bytes, path, SourceFormat::Odt)?;
        parse(&container, "t.odt", sentences::split)
    }

    #[test]
    fn structure_tracked_changes_hidden_text_fields_notes_and_page_regions() {
        let content = format!(
            r#"<office:document-content {NS}>
            <office:automatic-styles>
              <style:style style:name="Hide" style:family="text"><style:text-properties text:display="none"/></style:style>
            </office:automatic-styles>
            <office:body><office:text>
              <text:tracked-changes><text:changed-region text:id="c1"><text:deletion><text:p>Deleted words.</text:p></text:deletion></text:changed-region></text:tracked-changes>
              <text:table-of-content><text:index-body><text:p>Chapter 1</text:p></text:index-body></text:table-of-content>
              <text:list><text:list-item><text:h text:outline-level="1">Chapter</text:h></text:list-item></text:list>
              <text:p>Kept<text:change text:change-id="c1"/> <text:change-start text:change-id="c2"/>inserted<text:change-end text:change-id="c2"/> text<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>The note says this.</text:p></text:note-body></text:note>.<text:s/>On page <text:page-number>7</text:page-number><text:span text:style-name="Hide">hidden</text:span><text:hidden-text text:is-hidden="true" text:string-value="x">secret</text:hidden-text> and <text:a>a link</text:a>.</text:p>
              <text:h text:outline-level="2">Sub part</text:h>
              <text:list><text:list-item><text:p>First item</text:p><text:list><text:list-item><text:p>Nested item</text:p></text:list-item></text:list></text:list-item><text:list-item><text:p>Second item</text:p></text:list-item></text:list>
              <table:table><table:table-columns/><table:table-row><table:table-cell><text:p>Cell one</text:p></table:table-cell><table:covered-table-cell/><table:table-cell><text:p>Cell two</text:p></table:table-cell></table:table-row><table:table-row><table:table-cell><text:p>Cell three</text:p></table:table-cell></table:table-row></table:table>
              <text:p>Line one<text:line-break/>line two</text:p>
              <text:section text:display="none"><text:p>Hidden section.</text:p></text:section>
            </office:text></office:body></office:document-content>"#
        );
        let styles = format!(
            r#"<office:document-styles {NS}><office:master-styles>
              <style:master-page style:name="Standard"><style:header><text:p>Running head</text:p></style:header><style:footer><text:p><text:page-number>1</text:page-number></text:p></style:footer></style:master-page>
              <style:master-page style:name="Other"><style:header><text:p>Running head</text:p></style:header><style:footer><text:p>Foot note of the page</text:p></style:footer></style:master-page>
            </office:master-styles></office:document-styles>"#
        );
        let meta = format!(
            r#"<office:document-meta {NS}><office:meta><dc:title> The  Title </dc:title></office:meta></office:document-meta>"#
        );
        let doc = read(&[
            ("mimetype", MIMETYPE),
            ("content.xml", &content),
            ("styles.xml", &styles),
            ("meta.xml", &meta),
        ])
        .unwrap();
        assert_eq!(doc.title, "The Title");
        assert_eq!(doc.format, SourceFormat::Odt);
        assert_eq!(
            outline(&doc),
            vec![
                "document ",
                "  region [bp] Running head",
                "  section Chapter",
                "    paragraph Kept inserted text.|On page and a link.",
                "    section Sub part",
                "      list ",
                "        list_item ",
                "          paragraph First item",
                "          list Nested item",
                "        list_item Second item",
                "      table ",
                "        table_row Cell one Cell two",
                "        table_row Cell three",
                "      paragraph Line one|line two",
                "  notes The note says this.",
                "  region [bp] Foot note of the page",
            ]
        );
    }

    #[test]
    fn an_encrypted_or_incomplete_odt_is_a_clear_error() {
        let manifest = r#"<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data manifest:checksum-type="SHA1"/></manifest:file-entry></manifest:manifest>"#;
        let err = read(&[
            ("mimetype", MIMETYPE),
            ("META-INF/manifest.xml", manifest),
            ("content.xml", "\u{1}\u{2}binary"),
        ])
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "t.odt: is password-protected (encrypted); save an unprotected copy to open it"
        );
        let err = read(&[("mimetype", MIMETYPE)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "t.odt: is not a complete ODT file: it has no content.xml"
        );
        let empty =
            format!(r#"<office:document-content {NS}><office:body/></office:document-content>"#);
        let err = read(&[("mimetype", MIMETYPE), ("content.xml", &empty)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "t.odt: is not a complete ODT file: it has no text body (office:text in content.xml)"
        );
    }
}
