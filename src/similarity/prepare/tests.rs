//! Preparing repeated texts: copies of the first one's sentence, as refining again gives.

use super::*;
use crate::model::ReferenceModel;

/// Each text prepared alone, in order, with one vocabulary: what a call that refines every
/// text again gives.
fn one_by_one(texts: &[&str], model: &dyn ModelView) -> Vec<PreparedSentence> {
    let mut vocabulary = Vocabulary::new(model);
    texts
        .iter()
        .flat_map(|t| {
            vocabulary
                .prepare_texts_with(&[t], model, &RefineOptions::MEASURED)
                .sentences
        })
        .collect()
}

#[test]
fn a_repeated_text_is_prepared_as_if_refined_again() {
    let model = ReferenceModel::embedded();
    let texts = [
        "Reply to this comment.",
        "The harbour froze early that winter.",
        "Reply to this comment.",
        "Twelve boats, 12 nets and 12 men stayed in.",
        "The harbour froze early that winter.",
        "Reply to this comment.",
    ];
    let mut vocabulary = Vocabulary::new(model);
    let at_once = vocabulary.prepare_texts_with(&texts, model, &RefineOptions::MEASURED);
    assert_eq!(at_once.sentences, one_by_one(&texts, model));
    let mut refining = Vocabulary::new(model).refining_every_text();
    let refined = refining.prepare_texts_with(&texts, model, &RefineOptions::MEASURED);
    assert_eq!(at_once.sentences, refined.sentences);
    assert_eq!(at_once.sentences[0], at_once.sentences[2]);
    assert_ne!(at_once.sentences[0], at_once.sentences[1]);
}

#[test]
fn repeats_across_refining_chunks_are_prepared_as_if_refined_again() {
    let model = ReferenceModel::embedded();
    // Seven texts repeated past the end of the first chunk, and new ones in the second.
    let owned: Vec<String> = (0..REFINE_CHUNK + 20)
        .map(|i| match i {
            i if i < REFINE_CHUNK + 10 => format!("Line {} of the quarterly report.", i % 7),
            i => format!("A new remark about harbour number {i}."),
        })
        .collect();
    let texts: Vec<&str> = owned.iter().map(String::as_str).collect();
    let mut vocabulary = Vocabulary::new(model);
    let at_once = vocabulary.prepare_texts_with(&texts, model, &RefineOptions::MEASURED);
    assert_eq!(at_once.sentences, one_by_one(&texts, model));
}
