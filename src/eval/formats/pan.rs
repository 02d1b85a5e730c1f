//! The sentence-level PAN paraphrase set of Madnani, Tetreault & Chodorow (NAACL 2012), cut out of
//! the PAN-PC-10 plagiarism corpus: three line-aligned files per split, `pan-<split>_s1.txt`,
//! `pan-<split>_s2.txt` (one sentence per line) and `pan-<split>.labels` (1 paraphrase, 0 not).
//!
//! The shared copy has only the training split, sorted (5,000 positives, then 5,000 negatives).
//! To tune on PAN and still measure on pairs never tuned on, simdoc fixes two parts of it:
//! [`HOLDOUT`] is every fifth pair (pairs 5, 10, 15, ... counting from 1: 2,000 pairs, 1,000 of
//! each label, since each label's run has a length divisible by 5) and [`TUNE`] the other 8,000.
//! Taking every fifth pair rather than a block keeps both labels in both parts.

use std::path::{Path, PathBuf};

use super::{FormatError, LabeledPair, LineError, read_text};

/// The tuning part of the training split: every pair not in [`HOLDOUT`].
pub const TUNE: &str = "tune";
/// The held-out part of the training split: pairs 5, 10, 15, ... (1-based).
pub const HOLDOUT: &str = "holdout";

/// Whether the pair at 0-based `index` of the training split is held out.
pub fn is_held_out(index: usize) -> bool {
    (index + 1).is_multiple_of(5)
}

/// Pairs the lines of the three files; `labels` must have one `0` or `1` per pair (a trailing
/// newline is fine; blank label lines are not).
pub fn parse(s1: &str, s2: &str, labels: &str) -> Result<Vec<LabeledPair>, (usize, LineError)> {
    let (s1, s2): (Vec<&str>, Vec<&str>) = (s1.lines().collect(), s2.lines().collect());
    let labels: Vec<&str> = labels.lines().collect();
    if s1.len() != labels.len() || s2.len() != labels.len() {
        let (file, line) = if s1.len() != labels.len() {
            (0, s1.len().min(labels.len()) + 1)
        } else {
            (1, s2.len().min(labels.len()) + 1)
        };
        return Err((
            file,
            LineError::new(
                line,
                format!(
                    "the files are not aligned: {} first sentences, {} second sentences, {} labels",
                    s1.len(),
                    s2.len(),
                    labels.len()
                ),
            ),
        ));
    }
    s1.iter()
        .zip(&s2)
        .zip(&labels)
        .enumerate()
        .map(|(i, ((a, b), label))| {
            let positive = match label.trim() {
                "1" => true,
                "0" => false,
                other => {
                    return Err((
                        2,
                        LineError::new(i + 1, format!("the label `{other}` is not 0 or 1")),
                    ));
                }
            };
            Ok(LabeledPair::new(a, b, positive))
        })
        .collect()
}

/// The three files of `split` in `folder`.
pub fn files(folder: &Path, split: &str) -> [PathBuf; 3] {
    [
        folder.join(format!("pan-{split}_s1.txt")),
        folder.join(format!("pan-{split}_s2.txt")),
        folder.join(format!("pan-{split}.labels")),
    ]
}

/// Reads `split` (`train`, `test`, or the fixed parts [`TUNE`] and [`HOLDOUT`] of `train`) from
/// `folder`.
pub fn load(folder: &Path, split: &str) -> Result<(Vec<PathBuf>, Vec<LabeledPair>), FormatError> {
    let stored = if split == TUNE || split == HOLDOUT {
        "train"
    } else {
        split
    };
    let paths = files(folder, stored);
    let texts = [
        read_text(&paths[0])?,
        read_text(&paths[1])?,
        read_text(&paths[2])?,
    ];
    let pairs = parse(&texts[0], &texts[1], &texts[2]).map_err(|(file, e)| e.at(&paths[file]))?;
    let pairs = match split {
        TUNE => keep(pairs, |i| !is_held_out(i)),
        HOLDOUT => keep(pairs, is_held_out),
        _ => pairs,
    };
    Ok((paths.to_vec(), pairs))
}

fn keep(pairs: Vec<LabeledPair>, wanted: impl Fn(usize) -> bool) -> Vec<LabeledPair> {
    pairs
        .into_iter()
        .enumerate()
        .filter(|(i, _)| wanted(*i))
        .map(|(_, p)| p)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_lines_become_pairs() {
        let pairs = parse("a \"b\nc\n", "d\ne\n", "1\n0\n").unwrap();
        assert_eq!(
            pairs,
            vec![
                LabeledPair::new("a \"b", "d", true),
                LabeledPair::new("c", "e", false)
            ]
        );
        // No final newline, CRLF endings.
        let pairs = parse("a\r\nc", "d\r\ne", "1\r\n0").unwrap();
        assert_eq!(pairs[1], LabeledPair::new("c", "e", false));
    }

    #[test]
    fn misaligned_files_and_bad_labels_are_errors() {
        let (file, err) = parse("a\nb\n", "c\n", "1\n1\n").unwrap_err();
        assert_eq!(file, 1);
        assert_eq!(err.line, 2);
        assert!(
            err.problem
                .contains("2 first sentences, 1 second sentences, 2 labels")
        );
        let (file, err) = parse("a\nb\n", "c\nd\n", "1\nyes\n").unwrap_err();
        assert_eq!((file, err.line), (2, 2));
    }

    #[test]
    fn holdout_is_every_fifth_pair_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let n = 20;
        let s1: String = (1..=n).map(|i| format!("left {i}\n")).collect();
        let s2: String = (1..=n).map(|i| format!("right {i}\n")).collect();
        // Sorted labels like the real file: ten 1s, then ten 0s.
        let labels: String = (1..=n)
            .map(|i| if i <= 10 { "1\n" } else { "0\n" })
            .collect();
        let [p1, p2, pl] = files(dir.path(), "train");
        std::fs::write(p1, s1).unwrap();
        std::fs::write(p2, s2).unwrap();
        std::fs::write(pl, labels).unwrap();
        let (_, holdout) = load(dir.path(), HOLDOUT).unwrap();
        let names: Vec<&str> = holdout.iter().map(|p| p.left.as_str()).collect();
        assert_eq!(names, ["left 5", "left 10", "left 15", "left 20"]);
        assert_eq!(holdout.iter().filter(|p| p.positive).count(), 2);
        let (_, tune) = load(dir.path(), TUNE).unwrap();
        assert_eq!(tune.len(), 16);
        assert!(tune.iter().all(|p| !names.contains(&p.left.as_str())));
        let (_, all) = load(dir.path(), "train").unwrap();
        assert_eq!(all.len(), 20);
        let err = load(dir.path(), "test").unwrap_err();
        assert!(
            err.to_string().contains("pan-test_s1.txt: cannot read"),
            "{err}"
        );
    }
}
