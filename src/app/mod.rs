//! The egui desktop viewer: two documents side by side, linked dotplot, shaded hierarchies, live
//! thresholds, export.
//!
//! Layout follows egui's demo app and rerun: [`state`] holds plain data (persisted [`Settings`],
//! the [`Analysis`] of a comparison, the [`View`] derived for the current thresholds, the shared
//! [`Selection`]); `jobs` runs everything slow (loading, comparing, exporting, file dialogs) off
//! the UI thread; the panels are functions named `*_ui`. Moving a threshold slider only refilters
//! the comparison ([`View::new`]); changing the method or the boilerplate option recompares in
//! the background.

mod collection;
mod collection_export;
mod collection_lists;
mod collection_matrix;
mod collection_run;
mod doc_pane;
mod dotplot;
mod evidence;
pub mod export;
mod file_drop;
pub mod fonts;
mod jobs;
mod matches;
mod overview;
mod sentence_tooltip;
mod sources_ui;
pub mod sources_view;
pub mod state;
mod toolbar;
mod trees;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::compare::{CompareOptions, PreparedPair};
use crate::document::{self, LoadOptions, SourceFormat};
use crate::similarity::{ModelView, Thresholds};

use jobs::{JobId, Jobs};
pub use state::{Analysis, CentralView, LoadedDoc, Selection, Settings, Side, View};

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
        result: Result<Box<sources_view::SourcesRun>, String>,
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
    /// Messages the user can dismiss (errors name the file and the cause).
    pub messages: Vec<Message>,
    /// The "open a path" text fields, one per side (a fallback when no file dialog is available).
    path_input: [String; 2],
    panes: [doc_pane::DocPane; 2],
    dotplot: dotplot::DotplotState,
    match_list: matches::MatchListState,
    evidence: evidence::EvidenceState,
    trees: trees::TreesState,
    collection: collection::CollectionState,
    /// The one-against-many view.
    pub sources: sources_view::SourcesState,
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
            messages: Vec::new(),
            path_input: [String::new(), String::new()],
            panes: Default::default(),
            dotplot: Default::default(),
            match_list: Default::default(),
            evidence: Default::default(),
            trees: Default::default(),
            collection: Default::default(),
            sources: Default::default(),
            repaint: None,
            cjk_font_missing: false,
            document_area: None,
            pending_drop: None,
        }
    }

    fn repainter(&self) -> impl Fn() + Send + 'static {
        let ctx = self.repaint.clone();
        move || {
            if let Some(ctx) = &ctx {
                ctx.request_repaint();
            }
        }
    }

    /// Whether any background job is running.
    pub fn is_busy(&self) -> bool {
        self.jobs.is_busy()
    }

    /// Loads `path` into `side` in the background.
    pub fn open(&mut self, side: Side, path: PathBuf) {
        let label = format!("Loading {}", path.display());
        let repaint = self.repainter();
        self.jobs.spawn(label, repaint, move |_cancel| {
            let result = document::load(&path, &LoadOptions::default())
                .map(|doc| LoadedDoc {
                    path: path.clone(),
                    doc: Arc::new(doc),
                })
                .map_err(|e| e.to_string());
            JobOutput::Loaded { side, path, result }
        });
    }

    /// Loads text held in memory (the bundled example) into `side` in the background.
    pub fn open_text(&mut self, side: Side, name: &str, text: &'static str) {
        let path = PathBuf::from(name);
        let repaint = self.repainter();
        self.jobs
            .spawn(format!("Loading {name}"), repaint, move |_cancel| {
                let doc =
                    document::parse_text(text, &path.display().to_string(), SourceFormat::Text);
                JobOutput::Loaded {
                    side,
                    path: path.clone(),
                    result: Ok(LoadedDoc {
                        path,
                        doc: Arc::new(doc),
                    }),
                }
            });
    }

    /// Opens the bundled example pair: Wikipedia's "Guinea" and "History of Guinea".
    pub fn open_example(&mut self) {
        self.settings.example_shown = true;
        self.open_text(Side::Left, EXAMPLE[0].0, EXAMPLE[0].1);
        self.open_text(Side::Right, EXAMPLE[1].0, EXAMPLE[1].1);
    }

    /// Compares the loaded documents again (new method, boilerplate option, or documents).
    pub fn recompare(&mut self) {
        let [Some(left), Some(right)] = self.docs.clone() else {
            return;
        };
        self.jobs
            .cancel_where(|job| Some(job.id) == self.compare_job);
        self.compare_generation += 1;
        let generation = self.compare_generation;
        let method = self.settings.method;
        let options: CompareOptions = self.settings.compare_options();
        let model = Arc::clone(&self.model);
        let label = format!("Comparing ({})", method.title());
        let repaint = self.repainter();
        let id = self.jobs.spawn(label, repaint, move |cancel: &AtomicBool| {
            let prepared = PreparedPair::new(&left.doc, &right.doc, &model, &options);
            let result = prepared
                .compare(&model, method, options.floor, cancel)
                .map(|comparison| {
                    Box::new(Analysis::new(
                        [left, right],
                        Arc::new(prepared),
                        comparison,
                        options,
                    ))
                })
                .map_err(|e| e.to_string());
            JobOutput::Compared { generation, result }
        });
        self.compare_job = Some(id);
    }

    /// Applies a whole matching configuration: new refinement or rules compare again, new
    /// thresholds alone refilter (see [`Self::set_thresholds`]).
    pub fn set_preset(&mut self, preset: crate::similarity::Preset) {
        if preset.refine != self.settings.refine
            || preset.rules != self.settings.rules
            || preset.chance != self.settings.chance
        {
            self.settings.refine = preset.refine;
            self.settings.rules = preset.rules;
            self.settings.chance = preset.chance;
            self.settings.thresholds = preset.thresholds;
            self.settings.min_passage =
                crate::compare::passages::default_min_pairs(preset.chance.is_some());
            self.recompare();
        } else {
            self.set_thresholds(preset.thresholds);
        }
    }

    /// Scrolling the texts in step: when the user scrolls one pane inside the current passage,
    /// the other is brought to the partner of the passage's pair nearest above its top sentence.
    fn follow_in_step(&mut self) {
        let Some(view) = &self.view else { return };
        let current = evidence::current_passage(self, view);
        for side in Side::BOTH {
            let pane = &mut self.panes[side.index()];
            let (top, previous) = (pane.top_sentence, pane.last_top);
            pane.last_top = top;
            let (Some(top), Some(_)) = (top, previous) else {
                continue;
            };
            if pane.scrolled_by_app || Some(top) == previous {
                continue;
            }
            let Some(passage) = current.and_then(|i| view.passages.get(i)) else {
                continue;
            };
            if !passage.covers(side.index(), top) {
                continue;
            }
            // (this side's position, the other side's) of each pair of the passage
            let partner = passage
                .members
                .iter()
                .filter_map(|&m| view.matches.get(m))
                .map(|p| match side {
                    Side::Left => (p.left, p.right),
                    Side::Right => (p.right, p.left),
                })
                .rfind(|&(mine, _)| mine <= top)
                .map(|(_, theirs)| theirs);
            if let Some(partner) = partner {
                self.selection.scroll_to[side.other().index()] = Some(partner);
            }
            return;
        }
    }

    /// The sentence the pane of `side` last brought into view on a selection.
    pub fn shown_sentence(&self, side: Side) -> Option<u32> {
        self.panes[side.index()].shown
    }

    /// The sentence at the top of the pane of `side` in the last frame.
    pub fn top_sentence(&self, side: Side) -> Option<u32> {
        self.panes[side.index()].top_sentence
    }

    /// Whether a comparison is running while an older one is still shown (after a threshold
    /// below the floor or a new option): the view stays usable and says it is being re-scored.
    pub fn is_rescoring(&self) -> bool {
        self.compare_job.is_some() && self.view.is_some()
    }

    /// Finds the passages again (new gap or minimum length): a refilter, no rescoring.
    pub fn refresh_view(&mut self) {
        if let Some(analysis) = &self.analysis
            && let Some(view) = &self.view
        {
            self.view = Some(View::new(
                analysis,
                view.thresholds,
                self.settings.passage_options(),
            ));
            self.selection.passage = None;
        }
    }

    /// Applies new thresholds: a refilter, or a recomparison if they go below the floor.
    pub fn set_thresholds(&mut self, thresholds: Thresholds) {
        self.settings.thresholds = thresholds;
        match &self.analysis {
            Some(analysis) if analysis.comparison.covers(&thresholds) => {
                self.view = Some(View::new(
                    analysis,
                    thresholds,
                    self.settings.passage_options(),
                ));
            }
            Some(_) => self.recompare(),
            None => {}
        }
    }

    /// Takes in the results of finished jobs.
    pub fn poll_jobs(&mut self) {
        for (id, output) in self.jobs.finished() {
            match output {
                JobOutput::Loaded { side, path, result } => match result {
                    Ok(loaded) => {
                        if path.exists() {
                            self.settings.remember(&path);
                        }
                        self.docs[side.index()] = Some(loaded);
                        self.analysis = None;
                        self.view = None;
                        self.selection = Selection::default();
                        self.panes[side.index()] = doc_pane::DocPane::default();
                        self.recompare();
                    }
                    Err(error) => self.error(error),
                },
                JobOutput::Compared { generation, result } => {
                    if Some(id) == self.compare_job {
                        self.compare_job = None;
                    }
                    if generation != self.compare_generation {
                        continue;
                    }
                    match result {
                        Ok(analysis) => {
                            self.view = Some(View::new(
                                &analysis,
                                self.settings.thresholds,
                                self.settings.passage_options(),
                            ));
                            self.analysis = Some(*analysis);
                        }
                        Err(error) => self.notice(format!("Comparison stopped: {error}")),
                    }
                }
                JobOutput::Collection { result } => match result {
                    Ok(result) => self.collection.result = Some(Arc::from(result)),
                    Err(error) => self.error(error),
                },
                JobOutput::Exported { result } => match result {
                    Ok(done) => self.notice(done),
                    Err(error) => self.error(error),
                },
                JobOutput::Sources { generation, result } => {
                    self.sources_finished(id, generation, result);
                }
                JobOutput::PickedMany { purpose, paths } => self.sources_picked(purpose, paths),
                JobOutput::Picked { purpose, path } => {
                    if let Some(path) = path {
                        self.picked(purpose, path);
                    }
                }
            }
        }
    }

    /// Does what a file chosen for `purpose` was chosen for.
    fn picked(&mut self, purpose: Pick, path: PathBuf) {
        match purpose {
            Pick::Open(side) => self.open(side, path),
            Pick::Folder => {
                self.collection.folder = path.display().to_string();
            }
            Pick::Export(kind) => self.export(kind, path),
            Pick::SourcesReport => self.export_sources(path),
            Pick::CollectionReport => self.export_collection(path),
            Pick::SourcesFolder | Pick::SourcesFiles => {
                self.sources_picked(purpose, vec![path]);
            }
        }
    }

    /// Asks where to save a file for `purpose` (a save dialog titled `title`, suggesting
    /// `name`, filtered by `extension`), off the UI thread; without a dialog, saves under `name`
    /// in the working folder. Every export goes through here.
    pub fn ask_where_to_save(
        &mut self,
        purpose: Pick,
        title: &str,
        name: String,
        extension: &'static str,
    ) {
        if !dialogs_available() {
            let path = std::env::current_dir()
                .unwrap_or_else(|_| PathBuf::from("."))
                .join(name);
            self.picked(purpose, path);
            return;
        }
        let repaint = self.repainter();
        let title = title.to_string();
        self.jobs
            .spawn("Choosing where to export", repaint, move |_| {
                JobOutput::Picked {
                    purpose,
                    path: rfd::FileDialog::new()
                        .set_title(title)
                        .set_file_name(name)
                        .add_filter(extension, &[extension])
                        .save_file(),
                }
            });
    }

    /// Shows two documents side by side in the Texts view and compares them, from a pair found
    /// elsewhere (collection mode, the Sources view).
    pub fn show_pair(&mut self, left: LoadedDoc, right: LoadedDoc) {
        self.docs = [Some(left), Some(right)];
        self.analysis = None;
        self.view = None;
        self.selection = Selection::default();
        self.panes = Default::default();
        self.settings.central_view = CentralView::Texts;
        self.recompare();
    }

    fn error(&mut self, text: String) {
        self.messages.push(Message {
            text,
            is_error: true,
        });
    }

    /// Shows a notice in place of the previous ones (errors stay until dismissed), so that
    /// notices do not pile up.
    fn notice(&mut self, text: String) {
        self.messages.retain(|m| m.is_error);
        self.messages.push(Message {
            text,
            is_error: false,
        });
    }

    /// Opens a native file dialog (off the UI thread) to pick a document for `side`.
    pub fn pick_file(&mut self, side: Side) {
        if !dialogs_available() {
            self.notice(format!(
                "No file dialog is available here (no desktop portal or zenity): type a path \
                 in the \"Open {}\" menu, or drop the file on the window.",
                side.letter()
            ));
            return;
        }
        let repaint = self.repainter();
        let start_dir = self
            .settings
            .recent_files
            .first()
            .and_then(|p| p.parent().map(Path::to_path_buf));
        self.jobs.spawn(
            format!("Choosing document {}", side.letter()),
            repaint,
            move |_| {
                let mut dialog = rfd::FileDialog::new()
                    .set_title(format!("Open document {}", side.letter()))
                    .add_filter("Documents", crate::document::EXTENSIONS)
                    .add_filter("All files", &["*"]);
                if let Some(dir) = start_dir {
                    dialog = dialog.set_directory(dir);
                }
                JobOutput::Picked {
                    purpose: Pick::Open(side),
                    path: dialog.pick_file(),
                }
            },
        );
    }

    /// Selects the next (`+1`) or previous (`-1`) match in the match list's order.
    pub fn step_match(&mut self, delta: isize) {
        let Some(view) = &self.view else { return };
        let order = self.match_list.order(view);
        if order.is_empty() {
            return;
        }
        let current = self.selection.pair.and_then(|(l, r)| {
            order
                .iter()
                .position(|&i| view.matches[i].left == l && view.matches[i].right == r)
        });
        let next = match current {
            Some(at) => (at as isize + delta).rem_euclid(order.len() as isize) as usize,
            None if delta >= 0 => 0,
            None => order.len() - 1,
        };
        let pair = view.matches[order[next]];
        self.selection.select_pair(&pair);
        self.match_list.scroll_to_selection = true;
    }

    /// Selects the next (`+1`) or previous (`-1`) passage, in reading order of A.
    pub fn step_passage(&mut self, delta: isize) {
        let Some(view) = &self.view else { return };
        let count = view.passages.len();
        if count == 0 {
            return;
        }
        let next = match evidence::current_passage(self, view) {
            Some(at) => (at as isize + delta).rem_euclid(count as isize) as usize,
            None if delta >= 0 => 0,
            None => count - 1,
        };
        self.selection.select_passage(view, next);
        self.match_list.scroll_to_selection = true;
    }

    /// What dropping one file does now (see [`file_drop`]).
    fn drop_target(&self) -> file_drop::DropTarget {
        file_drop::target([self.docs[0].is_some(), self.docs[1].is_some()])
    }

    /// Opens files dropped on the window: two as A and B; one on the empty side, or after
    /// asking which side it replaces.
    fn handle_dropped_files(&mut self, ctx: &egui::Context) {
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
    fn file_drop_ui(&mut self, ui: &egui::Ui) {
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

    fn handle_shortcuts(&mut self, ctx: &egui::Context) {
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
            let (next, previous, shift) = ctx.input(|i| {
                (
                    i.key_pressed(Key::N) || i.key_pressed(Key::ArrowDown) && i.modifiers.alt,
                    i.key_pressed(Key::P) || i.key_pressed(Key::ArrowUp) && i.modifiers.alt,
                    i.modifiers.shift,
                )
            });
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
        egui::Panel::bottom("status").show(ui, |ui| toolbar::status_ui(self, ui));
        if !self.messages.is_empty() {
            egui::Panel::top("messages").show(ui, |ui| toolbar::messages_ui(self, ui));
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
            evidence::SideTab::Passages => evidence::passage_list_ui(self, ui),
            evidence::SideTab::Words => evidence::words_ui(self, ui),
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
            toolbar::empty_state_ui(self, ui);
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
            CentralView::Sources => sources_ui::sources_ui(self, ui),
        }
    }
}

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
            let settings = cc
                .storage
                .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
                .unwrap_or_default();
            let mut app = SimdocApp::new(settings, model);
            app.repaint = Some(cc.egui_ctx.clone());
            app.cjk_font_missing = fonts::install_cjk_fallback(&cc.egui_ctx).is_none();
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
