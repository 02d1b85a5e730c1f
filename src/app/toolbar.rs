//! The controls: open, method, thresholds, presets, export, the central view's switch (the
//! Options menu is [`super::options_menu`]; the status bar, messages and the empty state
//! [`super::status`]).

use std::path::PathBuf;

use super::export::ExportKind;
use super::state::CentralView;
use super::widgets::shorten;
use super::{Side, SimdocApp};

use crate::compare::Preset;
use crate::similarity::Method;

/// The top bar.
pub fn toolbar_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().slider_width = 60.0;
        // A control that does not fit moves to the next row whole: without this, a button at
        // the end of a narrow window wrapped its own label a letter per line.
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
        for side in Side::BOTH {
            open_menu_ui(app, ui, side);
        }
        ui.separator();

        let mut method = app.settings.method;
        let method_label = ui.label("Method");
        // A fixed width, so that the toolbar does not shift when the method changes: a longer
        // title is cut short (the menu and the tooltip give it whole).
        egui::ComboBox::from_id_salt("method")
            .width(150.0)
            .selected_text(shorten(method.title(), 16))
            .show_ui(ui, |ui| {
                for m in Method::ALL {
                    ui.selectable_value(&mut method, m, m.title())
                        .on_hover_text(method_hint(m));
                }
            })
            .response
            .labelled_by(method_label.id)
            .on_hover_text(method.title());
        if method != app.settings.method {
            app.settings.method = method;
            app.recompare();
        }

        let graded = app.settings.method.is_graded();
        let mut thresholds = app.settings.thresholds;
        // Under the learned verdict the permission is the probability a pair must reach.
        let verdict = app.settings.rules.verdict;
        ui.add_enabled_ui(graded, |ui| {
            if verdict {
                let label = ui.label("Probability");
                ui.add(egui::Slider::new(&mut thresholds.permission, 0.01..=0.99).step_by(0.005))
                    .labelled_by(label.id)
                    .on_hover_text(
                        "A pair matches when the learned verdict's probability that the two \
                         sentences say the same reaches this",
                    );
            } else {
                let label = ui.label("Permission");
                ui.add(egui::Slider::new(&mut thresholds.permission, 0.2..=1.0).step_by(0.005))
                    .labelled_by(label.id)
                .on_hover_text(
                    "Both directional similarities must reach this (thesis eq. 3.4; thesis value 0.825)",
                );
            }
            ui.add_enabled_ui(!verdict, |ui| {
                let label = ui.label("Variation");
                ui.add(egui::Slider::new(&mut thresholds.variation, 0.0..=1.0).step_by(0.005))
                    .labelled_by(label.id)
                .on_hover_text(
                    "The two similarities may differ by at most this; 1 turns it off (thesis eq. 3.4; thesis value 0.15)",
                )
                .on_disabled_hover_text("The learned verdict decides; the variation does not apply");
            });
        });
        // The sliders step by 0.005 in binary floating point (0.3 comes back as
        // 0.30000000000000004): to thousandths, so that a preset's values stay the preset's.
        thresholds.permission = (thresholds.permission * 1000.0).round() / 1000.0;
        thresholds.variation = (thresholds.variation * 1000.0).round() / 1000.0;
        if app.settings.chance_search.is_some() {
            chance_slider_ui(ui, &mut thresholds);
        }
        if thresholds != app.settings.thresholds {
            app.set_thresholds(thresholds);
        }
        presets_ui(app, ui);
        super::options_menu::options_menu_ui(app, ui);
        ui.separator();
        // Last on the bar, so disabling the rest of this row disables only Export; in a
        // child scope (`add_enabled_ui`) the button could not move to the next row.
        if app.view.is_none() {
            ui.disable();
        }
        ui.menu_button("Export", |ui| {
            for kind in ExportKind::ALL {
                if ui.button(kind.title()).clicked() {
                    app.pick_export(kind);
                    ui.close();
                }
            }
        });
    });
}

/// The E-value bar of a comparison judged against chance, on a log scale: passages whose
/// E-value is above it are not counted. Filtering only, so it acts at once.
fn chance_slider_ui(ui: &mut egui::Ui, thresholds: &mut crate::similarity::Thresholds) {
    let mut bar = thresholds.max_e_value.unwrap_or(1.0);
    let label = ui.label("E ≤");
    ui.add(
        egui::Slider::new(&mut bar, 1e-12..=1.0)
            .logarithmic(true)
            .custom_formatter(|e, _| crate::render::e_value(e)),
    )
    .labelled_by(label.id)
    .on_hover_text(
        "The largest E-value a passage may have to count: the expected number of passages as \
         good by chance in this comparison. 1e-5 is the documents preset's (chosen on the \
         text-alignment corpus, EVALUATION.md); towards 1, chance passages appear.",
    );
    thresholds.max_e_value = Some(bar);
}

/// What each method does, for the method menu.
fn method_hint(method: Method) -> &'static str {
    match method {
        Method::Fuzzy => {
            "Thesis 3.2.2: sentences match through shared and related words (the reference \
             model's correlations), graded by both directional Sims"
        }
        Method::Overlap => {
            "The same Sims with every correlation taken as 0: stemmed word overlap, the \
             baseline that shows what related words add"
        }
        Method::Fourgram => {
            "Thesis 3.2.1: sentences match when their three least-frequent character 4-grams \
             are equal (near-identical text only)"
        }
        Method::Exact => "Sentences match when their refined words are the same, in order",
    }
}

