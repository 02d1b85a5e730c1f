//! HTML to a semantic hierarchy (thesis 4.1), with `scraper` (html5ever) as the parser.
//!
//! The thesis divides tags into headings, block-level, text-level and addresses, and builds
//! table content in row and column order. simdoc classifies elements the same way:
//!
//! | class | elements | effect |
//! |---|---|---|
//! | ignored | `script style noscript template head svg math iframe object embed canvas video audio select option button input textarea`, comments, hidden elements | contribute nothing |
//! | heading | `h1`..`h6` | open a section (see [`super::builder`]) |
//! | text block | `p pre address figcaption caption dt dd summary legend` | one content node |
//! | container | `ul ol dl menu` (list), `li`, `table`, `tr`, `td th`, `blockquote` | a node with children |
//! | region | `nav aside form`, `header footer` outside `article`/`main`, ARIA landmarks | a boilerplate node |
//! | sectioning scope | `section article main body` | no node, but headings inside end with it |
//! | transparent block | `div figure center details fieldset ...` | a break between blocks, no node |
//! | text-level | everything else (`a b i em strong span font code q sub sup small mark ...`) | merges into its block's text |
//!
//! Text that sits directly in a container or a transparent block ("div text") becomes a paragraph.
//! Two consecutive `<br>` end a paragraph; one is a line break, which ends a sentence (lists of
//! lines, addresses and verse are set with `<br>`; a sentence running across one is rare).
//!
//! Hidden means: a `hidden` attribute, `aria-hidden="true"`, an inline style with `display:none`
//! or `visibility:hidden`, or `<input type="hidden">`.
//!
//! A region that holds at least half of the page's sentences is a page wrapper (ASP.NET pages put
//! everything in one `<form>`), not boilerplate; it is unmarked after the build.
//!
//! The walk uses `ego_tree`'s iterative traversal, so nesting depth cannot overflow the stack, and
//! nesting deeper than [`super::nesting::MAX_DEPTH`] is flattened before parsing (the parser's
//! cost grows with the square of the depth), as are a tag's attributes past
//! [`super::nesting::MAX_ATTRIBUTES`] (and with the square of their number).

use ego_tree::iter::Edge;
use scraper::{ElementRef, Html, Node as HtmlNode};

use super::builder::{HARD_BREAK, HierarchyBuilder, SentenceSplitter, collapse_whitespace};
use super::tree::{Document, NodeKind, SourceFormat};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Ignored,
    Heading(u8),
    TextBlock(NodeKind),
    Container(NodeKind),
    Region,
    /// A sectioning element without a node of its own: headings inside end with it.
    Scope,
    Transparent,
    LineBreak,
    Inline,
}

fn classify(element: &scraper::node::Element, inside_article: bool) -> Class {
    let name = element.name();
    if is_hidden(element) {
        return Class::Ignored;
    }
    match element.attr("role").map(str::to_ascii_lowercase).as_deref() {
        Some("navigation" | "banner" | "contentinfo" | "complementary" | "search")
            if !(inside_article && matches!(name, "header" | "footer")) =>
        {
            return Class::Region;
        }
        Some("presentation" | "none") if name == "table" => return Class::Transparent,
        _ => {}
    }
    class_by_name(name, inside_article)
}

/// Whether an element of this name parts the text before it from the text after it (a block,
/// a heading, a line break, a container...) rather than flowing in its block's text (`a`,
/// `b`, `span`...): [`super::nesting`] puts a line break where it flattens one.
pub(crate) fn separates_text(name: &str) -> bool {
    class_by_name(name, false) != Class::Inline
}

