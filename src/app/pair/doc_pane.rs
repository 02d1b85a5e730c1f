//! A document pane: the text with its structure (headings, paragraphs, list items, cells),
//! matched sentences highlighted by tier with strength by score, hover explanations, click to
//! select.
//!
//! Long documents stay fluid: the pane is a virtual list of blocks (one per hierarchy node with
//! text of its own). Only blocks in view are laid out each frame; the others keep a height that is
//! estimated until they are first laid out, then measured.

use std::sync::Arc;

use egui::{Rect, Sense, Stroke, Vec2};

use super::block_text::{BODY_SIZE, Block, HEADING_SIZE, block_job, is_heading};
use crate::app::SimdocApp;
use crate::app::state::Side;
use crate::document::{Document, NodeKind};
use crate::similarity::Explanation;

/// Pixels of indentation per hierarchy level (capped).
const INDENT: f32 = 14.0;
const MAX_INDENT_LEVELS: usize = 6;
const BLOCK_GAP: f32 = 8.0;
/// Frames a scroll request may take to settle on its sentence.
const MAX_SCROLL_TRIES: u8 = 12;

/// Per-pane state kept between frames.
#[derive(Default)]
pub struct DocPane {
    /// The document the blocks were built for (compared by pointer).
    built_for: Option<Arc<Document>>,
    blocks: Vec<Block>,
    /// Block of each sentence position.
    block_of_sentence: Vec<usize>,
    heights: Vec<f32>,
    measured: Vec<bool>,
    width: f32,
    pending_scroll: Option<f32>,
    /// A sentence to bring into view, and how many frames have tried: kept until the sentence
    /// itself (not just its block) is laid out inside the viewport, because a block may be one
    /// paragraph of thousands of sentences, and the heights above it are estimates until seen.
    target: Option<(u32, u8)>,
    /// The last sentence brought into view (for tests and the status bar).
    pub shown: Option<u32>,
    /// The sentence at the top of the viewport this frame, and last frame.
    pub top_sentence: Option<u32>,
    pub last_top: Option<u32>,
    /// The viewer (not the user) moved this pane this frame.
    pub scrolled_by_app: bool,
    /// Whether the document holds Chinese, Japanese or Korean text ([`crate::app::widgets::fonts::has_cjk`]).
    has_cjk: bool,
    /// [`Self::sentence_places`], and whether the heights changed since they were computed.
    places: Vec<f32>,
    places_stale: bool,
    /// The part of the pane in view, as shares of its height (for the overview strip).
    viewport: Option<[f32; 2]>,
    /// The last explanation shown, to avoid recomputing it every frame while hovering.
    pub(super) explained: Option<((u32, u32), Explanation)>,
}

impl DocPane {
    fn rebuild(&mut self, doc: &Arc<Document>) {
        self.blocks.clear();
        self.block_of_sentence = vec![0; doc.sentences.len()];
        for (id, node) in doc.nodes.iter().enumerate() {
            if node.own_sentences.is_empty() {
                continue;
            }
            let first = &doc.sentences[node.own_sentences.start];
            let last = &doc.sentences[node.own_sentences.end - 1];
            for position in node.own_sentences.clone() {
                self.block_of_sentence[position] = self.blocks.len();
            }
            let heading = node.kind == NodeKind::Section
                || node.kind == NodeKind::Document && node.label == first.text;
            self.blocks.push(Block {
                node: id,
                kind: node.kind,
                heading,
                depth: doc.depth(id),
                boilerplate: node.boilerplate,
                sentences: node.own_sentences.clone(),
                text: first.span.start..last.span.end,
            });
        }
        self.heights = vec![0.0; self.blocks.len()];
        self.places_stale = true;
        self.measured = vec![false; self.blocks.len()];
        self.width = 0.0;
        self.built_for = Some(Arc::clone(doc));
        self.has_cjk = crate::app::widgets::fonts::has_cjk(&doc.text);
        // A new document starts at its top, not where the last one was left.
        self.pending_scroll = Some(0.0);
        self.target = None;
        self.shown = None;
    }

    fn indent(block: &Block) -> f32 {
        block.depth.min(MAX_INDENT_LEVELS) as f32 * INDENT
    }

