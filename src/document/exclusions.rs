//! Sentences an analyst may leave out of a comparison: quotations and a bibliography.
//!
//! Turnitin and WCopyfind users expect both: a quotation in quotation marks, or set apart as a
//! block quote, is reuse the writer declared, and a list of references is expected to repeat
//! other lists of references. Both are found from the document alone (its text and its
//! hierarchy), so a sentence is left out the same way whatever it is compared with.
//!
//! - *Quotations* ([`quoted_sentences`]): the sentences of a block quote, and every sentence
//!   most of whose letters lie between quotation marks. Marks are paired within one block of
//!   running text (a paragraph, a list item), so an unbalanced mark cannot swallow the rest of
//!   the document: `"…"`, `“…”`, `„…“`, `«…»`, `»…«`, `「…」` and `『…』`. Single quotation
//!   marks are not read: `'` and `’` are mostly apostrophes ("don't", "the students’ work").
//!   A sentence is the unit of matching, so a short quotation inside a sentence of the writer's
//!   own leaves that sentence in, and a sentence that is mostly quotation leaves it out whole.
//! - *Bibliography* ([`bibliography_sentences`]): a section whose heading names a list of
//!   references (References, Bibliography, Works Cited, Literaturverzeichnis, ... in English,
//!   German, French, Spanish, Italian, Portuguese and Dutch, numbered or not), with its
//!   heading and everything in it.

use super::{Document, NodeKind};

/// What to leave out of a comparison (see the module docs). The default leaves out nothing,
/// as the thesis compares every sentence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Exclusions {
    /// Leave out quotations (quotation marks, block quotes).
    #[serde(default)]
    pub quotations: bool,
    /// Leave out a bibliography section.
    #[serde(default)]
    pub bibliography: bool,
}

impl Exclusions {
    /// Whether anything is left out.
    pub fn any(&self) -> bool {
        self.quotations || self.bibliography
    }

    /// For each sentence of `doc`: whether these exclusions leave it out.
    pub fn mask(&self, doc: &Document) -> Vec<bool> {
        self.reasons(doc).iter().map(Option::is_some).collect()
    }

    /// For each sentence of `doc`: why these exclusions leave it out, if they do (a quotation in
    /// a bibliography is in the bibliography).
    pub fn reasons(&self, doc: &Document) -> Vec<Option<LeftOut>> {
        let mut reasons = vec![None; doc.sentences.len()];
        if self.quotations {
            for (reason, quoted) in reasons.iter_mut().zip(quoted_sentences(doc)) {
                if quoted {
                    *reason = Some(LeftOut::Quotation);
                }
            }
        }
        if self.bibliography {
            for (reason, listed) in reasons.iter_mut().zip(bibliography_sentences(doc)) {
                if listed {
                    *reason = Some(LeftOut::Bibliography);
                }
            }
        }
        reasons
    }

    /// What is left out, in words for a summary ("quotations and the bibliography"), or `None`.
    pub fn describe(&self) -> Option<&'static str> {
        match (self.quotations, self.bibliography) {
            (true, true) => Some("quotations and the bibliography"),
            (true, false) => Some("quotations"),
            (false, true) => Some("the bibliography"),
            (false, false) => None,
        }
    }
}

/// Why a sentence is left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeftOut {
    Quotation,
    Bibliography,
}

impl LeftOut {
    /// In words: "a quotation", "in the bibliography".
    pub fn describe(self) -> &'static str {
        match self {
            LeftOut::Quotation => "a quotation",
            LeftOut::Bibliography => "in the bibliography",
        }
    }
}

/// A sentence is a quotation when at least this share of its letters and digits lie between
/// quotation marks.
pub const QUOTED_SHARE: f64 = 0.5;

/// The closing mark of each opening quotation mark read (see the module docs). `"` closes
/// itself; `“` opens an English quotation and closes a German one (`„…“`), which the state of
/// the scan tells apart.
const QUOTE_PAIRS: [(char, char); 7] = [
    ('"', '"'),
    ('“', '”'),
    ('„', '“'),
    ('«', '»'),
    ('»', '«'),
    ('「', '」'),
    ('『', '』'),
];

