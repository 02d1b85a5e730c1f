//! The detector and its parameters as the Python driver passes them (JSON), turned into the
//! library's parameter types so that executors and `simdoc collection` run the same settings.

use serde::{Deserialize, Serialize};
use simdoc::collection::presets::{CollectionPreset, Detector};
use simdoc::collection::{Normaliser, codet, dsc, ffp, imatch, simhash};
use simdoc::document::LoadOptions;

/// The detectors that run on Spark.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
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
#[derive(Clone, Debug, Deserialize, Serialize)]
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

impl MethodName {
    /// The detector on Spark that runs `detector`, if it runs there.
    fn of(detector: Detector) -> Option<MethodName> {
        Some(match detector {
            Detector::CoDet => MethodName::Codet,
            Detector::IMatch => MethodName::Imatch,
            Detector::SimHash => MethodName::Simhash,
            Detector::Ffp => MethodName::Ffp,
            Detector::Dsc => MethodName::Dsc,
            Detector::QSign | Detector::Roul | Detector::Fuzzy => return None,
        })
    }
}

impl Options {
    /// Every option as the collection preset `name` sets it for `method` (by default the
    /// preset's own detector), exactly as `simdoc collection --preset NAME --method METHOD`
    /// runs it. Options that two detectors share (shingle size and containment threshold for
    /// FFP and DSC, skipped words for I-Match and SimHash) take the chosen detector's value.
    /// An error names a preset whose detector does not run on Spark (the teacher preset's
    /// fuzzy comparison) when no method is given.
    pub fn of_preset(name: &str, method: Option<MethodName>) -> Result<Options, String> {
        let preset = CollectionPreset::named(name).ok_or_else(|| {
            let names: Vec<&str> = CollectionPreset::NAMED.iter().map(|(n, _)| *n).collect();
            format!("unknown preset {name:?} ({})", names.join(", "))
        })?;
        let params = preset.params();
        let method = match method {
            Some(method) => method,
            None => MethodName::of(params.detector).ok_or_else(|| {
                format!(
                    "the {name} preset's detector ({}) does not run on Spark: run `simdoc \
                     collection --preset {name}` on one machine, or name a method",
                    params.detector.name()
                )
            })?,
        };
        let (shingle_size, containment_threshold) = match method {
            MethodName::Dsc => (params.dsc.shingle_size, params.dsc.containment_threshold),
            _ => (params.ffp.shingle_size, params.ffp.containment_threshold),
        };
        let skipped_words = match method {
            MethodName::Simhash => params.simhash.skipped_words,
            _ => params.imatch.skipped_words,
        };
        Ok(Options {
            method,
            shingle_size,
            containment_threshold,
            step: params.dsc.step,
            sampling: match params.dsc.sampling {
                dsc::Sampling::Position => "position".into(),
                dsc::Sampling::Hash => "hash".into(),
            },
            skipped_words,
            fingerprint_words: params.imatch.fingerprint_words,
            max_distance: params.simhash.max_distance,
            depth_threshold: params.codet.depth_threshold,
            processed_suffix_count: params.codet.processed_suffix_count,
            etl: params.codet.equivalency_threshold,
            word_sorting: params.codet.word_sorting,
            ..Options::default()
        })
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preset_sets_its_detectors_parameters() {
        let news = CollectionPreset::News.params();
        let options = Options::of_preset("news", None).expect("news runs on Spark");
        assert_eq!(MethodName::of(news.detector), Some(options.method));
        assert_eq!(options.shingle_size, news.ffp.shingle_size);
        assert_eq!(
            options.containment_threshold,
            news.ffp.containment_threshold
        );
        let dsc = Options::of_preset("news", Some(MethodName::Dsc)).expect("dsc");
        assert_eq!(dsc.shingle_size, news.dsc.shingle_size);
        assert_eq!(dsc.step, news.dsc.step);
        // The paper preset is the library's defaults, which the options default to.
        let paper = Options::of_preset("paper", Some(MethodName::Ffp)).expect("paper");
        let defaults = Options::default();
        assert_eq!(paper.shingle_size, defaults.shingle_size);
        assert_eq!(paper.etl, defaults.etl);
    }

    #[test]
    fn a_preset_whose_detector_is_not_on_spark_needs_a_method() {
        let error = Options::of_preset("teacher", None).expect_err("fuzzy is not on Spark");
        assert!(error.contains("does not run on Spark"), "{error}");
        assert!(Options::of_preset("teacher", Some(MethodName::Ffp)).is_ok());
        assert!(Options::of_preset("thesis", None).is_err());
    }
}