    /// Where each sentence lies in the pane, as a share of its whole height (0 top, 1 bottom):
    /// its block's place, and inside a block (a paragraph may hold thousands of sentences) in
    /// proportion to its position. Empty until the pane has been laid out once. Kept between
    /// frames and recomputed only when a block's height changed.
    pub fn sentence_places(&self) -> &[f32] {
        &self.places
    }

    /// Recomputes [`Self::sentence_places`] if the heights changed since.
    fn refresh_places(&mut self) {
        if self.places_stale {
            self.places = self.compute_places();
            self.places_stale = false;
        }
    }

    fn compute_places(&self) -> Vec<f32> {
        let total: f32 = self.heights.iter().sum();
        if total <= 0.0 {
            return Vec::new();
        }
        let mut tops = Vec::with_capacity(self.blocks.len());
        let mut top = 0.0;
        for height in &self.heights {
            tops.push(top);
            top += height;
        }
        self.block_of_sentence
            .iter()
            .enumerate()
            .map(|(position, &b)| {
                let block = &self.blocks[b];
                let within =
                    (position - block.sentences.start) as f32 / block.sentences.len() as f32;
                (tops[b] + within * (self.heights[b] - BLOCK_GAP).max(0.0)) / total
            })
            .collect()
    }

    /// The sentence at a share of the pane's height (the inverse of [`Self::sentence_places`]).
    pub fn sentence_at(&self, share: f32) -> Option<u32> {
        let total: f32 = self.heights.iter().sum();
        let y = share.clamp(0.0, 1.0) * total;
        let mut top = 0.0;
        for (block, height) in self.blocks.iter().zip(&self.heights) {
            if y < top + height || std::ptr::eq(block, self.blocks.last()?) {
                let within = ((y - top) / (height - BLOCK_GAP).max(1.0)).clamp(0.0, 1.0);
                let offset = (within * block.sentences.len() as f32) as usize;
                let last = block.sentences.end - 1;
                return Some((block.sentences.start + offset).min(last) as u32);
            }
            top += height;
        }
        None
    }

    /// The part of the pane in view last frame, as shares of its height.
    pub fn viewport_share(&self) -> Option<[f32; 2]> {
        self.viewport
    }

    /// Estimates every unmeasured block's height for a new width.
    fn estimate(&mut self, doc: &Document, width: f32) {
        self.width = width;
        for (i, block) in self.blocks.iter().enumerate() {
            let size = if is_heading(block) {
                HEADING_SIZE
            } else {
                BODY_SIZE
            };
            let chars = doc.text[block.text.clone()].chars().count() as f32;
            let line_chars = ((width - Self::indent(block)) / (size * 0.52)).max(10.0);
            let lines = (chars / line_chars).ceil().max(1.0);
            self.heights[i] = lines * size * 1.3 + BLOCK_GAP;
            self.places_stale = true;
            self.measured[i] = false;
        }
    }
}

