//! A PAN-style text-alignment corpus built from the shared data, to measure what a comparison
//! of whole documents shows.
//!
//! PAN's text-alignment task (Potthast et al., *Overview of the 5th International Competition on
//! Plagiarism Detection*, CLEF 2013) gives a suspicious and a source document and asks for the
//! reused passages as character ranges in both. PAN's own corpora are built from ClueWeb pages and
//! are not in the shared data, so this builds one the same way from what is:
//!
//! - *source* backgrounds: paragraphs of consecutive English Wikipedia articles
//!   (`reference/enwiki-2015`); *suspicious* backgrounds: consecutive Reuters-21578 stories
//!   (`reference/reuters-21578`). Two unrelated collections, so a background never reuses the other;
//! - a *case* is k consecutive positive pairs of PAN's sentence-level paraphrase set
//!   (`pairs/pan10`, Madnani et al. 2012; k one of 1, 3, 6, 12), inserted as one paragraph at a
//!   random paragraph boundary of each document: the first sentences (the originals) into the
//!   source, and into the suspicious document the same sentences (obfuscation `none`) or their
//!   human rewrites (`paraphrase`);
//! - one to three cases per pair of documents, one obfuscation per pair; as many *unrelated*
//!   pairs (no case) as pairs with cases, for every size;
//! - backgrounds of about 5 KB, 50 KB, 500 KB and 5 MB.
//!
//! Only one part of PAN's pairs is used for a corpus ([`super::super::formats::pan`]: `tune` to
//! choose anything on, `holdout` to check): choices made on a `tune` corpus never saw the
//! sentences of a `holdout` one.
//!
//! The corpus is written in PAN 2013's layout ([`write`]): `susp/`, `src/`, a `pairs` file, and
//! one folder of ground-truth XML per obfuscation, plus `corpus.json` naming each pair's size.

use std::path::{Path, PathBuf};

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::pan_xml;
use crate::corpus;
use crate::document::LoadOptions;
use crate::eval::formats::pan;

/// The background sizes of the corpus, in bytes (about: a background ends at the first
/// paragraph boundary past the size).
pub const SIZES: [usize; 4] = [5_000, 50_000, 500_000, 5_000_000];

/// The case lengths, in sentence pairs.
pub const CASE_LENGTHS: [usize; 4] = [1, 3, 6, 12];

/// How the suspicious document's copy of a case was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Obfuscation {
    /// No case at all: an unrelated pair.
    NoPlagiarism,
    /// The source sentences verbatim.
    None,
    /// The sentences as people reworded them.
    Paraphrase,
}

impl Obfuscation {
    pub const ALL: [Obfuscation; 3] = [
        Obfuscation::NoPlagiarism,
        Obfuscation::None,
        Obfuscation::Paraphrase,
    ];

    /// PAN's name (the `obfuscation` attribute and the truth folder's name).
    pub fn name(self) -> &'static str {
        match self {
            Obfuscation::NoPlagiarism => "no-plagiarism",
            Obfuscation::None => "none",
            Obfuscation::Paraphrase => "paraphrase",
        }
    }

    /// The folder holding this obfuscation's ground truth, as PAN 2013 numbers them.
    pub fn folder(self) -> &'static str {
        match self {
            Obfuscation::NoPlagiarism => "01-no-plagiarism",
            Obfuscation::None => "02-no-obfuscation",
            Obfuscation::Paraphrase => "03-paraphrase",
        }
    }
}

/// How to build a corpus.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CorpusSpec {
    /// Which part of PAN's training pairs the cases come from (`tune` or `holdout`).
    pub split: String,
    pub seed: u64,
    /// Background sizes in bytes.
    pub sizes: Vec<usize>,
    /// Pairs with cases per size and obfuscation (`none`, `paraphrase`); as many unrelated
    /// pairs per size as both together.
    pub pairs_per_size: Vec<usize>,
    /// How the reused text sits in the suspicious document ([`Regime`]).
    #[serde(default)]
    pub regime: Regime,
}

