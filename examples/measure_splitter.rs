//! Measures simdoc's sentence splitter against `sentencex` (Wikimedia) on real data.
//!
//! ```text
//! SIMDOC_DATA=/path/to/data cargo run --release --no-default-features --example measure_splitter \
//!     [-- --show N] [--only simdoc|sentencex]
//! ```
//!
//! For each splitter it prints:
//! 1. BBC summaries: every summary in `documents/bbc-news-summaries` is made of sentences copied
//!    from its article in `documents/bbc-news`, joined with no space after the full stop. The
//!    article is split paragraph by paragraph (blank-line separated, the headline is the first
//!    paragraph), the summary as one text; the figure is the share of summary sentences that are,
//!    after whitespace normalisation, sentences of the article.
//! 2. article-html ground truth: the hand-made article bodies (paragraphs one per line) of
//!    `documents/article-html/ground-truth.json`: sentence counts and diagnostics that point at
//!    wrong boundaries (over-long sentences, breaks right after an abbreviation, sentences that
//!    start with a lowercase letter).
//! 3. speed: both corpora together, and a 20 MB single line.
//!
//! `--show N` prints up to N examples of each problem; `--only NAME` measures one splitter.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use simdoc::document::builder::collapse_whitespace;
use simdoc::document::decode::decode;
use simdoc::document::sentences;

type SplitFn = fn(&str) -> Vec<String>;

fn simdoc_split(text: &str) -> Vec<String> {
    sentences::split(text)
        .into_iter()
        .map(|r| text[r].to_string())
        .collect()
}

/// sentencex keeps the whitespace between sentences; trimmed, and pieces without a letter or
/// digit dropped, as simdoc's contract does.
fn sentencex_split(text: &str) -> Vec<String> {
    sentencex::segment("en", text)
        .into_iter()
        .map(str::trim)
        .filter(|s| s.chars().any(char::is_alphanumeric))
        .map(str::to_string)
        .collect()
}

const SPLITTERS: [(&str, SplitFn); 2] = [("simdoc", simdoc_split), ("sentencex", sentencex_split)];

const BBC_CATEGORIES: [&str; 5] = ["business", "entertainment", "politics", "sport", "tech"];

fn main() {
    let Some(data) = std::env::var_os("SIMDOC_DATA").map(PathBuf::from) else {
        println!("skipped: SIMDOC_DATA not set");
        return;
    };
    let show = std::env::args()
        .skip_while(|a| a != "--show")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0usize);

    let bbc = read_bbc(&data);
    let bodies = read_ground_truth(&data);
    let glued_quotes: usize = bbc.iter().map(|p| glued_quote_count(&p.summary)).sum();
    println!(
        "data: {} BBC article/summary pairs ({glued_quotes} straight double quotes glued between \
         a terminator and a word in the summaries), {} article-html bodies\n",
        bbc.len(),
        bodies.len()
    );

    let only = std::env::args().skip_while(|a| a != "--only").nth(1);
    for (name, split) in SPLITTERS {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        println!("== {name}");
        measure_bbc(&bbc, split, show);
        measure_bodies(&bodies, split, show);
        measure_speed(&bbc, &bodies, split);
        println!();
    }
}

struct BbcPair {
    name: String,
    /// Paragraphs of the article, whitespace collapsed (the headline first).
    paragraphs: Vec<String>,
    summary: String,
}

fn read_text(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    decode(&bytes, false)
        .unwrap_or_else(|_| panic!("{}: not text", path.display()))
        .text
}

