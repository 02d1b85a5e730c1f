//! The window: what the viewer opens with, the native options, and the eframe glue that
//! persists the settings. Also whether native file dialogs can work here.

use std::path::PathBuf;

use super::{CentralView, SharedModel, Side, SimdocApp, fonts};

/// Whether native file dialogs can work. On Linux rfd asks the desktop portal over the session
/// D-Bus and, when that fails, runs `zenity`; with neither (a bare X server, a remote session)
/// it returns nothing, which would leave a click without effect, so the viewer then offers typed
/// paths and exports to the working folder. Elsewhere dialogs are always there.
pub fn dialogs_available() -> bool {
    !cfg!(target_os = "linux")
        || std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some()
        || program_on_path("zenity")
}

/// Whether an executable file called `name` is in one of the `PATH` folders.
fn program_on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(name).is_file()))
}

/// The bundled example pair (CC BY-SA 3.0, see assets/examples/NOTE.md): a country article and
/// the history article it summarises.
pub const EXAMPLE: [(&str, &str); 2] = [
    (
        "example: guinea.md",
        include_str!("../../assets/examples/guinea.md"),
    ),
    (
        "example: history-of-guinea.md",
        include_str!("../../assets/examples/history-of-guinea.md"),
    ),
];

/// What the viewer opens with.
#[derive(Clone, Debug, Default)]
pub struct Start {
    /// Up to two documents to load and compare (A, then B).
    pub files: Vec<PathBuf>,
    /// Open the bundled example pair.
    pub example: bool,
    /// Start with the hierarchies view.
    pub hierarchies: bool,
    /// Start in the Sources view: the first file against these sources.
    pub sources: Vec<PathBuf>,
    /// Start under this preset (the last one used otherwise).
    pub preset: Option<crate::compare::Preset>,
}

/// Opens the viewer window. Without files, the first start opens the bundled example.
pub fn run_native(start: Start, model: SharedModel) -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("simdoc")
            .with_inner_size([1400.0, 860.0])
            .with_min_inner_size([720.0, 480.0])
            .with_drag_and_drop(true),
        ..Default::default()
    };
    eframe::run_native(
        "simdoc",
        options,
        Box::new(move |cc| {
            let mut settings: crate::app::Settings = cc
                .storage
                .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
                .unwrap_or_default();
            let renewed = settings.renew_preset();
            let mut app = SimdocApp::new(settings, model);
            if let Some(note) = renewed {
                app.notice(note);
            }
            app.repaint = Some(cc.egui_ctx.clone());
            app.cjk_font_missing = fonts::install_cjk_fallback(&cc.egui_ctx).is_none();
            if let Some(preset) = start.preset {
                app.set_preset(preset);
            }
            if start.example || start.files.is_empty() && !app.settings.example_shown {
                app.open_example();
            }
            if start.hierarchies {
                app.settings.central_view = CentralView::Hierarchies;
            }
            if !start.sources.is_empty() {
                app.settings.central_view = CentralView::Sources;
                app.sources.sources = start
                    .sources
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join("; ");
                if let Some(document) = start.files.first() {
                    app.sources.document = document.display().to_string();
                }
                app.run_sources();
            }
            for (side, path) in Side::BOTH.into_iter().zip(start.files) {
                app.open(side, path);
            }
            Ok(Box::new(app))
        }),
    )
}

impl eframe::App for SimdocApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        SimdocApp::ui(self, ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, &self.settings);
    }
}
