//! Revisions with known edits, built from the shared data, to measure the editor's change list.
//!
//! Each revision is a text A, English Wikipedia paragraphs (`reference/enwiki-2015`, consecutive
//! paragraphs of one article on, about [`SIZES`] bytes), and a text B made from it by edits whose
//! places are known to the character:
//!
//! - *changed*: a positive pair of PAN's sentence paraphrases (`pairs/pan10`, Madnani et al.
//!   2012) inserted at one place of a paragraph, its original into A and its human rewrite into B;
//! - *deleted*: single sentences, and one whole paragraph, of A left out of B;
//! - *added*: single sentences, and one paragraph of two to four consecutive sentences, of an
//!   unrelated Reuters-21578 story (`reference/reuters-21578`) put into B;
//! - *moved*: one or two paragraphs of A put elsewhere in B, past at least twice as many
//!   sentences as they hold plus two (so that moving them is the smallest account of the edit:
//!   the text they pass over stays in place); in every other moved paragraph one sentence is
//!   also reworded (a PAN pair inserted into it), which the list must name.
//!
//! Edits scale with the size: per 10 KB of A, two changed, two deleted and two added sentences.
//! Only paragraphs of two or more sentences are deleted or moved, and no edit lands inside a
//! deleted or moved paragraph except the rewording of a moved one.
//!
//! Nothing is shared between the parts: `tune` (what anything is chosen on) takes PAN's tuning
//! pairs ([`pan::TUNE`]), the Wikipedia files `wiki_00` to `wiki_49` and the Reuters files
//! `reut2-000` to `reut2-010`; `holdout` PAN's held-out pairs, `wiki_50` to `wiki_99` and
//! `reut2-011` to `reut2-021`.
//!
//! The corpus is a folder: `a/NNNNN.txt`, `b/NNNNN.txt`, `truth/NNNNN.json` ([`Truth`]: the edits,
//! one per sentence, and each text's sentences as simdoc splits them, for other tools), and
//! `corpus.json` ([`Manifest`]).

use std::path::{Path, PathBuf};

use anyhow::Context;
use rand::prelude::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

mod assemble;
mod sources;

use crate::compare::changes::ChangeKind;

use assemble::assemble;
use sources::Sources;

/// The sizes of A, in bytes (about: A ends at the first paragraph boundary past the size).
pub const SIZES: [usize; 3] = [10_000, 30_000, 70_000];

/// How to build a corpus.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CorpusSpec {
    /// `tune` or `holdout` (see the module docs).
    pub split: String,
    pub seed: u64,
    /// Sizes of A in bytes.
    pub sizes: Vec<usize>,
    /// Revisions per size.
    pub revisions: Vec<usize>,
}

impl CorpusSpec {
    /// The corpus EVALUATION.md reports: 40 revisions of 10 KB and of 30 KB, 20 of 70 KB.
    pub fn standard(split: &str) -> CorpusSpec {
        CorpusSpec {
            split: split.to_string(),
            seed: 43,
            sizes: SIZES.to_vec(),
            revisions: vec![40, 40, 20],
        }
    }
}

/// One revision as `corpus.json` lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Revision {
    /// The file name shared by `a/`, `b/` and `truth/` (`.txt`, `.json`).
    pub name: String,
    /// The size class, in bytes.
    pub size: usize,
}

/// `corpus.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub spec: CorpusSpec,
    pub revisions: Vec<Revision>,
}

impl Manifest {
    /// Reads `corpus.json` from a corpus folder.
    pub fn read(folder: &Path) -> anyhow::Result<Manifest> {
        let path = folder.join("corpus.json");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("{}: cannot read", crate::escape::path(&path)))?;
        serde_json::from_str(&text).with_context(|| crate::escape::path(&path))
    }

    /// The paths of a revision's texts and truth.
    pub fn paths(folder: &Path, revision: &Revision) -> [PathBuf; 3] {
        let stem = &revision.name;
        [
            folder.join("a").join(format!("{stem}.txt")),
            folder.join("b").join(format!("{stem}.txt")),
            folder.join("truth").join(format!("{stem}.json")),
        ]
    }
}

/// One known edit of one sentence.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Edit {
    pub kind: ChangeKind,
    /// `[start, end)` in A's characters (Unicode scalar values); `None` for an addition.
    pub a: Option<[usize; 2]>,
    /// In B's; `None` for a deletion.
    pub b: Option<[usize; 2]>,
    /// A moved sentence that was also reworded.
    #[serde(default)]
    pub reworded: bool,
}

/// A revision's truth file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Truth {
    pub edits: Vec<Edit>,
    /// Each text's sentences as simdoc splits them, `[start, end)` in characters: what another
    /// tool is given to diff, so that both work on the same sentences.
    pub sentences: [Vec<[usize; 2]>; 2],
}

impl Truth {
    pub fn read(path: &Path) -> anyhow::Result<Truth> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read", crate::escape::path(path)))?;
        serde_json::from_str(&text).with_context(|| crate::escape::path(path))
    }
}

