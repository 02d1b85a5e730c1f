//! The Microsoft Research Paraphrase Corpus (Dolan, Quirk & Brockett 2004), e.g.
//! `msr_paraphrase_train.txt`: UTF-8 with a byte-order mark, a header line, then one pair per line,
//! tab-separated: `Quality  #1 ID  #2 ID  #1 String  #2 String`, Quality 1 for a paraphrase.
//!
//! Quirks: the strings contain unescaped double quotes (`"the witness"`, `5'10"`), so the file is
//! read with quoting off; the header is recognised by its first field `Quality` (after the BOM,
//! which [`super::read_text`] removes, and which is stripped here too for direct callers).

use super::{LabeledPair, LineError, strip_bom, tsv_records};

/// Parses the text of an MSRP file.
pub fn parse(text: &str) -> Result<Vec<LabeledPair>, LineError> {
    let mut pairs = Vec::new();
    let mut reader = tsv_records(strip_bom(text));
    for (index, record) in reader.records().enumerate() {
        let record = record.map_err(|e| LineError::new(index + 1, e.to_string()))?;
        let line = record.position().map_or(index + 1, |p| p.line() as usize);
        if pairs.is_empty() && record.get(0) == Some("Quality") {
            continue;
        }
        if record.len() != 5 {
            return Err(LineError::new(
                line,
                format!(
                    "expected 5 tab-separated fields (Quality, #1 ID, #2 ID, #1 String, #2 String), found {}",
                    record.len()
                ),
            ));
        }
        let positive = match &record[0] {
            "1" => true,
            "0" => false,
            other => {
                return Err(LineError::new(
                    line,
                    format!("the label `{other}` is not 0 or 1"),
                ));
            }
        };
        pairs.push(LabeledPair::new(&record[3], &record[4], positive));
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_header_and_bare_quotes() {
        let text = "\u{feff}Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n\
                    1\t702876\t702977\tHe called him \"the witness\", twice.\tReferring to \"the witness\", he spoke.\n\
                    0\t1\t2\tHe is 5'10\" tall.\t\"Unbalanced quote here\n";
        let pairs = parse(text).unwrap();
        assert_eq!(
            pairs,
            vec![
                LabeledPair::new(
                    "He called him \"the witness\", twice.",
                    "Referring to \"the witness\", he spoke.",
                    true
                ),
                LabeledPair::new("He is 5'10\" tall.", "\"Unbalanced quote here", false),
            ]
        );
    }

    #[test]
    fn crlf_lines_and_a_missing_final_newline() {
        let pairs = parse("1\t1\t2\ta\tb\r\n0\t3\t4\tc\td").unwrap();
        assert_eq!(
            pairs,
            vec![
                LabeledPair::new("a", "b", true),
                LabeledPair::new("c", "d", false)
            ]
        );
    }

    #[test]
    fn wrong_field_counts_and_labels_name_the_line() {
        let err = parse("Quality\tx\ty\tz\tw\n1\t1\t2\tonly one string\n").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.problem.contains("found 4"), "{}", err.problem);
        let err = parse("2\t1\t2\ta\tb\n").unwrap_err();
        assert_eq!(err, LineError::new(1, "the label `2` is not 0 or 1"));
    }
}
