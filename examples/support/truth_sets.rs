//! Sets built from the shared data where the truth is known, for `eval_sources` (one document
//! against many sources) and `eval_collection presets` (collection mode with the sources marked,
//! and story versions in a feed). Included by `#[path]`; not an example of its own.
//!
//! Each set comes in two fixed parts: a *tuning* part, the only one operating points are chosen
//! on, and a *held-out* part the figures are reported on. The held-out parts are the sets
//! `eval_sources` has always measured:
//!
//! - **bbc**: BBC summaries (sentences copied out of their article) against the articles, in
//!   the five categories' file order. Held out: every fifth summary (position i % 5 == 0) is a
//!   document, and the articles of i % 10 == 5 are left out of the pool (their summaries are
//!   clean). Tuning: i % 5 == 2, articles of i % 10 == 7 left out. The two parts share the
//!   other articles as sources but no document. Byte-identical articles (98 groups) are all the
//!   summary's own source.
//! - **article-html**: the hand-made article bodies against the HTML pages, ordered by the
//!   ground truth's key. Held out: pages of even position in the pool (their bodies contained,
//!   the odd bodies clean). Tuning: pages of odd position (the odd bodies contained, the even
//!   clean). No (body, own page) pair is in both parts.
//! - **pan**: reworded reuse from PAN's sentence pairs, held out from its `holdout` split and
//!   tuned on its `tune` split (fixed, disjoint parts of the training file; see
//!   `simdoc::eval::formats::pan`): groups of ten plagiarised pairs give a source (the ten
//!   originals) and a *reworded* copy; groups of ten non-plagiarised pairs (a sentence from near
//!   the original in the same book) give a source and a clean document on the same topic; a
//!   *partial* copy takes three reworded sentences of one group and seven non-plagiarised
//!   rewrites of another, and is contained in the first group's source only. 100 groups each.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use simdoc::document::{self, Document, SourceFormat, parse_text};
use simdoc::eval::Format;

pub const CATEGORIES: [&str; 5] = ["business", "entertainment", "politics", "sport", "tech"];

/// Which part of a set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Tune,
    HeldOut,
}

/// A pool of sources and documents of which some are contained in a pool source.
pub struct Set {
    pub name: &'static str,
    pub sources: Vec<Document>,
    /// Each document, the sources it is contained in (empty: clean) and how it was made.
    pub documents: Vec<(Document, Vec<usize>, &'static str)>,
}

/// The three sets with sources, each of `part`; `only` keeps the one of that name.
pub fn sets(data: &Path, part: Part, only: Option<&str>) -> Vec<Set> {
    [
        ("bbc", bbc as fn(&Path, Part) -> Set),
        ("article-html", article_html),
        ("pan", pan),
    ]
    .into_iter()
    .filter(|(name, _)| only.is_none_or(|o| o == *name))
    .map(|(_, load)| load(data, part))
    .collect()
}

/// The BBC summaries' text joins sentences with no space after the full stop; one is put back
/// so that the splitter sees the sentences the summary was made of (as `eval_collection` does).
pub fn separate_sentences(text: &str) -> String {
    let mut fixed = String::with_capacity(text.len() + 64);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        fixed.push(c);
        if c == '.' && chars.peek().is_some_and(|n| n.is_uppercase()) {
            fixed.push(' ');
        }
    }
    fixed
}

/// The BBC articles' names ("category/NNN.txt") in the five categories' file order.
pub fn bbc_names(articles_dir: &Path) -> Vec<String> {
    let mut names = Vec::new();
    for cat in CATEGORIES {
        let mut list: Vec<String> = std::fs::read_dir(articles_dir.join(cat))
            .expect("bbc category folder")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".txt"))
            .collect();
        list.sort();
        names.extend(list.into_iter().map(|n| format!("{cat}/{n}")));
    }
    names
}

pub fn bbc_articles_dir(data: &Path) -> PathBuf {
    data.join("documents/bbc-news/bbc")
}

