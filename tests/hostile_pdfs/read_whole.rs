//! Issue 44: what a PDF hid or was wrongly refused for. Each file has two sentences, which
//! must both be read (exit 0, not as page furniture), quickly and with little memory.

use crate::common;

use std::path::Path;

use common::{arg, pdf_of, pdf_stream};

use super::{assert_refused, run, write};

const FIRST: &str = "The harbour froze early that winter.";
const SECOND: &str = "Boats stayed in until the spring thaw.";

/// Content showing `text` at height `y` in the font `/F1`.
fn line(y: u32, text: &str) -> String {
    format!("BT /F1 12 Tf 72 {y} Td ({text}) Tj ET\n")
}

/// Both sentences, with `between` drawn between them.
fn both_around(between: &[u8]) -> Vec<u8> {
    [
        line(720, FIRST).as_bytes(),
        between,
        line(700, SECOND).as_bytes(),
    ]
    .concat()
}

const FONT: &[u8] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";

/// A PDF whose page tree root (object 2) lists `kids`, whose page (object 3) has `resources`
/// (beside the font `/F1`, object 5) and the content stream `content_object` (object 4), and
/// `extra` objects numbered from 6 on.
fn pdf_with_page(
    kids: &str,
    resources: &str,
    content_object: Vec<u8>,
    extra: &[Vec<u8>],
) -> Vec<u8> {
    let mut objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        format!("<< /Type /Pages /Kids {kids} /Count 1 /MediaBox [0 0 612 792] >>").into_bytes(),
        format!("<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> {resources} >> >>")
            .into_bytes(),
        content_object,
        FONT.to_vec(),
    ];
    objects.extend(extra.iter().cloned());
    pdf_of(&objects)
}

/// `inspect` of `bytes` (written as `name` in `dir`) exits 0 with both sentences, neither of
/// them page furniture, within the guard's time and 150 MB; prints the time and memory taken
/// (`--nocapture`), the README catalogue's measured figures.
fn assert_reads_both(dir: &Path, name: &str, bytes: &[u8]) {
    assert_reads_both_within(dir, name, bytes, 150.0);
}

/// [`assert_reads_both`] within `memory_mb`; the peak memory, in MB.
fn assert_reads_both_within(dir: &Path, name: &str, bytes: &[u8], memory_mb: f64) -> f64 {
    let pdf = write(dir, name, bytes);
    let started = std::time::Instant::now();
    let out = run(&["inspect", arg(&pdf)]);
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(out.code, Some(0), "{name}: {out:?}");
    assert!(
        out.stdout.starts_with(&format!("{name} (2 sentences)\n")),
        "{name}: {out:?}"
    );
    for sentence in [FIRST, SECOND] {
        assert!(out.stdout.contains(sentence), "{name}: {out:?}");
    }
    assert!(!out.stdout.contains("[boilerplate]"), "{name}: {out:?}");
    assert!(out.peak_rss_mb < memory_mb, "{name}: {out:?}");
    println!(
        "{name} ({} bytes): {seconds:.2} s, {:.0} MB",
        bytes.len(),
        out.peak_rss_mb
    );
    out.peak_rss_mb
}

/// A one-page PDF drawing `content` (deflated when `deflate`), with page `resources` and
/// `extra` objects numbered from 6 on.
fn page_of(content: &[u8], deflate: bool, resources: &str, extra: &[Vec<u8>]) -> Vec<u8> {
    pdf_with_page(
        "[3 0 R]",
        resources,
        pdf_stream("", content, deflate),
        extra,
    )
}

/// A form XObject drawing `content`, with `resources` of its own when given.
fn form(content: &[u8], resources: Option<&str>) -> Vec<u8> {
    let resources = resources.map_or(String::new(), |r| format!(" /Resources << {r} >>"));
    pdf_stream(
        &format!("/Type /XObject /Subtype /Form /BBox [0 0 612 792]{resources}"),
        content,
        false,
    )
}

