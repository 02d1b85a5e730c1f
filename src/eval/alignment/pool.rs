//! The pool regime: one suspicious document against a pool of sources, as `simdoc sources`
//! meets it ([`super::corpus::Regime::Pool`]).
//!
//! A teacher checks an essay against every source of a course, an editor a story against a
//! wire's archive: one document, hundreds or thousands of sources, the reuse (if any) in a few.
//! Chance grows with the pool (a sentence meets every sentence of every source), so a pool is a
//! regime of its own. The corpus holds, per pool size, a folder `pool-N` of N Wikipedia articles
//! (one background document each), and suspicious news documents of about 50 KB, half of them
//! with 1-3 cases of 1-12 PAN sentence pairs (verbatim or reworded), each case's originals
//! inserted into a source of its own drawn from the pool, half unrelated. Every suspicious
//! document is checked against its whole pool; a case names its source file
//! ([`super::corpus::Case::source`]).

use std::path::Path;

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::corpus::{
    Backgrounds, CASE_LENGTHS, Case, CaseSource, CorpusPair, Manifest, Obfuscation, assemble,
    case_texts,
};
use super::pan_xml;
use crate::eval::alignment::CorpusSpec;

/// The suspicious documents' size, in bytes.
pub const SUSPICIOUS_SIZE: usize = 50_000;

/// The folder of the pool of `sources` sources, inside the corpus.
pub fn pool_folder(sources: usize) -> String {
    format!("pool-{sources}")
}

/// The file name of source `index` of a pool.
fn source_name(index: usize) -> String {
    format!("source-{index:05}.txt")
}

/// A case placed in a pool source: which suspicious pair, which case, the text inserted and
/// before which of the source's paragraphs.
struct Placed {
    pair: usize,
    case: usize,
    at: usize,
    text: String,
}

/// Builds a pool corpus (see the module docs) from the shared data at `data` into `out`.
pub fn build(data: &Path, spec: &CorpusSpec, out: &Path) -> anyhow::Result<Manifest> {
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
    let mut pairs: Vec<CorpusPair> = Vec::new();
    let mut number = 0usize;
    for (&pool_size, &per_obfuscation) in spec.sizes.iter().zip(&spec.pairs_per_size) {
        let folder = pool_folder(pool_size);
        std::fs::create_dir_all(out.join("src").join(&folder))?;
        // Consecutive articles from a random one on, one source each.
        let first = rng.random_range(0..wiki.documents.len());
        let pool: Vec<&Vec<String>> = (0..pool_size)
            .map(|i| &wiki.documents[(first + i) % wiki.documents.len()])
            .collect();
        let mut kinds: Vec<Obfuscation> = Vec::new();
        for obfuscation in [Obfuscation::None, Obfuscation::Paraphrase] {
            kinds.extend(std::iter::repeat_n(obfuscation, per_obfuscation));
        }
        kinds.extend(std::iter::repeat_n(
            Obfuscation::NoPlagiarism,
            2 * per_obfuscation,
        ));
        kinds.shuffle(&mut rng);
        let mut placed: Vec<Vec<Placed>> = (0..pool_size).map(|_| Vec::new()).collect();
        let first_pair = pairs.len();
        for obfuscation in kinds {
            number += 1;
            let background = reuters.draw(SUSPICIOUS_SIZE, &mut rng);
            let count = if obfuscation == Obfuscation::NoPlagiarism {
                0
            } else {
                rng.random_range(1..=3usize)
            };
            // Each case in a source of its own.
            let mut sources: Vec<usize> = (0..pool_size).collect();
            sources.shuffle(&mut rng);
            let mut inserts = Vec::new();
            let mut lengths = Vec::new();
            for (case, &source) in sources.iter().take(count).enumerate() {
                let k = CASE_LENGTHS[rng.random_range(0..CASE_LENGTHS.len())];
                let run = cases.take(k);
                let (original, copied) = case_texts(&run, obfuscation);
                let at = rng.random_range(0..=background.len());
                inserts.push((at, case, copied.join(" ")));
                let at_source = rng.random_range(0..=pool[source].len());
                placed[source].push(Placed {
                    pair: pairs.len(),
                    case,
                    at: at_source,
                    text: original.join(" "),
                });
                lengths.push((k, source));
            }
            let suspicious = assemble(&background, inserts);
            let found = lengths
                .iter()
                .enumerate()
                .map(|(case, &(k, source))| Case {
                    this_offset: suspicious.cases[case].0,
                    this_length: suspicious.cases[case].1,
                    // Filled in once the pool's sources are assembled.
                    source_offset: 0,
                    source_length: 0,
                    sentences: k,
                    source: Some(format!("{folder}/{}", source_name(source))),
                })
                .collect();
            pairs.push(CorpusPair {
                suspicious: format!("suspicious-document{number:05}.txt"),
                source: folder.clone(),
                size: pool_size,
                obfuscation,
                cases: found,
            });
            std::fs::write(
                out.join("susp").join(&pairs[pairs.len() - 1].suspicious),
                &suspicious.text,
            )?;
        }
        // The pool's sources, each with the originals placed in it.
        for (source, paragraphs) in pool.iter().enumerate() {
            let inserts = placed[source]
                .iter()
                .enumerate()
                .map(|(k, p)| (p.at, k, p.text.clone()))
                .collect();
            let assembled = assemble(paragraphs, inserts);
            for (k, p) in placed[source].iter().enumerate() {
                let case = &mut pairs[p.pair].cases[p.case];
                case.source_offset = assembled.cases[k].0;
                case.source_length = assembled.cases[k].1;
            }
            std::fs::write(
                out.join("src").join(&folder).join(source_name(source)),
                &assembled.text,
            )?;
        }
        for pair in &mut pairs[first_pair..] {
            pair.cases.sort_by_key(|c| c.this_offset);
            let truth = out
                .join(pair.obfuscation.folder())
                .join(pan_xml::pair_file_name(&pair.suspicious, &pair.source));
            std::fs::write(truth, pan_xml::truth_xml(pair))?;
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