/// How the reused text sits in the suspicious document: the situations users meet, each a
/// corpus of its own so that a choice is measured in every one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Regime {
    /// Cases of 1-12 sentences inside unrelated backgrounds (PAN's setting): a small share of
    /// each document is reused.
    #[default]
    Inside,
    /// One case making up 50-100% of the suspicious document (the size is the suspicious
    /// document's): a copied essay with a few lines of its own.
    Mostly,
    /// The suspicious document is the source, byte for byte (the size is the text's): one case
    /// covering all of it. Only `none` and unrelated pairs.
    Identical,
    /// A suspicious document of about 50 KB against a pool of sources (the size is the number
    /// of sources), its 1-3 cases each in a source of its own ([`super::pool`]).
    Pool,
}

impl Regime {
    pub const ALL: [Regime; 4] = [
        Regime::Inside,
        Regime::Mostly,
        Regime::Identical,
        Regime::Pool,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Regime::Inside => "inside",
            Regime::Mostly => "mostly",
            Regime::Identical => "identical",
            Regime::Pool => "pool",
        }
    }
}

impl std::str::FromStr for Regime {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Regime::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| {
                format!("unknown regime {s:?} (expected inside, mostly, identical or pool)")
            })
    }
}

impl CorpusSpec {
    /// The corpus EVALUATION.md reports: 20 / 20 / 10 / 4 pairs of each obfuscation at 5 KB / 50 KB
    /// / 500 KB / 5 MB (and 40 / 40 / 20 / 8 unrelated pairs): 216 pairs, the 5 MB ones holding
    /// 160 MB of text.
    pub fn standard(split: &str) -> CorpusSpec {
        CorpusSpec {
            split: split.to_string(),
            seed: 2013,
            sizes: SIZES.to_vec(),
            pairs_per_size: vec![20, 20, 10, 4],
            regime: Regime::Inside,
        }
    }
}

/// One pair of the corpus, as `corpus.json` lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CorpusPair {
    pub suspicious: String,
    pub source: String,
    /// The background size class, in bytes.
    pub size: usize,
    pub obfuscation: Obfuscation,
    /// The cases, in the suspicious document's order.
    pub cases: Vec<Case>,
}

/// One case: where it is in both documents (character offsets) and how long it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Case {
    pub this_offset: usize,
    pub this_length: usize,
    pub source_offset: usize,
    pub source_length: usize,
    /// Sentence pairs in the case.
    pub sentences: usize,
    /// In a pool: the source file holding the case (the pair's `source` names the pool's
    /// folder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// `corpus.json`: how the corpus was made and its pairs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub spec: CorpusSpec,
    pub pairs: Vec<CorpusPair>,
}

impl Manifest {
    /// Reads `corpus.json` from a corpus folder.
    pub fn read(folder: &Path) -> anyhow::Result<Manifest> {
        let path = folder.join("corpus.json");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
    }
}

/// Background paragraphs: every document of a collection as its paragraphs, in file order.
pub(super) struct Backgrounds {
    pub(super) documents: Vec<Vec<String>>,
}

impl Backgrounds {
    /// Reads every entry under `root` (WikiExtractor or Reuters SGML files) as paragraphs.
    pub(super) fn read(root: &Path) -> anyhow::Result<Backgrounds> {
        let files = corpus::list_files(&[root.to_path_buf()])?;
        let options = LoadOptions::default();
        let mut documents = Vec::new();
        for file in files {
            let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
            // Reuters' folder also holds its documentation and category lists.
            let container = name.starts_with("wiki_") || name.ends_with(".sgm");
            if !container {
                continue;
            }
            for entry in corpus::read_entries(&file, &options)? {
                let paragraphs: Vec<String> = entry
                    .text
                    .split("\n\n")
                    .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
                    .filter(|p| !p.is_empty())
                    .collect();
                if !paragraphs.is_empty() {
                    documents.push(paragraphs);
                }
            }
        }
        if documents.is_empty() {
            anyhow::bail!("{}: no documents found", root.display());
        }
        Ok(Backgrounds { documents })
    }

    /// Backgrounds of these documents' paragraphs (for tests).
    #[cfg(test)]
    pub(super) fn from_paragraphs(documents: Vec<Vec<String>>) -> Backgrounds {
        Backgrounds { documents }
    }