fn bbc(data: &Path, part: Part) -> Set {
    let articles_dir = bbc_articles_dir(data);
    let summaries_dir = data.join("documents/bbc-news-summaries/BBC News Summary/Summaries");
    let names = bbc_names(&articles_dir);
    let bytes: Vec<Vec<u8>> = names
        .iter()
        .map(|n| std::fs::read(articles_dir.join(n)).expect("article"))
        .collect();
    let (document_residue, held_out_residue) = match part {
        Part::HeldOut => (0, 5),
        Part::Tune => (2, 7),
    };
    let held_out = |i: usize| i % 10 == held_out_residue;
    let pool: Vec<usize> = (0..names.len()).filter(|&i| !held_out(i)).collect();
    // Pool position of each article text (twins share a text).
    let mut by_text: HashMap<&[u8], Vec<usize>> = HashMap::new();
    for (position, &i) in pool.iter().enumerate() {
        by_text.entry(&bytes[i]).or_default().push(position);
    }
    let sources = pool
        .par_iter()
        .map(|&i| {
            document::parse_bytes(&bytes[i], &articles_dir.join(&names[i]), None)
                .expect("article parses")
        })
        .collect();
    let documents = (0..names.len())
        .filter(|i| i % 5 == document_residue)
        .collect::<Vec<_>>()
        .par_iter()
        .map(|&i| {
            let text = std::fs::read(summaries_dir.join(&names[i])).expect("summary");
            let text = separate_sentences(&String::from_utf8_lossy(&text));
            let own = by_text
                .get(bytes[i].as_slice())
                .cloned()
                .unwrap_or_default();
            (
                parse_text(&text, "summary", SourceFormat::Text),
                own,
                "summary",
            )
        })
        .collect();
    Set {
        name: "bbc",
        sources,
        documents,
    }
}

fn article_html(data: &Path, part: Part) -> Set {
    let root = data.join("documents/article-html");
    let truth: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("ground-truth.json")).expect("ground truth"),
    )
    .expect("ground truth is JSON");
    let mut entries: Vec<(String, String)> = truth
        .as_object()
        .expect("an object of pages")
        .iter()
        .map(|(id, v)| (id.clone(), v["articleBody"].as_str().unwrap_or("").into()))
        .collect();
    entries.sort();
    let parity = match part {
        Part::HeldOut => 0,
        Part::Tune => 1,
    };
    let pool: Vec<&String> = entries
        .iter()
        .skip(parity)
        .step_by(2)
        .map(|(id, _)| id)
        .collect();
    let sources = pool
        .par_iter()
        .map(|id| {
            let path = root.join("html").join(format!("{id}.html"));
            let bytes = std::fs::read(&path).expect("page");
            document::parse_bytes(&bytes, &path, None).expect("page parses")
        })
        .collect();
    let documents = entries
        .par_iter()
        .enumerate()
        .map(|(i, (_, body))| {
            let own = if i % 2 == parity {
                vec![i / 2]
            } else {
                Vec::new()
            };
            let body = body.replace('\n', "\n\n");
            (parse_text(&body, "body", SourceFormat::Text), own, "body")
        })
        .collect();
    Set {
        name: "article-html",
        sources,
        documents,
    }
}

/// Groups of the PAN set (each part holds at least this many).
const PAN_GROUPS: usize = 100;

fn pan(data: &Path, part: Part) -> Set {
    let split = match part {
        Part::HeldOut => "holdout",
        Part::Tune => "tune",
    };
    let set = Format::Pan
        .load(&data.join("pairs/pan10"), Some(split))
        .expect("PAN split");
    let group = |label: bool| -> Vec<Vec<&simdoc::eval::LabeledPair>> {
        let pairs: Vec<_> = set.pairs.iter().filter(|p| p.positive == label).collect();
        pairs.chunks_exact(10).map(<[_]>::to_vec).collect()
    };
    let (reused, unrelated) = (group(true), group(false));
    let groups = reused.len().min(unrelated.len()).min(PAN_GROUPS);
    let text = |pairs: &[&simdoc::eval::LabeledPair], original: bool| -> Document {
        let body = pairs
            .iter()
            .map(|p| if original { &p.left } else { &p.right }.as_str())
            .collect::<Vec<_>>()
            .join("\n\n");
        parse_text(&body, "pan", SourceFormat::Text)
    };
    // Sources: reused group k at 2k, unrelated group k at 2k + 1.
    let mut sources = Vec::new();
    let mut documents = Vec::new();
    for k in 0..groups {
        let (r, u) = (&reused[k], &unrelated[k]);
        sources.push(text(r, true));
        sources.push(text(u, true));
        documents.push((text(r, false), vec![2 * k], "reworded"));
        let other = &unrelated[(k + 1) % groups];
        let partial: Vec<_> = r[..3].iter().chain(&other[3..]).copied().collect();
        documents.push((text(&partial, false), vec![2 * k], "partial"));
        // A clean document's sentences follow its source's in the book's order unless
        // `PAN_CLEAN_ORDER=reversed`: each sentence then sits away from its neighbour in the book,
        // which tells what the shared order adds to the flags (EVALUATION.md).
        let mut clean: Vec<_> = u.clone();
        if std::env::var("PAN_CLEAN_ORDER").is_ok_and(|order| order == "reversed") {
            clean.reverse();
        }
        documents.push((text(&clean, false), Vec::new(), "clean"));
    }
    Set {
        name: "pan",
        sources,
        documents,
    }
}
