//! Reading WordNet 3.0's dictionary files (`wndb(5WN)`, `morphy(7WN)`) into a [`Lexicon`]: the
//! folder Debian's `wordnet-base` installs as `/usr/share/wordnet`, or `dict/` of Princeton's
//! WordNet-3.0 distribution.
//!
//! - `index.noun`, `index.verb`, `index.adj`, `index.adv`: the lemmas of each part of speech
//!   (first field of each line; lines starting with spaces are the licence header);
//! - `data.*`: one synset per line: `offset lex_filenum ss_type w_cnt (word lex_id){w_cnt}
//!   p_cnt (pointer_symbol offset pos source/target){p_cnt} ... | gloss`, `w_cnt` in
//!   hexadecimal; a source/target of `0000` relates the synsets, otherwise word number `ss` of
//!   this synset to word number `tt` of the other (hexadecimal, from 1);
//! - `*.exc`: `inflected-form base-form...` per line.
//!
//! Relations kept (see [`Relation`]): every two words of a synset are synonyms; `+` relates the
//! two words it names (derivationally related forms); `@` and `~` (direct hypernym and hyponym)
//! and `&` ("similar to", adjectives) relate every word of one synset with every word of the
//! other (or, for the rare lexical pointer, the two words named). Instance hypernyms (`@i`,
//! "Einstein" of "physicist") and the other pointers (antonyms, meronyms, domains, ...) are
//! left out: they do not say the same thing in other words. Lemmas are cleaned as simdoc cleans
//! a word: lowercase, hyphens and apostrophes dropped; lemmas of several words ("give_up") and
//! relations involving them are left out. Adjective markers (`galore(ip)`) are removed.

use std::path::{Path, PathBuf};

use rustc_hash::FxHashMap;

use super::{Exception, LemmaId, Lexicon, LexiconError, Relation};
use crate::model::vocabulary::{Vocabulary, VocabularyError};
use crate::text::morphy::PartOfSpeech;

