//! The Options menu: what the presets set (words compared, which sentences may match), what
//! counts, and what the analyst leaves out (quotations, a bibliography, short matches).

use egui::RichText;

use super::SimdocApp;
use super::state::Settings;
use crate::similarity::{Relate, RelatedWords, WordnetWeights};

/// The Options menu: what the presets set, and what to compare.
pub fn options_menu_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    let config = egui::containers::menu::MenuConfig::new()
        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
    egui::containers::menu::MenuButton::new("Options")
        .config(config)
        .ui(ui, |ui| {
            let before = app.settings.clone();
            let s = &mut app.settings;
            ui.label(RichText::new("Words compared").strong());
            ui.checkbox(&mut s.refine.keep_stopwords, "Keep stopwords")
                .on_hover_text("Count words like \"the\" and \"of\" as terms (measured preset: on)");
            ui.checkbox(&mut s.refine.keep_numbers, "Keep numbers")
                .on_hover_text("Count numbers as terms (measured preset: on)");
            ui.separator();
            ui.label(RichText::new("Which sentences may match").strong());
            count_row(
                ui,
                ["Short sentences: at least", "content words"],
                &mut s.rules.min_terms,
                0..=10,
                "A sentence with fewer content words matches only a sentence with the same words (0: off)",
            );
            ui.horizontal(|ui| {
                ui.label("Related words count:");
                ui.selectable_value(&mut s.rules.relate, Relate::All, "anywhere")
                    .on_hover_text("Every word of the other sentence may vouch for a word (thesis eq. 3.2)");
                ui.selectable_value(&mut s.rules.relate, Relate::Aligned, "where replaced")
                    .on_hover_text(
                        "Only a word that stands where this one stands, between the words both keep",
                    );
            });
            let has_wordnet = app.model.lexicon().is_some();
            ui.horizontal(|ui| {
                ui.label("Related words from:");
                ui.selectable_value(
                    &mut s.rules.related_words,
                    RelatedWords::Correlations,
                    "co-occurrence",
                )
                .on_hover_text("The reference model's correlations (thesis eq. 3.1)");
                let wordnet = RelatedWords::Wordnet(WordnetWeights::MEASURED);
                let selected = matches!(s.rules.related_words, RelatedWords::Wordnet(_));
                if ui
                    .add_enabled(has_wordnet, egui::Button::selectable(selected, "WordNet"))
                    .on_hover_text(
                        "WordNet's relations between the words: synonyms, derived forms, direct \
                         hypernyms and hyponyms",
                    )
                    .on_disabled_hover_text("The reference model in use has no WordNet relations")
                    .clicked()
                    && !selected
                {
                    s.rules.related_words = wordnet;
                }
            });
            let has_verdict = app.model.verdict().is_some();
            ui.add_enabled(
                has_verdict,
                egui::Checkbox::new(&mut s.rules.verdict, "Decide by the learned verdict"),
            )
            .on_hover_text(super::pair::evidence::VERDICT_HINT)
            .on_disabled_hover_text("The reference model in use has no pair verdict");
            ui.checkbox(&mut s.one_to_two, "Match split and merged sentences (one-to-two)")
                .on_hover_text("A sentence against two consecutive sentences taken together");
            count_row(
                ui,
                ["Each sentence lists its best", "partners (0: every pair)"],
                &mut s.partners_kept,
                0..=100,
                "At the presets scored by Sims (Measured, Thesis, WordNet, Verdict): the partners \
                 a sentence lists among those reaching the floor both ways, and as many by its \
                 own Sim. Matched sentences and containment read its best and do not change; \
                 more partners list more pairs (a table's lines pass the floor with each other). \
                 1, chosen by plagdet on a text-alignment corpus; 0 lists every pair, as the \
                 thesis does",
            );
            ui.separator();
            ui.label(RichText::new("What counts").strong());
            ui.checkbox(&mut s.count_fragments, "Count headings and fragments")
                .on_hover_text("Headings, titles and short fragments count towards the figures too");
            ui.checkbox(&mut s.include_boilerplate, "Include boilerplate")
                .on_hover_text("Compare navigation, headers, footers, asides and forms too");
            ui.separator();
            exclusions_ui(ui, s);
            // The shortest match is a threshold: it filters, it does not compare again.
            let thresholds = s.thresholds;
            s.thresholds = before.thresholds;
            if app.settings != before {
                app.settings.thresholds = thresholds;
                app.recompare();
            } else if thresholds != before.thresholds {
                app.set_thresholds(thresholds);
            }
        });
}

/// What to leave out, as Turnitin and WCopyfind users expect: quotations and a bibliography
/// (left out of the comparison, [`crate::document::exclusions`]) and matches in short runs (a
/// threshold, [`crate::similarity::Thresholds::min_words`]).
fn exclusions_ui(ui: &mut egui::Ui, s: &mut Settings) {
    ui.label(RichText::new("Leave out").strong());
    ui.checkbox(&mut s.exclusions.quotations, "Quotations")
        .on_hover_text(
            "Sentences in a block quote or mostly between quotation marks (\"…\", “…”, „…“, «…»): \
         shown, but neither matched nor counted",
        );
    ui.checkbox(&mut s.exclusions.bibliography, "Bibliography")
        .on_hover_text(
            "A section headed References, Bibliography, Works Cited, Literaturverzeichnis, …, \
             with everything in it: shown, but neither matched nor counted",
        );
    count_row(
        ui,
        ["Matches under", "words"],
        &mut s.thresholds.min_words,
        0..=500,
        "Matches in a run of fewer words are left out (a run: matches with at most two \
         unmatched sentences between them, its words counted on the shorter side); 0 keeps \
         every match",
    );
}

/// One row of a count between two labels ("Matches under [0] words"), the number labelled by
/// the first for screen readers and the tests, the hint on the whole row.
fn count_row<N: egui::emath::Numeric>(
    ui: &mut egui::Ui,
    [before, after]: [&str; 2],
    value: &mut N,
    range: std::ops::RangeInclusive<N>,
    hint: &str,
) {
    ui.horizontal(|ui| {
        let label = ui.label(before);
        ui.add(egui::DragValue::new(value).range(range))
            .labelled_by(label.id);
        ui.label(after);
    })
    .response
    .on_hover_text(hint);
}
