//! The evidence beside the match list: the passages (runs of matches) with navigation, the
//! selected pair word by word, and the legend of the colours in the texts.
//!
//! The engine finds passages ([`crate::compare::passages`]) and aligns words
//! ([`crate::compare::word_alignment`]); this module only draws them. The alignment of the selected
//! pair is computed once per selection and kept.

use egui::{Color32, RichText};

use crate::app::SimdocApp;
use crate::app::state::View;
use crate::compare::{WordAlignment, WordMatch};
use crate::render::Tier;
use crate::render::report::{align_pair, pair_sentences};
use crate::similarity::JoinSide;

/// What the lower part of the side panel shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SideTab {
    #[default]
    Matches,
    Passages,
    Words,
    /// What was added, deleted, changed or moved ([`super::changes_list`]).
    Changes,
}

/// State kept between frames.
#[derive(Default)]
pub struct EvidenceState {
    pub tab: SideTab,
    /// The alignment of the selected pair, for (analysis, pair).
    words: Option<(usize, (u32, u32), WordAlignment)>,
}

/// The colour of a tier, as everywhere in the viewer.
pub fn tier_color(tier: Tier) -> Color32 {
    let [r, g, b] = tier.rgb();
    Color32::from_rgb(r, g, b)
}

/// The colour a word kind is marked with in the word view.
fn word_color(kind: WordMatch, dark: bool) -> Option<Color32> {
    let (light, dark_color) = match kind {
        WordMatch::Identical | WordMatch::Ignored => return None,
        WordMatch::Stemmed => (
            Color32::from_rgb(0xD6, 0xEA, 0xF8),
            Color32::from_rgb(0x1F, 0x4E, 0x79),
        ),
        WordMatch::Related { .. } => (
            Color32::from_rgb(0xF7, 0xE7, 0xB4),
            Color32::from_rgb(0x6E, 0x5A, 0x12),
        ),
        WordMatch::Unmatched => (
            Color32::from_rgb(0xF5, 0xC6, 0xCB),
            Color32::from_rgb(0x7B, 0x24, 0x2E),
        ),
    };
    Some(if dark { dark_color } else { light })
}

/// The tabs above the lower part of the side panel.
pub fn side_tabs_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    let (matches, passages) = app
        .view
        .as_ref()
        .map_or((0, 0), |v| (v.matches.len(), v.passages.len()));
    ui.horizontal(|ui| {
        let tab = &mut app.evidence.tab;
        ui.selectable_value(tab, SideTab::Matches, format!("Matches ({matches})"));
        ui.selectable_value(tab, SideTab::Passages, format!("Passages ({passages})"))
            .on_hover_text(
                "Runs of matched sentences in the same order in both documents \
                 (Shift+N / Shift+P: next / previous passage)",
            );
        ui.selectable_value(tab, SideTab::Words, "Words")
            .on_hover_text("The selected match word by word");
        ui.selectable_value(
            tab,
            SideTab::Changes,
            super::changes_list::tab_title(app.view.as_ref()),
        )
        .on_hover_text(
            "What was added, deleted, changed or moved from A to B (c / Shift+C: next / \
             previous change)",
        );
    });
}

/// The passage selected, or the one the selected pair is in.
pub fn current_passage(app: &SimdocApp, view: &View) -> Option<usize> {
    app.selection.passage.or_else(|| {
        let (l, r) = app.selection.pair?;
        let index = view
            .matches
            .binary_search_by_key(&(l, r), |p| (p.left, p.right))
            .ok()?;
        view.passage_of
            .get(index)
            .copied()
            .flatten()
            .map(|p| p as usize)
    })
}

