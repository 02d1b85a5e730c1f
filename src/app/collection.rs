//! Collection mode in the viewer: pick a folder and a detector, run it in the background, read
//! the ranked pairs, the duplicate groups and the odds-ratio matrix
//! ([`super::collection_matrix`]), open any pair side by side.
//! An optional folder of sources marks those documents as sources: their pairs with the
//! submissions are listed first, with the source as the container
//! ([`crate::collection::roles`]), as `simdoc collection --sources` does. Files that describe a
//! folder (README, SOURCE, LICENSE, ...) are left out and listed with the skipped files.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use egui::{Rect, Sense};

use super::collection_lists::ListTab;
use super::state::{CentralView, LoadedDoc, Side};
use super::{JobOutput, Pick, SimdocApp};
use crate::collection::roles::{PairKind, RoledPairs};
use crate::collection::{self, Collection, DetectedPair, Job, Normaliser, Progress, fuzzy};
use crate::corpus;
use crate::document::{Document, LoadOptions};
use crate::model::ReferenceModel;
use crate::selection::FileSelection;

/// Most documents the heatmap (the pairwise fuzzy comparison) is computed for.
const MAX_MATRIX: usize = 300;

/// The detectors offered, by name.
pub const METHODS: [&str; 8] = [
    "fuzzy", "codet", "ffp", "dsc", "imatch", "simhash", "qsign", "roul",
];

fn method_title(name: &str) -> &'static str {
    match name {
        "fuzzy" => "Fuzzy-set IR (thesis, odds ratios)",
        "codet" => "CoDet (containment)",
        "ffp" => "Full fingerprinting",
        "dsc" => "DSC",
        "imatch" => "I-Match",
        "simhash" => "SimHash",
        "qsign" => "qSign",
        _ => "Roul et al. (SimHash + LSI)",
    }
}

/// What a finished collection run produced.
pub struct CollectionResult {
    pub method: &'static str,
    pub names: Vec<String>,
    pub documents: Vec<Arc<Document>>,
    /// Ranked by score, highest first; with sources, the submission-source pairs first.
    pub pairs: Vec<(PairKind, DetectedPair)>,
    /// How many of the documents (the first ones) are sources.
    pub sources: usize,
    pub groups: Vec<Vec<usize>>,
    /// What the detector found, as the HTML report reads it.
    pub detection: collection::Detection,
    /// The odds-ratio matrix, for collections of up to [`MAX_MATRIX`] documents.
    pub matrix: Option<Vec<Vec<f64>>>,
    /// Files that could not be read, with the reason.
    pub skipped: Vec<String>,
}

/// Collection mode state.
#[derive(Default)]
pub struct CollectionState {
    pub folder: String,
    /// An optional folder of sources.
    pub sources: String,
    pub method: usize,
    pub result: Option<Arc<CollectionResult>>,
    /// The running job's last progress report.
    pub progress: Arc<Mutex<Option<Progress>>>,
    /// Pairs or groups.
    pub tab: ListTab,
}

impl SimdocApp {
    /// Runs a detector over every document under `folder`, in the background.
    pub fn run_collection(&mut self, folder: PathBuf) {
        let method = METHODS[self.collection.method.min(METHODS.len() - 1)];
        let progress = Arc::clone(&self.collection.progress);
        let thresholds = self.settings.thresholds;
        let include_boilerplate = self.settings.include_boilerplate;
        let repaint = self.repainter();
        let sources = Some(self.collection.sources.trim())
            .filter(|s| !s.is_empty())
            .map(PathBuf::from);
        let label = format!("Collection: {} over {}", method, folder.display());
        self.jobs.spawn(label, repaint, move |cancel| {
            let mut report = |p: Progress| {
                if let Ok(mut slot) = progress.lock() {
                    *slot = Some(p);
                }
            };
            let mut job = Job::new(&mut report, cancel);
            let result = run(
                &folder,
                sources.as_deref(),
                method,
                thresholds,
                include_boilerplate,
                &mut job,
            );
            JobOutput::Collection { result }
        });
    }

