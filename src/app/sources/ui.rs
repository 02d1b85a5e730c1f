//! Drawing the Sources view ([`super`]): the fields to choose the document and its
//! sources, the sources ranked by the share of the document found in each, and the document's
//! text with every attributed sentence in its source's colour (the palette of the HTML report,
//! [`crate::render::sources::colour_of_rank`], so the two read alike).

use std::sync::Arc;

use egui::text::{LayoutJob, TextFormat};
use egui::{Color32, FontId, Rect, Sense, Stroke, Vec2};

use super::SourcesRun;
use crate::app::{Pick, SimdocApp};
use crate::document::NodeKind;
use crate::render::percent;
use crate::render::sources::colour_of_rank;

const BODY_SIZE: f32 = 14.0;
const HEADING_SIZE: f32 = 18.0;
const BLOCK_GAP: f32 = 8.0;

/// What the user asked for this frame.
enum Action {
    OpenSource(usize),
    OpenSentence(u32),
}

/// A source's colour, by its rank.
fn colour(rank: usize) -> Color32 {
    Color32::from_hex(colour_of_rank(rank)).unwrap_or(Color32::GRAY)
}

/// The Sources view.
pub fn sources_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    app.follow_sources_settings();
    inputs_ui(app, ui);
    ui.separator();
    let Some(run) = app.sources.run.clone() else {
        ui.weak(
            "Choose a document (empty: document A) and the sources to seek it in: a folder \
             (walked; README, LICENSE and the like are left out) or files separated by ';'. \
             Every sentence of the document is attributed to its best source sentence and \
             coloured by its source; click a source or a sentence to open the pair side by side.",
        );
        return;
    };
    summary_ui(&run, ui);
    let area = ui.available_rect_before_wrap();
    let list_width = (area.width() * 0.4).clamp(240.0, 520.0);
    let list_rect = Rect::from_min_size(area.min, Vec2::new(list_width, area.height()));
    let text_rect = Rect::from_min_max(
        egui::pos2(area.min.x + list_width + 12.0, area.min.y),
        area.max,
    );
    let mut action = None;
    let mut list = ui.new_child(
        egui::UiBuilder::new()
            .max_rect(list_rect)
            .layout(egui::Layout::top_down(egui::Align::Min)),
    );
    list.set_clip_rect(list_rect.intersect(ui.clip_rect()));
    app.sources.hovered_source = None;
    source_list_ui(app, &run, &mut list, &mut action);
    let mut text = ui.new_child(
        egui::UiBuilder::new()
            .max_rect(text_rect)
            .layout(egui::Layout::top_down(egui::Align::Min)),
    );
    text.set_clip_rect(text_rect.intersect(ui.clip_rect()));
    document_ui(app, &run, &mut text, &mut action);
    ui.allocate_rect(area, Sense::hover());
    match action {
        Some(Action::OpenSource(source)) => app.open_source_pair(source, None),
        Some(Action::OpenSentence(sentence)) => app.open_sentence_source(sentence),
        None => {}
    }
}

/// The document and sources fields, Run and Export.
fn inputs_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    let dialogs = crate::app::dialogs_available();
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Document");
        let hint = app.docs[0]
            .as_ref()
            .map_or_else(|| "a file".to_string(), |a| format!("A: {}", a.file_name()));
        ui.add(
            egui::TextEdit::singleline(&mut app.sources.document)
                .hint_text(hint)
                .desired_width(240.0),
        )
        .labelled_by(label.id)
        .on_hover_text("The document whose sources are sought; empty: document A.");
        if dialogs && ui.button("Choose…").clicked() {
            app.pick_for_sources(Pick::Open(crate::app::Side::Left));
        }
        ui.separator();
        let label = ui.label("Sources folder or files");
        ui.add(
            egui::TextEdit::singleline(&mut app.sources.sources)
                .hint_text("a folder, or files separated by ;")
                .desired_width(300.0),
        )
        .labelled_by(label.id)
        .on_hover_text(
            "A folder of sources (walked; README, SOURCE, LICENSE and hidden files are left \
             out), or files, separated by ';'. The document itself is left out if it is among \
             them.",
        );
        if dialogs {
            if ui.button("Choose folder…").clicked() {
                app.pick_for_sources(Pick::SourcesFolder);
            }
            if ui.button("Add files…").clicked() {
                app.pick_for_sources(Pick::SourcesFiles);
            }
        }
        ui.separator();
        // The matching is the toolbar's; a class's teacher wants collection mode's.
        let teacher = crate::compare::Preset::TEACHER;
        let active = app.settings.preset() == teacher;
        let purpose = teacher.named_preset().map_or(String::new(), |p| {
            crate::app::toolbar::capitalised(p.purpose)
        });
        if ui
            .add(egui::Button::selectable(active, "Teacher preset"))
            .on_hover_text(purpose)
            .clicked()
            && !active
        {
            app.set_preset(teacher);
        }
        let ready = !app.sources.sources.trim().is_empty();
        if ui.add_enabled(ready, egui::Button::new("Run")).clicked() {
            app.run_sources();
        }
        if app.sources_busy() {
            ui.spinner();
        }
        let exportable = app.sources.run.is_some();
        if ui
            .add_enabled(exportable, egui::Button::new("Export HTML report…"))
            .clicked()
        {
            app.pick_sources_export();
        }
    });
}

