//! One block of a document pane as text: a hierarchy node's own sentences laid out with their
//! highlights (tier colour, strength by score, alternate shades for neighbours, the selection
//! underlined), and each sentence's character range in the layout for hit-testing.

use std::ops::Range;

use egui::text::{LayoutJob, TextFormat};
use egui::{Color32, FontId, Stroke};

use crate::app::SimdocApp;
use crate::app::state::{SentenceMark, Side};
use crate::document::{Document, NodeId, NodeKind};

pub(super) const BODY_SIZE: f32 = 14.0;
pub(super) const HEADING_SIZE: f32 = 18.0;

/// One block of text: a node with sentences of its own.
#[derive(Clone, Debug)]
pub(super) struct Block {
    pub(super) node: NodeId,
    pub(super) kind: NodeKind,
    /// Drawn as a heading: a section's own text, or the root's when it absorbed its only
    /// section (its text is then the title).
    pub(super) heading: bool,
    pub(super) depth: usize,
    pub(super) boilerplate: bool,
    pub(super) sentences: Range<usize>,
    /// Byte range in the document text covering the block's sentences.
    pub(super) text: Range<usize>,
}

/// The background of a matched sentence: its tier's colour, stronger the further its score
/// is above the permission threshold, strongest when selected.
fn highlight(mark: &SentenceMark, permission: f64, selected: bool, dark: bool) -> Color32 {
    let [r, g, b] = mark.tier.rgb();
    let strength = if permission >= 1.0 {
        1.0
    } else {
        ((mark.score - permission) / (1.0 - permission)).clamp(0.0, 1.0) as f32
    };
    let alpha = if selected {
        150.0
    } else {
        35.0 + 60.0 * strength
    };
    let base = Color32::from_rgb(r, g, b);
    if dark {
        base.gamma_multiply(alpha / 255.0)
    } else {
        Color32::from_rgba_unmultiplied(r, g, b, alpha as u8)
    }
}

pub(super) fn is_heading(block: &Block) -> bool {
    block.heading
}

/// Lays out one block: returns the job and each sentence's char range within it.
pub(super) fn block_job(
    app: &SimdocApp,
    doc: &Document,
    side: Side,
    block: &Block,
    visuals: &egui::Visuals,
    wrap_width: f32,
) -> (LayoutJob, Vec<(usize, Range<usize>)>) {
    let size = if is_heading(block) {
        HEADING_SIZE
    } else {
        BODY_SIZE
    };
    let text_color = if block.boilerplate {
        visuals.weak_text_color()
    } else if is_heading(block) {
        visuals.strong_text_color()
    } else {
        visuals.text_color()
    };
    let plain = TextFormat {
        font_id: FontId::proportional(size),
        color: text_color,
        ..Default::default()
    };
    let mut job = LayoutJob::default();
    job.wrap.max_width = wrap_width;
    let mut chars = 0usize;
    let mut push = |job: &mut LayoutJob, text: &str, format: TextFormat| {
        job.append(text, 0.0, format);
        let n = text.chars().count();
        chars += n;
        chars - n..chars
    };
    match block.kind {
        NodeKind::ListItem => {
            push(&mut job, "•  ", plain.clone());
        }
        NodeKind::TableCell => {
            push(&mut job, "| ", plain.clone());
        }
        NodeKind::Quote => {
            push(&mut job, "“ ", plain.clone());
        }
        _ => {}
    }
    let view = app.view.as_ref();
    let permission = app.settings.thresholds.permission;
    let mut ranges = Vec::with_capacity(block.sentences.len());
    let mut cursor = block.text.start;
    // Neighbouring matched sentences alternate in shade, so that two stay two.
    let mut flip = false;
    let mut previous_marked = false;
    for position in block.sentences.clone() {
        let sentence = &doc.sentences[position];
        if sentence.span.start > cursor {
            push(
                &mut job,
                &doc.text[cursor..sentence.span.start],
                plain.clone(),
            );
        }
        let selected = app.selection.is_selected(side, position as u32);
        let mark = view.and_then(|v| v.marks[side.index()].get(position).copied().flatten());
        let mut format = plain.clone();
        let left_out = app
            .analysis
            .as_ref()
            .is_some_and(|a| matches!(a.left_out[side.index()].get(position), Some(Some(_))));
        if left_out {
            // Left out by the analyst (a quotation, the bibliography): read, not compared.
            format.color = visuals.weak_text_color();
            format.italics = true;
        }
        if let Some(mark) = mark {
            flip = previous_marked && !flip;
            let mut background = highlight(&mark, permission, selected, visuals.dark_mode);
            if flip && !selected {
                background = background.gamma_multiply(0.6);
            }
            format.background = background;
        } else if selected {
            format.background = visuals.selection.bg_fill.gamma_multiply(0.5);
        }
        if selected {
            format.underline = Stroke::new(1.5, visuals.strong_text_color());
        }
        previous_marked = mark.is_some();
        let range = push(&mut job, &doc.text[sentence.span.clone()], format);
        ranges.push((position, range));
        cursor = sentence.span.end;
    }
    (job, ranges)
}
