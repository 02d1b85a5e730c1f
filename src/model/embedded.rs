//! The default reference model, built from English Wikipedia and compiled into the binary so
//! simdoc works on first start without any file. Its provenance, licence (CC BY-SA 3.0) and build
//! command are in `assets/reference.NOTE.md`.

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
    use crate::model::{CooccurrenceUnit, ModelParams};

    #[test]
    fn the_embedded_model_decodes() {
        let model = ReferenceModel::from_bytes(BYTES, Path::new(EMBEDDED_NAME)).unwrap();
        assert_eq!(model.params(), &ModelParams::default());
        assert_eq!(model.params().unit, CooccurrenceUnit::Paragraph);
        assert_eq!(model.documents(), 6514);
        assert!(model.source().contains("CC BY-SA 3.0"));
        assert!(BYTES.len() <= 12 * 1024 * 1024, "{} bytes", BYTES.len());
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
}
