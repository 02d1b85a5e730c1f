//! The Changes list, for an editor comparing two versions (issues 29 and 43): what was added,
//! deleted, changed or moved from A to B ([`crate::compare::changes`] finds them, the same list
//! every report writes), with their
//! counts as filters, a preview of each, and next / previous change (`c` / `Shift+C`, apart
//! from `n` / `p`, which step through matches).

use egui::{Color32, RichText};

use crate::app::SimdocApp;
use crate::app::state::{Side, View};
use crate::compare::changes::{Change, ChangeKind};

/// State kept between frames.
#[derive(Default)]
pub struct ChangesState {
    /// The kind listed; `None`: every kind.
    pub filter: Option<ChangeKind>,
    /// The change selected last, as an index into the view's change list, with the view's id.
    pub current: Option<(u64, usize)>,
    /// Scroll the list to the current change on the next frame.
    pub scroll_to_current: bool,
}

impl ChangesState {
    /// The indices of the view's changes that the filter lets through.
    pub fn listed(&self, view: &View) -> Vec<usize> {
        (0..view.changes.list.len())
            .filter(|&i| self.filter.is_none_or(|k| view.changes.list[i].kind == k))
            .collect()
    }

    /// The current change of `view`, if one was selected in it.
    pub fn current_in(&self, view: &View) -> Option<usize> {
        self.current
            .filter(|(id, _)| *id == view.id)
            .map(|(_, index)| index)
    }
}

/// The colour a kind of change is shown in (the colours of a diff: green added, red deleted,
/// amber changed, violet moved).
pub fn kind_color(kind: ChangeKind) -> Color32 {
    match kind {
        ChangeKind::Added => Color32::from_rgb(0x2E, 0x9E, 0x4F),
        ChangeKind::Deleted => Color32::from_rgb(0xC0, 0x39, 0x2B),
        ChangeKind::Changed => Color32::from_rgb(0xD6, 0x8A, 0x00),
        ChangeKind::Moved => Color32::from_rgb(0x8E, 0x44, 0xAD),
    }
}

/// The tab's title with the number of changes.
pub fn tab_title(view: Option<&View>) -> String {
    format!("Changes ({})", view.map_or(0, |v| v.changes.list.len()))
}

impl SimdocApp {
    /// Selects change `index` of the view's list: its sentences are selected and both texts
    /// brought to it (a side without the change is brought to where it would be, along the
    /// alignment).
    pub fn select_change(&mut self, index: usize) {
        let Some(view) = &self.view else { return };
        let Some(change) = view.changes.list.get(index).cloned() else {
            return;
        };
        self.changes.current = Some((view.id, index));
        self.changes.scroll_to_current = true;
        let pair = view
            .matches
            .iter()
            .find(|p| {
                change.a.is_some_and(|[a, _]| p.left == a)
                    && change
                        .b
                        .is_some_and(|[first, last]| (first..=last).contains(&p.right))
            })
            .copied();
        let scroll = [
            change
                .a
                .map(|[a, _]| a)
                .or_else(|| change.b.and_then(|[b, _]| view.changes.partner_along(1, b))),
            change
                .b
                .map(|[b, _]| b)
                .or_else(|| change.a.and_then(|[a, _]| view.changes.partner_along(0, a))),
        ];
        match pair {
            Some(pair) => self.selection.select_pair(&pair),
            None => {
                let (side, position) = match (change.a, change.b) {
                    (Some([a, _]), _) => (Side::Left, a),
                    (None, Some([b, _])) => (Side::Right, b),
                    (None, None) => return,
                };
                self.selection = crate::app::Selection {
                    sentence: Some((side, position)),
                    ..Default::default()
                };
            }
        }
        self.selection.scroll_to = scroll;
    }

    /// Selects the next (`+1`) or previous (`-1`) change among those listed.
    pub fn step_change(&mut self, delta: isize) {
        let Some(view) = &self.view else { return };
        let listed = self.changes.listed(view);
        if listed.is_empty() {
            return;
        }
        let at = self
            .changes
            .current_in(view)
            .and_then(|current| listed.iter().position(|&i| i == current));
        let next = match at {
            Some(at) => (at as isize + delta).rem_euclid(listed.len() as isize) as usize,
            None if delta >= 0 => 0,
            None => listed.len() - 1,
        };
        self.select_change(listed[next]);
    }
}