/// An element's class by its name alone (see the module docs' table).
fn class_by_name(name: &str, inside_article: bool) -> Class {
    match name {
        "script" | "style" | "noscript" | "template" | "head" | "svg" | "math" | "iframe"
        | "object" | "embed" | "canvas" | "video" | "audio" | "select" | "option" | "button"
        | "input" | "textarea" | "datalist" | "dialog" | "map" | "area" | "track" | "source"
        | "picture" | "img" | "meta" | "link" | "base" | "title" => Class::Ignored,
        "h1" => Class::Heading(1),
        "h2" => Class::Heading(2),
        "h3" => Class::Heading(3),
        "h4" => Class::Heading(4),
        "h5" => Class::Heading(5),
        "h6" => Class::Heading(6),
        "p" | "address" | "dt" | "dd" | "summary" | "legend" => {
            Class::TextBlock(NodeKind::Paragraph)
        }
        "pre" | "listing" | "plaintext" | "xmp" => Class::TextBlock(NodeKind::Preformatted),
        "figcaption" | "caption" => Class::TextBlock(NodeKind::Caption),
        "ul" | "ol" | "dl" | "menu" | "dir" => Class::Container(NodeKind::List),
        "li" => Class::Container(NodeKind::ListItem),
        "table" => Class::Container(NodeKind::Table),
        "tr" => Class::Container(NodeKind::TableRow),
        "td" | "th" => Class::Container(NodeKind::TableCell),
        "blockquote" => Class::Container(NodeKind::Quote),
        "nav" | "aside" | "form" => Class::Region,
        "header" | "footer" if !inside_article => Class::Region,
        "br" => Class::LineBreak,
        "section" | "article" | "main" | "body" => Class::Scope,
        "div" | "html" | "figure" | "center" | "details" | "fieldset" | "hgroup" | "header"
        | "footer" | "hr" | "thead" | "tbody" | "tfoot" | "colgroup" | "col" | "frameset"
        | "frame" | "noframes" | "search" | "output" => Class::Transparent,
        _ => Class::Inline,
    }
}

fn is_hidden(element: &scraper::node::Element) -> bool {
    if element.attr("hidden").is_some() {
        return true;
    }
    if element
        .attr("aria-hidden")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
    {
        return true;
    }
    if element.name() == "input"
        && element
            .attr("type")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("hidden"))
    {
        return true;
    }
    if let Some(style) = element.attr("style") {
        let compact: String = style
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        if compact.contains("display:none") || compact.contains("visibility:hidden") {
            return true;
        }
    }
    false
}

/// What the walk is doing with text right now.
struct Walk<'b> {
    builder: &'b mut HierarchyBuilder,
    /// Inline text waiting for the end of its block.
    pending: String,
    /// The kind of the text block being read (a paragraph outside any explicit block).
    block_kind: NodeKind,
    /// Text of the heading being read, if inside one.
    heading: Option<(u8, String)>,
    last_was_break: bool,
}

impl Walk<'_> {
    fn flush(&mut self) {
        if !self.pending.trim().is_empty() {
            let text = std::mem::take(&mut self.pending);
            self.builder.block(self.block_kind, &text);
        }
        self.pending.clear();
        self.last_was_break = false;
    }

    fn text(&mut self, text: &str) {
        if let Some((_, heading)) = &mut self.heading {
            heading.push_str(text);
        } else {
            self.pending.push_str(text);
            if !text.trim().is_empty() {
                self.last_was_break = false;
            }
        }
    }
}

/// Parses HTML into a document titled by `<title>`, else `file_name`.
pub fn parse(text: &str, file_name: &str, split: SentenceSplitter) -> Document {
    let mut builder = HierarchyBuilder::new(file_name);
    if let Some(title) = build(text, &mut builder) {
        builder.set_title(title);
    }
    let mut doc = builder.finish(SourceFormat::Html, split);
    unmark_wrapper_regions(&mut doc);
    doc
}

