//! The default reference model, built from English Wikipedia and compiled into the binary so
//! simdoc works on first start without any file. It also carries WordNet 3.0's relations
//! between words and the learned pair verdict trained on them. Its provenance, licences (CC
//! BY-SA 3.0 for the Wikipedia statistics, WordNet 3.0's licence, `assets/WORDNET-LICENSE`) and
//! build commands are in `assets/reference.NOTE.md`.

use std::path::Path;
use std::sync::LazyLock;

use super::ReferenceModel;

/// How errors and `simdoc model info` name the embedded model.
pub const EMBEDDED_NAME: &str = "<built-in>/assets/reference.simdoc-model";

static BYTES: &[u8] = include_bytes!("../../assets/reference.simdoc-model");

static MODEL: LazyLock<ReferenceModel> = LazyLock::new(|| {
    // The bytes are fixed at compile time, and the test `the_embedded_model_decodes` proves they
    // decode, so this cannot fail in a tested build.
    ReferenceModel::from_bytes(BYTES, Path::new(EMBEDDED_NAME))
        .expect("the embedded reference model decodes")
});

impl ReferenceModel {
    /// The default model built into simdoc, decoded on first use (tens of milliseconds).
    pub fn embedded() -> &'static ReferenceModel {
        &MODEL
    }

    /// The file bytes of the embedded model.
    pub fn embedded_bytes() -> &'static [u8] {
        BYTES
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::Preset;
    use crate::model::wordnet::Relation;
    use crate::model::{CooccurrenceUnit, ModelParams};
    use crate::similarity::WordnetWeights;
    use crate::similarity::verdict::Verdict;

    #[test]
    fn the_embedded_model_decodes() {
        let model = ReferenceModel::from_bytes(BYTES, Path::new(EMBEDDED_NAME)).unwrap();
        assert_eq!(model.params(), &ModelParams::default());
        assert_eq!(model.params().unit, CooccurrenceUnit::Paragraph);
        assert_eq!(model.documents(), 6514);
        assert!(model.source().contains("CC BY-SA 3.0"));
        assert!(BYTES.len() <= 20 * 1024 * 1024, "{} bytes", BYTES.len());
        let (moon, lunar) = (
            model.term_id("moon").unwrap(),
            model.term_id("lunar").unwrap(),
        );
        assert!(model.correlation(moon, lunar) > 0.05);
        assert!(std::ptr::eq(
            ReferenceModel::embedded(),
            ReferenceModel::embedded()
        ));
    }

    /// The embedded model carries WordNet's relations, with its licence notice, and a verdict
    /// that this simdoc applies, at the threshold the verdict preset uses.
    #[test]
    fn the_embedded_model_has_wordnet_and_the_verdict_of_its_preset() {
        let model = ReferenceModel::embedded();
        let lexicon = model.lexicon().expect("WordNet relations");
        assert!(
            lexicon
                .source()
                .contains("Copyright 2006 by Princeton University")
        );
        let (help, aid) = (
            lexicon.lemma_id("help").unwrap(),
            lexicon.lemma_id("aid").unwrap(),
        );
        assert!(lexicon.relation(help, aid).contains(Relation::SYNONYM));
        let mut lemmas = Vec::new();
        lexicon.lemmas_of("went", &mut lemmas);
        assert!(lemmas.contains(&lexicon.lemma_id("go").unwrap()));
        let stored = model.verdict().expect("a verdict");
        assert!(stored.note.contains("MSRP train") && stored.note.contains("PAN tune"));
        let verdict = Verdict::new(stored).expect("the features of this simdoc");
        assert_eq!(verdict.threshold, Preset::VERDICT.thresholds.permission);
        assert_eq!(verdict.weights, WordnetWeights::MEASURED);
    }
}