/// Issue 44, item 5: an integer past 64 bits stopped `lopdf`'s parse of the content stream, and
/// the rest of the page was silently dropped (or the page taken for a scan, when it came first);
/// viewers read it as a real. So do PDF white space bytes `lopdf` does not take for white space
/// (NUL, form feed), and comments, which it reads only in some places.
#[test]
fn an_integer_past_64_bits_hides_no_text() {
    let dir = tempfile::tempdir().unwrap();
    let huge = b"q 99999999999999999999 w Q\n";
    assert_reads_both(
        dir.path(),
        "between.pdf",
        &page_of(&both_around(huge), false, "", &[]),
    );
    let first = [huge.as_slice(), &both_around(b"")].concat();
    assert_reads_both(dir.path(), "first.pdf", &page_of(&first, true, "", &[]));
    // Signed, in an array operand, in a dash pattern, and far past any float's range.
    let operands = format!(
        "q [-123456789012345678901234 3] 0 d -99999999999999999999 M {}0 J Q\n",
        "9".repeat(400)
    );
    assert_reads_both(
        dir.path(),
        "operands.pdf",
        &page_of(&both_around(operands.as_bytes()), true, "", &[]),
    );
    // In a drawing (form XObject) the page paints: the drawing's text is read too.
    let drawing = form(
        &[huge.as_slice(), line(700, SECOND).as_bytes()].concat(),
        Some("/Font << /F1 5 0 R >>"),
    );
    let content = [line(720, FIRST).as_bytes(), b"/Fm Do"].concat();
    assert_reads_both(
        dir.path(),
        "form.pdf",
        &page_of(&content, false, "/XObject << /Fm 6 0 R >>", &[drawing]),
    );
    // White space by PDF's rules (7.2.3), not by `lopdf`'s content parser.
    assert_reads_both(
        dir.path(),
        "white.pdf",
        &page_of(&both_around(b"q\x001\x0cw\x00Q\x0c"), false, "", &[]),
    );
    // Comments (white space too, 7.2.4) between operands, or before an indented line.
    assert_reads_both(
        dir.path(),
        "comments.pdf",
        &page_of(
            &both_around(b"q 1 % the pen\n w\n% a note\n\n  Q\n"),
            false,
            "",
            &[],
        ),
    );
    // 200,000 of them on one page (5.4 MB unpacked, a few KB deflated): read, with no more
    // memory than the same page with short numbers takes.
    let many = |number: &str| {
        let content = format!("q {number} w Q\n").repeat(200_000);
        page_of(&both_around(content.as_bytes()), true, "", &[])
    };
    let short = assert_reads_both_within(dir.path(), "many-short.pdf", &many("9"), 600.0);
    let long = assert_reads_both_within(
        dir.path(),
        "many-integers.pdf",
        &many("99999999999999999999"),
        600.0,
    );
    assert!(
        long < short * 1.2 + 10.0,
        "{long:.0} MB against {short:.0} MB"
    );
}

/// An image XObject of one grey pixel.
fn pixel() -> Vec<u8> {
    pdf_stream(
        "/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8",
        b"\x00",
        false,
    )
}

/// Issue 44, item 7: a form XObject without resources of its own that paints (`Do`) what the
/// page names, as PDF 1.1 allowed, was refused as painting itself, and so were trees of forms
/// with no cycle: the check went by the names beside a form, not by those its content paints.
/// Only a true cycle is refused, and a tree painted over and over stops at the operation budget.
#[test]
fn drawings_that_inherit_resources_read_and_only_true_cycles_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let page_paints = |name: &str| {
        [
            line(720, FIRST).as_bytes(),
            format!("/{name} Do").as_bytes(),
        ]
        .concat()
    };
    // A form without resources of its own, painting an image named beside it.
    let inherits = form(&[line(700, SECOND).as_bytes(), b"/Im Do"].concat(), None);
    assert_reads_both(
        dir.path(),
        "inherits.pdf",
        &page_of(
            &page_paints("Fm"),
            false,
            "/XObject << /Fm 6 0 R /Im 7 0 R >>",
            &[inherits, pixel()],
        ),
    );
    // A tree of such forms, all named by the page: A paints B and C, B paints D and the image,
    // C shows the text.
    let tree = [
        form(b"/B Do /C Do", None),
        form(b"/D Do /Im Do", None),
        form(line(700, SECOND).as_bytes(), None),
        form(b"0 0 m", None),
        pixel(),
    ];
    assert_reads_both(
        dir.path(),
        "tree.pdf",
        &page_of(
            &page_paints("A"),
            false,
            "/XObject << /A 6 0 R /B 7 0 R /C 8 0 R /D 9 0 R /Im 10 0 R >>",
            &tree,
        ),
    );
    // A form whose own resources name itself, but which paints only the image.
    let names_itself = form(
        &[line(700, SECOND).as_bytes(), b"/Im Do"].concat(),
        Some("/Font << /F1 5 0 R >> /XObject << /Self 6 0 R /Im 7 0 R >>"),
    );
    assert_reads_both(
        dir.path(),
        "names-itself.pdf",
        &page_of(
            &page_paints("Self"),
            false,
            "/XObject << /Self 6 0 R /Im 7 0 R >>",
            &[names_itself, pixel()],
        ),
    );
    // Two forms that paint each other through the page's resources: refused.
    let cycle = write(
        dir.path(),
        "cycle.pdf",
        &page_of(
            &page_paints("A"),
            false,
            "/XObject << /A 6 0 R /B 7 0 R >>",
            &[form(b"/B Do", None), form(b"0 0 m /A Do", None)],
        ),
    );
    assert_refused(
        &run(&["inspect", arg(&cycle)]),
        &format!(
            "{}: is not a readable PDF file: a drawing in it (an XObject) paints itself",
            arg(&cycle)
        ),
    );
    // Twelve levels of forms inheriting the page's resources, each painting the next a hundred
    // times (10^24 paintings): refused at the operation budget, measured without running them.
    let levels: Vec<Vec<u8>> = (0..12)
        .map(|level| form(format!("/L{} Do ", level + 1).repeat(100).as_bytes(), None))
        .collect();
    let names: String = (0..12)
        .map(|level| format!("/L{level} {} 0 R ", 6 + level))
        .collect();
    let fan = write(
        dir.path(),
        "fan.pdf",
        &page_of(
            &page_paints("L0"),
            true,
            &format!("/XObject << {names}>>"),
            &levels,
        ),
    );
    let started = std::time::Instant::now();
    let out = run(&["inspect", arg(&fan)]);
    assert_refused(
        &out,
        &format!(
            "{}: its pages run more drawing operations than allowed, over the limit of 67108864",
            arg(&fan)
        ),
    );
    println!(
        "fan.pdf: refused in {:.2} s, {:.0} MB",
        started.elapsed().as_secs_f64(),
        out.peak_rss_mb
    );
}