/// The preset menu: it shows the active preset, or "Custom" after any change of its own. One
/// menu rather than six buttons, so that the toolbar fits one row at the default window size
/// (issue 29: it wrapped at 1400 pixels).
fn presets_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    let current = app.settings.preset();
    let active = current.named_preset();
    let label = ui.label("Preset");
    let mut chosen = None;
    egui::ComboBox::from_id_salt("preset")
        .width(100.0)
        .selected_text(active.map_or("Custom", |p| p.title))
        .show_ui(ui, |ui| {
            for named in Preset::all() {
                let is_active = active.is_some_and(|a| a.name == named.name);
                let usable =
                    crate::similarity::lexical::require(&*app.model, &named.preset.rules).is_ok();
                if ui
                    .add_enabled(usable, egui::Button::selectable(is_active, named.title))
                    .on_hover_text(capitalised(named.purpose))
                    .on_disabled_hover_text(
                        "The reference model in use has no WordNet relations or pair verdict \
                         (a model file from `simdoc model build` without --wordnet)",
                    )
                    .clicked()
                    && !is_active
                {
                    chosen = Some(named.preset);
                }
            }
            // Listed greyed while a preset is active, so that the menu says what it would be.
            let custom = active.is_none();
            ui.add_enabled(custom, egui::Button::selectable(custom, "Custom"))
                .on_hover_text(custom_hint(&app.settings))
                .on_disabled_hover_text(
                    "Becomes active when the thresholds or options differ from every preset",
                );
        })
        .response
        .labelled_by(label.id)
        .on_hover_text("A whole matching configuration: thresholds, refinement and rules");
    if let Some(preset) = chosen {
        app.set_preset(preset);
    }
}

/// A preset's purpose as a sentence of its own (the table writes it to follow a name).
pub fn capitalised(purpose: &str) -> String {
    let mut chars = purpose.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// What "Custom" means now: the preset the settings were last chosen from, if any.
fn custom_hint(settings: &crate::app::Settings) -> String {
    match settings
        .preset_name
        .as_deref()
        .and_then(crate::compare::NamedPreset::named)
    {
        Some(from) => format!(
            "The {} preset with your changes ({}); choose a preset to go back to it",
            from.title,
            crate::app::state::differences(&from.preset, &settings.preset()).join(", ")
        ),
        None => "The thresholds or options differ from every preset; choose a preset to go \
                 back to it"
            .to_string(),
    }
}

fn open_menu_ui(app: &mut SimdocApp, ui: &mut egui::Ui, side: Side) {
    let title = match &app.docs[side.index()] {
        Some(doc) => format!("{}: {}", side.letter(), shorten(&doc.file_name(), 16)),
        None => format!("Open {}", side.letter()),
    };
    // Clicks inside the menu (into the path field) must not close it.
    let config = egui::containers::menu::MenuConfig::new()
        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
    egui::containers::menu::MenuButton::new(title)
        .config(config)
        .ui(ui, |ui| {
            if ui
                .button(format!("Choose document {}…", side.letter()))
                .clicked()
            {
                app.pick_file(side);
                ui.close();
            }
            ui.separator();
            ui.label("Open a path:");
            let input = &mut app.path_input[side.index()];
            let field = ui.add(
                egui::TextEdit::singleline(input)
                    .hint_text("/path/to/file.html")
                    .desired_width(320.0),
            );
            let submitted = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if (ui.button("Open path").clicked() || submitted) && !input.trim().is_empty() {
                let path = PathBuf::from(input.trim());
                app.open(side, path);
                ui.close();
            }
            if !app.settings.recent_files.is_empty() {
                ui.separator();
                ui.label("Recent:");
                let recent = app.settings.recent_files.clone();
                for path in recent {
                    if ui
                        .button(recent_label(&path))
                        .on_hover_text(path.display().to_string())
                        .clicked()
                    {
                        app.open(side, path);
                        ui.close();
                    }
                }
            }
        });
}

/// The switch between the texts and the hierarchies, above the central area.
pub fn central_view_switch_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        ui.selectable_value(&mut app.settings.central_view, CentralView::Texts, "Texts");
        ui.selectable_value(
            &mut app.settings.central_view,
            CentralView::Hierarchies,
            "Hierarchies",
        );
        ui.selectable_value(
            &mut app.settings.central_view,
            CentralView::Collection,
            "Collection",
        );
        ui.selectable_value(
            &mut app.settings.central_view,
            CentralView::Sources,
            "Sources",
        )
        .on_hover_text(
            "One document against a folder of sources: which source each sentence comes from",
        );
    });
}

/// A recent file as the Open menu lists it: the file name, then its folder shortened from the
/// left (files of the same name in different folders stay apart, and the end of a folder
/// path is the part that tells them apart).
fn recent_label(path: &std::path::Path) -> String {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    match path.parent().map(|p| p.display().to_string()) {
        Some(folder) if !folder.is_empty() => {
            format!("{name} — {}", shorten_left(&folder, RECENT_FOLDER_CHARS))
        }
        _ => name,
    }
}

/// How much of a recent file's folder the Open menu shows.
const RECENT_FOLDER_CHARS: usize = 40;

/// The last `max` characters of `text`, with an ellipsis in front when cut.
fn shorten_left(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max {
        return text.to_string();
    }
    let tail: String = text.chars().skip(count - max.saturating_sub(1)).collect();
    format!("…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recent_file_shows_its_folder_shortened_from_the_left() {
        let path = std::path::Path::new(
            "/home/analyst/projects/newsroom/archive/2024/revisions/story.html",
        );
        let label = recent_label(path);
        assert!(label.starts_with("story.html — …"), "{label}");
        assert!(
            label.ends_with("newsroom/archive/2024/revisions"),
            "{label}"
        );
        assert_eq!(label.chars().count(), "story.html — ".chars().count() + 40);
        assert_eq!(
            recent_label(std::path::Path::new("/tmp/a.txt")),
            "a.txt — /tmp"
        );
        assert_eq!(recent_label(std::path::Path::new("a.txt")), "a.txt");
    }
}