/// Feeds one HTML page into `builder` (EPUB chapters share one builder); gives the page's
/// `<title>`, if it has one. The caller finishes the builder and then calls
/// [`unmark_wrapper_regions`].
pub(crate) fn build(text: &str, builder: &mut HierarchyBuilder) -> Option<String> {
    let text = super::nesting::tame(text);
    let html = Html::parse_document(&text);
    let title = html
        .tree
        .root()
        .descendants()
        .filter_map(ElementRef::wrap)
        .find(|e| e.value().name() == "title")
        .map(|e| collapse_whitespace(&e.text().collect::<String>()))
        .filter(|t| !t.is_empty());

    let mut walk = Walk {
        builder,
        pending: String::new(),
        block_kind: NodeKind::Paragraph,
        heading: None,
        last_was_break: false,
    };
    // Per open element: its class. Parallel to the traversal depth (elements only).
    let mut open: Vec<Class> = Vec::new();
    // While inside an ignored element, the depth (in `open`) at which it started.
    let mut ignored_from: Option<usize> = None;
    // How many `article`/`main` elements enclose the current point.
    let mut article_depth = 0usize;

    for edge in html.tree.root().traverse() {
        match edge {
            Edge::Open(node) => match node.value() {
                HtmlNode::Element(element) => {
                    let class = if ignored_from.is_some() {
                        Class::Ignored
                    } else {
                        classify(element, article_depth > 0)
                    };
                    if matches!(element.name(), "article" | "main") {
                        article_depth += 1;
                    }
                    if class == Class::Ignored && ignored_from.is_none() {
                        ignored_from = Some(open.len());
                    }
                    open.push(class);
                    if ignored_from.is_none() {
                        open_element(&mut walk, class);
                    }
                }
                HtmlNode::Text(text) if ignored_from.is_none() => walk.text(text),
                _ => {}
            },
            Edge::Close(node) => {
                if let HtmlNode::Element(element) = node.value() {
                    let Some(class) = open.pop() else { continue };
                    if matches!(element.name(), "article" | "main") {
                        article_depth = article_depth.saturating_sub(1);
                    }
                    match ignored_from {
                        Some(depth) if depth == open.len() => ignored_from = None,
                        Some(_) => {}
                        None => close_element(&mut walk, class),
                    }
                }
            }
        }
    }
    walk.flush();
    title
}

fn open_element(walk: &mut Walk<'_>, class: Class) {
    if walk.heading.is_some() {
        // Inside a heading everything is heading text; a line break is a space.
        if class == Class::LineBreak {
            walk.text(" ");
        }
        return;
    }
    match class {
        Class::Ignored | Class::Inline => {}
        Class::LineBreak => {
            if walk.last_was_break {
                walk.flush();
            } else {
                walk.pending.push(HARD_BREAK);
                walk.last_was_break = true;
            }
        }
        Class::Heading(level) => {
            walk.flush();
            walk.heading = Some((level, String::new()));
        }
        Class::TextBlock(kind) => {
            walk.flush();
            walk.block_kind = kind;
        }
        Class::Container(kind) => {
            walk.flush();
            walk.block_kind = NodeKind::Paragraph;
            walk.builder.open(kind, "");
        }
        Class::Region => {
            walk.flush();
            walk.block_kind = NodeKind::Paragraph;
            walk.builder.open(NodeKind::Region, "");
        }
        Class::Scope => {
            walk.flush();
            walk.block_kind = NodeKind::Paragraph;
            walk.builder.open_scope();
        }
        Class::Transparent => {
            walk.flush();
            walk.block_kind = NodeKind::Paragraph;
        }
    }
}

fn close_element(walk: &mut Walk<'_>, class: Class) {
    match class {
        Class::Heading(_) => {
            if let Some((level, text)) = walk.heading.take() {
                walk.builder.heading(level, &text);
            }
        }
        _ if walk.heading.is_some() => {}
        Class::Ignored | Class::Inline | Class::LineBreak => {}
        Class::TextBlock(_) | Class::Transparent => {
            walk.flush();
            walk.block_kind = NodeKind::Paragraph;
        }
        Class::Container(_) | Class::Region | Class::Scope => {
            walk.flush();
            walk.block_kind = NodeKind::Paragraph;
            walk.builder.close();
        }
    }
}

