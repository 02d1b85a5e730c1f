//! Moving through the evidence: the next or previous match (in the match list's order) or
//! passage, and scrolling the two texts in step along the alignment.

use super::{Side, SimdocApp, evidence};

impl SimdocApp {
    /// Scrolling the texts in step, as Meld does: when the user scrolls one pane, the other
    /// is brought to where its top sentence lies along the alignment
    /// ([`crate::compare::changes::Changes::partner_along`]). Inside the selected passage, which
    /// may lie off the alignment (a moved passage), the partner is that of the passage's pair
    /// nearest above the top sentence.
    pub(super) fn follow_in_step(&mut self) {
        let Some(view) = &self.view else { return };
        let current = evidence::current_passage(self, view);
        for side in Side::BOTH {
            let pane = &mut self.panes[side.index()];
            let (top, previous) = (pane.top_sentence, pane.last_top);
            pane.last_top = top;
            let (Some(top), Some(_)) = (top, previous) else {
                continue;
            };
            if pane.scrolled_by_app || Some(top) == previous {
                continue;
            }
            let in_passage = current
                .and_then(|i| view.passages.get(i))
                .filter(|passage| passage.covers(side.index(), top));
            let partner = match in_passage {
                // (this side's position, the other side's) of each pair of the passage
                Some(passage) => passage
                    .members
                    .iter()
                    .filter_map(|&m| view.matches.get(m))
                    .map(|p| match side {
                        Side::Left => (p.left, p.right),
                        Side::Right => (p.right, p.left),
                    })
                    .rfind(|&(mine, _)| mine <= top)
                    .map(|(_, theirs)| theirs),
                None => view.changes.partner_along(side.index(), top),
            };
            if let Some(partner) = partner {
                self.selection.scroll_to[side.other().index()] = Some(partner);
            }
            return;
        }
    }

    /// The sentence the pane of `side` last brought into view on a selection.
    pub fn shown_sentence(&self, side: Side) -> Option<u32> {
        self.panes[side.index()].shown
    }

    /// The part of the documents the dotplot showed last frame: `[min A, min B]` and
    /// `[max A, max B]` in sentence positions, with where it was drawn on screen.
    pub fn dotplot_shown(&self) -> Option<(egui::Rect, [f64; 2], [f64; 2])> {
        self.dotplot.shown
    }

    /// The sentence at the top of the pane of `side` in the last frame.
    pub fn top_sentence(&self, side: Side) -> Option<u32> {
        self.panes[side.index()].top_sentence
    }

    /// Selects the next (`+1`) or previous (`-1`) match in the match list's order.
    pub fn step_match(&mut self, delta: isize) {
        let Some(view) = &self.view else { return };
        let order = self.match_list.order(view);
        if order.is_empty() {
            return;
        }
        let current = self.selection.pair.and_then(|(l, r)| {
            order
                .iter()
                .position(|&i| view.matches[i].left == l && view.matches[i].right == r)
        });
        let next = match current {
            Some(at) => (at as isize + delta).rem_euclid(order.len() as isize) as usize,
            None if delta >= 0 => 0,
            None => order.len() - 1,
        };
        let pair = view.matches[order[next]];
        self.selection.select_pair(&pair);
        self.match_list.scroll_to_selection = true;
    }

    /// Selects the next (`+1`) or previous (`-1`) passage, in reading order of A.
    pub fn step_passage(&mut self, delta: isize) {
        let Some(view) = &self.view else { return };
        let count = view.passages.len();
        if count == 0 {
            return;
        }
        let next = match evidence::current_passage(self, view) {
            Some(at) => (at as isize + delta).rem_euclid(count as isize) as usize,
            None if delta >= 0 => 0,
            None => count - 1,
        };
        self.selection.select_passage(view, next);
        self.match_list.scroll_to_selection = true;
    }
}
