//! Tests of DOCX reading on packages written here.

use std::path::Path;

use super::*;
use crate::document::formats::tests::{outline, zip_of};
use crate::document::sentences;

const NS: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006""#;

fn rels(targets: &[(&str, &str)]) -> String {
    let base = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
    let items: String = targets
        .iter()
        .enumerate()
        .map(|(i, (kind, target))| {
            format!(r#"<Relationship Id="rId{i}" Type="{base}/{kind}" Target="{target}"/>"#)
        })
        .collect();
    format!(
        r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{items}</Relationships>"#
    )
}

fn read(parts: &[(&str, &str)]) -> Result<Document, LoadError> {
    let bytes = zip_of(parts);
    let path = Path::new("t.docx");
    // Without the limit on the unpacking ratio: some of these documents repeat one
    // structure thousands of times, which deflate packs over 100 times.
    let container = Container::with_limits(
        &bytes,
        path,
        SourceFormat::Docx,
        super::super::container::MAX_ENTRIES,
        super::super::container::MAX_UNPACKED_BYTES,
    )?;
    parse(&container, "t.docx", sentences::split)
}

fn styles() -> String {
    format!(
        r#"<w:styles {NS}>
          <w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>
          <w:style w:type="paragraph" w:styleId="H2"><w:name w:val="My sub"/><w:basedOn w:val="Base2"/></w:style>
          <w:style w:type="paragraph" w:styleId="Base2"><w:name w:val="base"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>
          <w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>
          <w:style w:type="character" w:styleId="Secret"><w:name w:val="secret"/><w:rPr><w:vanish/></w:rPr></w:style>
        </w:styles>"#
    )
}

fn p(style: &str, runs: &str) -> String {
    let props = if style.is_empty() {
        String::new()
    } else {
        format!(r#"<w:pPr><w:pStyle w:val="{style}"/></w:pPr>"#)
    };
    format!("<w:p>{props}{runs}</w:p>")
}

fn r(text: &str) -> String {
    format!(r#"<w:r><w:t xml:space="preserve">{text}</w:t></w:r>"#)
}

#[test]
fn structure_tracked_changes_hidden_text_fields_notes_and_page_regions() {
    let body = [
        p("Title", &r("The Title")),
        p("Heading1", &r("Chapter")),
        p(
            "",
            &[
                r("Kept "),
                r#"<w:del><w:r><w:delText>deleted </w:delText></w:r></w:del>"#.to_string(),
                format!("<w:ins>{}</w:ins>", r("inserted ")),
                r#"<w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden </w:t></w:r>"#.to_string(),
                r#"<w:r><w:rPr><w:rStyle w:val="Secret"/></w:rPr><w:t>styled-hidden </w:t></w:r>"#
                    .to_string(),
                r("text"),
                r#"<w:r><w:footnoteReference w:id="2"/></w:r>"#.to_string(),
                r(". Page "),
                r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>"#.to_string(),
                r("7"),
                r#"<w:r><w:fldChar w:fldCharType="end"/></w:r>"#.to_string(),
                r(" and "),
                r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> HYPERLINK "http://x" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>"#.to_string(),
                r("a link"),
                r#"<w:r><w:fldChar w:fldCharType="end"/></w:r>"#.to_string(),
                r(" end."),
            ]
            .concat(),
        ),
        p("H2", &r("Sub part")),
        r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr></w:pPr><w:r><w:t>First item</w:t></w:r></w:p>"#.to_string(),
        r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="3"/></w:numPr></w:pPr><w:r><w:t>Nested item</w:t></w:r></w:p>"#.to_string(),
        r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr></w:pPr><w:r><w:t>Second item</w:t></w:r></w:p>"#.to_string(),
        format!(
            "<w:tbl><w:tblPr/><w:tr><w:tc><w:tcPr/>{}</w:tc><w:tc>{}</w:tc></w:tr></w:tbl>",
            p("", &r("Cell one")),
            p("", &r("Cell two"))
        ),
        format!(
            r#"<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><w:txbxContent>{}</w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent>{}</w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r>{}</w:p>"#,
            p("", &r("Boxed text.")),
            p("", &r("Boxed text.")),
            r("After the box.")
        ),
        "<w:sectPr/>".to_string(),
    ]
    .concat();
    let document = format!(r#"<w:document {NS}><w:body>{body}</w:body></w:document>"#);
    let footnotes = format!(
        r#"<w:footnotes {NS}><w:footnote w:type="separator" w:id="0"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:id="2">{}</w:footnote></w:footnotes>"#,
        p("", &r("The footnote says this."))
    );
    let header = format!(r#"<w:hdr {NS}>{}</w:hdr>"#, p("", &r("Running head")));
    let footer = format!(
        r#"<w:ftr {NS}><w:p><w:fldSimple w:instr=" PAGE "><w:r><w:t>3</w:t></w:r></w:fldSimple></w:p></w:ftr>"#
    );
    let doc = read(&[
        (
            "_rels/.rels",
            &rels(&[("officeDocument", "word/document.xml")]),
        ),
        (
            "word/_rels/document.xml.rels",
            &rels(&[
                ("styles", "styles.xml"),
                ("footnotes", "footnotes.xml"),
                ("header", "header1.xml"),
                ("footer", "footer1.xml"),
            ]),
        ),
        ("word/document.xml", &document),
        ("word/styles.xml", &styles()),
        ("word/footnotes.xml", &footnotes),
        ("word/header1.xml", &header),
        ("word/footer1.xml", &footer),
    ])
    .unwrap();
    assert_eq!(doc.title, "The Title");
    assert_eq!(doc.format, SourceFormat::Docx);
    assert_eq!(
        outline(&doc),
        vec![
            "document ",
            "  region [bp] Running head",
            "  section The Title",
            "    section Chapter",
            "      paragraph Kept inserted text.|Page and a link end.",
            "      section Sub part",
            "        list ",
            "          list_item First item",
            "          list Nested item",
            "          list_item Second item",
            "        table ",
            "          table_cell Cell one",
            "          table_cell Cell two",
            "        paragraph Boxed text.",
            "        paragraph After the box.",
            "  notes The footnote says this.",
        ]
    );
}

#[test]
fn deeply_nested_open_fields_keep_their_text_rules() {
    // 50,000 hyperlink fields, each opened and separated but never ended, each followed by
    // a sentence: all of it is link text, shown. A page-number field inside them stays
    // hidden, and closing it does not close the links around it.
    let n = 50_000;
    let open_link = r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> HYPERLINK "http://x" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>"#;
    let mut runs = String::with_capacity(n * (open_link.len() + 60));
    for _ in 0..n {
        runs.push_str(open_link);
        runs.push_str(&r("Go on. "));
    }
    runs.push_str(r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>"#);
    runs.push_str(&r("9 "));
    runs.push_str(r#"<w:r><w:fldChar w:fldCharType="end"/></w:r>"#);
    runs.push_str(&r("Done."));
    let document = format!(
        r#"<w:document {NS}><w:body>{}</w:body></w:document>"#,
        p("", &runs)
    );
    let doc = read(&[
        (
            "_rels/.rels",
            &rels(&[("officeDocument", "word/document.xml")]),
        ),
        ("word/document.xml", &document),
    ])
    .unwrap();
    let texts: Vec<&str> = doc.sentences.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(texts.len(), n + 1);
    assert!(
        texts[..n].iter().all(|t| *t == "Go on."),
        "{:?}",
        &texts[..3]
    );
    assert_eq!(texts[n], "Done.");
}

#[test]
fn a_docx_without_its_document_part_names_it() {
    let err = read(&[
        ("[Content_Types].xml", "<Types/>"),
        (
            "_rels/.rels",
            &rels(&[("officeDocument", "word/document.xml")]),
        ),
    ])
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "t.docx: is not a complete DOCX file: it has no main document part (word/document.xml)"
    );
    let err = read(&[("word/document.xml", "<w:document not xml")]).unwrap_err();
    assert!(
        err.to_string().starts_with(
            "t.docx: is not a readable DOCX file: part word/document.xml is not well-formed XML"
        ),
        "{err}"
    );
    let no_body = format!(r#"<w:document {NS}/>"#);
    let err = read(&[("word/document.xml", &no_body)]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "t.docx: is not a complete DOCX file: it has no document body (w:body in word/document.xml)"
    );
}
