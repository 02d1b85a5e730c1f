//! Readers for the labelled sentence-pair data sets: one module per format, each a pure function
//! from the file's text to [`LabeledPair`]s (so each quirk is tested on small hand-made strings),
//! and [`Format::load`] to find a split's files on disk.
//!
//! | format | files | label |
//! |---|---|---|
//! | [`msrp`] | `msr_paraphrase_<split>.txt` | the corpus's 0/1 |
//! | [`pan`] | `pan-<split>_s1.txt`, `_s2.txt`, `.labels` | the corpus's 0/1; `tune`/`holdout` are fixed parts of `train` |
//! | [`stsb`] | `sts-<split>.csv` | grade >= 4 of 0-5 ([`stsb::PARAPHRASE_GRADE`]), the grade kept |
//! | [`wikisplit`] | `<split>.tsv` | every row positive, plus one built negative per row |

pub(crate) mod msrp;
pub(crate) mod pan;
pub(crate) mod stsb;
pub(crate) mod wikisplit;

use std::path::{Path, PathBuf};

use serde::Serialize;

/// One labelled pair of texts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LabeledPair {
    pub left: String,
    pub right: String,
    /// The two texts say the same thing (paraphrase, reuse).
    pub positive: bool,
    /// A graded human judgement, where the data set has one (STS-B: 0 to 5).
    pub grade: Option<f64>,
}

impl LabeledPair {
    pub fn new(left: &str, right: &str, positive: bool) -> Self {
        LabeledPair {
            left: left.to_string(),
            right: right.to_string(),
            positive,
            grade: None,
        }
    }
}

/// Why a data set could not be read. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    #[error("{}: cannot read: {error}", path.display())]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{}, line {line}: {problem}", path.display())]
    Line {
        path: PathBuf,
        line: usize,
        problem: String,
    },
    #[error("{}: {problem}", path.display())]
    File { path: PathBuf, problem: String },
    #[error("{}: no {format} split `{split}` here (expected {expected})", path.display())]
    NoSplit {
        path: PathBuf,
        format: &'static str,
        split: String,
        expected: String,
    },
}

/// A problem on one line, before the file name is known; [`LineError::at`] adds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// 1-based.
    pub line: usize,
    pub problem: String,
}

impl LineError {
    pub fn new(line: usize, problem: impl Into<String>) -> Self {
        LineError {
            line,
            problem: problem.into(),
        }
    }

    pub fn at(self, path: &Path) -> FormatError {
        FormatError::Line {
            path: path.to_path_buf(),
            line: self.line,
            problem: self.problem,
        }
    }
}

/// The labelled data sets simdoc reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Microsoft Research Paraphrase Corpus (Dolan, Quirk & Brockett 2004).
    Msrp,
    /// Sentence pairs from PAN-PC-10 plagiarism cases (Madnani, Tetreault & Chodorow 2012).
    Pan,
    /// STS Benchmark (Cer et al. 2017).
    Stsb,
    /// WikiSplit (Botha et al. 2018).
    #[serde(rename = "wikisplit")]
    WikiSplit,
}

/// A data set split, read.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairSet {
    pub format: Format,
    pub split: String,
    /// The file(s) read.
    pub files: Vec<PathBuf>,
    pub pairs: Vec<LabeledPair>,
    /// WikiSplit only: each half of a split against its original sentence, for the
    /// sentence-level view (see [`wikisplit`]).
    pub halves: Option<Vec<(String, String)>>,
}

/// Data set files larger than this are refused (the largest shared one is a few megabytes).
pub const MAX_DATA_FILE_BYTES: u64 = 1024 * 1024 * 1024;

/// Reads a whole regular file (of at most [`MAX_DATA_FILE_BYTES`]) as UTF-8 text (lossily: a
/// stray invalid byte becomes U+FFFD rather than failing the whole data set), without a leading
/// byte-order mark.
pub fn read_text(path: &Path) -> Result<String, FormatError> {
    let bytes =
        crate::read::read_regular_file(path, MAX_DATA_FILE_BYTES).map_err(|error| match error {
            crate::read::ReadError::Io(error) => FormatError::Io {
                path: path.to_path_buf(),
                error,
            },
            other => FormatError::File {
                path: path.to_path_buf(),
                problem: other.to_string(),
            },
        })?;
    let text = String::from_utf8_lossy(&bytes);
    Ok(strip_bom(&text).to_string())
}