    /// About `size` bytes of paragraphs of consecutive documents from a random one on (wrapping
    /// around): whole paragraphs, ending at the first boundary at or past `size`.
    pub(super) fn draw(&self, size: usize, rng: &mut ChaCha8Rng) -> Vec<String> {
        let mut out = Vec::new();
        let mut bytes = 0;
        let mut doc = rng.random_range(0..self.documents.len());
        while bytes < size {
            for paragraph in &self.documents[doc] {
                bytes += paragraph.len() + 2;
                out.push(paragraph.clone());
                if bytes >= size {
                    break;
                }
            }
            doc = (doc + 1) % self.documents.len();
        }
        out
    }
}

/// Runs of consecutive positive pairs of a PAN part, handed out in turn.
pub(super) struct CaseSource {
    positives: Vec<(String, String)>,
    next: usize,
}

impl CaseSource {
    pub(super) fn new(
        data: &Path,
        split: &str,
        rng: &mut ChaCha8Rng,
    ) -> anyhow::Result<CaseSource> {
        let (_, pairs) = pan::load(&data.join("pairs/pan10"), split)?;
        let positives: Vec<(String, String)> = pairs
            .into_iter()
            .filter(|p| p.positive)
            .map(|p| (p.left, p.right))
            .collect();
        if positives.is_empty() {
            anyhow::bail!("no positive PAN pairs in part `{split}`");
        }
        let next = rng.random_range(0..positives.len());
        Ok(CaseSource { positives, next })
    }

    /// These pairs, handed out from the first (for tests).
    #[cfg(test)]
    pub(super) fn from_pairs(positives: Vec<(String, String)>) -> CaseSource {
        CaseSource { positives, next: 0 }
    }

    /// The next `k` consecutive positive pairs (wrapping around).
    pub(super) fn take(&mut self, k: usize) -> Vec<(String, String)> {
        let run = (0..k)
            .map(|i| self.positives[(self.next + i) % self.positives.len()].clone())
            .collect();
        self.next = (self.next + k) % self.positives.len();
        run
    }
}

/// A document being assembled: paragraphs, and where each inserted case paragraph lies.
pub(super) struct Assembled {
    pub(super) text: String,
    /// Character offset and length of each case paragraph, by case index.
    pub(super) cases: Vec<(usize, usize)>,
}

/// Joins `background` with the `inserts` (case index, paragraph) placed before the background
/// paragraph of the given index, paragraphs separated by a blank line.
pub(super) fn assemble(
    background: &[String],
    mut inserts: Vec<(usize, usize, String)>,
) -> Assembled {
    inserts.sort_by_key(|&(at, case, _)| (at, case));
    let mut text = String::new();
    let mut chars = 0usize;
    let mut cases = vec![(0, 0); inserts.len()];
    let mut pending = inserts.into_iter().peekable();
    let push = |text: &mut String, chars: &mut usize, paragraph: &str| -> usize {
        if !text.is_empty() {
            text.push_str("\n\n");
            *chars += 2;
        }
        let start = *chars;
        text.push_str(paragraph);
        *chars += paragraph.chars().count();
        start
    };
    for (index, paragraph) in background.iter().enumerate() {
        while let Some((_, case, insert)) = pending.next_if(|(at, _, _)| *at <= index) {
            let start = push(&mut text, &mut chars, &insert);
            cases[case] = (start, insert.chars().count());
        }
        push(&mut text, &mut chars, paragraph);
    }
    for (_, case, insert) in pending {
        let start = push(&mut text, &mut chars, &insert);
        cases[case] = (start, insert.chars().count());
    }
    text.push('\n');
    Assembled { text, cases }
}

