//! Which sentences list only their best partners when a document is matched with many sources,
//! and how a summary says so.
//!
//! A document sentence keeps its few best partners in each source, a source sentence its few
//! best in the document ([`crate::similarity::partners::keep_best_per_source`]): a templated
//! document against templated sources would otherwise pair every line with every line. What
//! the listing reads (each sentence's best Sim into a source, its best source) is unchanged;
//! one-to-two matches and passages see only the partners kept.

use serde::Serialize;

use crate::compare::classes::thousands;
use crate::compare::partners_capped::kept_words;

/// The sentences whose partners were capped, at `kept` per source.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SourcePartnersCapped {
    pub kept: usize,
    /// Sentences of the document with more partners in some source.
    pub document: usize,
    /// The first of them (its position in the document).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<u32>,
    /// Sentences of the sources with more partners in the document.
    pub source_sentences: usize,
}

impl SourcePartnersCapped {
    pub fn is_empty(&self) -> bool {
        self.document == 0 && self.source_sentences == 0
    }

    /// One line for the summary (none when nothing was capped), e.g. "listed in part: 2,000
    /// sentences of the document have more than 10 partners in a source: each lists its 10 best
    /// there (the first: sentence 0); 1 source sentence lists its 10 best in the document".
    pub fn describe(&self) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        let (more_than, best) = kept_words(self.kept);
        let mut parts = Vec::new();
        if let Some(first) = self.first {
            let n = self.document;
            parts.push(format!(
                "{} {} of the document {} more than {more_than} in a source: each lists its \
                 {best} there (the first: sentence {first})",
                thousands(n as u64),
                if n == 1 { "sentence" } else { "sentences" },
                if n == 1 { "has" } else { "have" },
            ));
        }
        if self.source_sentences > 0 {
            let n = self.source_sentences;
            parts.push(format!(
                "{} source {} {} {best} in the document",
                thousands(n as u64),
                if n == 1 { "sentence" } else { "sentences" },
                if n == 1 { "lists its" } else { "list their" },
            ));
        }
        Some(format!("listed in part: {}", parts.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_names_both_sides_and_the_first_sentence() {
        let capped = SourcePartnersCapped {
            kept: 10,
            document: 2_000,
            first: Some(4),
            source_sentences: 1,
        };
        assert_eq!(
            capped.describe().as_deref(),
            Some(
                "listed in part: 2,000 sentences of the document have more than 10 partners in \
                 a source: each lists its 10 best there (the \
                 first: sentence 4); 1 source sentence lists its 10 best in the document"
            )
        );
        let only_sources = SourcePartnersCapped {
            kept: 5,
            document: 0,
            first: None,
            source_sentences: 3,
        };
        assert_eq!(
            only_sources.describe().as_deref(),
            Some("listed in part: 3 source sentences list their 5 best in the document")
        );
        assert_eq!(SourcePartnersCapped::default().describe(), None);
    }
}
