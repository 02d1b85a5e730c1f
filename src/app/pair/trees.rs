//! The two semantic hierarchies side by side (thesis Fig. 4.4): collapsible trees whose nodes are
//! shaded by their matched share (the percentage shown), the selected node's partner nodes
//! highlighted in the other tree, and lines between matched nodes across the gutter.

use std::sync::Arc;

use egui::{Color32, Pos2, Rect, Sense, Stroke, vec2};

use crate::app::SimdocApp;
use crate::app::state::Side;
use crate::compare::NodeMatch;
use crate::document::{Document, NodeId, NodeKind};

const ROW_HEIGHT: f32 = 20.0;
const INDENT: f32 = 14.0;
/// Nodes up to this depth start expanded.
const START_DEPTH: usize = 2;

/// Tree state kept between frames: which nodes are expanded, per side.
#[derive(Default)]
pub struct TreesState {
    built_for: [Option<Arc<Document>>; 2],
    expanded: [Vec<bool>; 2],
    scroll_to: [Option<NodeId>; 2],
}

impl TreesState {
    fn sync(&mut self, side: usize, doc: &Arc<Document>) {
        if self.built_for[side]
            .as_ref()
            .is_none_or(|d| !Arc::ptr_eq(d, doc))
        {
            self.expanded[side] = (0..doc.nodes.len())
                .map(|id| doc.depth(id) < START_DEPTH)
                .collect();
            self.built_for[side] = Some(Arc::clone(doc));
        }
    }

    /// The visible rows: nodes whose ancestors are all expanded, in pre-order.
    fn rows(&self, side: usize, doc: &Document) -> Vec<(NodeId, usize)> {
        let mut rows = Vec::new();
        let mut stack = vec![(Document::ROOT, 0usize)];
        while let Some((id, depth)) = stack.pop() {
            rows.push((id, depth));
            if self.expanded[side].get(id).copied().unwrap_or(false) {
                for &child in doc.nodes[id].children.iter().rev() {
                    stack.push((child, depth + 1));
                }
            }
        }
        rows
    }

    /// Expands the ancestors of `node` and asks the tree to scroll to it.
    fn reveal(&mut self, side: usize, doc: &Document, node: NodeId) {
        for ancestor in doc.ancestry(node) {
            if ancestor != node
                && let Some(e) = self.expanded[side].get_mut(ancestor)
            {
                *e = true;
            }
        }
        self.scroll_to[side] = Some(node);
    }
}

/// A short label for a node: its own label, or the start of its text. The kind is not repeated:
/// the row's [`kind_icon`] says it (rows once read "list list — ...").
fn node_label(doc: &Document, id: NodeId) -> String {
    let node = &doc.nodes[id];
    if !node.label.is_empty() {
        return crate::app::widgets::shorten(&node.label, 60);
    }
    let first = doc
        .sentences
        .get(node.subtree_sentences.start)
        .map_or("", |s| s.text.as_str());
    let words: Vec<&str> = first.split_whitespace().take(8).collect();
    words.join(" ")
}

/// The whole of what a row stands for, for its tooltip (rows are cut to the column's width):
/// its kind, its label or first sentence in full (up to 300 characters), and its matched shares.
fn node_tooltip(doc: &Document, id: NodeId, share: Option<&NodeMatch>) -> String {
    let node = &doc.nodes[id];
    let text = if node.label.is_empty() {
        doc.sentences
            .get(node.subtree_sentences.start)
            .map_or("", |s| s.text.as_str())
    } else {
        node.label.as_str()
    };
    let mut tip = format!(
        "{}: {}",
        node.kind.name().replace('_', " "),
        crate::app::widgets::shorten(text, 300)
    );
    if let Some(m) = share {
        tip.push_str(&format!(
            "\nits own sentences: {} of {} matched\nwith everything below it: {} of {} matched",
            m.matched_own, m.own, m.matched_subtree, m.subtree
        ));
    }
    tip
}