/// Why a WordNet folder could not be read.
#[derive(Debug, thiserror::Error)]
pub enum WordnetError {
    #[error("{}: cannot read the WordNet file: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}:{line}: not a WordNet {what} line: {reason}", path.display())]
    Malformed {
        path: PathBuf,
        line: usize,
        what: &'static str,
        reason: String,
    },
    #[error("{}: the WordNet files list no lemma", path.display())]
    Empty { path: PathBuf },
    #[error("the WordNet lemmas: {0}")]
    Vocabulary(#[from] VocabularyError),
    #[error("the WordNet relations: {0}")]
    Lexicon(#[from] LexiconError),
}

/// The lemma key of a WordNet lemma or word as written in its files, `None` for a lemma of
/// several words: lowercase, adjective marker, hyphens, apostrophes and periods removed.
fn lemma_key(word: &str) -> Option<String> {
    let word = word.split('(').next().unwrap_or(word);
    if word.contains('_') {
        return None;
    }
    let key: String = word
        .to_lowercase()
        .chars()
        .filter(|&c| !matches!(c, '-' | '\'' | '.'))
        .collect();
    (!key.is_empty()).then_some(key)
}

fn read_text(path: &Path) -> Result<String, WordnetError> {
    std::fs::read_to_string(path).map_err(|source| WordnetError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// The data lines of a WordNet file: without the licence header (lines starting with a space).
fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with(' ') && !l.is_empty())
        .map(|(i, l)| (i + 1, l))
}

/// One synset of a `data.*` file: its words' lemma ids (`None` for a word of several) and its
/// kept pointers.
struct Synset {
    words: Vec<Option<LemmaId>>,
    pointers: Vec<Pointer>,
}

struct Pointer {
    relation: Relation,
    /// The target synset: its file's part of speech and its offset.
    target: (PartOfSpeech, u64),
    /// `None` for a pointer between synsets; word numbers (from 0) for a lexical one.
    words: Option<(usize, usize)>,
}

/// The relation a kept pointer symbol stands for (from the synset holding it to its target).
fn pointer_relation(symbol: &str) -> Option<Relation> {
    match symbol {
        "@" => Some(Relation::HYPERNYM),
        "~" => Some(Relation::HYPONYM),
        "&" => Some(Relation::SIMILAR),
        "+" => Some(Relation::DERIVED),
        _ => None,
    }
}

fn pos_of_letter(letter: &str) -> Option<PartOfSpeech> {
    match letter {
        "n" => Some(PartOfSpeech::Noun),
        "v" => Some(PartOfSpeech::Verb),
        "a" | "s" => Some(PartOfSpeech::Adjective),
        "r" => Some(PartOfSpeech::Adverb),
        _ => None,
    }
}

/// Reads the lexicon from a WordNet dictionary folder (see the module docs). The source note
/// names the folder; callers may replace it.
pub fn read_wordnet(dir: &Path) -> Result<Lexicon, WordnetError> {
    // 1. Lemmas and their parts of speech.
    let mut parts: FxHashMap<String, u8> = FxHashMap::default();
    for pos in PartOfSpeech::ALL {
        let path = dir.join(format!("index.{}", pos.file_name()));
        let text = read_text(&path)?;
        for (_, line) in data_lines(&text) {
            let lemma = line.split(' ').next().unwrap_or("");
            if let Some(key) = lemma_key(lemma) {
                *parts.entry(key).or_insert(0) |= pos.bit();
            }
        }
    }
    if parts.is_empty() {
        return Err(WordnetError::Empty {
            path: dir.to_path_buf(),
        });
    }
    let mut sorted: Vec<(String, u8)> = parts.into_iter().collect();
    sorted.sort_unstable();
    let lemmas = Vocabulary::from_sorted(&sorted.iter().map(|p| &p.0).collect::<Vec<_>>())?;
    let part_bits: Vec<u8> = sorted.iter().map(|p| p.1).collect();
    let listed = |key: &str, pos: PartOfSpeech| {
        lemmas
            .id(key)
            .filter(|&id| part_bits[id as usize] & pos.bit() != 0)
    };

    // 2. Exception lists: bases that are lemmas of the part of speech.
    let mut exceptions = Vec::new();
    for pos in PartOfSpeech::ALL {
        let path = dir.join(format!("{}.exc", pos.file_name()));
        let text = read_text(&path)?;
        for (_, line) in data_lines(&text) {
            let mut fields = line.split_whitespace();
            let Some(form) = fields.next().and_then(lemma_key) else {
                continue;
            };
            let mut bases: Vec<LemmaId> = fields
                .filter_map(lemma_key)
                .filter_map(|b| listed(&b, pos))
                .collect();
            bases.sort_unstable();
            bases.dedup();
            exceptions.push(Exception { form, pos, bases });
        }
    }
    // A form listed twice in one part of speech (after cleaning) keeps all its bases.
    exceptions.sort_by(|a, b| (&a.form, a.pos).cmp(&(&b.form, b.pos)));
    let mut merged: Vec<Exception> = Vec::with_capacity(exceptions.len());
    for e in exceptions {
        match merged.last_mut() {
            Some(last) if last.form == e.form && last.pos == e.pos => {
                last.bases.extend(e.bases);
                last.bases.sort_unstable();
                last.bases.dedup();
            }
            _ => merged.push(e),
        }
    }

    // 3. Synsets and their pointers.
    let mut synsets: FxHashMap<(PartOfSpeech, u64), Synset> = FxHashMap::default();
    for pos in PartOfSpeech::ALL {
        let path = dir.join(format!("data.{}", pos.file_name()));
        let text = read_text(&path)?;
        for (line_number, line) in data_lines(&text) {
            let malformed = |reason: String| WordnetError::Malformed {
                path: path.clone(),
                line: line_number,
                what: "synset",
                reason,
            };
            let (offset, synset) = parse_synset(line, &lemmas).map_err(malformed)?;
            synsets.insert((pos, offset), synset);
        }
    }

    // 4. Related pairs.
    let mut pairs: Vec<(LemmaId, LemmaId, Relation)> = Vec::new();
    let mut add = |a: Option<LemmaId>, b: Option<LemmaId>, relation: Relation| {
        if let (Some(a), Some(b)) = (a, b)
            && a != b
        {
            pairs.push((a, b, relation));
        }
    };
    for synset in synsets.values() {
        for (i, &a) in synset.words.iter().enumerate() {
            for &b in &synset.words[i + 1..] {
                add(a, b, Relation::SYNONYM);
            }
        }
        for pointer in &synset.pointers {
            let Some(target) = synsets.get(&pointer.target) else {
                continue;
            };
            match pointer.words {
                None => {
                    for &a in &synset.words {
                        for &b in &target.words {
                            add(a, b, pointer.relation);
                        }
                    }
                }
                Some((from, to)) => add(
                    synset.words.get(from).copied().flatten(),
                    target.words.get(to).copied().flatten(),
                    pointer.relation,
                ),
            }
        }
    }
    let source = format!(
        "WordNet 3.0, Princeton University (wordnet.princeton.edu), read from {}",
        dir.display()
    );
    Ok(Lexicon::new(source, lemmas, part_bits, merged, pairs)?)
}

/// One `data.*` line: its offset and synset (see the module docs).
fn parse_synset(line: &str, lemmas: &Vocabulary) -> Result<(u64, Synset), String> {
    let head = line.split(" | ").next().unwrap_or(line);
    let mut fields = head.split_whitespace();
    let mut next = |what: &str| fields.next().ok_or_else(|| format!("no {what}"));
    let offset: u64 = next("offset")?
        .parse()
        .map_err(|_| "the offset is not a number".to_string())?;
    next("lexicographer file")?;
    next("synset type")?;
    let w_cnt = usize::from_str_radix(next("word count")?, 16)
        .map_err(|_| "the word count is not hexadecimal".to_string())?;
    let mut words = Vec::with_capacity(w_cnt);
    for _ in 0..w_cnt {
        let word = next("word")?;
        next("lex_id")?;
        words.push(lemma_key(word).and_then(|k| lemmas.id(&k)));
    }
    let p_cnt: usize = next("pointer count")?
        .parse()
        .map_err(|_| "the pointer count is not a number".to_string())?;
    let mut pointers = Vec::new();
    for _ in 0..p_cnt {
        let symbol = next("pointer symbol")?;
        let target: u64 = next("pointer offset")?
            .parse()
            .map_err(|_| "a pointer offset is not a number".to_string())?;
        let target_pos = pos_of_letter(next("pointer part of speech")?)
            .ok_or_else(|| "a pointer names no part of speech".to_string())?;
        let source_target = next("pointer source/target")?;
        let Some(relation) = pointer_relation(symbol) else {
            continue;
        };
        let number = |hex: &str| {
            usize::from_str_radix(hex, 16)
                .map_err(|_| "a pointer's source/target is not hexadecimal".to_string())
        };
        if source_target.len() != 4 {
            return Err("a pointer's source/target is not four digits".to_string());
        }
        let (from, to) = (number(&source_target[..2])?, number(&source_target[2..])?);
        let words = match (from, to) {
            (0, 0) => None,
            (f, t) if f > 0 && t > 0 => Some((f - 1, t - 1)),
            _ => return Err("a pointer names one word but not the other".to_string()),
        };
        pointers.push(Pointer {
            relation,
            target: (target_pos, target),
            words,
        });
    }
    Ok((offset, Synset { words, pointers }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny dictionary in WordNet's file format (written for this test, not WordNet's data).
    fn fixture() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let header = "  1 A licence header line, as WordNet's files start with.  \n";
        let files = [
            (
                "index.noun",
                "aid n 1 0 1 0 00000001\nhelp n 1 0 1 0 00000001\nassistance n 1 0 1 0 00000002\nguard_dog n 1 0 1 0 00000004\nwell-being n 1 0 1 0 00000005\n",
            ),
            (
                "index.verb",
                "assist v 1 0 1 0 00000010\nhelp v 1 0 1 0 00000010\nsee v 1 0 1 0 00000011\n",
            ),
            (
                "index.adj",
                "big a 1 0 1 0 00000020\nlarge a 1 0 1 0 00000021\n",
            ),
            ("index.adv", "well r 1 0 1 0 00000030\n"),
            // aid/help (synonyms), hypernym: assistance; a synset with a phrase only.
            (
                "data.noun",
                "00000001 04 n 02 aid 0 help 0 001 @ 00000002 n 0000 | gloss\n00000002 04 n 01 assistance 0 001 ~ 00000001 n 0000 | gloss\n00000004 05 n 01 guard_dog 0 001 @ 00000001 n 0000 | gloss\n00000005 05 n 01 well-being 0 000 | gloss\n",
            ),
            // assist/help (verbs); derivation assist (word 1) -> assistance (word 1).
            (
                "data.verb",
                "00000010 41 v 02 assist 0 help 0 001 + 00000002 n 0101 01 + 01 00 | gloss\n00000011 39 v 01 see 0 000 01 + 01 00 | gloss\n",
            ),
            (
                "data.adj",
                "00000020 00 a 01 big 0 001 & 00000021 s 0000 | gloss\n00000021 00 s 01 large(p) 0 001 & 00000020 a 0000 | gloss\n",
            ),
            ("data.adv", "00000030 02 r 01 well 0 000 | gloss\n"),
            ("noun.exc", "aids aid\n"),
            ("verb.exc", "saw see\nhelped help\n"),
            ("adj.exc", "bigger big\n"),
            ("adv.exc", "better well\n"),
        ];
        for (name, body) in files {
            std::fs::write(dir.path().join(name), format!("{header}{body}")).unwrap();
        }
        dir
    }

    #[test]
    fn a_dictionary_folder_becomes_lemmas_exceptions_and_relations() {
        let dir = fixture();
        let lexicon = read_wordnet(dir.path()).unwrap();
        let texts: Vec<&str> = (0..lexicon.len() as LemmaId)
            .map(|i| lexicon.lemma_text(i))
            .collect();
        // The phrase "guard_dog" is left out; "well-being" is cleaned.
        assert_eq!(
            texts,
            vec![
                "aid",
                "assist",
                "assistance",
                "big",
                "help",
                "large",
                "see",
                "well",
                "wellbeing"
            ]
        );
        let id = |w: &str| lexicon.lemma_id(w).unwrap();
        let r = |a: &str, b: &str| lexicon.relation(id(a), id(b));
        assert_eq!(r("aid", "help"), Relation::SYNONYM);
        // "help" is a noun synonym of "aid" and a verb synonym of "assist".
        assert_eq!(r("assist", "help"), Relation::SYNONYM);
        assert_eq!(r("help", "assistance"), Relation::HYPERNYM);
        assert_eq!(r("assistance", "aid"), Relation::HYPONYM);
        assert_eq!(r("assist", "assistance"), Relation::DERIVED);
        // The lexical pointer named word 1 of the verb synset only: not "help".
        assert!(!r("help", "assistance").contains(Relation::DERIVED));
        assert_eq!(r("big", "large"), Relation::SIMILAR);
        assert!(r("big", "help").is_empty());
        let stats = lexicon.stats();
        assert_eq!(stats.pairs, 6);
        assert_eq!(stats.exceptions, 5);
        let lemmas = |w: &str| {
            let mut out = Vec::new();
            lexicon.lemmas_of(w, &mut out);
            out.iter()
                .map(|&l| lexicon.lemma_text(l))
                .collect::<Vec<_>>()
        };
        assert_eq!(lemmas("saw"), vec!["see"]);
        assert_eq!(lemmas("helped"), vec!["help"]);
        assert_eq!(lemmas("helps"), vec!["help"]);
        assert_eq!(lemmas("bigger"), vec!["big"]);
        assert_eq!(lemmas("better"), vec!["well"]);
        assert!(lexicon.source().contains("WordNet 3.0"));
    }

    #[test]
    fn missing_and_malformed_files_are_named() {
        let dir = fixture();
        std::fs::write(
            dir.path().join("data.adv"),
            "00000030 02 r zz well 0 000 | x\n",
        )
        .unwrap();
        let err = read_wordnet(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("data.adv:1") && err.contains("hexadecimal"),
            "{err}"
        );
        std::fs::remove_file(dir.path().join("index.verb")).unwrap();
        let err = read_wordnet(dir.path()).unwrap_err().to_string();
        assert!(err.contains("index.verb"), "{err}");
    }
}
