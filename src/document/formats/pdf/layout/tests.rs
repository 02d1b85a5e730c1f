//! The layout inference on hand-placed glyphs: page numbers, hyphenation, running headers and
//! footers, paragraphs, headings and spaces. Apart from the inference so that it reads on its own.

use super::*;
use crate::document::tree::SourceFormat;

/// A line of glyphs, one per character, 6 points apart, at `y` in `size` points.
fn line(x: f32, y: f32, size: f32, text: &str) -> Vec<Glyph> {
    text.chars()
        .enumerate()
        .map(|(i, c)| Glyph {
            x: x + i as f32 * 6.0,
            y,
            size,
            advance: if c == ' ' { 6.0 } else { 5.5 },
            text: c.to_string(),
        })
        .collect()
}

fn page(parts: &[Vec<Glyph>]) -> Page {
    Page {
        glyphs: parts.concat(),
    }
}

fn outline(pages: &[Page]) -> Vec<String> {
    let mut builder = HierarchyBuilder::new("t.pdf");
    build(pages, &mut builder);
    let doc = builder.finish(SourceFormat::Pdf, crate::document::sentences::split);
    doc.nodes
        .iter()
        .enumerate()
        .skip(1)
        .map(|(id, n)| {
            let own: Vec<&str> = doc.sentences[n.own_sentences.clone()]
                .iter()
                .map(|s| s.text.as_str())
                .collect();
            let bp = if n.boilerplate { " [bp]" } else { "" };
            format!(
                "{}{}{bp} {}",
                "  ".repeat(doc.depth(id) - 1),
                n.kind.name(),
                own.join("|")
            )
        })
        .collect()
}

#[test]
fn page_numbers_are_recognised() {
    for yes in [
        "12",
        "- 12 -",
        "[3]",
        "Page 4",
        "page 4 of 10",
        "4 / 10",
        "xii",
        "(7)",
        "iv",
    ] {
        assert!(is_page_number(yes), "{yes}");
    }
    for no in [
        "12 apples",
        "Chapter 3",
        "2014 Ebola outbreak",
        "mix",
        "vim",
        "Page",
        "1.5 million",
    ] {
        assert!(!is_page_number(no), "{no}");
    }
}

#[test]
fn hyphenation_at_line_ends_is_undone() {
    assert_eq!(join_lines(["a docu-", "ment here"]), "a document here");
    assert_eq!(join_lines(["Guinea-", "Bissau is"]), "Guinea- Bissau is");
    assert_eq!(join_lines(["soft\u{AD}", "ly"]), "softly");
    assert_eq!(join_lines(["ends.", "Next"]), "ends. Next");
    assert_eq!(join_lines(["1990-", "1995"]), "1990- 1995");
}

#[test]
fn headers_footers_numbers_paragraphs_and_headings() {
    let header = |y| line(72.0, y, 10.0, "The Running Header");
    let number = |n: &str| line(300.0, 40.0, 10.0, n);
    let pages = [
        page(&[
            header(800.0),
            line(72.0, 760.0, 18.0, "Big Title"),
            line(72.0, 730.0, 14.0, "First part"),
            line(
                72.0,
                700.0,
                12.0,
                "One line of the first paragraph that goes on and",
            ),
            line(
                72.0,
                686.0,
                12.0,
                "on to the end of the line, where it is hyphen-",
            ),
            line(72.0, 672.0, 12.0, "ated and ends."),
            line(
                72.0,
                640.0,
                12.0,
                "A second paragraph starts after a wider gap and",
            ),
            number("1"),
        ]),
        page(&[
            header(800.0),
            line(
                72.0,
                760.0,
                12.0,
                "runs on across the page break to its end here.",
            ),
            line(72.0, 730.0, 14.0, "Second part"),
            line(
                72.0,
                700.0,
                12.0,
                "Last words of the document are right here.",
            ),
            number("2"),
        ]),
    ];
    assert_eq!(
        outline(&pages),
        vec![
            "region [bp] The Running Header",
            "section Big Title",
            "  section First part",
            "    paragraph One line of the first paragraph that goes on and on to the end of the line, where it is hyphenated and ends.",
            "    paragraph A second paragraph starts after a wider gap and runs on across the page break to its end here.",
            "  section Second part",
            "    paragraph Last words of the document are right here.",
        ]
    );
}

#[test]
fn a_line_on_one_page_only_is_body_text() {
    let pages = [
        page(&[
            line(72.0, 800.0, 12.0, "Only here"),
            line(72.0, 700.0, 12.0, "Body one."),
        ]),
        page(&[
            line(72.0, 800.0, 12.0, "Elsewhere"),
            line(72.0, 700.0, 12.0, "Body two."),
        ]),
    ];
    let lines = lines(&pages);
    assert_eq!(
        roles(&lines),
        vec![vec![Role::Body, Role::Body], vec![Role::Body, Role::Body]]
    );
}

#[test]
fn spaces_come_from_gaps_and_space_glyphs() {
    let mut glyphs = line(0.0, 100.0, 10.0, "ab");
    glyphs.extend(line(20.0, 100.0, 10.0, "cd"));
    glyphs.extend(line(32.0, 100.0, 10.0, " e"));
    let lines = lines(&[Page { glyphs }]);
    assert_eq!(lines[0][0].text, "ab cd e");
}
