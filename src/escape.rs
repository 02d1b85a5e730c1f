//! Names and text from the inputs are data, wherever simdoc writes them: file names, titles and
//! sentences come from files nobody here wrote, and each place they go reads some characters as
//! commands. One function per destination:
//!
//! - [`terminal`]: control characters (C0, DEL, C1: escape sequences that recolour, move the
//!   cursor or retitle the window; a newline that forges a line of a summary) and the
//!   bidirectional overrides and isolates that reorder what a terminal shows ("Trojan Source",
//!   CVE-2021-42574), written as `\n`, `\t`, `\r` or `\u{..}`, so that one name is always one
//!   visible run of text on one line;
//! - [`csv_cell`]: OWASP's rule against CSV (formula) injection, for cells a spreadsheet would
//!   evaluate: a cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return gets a single
//!   quote in front, which spreadsheets read as "this is text" (numbers such as `-0.5` are left
//!   as they are: a spreadsheet reads them as numbers, not formulas). The CSV writer's quoting
//!   (RFC 4180) keeps separators and quotes inside a cell; [`CsvWriter`] applies both;
//! - [`url_path`]: a relative link's path percent-encoded segment by segment (`run #1?.html`
//!   would otherwise end at `#`);
//! - [`xml_text`]: text for SVG (XML 1.0), with the characters XML forbids (controls other than
//!   tab, newline and carriage return, and the noncharacters U+FFFE and U+FFFF) left out, so
//!   that a name cannot make the picture unreadable.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

/// Whether `c` is shown escaped on a terminal: a control character, a line or paragraph
/// separator, or a bidirectional formatting character.
fn needs_terminal_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}' | '\u{061C}'
        )
}

/// `text` as it may be printed on a terminal: see the module docs.
pub fn terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_terminal_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if needs_terminal_escape(c) => {
                // Writing to a String cannot fail.
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A path as it may be printed on a terminal ([`terminal`] of its display form).
pub fn path(path: &Path) -> String {
    terminal(&path.display().to_string()).into_owned()
}

/// The characters that make a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// `cell` as a CSV cell no spreadsheet evaluates: see the module docs.
pub fn csv_cell(cell: &str) -> Cow<'_, str> {
    let risky = cell.starts_with(FORMULA_STARTS);
    if !risky || cell.trim().parse::<f64>().is_ok_and(f64::is_finite) {
        return Cow::Borrowed(cell);
    }
    Cow::Owned(format!("'{cell}"))
}

/// A CSV writer whose every cell goes through [`csv_cell`] (and the `csv` crate's RFC 4180
/// quoting): every CSV simdoc writes is made through it.
pub struct CsvWriter<W: Write> {
    inner: csv::Writer<W>,
}

impl<W: Write> CsvWriter<W> {
    pub fn new(out: W) -> Self {
        CsvWriter {
            inner: csv::Writer::from_writer(out),
        }
    }

    /// Writes one record, each cell made safe.
    pub fn write_record<I, T>(&mut self, record: I) -> Result<(), csv::Error>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<str>,
    {
        let cells: Vec<T> = record.into_iter().collect();
        self.inner
            .write_record(cells.iter().map(|c| csv_cell(c.as_ref()).into_owned()))
    }

    pub fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The characters left as they are in a link's path segment: RFC 3986's unreserved set.
const PATH_SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// A relative link to `path` (segments separated by `/`), each segment percent-encoded.
pub fn url_path(path: &str) -> String {
    path.split('/')
        .map(|segment| percent_encoding::utf8_percent_encode(segment, PATH_SEGMENT).to_string())
        .collect::<Vec<_>>()
        .join("/")
}

/// Whether XML 1.0 allows `c` in text (its `Char` production; surrogates never reach a `str`).
pub fn xml_allows(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && !matches!(c, '\u{FFFE}' | '\u{FFFF}'))
}

/// `text` with the characters XML forbids left out (see the module docs); markup characters
/// are the caller's to escape.
pub fn xml_text(text: &str) -> Cow<'_, str> {
    if text.chars().all(xml_allows) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().filter(|&c| xml_allows(c)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidirectional_overrides_are_shown_escaped() {
        assert_eq!(terminal("essay.txt"), "essay.txt");
        assert!(matches!(terminal("plain name"), Cow::Borrowed(_)));
        assert_eq!(
            terminal("a\n   1. forged.txt <-> b"),
            "a\\n   1. forged.txt <-> b"
        );
        assert_eq!(
            terminal("\u{1b}[31mred\u{1b}]0;title\u{7}"),
            "\\u{1b}[31mred\\u{1b}]0;title\\u{7}"
        );
        assert_eq!(terminal("tab\there\r"), "tab\\there\\r");
        assert_eq!(terminal("txt.\u{202e}exe"), "txt.\\u{202e}exe");
        assert_eq!(terminal("c1 \u{9b}2J"), "c1 \\u{9b}2J");
        assert_eq!(terminal("café Straße 日本"), "café Straße 日本");
        assert_eq!(path(Path::new("dir/x\ny.txt")), "dir/x\\ny.txt");
    }

    #[test]
    fn cells_a_spreadsheet_would_evaluate_get_a_quote() {
        for (cell, safe) in [
            ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
            ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"),
            ("-word +word", "'-word +word"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\t=1", "'\t=1"),
            ("\r=1", "'\r=1"),
            ("plain text", "plain text"),
            ("a=b", "a=b"),
            ("", ""),
            // Numbers stay numbers.
            ("-0.25", "-0.25"),
            ("+3", "+3"),
            ("-inf", "'-inf"),
        ] {
            assert_eq!(csv_cell(cell), safe, "{cell:?}");
        }
        let mut out = Vec::new();
        let mut writer = CsvWriter::new(&mut out);
        writer.write_record(["name", "-x, y", "=1"]).unwrap();
        writer.write_record(["-1", "a\"b", "ok"]).unwrap();
        writer.flush().unwrap();
        drop(writer);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "name,\"'-x, y\",'=1\n-1,\"a\"\"b\",ok\n"
        );
    }

    #[test]
    fn link_paths_are_percent_encoded_by_segment() {
        assert_eq!(url_path("report-pairs/1.html"), "report-pairs/1.html");
        assert_eq!(
            url_path("run #1?-pairs/12.html"),
            "run%20%231%3F-pairs/12.html"
        );
        assert_eq!(url_path("a%b\"<c>/é.html"), "a%25b%22%3Cc%3E/%C3%A9.html");
    }

    #[test]
    fn characters_xml_forbids_are_left_out() {
        assert_eq!(xml_text("a\u{FFFF}b\u{FFFE}c\u{0}d\u{1b}e"), "abcde");
        assert_eq!(
            xml_text("tab\tnewline\n é \u{FFFD}"),
            "tab\tnewline\n é \u{FFFD}"
        );
        assert!(matches!(xml_text("fine"), Cow::Borrowed(_)));
    }
}