/// The pane for `side`.
pub fn doc_pane_ui(app: &mut SimdocApp, ui: &mut egui::Ui, side: Side) {
    let Some(loaded) = app.docs[side.index()].clone() else {
        ui.vertical_centered(|ui| {
            ui.add_space(40.0);
            ui.label(format!("No document {} yet.", side.letter()));
            if ui
                .button(format!("Open document {}…", side.letter()))
                .clicked()
            {
                app.pick_file(side);
            }
            ui.weak("or drop a file on this half of the window");
        });
        return;
    };
    let doc = Arc::clone(&loaded.doc);
    header_ui(app, ui, side, &loaded);
    ui.separator();

    let pane_index = side.index();
    {
        let pane = &mut app.panes[pane_index];
        let rebuild = pane
            .built_for
            .as_ref()
            .is_none_or(|built| !Arc::ptr_eq(built, &doc));
        if rebuild {
            pane.rebuild(&doc);
        }
    }
    if app.cjk_font_missing && app.panes[pane_index].has_cjk {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            "This text has Chinese, Japanese or Korean characters, and no font with their \
             glyphs was found: they show as boxes. Install one (e.g. fonts-noto-cjk) and \
             restart simdoc.",
        );
    }

    // A scroll request from the selection: bring the sentence's block into view.
    if let Some(position) = app.selection.scroll_to[pane_index].take() {
        let pane = &mut app.panes[pane_index];
        if let Some(&block) = pane.block_of_sentence.get(position as usize) {
            let offset: f32 = pane.heights[..block].iter().sum();
            pane.pending_scroll = Some((offset - 60.0).max(0.0));
            pane.target = Some((position, 0));
        }
    }

    // The text, and beside it the overview strip of where the matches lie.
    let area = ui.available_rect_before_wrap();
    let strip_rect = Rect::from_min_max(
        egui::pos2(area.max.x - super::overview::STRIP_WIDTH, area.min.y),
        area.max,
    );
    let text_rect = Rect::from_min_max(area.min, egui::pos2(strip_rect.min.x - 3.0, area.max.y));
    app.panes[pane_index].refresh_places();
    if let Some(position) = super::overview::strip_ui(app, ui, side, strip_rect) {
        app.selection.scroll_to[pane_index] = Some(position);
        ui.ctx().request_repaint();
    }
    let mut text_ui = ui.new_child(
        egui::UiBuilder::new()
            .max_rect(text_rect)
            .layout(egui::Layout::top_down(egui::Align::Min)),
    );
    let ui_outer = ui;
    let ui = &mut text_ui;

    let mut scroll = egui::ScrollArea::vertical()
        .id_salt(("doc_pane", pane_index))
        .auto_shrink([false, false]);
    app.panes[pane_index].scrolled_by_app = false;
    if let Some(offset) = app.panes[pane_index].pending_scroll.take() {
        scroll = scroll.vertical_scroll_offset(offset);
        app.panes[pane_index].scrolled_by_app = true;
    }
    app.panes[pane_index].top_sentence = None;
    let mut clicked: Option<u32> = None;
    let mut hovered: Option<u32> = None;
    // The pane's own width bounds the text (a scroll area may report more than it shows).
    let pane_width = ui.max_rect().width();
    scroll.show_viewport(ui, |ui, viewport| {
        let width = ui.available_width().min(pane_width) - ui.spacing().scroll.bar_width - 4.0;
        let visuals = ui.visuals().clone();
        if (app.panes[pane_index].width - width).abs() > 0.5 {
            app.panes[pane_index].estimate(&doc, width);
        }
        let total: f32 = app.panes[pane_index].heights.iter().sum();
        ui.set_min_height(total);
        app.panes[pane_index].viewport = (total > 0.0).then(|| {
            [
                (viewport.min.y / total).clamp(0.0, 1.0),
                (viewport.max.y / total).clamp(0.0, 1.0),
            ]
        });
        let origin = ui.min_rect().min;

        // First block intersecting the viewport.
        let mut top = 0.0;
        let mut index = 0;
        {
            let heights = &app.panes[pane_index].heights;
            while index < heights.len() && top + heights[index] < viewport.min.y {
                top += heights[index];
                index += 1;
            }
        }
        let block_count = app.panes[pane_index].blocks.len();
        let mut remeasured = false;
        // Whether the scroll target was found in a laid-out block (and dealt with there).
        let mut target_seen_elsewhere = false;
        while index < block_count && top <= viewport.max.y {
            let block = app.panes[pane_index].blocks[index].clone();
            let indent = DocPane::indent(&block);
            let (job, ranges) = block_job(app, &doc, side, &block, &visuals, width - indent);
            let galley = ui.painter().layout_job(job);
            if app.panes[pane_index].top_sentence.is_none() {
                let at = galley
                    .cursor_from_pos(Vec2::new(0.0, (viewport.min.y - top).max(0.0)))
                    .index
                    .0;
                app.panes[pane_index].top_sentence = ranges
                    .iter()
                    .find(|(_, r)| at < r.end)
                    .or(ranges.last())
                    .map(|(p, _)| *p as u32);
            }
            let rect = Rect::from_min_size(origin + Vec2::new(indent, top), galley.size());
            let height = galley.size().y + BLOCK_GAP;
            {
                let pane = &mut app.panes[pane_index];
                if !pane.measured[index] || (pane.heights[index] - height).abs() > 0.5 {
                    remeasured |= (pane.heights[index] - height).abs() > 0.5;
                    pane.heights[index] = height;
                    pane.places_stale = true;
                    pane.measured[index] = true;
                }
            }
            if app.selection.node == Some((side, block.node)) {
                ui.painter().rect_stroke(
                    rect.expand(3.0),
                    3.0,
                    Stroke::new(1.5, visuals.selection.stroke.color),
                    egui::StrokeKind::Outside,
                );
            }
            let response = ui.interact(
                rect,
                ui.scope_id().with(("block", block.node)),
                Sense::click(),
            );
            ui.painter()
                .galley(rect.min, Arc::clone(&galley), visuals.text_color());
            if let Some((target, tries)) = app.panes[pane_index].target
                && let Some((_, range)) = ranges.iter().find(|(p, _)| *p == target as usize)
            {
                let y = top
                    + galley
                        .pos_from_cursor(egui::text::CCursor::new(range.start))
                        .min
                        .y;
                let pane = &mut app.panes[pane_index];
                if y >= viewport.min.y && y + BODY_SIZE <= viewport.max.y {
                    pane.target = None;
                    pane.shown = Some(target);
                } else if tries < MAX_SCROLL_TRIES {
                    pane.pending_scroll = Some((y - 60.0).max(0.0));
                    pane.target = Some((target, tries + 1));
                    target_seen_elsewhere = true;
                } else {
                    pane.target = None;
                }
            }
            if let Some(pointer) = response.hover_pos() {
                let cursor = galley.cursor_from_pos(pointer - rect.min);
                let at = cursor.index.0;
                if let Some((position, _)) =
                    ranges.iter().find(|(_, r)| r.start <= at && at < r.end)
                {
                    hovered = Some(*position as u32);
                    if response.clicked() {
                        clicked = Some(*position as u32);
                    }
                }
            }
            top += height;
            index += 1;
        }
        // The target's block was not laid out (the estimates above it were off): aim at the
        // block again with the heights measured so far.
        let pane = &mut app.panes[pane_index];
        if let Some((target, tries)) = pane.target
            && !target_seen_elsewhere
        {
            match pane.block_of_sentence.get(target as usize) {
                Some(&block) if tries < MAX_SCROLL_TRIES => {
                    let offset: f32 = pane.heights[..block].iter().sum();
                    pane.pending_scroll = Some((offset - 60.0).max(0.0));
                    pane.target = Some((target, tries + 1));
                }
                _ => pane.target = None,
            }
        }
        if remeasured || app.panes[pane_index].target.is_some() {
            ui.ctx().request_repaint();
        }
    });

    ui_outer.allocate_rect(area, Sense::hover());
    if let Some(position) = hovered {
        super::sentence_tooltip::sentence_tooltip_ui(app, ui_outer, side, position);
    }
    if let Some(position) = clicked {
        select_sentence(app, side, position);
    }
}

