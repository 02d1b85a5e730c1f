//! The viewer's one-against-many view (issue 14, item 1): a document against a folder or list of
//! sources. Every sentence of the document is attributed to its best source sentence, the
//! sources are ranked by the share of the document found in each, and any source or sentence
//! opens its pair side by side in the Texts view.
//!
//! The work is [`crate::sources`] (one sentence index over all sources, not a loop over pairs),
//! run in the background like every comparison. Its inputs are read once per Run; moving a
//! threshold or changing the matching options re-attributes from the documents already read.
//! At most one attribution runs at a time: when the settings move while one runs, the next
//! starts from the newest settings as soon as it finishes (a slider drag costs one run more,
//! not one run per frame). The options are the viewer's own ([`crate::app::Settings::compare_options`]),
//! so the containment listed for a source is the one the Texts view shows for that pair.

use std::path::PathBuf;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::app::jobs::JobId;
use crate::app::state::{LoadedDoc, Side};
use crate::app::{JobOutput, Pick, SimdocApp};
use crate::compare::CompareOptions;
use crate::document::{self, Document, LoadOptions};
use crate::render::sources::{SourcesReport, sources_html};
use crate::selection::gather::{GatherRequest, gather};
use crate::selection::{FileSelection, Order};
use crate::similarity::Thresholds;
use crate::sources::{Attribution, SourceIndex};

mod ui;
pub use ui::sources_ui;

/// What a Run read: the document and its sources, kept for re-attribution at new settings.
pub struct SourcesInput {
    pub document: LoadedDoc,
    /// Per source: its name (the path, or `path#id` inside a file holding many documents).
    pub names: Vec<String>,
    pub sources: Vec<Document>,
    /// Files and entries left out, with the reason.
    pub skipped: Vec<String>,
    /// The folder the names are shown relative to, when the sources came from one folder.
    pub base: Option<String>,
}

impl SourcesInput {
    /// A source's name as listed: relative to the sources folder when there is one.
    pub fn display_name(&self, source: usize) -> &str {
        let name = self.names.get(source).map_or("", String::as_str);
        self.base
            .as_deref()
            .and_then(|base| name.strip_prefix(base))
            .map_or(name, |rest| rest.trim_start_matches('/'))
    }
}

/// One finished attribution, with the settings it ran under.
pub struct SourcesRun {
    pub input: Arc<SourcesInput>,
    pub attribution: Attribution,
    /// [`Attribution::ranks`], looked up for every sentence drawn.
    pub ranks: FxHashMap<usize, usize>,
    pub thresholds: Thresholds,
    pub options: CompareOptions,
}

impl SourcesRun {
    /// The rank (0 = the source holding most of the document) of a listed source, by source
    /// id: the colour of a source is the colour of its rank, as in the HTML report.
    pub fn rank_of(&self, source: usize) -> Option<usize> {
        self.ranks.get(&source).copied()
    }

    /// The report the HTML export renders.
    fn report<'a>(&'a self, document_path: &'a str) -> SourcesReport<'a> {
        SourcesReport {
            document_path,
            document: &self.input.document.doc,
            source_paths: &self.input.names,
            sources: &self.input.sources,
            attribution: &self.attribution,
            thresholds: self.thresholds,
        }
    }
}

/// The Sources view's state.
#[derive(Default)]
pub struct SourcesState {
    /// The document's path; empty: document A.
    pub document: String,
    /// The sources: folders or files, separated by `;`.
    pub sources: String,
    /// The last attribution finished.
    pub run: Option<Arc<SourcesRun>>,
    /// The attribution in flight, if any.
    job: Option<JobId>,
    /// Raised for each Run; results of an older Run are dropped.
    generation: u64,
    /// The settings of the last attribution started: the view follows the settings when they
    /// move away from these, so that a run that was cancelled or failed is not started again
    /// for the same settings (see [`SimdocApp::follow_sources_settings`]).
    attempted: Option<(Thresholds, CompareOptions)>,
    /// The source under the pointer in the list: its sentences are outlined in the text.
    pub hovered_source: Option<usize>,
    /// The document sentence under the pointer in the text, if any.
    pub hovered_sentence: Option<u32>,
    /// The heights of the document's blocks as last laid out (see [`BlockHeights`]).
    pub block_heights: BlockHeights,
}

/// The height of each block of the document in the Sources view, as last laid out, for the
/// document and width they were laid out for. A block out of sight takes its height without
/// being laid out again, so a frame costs the blocks in view, not the whole document (the
/// Texts pane does the same with its sentence places).
#[derive(Default)]
pub struct BlockHeights {
    /// The document (its address while it lives) and the width, in whole points.
    key: Option<(usize, i32)>,
    /// By node index; `None` until the block was laid out once.
    heights: Vec<Option<f32>>,
}

impl BlockHeights {
    /// Forgets the heights unless they were measured for `doc` at `width`.
    pub fn keep_for(&mut self, doc: &Arc<Document>, width: f32) {
        let key = (Arc::as_ptr(doc) as usize, width.round() as i32);
        if self.key != Some(key) {
            self.key = Some(key);
            self.heights = vec![None; doc.nodes.len()];
        }
    }

