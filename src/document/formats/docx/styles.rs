//! The styles of a DOCX (`word/styles.xml`): which paragraph styles are headings, the title,
//! hidden or numbered, following `w:basedOn`.

use std::collections::HashMap;

use roxmltree::Node;

use super::W;
use crate::document::LoadError;
use crate::document::formats::container::Container;
use crate::document::formats::xml::{self, attr_in, name_in};

/// How deep a `w:basedOn` chain is followed (real ones are a few levels; a cycle stops here).
const MAX_STYLE_DEPTH: usize = 16;
/// Deepest list nesting read (Word has nine levels).
const MAX_LIST_LEVEL: usize = 9;

/// What a paragraph or character style contributes.
#[derive(Clone, Debug, Default)]
pub(super) struct Style {
    /// Outline level, 1 = top ("Title" is 0, above it).
    pub(super) heading: Option<u8>,
    /// Whether the style is the built-in "Title".
    pub(super) title: bool,
    /// `w:vanish` in the style's run properties.
    pub(super) hidden: Option<bool>,
    /// The style numbers its paragraphs (a list style), at this level.
    pub(super) list_level: Option<usize>,
    pub(super) based_on: Option<String>,
}

/// The document's styles, by id.
#[derive(Default)]
pub(super) struct Styles(HashMap<String, Style>);

impl Styles {
    /// Follows `w:basedOn` until `get` gives a value.
    pub(super) fn resolve<T>(&self, id: &str, get: impl Fn(&Style) -> Option<T>) -> Option<T> {
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

pub(super) fn read_styles(container: &Container<'_>, part: &str) -> Result<Styles, LoadError> {
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
pub(super) fn on_off(node: Node<'_, '_>) -> bool {
    !matches!(attr_in(node, W, "val"), Some("false" | "0" | "off"))
}

/// The `w:ilvl` of a `w:numPr`; `None` when the numbering is switched off (`w:numId` 0).
pub(super) fn numbering_level(num_pr: Node<'_, '_>) -> Option<usize> {
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
