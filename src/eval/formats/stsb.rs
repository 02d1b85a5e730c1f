//! The STS Benchmark (Cer, Diab, Agirre, Lopez-Gazpio & Specia, SemEval-2017 Task 1):
//! `sts-<split>.csv`, tab-separated without a header: `genre  filename  year  id  score
//! sentence1  sentence2`, sometimes followed by two licence/source fields (9 fields instead of 7).
//! The score is a human grade from 0 to 5.
//!
//! Quirks: bare double quotes inside sentences (read with quoting off), the optional extra fields.
//!
//! The binary label for precision and recall is `grade >= 4` ([`PARAPHRASE_GRADE`]): the STS
//! annotation guidelines (Agirre et al. 2012-2016) call 5 "completely equivalent" and 4 "mostly
//! equivalent, but some unimportant details differ", while 3 is "roughly equivalent, but some
//! important information differs/missing"; a pair at 4 or 5 is what a copy detector should call
//! the same sentence. Correlations are computed on the raw grades.

use super::{LabeledPair, LineError, strip_bom, tsv_records};

/// The lowest grade counted as "the same sentence".
pub const PARAPHRASE_GRADE: f64 = 4.0;

/// Parses the text of an STS-B file.
pub fn parse(text: &str) -> Result<Vec<LabeledPair>, LineError> {
    let mut pairs = Vec::new();
    let mut reader = tsv_records(strip_bom(text));
    for (index, record) in reader.records().enumerate() {
        let record = record.map_err(|e| LineError::new(index + 1, e.to_string()))?;
        let line = record.position().map_or(index + 1, |p| p.line() as usize);
        if record.len() < 7 {
            return Err(LineError::new(
                line,
                format!(
                    "expected at least 7 tab-separated fields (genre, file, year, id, score, sentence1, sentence2), found {}",
                    record.len()
                ),
            ));
        }
        let grade: f64 = record[4]
            .trim()
            .parse()
            .ok()
            .filter(|g: &f64| (0.0..=5.0).contains(g))
            .ok_or_else(|| {
                LineError::new(
                    line,
                    format!("the score `{}` is not a number from 0 to 5", &record[4]),
                )
            })?;
        pairs.push(LabeledPair {
            left: record[5].to_string(),
            right: record[6].to_string(),
            positive: grade >= PARAPHRASE_GRADE,
            grade: Some(grade),
        });
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seven_and_nine_fields_quotes_and_the_derived_label() {
        let text = "main-captions\tMSRvid\t2012test\t0001\t5.000\tA plane is taking off.\tAn air plane is taking off.\n\
                    main-news\theadlines\t2016\t0012\t4\tDriver \"backs\" off\tDriver backs off\tEMM (http://x)\tEMM (http://x)\n\
                    main-forum\tdeft\t2014\t0003\t3.999\tHe said \"no.\tHe said yes.\n";
        let pairs = parse(text).unwrap();
        assert_eq!(pairs.len(), 3);
        assert_eq!(pairs[0].left, "A plane is taking off.");
        assert_eq!(pairs[0].grade, Some(5.0));
        assert!(pairs[0].positive);
        assert_eq!(pairs[1].left, "Driver \"backs\" off");
        assert_eq!(pairs[1].right, "Driver backs off");
        assert!(pairs[1].positive, "grade 4 counts as the same");
        assert_eq!(pairs[2].left, "He said \"no.");
        assert_eq!(pairs[2].grade, Some(3.999));
        assert!(!pairs[2].positive);
    }

    #[test]
    fn bad_scores_and_short_lines_name_the_line() {
        let err = parse("g\tf\ty\t1\t5.1\ta\tb\n").unwrap_err();
        assert_eq!(err.line, 1);
        assert!(err.problem.contains("`5.1`"));
        let err = parse("g\tf\ty\t1\t4\ta\tb\ng\tf\ty\t1\tfour\ta\tb\n").unwrap_err();
        assert_eq!(err.line, 2);
        let err = parse("g\tf\ty\t1\t4\ta\n").unwrap_err();
        assert!(err.problem.contains("found 6"));
    }
}
