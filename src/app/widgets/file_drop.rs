//! Opening files by dragging them onto the window.
//!
//! The side a dropped file opens on cannot come from where it was dropped: winit 0.30 (under
//! eframe 0.37) reports neither a drop position nor pointer moves while an operating-system drag
//! is in progress (checked under Xvfb with a GTK drag source: the pointer egui knows is where it
//! was before the drag). So the rule uses what is loaded: one file fills the empty side (A when
//! both are empty); with both sides loaded the viewer asks which one to replace. Two or more
//! files open as A and B in the order given. The overlay shown while files hover over the
//! window says which of these will happen.

use std::path::{Path, PathBuf};

use egui::{Align2, Color32, FontId, Id, LayerId, Order, Rect, Stroke, StrokeKind, Ui};

use super::shorten;
use crate::app::state::Side;

/// What dropping a single file does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropTarget {
    /// Open it on this side.
    Open(Side),
    /// Both sides hold a document: ask which one to replace.
    Ask,
}

/// Where a single dropped file goes, from which sides hold a document.
pub fn target(loaded: [bool; 2]) -> DropTarget {
    match loaded {
        [false, _] => DropTarget::Open(Side::Left),
        [true, false] => DropTarget::Open(Side::Right),
        [true, true] => DropTarget::Ask,
    }
}

/// What a drop of `count` files does, in words, for the overlay.
pub fn drop_hint(count: usize, target: DropTarget) -> String {
    match (count, target) {
        (2.., _) => "Drop to open the first file as A and the second as B".to_owned(),
        (_, DropTarget::Open(side)) => format!("Drop to open as {}", side.letter()),
        (_, DropTarget::Ask) => "Drop, then choose whether it replaces A or B".to_owned(),
    }
}

/// Paints the drop overlay over the document area while `hovered` files are over the window.
pub fn overlay_ui(ui: &Ui, document_area: Rect, hovered: usize, target: DropTarget) {
    let painter = ui
        .ctx()
        .layer_painter(LayerId::new(Order::Foreground, Id::unique("file_drop")));
    let visuals = ui.visuals();
    painter.rect_filled(document_area, 0.0, Color32::from_black_alpha(150));
    let highlighted = match target {
        DropTarget::Open(side) if hovered < 2 => {
            let half = document_area.width() / 2.0;
            let min_x = document_area.min.x + side.index() as f32 * half;
            Rect::from_min_size(
                egui::pos2(min_x, document_area.min.y),
                egui::vec2(half, document_area.height()),
            )
        }
        _ => document_area,
    };
    let accent = visuals.selection.bg_fill;
    painter.rect(
        highlighted.shrink(8.0),
        8.0,
        accent.gamma_multiply(0.25),
        Stroke::new(2.0, accent),
        StrokeKind::Inside,
    );
    painter.text(
        highlighted.center(),
        Align2::CENTER_CENTER,
        drop_hint(hovered, target),
        FontId::proportional(20.0),
        visuals.strong_text_color(),
    );
}

/// The choice asked for after a drop with both sides loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DropChoice {
    Undecided,
    Open(Side),
    Cancel,
}

/// Asks which side the dropped `path` replaces; `names` are the documents now on A and B.
pub fn ask_ui(ui: &Ui, path: &Path, names: [&str; 2]) -> DropChoice {
    let dropped = display_name(path);
    let modal = egui::Modal::new(Id::unique("file_drop_choice")).show(ui.ctx(), |ui| {
        ui.set_max_width(460.0);
        ui.heading("Replace A or B?");
        ui.add(egui::Label::new(egui::RichText::new(shorten(&dropped, 56)).strong()).truncate())
            .on_hover_text(path.display().to_string());
        ui.label("Both sides hold a document. Which one should this file replace?");
        ui.add_space(8.0);
        let mut choice = DropChoice::Undecided;
        ui.horizontal_wrapped(|ui| {
            for side in Side::BOTH {
                let label = format!(
                    "As {} (replaces {})",
                    side.letter(),
                    shorten(names[side.index()], 24)
                );
                if ui.button(label).clicked() {
                    choice = DropChoice::Open(side);
                }
            }
            if ui.button("Cancel").clicked() {
                choice = DropChoice::Cancel;
            }
        });
        choice
    });
    match modal.inner {
        DropChoice::Undecided if modal.should_close() => DropChoice::Cancel,
        choice => choice,
    }
}

/// A path's file name for display (the whole path when it has none).
fn display_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The paths of dropped files, in order; entries without a path (the web) are skipped.
pub fn dropped_paths(files: &[egui::DroppedFileHandle]) -> Vec<PathBuf> {
    files
        .iter()
        .map(|f| f.path().to_path_buf())
        .filter(|p| !p.as_os_str().is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_file_fills_the_empty_side_or_asks() {
        assert_eq!(target([false, false]), DropTarget::Open(Side::Left));
        assert_eq!(target([false, true]), DropTarget::Open(Side::Left));
        assert_eq!(target([true, false]), DropTarget::Open(Side::Right));
        assert_eq!(target([true, true]), DropTarget::Ask);
    }

    #[test]
    fn the_hint_says_what_the_drop_does() {
        assert_eq!(
            drop_hint(1, DropTarget::Open(Side::Right)),
            "Drop to open as B"
        );
        assert!(drop_hint(1, DropTarget::Ask).contains("replaces A or B"));
        assert!(drop_hint(2, DropTarget::Ask).contains("first file as A"));
        assert!(drop_hint(3, DropTarget::Open(Side::Right)).contains("second as B"));
    }

    #[test]
    fn display_names_are_file_names() {
        assert_eq!(display_name(Path::new("/tmp/x/a b.html")), "a b.html");
        assert_eq!(display_name(Path::new("/")), "/");
    }
}