/// Builds the corpus `spec` describes from the shared data at `data` into `out` (created if
/// missing, refused if it holds anything: a corpus built over another keeps the other's
/// annotations of pairs it does not have, which a PAN tool reading the folder would score).
/// Returns its manifest.
pub fn build(data: &Path, spec: &CorpusSpec, out: &Path) -> anyhow::Result<Manifest> {
    if spec.sizes.len() != spec.pairs_per_size.len() {
        anyhow::bail!("one number of pairs is needed per size");
    }
    if std::fs::read_dir(out).is_ok_and(|mut entries| entries.next().is_some()) {
        anyhow::bail!(
            "{} is not empty: build a corpus into a new or empty folder",
            out.display()
        );
    }
    if spec.regime == Regime::Pool {
        return super::pool::build(data, spec, out);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    let (wiki, reuters) = rayon::join(
        || Backgrounds::read(&data.join("reference/enwiki-2015")),
        || Backgrounds::read(&data.join("reference/reuters-21578")),
    );
    let (wiki, reuters) = (wiki?, reuters?);
    let mut cases = CaseSource::new(data, &spec.split, &mut rng)?;
    for folder in ["susp", "src"]
        .into_iter()
        .chain(Obfuscation::ALL.map(Obfuscation::folder))
    {
        std::fs::create_dir_all(out.join(folder))?;
    }
    let mut pairs = Vec::new();
    let mut number = 0usize;
    for (&size, &per_obfuscation) in spec.sizes.iter().zip(&spec.pairs_per_size) {
        let mut kinds = Vec::new();
        let reused: &[Obfuscation] = match spec.regime {
            // A byte-identical copy has no rewording.
            Regime::Identical => &[Obfuscation::None, Obfuscation::None],
            _ => &[Obfuscation::None, Obfuscation::Paraphrase],
        };
        for &obfuscation in reused {
            kinds.extend(std::iter::repeat_n(obfuscation, per_obfuscation));
        }
        kinds.extend(std::iter::repeat_n(
            Obfuscation::NoPlagiarism,
            2 * per_obfuscation,
        ));
        kinds.shuffle(&mut rng);
        for obfuscation in kinds {
            number += 1;
            let backgrounds = [&reuters, &wiki];
            let drawn = match (spec.regime, obfuscation) {
                (_, Obfuscation::NoPlagiarism) | (Regime::Inside, _) => {
                    draw_inside(size, obfuscation, backgrounds, &mut cases, &mut rng)
                }
                (Regime::Mostly, _) => super::regimes::draw_mostly(
                    size,
                    obfuscation,
                    backgrounds,
                    &mut cases,
                    &mut rng,
                ),
                (Regime::Identical, _) => {
                    super::regimes::draw_identical(size, number, backgrounds, &mut rng)
                }
                (Regime::Pool, _) => unreachable!("a pool is built by pool::build"),
            };
            let pair = write_pair(number, size, obfuscation, drawn, out)?;
            pairs.push(pair);
        }
    }
    let pair_lines: String = pairs
        .iter()
        .map(|p| format!("{} {}\n", p.suspicious, p.source))
        .collect();
    std::fs::write(out.join("pairs"), pair_lines)?;
    let manifest = Manifest {
        spec: spec.clone(),
        pairs,
    };
    std::fs::write(
        out.join("corpus.json"),
        serde_json::to_string_pretty(&manifest)?,
    )?;
    Ok(manifest)
}

/// A pair as drawn, before it is written: both texts and where each case lies in them
/// (character offset and length in the suspicious and the source document, and its sentence
/// pairs).
pub(super) struct Drawn {
    pub(super) suspicious: String,
    pub(super) source: String,
    pub(super) cases: Vec<Case>,
}

/// PAN's setting: 1-3 cases of 1-12 sentences, each as a paragraph at a random paragraph
/// boundary of unrelated backgrounds of about `size` bytes ([`Regime::Inside`]).
fn draw_inside(
    size: usize,
    obfuscation: Obfuscation,
    [suspicious_backgrounds, source_backgrounds]: [&Backgrounds; 2],
    cases: &mut CaseSource,
    rng: &mut ChaCha8Rng,
) -> Drawn {
    let suspicious_background = suspicious_backgrounds.draw(size, rng);
    let source_background = source_backgrounds.draw(size, rng);
    let count = if obfuscation == Obfuscation::NoPlagiarism {
        0
    } else {
        rng.random_range(1..=3)
    };
    let mut into_suspicious = Vec::new();
    let mut into_source = Vec::new();
    let mut lengths = Vec::new();
    for case in 0..count {
        let k = CASE_LENGTHS[rng.random_range(0..CASE_LENGTHS.len())];
        let run = cases.take(k);
        let (original, copied) = case_texts(&run, obfuscation);
        // Distinct places: a case never lands inside another one's paragraph, and two cases at
        // one boundary stay in their drawing order.
        let at_suspicious = rng.random_range(0..=suspicious_background.len());
        let at_source = rng.random_range(0..=source_background.len());
        into_suspicious.push((at_suspicious, case, copied.join(" ")));
        into_source.push((at_source, case, original.join(" ")));
        lengths.push(k);
    }
    let suspicious = assemble(&suspicious_background, into_suspicious);
    let source = assemble(&source_background, into_source);
    let cases = (0..count)
        .map(|case| Case {
            this_offset: suspicious.cases[case].0,
            this_length: suspicious.cases[case].1,
            source_offset: source.cases[case].0,
            source_length: source.cases[case].1,
            sentences: lengths[case],
            source: None,
        })
        .collect();
    Drawn {
        suspicious: suspicious.text,
        source: source.text,
        cases,
    }
}

/// A run of PAN pairs as the source's sentences (the originals) and the suspicious document's
/// (the same, or the rewrites under [`Obfuscation::Paraphrase`]).
pub(super) fn case_texts(
    run: &[(String, String)],
    obfuscation: Obfuscation,
) -> (Vec<&str>, Vec<&str>) {
    let original: Vec<&str> = run.iter().map(|(s1, _)| s1.trim()).collect();
    let copied: Vec<&str> = match obfuscation {
        Obfuscation::Paraphrase => run.iter().map(|(_, s2)| s2.trim()).collect(),
        _ => original.clone(),
    };
    (original, copied)
}

/// Writes pair `number` as drawn, with its ground truth, and returns it.
fn write_pair(
    number: usize,
    size: usize,
    obfuscation: Obfuscation,
    drawn: Drawn,
    out: &Path,
) -> anyhow::Result<CorpusPair> {
    let suspicious_name = format!("suspicious-document{number:05}.txt");
    let source_name = format!("source-document{number:05}.txt");
    let mut found = drawn.cases;
    found.sort_by_key(|c| c.this_offset);
    std::fs::write(out.join("susp").join(&suspicious_name), &drawn.suspicious)?;
    std::fs::write(out.join("src").join(&source_name), &drawn.source)?;
    let pair = CorpusPair {
        suspicious: suspicious_name,
        source: source_name,
        size,
        obfuscation,
        cases: found,
    };
    let truth: PathBuf = out
        .join(obfuscation.folder())
        .join(pan_xml::pair_file_name(&pair.suspicious, &pair.source));
    std::fs::write(truth, pan_xml::truth_xml(&pair))?;
    Ok(pair)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserted_cases_are_where_their_offsets_say() {
        let background = vec!["First paragraph.".to_string(), "Second één.".to_string()];
        let inserted = assemble(
            &background,
            vec![
                (2, 0, "Case at the end.".into()),
                (0, 1, "Cäse at the start.".into()),
                (1, 2, "Middle case.".into()),
            ],
        );
        let chars: Vec<char> = inserted.text.chars().collect();
        let read =
            |(start, len): (usize, usize)| chars[start..start + len].iter().collect::<String>();
        assert_eq!(read(inserted.cases[0]), "Case at the end.");
        assert_eq!(read(inserted.cases[1]), "Cäse at the start.");
        assert_eq!(read(inserted.cases[2]), "Middle case.");
        assert!(
            inserted
                .text
                .starts_with("Cäse at the start.\n\nFirst paragraph.\n\nMiddle")
        );
    }

    #[test]
    fn a_corpus_is_not_built_over_another() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("stale.xml"), "<document/>").expect("write");
        let spec = CorpusSpec {
            split: "tune".into(),
            seed: 1,
            sizes: vec![5000],
            pairs_per_size: vec![1],
            regime: Regime::Inside,
        };
        // Refused before the data is read (the path given does not exist).
        let error = build(&dir.path().join("no data"), &spec, dir.path())
            .expect_err("a folder holding files");
        assert!(error.to_string().contains("is not empty"), "{error}");
    }
}