/// For each sentence of `doc`: whether it is a quotation (in a block quote, or mostly between
/// quotation marks; see the module docs).
pub fn quoted_sentences(doc: &Document) -> Vec<bool> {
    let mut quoted = vec![false; doc.sentences.len()];
    for node in &doc.nodes {
        if node.kind == NodeKind::Quote {
            for flag in &mut quoted[node.subtree_sentences.clone()] {
                *flag = true;
            }
        }
    }
    // The sentences of one node's own text are one block: marks pair within it.
    for node in &doc.nodes {
        let mut open: Option<char> = None;
        for position in node.own_sentences.clone() {
            let Some(sentence) = doc.sentences.get(position) else {
                continue;
            };
            let (mut inside, mut all) = (0usize, 0usize);
            for c in sentence.text.chars() {
                match open {
                    Some(close) if c == close => open = None,
                    None => {
                        if let Some(&(_, close)) = QUOTE_PAIRS.iter().find(|(o, _)| *o == c) {
                            open = Some(close);
                        }
                    }
                    Some(_) => {}
                }
                if c.is_alphanumeric() {
                    all += 1;
                    inside += usize::from(open.is_some());
                }
            }
            if all > 0 && inside as f64 >= QUOTED_SHARE * all as f64 {
                quoted[position] = true;
            }
        }
    }
    quoted
}

/// Headings of a list of references, lower-case, without numbering or a final colon.
const BIBLIOGRAPHY_HEADINGS: &[&str] = &[
    "references",
    "reference list",
    "list of references",
    "bibliography",
    "select bibliography",
    "selected bibliography",
    "works cited",
    "works consulted",
    "literature cited",
    "literature",
    "sources",
    "sources cited",
    "citations",
    "notes and references",
    "references and notes",
    "literaturverzeichnis",
    "literatur",
    "quellen",
    "quellenverzeichnis",
    "bibliographie",
    "références",
    "références bibliographiques",
    "bibliografía",
    "referencias",
    "referencias bibliográficas",
    "bibliografia",
    "riferimenti bibliografici",
    "referências",
    "referências bibliográficas",
    "literatuur",
    "literatuurlijst",
    "bronnen",
];

/// Whether a heading names a list of references: "References", "7. Bibliography",
/// "WORKS CITED:", "IV Literaturverzeichnis".
pub fn is_bibliography_heading(heading: &str) -> bool {
    let lower = heading.trim().to_lowercase();
    // Numbering: "7.", "7.1", "IV", "A." before the words.
    let words: Vec<&str> = lower.split_whitespace().collect();
    let start = match words.first() {
        Some(first) if words.len() > 1 && is_numbering(first) => 1,
        _ => 0,
    };
    let name = words[start..].join(" ");
    let name = name.trim_end_matches([':', '.']).trim();
    BIBLIOGRAPHY_HEADINGS.contains(&name)
}

/// "7", "7.", "7.1", "iv", "iv.", "a." (a section number, arabic, roman or a letter).
fn is_numbering(word: &str) -> bool {
    let core = word.trim_end_matches(['.', ')']);
    !core.is_empty()
        && (core.chars().all(|c| c.is_ascii_digit() || c == '.')
            || core.chars().all(|c| "ivxlc".contains(c))
            || (core.chars().count() == 1 && word.ends_with(['.', ')'])))
}

