//! The splitter's rules case by case (titles, abbreviations, initials, numbers, ellipses, quotes,
//! glued sentences, line breaks) and its contract on any text: apart from the rules, which they
//! outnumber.

use super::*;
use proptest::prelude::*;

fn sentences(text: &str) -> Vec<&str> {
    split(text).into_iter().map(|r| &text[r]).collect()
}

#[test]
fn titles_and_name_abbreviations_do_not_end_sentences() {
    let text = "Mr. Smith met Mrs. Jones, Ms. Lee, Dr. Brown and Prof. Green in St. Louis. \
                Gen. Powell, Gov. Davis, Sen. Kerry and Rep. Pelosi came. \
                Lt. Col. North and Sgt. Pepper saluted Capt. Kirk.";
    assert_eq!(
        sentences(text),
        [
            "Mr. Smith met Mrs. Jones, Ms. Lee, Dr. Brown and Prof. Green in St. Louis.",
            "Gen. Powell, Gov. Davis, Sen. Kerry and Rep. Pelosi came.",
            "Lt. Col. North and Sgt. Pepper saluted Capt. Kirk.",
        ]
    );
}

#[test]
fn company_suffixes_and_suffixes_of_names_continue_unless_a_sentence_starts() {
    assert_eq!(
        sentences("Apple Inc. said profits rose. Shares of Apple Inc. The company fell."),
        [
            "Apple Inc. said profits rose.",
            "Shares of Apple Inc.",
            "The company fell."
        ]
    );
    assert_eq!(
        sentences("Acme Ltd. Chairman Bob and Smith & Co. Europe agreed with Big Corp. staff."),
        ["Acme Ltd. Chairman Bob and Smith & Co. Europe agreed with Big Corp. staff."]
    );
    assert_eq!(
        sentences("Martin Luther King Jr. Day is here. He was born Sam Jones Sr. He died."),
        [
            "Martin Luther King Jr. Day is here.",
            "He was born Sam Jones Sr.",
            "He died."
        ]
    );
}

#[test]
fn vs_etc_and_no_follow_their_own_rules() {
    // vs. never ends a sentence; etc. only before a capital; No. never before a number.
    assert_eq!(
        sentences("It was England vs. France. We bought pens, paper, etc. and then left."),
        [
            "It was England vs. France.",
            "We bought pens, paper, etc. and then left."
        ]
    );
    assert_eq!(
        sentences("Pens, paper etc. The shop closed."),
        ["Pens, paper etc.", "The shop closed."]
    );
    assert_eq!(
        sentences("He lives at No. 10 Downing Street. The answer was no. It stayed no."),
        [
            "He lives at No. 10 Downing Street.",
            "The answer was no.",
            "It stayed no."
        ]
    );
}

#[test]
fn month_abbreviations_continue_before_a_day() {
    assert_eq!(
        sentences("It opened on Jan. 15 and closed Feb. 3. It reopened in Sept. The crowds came."),
        [
            "It opened on Jan. 15 and closed Feb. 3.",
            "It reopened in Sept.",
            "The crowds came."
        ]
    );
}

#[test]
fn dotted_acronyms_end_a_sentence_only_before_a_sentence_starter() {
    // The rule: after an acronym (U.S., a.m.), an ending-capable abbreviation (Inc.) or an
    // initial, only a capitalised word from the STARTERS list ("The", "He", "But"...)
    // reinstates the break; any other capitalised word is taken as a name.
    assert_eq!(
        sentences("The U.S. President met U.K. and U.N. envoys in the U.S. The next day he left."),
        [
            "The U.S. President met U.K. and U.N. envoys in the U.S.",
            "The next day he left."
        ]
    );
    assert_eq!(
        sentences("We met at 9 a.m. Eastern time and left at 5 p.m. It was late."),
        [
            "We met at 9 a.m. Eastern time and left at 5 p.m.",
            "It was late."
        ]
    );
    assert_eq!(
        sentences("Use tools, e.g. The Times archive, i.e. Old papers. Then stop."),
        [
            "Use tools, e.g. The Times archive, i.e. Old papers.",
            "Then stop."
        ]
    );
}