/// The pane's header: the file name (the whole path on hover), the document's title when it
/// says something else, and the counts.
fn header_ui(app: &SimdocApp, ui: &mut egui::Ui, side: Side, loaded: &crate::app::LoadedDoc) {
    let doc = &loaded.doc;
    let file_name = loaded.file_name();
    ui.horizontal(|ui| {
        ui.strong(format!("{}:", side.letter()));
        ui.add(egui::Label::new(egui::RichText::new(&file_name).strong()).truncate())
            .on_hover_text(loaded.path.display().to_string());
    });
    let matched = app
        .view
        .as_ref()
        .map(|v| v.figures.matched[side.index()])
        .unwrap_or(0);
    let compared = app.view.as_ref().map(|v| v.figures.sentences[side.index()]);
    let mut counts = match compared {
        Some(compared) => format!(
            "{} sentences, {compared} compared, {matched} matched",
            doc.sentences.len()
        ),
        None => format!("{} sentences", doc.sentences.len()),
    };
    let title_differs = !doc.title.is_empty()
        && doc.title != file_name
        && doc.title != loaded.path.display().to_string();
    if title_differs {
        counts = format!("“{}” · {counts}", doc.title);
    }
    ui.add(egui::Label::new(egui::RichText::new(counts).weak()).truncate())
        .on_hover_text(&doc.title);
}

/// Selects a clicked sentence: its best pair if it has one, else the sentence alone.
pub fn select_sentence(app: &mut SimdocApp, side: Side, position: u32) {
    let pair = app.view.as_ref().and_then(|v| {
        v.marks[side.index()]
            .get(position as usize)
            .copied()
            .flatten()
            .map(|m| v.matches[m.pair])
    });
    match pair {
        Some(pair) => app.selection.select_pair(&pair),
        None => {
            app.selection.pair = None;
            app.selection.node = None;
            app.selection.sentence = Some((side, position));
        }
    }
}