/// For each sentence of `doc`: whether it lies in a bibliography section, its heading included
/// (see the module docs).
pub fn bibliography_sentences(doc: &Document) -> Vec<bool> {
    let mut listed = vec![false; doc.sentences.len()];
    for node in &doc.nodes {
        let range = if node.kind == NodeKind::Section {
            if !is_bibliography_heading(&node.label) {
                continue;
            }
            node.subtree_sentences.clone()
        } else {
            // A heading the structure did not recognise ("7. References" read as a numbered
            // list's item, a bold line in a paragraph of its own): a block that is one
            // bibliography heading, down to the end of the section it lies in.
            let own = node.own_sentences.clone();
            let heading_alone = own.len() == 1
                && doc
                    .sentences
                    .get(own.start)
                    .is_some_and(|s| is_bibliography_heading(&s.text));
            if !heading_alone {
                continue;
            }
            let mut section = node.parent;
            while let Some(id) = section {
                let kind = doc.nodes[id].kind;
                if kind == NodeKind::Section || kind == NodeKind::Document {
                    break;
                }
                section = doc.nodes[id].parent;
            }
            let end = section.map_or(doc.sentences.len(), |id| {
                doc.nodes[id].subtree_sentences.end
            });
            own.start..end
        };
        for flag in listed.get_mut(range).into_iter().flatten() {
            *flag = true;
        }
    }
    listed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{SourceFormat, parse_text};

    fn plain_doc(text: &str) -> Document {
        parse_text(text, "t.txt", SourceFormat::Text)
    }

    fn marked(doc: &Document, mask: &[bool]) -> Vec<String> {
        doc.sentences
            .iter()
            .zip(mask)
            .filter(|(_, m)| **m)
            .map(|(s, _)| s.text.clone())
            .collect()
    }

    #[test]
    fn sentences_mostly_in_quotation_marks_are_quotations() {
        let doc = plain_doc(
            "My own words come first here. \"The whole of this sentence is quoted from a book.\" \
             He wrote that “a short phrase” matters in this longer sentence of mine. \
             «Ceci est une citation entière.»\n\n„Das ist ein Zitat.“\n\nThe end is mine.",
        );
        assert_eq!(
            marked(&doc, &quoted_sentences(&doc)),
            [
                "\"The whole of this sentence is quoted from a book.\"",
                "«Ceci est une citation entière.»",
                "„Das ist ein Zitat.“",
            ]
        );
    }

    #[test]
    fn a_quotation_over_several_sentences_is_quoted_throughout() {
        let doc = plain_doc(
            "She said: \"The first quoted sentence. The second one. The third.\" Then I go on.",
        );
        assert_eq!(
            marked(&doc, &quoted_sentences(&doc)),
            [
                "She said: \"The first quoted sentence.",
                "The second one.",
                "The third.\""
            ]
        );
    }

    #[test]
    fn an_unbalanced_mark_ends_with_its_paragraph() {
        let doc = plain_doc(
            "A stray \" mark opens here and never closes in this paragraph.\n\n\
             The next paragraph is the writer's own text again.",
        );
        assert_eq!(
            marked(&doc, &quoted_sentences(&doc)),
            ["A stray \" mark opens here and never closes in this paragraph."]
        );
    }

    #[test]
    fn apostrophes_and_block_quotes() {
        let doc = parse_text(
            "<p>The students' work isn't quoted at all, it's theirs.</p>\
             <blockquote><p>A block quotation has no marks. It has two sentences.</p></blockquote>",
            "t.html",
            SourceFormat::Html,
        );
        assert_eq!(
            marked(&doc, &quoted_sentences(&doc)),
            ["A block quotation has no marks.", "It has two sentences."]
        );
    }

    #[test]
    fn a_references_section_is_the_bibliography() {
        let doc = plain_doc(
            "Essay\n\nMy argument is made in this paragraph.\n\n7. References\n\n\
             Smith, J. (2001). A study of things. Journal of Studies, 4, 1-10.\n\n\
             Jones, K. (2003). Another study. Press, London.",
        );
        let listed = marked(&doc, &bibliography_sentences(&doc));
        // "7." is read as a numbered list's marker: the item is the heading.
        assert_eq!(listed.first().map(String::as_str), Some("References"));
        assert!(listed.iter().any(|s| s.starts_with("Smith, J.")));
        assert!(listed.iter().any(|s| s.contains("Press, London")));
        assert!(!listed.iter().any(|s| s.contains("argument")));
    }

    #[test]
    fn bibliography_headings() {
        for yes in [
            "References",
            "REFERENCES:",
            "7. Bibliography",
            "IV Literaturverzeichnis",
            "Works Cited",
            "Références",
        ] {
            assert!(is_bibliography_heading(yes), "{yes}");
        }
        for no in [
            "Introduction",
            "References to the past",
            "Sources of error",
            "",
        ] {
            assert!(!is_bibliography_heading(no), "{no}");
        }
    }

    #[test]
    fn the_mask_joins_what_is_asked() {
        let doc = plain_doc(
            "Essay\n\n\"A quoted sentence of the essay.\" My own sentence.\n\nReferences\n\n\
             Smith, J. (2001). A study.",
        );
        let none = Exclusions::default().mask(&doc);
        assert!(none.iter().all(|m| !m));
        let both = Exclusions {
            quotations: true,
            bibliography: true,
        };
        let left_out = marked(&doc, &both.mask(&doc));
        assert!(left_out.contains(&"\"A quoted sentence of the essay.\"".to_string()));
        assert!(left_out.contains(&"References".to_string()));
        assert!(!left_out.contains(&"My own sentence.".to_string()));
    }
}
