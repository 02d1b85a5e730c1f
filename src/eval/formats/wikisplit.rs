//! WikiSplit (Botha, Faruqui, Alex, Baldridge & Das, EMNLP 2018): Wikipedia edits in which one
//! sentence was split into two. `<split>.tsv`, tab-separated: the original sentence, then the two
//! new sentences joined by ` <::::> `. The text is tokenised (` , `, ` 's `).
//!
//! ## The comparison unit
//! A row's two sides say the same thing, one in one sentence and one in two. Compared sentence by
//! sentence, each half of the split is a part of the original: Sim(half, original) is high,
//! Sim(original, half) about one half, and EQ (thesis eq. 3.4) calls them *different* by design,
//! through the permission and variation thresholds (the thesis's own subset example, 3.2.2: "S_1
//! is a part of S_2, but not vice versa, and should be treated as different"). So the unit that
//! carries the row's label is the *text*: the original against the two split sentences taken
//! together (joined with a space) as one unit. [`parse`] returns that pair; [`halves`] keeps the
//! two halves for the sentence-level view.
//!
//! ## Negatives
//! Every row is a positive. To measure false positives too, [`parse`] adds one negative per row:
//! the original of row i against the split text of row i + n/2 (mod n). The rows are sorted
//! alphabetically, so neighbours often share their first words; half the file away they do not
//! (and a text never meets its own row, since the offset is n/2 >= 1 for n >= 2). A single row
//! gets no negative.

use super::{LabeledPair, LineError, strip_bom, tsv_records};

/// The separator between the two split sentences.
pub const SEPARATOR: &str = "<::::>";

/// One row: the original sentence and its two halves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub original: String,
    pub halves: [String; 2],
}

impl Row {
    /// The two halves as one text.
    pub fn split_text(&self) -> String {
        format!("{} {}", self.halves[0], self.halves[1])
    }
}

/// Reads the rows of a WikiSplit file.
pub fn rows(text: &str) -> Result<Vec<Row>, LineError> {
    let mut rows = Vec::new();
    let mut reader = tsv_records(strip_bom(text));
    for (index, record) in reader.records().enumerate() {
        let record = record.map_err(|e| LineError::new(index + 1, e.to_string()))?;
        let line = record.position().map_or(index + 1, |p| p.line() as usize);
        if record.len() != 2 {
            return Err(LineError::new(
                line,
                format!(
                    "expected 2 tab-separated fields (sentence, split sentences), found {}",
                    record.len()
                ),
            ));
        }
        let parts: Vec<&str> = record[1].split(SEPARATOR).map(str::trim).collect();
        let [first, second] = parts[..] else {
            return Err(LineError::new(
                line,
                format!(
                    "expected two split sentences separated by `{SEPARATOR}`, found {}",
                    parts.len()
                ),
            ));
        };
        rows.push(Row {
            original: record[0].trim().to_string(),
            halves: [first.to_string(), second.to_string()],
        });
    }
    Ok(rows)
}

/// The labelled pairs of a WikiSplit file: per row, the original against its split text
/// (positive), and against the split text of the row half the file away (negative). (The
/// command line reads the rows itself; the tests read a file whole.)
#[cfg(test)]
pub fn parse(text: &str) -> Result<Vec<LabeledPair>, LineError> {
    Ok(pairs_of(&rows(text)?))
}

/// The labelled pairs of rows (see [`parse`]).
pub fn pairs_of(rows: &[Row]) -> Vec<LabeledPair> {
    let n = rows.len();
    let mut pairs: Vec<LabeledPair> = rows
        .iter()
        .map(|r| LabeledPair::new(&r.original, &r.split_text(), true))
        .collect();
    if n >= 2 {
        for (i, row) in rows.iter().enumerate() {
            let other = &rows[(i + n / 2) % n];
            pairs.push(LabeledPair::new(&row.original, &other.split_text(), false));
        }
    }
    pairs
}

/// For the sentence-level view: each half against the original, as (half, original) pairs, all
/// positive in meaning, two per row.
pub fn halves(rows: &[Row]) -> Vec<(String, String)> {
    rows.iter()
        .flat_map(|r| {
            r.halves
                .iter()
                .map(|h| (h.clone(), r.original.clone()))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "' Maolain ' said , a name .\t' Maolain ' said . <::::> A name .\n\
                        B was born , he died .\tB was born . <::::> He died .\n\
                        C \"quoted , lived .\tC \"quoted . <::::> It lived .\n\
                        D ran .\tD <::::> ran .\n";

    #[test]
    fn rows_split_on_the_separator_and_keep_quotes() {
        let rows = rows(TEXT).unwrap();
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[0].original, "' Maolain ' said , a name .");
        assert_eq!(
            rows[0].halves,
            ["' Maolain ' said .".to_string(), "A name .".to_string()]
        );
        assert_eq!(rows[2].halves[0], "C \"quoted .");
        assert_eq!(rows[1].split_text(), "B was born . He died .");
    }

    #[test]
    fn each_row_gives_a_positive_and_a_negative_half_the_file_away() {
        let pairs = parse(TEXT).unwrap();
        assert_eq!(pairs.len(), 8);
        assert!(pairs[..4].iter().all(|p| p.positive));
        assert!(pairs[4..].iter().all(|p| !p.positive));
        // Row 0 against row 2's split, row 3 against row 1's split.
        assert_eq!(pairs[4].left, "' Maolain ' said , a name .");
        assert_eq!(pairs[4].right, "C \"quoted . It lived .");
        assert_eq!(pairs[7].left, "D ran .");
        assert_eq!(pairs[7].right, "B was born . He died .");
        assert_eq!(pairs_of(&rows(TEXT).unwrap()[..1]).len(), 1);
        assert_eq!(halves(&rows(TEXT).unwrap()).len(), 8);
    }

    #[test]
    fn a_row_without_two_halves_is_an_error() {
        let err = rows("a b .\ta . <::::> b . <::::> c .\n").unwrap_err();
        assert_eq!(
            err,
            LineError::new(
                1,
                "expected two split sentences separated by `<::::>`, found 3"
            )
        );
        let err = rows("ok .\tok . <::::> yes .\nno tab here\n").unwrap_err();
        assert_eq!(err.line, 2);
    }
}
