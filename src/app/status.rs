//! The status bar (running jobs, what is loaded), the dismissible messages, and the empty
//! state shown before any document is open.

use super::state::CentralView;
use super::{Side, SimdocApp};

/// The bottom bar: running jobs with a cancel button, or what is loaded.
pub fn status_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        let mut cancel = None;
        for job in app.jobs.running() {
            ui.spinner();
            ui.label(format!(
                "{} ({:.1} s)",
                job.label,
                job.started.elapsed().as_secs_f32()
            ));
            if ui.button("Cancel").clicked() {
                cancel = Some(job.id);
            }
            ui.separator();
        }
        if let Some(id) = cancel {
            app.jobs.cancel_where(|j| j.id == id);
        }
        if !app.jobs.is_busy() {
            match (&app.analysis, &app.view) {
                (Some(analysis), Some(view)) => {
                    ui.label(format!(
                        "{} — {} scored pairs above the floor {:.2}, {} matched",
                        analysis.comparison.method.title(),
                        analysis.comparison.pairs.len(),
                        analysis.comparison.floor,
                        view.matches.len()
                    ));
                }
                _ => {
                    ui.label("Ready");
                }
            }
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.weak("n / p: next / previous match · c / Shift+C: change · Ctrl+O / Ctrl+Shift+O: open A / B · Ctrl+E: export PNG");
        });
    });
}

/// The dismissible messages (errors name the file and the cause).
pub fn messages_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    let mut dismissed = None;
    for (index, message) in app.messages.iter().enumerate() {
        ui.horizontal(|ui| {
            let color = if message.is_error {
                ui.visuals().error_fg_color
            } else {
                ui.visuals().text_color()
            };
            let prefix = if message.is_error { "Error: " } else { "" };
            ui.colored_label(color, format!("{prefix}{}", message.text));
            if ui.small_button("Dismiss").clicked() {
                dismissed = Some(index);
            }
        });
    }
    if let Some(index) = dismissed {
        app.messages.remove(index);
    }
}

/// Shown before any document is open.
pub fn empty_state_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    ui.vertical_centered(|ui| {
        ui.add_space(ui.available_height() * 0.2);
        ui.heading("Compare two documents");
        ui.add_space(8.0);
        ui.label(
            "Open two documents (HTML, text, DOCX, ODT, PDF or EPUB): simdoc highlights the \
             sentences they share, plots where they match, and shades both documents' structure \
             by how much of it is reused.",
        );
        ui.add_space(12.0);
        ui.horizontal(|ui| {
            let total = 2.0 * 160.0 + ui.spacing().item_spacing.x;
            ui.add_space(((ui.available_width() - total) / 2.0).max(0.0));
            for side in Side::BOTH {
                if ui
                    .add_sized(
                        [160.0, 32.0],
                        egui::Button::new(format!("Open document {}…", side.letter())),
                    )
                    .clicked()
                {
                    app.pick_file(side);
                }
            }
        });
        ui.add_space(8.0);
        ui.weak("…or drop files on the window: on the left half for A, on the right half for B.");
        ui.add_space(16.0);
        if ui
            .button("Open the example: “Guinea” and “History of Guinea” (Wikipedia)")
            .clicked()
        {
            app.open_example();
        }
        if ui
            .button("Compare a whole folder (collection mode)…")
            .clicked()
        {
            app.settings.central_view = CentralView::Collection;
        }
    });
}