    pub fn get(&self, node: usize) -> Option<f32> {
        self.heights.get(node).copied().flatten()
    }

    pub fn set(&mut self, node: usize, height: f32) {
        if let Some(slot) = self.heights.get_mut(node) {
            *slot = Some(height);
        }
    }
}

/// Splits the sources field: `;`-separated paths, blanks ignored.
pub fn source_paths(field: &str) -> Vec<PathBuf> {
    field
        .split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .collect()
}

impl SimdocApp {
    /// Whether an attribution is running.
    pub fn sources_busy(&self) -> bool {
        self.sources.job.is_some()
    }

    /// Reads the document (the path typed, or A) and the sources typed, then attributes, in the
    /// background.
    pub fn run_sources(&mut self) {
        let paths = source_paths(&self.sources.sources);
        if paths.is_empty() {
            self.notice("Give a folder or files of sources first.".to_string());
            return;
        }
        let typed = self.sources.document.trim().to_string();
        let document = if typed.is_empty() {
            match &self.docs[Side::Left.index()] {
                Some(a) => DocumentChoice::Loaded(a.clone()),
                None => {
                    self.notice(
                        "Open a document A or type the path of the document whose sources \
                         are sought."
                            .to_string(),
                    );
                    return;
                }
            }
        } else {
            DocumentChoice::File(PathBuf::from(typed))
        };
        let label = format!("Sources: reading {} path(s)", paths.len());
        self.spawn_sources(label, move |_| read_input(document, &paths).map(Arc::new));
    }

    /// Attributes again from the documents last read, under the current settings.
    fn rerun_sources(&mut self, input: Arc<SourcesInput>) {
        let label = format!("Sources: matching against {} sources", input.sources.len());
        self.spawn_sources(label, move |_| Ok(input));
    }

    /// Spawns an attribution of what `input` yields, under the current settings.
    fn spawn_sources(
        &mut self,
        label: String,
        input: impl FnOnce(&std::sync::atomic::AtomicBool) -> Result<Arc<SourcesInput>, String>
        + Send
        + 'static,
    ) {
        if let Some(job) = self.sources.job {
            self.jobs.cancel_where(|j| j.id == job);
        }
        self.sources.generation += 1;
        let generation = self.sources.generation;
        let (thresholds, options) = self.sources_matching();
        self.sources.attempted = Some((thresholds, options));
        let model = Arc::clone(&self.model);
        let repaint = self.repainter();
        let id = self.jobs.spawn(label, repaint, move |cancel| {
            let result = input(cancel).and_then(|input| {
                let mut index = SourceIndex::new(&input.sources, &*model, &options);
                let attribution = index
                    .attribute(&input.document.doc, &*model, &thresholds, cancel)
                    .map_err(|e| e.to_string())?;
                drop(index);
                Ok(Box::new(SourcesRun {
                    input,
                    ranks: attribution.ranks(),
                    attribution,
                    thresholds,
                    options,
                }))
            });
            JobOutput::Sources { generation, result }
        });
        self.sources.job = Some(id);
    }

    /// Takes in a finished attribution.
    pub(super) fn sources_finished(
        &mut self,
        id: JobId,
        generation: u64,
        result: Result<Box<SourcesRun>, String>,
    ) {
        if Some(id) == self.sources.job {
            self.sources.job = None;
        }
        if generation != self.sources.generation {
            return;
        }
        match result {
            Ok(run) => {
                self.sources.run = Some(Arc::from(run));
            }
            Err(error) => self.error(error),
        }
    }

    /// Re-attributes when the thresholds or the matching options moved since the last run was
    /// started, and nothing runs (see the module docs).
    pub(super) fn follow_sources_settings(&mut self) {
        let Some(run) = &self.sources.run else { return };
        if self.sources.job.is_some() {
            return;
        }
        let now = self.sources_matching();
        if self.sources.attempted != Some(now) {
            let input = Arc::clone(&run.input);
            self.rerun_sources(input);
        }
    }

    /// The thresholds and options an attribution runs with: the current settings, as
    /// `simdoc sources` runs with its preset's. Judged against chance (the default), the
    /// document is searched against every source at once and each source's passages are judged
    /// with E-values over the whole pool ([`crate::sources`]); under the presets scored by
    /// Sims, every pair at the permission counts.
    fn sources_matching(&self) -> (Thresholds, CompareOptions) {
        (self.settings.thresholds, self.settings.compare_options())
    }

    /// Opens the document (as A) and `source` (as B) side by side in the Texts view; with
    /// `sentences` (document sentence, source sentence), that pair is selected and shown.
    /// The pair is compared under the same settings (see [`Self::sources_matching`]); judged
    /// against chance its E-values count this one source, not the whole pool, so it shows at
    /// least what the list showed.
    pub fn open_source_pair(&mut self, source: usize, sentences: Option<(u32, u32)>) {
        let Some(run) = self.sources.run.clone() else {
            return;
        };
        let Some(doc) = run.input.sources.get(source) else {
            return;
        };
        let left = run.input.document.clone();
        let right = LoadedDoc {
            path: PathBuf::from(&run.input.names[source]),
            doc: Arc::new(doc.clone()),
        };
        self.show_pair(left, right);
        if let Some((sentence, source_sentence)) = sentences {
            self.selection.pair = Some((sentence, source_sentence));
            self.selection.scroll_to = [Some(sentence), Some(source_sentence)];
        }
    }