#[test]
fn initials_do_not_end_sentences() {
    assert_eq!(
        sentences("J. R. R. Tolkien wrote it. George W. Bush read it. He liked Plan B. It worked."),
        [
            "J. R. R. Tolkien wrote it.",
            "George W. Bush read it.",
            "He liked Plan B.",
            "It worked.",
        ]
    );
}

#[test]
fn numbers_times_versions_and_addresses_do_not_break() {
    let text = "Sales rose 2.5% to $10.9bn at 12.30 and 1:40 pm. Version 1.2.3 of example.com \
                is out, mail info@example.co.uk now. It cost 3.36 dollars.";
    assert_eq!(
        sentences(text),
        [
            "Sales rose 2.5% to $10.9bn at 12.30 and 1:40 pm.",
            "Version 1.2.3 of example.com is out, mail info@example.co.uk now.",
            "It cost 3.36 dollars.",
        ]
    );
}

#[test]
fn a_list_number_opening_a_sentence_is_not_a_sentence() {
    assert_eq!(
        sentences("1. Introduction to the topic. Chapter 2. The end."),
        ["1. Introduction to the topic.", "Chapter 2.", "The end."]
    );
}

#[test]
fn ellipses_break_only_before_a_capital() {
    assert_eq!(
        sentences("Wait... what? Well . . . I see. And so… on it went."),
        [
            "Wait... what?",
            "Well . . .",
            "I see.",
            "And so… on it went."
        ]
    );
    assert_eq!(sentences("Wait… What now?"), ["Wait…", "What now?"]);
}

#[test]
fn closing_quotes_and_brackets_belong_to_the_sentence() {
    assert_eq!(
        sentences("He said \"Go.\" Then he left."),
        ["He said \"Go.\"", "Then he left."]
    );
    assert_eq!(sentences("(See below.) Next."), ["(See below.)", "Next."]);
    assert_eq!(
        sentences("She said “Stop.” He did. ‘Fine.’ They left! «Bien.» Done."),
        [
            "She said “Stop.”",
            "He did.",
            "‘Fine.’",
            "They left!",
            "«Bien.»",
            "Done."
        ]
    );
    assert_eq!(
        sentences("He sighed. \"We lost.\" She nodded."),
        ["He sighed.", "\"We lost.\"", "She nodded."]
    );
}

#[test]
fn question_and_exclamation_marks_end_sentences() {
    assert_eq!(
        sentences("Really?! Yes!! Why? Because. Stop! Now."),
        ["Really?!", "Yes!!", "Why?", "Because.", "Stop!", "Now."]
    );
    // A lowercase word after them continues the sentence.
    assert_eq!(
        sentences("\"Why?\" he asked. Yahoo! shares rose."),
        ["\"Why?\" he asked.", "Yahoo! shares rose."]
    );
}

#[test]
fn a_missing_space_after_a_full_stop_still_splits() {
    let text = "TimeWarner said fourth quarter sales rose 2% to $11.1bn from $10.9bn.For the \
                full-year, TimeWarner posted a profit of $3.36bn.It lost 464,000 subscribers.";
    assert_eq!(
        sentences(text),
        [
            "TimeWarner said fourth quarter sales rose 2% to $11.1bn from $10.9bn.",
            "For the full-year, TimeWarner posted a profit of $3.36bn.",
            "It lost 464,000 subscribers.",
        ]
    );
    assert_eq!(
        sentences("Sales fell 5%.BA had problems.Sales rose.50 Cent sang.Why?Because."),
        [
            "Sales fell 5%.",
            "BA had problems.",
            "Sales rose.",
            "50 Cent sang.",
            "Why?",
            "Because."
        ]
    );
}