/// The matched share a row shows: its own sentences', or its whole subtree's when asked, and
/// always when the row is collapsed (its own share would hide what is folded inside: a
/// collapsed section holding a whole matched article showed 0%). `None` when the share it
/// would show counts no sentence.
fn row_share(share: &NodeMatch, whole_subtree: bool, collapsed: bool) -> Option<f64> {
    if whole_subtree || collapsed {
        (share.subtree > 0).then(|| share.subtree_shaded())
    } else {
        (share.own > 0).then(|| share.shaded())
    }
}

/// A short mark for a node's kind, in characters the bundled font has.
fn kind_icon(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Document => "",
        NodeKind::Section => "§",
        NodeKind::Paragraph => "¶",
        NodeKind::List => "list",
        NodeKind::ListItem => "•",
        NodeKind::Table => "table",
        NodeKind::TableRow => "row",
        NodeKind::TableCell => "cell",
        NodeKind::Quote => "“",
        NodeKind::Preformatted => "pre",
        NodeKind::Caption => "caption",
        NodeKind::Region => "region",
        NodeKind::Notes => "notes",
    }
}

/// The hierarchies view.
pub fn hierarchies_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    let docs = [
        app.docs[0].as_ref().map(|d| Arc::clone(&d.doc)),
        app.docs[1].as_ref().map(|d| Arc::clone(&d.doc)),
    ];
    ui.horizontal(|ui| {
        ui.strong("Semantic hierarchies");
        ui.checkbox(&mut app.settings.shade_subtrees, "Shade by whole subtree")
            .on_hover_text(
                "Shade each node by the matched share of all its sentences, not only its own",
            );
    });
    let available = ui.available_rect_before_wrap();
    let gutter = (available.width() * 0.08).clamp(30.0, 90.0);
    let column = (available.width() - gutter) / 2.0;
    let rects = [
        Rect::from_min_size(available.min, vec2(column, available.height())),
        Rect::from_min_size(
            available.min + vec2(column + gutter, 0.0),
            vec2(column, available.height()),
        ),
    ];
    // Row rectangles (screen) of the nodes drawn this frame, per side.
    let mut drawn: [Vec<(NodeId, Rect)>; 2] = [Vec::new(), Vec::new()];
    let mut clicked: Option<(Side, NodeId)> = None;
    for side in Side::BOTH {
        let s = side.index();
        let Some(doc) = &docs[s] else { continue };
        app.trees.sync(s, doc);
        let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rects[s]));
        child.set_clip_rect(rects[s].intersect(ui.clip_rect()));
        let rows = app.trees.rows(s, doc);
        let mut scroll = egui::ScrollArea::vertical()
            .id_salt(("tree", s))
            .auto_shrink([false, false]);
        if let Some(target) = app.trees.scroll_to[s].take()
            && let Some(row) = rows.iter().position(|&(id, _)| id == target)
        {
            scroll = scroll.vertical_scroll_offset((row as f32 * ROW_HEIGHT - 80.0).max(0.0));
        }
        let shares = app.view.as_ref().map(|v| match side {
            Side::Left => &v.trees.left,
            Side::Right => &v.trees.right,
        });
        let selected = app.selection.node;
        let partners: Vec<NodeId> = match (selected, &app.view) {
            (Some((sel_side, node)), Some(view)) if sel_side != side => {
                let other = match sel_side {
                    Side::Left => &view.trees.left,
                    Side::Right => &view.trees.right,
                };
                other
                    .get(node)
                    .map(|m| m.partners.iter().map(|&(id, _)| id).collect())
                    .unwrap_or_default()
            }
            _ => Vec::new(),
        };
        let subtree = app.settings.shade_subtrees;
        let mut toggled = None;
        scroll.show_rows(&mut child, ROW_HEIGHT, rows.len(), |ui, range| {
            for &(id, depth) in &rows[range] {
                let (rect, response) =
                    ui.allocate_exact_size(vec2(ui.available_width(), ROW_HEIGHT), Sense::click());
                let node = &doc.nodes[id];
                let expanded = app.trees.expanded[s].get(id).copied().unwrap_or(false);
                let collapsed = !node.children.is_empty() && !expanded;
                let share = shares.and_then(|s| s.get(id));
                let shown = share.and_then(|m: &NodeMatch| row_share(m, subtree, collapsed));
                let fraction = shown.unwrap_or(0.0);
                let painter = ui.painter_at(rect);
                let visuals = ui.visuals();
                let is_selected = selected == Some((side, id));
                let is_partner = partners.contains(&id);
                if is_selected {
                    painter.rect_filled(rect, 2.0, visuals.selection.bg_fill);
                } else if is_partner {
                    painter.rect_filled(
                        rect,
                        2.0,
                        Color32::from_rgb(0xF3, 0x9C, 0x12).gamma_multiply(0.35),
                    );
                }
                let x0 = rect.min.x + depth.min(12) as f32 * INDENT;
                // The shaded bar: matched share of the node.
                if fraction > 0.0 {
                    let bar = Rect::from_min_max(
                        Pos2::new(x0, rect.min.y + 2.0),
                        Pos2::new(x0 + (rect.max.x - x0) * fraction as f32, rect.max.y - 2.0),
                    );
                    painter.rect_filled(
                        bar,
                        2.0,
                        Color32::from_rgb(0x29, 0x80, 0xB9).gamma_multiply(0.35),
                    );
                }
                let text_color = if node.boilerplate {
                    visuals.weak_text_color()
                } else {
                    visuals.text_color()
                };
                let arrow = if node.children.is_empty() {
                    "  "
                } else if expanded {
                    "− "
                } else {
                    "+ "
                };
                let font = egui::FontId::proportional(13.0);
                // The label stops short of the percentage column.
                let label_clip =
                    Rect::from_min_max(rect.min, Pos2::new(rect.max.x - 48.0, rect.max.y));
                painter
                    .with_clip_rect(label_clip.intersect(painter.clip_rect()))
                    .text(
                        Pos2::new(x0 + 2.0, rect.center().y),
                        egui::Align2::LEFT_CENTER,
                        format!("{arrow}{} {}", kind_icon(node.kind), node_label(doc, id)),
                        font.clone(),
                        text_color,
                    );
                if shown.is_some() {
                    painter.text(
                        Pos2::new(rect.max.x - 4.0, rect.center().y),
                        egui::Align2::RIGHT_CENTER,
                        format!("{:.0}%", fraction * 100.0),
                        font,
                        visuals.strong_text_color(),
                    );
                }
                let response = response.on_hover_text(node_tooltip(doc, id, share));
                // Clicking the arrow toggles; clicking elsewhere selects.
                if response.clicked() {
                    let on_arrow = response
                        .interact_pointer_pos()
                        .is_some_and(|p| p.x < x0 + 16.0);
                    if on_arrow && !node.children.is_empty() {
                        toggled = Some(id);
                    } else {
                        clicked = Some((side, id));
                    }
                }
                drawn[s].push((id, rect));
            }
        });
        if let Some(id) = toggled
            && let Some(e) = app.trees.expanded[s].get_mut(id)
        {
            *e = !*e;
        }
    }

    // Lines between matched nodes that are both in view.
    if let Some(view) = &app.view {
        let painter = ui.painter().with_clip_rect(available);
        let max_pairs = view
            .trees
            .edges
            .iter()
            .map(|e| e.pairs)
            .max()
            .unwrap_or(1)
            .max(1);
        for edge in &view.trees.edges {
            let left = drawn[0].iter().find(|(id, _)| *id == edge.left);
            let right = drawn[1].iter().find(|(id, _)| *id == edge.right);
            if let (Some((_, l)), Some((_, r))) = (left, right) {
                let emphasised = app.selection.node == Some((Side::Left, edge.left))
                    || app.selection.node == Some((Side::Right, edge.right));
                let weight = edge.pairs as f32 / max_pairs as f32;
                let color = if emphasised {
                    Color32::from_rgb(0xF3, 0x9C, 0x12)
                } else {
                    Color32::from_rgb(0x29, 0x80, 0xB9).gamma_multiply(0.3 + 0.5 * weight)
                };
                painter.line_segment(
                    [
                        Pos2::new(rects[0].max.x, l.center().y),
                        Pos2::new(rects[1].min.x, r.center().y),
                    ],
                    Stroke::new(if emphasised { 2.0 } else { 1.0 + weight }, color),
                );
            }
        }
    }
    ui.allocate_rect(available, Sense::hover());

    if let Some((side, node)) = clicked {
        select_node(app, side, node);
    }
}