/// One sentence place of a revision: its text in A and in B (`None` where it is not), and how
/// it changed.
#[derive(Clone, Debug)]
struct Slot {
    a: Option<String>,
    b: Option<String>,
    kind: Option<ChangeKind>,
    reworded: bool,
}

impl Slot {
    fn kept(text: &str) -> Slot {
        Slot {
            a: Some(text.to_string()),
            b: Some(text.to_string()),
            kind: None,
            reworded: false,
        }
    }
}

/// A paragraph of a revision being made.
#[derive(Clone, Debug)]
struct Paragraph {
    slots: Vec<Slot>,
    /// Moved in B to stand before the paragraph of this index (the number of paragraphs: at the
    /// end).
    moved_to: Option<usize>,
    /// Deleted or moved: no other edit goes in.
    taken: bool,
}

impl Paragraph {
    fn is_prose(&self) -> bool {
        self.slots.len() >= 2 && self.slots.iter().all(|s| s.kind.is_none())
    }
}

/// Builds the corpus `spec` describes from the shared data at `data` into `out` (created; files
/// already there are overwritten). Returns its manifest.
pub fn build(data: &Path, spec: &CorpusSpec, out: &Path) -> anyhow::Result<Manifest> {
    if spec.sizes.len() != spec.revisions.len() {
        anyhow::bail!("one number of revisions is needed per size");
    }
    let sources = Sources::read(data, &spec.split)?;
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    for folder in ["a", "b", "truth"] {
        std::fs::create_dir_all(out.join(folder))?;
    }
    let mut revisions = Vec::new();
    let mut next_paraphrase = rng.random_range(0..sources.paraphrases.len());
    for (&size, &count) in spec.sizes.iter().zip(&spec.revisions) {
        for _ in 0..count {
            let name = format!("{:05}", revisions.len() + 1);
            let mut paraphrase = || {
                let pair = sources.paraphrases[next_paraphrase].clone();
                next_paraphrase = (next_paraphrase + 1) % sources.paraphrases.len();
                pair
            };
            // A revision whose edits do not fall on sentence boundaries as simdoc reads the texts
            // (a sentence ending in an initial, "King James VI and I.", runs into the next one
            // once the sentence between them is deleted) is drawn again: the edits are of whole
            // sentences.
            let mut attempt = 0;
            let (a, b, truth) = loop {
                let paragraphs = edit(&sources, size, &mut rng, &mut paraphrase);
                let (a, b, truth, whole) = assemble(&paragraphs);
                attempt += 1;
                if whole || attempt == 50 {
                    break (a, b, truth);
                }
            };
            let revision = Revision { name, size };
            let [a_path, b_path, truth_path] = Manifest::paths(out, &revision);
            std::fs::write(&a_path, &a)?;
            std::fs::write(&b_path, &b)?;
            std::fs::write(&truth_path, serde_json::to_string(&truth)?)?;
            revisions.push(revision);
        }
    }
    let manifest = Manifest {
        spec: spec.clone(),
        revisions,
    };
    std::fs::write(
        out.join("corpus.json"),
        serde_json::to_string_pretty(&manifest)?,
    )?;
    Ok(manifest)
}

