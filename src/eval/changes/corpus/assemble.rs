//! A revision's paragraphs written out as its texts A and B, with where each edit landed in
//! them ([`assemble`]) and whether simdoc splits every placed sentence as one. Apart from the
//! edits, which only decide what goes where.

use crate::document::{SourceFormat, parse_text};

use super::{Edit, Paragraph, Truth};

/// A text being written, counting characters.
#[derive(Default)]
struct Writer {
    text: String,
    chars: usize,
}

impl Writer {
    /// Writes one paragraph's sentences (skipping the empty ones), returning each slot's span.
    fn paragraph<'s>(
        &mut self,
        texts: impl Iterator<Item = Option<&'s str>>,
    ) -> Vec<Option<[usize; 2]>> {
        let mut spans = Vec::new();
        let mut first = true;
        for text in texts {
            let Some(text) = text else {
                spans.push(None);
                continue;
            };
            if first && !self.text.is_empty() {
                self.text.push_str("\n\n");
                self.chars += 2;
            } else if !first {
                self.text.push(' ');
                self.chars += 1;
            }
            first = false;
            let start = self.chars;
            self.text.push_str(text);
            self.chars += text.chars().count();
            spans.push(Some([start, self.chars]));
        }
        spans
    }
}

/// The texts A and B of `paragraphs`, their truth, and whether every sentence placed is one
/// sentence as simdoc splits the texts.
pub(super) fn assemble(paragraphs: &[Paragraph]) -> (String, String, Truth, bool) {
    let mut a = Writer::default();
    let a_spans: Vec<Vec<Option<[usize; 2]>>> = paragraphs
        .iter()
        .map(|p| a.paragraph(p.slots.iter().map(|s| s.a.as_deref())))
        .collect();
    // B: the paragraphs in order, each moved one taken out and put before its target.
    let mut order: Vec<usize> = Vec::new();
    for target in 0..=paragraphs.len() {
        order.extend((0..paragraphs.len()).filter(|&p| paragraphs[p].moved_to == Some(target)));
        if target < paragraphs.len() && paragraphs[target].moved_to.is_none() {
            order.push(target);
        }
    }
    let mut b = Writer::default();
    let mut b_spans: Vec<Vec<Option<[usize; 2]>>> = vec![Vec::new(); paragraphs.len()];
    for &p in &order {
        b_spans[p] = b.paragraph(paragraphs[p].slots.iter().map(|s| s.b.as_deref()));
    }
    let mut edits = Vec::new();
    for (p, paragraph) in paragraphs.iter().enumerate() {
        for (s, slot) in paragraph.slots.iter().enumerate() {
            if let Some(kind) = slot.kind {
                edits.push(Edit {
                    kind,
                    a: a_spans[p].get(s).copied().flatten(),
                    b: b_spans[p].get(s).copied().flatten(),
                    reworded: slot.reworded,
                });
            }
        }
    }
    a.text.push('\n');
    b.text.push('\n');
    let sentences: [Vec<[usize; 2]>; 2] = [&a.text, &b.text].map(|text| {
        parse_text(text, "revision.txt", SourceFormat::Text)
            .sentences
            .iter()
            .map(|s| [s.offsets.start, s.offsets.end])
            .collect()
    });
    let whole = [&a_spans, &b_spans]
        .into_iter()
        .zip(&sentences)
        .all(|(spans, split)| {
            spans
                .iter()
                .flatten()
                .flatten()
                .all(|span| split.binary_search(span).is_ok())
        });
    (a.text, b.text, Truth { edits, sentences }, whole)
}

#[cfg(test)]
mod tests {
    use super::super::Slot;
    use super::*;
    use crate::compare::changes::ChangeKind;

    fn paragraph(sentences: &[&str]) -> Paragraph {
        Paragraph {
            slots: sentences.iter().map(|s| Slot::kept(s)).collect(),
            moved_to: None,
            taken: false,
        }
    }

    #[test]
    fn edits_are_where_their_spans_say() {
        let mut paragraphs = vec![
            paragraph(&["Första meningen.", "Second one."]),
            paragraph(&["Third here.", "Fourth."]),
            paragraph(&["Fifth.", "Sixth."]),
        ];
        paragraphs[0].slots[1].b = None;
        paragraphs[0].slots[1].kind = Some(ChangeKind::Deleted);
        paragraphs[1].slots.insert(
            1,
            Slot {
                a: Some("Old wording.".into()),
                b: Some("New wording.".into()),
                kind: Some(ChangeKind::Changed),
                reworded: false,
            },
        );
        paragraphs[0].moved_to = Some(3);
        let (a, b, truth, whole) = assemble(&paragraphs);
        assert!(whole);
        assert_eq!(
            b,
            "Third here. New wording. Fourth.\n\nFifth. Sixth.\n\nFörsta meningen.\n"
        );
        let read = |text: &str, [start, end]: [usize; 2]| -> String {
            text.chars().skip(start).take(end - start).collect()
        };
        let deleted = &truth.edits[0];
        assert_eq!(deleted.kind, ChangeKind::Deleted);
        assert_eq!(read(&a, deleted.a.unwrap()), "Second one.");
        assert_eq!(deleted.b, None);
        let changed = &truth.edits[1];
        assert_eq!(read(&a, changed.a.unwrap()), "Old wording.");
        assert_eq!(read(&b, changed.b.unwrap()), "New wording.");
        assert_eq!(truth.sentences[1].len(), 6);
    }
}