    /// Opens the pair of a document sentence's attributed source, at that sentence.
    pub fn open_sentence_source(&mut self, sentence: u32) {
        let attributed = self.sources.run.as_ref().and_then(|run| {
            run.attribution
                .sentences
                .get(sentence as usize)
                .copied()
                .flatten()
        });
        if let Some(a) = attributed {
            self.open_source_pair(a.source, Some((sentence, a.source_sentence)));
        }
    }

    /// Asks where to save the HTML report of the last attribution (or saves it in the working
    /// folder when no dialog is available).
    pub fn pick_sources_export(&mut self) {
        let Some(run) = &self.sources.run else { return };
        let stem = run
            .input
            .document
            .path
            .file_stem()
            .map_or_else(|| "document".into(), |s| s.to_string_lossy().into_owned());
        let name = format!("{stem}-sources.html");
        self.ask_where_to_save(Pick::SourcesReport, "Sources report as HTML", name, "html");
    }

    /// Writes the HTML report of the last attribution to `path`, in the background.
    pub fn export_sources(&mut self, path: PathBuf) {
        let Some(run) = self.sources.run.clone() else {
            return;
        };
        let repaint = self.repainter();
        self.jobs.spawn(
            format!("Exporting {}", path.display()),
            repaint,
            move |_| {
                let document_path = run.input.document.path.display().to_string();
                let html = sources_html(&run.report(&document_path));
                let result = crate::write::write_file(&path, html.as_bytes())
                    .map(|()| format!("Exported {}", path.display()))
                    .map_err(|e| format!("cannot export: {e}"));
                JobOutput::Exported { result }
            },
        );
    }

    /// Opens a file dialog for the Sources view: the document, a folder of sources, or files
    /// added to the sources.
    pub fn pick_for_sources(&mut self, purpose: Pick) {
        let repaint = self.repainter();
        self.jobs.spawn("Choosing", repaint, move |_| {
            let dialog = rfd::FileDialog::new();
            let paths = match purpose {
                Pick::SourcesFolder => dialog.pick_folder().into_iter().collect(),
                Pick::SourcesFiles => dialog.pick_files().unwrap_or_default(),
                _ => dialog
                    .add_filter("Documents", crate::document::EXTENSIONS)
                    .add_filter("All files", &["*"])
                    .pick_file()
                    .into_iter()
                    .collect(),
            };
            JobOutput::PickedMany { purpose, paths }
        });
    }

    /// Puts paths chosen in a dialog into the Sources view's fields.
    pub(super) fn sources_picked(&mut self, purpose: Pick, paths: Vec<PathBuf>) {
        let joined = |paths: &[PathBuf]| {
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join("; ")
        };
        match purpose {
            Pick::SourcesFolder => {
                if !paths.is_empty() {
                    self.sources.sources = joined(&paths);
                }
            }
            Pick::SourcesFiles => {
                let mut all = source_paths(&self.sources.sources);
                for path in paths {
                    if !all.contains(&path) {
                        all.push(path);
                    }
                }
                self.sources.sources = joined(&all);
            }
            _ => {
                if let Some(path) = paths.into_iter().next() {
                    self.sources.document = path.display().to_string();
                }
            }
        }
    }
}

/// Which document the sources are sought for.
enum DocumentChoice {
    /// Document A, already loaded.
    Loaded(LoadedDoc),
    File(PathBuf),
}

/// Reads the document and every source under `paths` (folders are walked; files describing a
/// folder are left out, as in collection mode). The document itself is no source of its own.
fn read_input(document: DocumentChoice, paths: &[PathBuf]) -> Result<SourcesInput, String> {
    let document = match document {
        DocumentChoice::Loaded(loaded) => loaded,
        DocumentChoice::File(path) => {
            let doc = document::load(&path, &LoadOptions::default()).map_err(|e| e.to_string())?;
            LoadedDoc {
                path,
                doc: Arc::new(doc),
            }
        }
    };
    // Read as `simdoc sources` reads its pool (the same selection, order and limits).
    let never = std::sync::atomic::AtomicBool::new(false);
    let gathered = gather(
        &GatherRequest {
            sources: paths,
            paths: &[],
            selection: &FileSelection::default(),
            order: &Order::Name,
            load: &LoadOptions::default(),
            except: Some(&document.path),
        },
        &mut |_, _| {},
        &never,
    )
    .map_err(|e| e.to_string())?;
    let skipped = gathered.left_out();
    let (names, sources) = (gathered.names, gathered.documents);
    if sources.is_empty() {
        return Err("No source could be read from the paths given.".to_string());
    }
    let base = match paths {
        [one] if one.is_dir() => Some(one.display().to_string()),
        _ => None,
    };
    Ok(SourcesInput {
        document,
        names,
        sources,
        skipped,
        base,
    })
}
