//! The texts the revisions are made of ([`Sources`]), read from the shared data: Wikipedia
//! articles as paragraphs of sentences, Reuters stories' sentences and PAN's one-sentence
//! paraphrases, each split as simdoc splits sentences. Apart from the edits, which only draw
//! from them.

use std::path::Path;

use anyhow::Context;

use crate::document::{LoadOptions, sentences};
use crate::eval::formats::pan;

/// The texts the revisions are made of.
pub(super) struct Sources {
    /// Wikipedia articles, each as its paragraphs' sentences.
    pub(super) articles: Vec<Vec<Vec<String>>>,
    /// Reuters stories, each as its sentences.
    pub(super) stories: Vec<Vec<String>>,
    /// PAN's positive pairs that are one sentence on each side and differ.
    pub(super) paraphrases: Vec<(String, String)>,
}

/// Splits `text` into its sentences as simdoc does, each ending with a full stop, question or
/// exclamation mark (one is added where a line ends without: a PAN sentence often does, and
/// would otherwise run into the sentence after it where it is inserted).
fn split_sentences(text: &str) -> Vec<String> {
    sentences::split(text)
        .into_iter()
        .map(|r| terminated(&text[r]))
        .collect()
}

/// `sentence` with a full stop added unless it ends with one, a question or an exclamation
/// mark (before any closing quotes or brackets).
fn terminated(sentence: &str) -> String {
    let last = sentence
        .trim_end()
        .chars()
        .rev()
        .find(|c| !matches!(c, '"' | '\'' | ')' | ']' | '”' | '’'));
    if matches!(last, Some('.' | '!' | '?')) {
        sentence.to_string()
    } else {
        format!("{}.", sentence.trim_end())
    }
}

fn words(text: &str) -> usize {
    text.split_whitespace().count()
}

impl Sources {
    pub(super) fn read(data: &Path, split: &str) -> anyhow::Result<Sources> {
        let (wiki, reuters) = match split {
            pan::TUNE => (0..50, 0..11),
            pan::HOLDOUT => (50..100, 11..22),
            other => anyhow::bail!("the part must be `tune` or `holdout`, not `{other}`"),
        };
        let mut articles = Vec::new();
        for file in wiki {
            let path = data.join(format!("reference/enwiki-2015/text/AA/wiki_{file:02}"));
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("{}: cannot read", crate::escape::path(&path)))?;
            articles.extend(wiki_articles(&text));
        }
        let mut stories = Vec::new();
        for file in reuters {
            let path = data.join(format!("reference/reuters-21578/reut2-{file:03}.sgm"));
            for entry in crate::corpus::read_entries(&path, &LoadOptions::default())? {
                let body = entry.text.split_whitespace().collect::<Vec<_>>().join(" ");
                let kept: Vec<String> = split_sentences(&body)
                    .into_iter()
                    .filter(|s| {
                        (6..=40).contains(&words(s))
                            && s.ends_with('.')
                            && s.chars().any(|c| c.is_lowercase())
                            && !s.contains("Reuter")
                    })
                    .collect();
                if kept.len() >= 4 {
                    stories.push(kept);
                }
            }
        }
        let (_, pairs) = pan::load(&data.join("pairs/pan10"), split)?;
        let one_sentence = |s: &str| split_sentences(s).len() == 1 && (6..=60).contains(&words(s));
        let same = |x: &str, y: &str| {
            x.split_whitespace().collect::<Vec<_>>() == y.split_whitespace().collect::<Vec<_>>()
        };
        let paraphrases: Vec<(String, String)> = pairs
            .into_iter()
            .filter(|p| p.positive)
            .map(|p| (terminated(p.left.trim()), terminated(p.right.trim())))
            .filter(|(x, y)| one_sentence(x) && one_sentence(y) && !same(x, y))
            .collect();
        if articles.is_empty() || stories.is_empty() || paraphrases.is_empty() {
            anyhow::bail!("{}: missing Wikipedia, Reuters or PAN text", data.display());
        }
        Ok(Sources {
            articles,
            stories,
            paraphrases,
        })
    }
}

/// The articles of a WikiExtractor file, each as its paragraphs (lines) split into sentences,
/// without the title line.
fn wiki_articles(text: &str) -> Vec<Vec<Vec<String>>> {
    let mut articles = Vec::new();
    let mut current: Option<Vec<Vec<String>>> = None;
    let mut title_next = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("<doc ") {
            current = Some(Vec::new());
            title_next = true;
        } else if line == "</doc>" {
            articles.extend(current.take().filter(|a| a.len() >= 3));
        } else if !line.is_empty()
            && let Some(article) = current.as_mut()
        {
            if std::mem::take(&mut title_next) {
                continue;
            }
            let sentences = split_sentences(line);
            if !sentences.is_empty() {
                article.push(sentences);
            }
        }
    }
    articles
}
