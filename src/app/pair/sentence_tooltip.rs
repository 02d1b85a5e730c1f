//! What hovering a sentence shows: its partners with both Sims against the thresholds and the
//! words that met (exactly, by stem or through a correlation), or its nearest miss.

use std::sync::Arc;

use crate::app::SimdocApp;
use crate::app::state::Side;
use crate::render::Tier;
use crate::similarity::{Explanation, ScoredPair};

/// The pairs (EQ under the thresholds) a sentence belongs to.
fn sentence_pairs(app: &SimdocApp, side: Side, position: u32) -> Vec<ScoredPair> {
    let Some(view) = &app.view else {
        return Vec::new();
    };
    view.pairs_of(side, position as usize)
        .iter()
        .map(|&i| view.matches[i as usize])
        .collect()
}

/// The best pair above the floor that fails the thresholds (a near miss), if any.
fn near_miss(app: &SimdocApp, side: Side, position: u32) -> Option<ScoredPair> {
    let analysis = app.analysis.as_ref()?;
    analysis
        .comparison
        .pairs
        .iter()
        .filter(|p| match side {
            Side::Left => p.left == position,
            Side::Right => p.right == position,
        })
        .max_by(|a, b| a.decisive_score().total_cmp(&b.decisive_score()))
        .copied()
}

pub fn sentence_tooltip_ui(app: &mut SimdocApp, ui: &mut egui::Ui, side: Side, position: u32) {
    let pairs = sentence_pairs(app, side, position);
    let miss = if pairs.is_empty() {
        near_miss(app, side, position)
    } else {
        None
    };
    let explain_pair = pairs.first().copied().or(miss);
    // Explanations are computed once per hovered pair.
    let explanation = explain_pair.and_then(|pair| {
        let key = (pair.left, pair.right);
        let pane = &mut app.panes[side.index()];
        if pane.explained.as_ref().is_none_or(|(k, _)| *k != key) {
            let analysis = app.analysis.as_ref()?;
            let explanation = analysis.prepared.explain(
                &app.model,
                analysis.comparison.method,
                pair.left as usize,
                pair.right as usize,
            )?;
            pane.explained = Some((key, explanation));
        }
        pane.explained.as_ref().map(|(_, e)| e.clone())
    });
    let other = side.other();
    let other_doc = app.docs[other.index()].as_ref().map(|d| Arc::clone(&d.doc));
    let thresholds = app.settings.thresholds;
    let graded = app.settings.method.is_graded();
    let floor = app
        .analysis
        .as_ref()
        .and_then(|a| super::sims_text::content_floor(&a.options));
    let sims = |pair: &ScoredPair| super::sims_text::sims_text(pair, floor);
    // Before the first result (or after a comparison stopped) no sentence has matches yet:
    // saying "no match" then would be false.
    let unknown = match (&app.view, app.is_comparing()) {
        (Some(_), _) => None,
        (None, true) => Some("Comparing… the matches appear when it finishes."),
        (None, false) if app.compare_stopped.is_some() => {
            Some("Not compared: the comparison stopped.")
        }
        (None, false) => Some("Not compared yet."),
    };
    let tooltip_id = ui.scope_id().with(("sentence_tooltip", side.index()));
    egui::Tooltip::always_open(
        ui.ctx().clone(),
        ui.layer_id(),
        tooltip_id,
        egui::PopupAnchor::Pointer,
    )
    .gap(12.0)
    .show(|ui| {
        ui.set_max_width(460.0);
        ui.strong(format!("{} sentence {}", side.letter(), position));
        let left_out = app
            .analysis
            .as_ref()
            .and_then(|a| a.left_out[side.index()].get(position as usize).copied().flatten());
        if let Some(unknown) = unknown {
            ui.label(unknown);
        } else if let Some(reason) = left_out {
            ui.label(format!(
                "Left out: {} (Options, Leave out).",
                reason.describe()
            ));
        } else if pairs.is_empty() {
            ui.label("No match at these thresholds.");
            match miss {
                Some(miss) if miss.verdict.is_some() => {
                    ui.weak(format!(
                        "Closest: verdict probability {:.2} ({}) with {} sentence {} (needs ≥ {:.2}).",
                        miss.decisive_score(), sims(&miss), other.letter(), partner(&miss, side), thresholds.permission
                    ));
                }
                Some(miss) => {
                    ui.weak(format!(
                        "Closest: {} sentence {}, {} (needs both ≥ {:.3}, difference ≤ {:.3}).",
                        other.letter(), partner(&miss, side), sims(&miss), thresholds.permission, thresholds.variation
                    ));
                }
                None => {}
            }
        } else {
            ui.label(format!(
                "Matches {} sentence{} of {}:",
                pairs.len(),
                if pairs.len() == 1 { "" } else { "s" },
                other.letter()
            ));
            for pair in pairs.iter().take(5) {
                let text = other_doc
                    .as_ref()
                    .and_then(|d| d.sentences.get(partner(pair, side) as usize))
                    .map_or("", |s| s.text.as_str());
                let tier = if pair.identical { Tier::Identical } else { Tier::Similar };
                ui.label(format!(
                    "[{}] {} — {}",
                    partner(pair, side),
                    tier.name(),
                    crate::app::widgets::shorten(text, 160)
                ));
                if let Some(e) = pair.e_value {
                    // Judged against chance: the Sims admit the pair as a link, its passage's
                    // E-value decides.
                    ui.weak(format!(
                        "{} · E-value alone {}",
                        sims(pair),
                        crate::render::e_value(e)
                    ));
                    if let Some(passage) = passage_e(app, pair) {
                        ui.weak(format!(
                            "Its passage: E-value {} (the expected number of passages as good \
                             by chance in this comparison; the bar is {})",
                            crate::render::e_value(passage),
                            thresholds.max_e_value.map_or("off".to_string(), crate::render::e_value)
                        ));
                    }
                } else if let (Some(p), true) = (pair.verdict, graded) {
                    ui.weak(format!(
                        "verdict: same with probability {p:.2} ≥ {:.2} · {}",
                        thresholds.permission, sims(pair)
                    ))
                    .on_hover_text(super::evidence::VERDICT_HINT);
                } else if graded {
                    ui.weak(format!(
                        "{} · min ≥ {:.3} · |diff| {:.3} ≤ {:.3}",
                        sims(pair),
                        thresholds.permission,
                        (pair.sim_lr - pair.sim_rl).abs(),
                        thresholds.variation
                    ));
                }
            }
            if pairs.len() > 5 {
                ui.weak(format!("… and {} more", pairs.len() - 5));
            }
        }
        if let Some(explanation) = explanation {
            explanation_ui(ui, &explanation, side);
        }
    });
}

