//! Word by word: how each word of a matched pair met the other sentence.
//!
//! A matched pair says *that* two sentences are alike; an analyst wants to see *how*: which
//! words were kept as they were, which changed form ("helps" / "helped"), which were replaced by
//! a related word ("aid" for "help", with the reference model's correlation c of thesis eq. 3.1),
//! and which are only in one sentence. Words are those of [`crate::text::words`], so each carries
//! the refined term the matchers compared and its byte span in the sentence as written.
//!
//! For each word of one side, in reading order:
//! - [`WordMatch::Identical`]: a word of the other side is written the same (ignoring case);
//! - [`WordMatch::Stemmed`]: otherwise, a word of the other side has the same refined term;
//! - [`WordMatch::Related`]: otherwise (content words, when relatedness is asked for), the word
//!   of the other side whose term correlates most with this one, with that c. In eq. 3.2 this is
//!   the largest factor of mu; mu itself (which unites all factors) is what the tooltip of the
//!   pair explains. Under WordNet's relations ([`Relatedness::Wordnet`]) the words themselves
//!   are looked up, and the match says why they are related ("synonyms", "hypernym", "same
//!   word": [`crate::similarity::lexical::WordLink`]);
//! - [`WordMatch::Unmatched`]: no word of the other side has the term or a correlate of it;
//! - [`WordMatch::Ignored`]: refining dropped the word (a stopword or number the options do not
//!   keep), so it took no part in the score.
//!
//! Partners are chosen one-to-one where the other side has enough candidates (the first unused
//! one in reading order), so that "the ... the" pairs up in order; the Sim itself works on term
//! sets, so a word whose term occurs again is still matched when the partners run out.
//!
//! One side may be two sentences (a one-to-two match, [`crate::similarity::Joined`]): each word
//! says which of them (`part`) it stands in.

use std::ops::Range;

use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::model::wordnet::LemmaId;
use crate::similarity::lexical::{Lexical, WordLink};
use crate::similarity::{ModelView, RelatedWords, TermId};
use crate::text::{RefineOptions, TermKind, words::words_with_surface};

/// How one word met the other sentence.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WordMatch {
    /// Written the same in the other sentence (ignoring case).
    Identical,
    /// The same refined term (stem) in another form.
    Stemmed,
    /// The strongest correlate in the other sentence, with its correlation c (eq. 3.1), and,
    /// under WordNet's relations, why they are related.
    Related {
        c: f32,
        #[serde(skip_serializing_if = "Option::is_none")]
        why: Option<WordLink>,
    },
    /// Only in this sentence.
    Unmatched,
    /// Not compared: refining dropped it.
    Ignored,
}

impl WordMatch {
    /// A short name for legends and CSV.
    pub fn name(self) -> &'static str {
        match self {
            WordMatch::Identical => "identical",
            WordMatch::Stemmed => "stemmed",
            WordMatch::Related { .. } => "related",
            WordMatch::Unmatched => "only here",
            WordMatch::Ignored => "not compared",
        }
    }
}

/// One word of one side of an aligned pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AlignedWord {
    /// The word as written.
    pub word: String,
    /// Which sentence of this side it stands in (0, or 1 for the second of a one-to-two match).
    #[serde(skip_serializing_if = "is_zero")]
    pub part: u8,
    /// Byte range in that sentence.
    #[serde(skip)]
    pub span: Range<usize>,
    #[serde(flatten)]
    pub kind: WordMatch,
    /// The index of its partner among the other side's words.
    #[serde(rename = "with", skip_serializing_if = "Option::is_none")]
    pub partner: Option<u32>,
}

fn is_zero(part: &u8) -> bool {
    *part == 0
}

/// Both sides of a matched pair, word by word.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct WordAlignment {
    pub a: Vec<AlignedWord>,
    pub b: Vec<AlignedWord>,
}

impl WordAlignment {
    /// How many words of each side are of each kind, in the order identical, stemmed, related,
    /// only here, not compared.
    pub fn counts(&self) -> [[usize; 5]; 2] {
        [&self.a, &self.b].map(|side| {
            let mut counts = [0; 5];
            for word in side {
                counts[kind_index(word.kind)] += 1;
            }
            counts
        })
    }
}

