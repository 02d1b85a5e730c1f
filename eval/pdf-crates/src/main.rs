//! Compares PDF text-extraction crates on PDFs made from known text.
//!
//! Usage: `pdf-crates SOURCE.txt:FILE.pdf ...` (scripts/compare-pdf-crates.sh makes the PDFs).
//! For each crate and PDF: the share of the source text's word 5-grams found in the extracted
//! text (recall), the extraction time (best of 3 runs), and what happens on damaged copies of
//! the file (cut at 10%, 50% and 90% of its length; 64 bytes overwritten every 1,000): error,
//! text, or panic (caught).

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

type Extract = fn(&[u8]) -> Result<String, String>;

fn with_pdf_extract(bytes: &[u8]) -> Result<String, String> {
    pdf_extract::extract_text_from_mem(bytes).map_err(|e| e.to_string())
}

fn with_lopdf(bytes: &[u8]) -> Result<String, String> {
    let doc = lopdf::Document::load_mem(bytes).map_err(|e| e.to_string())?;
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    doc.extract_text(&pages).map_err(|e| e.to_string())
}

fn with_pdf_oxide(bytes: &[u8]) -> Result<String, String> {
    let doc = pdf_oxide::PdfDocument::from_bytes(bytes.to_vec()).map_err(|e| e.to_string())?;
    let pages = doc.page_count().map_err(|e| e.to_string())?;
    let mut text = String::new();
    for page in 0..pages {
        text.push_str(&doc.extract_text(page).map_err(|e| e.to_string())?);
        text.push('\n');
    }
    Ok(text)
}

/// Lowercased words (letters and digits), hyphens at line ends not undone: what a reader of the
/// raw extraction gets.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

fn five_grams(words: &[String]) -> HashSet<String> {
    words.windows(5).map(|w| w.join(" ")).collect()
}

fn recall(source: &str, extracted: &str) -> f64 {
    let want = five_grams(&words(source));
    let have = five_grams(&words(extracted));
    if want.is_empty() {
        return 0.0;
    }
    want.iter().filter(|g| have.contains(*g)).count() as f64 / want.len() as f64
}

fn outcome(extract: Extract, bytes: &[u8]) -> &'static str {
    match catch_unwind(AssertUnwindSafe(|| extract(bytes))) {
        Ok(Ok(text)) if text.trim().is_empty() => "empty",
        Ok(Ok(_)) => "text",
        Ok(Err(_)) => "error",
        Err(_) => "PANIC",
    }
}

fn damaged(bytes: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    let cut = |share: usize| bytes[..bytes.len() * share / 100].to_vec();
    let mut scribbled = bytes.to_vec();
    for start in (500..scribbled.len()).step_by(1000) {
        for b in scribbled[start..(start + 64).min(bytes.len())].iter_mut() {
            *b = b'#';
        }
    }
    vec![
        ("cut 10%", cut(10)),
        ("cut 50%", cut(50)),
        ("cut 90%", cut(90)),
        ("scribbled", scribbled),
    ]
}

fn main() {
    std::panic::set_hook(Box::new(|_| {}));
    let candidates: [(&str, Extract); 3] = [
        ("pdf-extract 0.12", with_pdf_extract),
        ("lopdf 0.47 extract_text", with_lopdf),
        ("pdf_oxide 0.3", with_pdf_oxide),
    ];
    let inputs: Vec<(String, Vec<u8>, String)> = std::env::args()
        .skip(1)
        .map(|arg| {
            let (source, pdf) = arg.split_once(':').expect("SOURCE:PDF");
            let text = std::fs::read_to_string(source).expect("source text");
            let bytes = std::fs::read(pdf).expect("pdf");
            (pdf.to_string(), bytes, text)
        })
        .collect();
    println!("| crate | file | KB | 5-gram recall | ms (best of 3) | MB/s | cut 10% | cut 50% | cut 90% | scribbled |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for (name, extract) in candidates {
        for (file, bytes, source) in &inputs {
            let mut best = f64::INFINITY;
            let mut text = Err("not run".to_string());
            for _ in 0..3 {
                let start = Instant::now();
                let result = catch_unwind(AssertUnwindSafe(|| extract(bytes)))
                    .unwrap_or_else(|_| Err("panic".into()));
                best = best.min(start.elapsed().as_secs_f64());
                text = result;
            }
            let r = match &text {
                Ok(t) => format!("{:.3}", recall(source, t)),
                Err(e) => format!("failed: {e}"),
            };
            let damage: Vec<&str> = damaged(bytes)
                .iter()
                .map(|(_, b)| outcome(extract, b))
                .collect();
            let short = std::path::Path::new(file).file_name().unwrap().to_string_lossy();
            println!(
                "| {name} | {short} | {} | {r} | {:.1} | {:.1} | {} |",
                bytes.len() / 1024,
                best * 1000.0,
                bytes.len() as f64 / best / 1e6,
                damage.join(" | ")
            );
        }
    }
}