/// The E-value of the passage holding `pair`, when matches are judged against chance.
fn passage_e(app: &SimdocApp, pair: &ScoredPair) -> Option<f64> {
    let view = app.view.as_ref()?;
    let index = view
        .matches
        .binary_search_by_key(&(pair.left, pair.right), |p| (p.left, p.right))
        .ok()?;
    let passage = view.passage_of.get(index).copied().flatten()?;
    view.passages.get(passage as usize)?.e_value
}

/// The other sentence of a pair, seen from `side`.
fn partner(pair: &ScoredPair, side: Side) -> u32 {
    match side {
        Side::Left => pair.right,
        Side::Right => pair.left,
    }
}

/// Which words matched exactly and which through a correlation (with c and mu).
pub fn explanation_ui(ui: &mut egui::Ui, explanation: &Explanation, side: Side) {
    ui.separator();
    let terms = match side {
        Side::Left => &explanation.left_terms,
        Side::Right => &explanation.right_terms,
    };
    if let Some((a, b)) = &explanation.fingerprints {
        ui.weak(format!("4-gram fingerprints: A “{a}” · B “{b}”"));
    }
    let exact: Vec<&str> = terms
        .iter()
        .filter(|t| t.exact)
        .map(|t| t.term.as_str())
        .collect();
    if !exact.is_empty() {
        ui.label(format!("Same words (stems): {}", exact.join(", ")));
    }
    let related: Vec<String> = terms
        .iter()
        .filter(|t| !t.exact && t.mu > 0.0)
        .map(|t| match (&t.best, &t.relation) {
            (Some((other, c)), Some(why)) => {
                format!("{} ~ {} ({why}, c {:.2}, μ {:.2})", t.term, other, c, t.mu)
            }
            (Some((other, c)), None) => {
                format!("{} ~ {} (c {:.2}, μ {:.2})", t.term, other, c, t.mu)
            }
            (None, _) => format!("{} (μ {:.2})", t.term, t.mu),
        })
        .collect();
    if !related.is_empty() {
        ui.label(format!("Related words: {}", related.join(", ")));
    }
    let unmatched: Vec<&str> = terms
        .iter()
        .filter(|t| !t.exact && t.mu == 0.0)
        .map(|t| t.term.as_str())
        .collect();
    if !unmatched.is_empty() {
        ui.weak(format!("Unmatched: {}", unmatched.join(", ")));
    }
}
