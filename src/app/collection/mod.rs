//! Collection mode in the viewer: pick a folder and a detector, run it in the background, read
//! the ranked pairs, the duplicate groups and the odds-ratio matrix
//! ([`matrix`]), open any pair side by side.
//! An optional folder of sources marks those documents as sources: their pairs with the
//! submissions are listed first, with the source as the container
//! ([`crate::collection::roles`]), as `simdoc collection --sources` does, and the pairs of
//! submissions are ranked by what they share beyond the sources ([`ranking`]), as that command
//! and the exported report rank them. Files that describe a
//! folder (README, SOURCE, LICENSE, ...) are left out and listed with the skipped files.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use egui::{Rect, Sense};

mod export;
mod histogram;
mod lists;
mod matrix;
mod ranking;
mod result;
mod run;

use lists::ListTab;
pub use result::CollectionResult;

use super::state::{CentralView, LoadedDoc, Side};
use super::{JobOutput, Pick, SimdocApp};
use crate::collection::presets::{CollectionPreset, Detector};
use crate::collection::{Job, Progress};
use crate::corpus;
use crate::document::LoadOptions;

/// The detector's name as the viewer shows it.
fn detector_title(detector: Detector) -> &'static str {
    match detector {
        Detector::Fuzzy => "Fuzzy-set IR (thesis, odds ratios)",
        Detector::CoDet => "CoDet (containment)",
        Detector::Ffp => "Full fingerprinting",
        Detector::Dsc => "DSC",
        Detector::IMatch => "I-Match",
        Detector::SimHash => "SimHash",
        Detector::QSign => "qSign",
        Detector::Roul => "Roul et al. (SimHash + LSI)",
    }
}

/// The preset's name as the viewer shows it, with the question it answers.
fn preset_title(preset: CollectionPreset) -> &'static str {
    match preset {
        CollectionPreset::Paper => "Paper (each paper's settings)",
        CollectionPreset::Teacher => "Teacher (submissions against sources)",
        CollectionPreset::News => "News (versions of one story)",
        CollectionPreset::Documents => "Documents (passages any two share)",
    }
}

/// Collection mode state.
#[derive(Default)]
pub struct CollectionState {
    pub folder: String,
    /// An optional folder of sources.
    pub sources: String,
    /// The preset chosen; none: the one for the question asked
    /// ([`CollectionPreset::for_question`]), as `simdoc collection` picks it.
    pub preset: Option<CollectionPreset>,
    /// The detector chosen; none: the preset's.
    pub detector: Option<Detector>,
    pub result: Option<Arc<CollectionResult>>,
    /// The running job's last progress report.
    pub progress: Arc<Mutex<Option<Progress>>>,
    /// Pairs or groups.
    pub tab: ListTab,
    /// The pair list's sort, search and smallest score.
    pub pair_list: lists::PairListState,
}

impl CollectionState {
    /// The preset and detector a run would use: the ones chosen, else the preset for the
    /// question (`with_sources`) and its detector.
    pub fn chosen(&self, with_sources: bool) -> (CollectionPreset, Detector) {
        let preset = self
            .preset
            .unwrap_or(CollectionPreset::for_question(with_sources));
        (preset, self.detector.unwrap_or(preset.params().detector))
    }
}

