//! The egui desktop viewer. For now a window that says what it will become.

use std::path::PathBuf;

/// Opens the viewer window with up to two documents to compare.
pub fn run_native(files: Vec<PathBuf>) -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("simdoc")
            .with_inner_size([1280.0, 800.0]),
        ..Default::default()
    };
    eframe::run_native(
        "simdoc",
        options,
        Box::new(move |_cc| Ok(Box::new(Placeholder { files }))),
    )
}

struct Placeholder {
    files: Vec<PathBuf>,
}

impl eframe::App for Placeholder {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        egui::CentralPanel::default().show(ui, |ui| {
            ui.heading("simdoc");
            ui.label(
                "Two documents side by side: matched sentences highlighted, a dotplot of matched \
                 positions, both semantic hierarchies shaded by their matched share. \
                 The viewer is being built; the command line works now (simdoc --help).",
            );
            for file in &self.files {
                ui.label(file.display().to_string());
            }
        });
    }
}