/// A boilerplate region that holds half or more of the document's sentences wraps the page
/// rather than decorating it: unmark it (nested regions inside it stay marked).
pub(crate) fn unmark_wrapper_regions(doc: &mut Document) {
    let total = doc.sentences.len();
    let marked: Vec<bool> = doc.nodes.iter().map(|n| n.boilerplate).collect();
    // Node ids are in pre-order, so a parent's final mark is known before its children's.
    for id in 0..doc.nodes.len() {
        let node = &doc.nodes[id];
        let (parent_marked, parent_final) = match node.parent {
            Some(p) => (marked[p], doc.nodes[p].boilerplate),
            None => (false, false),
        };
        let starts_region = marked[id] && (!parent_marked || node.kind == NodeKind::Region);
        let wrapper = node.subtree_sentences.len() * 2 >= total;
        doc.nodes[id].boilerplate = parent_final || (starts_region && !wrapper);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<std::ops::Range<usize>> {
        crate::document::sentences::split(text)
    }
    use crate::document::test_support::outline;

    #[test]
    fn headings_blocks_and_inline_text() {
        let page = r#"<html><head><title> The  Page </title><style>p{}</style>
            <script>var x = "not text";</script></head><body>
            <h1>Main <em>title</em></h1>
            <p>First <b>bold</b> para. Second sentence.</p>
            <div>Loose div text.<p>Inner para.</p>tail text.</div>
            <h2>Sub</h2><p>Under sub.</p>
            <h1>Other</h1><p>Last.</p>
            <!-- a comment --></body></html>"#;
        let doc = parse(page, "page.html", split);
        assert_eq!(doc.title, "The Page");
        assert_eq!(
            outline(&doc),
            vec![
                "document ",
                "  section Main title",
                "    paragraph First bold para.|Second sentence.",
                "    paragraph Loose div text.",
                "    paragraph Inner para.",
                "    paragraph tail text.",
                "    section Sub",
                "      paragraph Under sub.",
                "  section Other",
                "    paragraph Last.",
            ]
        );
        assert!(!doc.text.contains("not text"));
    }

    #[test]
    fn lists_and_tables_in_order() {
        let page = "<ul><li>One.</li><li>Two <a>link</a>.</li></ul>\
            <table><tr><th>A1</th><td>B1</td></tr><tr><td>A2</td><td><p>B2</p></td></tr></table>";
        let doc = parse(page, "t.html", split);
        assert_eq!(
            outline(&doc),
            vec![
                "document ",
                "  list ",
                "    list_item One.",
                "    list_item Two link.",
                "  table ",
                "    table_row A1 B1",
                "    table_row A2 B2",
            ]
        );
        // Cells with prose keep their own nodes, in row and column order.
        let prose = "<table><tr><td>The first cell says a lot. It has two sentences.</td>\
            <td>Short</td></tr></table>";
        let doc = parse(prose, "p.html", split);
        assert_eq!(
            outline(&doc),
            vec![
                "document ",
                "  table_cell The first cell says a lot.|It has two sentences.",
                "  table_cell Short",
            ]
        );
    }

    #[test]
    fn boilerplate_regions_and_hidden_elements() {
        let page = r#"<body><nav><a>Home</a> <a>About</a></nav>
            <article><header><h1>Story</h1></header><p>Body text here.</p>
            <p hidden>Secret.</p><p style="display: none">Gone.</p><span aria-hidden="true">x</span>
            </article><footer>Copyright 2020.</footer></body>"#;
        let doc = parse(page, "b.html", split);
        assert_eq!(
            outline(&doc),
            vec![
                "document ",
                "  region [bp] Home About",
                "  section Story",
                "    paragraph Body text here.",
                "  region [bp] Copyright 2020.",
            ]
        );
    }

    #[test]
    fn a_form_wrapping_the_page_is_not_boilerplate() {
        let page = "<form><p>One.</p><p>Two.</p><nav>Menu</nav></form><p>Three.</p>";
        let doc = parse(page, "f.html", split);
        assert_eq!(doc.boilerplate_mask(), vec![false, false, true, false]);
    }

    #[test]
    fn double_line_break_ends_a_paragraph() {
        let doc = parse(
            "<div>Line one<br>still one<br><br>Line two</div>",
            "b.html",
            split,
        );
        let texts: Vec<&str> = doc.sentences.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, vec!["Line one", "still one", "Line two"]);
        assert_eq!(doc.nodes.len(), 3);
    }

    #[test]
    fn deeply_nested_divs_do_not_overflow() {
        let depth = 100_000;
        let page = format!(
            "{}<p>Deep text.</p>{}",
            "<div>".repeat(depth),
            "</div>".repeat(depth)
        );
        let doc = parse(&page, "deep.html", split);
        assert_eq!(doc.sentences.len(), 1);
    }

    #[test]
    fn scripts_only_page_has_no_sentences() {
        let doc = parse(
            "<script>alert('x')</script><style>b{}</style>",
            "s.html",
            split,
        );
        assert!(doc.sentences.is_empty());
    }
}
