//! What the viewer does, as opposed to how it draws: loading documents, comparing them in the
//! background (a newer comparison drops the results of older ones), applying thresholds and
//! presets, taking in finished jobs, asking where to save, and the message bar's messages.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::native::{EXAMPLE, dialogs_available};
use super::{
    Analysis, CentralView, JobOutput, LoadedDoc, Message, Pick, Selection, Side, SimdocApp, View,
    doc_pane,
};
use crate::compare::{CompareOptions, PreparedPair};
use crate::document::{self, LoadOptions, SourceFormat};
use crate::similarity::Thresholds;

impl SimdocApp {
    pub(super) fn repainter(&self) -> impl Fn() + Send + 'static {
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
        self.compare_stopped = None;
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
    pub fn set_preset(&mut self, preset: crate::compare::Preset) {
        self.settings.preset_name = preset.name().map(str::to_string);
        self.settings.preset_as_chosen = Some(preset);
        if preset.refine != self.settings.refine
            || preset.rules != self.settings.rules
            || preset.chance_search != self.settings.chance_search
        {
            self.settings.refine = preset.refine;
            self.settings.rules = preset.rules;
            self.settings.chance_search = preset.chance_search;
            self.settings.thresholds = preset.thresholds;
            self.settings.min_passage =
                crate::compare::passages::default_min_pairs(preset.chance_search.is_some());
            self.recompare();
        } else {
            self.set_thresholds(preset.thresholds);
        }
    }

    /// Whether a comparison is running while an older one is still shown (after a threshold
    /// below the floor or a new option): the view stays usable and says it is being re-scored.
    pub fn is_rescoring(&self) -> bool {
        self.compare_job.is_some() && self.view.is_some()
    }

    /// Whether a comparison is running.
    pub fn is_comparing(&self) -> bool {
        self.compare_job.is_some()
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
                        // Another document: the old zoom would show an empty corner of it.
                        self.dotplot.reset = true;
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
                        // Said in the summary, with a button to compare again, until the
                        // next comparison starts (not a notice that would outlive it).
                        Err(error) => self.compare_stopped = Some(error),
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
    pub(super) fn picked(&mut self, purpose: Pick, path: PathBuf) {
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
        self.dotplot.reset = true;
        self.settings.central_view = CentralView::Texts;
        self.recompare();
    }

    pub(super) fn error(&mut self, text: String) {
        self.messages.push(Message {
            text,
            is_error: true,
        });
    }

    /// Shows a notice in place of the previous ones (errors stay until dismissed), so that
    /// notices do not pile up.
    pub(super) fn notice(&mut self, text: String) {
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
}
