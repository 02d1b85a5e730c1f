//! The egui desktop viewer: two documents side by side, linked dotplot, shaded hierarchies, live
//! thresholds, export.
//!
//! Layout follows egui's demo app and rerun: [`state`] holds plain data (persisted [`Settings`],
//! the [`Analysis`] of a comparison, the [`View`] derived for the current thresholds, the shared
//! [`Selection`]); `jobs` runs everything slow (loading, comparing, exporting, file dialogs) off
//! the UI thread; the panels are functions named `*_ui`. Moving a threshold slider only refilters
//! the comparison ([`View::new`]); changing the method or the boilerplate option recompares in
//! the background.
//!
//! The rooms follow the views: [`pair`] is the two-document view (texts, hierarchies, dotplot,
//! matches, evidence), [`sources`] the one-against-many view, [`collection`] collection mode;
//! [`widgets`] holds what all of them use. The app itself is split by what it does: `actions`
//! (loading, comparing, taking in finished jobs), `navigation` (stepping through matches and
//! passages, scrolling in step), `input` (shortcuts and dropped files), `native` (the window).

mod actions;
mod collection;
mod input;
mod jobs;
mod native;
mod navigation;
mod options_menu;
pub(crate) mod pair;
pub mod sources;
pub mod state;
mod status;
mod toolbar;
pub(crate) mod widgets;

use std::path::PathBuf;

pub use native::{EXAMPLE, Start, dialogs_available, run_native};
pub use pair::export;
pub use state::{Analysis, CentralView, LoadedDoc, Selection, Settings, Side, View};
pub use widgets::fonts;

use crate::similarity::ModelView;
use jobs::{JobId, Jobs};
use pair::{doc_pane, dotplot, evidence, matches, trees};
use std::sync::Arc;

/// The reference model the viewer compares with, shared with background jobs.
pub type SharedModel = Arc<dyn ModelView + Send + Sync>;

/// What a background job hands back to the UI thread.
pub enum JobOutput {
    Loaded {
        side: Side,
        path: PathBuf,
        result: Result<LoadedDoc, String>,
    },
    Compared {
        generation: u64,
        /// Boxed: an analysis is much larger than the other outputs.
        result: Result<Box<Analysis>, String>,
    },
    Exported {
        result: Result<String, String>,
    },
    /// A collection run finished.
    Collection {
        result: Result<Box<collection::CollectionResult>, String>,
    },
    /// An attribution of the Sources view finished.
    Sources {
        generation: u64,
        /// Boxed: a run is much larger than the other outputs.
        result: Result<Box<sources::SourcesRun>, String>,
    },
    /// A file dialog that may choose several paths closed, with the paths chosen.
    PickedMany {
        purpose: Pick,
        paths: Vec<PathBuf>,
    },
    /// A file dialog closed, with the chosen path if any.
    Picked {
        purpose: Pick,
        path: Option<PathBuf>,
    },
}

/// What a file dialog was opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    Open(Side),
    /// A folder for collection mode.
    Folder,
    Export(export::ExportKind),
    /// A folder of sources for the Sources view.
    SourcesFolder,
    /// Files added to the Sources view's sources.
    SourcesFiles,
    /// Where to save the Sources view's HTML report.
    SourcesReport,
    /// Where to save collection mode's HTML report.
    CollectionReport,
}

/// The viewer.
pub struct SimdocApp {
    pub settings: Settings,
    model: SharedModel,
    pub docs: [Option<LoadedDoc>; 2],
    pub analysis: Option<Analysis>,
    pub view: Option<View>,
    pub selection: Selection,
    jobs: Jobs<JobOutput>,
    /// Raised for each comparison started; results of older ones are dropped.
    compare_generation: u64,
    /// The comparison job in flight, if any.
    compare_job: Option<JobId>,
    /// Why the last comparison stopped without a result (cancelled, or an error), until the
    /// next one starts: the summary says so and offers to compare again.
    pub compare_stopped: Option<String>,
    /// Messages the user can dismiss (errors name the file and the cause).
    pub messages: Vec<Message>,
    /// The "open a path" text fields, one per side (a fallback when no file dialog is available).
    path_input: [String; 2],
    panes: [doc_pane::DocPane; 2],
    dotplot: dotplot::DotplotState,
    match_list: matches::MatchListState,
    evidence: evidence::EvidenceState,
    changes: pair::changes_list::ChangesState,
    passage_list: pair::passage_list::PassageListState,
    trees: trees::TreesState,
    collection: collection::CollectionState,
    /// The one-against-many view.
    pub sources: sources::SourcesState,
    repaint: Option<egui::Context>,
    /// No font with CJK glyphs was found on this system ([`fonts`]): panes holding such text
    /// say so.
    pub cjk_font_missing: bool,
    /// Where the document panes were laid out last frame (the drop overlay covers it).
    document_area: Option<egui::Rect>,
    /// A dropped file waiting for the user to choose the side it replaces.
    pending_drop: Option<PathBuf>,
}