    /// Opens two documents of the collection result side by side.
    pub fn open_collection_pair(&mut self, a: usize, b: usize) {
        let Some(result) = &self.collection.result else {
            return;
        };
        if result.documents.is_empty() {
            // A result read from simdoc-spark's tables holds names only: load both documents
            // from their files in the background.
            let names = [a, b].map(|i| result.names.get(i).cloned());
            if let [Some(left), Some(right)] = names {
                self.settings.central_view = CentralView::Texts;
                self.open_entry(Side::Left, left);
                self.open_entry(Side::Right, right);
            }
            return;
        }
        let loaded = |i: usize| {
            result.documents.get(i).map(|doc| LoadedDoc {
                path: PathBuf::from(&result.names[i]),
                doc: Arc::clone(doc),
            })
        };
        if let (Some(left), Some(right)) = (loaded(a), loaded(b)) {
            self.show_pair(left, right);
        }
    }
}

impl SimdocApp {
    /// Loads a collection entry by its name (a file path, or `path#id` inside a container file
    /// such as Reuters SGML) into `side`, in the background.
    fn open_entry(&mut self, side: Side, name: String) {
        let repaint = self.repainter();
        self.jobs
            .spawn(format!("Loading {name}"), repaint, move |_cancel| {
                let path = PathBuf::from(name.split_once('#').map_or(name.as_str(), |(p, _)| p));
                let result = corpus::read_entries(&path, &LoadOptions::default())
                    .map_err(|e| e.to_string())
                    .and_then(|entries| {
                        entries
                            .into_iter()
                            .find(|e| e.name == name)
                            .ok_or_else(|| format!("{name}: not found in {}", path.display()))
                    })
                    .map(|entry| LoadedDoc {
                        path: PathBuf::from(&name),
                        doc: Arc::new(entry.to_document()),
                    });
                JobOutput::Loaded {
                    side,
                    path: PathBuf::from(&name),
                    result,
                }
            });
    }
}

/// A result that simdoc-spark wrote (a folder with run.json and Parquet tables), shown as a
/// run here would be; its documents are loaded from their files when a pair is opened.
fn from_tables(folder: &std::path::Path) -> Result<CollectionResult, String> {
    let read = collection::tables::read_results(folder).map_err(|e| e.to_string())?;
    let method = METHODS
        .iter()
        .copied()
        .find(|m| *m == read.method)
        .ok_or_else(|| format!("{}: unknown method {}", folder.display(), read.method))?;
    let pairs = RoledPairs::split(&read.detection.pairs, &[])
        .iter()
        .map(|(kind, p)| (kind, *p))
        .collect();
    Ok(CollectionResult {
        method,
        names: read.names,
        documents: Vec::new(),
        pairs,
        sources: 0,
        groups: read.detection.groups.clone(),
        detection: read.detection,
        matrix: None,
        skipped: read.unreadable.into_iter().map(|u| u.error).collect(),
    })
}

/// The files of `folder` that are documents, in name order; files describing the folder
/// (README, SOURCE, LICENSE, ...) are left out and listed in `skipped`.
fn folder_files(
    folder: &std::path::Path,
    skipped: &mut Vec<String>,
) -> Result<Vec<PathBuf>, String> {
    let selected = FileSelection::default()
        .list(&[folder.to_path_buf()])
        .map_err(|e| e.to_string())?;
    for (path, reason) in selected.skipped {
        skipped.push(format!("{}: {}", path.display(), reason.describe()));
    }
    Ok(selected.files)
}