/// The selected pair, word by word: each sentence with its words marked.
pub fn words_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    let (Some(view), Some(analysis), Some((l, r))) = (&app.view, &app.analysis, app.selection.pair)
    else {
        ui.weak("Select a match (in the list, the texts or the dotplot) to see it word by word.");
        return;
    };
    let Some(pair) = view
        .matches
        .binary_search_by_key(&(l, r), |p| (p.left, p.right))
        .ok()
        .map(|i| view.matches[i])
    else {
        ui.weak("The selected pair is not a match under the current thresholds.");
        return;
    };
    // One alignment per (analysis, pair): the analysis is identified by its comparison's
    // address, which changes with every new comparison.
    let key = std::ptr::from_ref(&analysis.comparison) as usize;
    let fresh = app
        .evidence
        .words
        .as_ref()
        .is_none_or(|(k, p, _)| *k != key || *p != (l, r));
    if fresh {
        let docs = [&*analysis.docs[0].doc, &*analysis.docs[1].doc];
        let alignment = align_pair(
            docs,
            &pair,
            analysis.comparison.method,
            &*app.model,
            &analysis.options,
        );
        app.evidence.words = Some((key, (l, r), alignment));
    }
    let Some((_, _, alignment)) = &app.evidence.words else {
        return;
    };
    let graded = analysis.comparison.method.is_graded();
    ui.horizontal_wrapped(|ui| {
        ui.strong(format!("A {l} × B {r}"));
        if graded {
            ui.label(format!(
                "Sim(A,B) {:.3} · Sim(B,A) {:.3}",
                pair.sim_lr, pair.sim_rl
            ));
            if let Some(p) = pair.verdict {
                ui.label(format!("verdict: same with probability {p:.2}"))
                    .on_hover_text(VERDICT_HINT);
            }
        }
        if pair.joined.is_some() {
            ui.label(RichText::new("one-to-two").italics())
                .on_hover_text("One sentence matched two consecutive sentences taken together");
        }
    });
    let dark = ui.visuals().dark_mode;
    let docs = [&*analysis.docs[0].doc, &*analysis.docs[1].doc];
    let texts = [
        pair_sentences(docs[0], &pair, JoinSide::Left),
        pair_sentences(docs[1], &pair, JoinSide::Right),
    ];
    egui::ScrollArea::vertical()
        .id_salt("words")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for (letter, sentences, words, other) in [
                ("A", &texts[0], &alignment.a, &alignment.b),
                ("B", &texts[1], &alignment.b, &alignment.a),
            ] {
                ui.label(RichText::new(letter).strong());
                let segments = super::word_text::segments(sentences, words, other);
                // Wrapped, whatever the panel's wrap mode: the whole sentence is the point.
                ui.add(egui::Label::new(real_text_job(ui, &segments, dark)).wrap());
                let related: Vec<String> = words
                    .iter()
                    .filter_map(|word| match word.kind {
                        WordMatch::Related { c, why } => {
                            let partner = word
                                .partner
                                .and_then(|i| other.get(i as usize))
                                .map_or(String::new(), |w| w.word.clone());
                            Some(match why {
                                Some(why) => format!(
                                    "{} ~ {partner} ({}, c {c:.2})",
                                    word.word,
                                    why.describe()
                                ),
                                None => format!("{} ~ {partner} (c {c:.2})", word.word),
                            })
                        }
                        _ => None,
                    })
                    .collect();
                if !related.is_empty() {
                    ui.weak(format!("Related: {}", related.join(", ")));
                }
                ui.add_space(6.0);
            }
            let [a, b] = alignment.counts();
            ui.weak(format!(
                "A: {} identical, {} same stem, {} related, {} only in A · \
                 B: {} identical, {} same stem, {} related, {} only in B",
                a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]
            ));
            words_legend_ui(ui);
        });
}

/// One side's real text as a layout: each word on the colour of its kind, the characters that
/// differ from its partner underlined and strong ([`super::word_text`]).
fn real_text_job(
    ui: &egui::Ui,
    segments: &[super::word_text::Segment],
    dark: bool,
) -> egui::text::LayoutJob {
    let mut job = egui::text::LayoutJob::default();
    job.wrap.max_width = ui.available_width();
    let body = egui::TextStyle::Body.resolve(ui.style());
    let visuals = ui.visuals();
    for segment in segments {
        let mut format = egui::TextFormat {
            font_id: body.clone(),
            color: visuals.text_color(),
            ..Default::default()
        };
        match segment.kind {
            Some(WordMatch::Ignored) => format.color = visuals.weak_text_color(),
            Some(kind) => {
                if let Some(color) = word_color(kind, dark) {
                    format.background = color;
                }
            }
            None => {}
        }
        if segment.changed {
            format.color = visuals.strong_text_color();
            format.underline = egui::Stroke::new(1.5, visuals.strong_text_color());
        }
        job.append(&segment.text, 0.0, format);
    }
    job
}

/// What the verdict's probability is, for tooltips.
pub(crate) const VERDICT_HINT: &str = "The learned pair verdict: a logistic regression over the \
two Sims (with and without function words, with and without WordNet's related words), shared \
word pairs and triples, word order, character 4-grams, numbers and negation in one sentence only, \
and shared words weighted by what sharing each meant in the training pairs (TF-KLD), trained on \
MSRP and PAN training pairs. Under the verdict preset a pair matches when this \
probability reaches the threshold.";

fn words_legend_ui(ui: &mut egui::Ui) {
    let dark = ui.visuals().dark_mode;
    ui.horizontal_wrapped(|ui| {
        ui.weak("Words as written:");
        ui.label("the same in both");
        for (kind, label) in [
            (WordMatch::Stemmed, "same stem"),
            (
                WordMatch::Related { c: 0.0, why: None },
                "related (listed below, with c)",
            ),
            (WordMatch::Unmatched, "only in this sentence"),
        ] {
            let mut text = RichText::new(label);
            if let Some(color) = word_color(kind, dark) {
                text = text.background_color(color);
            }
            ui.label(text);
        }
        ui.label(RichText::new("changed characters").underline().strong());
        ui.label(RichText::new("not compared").weak());
    });
}

/// The legend of the Texts view: what the colours and the score on a match mean.
pub fn texts_legend_ui(ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        for (tier, label, hint) in [
            (
                Tier::Identical,
                "identical",
                "Same refined words in the same order",
            ),
            (
                Tier::Similar,
                "similar",
                "Matched under the thresholds; deeper colour = higher score",
            ),
        ] {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
            ui.painter()
                .rect_filled(rect, 2.0, tier_color(tier).gamma_multiply(0.6));
            ui.label(label).on_hover_text(hint);
        }
        ui.label(RichText::new("selected").underline())
            .on_hover_text("The selected match: deepest colour, underlined");
        ui.weak("· neighbouring matched sentences alternate in shade · hover a sentence for its score (the smaller of Sim(A,B) and Sim(B,A))");
    });
}
