//! Section 3 of `eval_collection`: Roul et al.'s LSI cosine against the human grades of
//! documents/lee-news (Pearson r), for TF-IDF with and without LSI at several ranks. Apart from
//! the BBC sections, which share nothing with it but the collection's preparation.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use simdoc::collection::Normaliser;
use simdoc::collection::roul::lsi::{LsiSpace, cosine};
use simdoc::collection::roul::{tfidf_vectors, unit_length};
use simdoc::document::{self, Document, SourceFormat};

use super::prepare;

/// Lines of a latin-1 file.
fn latin1_lines(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text: String = bytes.iter().map(|&b| char::from(b)).collect();
    text.lines()
        .map(str::to_string)
        .filter(|l| !l.trim().is_empty())
        .collect()
}

fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let cov: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
    let vy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
    cov / (vx * vy).sqrt()
}

pub fn lee_section(data: &Path) {
    let dir = data.join("documents/lee-news");
    let background = latin1_lines(&dir.join("lee_background.cor"));
    let rated = latin1_lines(&dir.join("lee.cor"));
    let grades: Vec<Vec<f64>> = std::fs::read_to_string(dir.join("similarities0-1.txt"))
        .expect("similarities0-1.txt")
        .lines()
        .map(|l| {
            l.split_whitespace()
                .filter_map(|v| v.parse().ok())
                .collect()
        })
        .collect();
    // The upper triangle, as gensim's test reads it (np.triu_indices(50, 1)).
    let human: Vec<f64> = grades
        .iter()
        .take(rated.len())
        .enumerate()
        .flat_map(|(i, row)| row.iter().take(rated.len()).skip(i + 1).copied())
        .collect();
    println!("## Lee: LSI cosine against human grades\n");
    println!(
        "{} background documents span the LSI space; the {} rated documents are folded in; {} pairs.\n",
        background.len(),
        rated.len(),
        human.len()
    );
    println!("| representation | Pearson r |");
    println!("|---|---|");
    let all: Vec<String> = background.iter().chain(&rated).cloned().collect();
    let names: Vec<String> = (0..all.len()).map(|i| format!("lee#{i}")).collect();
    let docs: Vec<Document> = all
        .iter()
        .zip(&names)
        .map(|(t, n)| document::parse_text(t, n, SourceFormat::Text))
        .collect();
    let mut c = prepare(&names, &docs, Normaliser::Refine);
    // idf from the background only.
    let nb = background.len();
    let mut df = vec![0u32; c.vocabulary.len()];
    for doc in &c.documents[..nb] {
        let terms: HashSet<u32> = doc.terms().collect();
        for t in terms {
            df[t as usize] += 1;
        }
    }
    let df_of: HashMap<String, u32> = (0..c.vocabulary.len())
        .map(|t| (c.term(t as u32).to_string(), df[t]))
        .collect();
    c.use_reference_frequencies(nb as u32, |t| df_of.get(t).copied().unwrap_or(0));
    let raw = tfidf_vectors(&c);
    let mut unit = raw.clone();
    unit.iter_mut().for_each(unit_length);
    let correlate = |label: &str, vectors: &[Vec<f64>]| {
        let mut ours = Vec::new();
        for i in 0..rated.len() {
            for j in i + 1..rated.len() {
                ours.push(cosine(&vectors[i], &vectors[j]));
            }
        }
        println!("| {label} | {:.3} |", pearson(&ours, &human));
    };
    let dense = |v: &Vec<(u32, f64)>| {
        let mut d = vec![0.0; c.vocabulary.len()];
        for &(t, w) in v {
            d[t as usize] = w;
        }
        d
    };
    let tfidf: Vec<Vec<f64>> = unit[nb..].iter().map(dense).collect();
    correlate("TF-IDF cosine, no LSI", &tfidf);
    for (label, columns) in [
        ("unit-length TF-IDF", &unit),
        ("TF-IDF (eq. 1-3) unscaled", &raw),
    ] {
        for rank in [50, 100, 200] {
            let space = LsiSpace::fit(&columns[..nb], c.vocabulary.len(), rank, 0x5eed);
            let projected: Vec<Vec<f64>> = columns[nb..].iter().map(|v| space.project(v)).collect();
            correlate(&format!("LSI rank {rank}, {label}"), &projected);
        }
    }
    println!();
}