/// One line saying how much of the document the sources hold together.
fn summary_ui(run: &SourcesRun, ui: &mut egui::Ui) {
    let a = &run.attribution;
    let counted = a.counted_sentences();
    let attributed = (a.attributed_share() * counted as f64).round() as usize;
    let name = run.input.document.file_name();
    ui.label(
        egui::RichText::new(format!(
            "{} of {name} is found in its sources: {attributed} of {counted} sentences come \
             from {} of the {} sources",
            percent(a.containment()),
            run.attribution.sources.len(),
            run.input.sources.len(),
        ))
        .heading(),
    )
    .on_hover_text(format!(
        "Each sentence counts with its best similarity into any source (0 without one), as \
         in the pair's containment. Permission {:.3}.{}",
        run.thresholds.permission,
        if run.input.skipped.is_empty() {
            String::new()
        } else {
            format!(
                "\n\n{} files left out:\n{}",
                run.input.skipped.len(),
                run.input.skipped.join("\n")
            )
        }
    ));
    if let Some(note) = a.partners_capped.describe() {
        ui.label(egui::RichText::new(note).small().weak());
    }
}

/// The sources holding some of the document, most first.
fn source_list_ui(
    app: &mut SimdocApp,
    run: &SourcesRun,
    ui: &mut egui::Ui,
    action: &mut Option<Action>,
) {
    let shares = &run.attribution.sources;
    if shares.is_empty() {
        ui.label("No sentence of the document reaches the permission in any source.");
        return;
    }
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    egui::ScrollArea::vertical()
        .id_salt("sources_list")
        .auto_shrink([false, false])
        .show_rows(ui, row_height, shares.len(), |ui, rows| {
            for rank in rows {
                let share = &shares[rank];
                let name = run.input.display_name(share.source);
                ui.horizontal(|ui| {
                    let (swatch, _) = ui.allocate_exact_size(Vec2::splat(12.0), Sense::hover());
                    ui.painter().rect_filled(swatch, 2.0, colour(rank));
                    let text = format!(
                        "{} of the document is found in {name}",
                        percent(share.containment)
                    );
                    let selected = app.sources.hovered_source == Some(share.source);
                    let response = ui
                        .add(egui::Button::selectable(selected, text).truncate())
                        .on_hover_text(format!(
                            "{}\n{} sentences of the document matched; the document uses {} of \
                             this source.\nClick to open the pair side by side.",
                            run.input.names[share.source],
                            share.matched,
                            percent(share.used)
                        ));
                    if response.hovered() {
                        app.sources.hovered_source = Some(share.source);
                    }
                    if response.clicked() {
                        *action = Some(Action::OpenSource(share.source));
                    }
                });
            }
        });
}

/// How a sentence's colour is drawn.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Emphasis {
    Normal,
    Strong,
    Faded,
}

/// The background of a sentence attributed to the source of `rank`.
fn highlight(rank: usize, emphasis: Emphasis, dark: bool) -> Color32 {
    let base = colour(rank);
    let alpha = match emphasis {
        Emphasis::Normal => 70.0,
        Emphasis::Strong => 160.0,
        Emphasis::Faded => 22.0,
    };
    if dark {
        base.gamma_multiply(alpha / 255.0)
    } else {
        let [r, g, b, _] = base.to_array();
        Color32::from_rgba_unmultiplied(r, g, b, alpha as u8)
    }
}