/// A change as one line of the list: its kind, where it lies, and the start of its text.
fn change_label(app: &SimdocApp, change: &Change) -> String {
    let range = |side: &str, r: Option<[u32; 2]>| match r {
        Some([first, last]) if first == last => format!("{side} {first}"),
        Some([first, last]) => format!("{side} {first}–{last}"),
        None => String::new(),
    };
    let place = [range("A", change.a), range("B", change.b)]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" · ");
    // The text shown is the version the change is read in: B's for an addition, else A's.
    let (side, first) = match (change.a, change.b) {
        (_, Some([b, _])) if change.kind == ChangeKind::Added => (1, b),
        (Some([a, _]), _) => (0, a),
        (None, Some([b, _])) => (1, b),
        (None, None) => (0, 0),
    };
    let text = app.docs[side]
        .as_ref()
        .and_then(|d| d.doc.sentences.get(first as usize))
        .map_or("", |s| s.text.as_str());
    // A moved block names the sentences reworded as they moved.
    let reworded = match (change.kind, change.pairs.len()) {
        (ChangeKind::Moved, 1) => " (1 sentence reworded)".to_string(),
        (ChangeKind::Moved, n) if n > 1 => format!(" ({n} sentences reworded)"),
        _ => String::new(),
    };
    format!(
        "{:<8} {place}{reworded}   {}",
        change.kind.name(),
        crate::app::widgets::shorten(text, 80)
    )
}

/// The Changes tab.
pub fn changes_list_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    let Some(view) = &app.view else { return };
    let changes = &view.changes;
    ui.horizontal_wrapped(|ui| {
        let filter = &mut app.changes.filter;
        ui.selectable_value(filter, None, format!("All ({})", changes.list.len()));
        for kind in ChangeKind::ALL {
            let title = format!("{} ({})", capitalised(kind.name()), changes.count(kind));
            ui.selectable_value(
                filter,
                Some(kind),
                RichText::new(title).color(kind_color(kind)),
            )
            .on_hover_text(kind_hint(kind));
        }
    });
    let listed = app.changes.listed(view);
    ui.horizontal(|ui| {
        if ui.small_button("Previous").clicked() {
            app.step_change(-1);
        }
        if ui.small_button("Next").clicked() {
            app.step_change(1);
        }
        ui.weak("c / Shift+C: next / previous change");
    });
    ui.checkbox(&mut app.settings.scroll_in_step, "Scroll the texts in step")
        .on_hover_text("Scrolling one text scrolls the other along the alignment");
    let Some(view) = &app.view else { return };
    if listed.is_empty() {
        ui.weak("No changes of this kind at these thresholds.");
        return;
    }
    let current = app.changes.current_in(view);
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    let mut scroll = egui::ScrollArea::vertical()
        .id_salt("changes_list")
        .auto_shrink([false, false]);
    if std::mem::take(&mut app.changes.scroll_to_current)
        && let Some(row) = current.and_then(|c| listed.iter().position(|&i| i == c))
    {
        let spacing = ui.spacing().item_spacing.y;
        scroll =
            scroll.vertical_scroll_offset(((row_height + spacing) * row as f32 - 60.0).max(0.0));
    }
    let mut clicked = None;
    scroll.show_rows(ui, row_height, listed.len(), |ui, rows| {
        for row in rows {
            let index = listed[row];
            let change = &view.changes.list[index];
            ui.horizontal(|ui| {
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(8.0, row_height - 4.0), egui::Sense::hover());
                ui.painter().rect_filled(rect, 2.0, kind_color(change.kind));
                if ui
                    .selectable_label(current == Some(index), change_label(app, change))
                    .clicked()
                {
                    clicked = Some(index);
                }
            });
        }
    });
    if let Some(index) = clicked {
        app.select_change(index);
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// What each kind means, for the filter buttons' tooltips.
fn kind_hint(kind: ChangeKind) -> &'static str {
    match kind {
        ChangeKind::Added => {
            "Sentences of B with no match in A nor a sentence written the same at their place"
        }
        ChangeKind::Deleted => {
            "Sentences of A with no match in B nor a sentence written the same at their place"
        }
        ChangeKind::Changed => {
            "Sentences matched in place (on the alignment) but not identical: reworded. A pair \
             counts only when it is evidence on its own (judged against chance: its own \
             E-value); otherwise its sentences are deleted and added"
        }
        ChangeKind::Moved => {
            "Matched text out of order: pairs off the alignment, the heaviest chain of pairs \
             that goes forward in both documents; the sentences reworded as they moved are named"
        }
    }
}