fn read_bbc(data: &Path) -> Vec<BbcPair> {
    let articles = data.join("documents/bbc-news/bbc");
    let summaries = data.join("documents/bbc-news-summaries/BBC News Summary/Summaries");
    let mut pairs = Vec::new();
    for category in BBC_CATEGORIES {
        let mut files: Vec<PathBuf> = std::fs::read_dir(articles.join(category))
            .unwrap_or_else(|e| panic!("{}: {e}", articles.display()))
            .map(|e| e.expect("readable directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        files.sort();
        for article in files {
            let file = article.file_name().expect("a file name").to_owned();
            let text = read_text(&article);
            let paragraphs = text
                .replace("\r\n", "\n")
                .split("\n\n")
                .map(collapse_whitespace)
                .filter(|p| !p.is_empty())
                .collect();
            let summary = collapse_whitespace(&read_text(&summaries.join(category).join(&file)));
            pairs.push(BbcPair {
                name: format!("{category}/{}", file.to_string_lossy()),
                paragraphs,
                summary,
            });
        }
    }
    pairs
}

fn read_ground_truth(data: &Path) -> Vec<(String, Vec<String>)> {
    let path = data.join("documents/article-html/ground-truth.json");
    let json: serde_json::Value =
        serde_json::from_str(&read_text(&path)).expect("ground-truth.json is JSON");
    let mut bodies: Vec<(String, Vec<String>)> = json
        .as_object()
        .expect("an object of id -> {articleBody, url}")
        .iter()
        .map(|(id, v)| {
            let body = v["articleBody"].as_str().unwrap_or_default();
            let paragraphs = body
                .lines()
                .map(collapse_whitespace)
                .filter(|p| !p.is_empty())
                .collect();
            (id.clone(), paragraphs)
        })
        .collect();
    bodies.sort();
    bodies
}

fn measure_bbc(pairs: &[BbcPair], split: SplitFn, show: usize) {
    let (mut total, mut verbatim, mut loose, mut perfect) = (0usize, 0usize, 0usize, 0usize);
    // Misses even loosely: the sentence's text is in the article but not as a sentence of it,
    // or it is not in the article's text at all.
    let (mut inside, mut elsewhere) = (0usize, 0usize);
    let mut misses = Vec::new();
    for pair in pairs {
        let sentences: Vec<String> = pair
            .paragraphs
            .iter()
            .flat_map(|p| split(p))
            .map(|s| collapse_whitespace(&s))
            .collect();
        let loose_article: HashSet<&str> = sentences.iter().map(|s| loosely(s)).collect();
        let article: HashSet<&str> = sentences.iter().map(String::as_str).collect();
        let article_text = pair.paragraphs.join(" ");
        let mut all = true;
        for sentence in split(&pair.summary) {
            let sentence = collapse_whitespace(&sentence);
            total += 1;
            if article.contains(sentence.as_str()) {
                verbatim += 1;
                loose += 1;
                continue;
            }
            all = false;
            if loose_article.contains(loosely(&sentence)) {
                loose += 1;
                continue;
            }
            let found = article_text.contains(loosely(&sentence));
            if found {
                inside += 1;
            } else {
                elsewhere += 1;
            }
            if misses.len() < show {
                let place = if found {
                    "in the article's text"
                } else {
                    "not in the article"
                };
                misses.push(format!("{} ({place}): {sentence}", pair.name));
            }
        }
        perfect += usize::from(all);
    }
    let share = |n: usize| 100.0 * n as f64 / total.max(1) as f64;
    println!(
        "BBC summaries: {verbatim} of {total} summary sentences are article sentences ({:.2}%); \
         {perfect} of {} summaries entirely found",
        share(verbatim),
        pairs.len()
    );
    println!(
        "  loosely (ignoring straight double quotes at either end, a leading list dash): {loose} \
         ({:.2}%)",
        share(loose)
    );
    println!(
        "  misses even loosely: {inside} whose text is in the article but not as one of its \
         sentences, {elsewhere} whose text is not in the article"
    );
    for m in misses {
        println!("  miss  {m}");
    }
}

/// How many times `text` has `."X`, `?"X` or `!"X` (X a letter or digit): a quote that either
/// closes the sentence before it or opens the one after it.
fn glued_quote_count(text: &str) -> usize {
    let chars: Vec<char> = text.chars().collect();
    chars
        .windows(3)
        .filter(|w| matches!(w[0], '.' | '?' | '!') && w[1] == '"' && w[2].is_alphanumeric())
        .count()
}

/// The comparison of `tests/sentences_real.rs` that forgives what is not the splitter's to
/// decide: the summaries glue sentences together without a space, so a straight double quote
/// between two of them (`...2005."If the oil...`) may have closed the first or opened the
/// second; and the plain-text reader takes the dash off a list item, which the summaries keep.
fn loosely(sentence: &str) -> &str {
    let sentence = sentence.trim_matches('"');
    sentence.strip_prefix("- ").unwrap_or(sentence)
}

/// Abbreviations after which a sentence break is almost always wrong.
const NEVER_FINAL: &[&str] = &[
    "Mr.", "Mrs.", "Ms.", "Dr.", "Prof.", "St.", "Gen.", "Gov.", "Sen.", "Rep.", "Lt.", "Col.",
    "Sgt.", "Capt.", "e.g.", "i.e.", "vs.", "No.",
];

fn measure_bodies(bodies: &[(String, Vec<String>)], split: SplitFn, show: usize) {
    let (mut sentences, mut paragraphs, mut chars) = (0usize, 0usize, 0usize);
    let mut long = Vec::new();
    let mut after_abbreviation = Vec::new();
    let mut after_initial = Vec::new();
    let mut lowercase_start = Vec::new();
    for (id, body) in bodies {
        for paragraph in body {
            paragraphs += 1;
            let parts = split(paragraph);
            for (i, s) in parts.iter().enumerate() {
                sentences += 1;
                chars += s.chars().count();
                if s.chars().count() > 400 {
                    long.push(format!("{id}: {s}"));
                }
                let Some(next) = parts.get(i + 1) else {
                    continue;
                };
                let last_word = s.split_whitespace().last().unwrap_or_default();
                let pair = format!("{id}: ...{} | {}...", tail(s, 60), head(next, 40));
                if NEVER_FINAL.contains(&last_word) {
                    after_abbreviation.push(pair);
                } else if is_initial(last_word) {
                    after_initial.push(pair);
                }
                if next.chars().next().is_some_and(char::is_lowercase) {
                    lowercase_start.push(format!(
                        "{id}: ...{} | {}...",
                        tail(s, 60),
                        head(next, 40)
                    ));
                }
            }
        }
    }
    println!(
        "article-html bodies: {sentences} sentences in {paragraphs} paragraphs of {} bodies \
         (mean {:.0} chars per sentence)",
        bodies.len(),
        chars as f64 / sentences.max(1) as f64
    );
    for (what, list) in [
        ("sentences over 400 chars", &long),
        (
            "breaks right after Mr./Dr./e.g./vs./No./...",
            &after_abbreviation,
        ),
        (
            "breaks right after a one-letter initial (X.)",
            &after_initial,
        ),
        (
            "sentences that start lowercase after a break",
            &lowercase_start,
        ),
    ] {
        println!("  {what}: {}", list.len());
        for example in list.iter().take(show) {
            println!("    {example}");
        }
    }
}

fn is_initial(word: &str) -> bool {
    let mut chars = word.chars();
    matches!(
        (chars.next(), chars.next(), chars.next()),
        (Some(c), Some('.'), None) if c.is_uppercase()
    )
}

fn head(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

fn tail(s: &str, n: usize) -> String {
    let count = s.chars().count();
    s.chars().skip(count.saturating_sub(n)).collect()
}

fn measure_speed(pairs: &[BbcPair], bodies: &[(String, Vec<String>)], split: SplitFn) {
    let texts: Vec<&str> = pairs
        .iter()
        .flat_map(|p| p.paragraphs.iter().chain([&p.summary]))
        .chain(bodies.iter().flat_map(|(_, b)| b.iter()))
        .map(String::as_str)
        .collect();
    let bytes: usize = texts.iter().map(|t| t.len()).sum();
    let start = Instant::now();
    let count: usize = texts.iter().map(|t| split(t).len()).sum();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "speed, both corpora by paragraph: {:.1} MB in {:.3} s = {:.1} MB/s ({count} sentences)",
        bytes as f64 / 1e6,
        secs,
        bytes as f64 / 1e6 / secs
    );

    let mut line = texts.join(" ");
    while line.len() < 20_000_000 {
        line = format!("{line} {line}");
    }
    let line = &line[..line.floor_char_boundary(20_000_000)];
    let start = Instant::now();
    let count = split(line).len();
    println!(
        "speed, one 20 MB line of that text: {:.3} s ({count} sentences)",
        start.elapsed().as_secs_f64()
    );
}