#[test]
fn glued_edge_cases_are_decided() {
    // "U.S.A" is one acronym; a glued capital after an acronym's stop is a new sentence
    // only if it starts a word of two or more letters.
    assert_eq!(
        sentences("He moved to the U.S.A in 1990."),
        ["He moved to the U.S.A in 1990."]
    );
    assert_eq!(
        sentences("He moved to the U.S.The job paid well."),
        ["He moved to the U.S.", "The job paid well."]
    );
    // e.g. and i.e. never end a sentence, glued or not.
    assert_eq!(
        sentences("Some tools, e.g.The Times index, help."),
        ["Some tools, e.g.The Times index, help."]
    );
    // Lowercase after a glued stop is a file name or an address, never a boundary.
    assert_eq!(
        sentences("Open readme.txt or bbc.co.uk now."),
        ["Open readme.txt or bbc.co.uk now."]
    );
}

#[test]
fn glued_quotes_go_to_the_sentence_they_belong_to() {
    // An open quotation is closed by the glued quote...
    assert_eq!(
        sentences("He said: \"We won.\"Then they left."),
        ["He said: \"We won.\"", "Then they left."]
    );
    // ...and a quote opening a sentence that closes its quotation before its end opens it.
    assert_eq!(
        sentences("Prices rose in recent months.\"I think it will last,\" he said."),
        [
            "Prices rose in recent months.",
            "\"I think it will last,\" he said."
        ]
    );
    // A lone quote after a stop stays with the sentence it follows.
    assert_eq!(
        sentences("He left a year ago. \" And then he came back."),
        ["He left a year ago. \"", "And then he came back."]
    );
}

#[test]
fn line_breaks_end_sentences() {
    // Only preformatted text keeps line breaks (code, verse, tables): each line is at most
    // one sentence, even without a full stop.
    assert_eq!(
        sentences("fn main() {\n    println!(\"hi. there\");\n}\nRoses are red\nviolets are blue."),
        [
            "fn main() {",
            "println!(\"hi. there\");",
            "Roses are red",
            "violets are blue."
        ]
    );
}

#[test]
fn ideographic_stops_always_end_sentences() {
    assert_eq!(
        sentences("今日は晴れ。明日は雨！本当？"),
        ["今日は晴れ。", "明日は雨！", "本当？"]
    );
}

#[test]
fn pieces_without_letters_or_digits_are_dropped() {
    assert_eq!(sentences(""), Vec::<&str>::new());
    assert_eq!(sentences(" ... !!! -- "), Vec::<&str>::new());
    assert_eq!(sentences("Hi. -- . Bye."), ["Hi.", "Bye."]);
}

#[test]
fn long_pathological_input_is_handled() {
    // Every byte a terminator candidate, and one 300 kB token: must stay linear (the
    // release-mode timing is in examples/measure_splitter.rs and benches/documents.rs).
    let dots = "a.".repeat(150_000);
    assert_eq!(
        split(&dots),
        vec![Range {
            start: 0,
            end: dots.len()
        }]
    );
    let quotes = "x.\"A".repeat(50_000);
    assert!(!split(&quotes).is_empty());
}

fn check_contract(text: &str) -> Result<(), TestCaseError> {
    let ranges = split(text);
    let mut covered = vec![false; text.len()];
    let mut last_end = 0;
    for r in &ranges {
        prop_assert!(r.start >= last_end && r.start < r.end && r.end <= text.len());
        prop_assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
        let piece = &text[r.clone()];
        prop_assert_eq!(piece.trim(), piece);
        prop_assert!(piece.chars().any(char::is_alphanumeric));
        covered[r.clone()].iter_mut().for_each(|c| *c = true);
        last_end = r.end;
    }
    for (i, c) in text.char_indices() {
        if c.is_alphanumeric() {
            prop_assert!(covered[i], "{:?} at {} not covered", c, i);
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn contract_holds_on_any_unicode(text in any::<String>()) {
        check_contract(&text)?;
    }

    #[test]
    fn contract_holds_on_punctuation_heavy_text(
        text in proptest::string::string_regex(
            "([A-Za-z]{1,4}|[0-9]{1,3}|[.!?…\"'“”‘’()\\[\\] \\n]|U\\.S\\.|Mr\\.|e\\.g\\.|\\. \\. \\.|。){0,60}"
        ).expect("valid regex")
    ) {
        check_contract(&text)?;
    }
}
