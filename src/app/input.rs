//! What the keyboard and dropped files do: the shortcuts (open, export, step through matches and
//! passages) and files dropped on the window.

use super::widgets::file_drop;
use super::{LoadedDoc, Side, SimdocApp, export};

impl SimdocApp {
    /// What dropping one file does now (see [`file_drop`]).
    fn drop_target(&self) -> file_drop::DropTarget {
        file_drop::target([self.docs[0].is_some(), self.docs[1].is_some()])
    }

    /// Opens files dropped on the window: two as A and B; one on the empty side, or after
    /// asking which side it replaces.
    pub(super) fn handle_dropped_files(&mut self, ctx: &egui::Context) {
        let dropped = ctx.input(|i| file_drop::dropped_paths(&i.raw.dropped_files));
        match dropped.as_slice() {
            [] => {}
            [one] => match self.drop_target() {
                file_drop::DropTarget::Open(side) => self.open(side, one.clone()),
                file_drop::DropTarget::Ask => self.pending_drop = Some(one.clone()),
            },
            [first, second, ..] => {
                self.pending_drop = None;
                self.open(Side::Left, first.clone());
                self.open(Side::Right, second.clone());
            }
        }
    }

    /// The drop overlay while files are dragged over the window, and the question that follows
    /// a drop onto two loaded documents.
    pub(super) fn file_drop_ui(&mut self, ui: &egui::Ui) {
        let hovered = ui.input(|i| i.raw.hovered_files.len());
        if hovered > 0 {
            let area = self
                .document_area
                .unwrap_or_else(|| ui.ctx().content_rect());
            file_drop::overlay_ui(ui, area, hovered, self.drop_target());
        }
        let Some(path) = self.pending_drop.clone() else {
            return;
        };
        let names = self
            .docs
            .each_ref()
            .map(|d| d.as_ref().map_or_else(String::new, LoadedDoc::file_name));
        match file_drop::ask_ui(ui, &path, [&names[0], &names[1]]) {
            file_drop::DropChoice::Undecided => {}
            file_drop::DropChoice::Cancel => self.pending_drop = None,
            file_drop::DropChoice::Open(side) => {
                self.pending_drop = None;
                self.open(side, path);
            }
        }
    }

    pub(super) fn handle_shortcuts(&mut self, ctx: &egui::Context) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        let open_a = KeyboardShortcut::new(Modifiers::COMMAND, Key::O);
        let open_b = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::O);
        let export_png = KeyboardShortcut::new(Modifiers::COMMAND, Key::E);
        let export_json = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
        // Check the more specific shortcut first: consuming Ctrl+O would also eat Ctrl+Shift+O.
        if ctx.input_mut(|i| i.consume_shortcut(&open_b)) {
            self.pick_file(Side::Right);
        }
        if ctx.input_mut(|i| i.consume_shortcut(&open_a)) {
            self.pick_file(Side::Left);
        }
        if ctx.input_mut(|i| i.consume_shortcut(&export_png)) {
            self.pick_export(export::ExportKind::DotplotPng);
        }
        if ctx.input_mut(|i| i.consume_shortcut(&export_json)) {
            self.pick_export(export::ExportKind::ReportJson);
        }
        // Match stepping, unless a text field has the keyboard.
        if !ctx.egui_wants_keyboard_input() {
            let (next, previous, shift, change) = ctx.input(|i| {
                (
                    i.key_pressed(Key::N) || i.key_pressed(Key::ArrowDown) && i.modifiers.alt,
                    i.key_pressed(Key::P) || i.key_pressed(Key::ArrowUp) && i.modifiers.alt,
                    i.modifiers.shift,
                    i.key_pressed(Key::C) && !i.modifiers.command,
                )
            });
            // C / Shift+C step through the Changes list.
            if change {
                self.step_change(if shift { -1 } else { 1 });
            }
            // Shift+N / Shift+P step by passage.
            match (next, previous, shift) {
                (true, _, false) => self.step_match(1),
                (_, true, false) => self.step_match(-1),
                (true, _, true) => self.step_passage(1),
                (_, true, true) => self.step_passage(-1),
                _ => {}
            }
        }
    }
}
