//! The regimes beside PAN's setting ([`super::corpus::Regime`]): documents mostly copied and
//! identical copies.
//!
//! PAN's corpora place a few reused passages inside long unrelated text. Teachers and editors
//! also meet the opposite: an essay that is most of its source, or a byte-for-byte copy. A
//! comparison whose null model learns from the documents themselves can do well in the first
//! and fail in these (the copy explains itself away), so each is a corpus of its own.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::corpus::{Backgrounds, Case, CaseSource, Drawn, Obfuscation, assemble, case_texts};

/// Sentences per paragraph of a long copied case (drawn from this range), so that a document
/// that is mostly a case still has paragraphs.
const PARAGRAPH_SENTENCES: std::ops::RangeInclusive<usize> = 3..=6;

/// Below this many bytes of its own, a suspicious document mostly copied gets no background.
const LEAST_BACKGROUND: f64 = 150.0;

/// One case of consecutive PAN pairs making up 50-100% of a suspicious document of about
/// `size` bytes, its own text from the suspicious backgrounds; the originals inside a source
/// background of about `size` bytes ([`super::corpus::Regime::Mostly`]).
pub(super) fn draw_mostly(
    size: usize,
    obfuscation: Obfuscation,
    [suspicious_backgrounds, source_backgrounds]: [&Backgrounds; 2],
    cases: &mut CaseSource,
    rng: &mut ChaCha8Rng,
) -> Drawn {
    let share: f64 = rng.random_range(0.5..=1.0);
    let wanted = share * size as f64;
    let mut run = Vec::new();
    let mut copied_bytes = 0usize;
    while (copied_bytes as f64) < wanted || run.is_empty() {
        let pair = cases.take(1);
        let (_, copied) = case_texts(&pair, obfuscation);
        copied_bytes += copied.iter().map(|s| s.len() + 1).sum::<usize>();
        run.extend(pair);
    }
    let (original, copied) = case_texts(&run, obfuscation);
    // The same paragraph breaks in both: a copy keeps its source's paragraphs.
    let mut breaks = Vec::new();
    let mut at = 0;
    while at < run.len() {
        at += rng.random_range(PARAGRAPH_SENTENCES);
        breaks.push(at.min(run.len()));
    }
    let paragraphs = |sentences: &[&str]| -> String {
        let mut start = 0;
        let mut out = Vec::new();
        for &end in &breaks {
            out.push(sentences[start..end].join(" "));
            start = end;
        }
        out.join("\n\n")
    };
    let own = (1.0 - share) * size as f64;
    let suspicious_background = if own >= LEAST_BACKGROUND {
        suspicious_backgrounds.draw(own as usize, rng)
    } else {
        Vec::new()
    };
    let source_background = source_backgrounds.draw(size, rng);
    let at_suspicious = rng.random_range(0..=suspicious_background.len());
    let at_source = rng.random_range(0..=source_background.len());
    let suspicious = assemble(
        &suspicious_background,
        vec![(at_suspicious, 0, paragraphs(&copied))],
    );
    let source = assemble(
        &source_background,
        vec![(at_source, 0, paragraphs(&original))],
    );
    Drawn {
        cases: vec![Case {
            this_offset: suspicious.cases[0].0,
            this_length: suspicious.cases[0].1,
            source_offset: source.cases[0].0,
            source_length: source.cases[0].1,
            sentences: run.len(),
            source: None,
        }],
        suspicious: suspicious.text,
        source: source.text,
    }
}

/// A text of about `size` bytes (encyclopedia for even pair numbers, news for odd ones) as both
/// documents: one case covering all of it ([`super::corpus::Regime::Identical`]).
pub(super) fn draw_identical(
    size: usize,
    number: usize,
    [news, encyclopedia]: [&Backgrounds; 2],
    rng: &mut ChaCha8Rng,
) -> Drawn {
    let backgrounds = if number.is_multiple_of(2) {
        encyclopedia
    } else {
        news
    };
    let paragraphs = backgrounds.draw(size, rng);
    let text = assemble(&paragraphs, Vec::new()).text;
    let length = text.trim_end().chars().count();
    Drawn {
        cases: vec![Case {
            this_offset: 0,
            this_length: length,
            source_offset: 0,
            source_length: length,
            sentences: paragraphs.len(),
            source: None,
        }],
        suspicious: text.clone(),
        source: text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mostly_copied_case_keeps_its_paragraphs_and_its_offsets() {
        use rand::SeedableRng;
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let sentences: Vec<(String, String)> = (0..40)
            .map(|i| {
                (
                    format!("Original number {i} here."),
                    format!("Reworded {i} there."),
                )
            })
            .collect();
        let mut cases = CaseSource::from_pairs(sentences);
        let background = Backgrounds::from_paragraphs(vec![vec![
            "One own paragraph of news.".into(),
            "Another own paragraph.".into(),
        ]]);
        let drawn = draw_mostly(
            600,
            Obfuscation::Paraphrase,
            [&background, &background],
            &mut cases,
            &mut rng,
        );
        let case = &drawn.cases[0];
        let read = |text: &str, offset: usize, length: usize| -> String {
            text.chars().skip(offset).take(length).collect()
        };
        let copied = read(&drawn.suspicious, case.this_offset, case.this_length);
        let original = read(&drawn.source, case.source_offset, case.source_length);
        assert!(
            copied.starts_with("Reworded ") && copied.ends_with("there."),
            "{copied}"
        );
        assert!(original.starts_with("Original ") && original.ends_with("here."));
        assert_eq!(
            copied.matches("\n\n").count(),
            original.matches("\n\n").count()
        );
        // At least half the suspicious document is the case.
        assert!(2 * case.this_length >= drawn.suspicious.trim_end().chars().count());
    }
}