/// The text without a leading UTF-8 byte-order mark.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// A tab-separated reader with quoting off: the data sets' texts contain bare `"` characters
/// that are part of the text, not CSV quotes.
pub(crate) fn tsv_records(text: &str) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new()
        .delimiter(b'\t')
        .quoting(false)
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Msrp, Format::Pan, Format::Stsb, Format::WikiSplit];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Format::Msrp => "msrp",
            Format::Pan => "pan",
            Format::Stsb => "stsb",
            Format::WikiSplit => "wikisplit",
        }
    }

    /// The split read when none is named.
    pub fn default_split(self) -> &'static str {
        match self {
            Format::Msrp | Format::Pan | Format::Stsb => "train",
            // WikiSplit's train file is not distributed uncompressed; validation is.
            Format::WikiSplit => "validation",
        }
    }

    /// The splits this format knows.
    pub fn splits(self) -> &'static [&'static str] {
        match self {
            Format::Msrp => &["train", "test"],
            Format::Pan => &["train", "test", pan::TUNE, pan::HOLDOUT],
            Format::Stsb => &["train", "dev", "test"],
            Format::WikiSplit => &["train", "tune", "validation", "test"],
        }
    }

    /// Reads `split` (default: [`Format::default_split`]) from `path`: a folder holding the
    /// data set's files, or (MSRP, STS-B, WikiSplit) one file, whose split is then taken as named.
    pub fn load(self, path: &Path, split: Option<&str>) -> Result<PairSet, FormatError> {
        let split = split.unwrap_or(self.default_split());
        if !self.splits().contains(&split) {
            return Err(FormatError::NoSplit {
                path: path.to_path_buf(),
                format: self.name(),
                split: split.to_string(),
                expected: self.splits().join(", "),
            });
        }
        let single_file = |name: String| -> PathBuf {
            if path.is_dir() {
                path.join(name)
            } else {
                path.to_path_buf()
            }
        };
        let mut halves = None;
        let (files, pairs) = match self {
            Format::Msrp => {
                let file = single_file(format!("msr_paraphrase_{split}.txt"));
                let pairs = msrp::parse(&read_text(&file)?).map_err(|e| e.at(&file))?;
                (vec![file], pairs)
            }
            Format::Stsb => {
                let file = single_file(format!("sts-{split}.csv"));
                let pairs = stsb::parse(&read_text(&file)?).map_err(|e| e.at(&file))?;
                (vec![file], pairs)
            }
            Format::WikiSplit => {
                let file = single_file(format!("{split}.tsv"));
                let rows = wikisplit::rows(&read_text(&file)?).map_err(|e| e.at(&file))?;
                halves = Some(wikisplit::halves(&rows));
                (vec![file], wikisplit::pairs_of(&rows))
            }
            Format::Pan => pan::load(path, split)?,
        };
        if pairs.is_empty() {
            return Err(FormatError::File {
                path: files.first().cloned().unwrap_or_else(|| path.to_path_buf()),
                problem: "holds no pairs".into(),
            });
        }
        Ok(PairSet {
            format: self,
            split: split.to_string(),
            files,
            pairs,
            halves,
        })
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| format!("unknown format `{s}` (expected msrp, pan, stsb or wikisplit)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_split_or_file_is_a_named_error() {
        let dir = tempfile::tempdir().unwrap();
        let err = Format::Msrp.load(dir.path(), Some("dev")).unwrap_err();
        assert!(err.to_string().contains("no msrp split `dev`"), "{err}");
        let err = Format::Msrp.load(dir.path(), None).unwrap_err();
        assert!(
            err.to_string()
                .contains("msr_paraphrase_train.txt: cannot read"),
            "{err}"
        );
    }

    #[test]
    fn a_file_path_is_read_directly_and_errors_name_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("mine.tsv");
        std::fs::write(&file, "1\t1\t2\ta\tb\nx\t1\t2\ta\tb\n").unwrap();
        let err = Format::Msrp.load(&file, None).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("{}, line 2: the label `x` is not 0 or 1", file.display())
        );
        std::fs::write(&file, "\u{feff}1\t1\t2\ta\tb\n").unwrap();
        let set = Format::Msrp.load(&file, None).unwrap();
        assert_eq!(set.pairs, vec![LabeledPair::new("a", "b", true)]);
        std::fs::write(&file, "").unwrap();
        let err = Format::Msrp.load(&file, None).unwrap_err();
        assert!(err.to_string().ends_with("holds no pairs"), "{err}");
    }
}
