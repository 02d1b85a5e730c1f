//! The detector and its parameters as the Python driver passes them (JSON), turned into the
//! library's parameter types so that executors and `simdoc collection` run the same settings.

use serde::Deserialize;
use simdoc::collection::{Normaliser, codet, dsc, ffp, imatch, simhash};
use simdoc::document::LoadOptions;

/// The detectors that run on Spark.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum MethodName {
    Codet,
    Imatch,
    Simhash,
    Ffp,
    Dsc,
}

/// Every option of every detector on Spark; each method reads its own. Missing fields take the
/// library's defaults (the papers' values).
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    pub method: MethodName,
    /// "refine" (simdoc's default) or "first5" (the CoDet paper's).
    pub normaliser: String,
    pub max_bytes: u64,
    pub shingle_size: usize,
    pub containment_threshold: f64,
    pub step: usize,
    /// "position" or "hash".
    pub sampling: String,
    pub skipped_words: usize,
    pub fingerprint_words: usize,
    pub max_distance: u32,
    pub depth_threshold: usize,
    pub processed_suffix_count: usize,
    pub etl: f64,
    pub word_sorting: bool,
}

impl Default for Options {
    fn default() -> Self {
        let ffp = ffp::FfpParams::default();
        let dsc = dsc::DscParams::default();
        let imatch = imatch::IMatchParams::default();
        let simhash = simhash::SimHashParams::default();
        let codet = codet::CoDetParams::default();
        Options {
            method: MethodName::Ffp,
            normaliser: "refine".into(),
            max_bytes: LoadOptions::default().max_bytes,
            shingle_size: ffp.shingle_size,
            containment_threshold: ffp.containment_threshold,
            step: dsc.step,
            sampling: "position".into(),
            skipped_words: imatch.skipped_words,
            fingerprint_words: imatch.fingerprint_words,
            max_distance: simhash.max_distance,
            depth_threshold: codet.depth_threshold,
            processed_suffix_count: codet.processed_suffix_count,
            etl: codet.equivalency_threshold,
            word_sorting: codet.word_sorting,
        }
    }
}

impl Options {
    pub fn parse(json: &str) -> Result<Self, String> {
        let options: Options =
            serde_json::from_str(json).map_err(|e| format!("bad options: {e}"))?;
        options.normaliser()?;
        options.sampling()?;
        Ok(options)
    }

    pub fn normaliser(&self) -> Result<Normaliser, String> {
        match self.normaliser.as_str() {
            "refine" => Ok(Normaliser::Refine),
            "first5" => Ok(Normaliser::StopwordsFirst5),
            other => Err(format!("unknown normaliser {other:?} (refine, first5)")),
        }
    }

    pub fn sampling(&self) -> Result<dsc::Sampling, String> {
        match self.sampling.as_str() {
            "position" => Ok(dsc::Sampling::Position),
            "hash" => Ok(dsc::Sampling::Hash),
            other => Err(format!("unknown sampling {other:?} (position, hash)")),
        }
    }

    pub fn imatch(&self) -> imatch::IMatchParams {
        imatch::IMatchParams {
            skipped_words: self.skipped_words,
            fingerprint_words: self.fingerprint_words,
        }
    }

    /// CoDet's parameters; the time window is applied by the driver (pairs fewer than the
    /// window apart in the stream), so none here.
    pub fn codet(&self) -> codet::CoDetParams {
        codet::CoDetParams {
            depth_threshold: self.depth_threshold,
            processed_suffix_count: self.processed_suffix_count,
            equivalency_threshold: self.etl,
            word_sorting: self.word_sorting,
            time_window: None,
        }
    }

    pub fn simhash(&self) -> simhash::SimHashParams {
        simhash::SimHashParams {
            skipped_words: self.skipped_words,
            max_distance: self.max_distance,
        }
    }
}
