//! A matched pair's word-by-word alignment ([`crate::compare::word_alignment`]) for reports: a short
//! line of changes for spreadsheets, and both sentences marked up in HTML.

use std::fmt::Write;

use super::dotplot::escape;
use crate::compare::{AlignedWord, WordAlignment, WordMatch};

/// The changes of a pair in one line, in A's reading order then B's new words: `helps~aid 0.50`
/// (replaced by a related word, with c), `helping/helped` (another form of the same stem),
/// `-word` (only in A), `+word` (only in B). Identical and uncompared words are left out, so an
/// empty string means every compared word is there, as written, on both sides.
pub fn changes_line(alignment: &WordAlignment) -> String {
    let mut parts: Vec<String> = Vec::new();
    let partner = |w: &AlignedWord| {
        w.partner
            .and_then(|i| alignment.b.get(i as usize))
            .map_or("", |p| p.word.as_str())
    };
    for word in &alignment.a {
        match word.kind {
            WordMatch::Stemmed => parts.push(format!("{}/{}", word.word, partner(word))),
            WordMatch::Related { c, .. } => {
                parts.push(format!("{}~{} {c:.2}", word.word, partner(word)))
            }
            WordMatch::Unmatched => parts.push(format!("-{}", word.word)),
            WordMatch::Identical | WordMatch::Ignored => {}
        }
    }
    for word in &alignment.b {
        match word.kind {
            WordMatch::Unmatched => parts.push(format!("+{}", word.word)),
            // A related word of B whose partner in A is listed otherwise (as another form of
            // a word of B, say).
            WordMatch::Related { c, .. } => {
                let a = word.partner.and_then(|i| alignment.a.get(i as usize));
                if let Some(a) = a.filter(|a| !matches!(a.kind, WordMatch::Related { .. })) {
                    parts.push(format!("{}~{} {c:.2}", a.word, word.word));
                }
            }
            _ => {}
        }
    }
    parts.join("; ")
}

/// The CSS class of a word kind in the HTML report (styled by [`CSS`]).
fn class(kind: WordMatch) -> &'static str {
    match kind {
        WordMatch::Identical => "w-same",
        WordMatch::Stemmed => "w-stem",
        WordMatch::Related { .. } => "w-rel",
        WordMatch::Unmatched => "w-only",
        WordMatch::Ignored => "w-skip",
    }
}

/// Styles for [`sentence_html`], and the legend that explains them.
pub const CSS: &str = ".w-stem{text-decoration:underline}\
.w-rel{text-decoration:underline dotted;background:#f7e7b4}\
.w-only{background:#f5c6cb}.w-skip{color:#888}";

/// The legend of the word marks, as HTML.
pub const LEGEND_HTML: &str = "<p class=\"legend\">Words: as written in both · \
<span class=\"w-stem\">same stem, other form</span> · \
<span class=\"w-rel\">related word (hover: why, and c)</span> · \
<span class=\"w-only\">only in this sentence</span> · \
<span class=\"w-skip\">not compared</span></p>";

/// One side's sentence `part` with its words marked by kind; the text between words is kept as
/// written. `sentence` is the text the alignment was made from.
pub fn sentence_html(out: &mut String, sentence: &str, words: &[AlignedWord], part: u8) {
    let mut at = 0;
    for word in words.iter().filter(|w| w.part == part) {
        let span = word.span.clone();
        if span.start < at || span.end > sentence.len() || !sentence.is_char_boundary(span.start) {
            continue;
        }
        if !sentence.is_char_boundary(span.end) {
            continue;
        }
        out.push_str(&escape(&sentence[at..span.start]));
        let text = escape(&sentence[span.clone()]);
        match word.kind {
            WordMatch::Identical => out.push_str(&text),
            WordMatch::Related { c, why } => {
                let why = why.map_or("related".to_string(), |w| w.describe());
                let _ = write!(
                    out,
                    r#"<span class="{}" title="{}, c = {c:.2}">{text}</span>"#,
                    class(word.kind),
                    escape(&why)
                );
            }
            kind => {
                let _ = write!(out, r#"<span class="{}">{text}</span>"#, class(kind));
            }
        }
        at = span.end;
    }
    out.push_str(&escape(sentence.get(at..).unwrap_or("")));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::word_alignment::align;
    use crate::similarity::table::TableModel;
    use crate::text::RefineOptions;

    fn example() -> WordAlignment {
        let mut model = TableModel::new();
        model.set_correlation("aid", "help", 0.5);
        align(
            &["The Red Cross helps the victims & walking."],
            &["Victims get aid from the red cross, walked."],
            &RefineOptions::THESIS,
            Some(crate::compare::word_alignment::Relatedness::Correlations(
                &model,
            )),
        )
    }

    #[test]
    fn the_changes_line_lists_what_differs() {
        assert_eq!(
            changes_line(&example()),
            "helps~aid 0.50; walking/walked; +get"
        );
    }

    #[test]
    fn html_marks_words_and_keeps_the_text_between() {
        let alignment = example();
        let mut out = String::new();
        sentence_html(
            &mut out,
            "The Red Cross helps the victims & walking.",
            &alignment.a,
            0,
        );
        assert_eq!(
            out,
            r#"<span class="w-skip">The</span> Red Cross <span class="w-rel" title="related, c = 0.50">helps</span> <span class="w-skip">the</span> victims &amp; <span class="w-stem">walking</span>."#
        );
    }
}