impl SimdocApp {
    /// Runs a detector over every document under `folder`, in the background.
    pub fn run_collection(&mut self, folder: PathBuf) {
        let progress = Arc::clone(&self.collection.progress);
        let include_boilerplate = self.settings.include_boilerplate;
        let repaint = self.repainter();
        let sources = Some(self.collection.sources.trim())
            .filter(|s| !s.is_empty())
            .map(PathBuf::from);
        let (preset, detector) = self.collection.chosen(sources.is_some());
        let model = Arc::clone(&self.model);
        let label = format!(
            "Collection: {} ({} preset) over {}",
            detector.name(),
            preset.name(),
            folder.display()
        );
        self.jobs.spawn(label, repaint, move |cancel| {
            let mut report = |p: Progress| {
                if let Ok(mut slot) = progress.lock() {
                    *slot = Some(p);
                }
            };
            let mut job = Job::new(&mut report, cancel);
            let result = run::run(
                &folder,
                sources.as_deref(),
                (preset, detector),
                include_boilerplate,
                &*model,
                &mut job,
            );
            JobOutput::Collection {
                result: result.map(Box::new),
            }
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

/// The collection view.
pub fn collection_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    // Where the documents are.
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
    });
    // What to run on a row of its own, so that Run stays in one place whatever the menus say.
    ui.horizontal_wrapped(|ui| {
        let with_sources = !app.collection.sources.trim().is_empty();
        let (preset, detector) = app.collection.chosen(with_sources);
        let preset_label = ui.label("Collection preset");
        egui::ComboBox::from_id_salt("collection_preset")
            .width(230.0)
            .selected_text(match app.collection.preset {
                Some(chosen) => preset_title(chosen).to_string(),
                None => format!("For the question: {}", preset.name()),
            })
            .show_ui(ui, |ui| {
                ui.selectable_value(
                    &mut app.collection.preset,
                    None,
                    "For the question (teacher with sources, else documents)",
                );
                for (_, choice) in CollectionPreset::NAMED {
                    ui.selectable_value(
                        &mut app.collection.preset,
                        Some(choice),
                        preset_title(choice),
                    );
                }
            })
            .response
            .on_hover_text(
                "Every detector's settings, chosen on data for a question (EVALUATION.md, \
                 \"Collection presets\"), as simdoc collection --preset",
            )
            .labelled_by(preset_label.id);
        let detector_label = ui.label("Detector");
        egui::ComboBox::from_id_salt("collection_method")
            .width(300.0)
            .selected_text(match app.collection.detector {
                Some(chosen) => detector_title(chosen).to_string(),
                None => format!("The preset's: {}", detector_title(detector)),
            })
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut app.collection.detector, None, "The preset's");
                for choice in Detector::ALL {
                    ui.selectable_value(
                        &mut app.collection.detector,
                        Some(choice),
                        detector_title(choice),
                    );
                }
            })
            .response
            .labelled_by(detector_label.id);
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
    use crate::render::counted;
    ui.label(format!(
        "{}{}: {}{}, {} ranked by score{}, {}{}",
        detector_title(result.detector),
        result
            .preset
            .map(|p| format!(" with the {} preset", p.name()))
            .unwrap_or_default(),
        counted(result.names.len(), "document", "documents"),
        if result.sources > 0 {
            format!(" ({})", counted(result.sources, "source", "sources"))
        } else {
            String::new()
        },
        counted(result.pairs.len(), "pair", "pairs"),
        if result.is_discount_ranked() {
            " (the submissions' pairs by what they share beyond the sources)"
        } else {
            ""
        },
        counted(result.groups.len(), "duplicate group", "duplicate groups"),
        if result.skipped.is_empty() {
            String::new()
        } else {
            format!(
                ", {} skipped",
                counted(result.skipped.len(), "file", "files")
            )
        }
    ))
    .on_hover_text(result.skipped.join("\n"));
    // The ranking's note first, at the list's size: it says why the scores of the
    // submissions' pairs are not in order, as the exported report says it.
    if let Some(note) = &result.ranking_note {
        ui.label(egui::RichText::new(note).weak());
    }
    for note in &result.notes {
        ui.label(egui::RichText::new(note).small().weak());
    }
    let mut open: Option<(usize, usize)> = None;
    let area = ui.available_rect_before_wrap();
    let matrix_width = result
        .matrix
        .as_ref()
        .map_or(0.0, |m| matrix::layout(area, m.len()).1);
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
        ListTab::Pairs => {
            lists::pair_list_ui(result, &mut app.collection.pair_list, &mut list, &mut open);
        }
        ListTab::Groups => lists::group_list_ui(result, &mut list, &mut open),
    }
    if let Some(matrix) = &result.matrix
        && let Some(pair) = matrix::matrix_ui(ui, area, matrix, &result.names)
    {
        open = Some(pair);
    }
    ui.allocate_rect(area, Sense::hover());
    if let Some((a, b)) = open {
        app.open_collection_pair(a, b);
    }
}