/// Selects a node: both panes scroll to it and to its first partner in the other document.
pub fn select_node(app: &mut SimdocApp, side: Side, node: NodeId) {
    app.selection.pair = None;
    app.selection.sentence = None;
    app.selection.node = Some((side, node));
    let Some(doc) = app.docs[side.index()].as_ref().map(|d| Arc::clone(&d.doc)) else {
        return;
    };
    if let Some(n) = doc.nodes.get(node)
        && !n.subtree_sentences.is_empty()
    {
        app.selection.scroll_to[side.index()] = Some(n.subtree_sentences.start as u32);
    }
    let partner = app.view.as_ref().and_then(|v| {
        let shares = match side {
            Side::Left => &v.trees.left,
            Side::Right => &v.trees.right,
        };
        shares
            .get(node)
            .and_then(|m| m.partners.first().map(|&(id, _)| id))
    });
    let other = side.other();
    if let (Some(partner), Some(other_doc)) = (partner, app.docs[other.index()].as_ref()) {
        let other_doc = Arc::clone(&other_doc.doc);
        if let Some(n) = other_doc.nodes.get(partner) {
            app.selection.scroll_to[other.index()] = Some(n.subtree_sentences.start as u32);
        }
        app.trees.reveal(other.index(), &other_doc, partner);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{SourceFormat, parse_text};

    fn share(own: u32, matched_own: u32, subtree: u32, matched_subtree: u32) -> NodeMatch {
        NodeMatch {
            own,
            matched_own,
            subtree,
            matched_subtree,
            partners: Vec::new(),
        }
    }

    #[test]
    fn a_collapsed_row_shows_what_is_folded_inside() {
        // A section with no sentences of its own, all of its 40 below it matched.
        let section = share(0, 0, 40, 40);
        assert_eq!(row_share(&section, false, false), None);
        assert_eq!(row_share(&section, false, true), Some(1.0));
        assert_eq!(row_share(&section, true, false), Some(1.0));
        let paragraph = share(4, 1, 4, 1);
        assert_eq!(row_share(&paragraph, false, false), Some(0.25));
    }

    #[test]
    fn labels_do_not_repeat_the_kind_and_tooltips_hold_the_whole_text() {
        let html = "<html><body><h1>Notes</h1><ul><li>Volcanic ash closed the northern \
                    airports on Monday morning and every later flight.</li><li>Airlines \
                    cancelled flights.</li></ul></body></html>";
        let doc = parse_text(html, "notes.html", SourceFormat::Html);
        let list = (0..doc.nodes.len())
            .find(|&id| doc.nodes[id].kind == NodeKind::List)
            .expect("a list node");
        let label = node_label(&doc, list);
        assert!(!label.starts_with("list"), "{label}");
        assert!(label.starts_with("Volcanic ash"), "{label}");
        let tip = node_tooltip(&doc, list, Some(&share(0, 0, 2, 1)));
        assert!(tip.starts_with("list: Volcanic ash"), "{tip}");
        assert!(tip.contains("every later flight."), "{tip}");
        assert!(tip.contains("1 of 2 matched"), "{tip}");
    }
}