/// A message in the message bar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub text: String,
    pub is_error: bool,
}

impl SimdocApp {
    /// A viewer with `settings`, comparing with `model`.
    pub fn new(settings: Settings, model: SharedModel) -> Self {
        SimdocApp {
            settings,
            model,
            docs: [None, None],
            analysis: None,
            view: None,
            selection: Selection::default(),
            jobs: Jobs::default(),
            compare_generation: 0,
            compare_job: None,
            compare_stopped: None,
            messages: Vec::new(),
            path_input: [String::new(), String::new()],
            panes: Default::default(),
            dotplot: Default::default(),
            match_list: Default::default(),
            evidence: Default::default(),
            changes: Default::default(),
            passage_list: Default::default(),
            trees: Default::default(),
            collection: Default::default(),
            sources: Default::default(),
            repaint: None,
            cjk_font_missing: false,
            document_area: None,
            pending_drop: None,
        }
    }

    /// The whole UI, for one frame. (eframe calls this through [`eframe::App::ui`]; tests call it
    /// through an egui_kittest harness.)
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        if self.repaint.is_none() {
            self.repaint = Some(ctx.clone());
        }
        self.poll_jobs();
        self.handle_dropped_files(&ctx);
        self.handle_shortcuts(&ctx);

        egui::Panel::top("toolbar").show(ui, |ui| toolbar::toolbar_ui(self, ui));
        egui::Panel::bottom("status").show(ui, |ui| status::status_ui(self, ui));
        if !self.messages.is_empty() {
            egui::Panel::top("messages").show(ui, |ui| status::messages_ui(self, ui));
        }
        // The Sources and Collection views are about many documents: the pair's panel (figures,
        // dotplot, matches) has nothing to say there, and its room goes to them.
        if self.settings.central_view == CentralView::Texts
            || self.settings.central_view == CentralView::Hierarchies
        {
            egui::Panel::right("side")
                .resizable(true)
                .default_size(440.0)
                .show(ui, |ui| self.side_panel_ui(ui));
        }
        egui::CentralPanel::default().show(ui, |ui| self.central_ui(ui));
        self.file_drop_ui(ui);

        if self.is_busy() {
            // Keep the elapsed time and spinner moving while jobs run.
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
    }

    fn side_panel_ui(&mut self, ui: &mut egui::Ui) {
        matches::summary_ui(self, ui);
        ui.separator();
        let available = ui.available_height();
        let plot_height = (available * 0.55).max(160.0);
        ui.allocate_ui(egui::vec2(ui.available_width(), plot_height), |ui| {
            dotplot::dotplot_ui(self, ui);
        });
        ui.separator();
        evidence::side_tabs_ui(self, ui);
        match self.evidence.tab {
            evidence::SideTab::Matches => matches::match_list_ui(self, ui),
            evidence::SideTab::Passages => pair::passage_list::passage_list_ui(self, ui),
            evidence::SideTab::Words => evidence::words_ui(self, ui),
            evidence::SideTab::Changes => pair::changes_list::changes_list_ui(self, ui),
        }
    }

    fn central_ui(&mut self, ui: &mut egui::Ui) {
        self.document_area = Some(ui.available_rect_before_wrap());
        if self.docs.iter().all(Option::is_none)
            && !matches!(
                self.settings.central_view,
                CentralView::Collection | CentralView::Sources
            )
        {
            status::empty_state_ui(self, ui);
            return;
        }
        toolbar::central_view_switch_ui(self, ui);
        match self.settings.central_view {
            CentralView::Texts => {
                if self.view.is_some() {
                    evidence::texts_legend_ui(ui);
                }
                let area = ui.available_rect_before_wrap();
                let gap = ui.spacing().item_spacing.x * 2.0;
                let width = ((area.width() - gap) / 2.0).max(50.0);
                for side in Side::BOTH {
                    let x = area.min.x + side.index() as f32 * (width + gap);
                    let rect = egui::Rect::from_min_size(
                        egui::pos2(x, area.min.y),
                        egui::vec2(width, area.height()),
                    );
                    let mut pane = ui.new_child(
                        egui::UiBuilder::new()
                            .max_rect(rect)
                            .layout(egui::Layout::top_down(egui::Align::Min))
                            .id_salt(("pane", side.index())),
                    );
                    pane.set_clip_rect(rect.intersect(ui.clip_rect()));
                    doc_pane::doc_pane_ui(self, &mut pane, side);
                }
                ui.allocate_rect(area, egui::Sense::hover());
                if self.settings.scroll_in_step {
                    self.follow_in_step();
                }
            }
            CentralView::Hierarchies => trees::hierarchies_ui(self, ui),
            CentralView::Collection => collection::collection_ui(self, ui),
            CentralView::Sources => sources::sources_ui(self, ui),
        }
    }
}