fn run(
    folder: &std::path::Path,
    sources: Option<&std::path::Path>,
    method: &'static str,
    thresholds: crate::similarity::Thresholds,
    include_boilerplate: bool,
    job: &mut Job<'_>,
) -> Result<CollectionResult, String> {
    if folder.join("run.json").is_file() {
        return from_tables(folder);
    }
    let mut skipped = Vec::new();
    // Sources first in the stream; a file under both folders is a source.
    let source_files = match sources {
        Some(dir) => folder_files(dir, &mut skipped)?,
        None => Vec::new(),
    };
    let mut files = source_files.clone();
    for file in folder_files(folder, &mut skipped)? {
        if !source_files.contains(&file) {
            files.push(file);
        }
    }
    let mut names = Vec::new();
    let mut documents = Vec::new();
    let mut source_count = 0;
    for (i, file) in files.iter().enumerate() {
        job.step("reading", i, files.len())
            .map_err(|e| e.to_string())?;
        match corpus::read_entries(file, &LoadOptions::default()) {
            Ok(entries) => {
                for entry in entries {
                    let entry_name = entry.name.clone();
                    let doc = entry.into_document();
                    if doc.sentences.is_empty() {
                        skipped.push(format!("{entry_name}: holds no readable text"));
                    } else {
                        // Named relative to the folder: the folder part is the same for all.
                        let is_source = i < source_files.len();
                        let base = match sources {
                            Some(dir) if is_source => dir,
                            _ => folder,
                        };
                        let prefix = format!("{}/", base.display());
                        let name = entry_name.strip_prefix(&prefix).unwrap_or(&entry_name);
                        names.push(if is_source {
                            format!("source: {name}")
                        } else {
                            name.to_string()
                        });
                        documents.push(doc);
                        source_count += usize::from(is_source);
                    }
                }
            }
            Err(err) => skipped.push(err.to_string()),
        }
    }
    if documents.is_empty() {
        return Err(format!("{}: no readable document", folder.display()));
    }
    let model = ReferenceModel::embedded();
    let params = fuzzy::FuzzyParams {
        thresholds,
        include_boilerplate,
        ..fuzzy::FuzzyParams::default()
    };
    let resemblances = if method == "fuzzy" || documents.len() <= MAX_MATRIX {
        Some(fuzzy::resemblances(&documents, model, &params, job).map_err(|e| e.to_string())?)
    } else {
        None
    };
    let collection = Collection::from_documents(names.clone(), &documents, Normaliser::Refine, job)
        .map_err(|e| e.to_string())?;
    let detection = if method == "fuzzy" {
        let pairs = resemblances
            .as_ref()
            .map(|r| r.pairs(params.containment))
            .unwrap_or_default();
        collection::Detection::from_pairs(pairs, &collection)
    } else {
        let detector = collection::Method::all_defaults()
            .into_iter()
            .find(|m| m.name() == method)
            .ok_or_else(|| format!("unknown method {method}"))?;
        detector
            .detect(&collection, job)
            .map_err(|e| e.to_string())?
    };
    let is_source: Vec<bool> = (0..documents.len()).map(|d| d < source_count).collect();
    let pairs = RoledPairs::split(&detection.pairs, &is_source)
        .iter()
        .map(|(kind, p)| (kind, *p))
        .collect();
    let matrix = resemblances
        .filter(|_| documents.len() <= MAX_MATRIX)
        .map(|r| r.odds_matrix());
    Ok(CollectionResult {
        method,
        names,
        documents: documents.into_iter().map(Arc::new).collect(),
        pairs,
        sources: source_count,
        groups: detection.groups.clone(),
        detection,
        matrix,
        skipped,
    })
}