fn kind_index(kind: WordMatch) -> usize {
    match kind {
        WordMatch::Identical => 0,
        WordMatch::Stemmed => 1,
        WordMatch::Related { .. } => 2,
        WordMatch::Unmatched => 3,
        WordMatch::Ignored => 4,
    }
}

/// What relates two words in the view: what the comparison's Sims read.
#[derive(Clone, Copy)]
pub enum Relatedness<'a> {
    /// The model's correlations between stems (thesis eq. 3.1, or word vectors).
    Correlations(&'a dyn ModelView),
    /// WordNet's relations between words.
    Wordnet(Lexical<'a>),
}

impl<'a> Relatedness<'a> {
    /// What a comparison under `related` reads from `model` (WordNet's relations only if the
    /// model has them; else nothing relates).
    pub fn of(model: &'a dyn ModelView, related: &RelatedWords) -> Option<Relatedness<'a>> {
        match related {
            RelatedWords::Correlations => Some(Relatedness::Correlations(model)),
            RelatedWords::Wordnet(_) => Lexical::of(model, related).map(Relatedness::Wordnet),
        }
    }
}

/// A word with what matching needs to know about it.
struct Token {
    part: u8,
    span: Range<usize>,
    written: String,
    lower: String,
    term: Option<(String, TermKind)>,
    /// The model's id of a content term (or number) it knows: the only ones with correlates.
    model_id: Option<TermId>,
    /// The WordNet lemmas of a content word (under [`Relatedness::Wordnet`]).
    lemmas: Vec<LemmaId>,
}

fn tokens(parts: &[&str], refine: &RefineOptions, related: Option<Relatedness<'_>>) -> Vec<Token> {
    let mut out = Vec::new();
    for (part, sentence) in parts.iter().enumerate() {
        for word in words_with_surface(sentence, refine) {
            let model_id = match (&word.term, related) {
                (
                    Some((term, TermKind::Content | TermKind::Number)),
                    Some(Relatedness::Correlations(model)),
                ) => model.term_id(term),
                _ => None,
            };
            let mut lemmas = Vec::new();
            if let (Some(surface), Some(Relatedness::Wordnet(lexical))) = (&word.surface, related) {
                lexical.lexicon.lemmas_of(surface, &mut lemmas);
            }
            out.push(Token {
                part: u8::try_from(part).unwrap_or(u8::MAX),
                written: sentence[word.span.clone()].to_string(),
                lower: sentence[word.span.clone()].to_lowercase(),
                span: word.span,
                term: word.term,
                model_id,
                lemmas,
            });
        }
    }
    out
}

/// Aligns the words of side A (one or two sentences) with those of side B under `refine` (the
/// options the comparison refined with). `related` gives relatedness; pass `None` for a method
/// that does not use it (overlap, 4-grams, exact), so that no word is shown as related that did
/// not count.
pub fn align(
    a: &[&str],
    b: &[&str],
    refine: &RefineOptions,
    related: Option<Relatedness<'_>>,
) -> WordAlignment {
    let a_tokens = tokens(a, refine, related);
    let b_tokens = tokens(b, refine, related);
    WordAlignment {
        a: align_side(&a_tokens, &b_tokens, related),
        b: align_side(&b_tokens, &a_tokens, related),
    }
}

/// Each word of `mine` against the words of `theirs`.
fn align_side(
    mine: &[Token],
    theirs: &[Token],
    related: Option<Relatedness<'_>>,
) -> Vec<AlignedWord> {
    let mut by_surface: FxHashMap<&str, Vec<u32>> = FxHashMap::default();
    let mut by_term: FxHashMap<&str, Vec<u32>> = FxHashMap::default();
    let mut by_model_id: FxHashMap<TermId, u32> = FxHashMap::default();
    for (index, token) in (0u32..).zip(theirs) {
        if let Some((term, _)) = &token.term {
            by_surface.entry(&token.lower).or_default().push(index);
            by_term.entry(term).or_default().push(index);
        }
        if let Some(id) = token.model_id {
            by_model_id.entry(id).or_insert(index);
        }
    }
    let mut used = vec![false; theirs.len()];
    let mut take = |candidates: &[u32]| -> u32 {
        let first_free = candidates.iter().copied().find(|&i| !used[i as usize]);
        let chosen = first_free.unwrap_or(candidates[0]);
        used[chosen as usize] = true;
        chosen
    };
    let mut correlates = Vec::new();
    mine.iter()
        .map(|token| {
            let (kind, partner) = match &token.term {
                None => (WordMatch::Ignored, None),
                Some((term, _)) => {
                    if let Some(list) = by_surface.get(token.lower.as_str()) {
                        (WordMatch::Identical, Some(take(list)))
                    } else if let Some(list) = by_term.get(term.as_str()) {
                        (WordMatch::Stemmed, Some(take(list)))
                    } else {
                        let strongest = match related {
                            Some(Relatedness::Correlations(model)) => {
                                strongest_correlate(token, &by_model_id, model, &mut correlates)
                                    .map(|(partner, c)| (partner, c, None))
                            }
                            Some(Relatedness::Wordnet(lexical)) => {
                                strongest_relation(token, theirs, &lexical)
                            }
                            None => None,
                        };
                        match strongest {
                            Some((partner, c, why)) => {
                                (WordMatch::Related { c, why }, Some(partner))
                            }
                            None => (WordMatch::Unmatched, None),
                        }
                    }
                }
            };
            AlignedWord {
                word: token.written.clone(),
                part: token.part,
                span: token.span.clone(),
                kind,
                partner,
            }
        })
        .collect()
}

/// The other side's word whose term correlates most with `token`'s, and that c (ties: the
/// earlier word).
fn strongest_correlate(
    token: &Token,
    theirs: &FxHashMap<TermId, u32>,
    model: &dyn ModelView,
    scratch: &mut Vec<(TermId, f32)>,
) -> Option<(u32, f32)> {
    let id = token.model_id?;
    scratch.clear();
    model.correlates(id, scratch);
    let mut best: Option<(u32, f32)> = None;
    for &(other, c) in scratch.iter() {
        if let Some(&index) = theirs.get(&other)
            && c > 0.0
            && best.is_none_or(|(i, b)| c > b || (c == b && index < i))
        {
            best = Some((index, c));
        }
    }
    best
}

/// The other side's word most related to `token` by WordNet, with c and why (ties: the earlier
/// word).
fn strongest_relation(
    token: &Token,
    theirs: &[Token],
    lexical: &Lexical<'_>,
) -> Option<(u32, f32, Option<WordLink>)> {
    if token.lemmas.is_empty() {
        return None;
    }
    let mut best: Option<(u32, f32, Option<WordLink>)> = None;
    for (index, other) in (0u32..).zip(theirs) {
        if let Some((c, link)) = lexical.link(&token.lemmas, &other.lemmas)
            && best.is_none_or(|(_, b, _)| c > b)
        {
            best = Some((index, c, Some(link)));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::table::TableModel;

    fn kinds(side: &[AlignedWord]) -> Vec<(&str, WordMatch, Option<u32>)> {
        side.iter()
            .map(|w| (w.word.as_str(), w.kind, w.partner))
            .collect()
    }

    #[test]
    fn each_word_says_how_it_met_the_other_sentence() {
        let mut model = TableModel::new();
        model.set_correlation("aid", "help", 0.5);
        let alignment = align(
            &["The Red Cross helps the victims."],
            &["Victims get aid from the red cross."],
            &RefineOptions::THESIS,
            Some(Relatedness::Correlations(&model)),
        );
        use WordMatch::*;
        assert_eq!(
            kinds(&alignment.a),
            vec![
                ("The", Ignored, None),
                ("Red", Identical, Some(5)),
                ("Cross", Identical, Some(6)),
                ("helps", Related { c: 0.5, why: None }, Some(2)),
                ("the", Ignored, None),
                ("victims", Identical, Some(0)),
            ]
        );
        assert_eq!(
            kinds(&alignment.b),
            vec![
                ("Victims", Identical, Some(5)),
                ("get", Unmatched, None),
                ("aid", Related { c: 0.5, why: None }, Some(3)),
                ("from", Ignored, None),
                ("the", Ignored, None),
                ("red", Identical, Some(1)),
                ("cross", Identical, Some(2)),
            ]
        );
        assert_eq!(alignment.counts(), [[3, 0, 1, 0, 2], [3, 0, 1, 1, 2]]);
        assert_eq!(alignment.b[2].span, 12..15);
    }

    #[test]
    fn another_form_of_the_same_stem_is_stemmed_and_relatedness_needs_a_model() {
        let alignment = align(
            &["Helping aid"],
            &["helped help"],
            &RefineOptions::THESIS,
            None,
        );
        use WordMatch::*;
        assert_eq!(
            kinds(&alignment.a),
            vec![("Helping", Stemmed, Some(0)), ("aid", Unmatched, None)]
        );
        assert_eq!(
            kinds(&alignment.b),
            vec![("helped", Stemmed, Some(0)), ("help", Stemmed, Some(0))],
            "the second has no free partner left and takes the first"
        );
    }

    #[test]
    fn kept_stopwords_pair_up_in_reading_order_and_parts_are_marked() {
        let alignment = align(
            &["the cat and the dog"],
            &["the cat.", "And the dog"],
            &RefineOptions::MEASURED,
            None,
        );
        let partners: Vec<Option<u32>> = alignment.a.iter().map(|w| w.partner).collect();
        assert_eq!(partners, vec![Some(0), Some(1), Some(2), Some(3), Some(4)]);
        let parts: Vec<u8> = alignment.b.iter().map(|w| w.part).collect();
        assert_eq!(parts, vec![0, 0, 1, 1, 1]);
        assert!(alignment.b.iter().all(|w| w.kind == WordMatch::Identical));
    }

    #[test]
    fn wordnet_relates_words_not_stems_and_says_why() {
        let lexicon = crate::model::wordnet::sample();
        let lexical = Lexical {
            lexicon: &lexicon,
            weights: crate::similarity::WordnetWeights::TRIAL,
        };
        let alignment = align(
            &["They helped and went."],
            &["They aid and go."],
            &RefineOptions::MEASURED,
            Some(Relatedness::Wordnet(lexical)),
        );
        use crate::model::wordnet::Relation;
        assert_eq!(
            kinds(&alignment.a),
            vec![
                ("They", WordMatch::Identical, Some(0)),
                (
                    "helped",
                    WordMatch::Related {
                        c: 1.0,
                        why: Some(WordLink::Related(
                            Relation::SYNONYM.union(Relation::HYPERNYM)
                        ))
                    },
                    Some(1)
                ),
                ("and", WordMatch::Identical, Some(2)),
                (
                    "went",
                    WordMatch::Related {
                        c: 1.0,
                        why: Some(WordLink::SameWord)
                    },
                    Some(3)
                ),
            ]
        );
        let json = serde_json::to_string(&alignment.a[1]).unwrap();
        assert_eq!(
            json,
            r#"{"word":"helped","kind":"related","c":1.0,"why":"synonyms, hypernym","with":1}"#
        );
    }

    #[test]
    fn json_names_the_kind_and_the_partner() {
        let mut model = TableModel::new();
        model.set_correlation("aid", "help", 0.5);
        let alignment = align(
            &["aid the"],
            &["help"],
            &RefineOptions::THESIS,
            Some(Relatedness::Correlations(&model)),
        );
        assert_eq!(
            serde_json::to_string(&alignment).expect("serialisable"),
            r#"{"a":[{"word":"aid","kind":"related","c":0.5,"with":0},{"word":"the","kind":"ignored"}],"b":[{"word":"help","kind":"related","c":0.5,"with":0}]}"#
        );
    }
}