/// Issue 44, item 8: a page listed twice in `/Kids`, or a `/Kids` that lists an ancestor, had
/// its text read once per listing, so every line was on "every page" and taken for running
/// headers and footers: "2 sentences (0 compared)", 0% against the same text. Each page is read
/// once, in the order first listed.
#[test]
fn a_page_listed_twice_or_in_a_kids_cycle_is_read_once() {
    let dir = tempfile::tempdir().unwrap();
    let content = || pdf_stream("", &both_around(b""), false);
    assert_reads_both(
        dir.path(),
        "twice.pdf",
        &pdf_with_page("[3 0 R 3 0 R]", "", content(), &[]),
    );
    assert_reads_both(
        dir.path(),
        "kids-cycle.pdf",
        &pdf_with_page("[3 0 R 2 0 R]", "", content(), &[]),
    );
    // Through an intermediate node that lists the root again, and the page once more.
    let node = b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 3 0 R 6 0 R] /Count 1 >>".to_vec();
    let pdf = pdf_with_page("[6 0 R 3 0 R]", "", content(), &[node]);
    assert_reads_both(dir.path(), "node.pdf", &pdf);
    // Compared with the same text, all of it is found (at the measured preset: the default finds
    // no evidence in two sentences, even against themselves).
    let same = dir.path().join("same.txt");
    std::fs::write(&same, format!("{FIRST} {SECOND}\n")).unwrap();
    let twice = dir.path().join("twice.pdf");
    let out = run(&["compare", arg(&twice), arg(&same), "--preset", "measured"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("2 sentences (2 compared)"), "{out:?}");
    assert!(
        out.stdout.contains("100% of B's text is found in A"),
        "{out:?}"
    );
}

/// Issue 44, item 10: a content stream whose `/Length` is wrong (too short, too long, past the
/// end of the file, negative, missing, or an indirect number that is wrong) was dropped whole,
/// and the file called a scan; viewers read such a stream up to its `endstream`, and so does
/// simdoc now.
#[test]
fn a_stream_with_a_wrong_length_is_read_to_its_endstream() {
    let dir = tempfile::tempdir().unwrap();
    let content = both_around(b"");
    let deflated = {
        use std::io::Write;
        let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(&content).unwrap();
        encoder.finish().unwrap()
    };
    let stream = |entries: &str, data: &[u8]| {
        [
            format!("<< {entries} >>\nstream\n").as_bytes(),
            data,
            b"\nendstream",
        ]
        .concat()
    };
    let long = format!("/Length {}", content.len() + 40);
    let cases = [
        ("short.pdf", stream("/Length 20", &content), vec![]),
        ("long.pdf", stream(&long, &content), vec![]),
        (
            "past-the-end.pdf",
            stream("/Length 100000", &content),
            vec![],
        ),
        ("negative.pdf", stream("/Length -5", &content), vec![]),
        ("missing.pdf", stream("", &content), vec![]),
        (
            "indirect.pdf",
            stream("/Length 6 0 R", &content),
            vec![b"20".to_vec()],
        ),
        (
            "deflated.pdf",
            stream("/Length 10 /Filter /FlateDecode", &deflated),
            vec![],
        ),
    ];
    for (name, content_object, extra) in cases {
        assert_reads_both(
            dir.path(),
            name,
            &pdf_with_page("[3 0 R]", "", content_object, &extra),
        );
    }
    // A page of 100,000 content streams (8.6 MB), each with a wrong length: all read, with
    // no more memory than the same file with the right lengths takes.
    let many = |length: &dyn Fn(usize) -> String| {
        let count = 100_000;
        let contents: Vec<String> = (5..5 + count).map(|n| format!("{n} 0 R")).collect();
        let mut objects = vec![
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>".to_vec(),
            format!(
                "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 4 0 R >> >> /Contents [{}] >>",
                contents.join(" ")
            )
            .into_bytes(),
            FONT.to_vec(),
            stream(&length(content.len()), &content),
        ];
        objects.extend((1..count).map(|_| stream(&length(3), b"q Q")));
        pdf_of(&objects)
    };
    let right = assert_reads_both_within(
        dir.path(),
        "many-right.pdf",
        &many(&|length| format!("/Length {length}")),
        400.0,
    );
    let wrong = assert_reads_both_within(
        dir.path(),
        "many-wrong.pdf",
        &many(&|_| "/Length 1".to_string()),
        400.0,
    );
    assert!(
        wrong < right * 1.2 + 10.0,
        "{wrong:.0} MB against {right:.0} MB"
    );
}