/// The collection view.
pub fn collection_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Folder");
        ui.add(
            egui::TextEdit::singleline(&mut app.collection.folder)
                .hint_text("/path/to/folder")
                .desired_width(320.0),
        )
        .labelled_by(label.id);
        if ui.button("Choose folder…").clicked() {
            let repaint = app.repainter();
            app.jobs
                .spawn("Choosing a folder", repaint, |_| JobOutput::Picked {
                    purpose: Pick::Folder,
                    path: rfd::FileDialog::new().pick_folder(),
                });
        }
        let sources = ui.label("Sources (optional)");
        ui.add(
            egui::TextEdit::singleline(&mut app.collection.sources)
                .hint_text("/path/to/sources")
                .desired_width(220.0),
        )
        .on_hover_text(
            "A folder of sources: their pairs with the documents of the folder above (the \
             submissions) are listed first, the source as the container; pairs of two sources \
             are left out.",
        )
        .labelled_by(sources.id);
        let detector = ui.label("Detector");
        egui::ComboBox::from_id_salt("collection_method")
            .selected_text(method_title(METHODS[app.collection.method]))
            .show_ui(ui, |ui| {
                for (i, name) in METHODS.iter().enumerate() {
                    ui.selectable_value(&mut app.collection.method, i, method_title(name));
                }
            })
            .response
            .labelled_by(detector.id);
        let ready = !app.collection.folder.trim().is_empty();
        if ui.add_enabled(ready, egui::Button::new("Run")).clicked() {
            let folder = PathBuf::from(app.collection.folder.trim());
            app.run_collection(folder);
        }
        let exportable = app.collection.result.is_some();
        if ui
            .add_enabled(exportable, egui::Button::new("Export HTML report…"))
            .on_hover_text(
                "The report of simdoc collection --html: the pairs ranked with their evidence \
                 (containment both ways, passages), submissions by source, the matrix, the \
                 duplicate groups",
            )
            .clicked()
        {
            app.pick_collection_export();
        }
    });
    if let Ok(progress) = app.collection.progress.lock()
        && let Some(p) = *progress
        && app
            .jobs
            .running()
            .iter()
            .any(|j| j.label.starts_with("Collection"))
    {
        ui.add(
            egui::ProgressBar::new(if p.total == 0 {
                0.0
            } else {
                p.done as f32 / p.total as f32
            })
            .text(format!("{} {}/{}", p.stage, p.done, p.total)),
        );
    }
    ui.separator();
    let Some(result) = &app.collection.result else {
        ui.weak(
            "Pick a folder of documents (HTML, text, DOCX, ODT, PDF or EPUB; WikiExtractor and \
             Reuters SGML files hold many documents each) and a detector, then Run. Any pair \
             found opens side by side. A folder of results from simdoc-spark (run.json and \
             Parquet tables) shows those.",
        );
        return;
    };
    ui.label(format!(
        "{}: {} documents{}, {} pairs ranked by score, {} duplicate groups{}",
        method_title(result.method),
        result.names.len(),
        if result.sources > 0 {
            format!(" ({} sources)", result.sources)
        } else {
            String::new()
        },
        result.pairs.len(),
        result.groups.len(),
        if result.skipped.is_empty() {
            String::new()
        } else {
            format!(", {} files skipped", result.skipped.len())
        }
    ))
    .on_hover_text(result.skipped.join("\n"));
    let mut open: Option<(usize, usize)> = None;
    let area = ui.available_rect_before_wrap();
    let matrix_width = result
        .matrix
        .as_ref()
        .map_or(0.0, |m| super::collection_matrix::layout(area, m.len()).1);
    let list_rect = Rect::from_min_max(
        area.min,
        egui::pos2(area.max.x - matrix_width - 12.0, area.max.y),
    );
    let mut list = ui.new_child(
        egui::UiBuilder::new()
            .max_rect(list_rect)
            .layout(egui::Layout::top_down(egui::Align::Min)),
    );
    list.set_clip_rect(list_rect.intersect(ui.clip_rect()));
    list.horizontal(|ui| {
        ui.selectable_value(&mut app.collection.tab, ListTab::Pairs, "Ranked pairs");
        ui.selectable_value(
            &mut app.collection.tab,
            ListTab::Groups,
            format!("Duplicate groups ({})", result.groups.len()),
        );
    });
    match app.collection.tab {
        ListTab::Pairs => super::collection_lists::pair_list_ui(result, &mut list, &mut open),
        ListTab::Groups => super::collection_lists::group_list_ui(result, &mut list, &mut open),
    }
    if let Some(matrix) = &result.matrix
        && let Some(pair) = super::collection_matrix::matrix_ui(ui, area, matrix, &result.names)
    {
        open = Some(pair);
    }
    ui.allocate_rect(area, Sense::hover());
    if let Some((a, b)) = open {
        app.open_collection_pair(a, b);
    }
}

/// The last 50 characters of a document name (its file part is what tells documents apart).
pub fn short(name: &str) -> String {
    let count = name.chars().count();
    if count <= 50 {
        name.to_string()
    } else {
        let tail: String = name.chars().skip(count - 49).collect();
        format!("…{tail}")
    }
}