/// The paragraphs of one revision: a background of about `size` bytes and its edits.
fn edit(
    sources: &Sources,
    size: usize,
    rng: &mut ChaCha8Rng,
    paraphrase: &mut impl FnMut() -> (String, String),
) -> Vec<Paragraph> {
    let mut paragraphs = background(sources, size, rng);
    let per_10k = (size / 10_000).max(1);
    // Moved paragraphs first (they need room), then the deleted one.
    let moves = if size >= 30_000 { 2 } else { 1 };
    for k in 0..moves {
        if let Some(p) = pick_prose(&paragraphs, rng, 2..=5) {
            let target = move_target(&paragraphs, p, rng);
            if let Some(target) = target {
                paragraphs[p].moved_to = Some(target);
                paragraphs[p].taken = true;
                if k % 2 == 0 {
                    let (original, rewrite) = paraphrase();
                    let at = rng.random_range(0..=paragraphs[p].slots.len());
                    paragraphs[p].slots.insert(
                        at,
                        Slot {
                            a: Some(original),
                            b: Some(rewrite),
                            kind: None,
                            reworded: true,
                        },
                    );
                }
                for slot in &mut paragraphs[p].slots {
                    slot.kind = Some(ChangeKind::Moved);
                }
            }
        }
    }
    if let Some(p) = pick_prose(&paragraphs, rng, 2..=6) {
        paragraphs[p].taken = true;
        for slot in &mut paragraphs[p].slots {
            slot.b = None;
            slot.kind = Some(ChangeKind::Deleted);
        }
    }
    // Sentence edits go into paragraphs not deleted or moved.
    for _ in 0..2 * per_10k {
        let (original, rewrite) = paraphrase();
        insert_slot(
            &mut paragraphs,
            rng,
            Slot {
                a: Some(original),
                b: Some(rewrite),
                kind: Some(ChangeKind::Changed),
                reworded: false,
            },
        );
    }
    for _ in 0..2 * per_10k {
        let free: Vec<(usize, usize)> = paragraphs
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.taken)
            .flat_map(|(i, p)| {
                p.slots
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.kind.is_none())
                    .map(move |(j, _)| (i, j))
            })
            .collect();
        if let Some(&(i, j)) = free.get(rng.random_range(0..free.len().max(1))) {
            let slot = &mut paragraphs[i].slots[j];
            slot.b = None;
            slot.kind = Some(ChangeKind::Deleted);
        }
    }
    let story = &sources.stories[rng.random_range(0..sources.stories.len())];
    for k in 0..2 * per_10k {
        let sentence = &story[k % story.len()];
        insert_slot(
            &mut paragraphs,
            rng,
            Slot {
                a: None,
                b: Some(sentence.clone()),
                kind: Some(ChangeKind::Added),
                reworded: false,
            },
        );
    }
    let story = &sources.stories[rng.random_range(0..sources.stories.len())];
    let length = rng.random_range(2..=4).min(story.len());
    let start = rng.random_range(0..=story.len() - length);
    let added = Paragraph {
        slots: story[start..start + length]
            .iter()
            .map(|s| Slot {
                a: None,
                b: Some(s.clone()),
                kind: Some(ChangeKind::Added),
                reworded: false,
            })
            .collect(),
        moved_to: None,
        taken: true,
    };
    let at = rng.random_range(0..=paragraphs.len());
    // Paragraph indices at or after `at` shift by one, and so do the moves' targets.
    for p in &mut paragraphs {
        if let Some(target) = p.moved_to.as_mut()
            && *target >= at
        {
            *target += 1;
        }
    }
    paragraphs.insert(at, added);
    paragraphs
}

/// Consecutive paragraphs of one article on (and the next ones) from a random one, until about
/// `size` bytes.
fn background(sources: &Sources, size: usize, rng: &mut ChaCha8Rng) -> Vec<Paragraph> {
    let mut out = Vec::new();
    let mut bytes = 0;
    let mut article = rng.random_range(0..sources.articles.len());
    while bytes < size {
        for sentences in &sources.articles[article] {
            bytes += sentences.iter().map(|s| s.len() + 1).sum::<usize>() + 1;
            out.push(Paragraph {
                slots: sentences.iter().map(|s| Slot::kept(s)).collect(),
                moved_to: None,
                taken: false,
            });
            if bytes >= size {
                break;
            }
        }
        article = (article + 1) % sources.articles.len();
    }
    out
}

/// A random prose paragraph not yet edited with a number of sentences in `sentences`.
fn pick_prose(
    paragraphs: &[Paragraph],
    rng: &mut ChaCha8Rng,
    sentences: std::ops::RangeInclusive<usize>,
) -> Option<usize> {
    let candidates: Vec<usize> = (0..paragraphs.len())
        .filter(|&p| {
            let paragraph = &paragraphs[p];
            !paragraph.taken && paragraph.is_prose() && sentences.contains(&paragraph.slots.len())
        })
        .collect();
    candidates.choose(rng).copied()
}

/// Where paragraph `p` may move to: a boundary (the index of the paragraph it will stand
/// before) past at least twice its sentences plus two, not next to another moved paragraph's
/// place.
fn move_target(paragraphs: &[Paragraph], p: usize, rng: &mut ChaCha8Rng) -> Option<usize> {
    let own = paragraphs[p].slots.len() + 1;
    let needed = 2 * own + 2;
    let sentences_between = |target: usize| -> usize {
        let (from, to) = if target > p {
            (p + 1, target)
        } else {
            (target, p)
        };
        paragraphs[from..to]
            .iter()
            .filter(|q| q.moved_to.is_none())
            .map(|q| q.slots.len())
            .sum()
    };
    let candidates: Vec<usize> = (0..=paragraphs.len())
        .filter(|&t| t != p && t != p + 1)
        .filter(|&t| sentences_between(t) >= needed)
        .filter(|&t| {
            paragraphs
                .iter()
                .all(|q| q.moved_to.is_none_or(|u| u.abs_diff(t) > 1))
        })
        .filter(|&t| paragraphs.get(t).is_none_or(|q| q.moved_to.is_none()))
        .collect();
    candidates.choose(rng).copied()
}

/// Puts `slot` at a random place of a random paragraph that is neither deleted nor moved.
fn insert_slot(paragraphs: &mut [Paragraph], rng: &mut ChaCha8Rng, slot: Slot) {
    let free: Vec<usize> = (0..paragraphs.len())
        .filter(|&p| !paragraphs[p].taken && paragraphs[p].slots.len() >= 2)
        .collect();
    if let Some(&p) = free.choose(rng) {
        let at = rng.random_range(0..=paragraphs[p].slots.len());
        paragraphs[p].slots.insert(at, slot);
    }
}