/// The document, each block (a node with text of its own) laid out with its sentences in their
/// sources' colours. Returns nothing; clicks and hovers go through `action` and the state.
fn document_ui(
    app: &mut SimdocApp,
    run: &SourcesRun,
    ui: &mut egui::Ui,
    action: &mut Option<Action>,
) {
    let doc = Arc::clone(&run.input.document.doc);
    let visuals = ui.visuals().clone();
    let hovered_source = app.sources.hovered_source;
    let mut hovered_sentence: Option<(u32, egui::Response)> = None;
    egui::ScrollArea::vertical()
        .id_salt("sources_document")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let width = ui.available_width() - 4.0;
            app.sources.block_heights.keep_for(&doc, width);
            for (index, node) in doc.nodes.iter().enumerate() {
                if node.own_sentences.is_empty() {
                    continue;
                }
                if let Some(height) = app.sources.block_heights.get(index) {
                    let place = Rect::from_min_size(ui.cursor().min, Vec2::new(width, height));
                    if !ui.is_rect_visible(place) {
                        ui.allocate_space(Vec2::new(width, height));
                        ui.add_space(BLOCK_GAP);
                        continue;
                    }
                }
                let first = &doc.sentences[node.own_sentences.start];
                let heading = node.kind == NodeKind::Section
                    || node.kind == NodeKind::Document && node.label == first.text;
                let plain = TextFormat {
                    font_id: FontId::proportional(if heading { HEADING_SIZE } else { BODY_SIZE }),
                    color: if node.boilerplate {
                        visuals.weak_text_color()
                    } else {
                        visuals.text_color()
                    },
                    ..Default::default()
                };
                let mut job = LayoutJob::default();
                job.wrap.max_width = width;
                let mut chars = 0usize;
                let mut ranges = Vec::with_capacity(node.own_sentences.len());
                let mut cursor = first.span.start;
                for position in node.own_sentences.clone() {
                    let sentence = &doc.sentences[position];
                    if sentence.span.start > cursor {
                        let gap = &doc.text[cursor..sentence.span.start];
                        job.append(gap, 0.0, plain.clone());
                        chars += gap.chars().count();
                    }
                    let mut format = plain.clone();
                    let attributed = run.attribution.sentences.get(position).copied().flatten();
                    if let Some(a) = attributed
                        && let Some(rank) = run.rank_of(a.source)
                    {
                        // A source under the pointer in the list: its sentences stand out, the
                        // others fade.
                        let emphasis = match hovered_source {
                            None => Emphasis::Normal,
                            Some(h) if h == a.source => Emphasis::Strong,
                            Some(_) => Emphasis::Faded,
                        };
                        format.background = highlight(rank, emphasis, visuals.dark_mode);
                        if emphasis != Emphasis::Faded {
                            format.underline = Stroke::new(
                                if emphasis == Emphasis::Strong {
                                    2.0
                                } else {
                                    1.0
                                },
                                colour(rank),
                            );
                        }
                    }
                    let text = &doc.text[sentence.span.clone()];
                    job.append(text, 0.0, format);
                    let n = text.chars().count();
                    ranges.push((position as u32, chars..chars + n));
                    chars += n;
                    cursor = sentence.span.end;
                }
                let galley = ui.painter().layout_job(job);
                app.sources.block_heights.set(index, galley.size().y);
                let (rect, response) = ui.allocate_exact_size(galley.size(), Sense::click());
                let response = response.interact(Sense::click());
                if ui.is_rect_visible(rect) {
                    ui.painter()
                        .galley(rect.min, Arc::clone(&galley), visuals.text_color());
                }
                if let Some(pointer) = response.hover_pos() {
                    let at = galley.cursor_from_pos(pointer - rect.min).index.0;
                    if let Some((position, _)) =
                        ranges.iter().find(|(_, r)| r.start <= at && at < r.end)
                    {
                        if response.clicked() {
                            *action = Some(Action::OpenSentence(*position));
                        }
                        hovered_sentence = Some((*position, response.clone()));
                    }
                }
                ui.add_space(BLOCK_GAP);
            }
        });
    app.sources.hovered_sentence = hovered_sentence.as_ref().map(|(p, _)| *p);
    if let Some((position, response)) = hovered_sentence {
        sentence_tooltip(run, position, response);
    }
}

/// Where a hovered sentence comes from, or that it comes from no source.
fn sentence_tooltip(run: &SourcesRun, position: u32, response: egui::Response) {
    let attributed = run
        .attribution
        .sentences
        .get(position as usize)
        .copied()
        .flatten();
    let text = match attributed {
        Some(a) => {
            let source = &run.input.sources[a.source];
            let mut from = source
                .sentences
                .get(a.source_sentence as usize)
                .map_or(String::new(), |s| s.text.clone());
            if let Some(with) = a.joined_with
                && let Some(next) = source.sentences.get(with as usize)
            {
                from = if with < a.source_sentence {
                    format!("{} {from}", next.text)
                } else {
                    format!("{from} {}", next.text)
                };
            }
            format!(
                "From {}, sentence {} (similarity {:.2}):\n“{}”\nClick to open the pair side by \
                 side at this sentence.",
                run.input.display_name(a.source),
                a.source_sentence,
                a.sim,
                crate::app::widgets::shorten(&from, 400)
            )
        }
        None => "Found in no source at this permission.".to_string(),
    };
    response.on_hover_text_at_pointer(text);
}
