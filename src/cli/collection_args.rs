//! The options of `simdoc collection` and how they resolve into a detector with its parameters:
//! the collection preset (`--preset`, or the one for the question asked), the detector, each
//! parameter over the preset's value, and the fuzzy comparison's matching.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::inputs::InputArgs;
use simdoc::collection::presets::{CollectionPreset, Detector, with_matching};
use simdoc::collection::{Method, dsc, fuzzy, qsign};
use simdoc::selection::Order;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MethodName {
    /// CoDet's corpus tree (Varol et al. 2011): containment.
    Codet,
    /// DSC: every third 4-word shingle, 60% containment.
    Dsc,
    /// Full fingerprinting: every 4-word shingle, 60% containment.
    Ffp,
    /// I-Match: SHA-1 of ten high-idf words; equal fingerprints are duplicates.
    Imatch,
    /// SimHash as the CoDet paper defines it: Hamming distance below 3.
    Simhash,
    /// qSign (Kim et al. 2009): sentence reuse through signature range search.
    Qsign,
    /// Roul et al.: shingled TF-IDF SimHash and LSI; exact, textual, conceptual duplicates.
    Roul,
    /// The thesis: fuzzy-set sentence matching between every two documents, resemblance and
    /// odds ratio (with the reference model).
    Fuzzy,
}

impl MethodName {
    pub fn detector(self) -> Detector {
        match self {
            MethodName::Codet => Detector::CoDet,
            MethodName::Dsc => Detector::Dsc,
            MethodName::Ffp => Detector::Ffp,
            MethodName::Imatch => Detector::IMatch,
            MethodName::Simhash => Detector::SimHash,
            MethodName::Qsign => Detector::QSign,
            MethodName::Roul => Detector::Roul,
            MethodName::Fuzzy => Detector::Fuzzy,
        }
    }
}

/// A collection preset by name; the matching presets get a pointer to `--matching-preset`.
fn collection_preset_name(name: &str) -> Result<CollectionPreset, String> {
    CollectionPreset::named(name).ok_or_else(|| {
        let names: Vec<&str> = CollectionPreset::NAMED.iter().map(|(n, _)| *n).collect();
        let expected = names.join(", ");
        if simdoc::compare::Preset::named(name).is_some() {
            format!(
                "`{name}` is a sentence-matching preset: use --matching-preset {name} \
                 (--preset names the collection preset: {expected})"
            )
        } else {
            format!("unknown preset `{name}` (expected {expected})")
        }
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum NormaliserName {
    /// Snowball stopwords and stemming (simdoc's default).
    Refine,
    /// The CoDet paper's: stopwords removed, words cut to their first five characters.
    First5,
}

/// Where the detectors' idf comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum IdfSource {
    /// The documents being searched (simdoc's default).
    Collection,
    /// The reference model's collection (`--model`, else the embedded Wikipedia model), as
    /// CoDet's paper does (sect. 4); needs `--normaliser refine`.
    Reference,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SamplingName {
    Position,
    Hash,
}

#[derive(Debug, Args)]
pub struct CollectionArgs {
    /// Files or folders (walked recursively); Reuters .sgm and WikiExtractor files hold many
    /// documents. The order found is the stream order.
    #[arg(required_unless_present = "from")]
    pub paths: Vec<PathBuf>,
    /// Files or folders of sources: their pairs with the other documents (the submissions) are
    /// reported apart, with the source as the container, and pairs of two sources are left
    /// out. Sources come first in the stream. A file given both ways is a source.
    #[arg(long, num_args = 1.., value_name = "PATH")]
    pub sources: Vec<PathBuf>,
    /// Stream order (CoDet and qSign are streaming methods): name (as found), mtime (oldest
    /// first: news in publication order) or a FILE listing the files one a line.
    #[arg(long, value_name = "name|mtime|FILE", default_value = "name", value_parser = super::inputs::order)]
    pub order: Order,
    #[command(flatten)]
    pub inputs: InputArgs,
    /// Show a result that simdoc-spark computed on a cluster: the folder holding its Parquet
    /// tables (documents, pairs, groups, and evidence when the cluster computed it) and
    /// run.json, instead of detecting here. The evidence shown is the cluster's (simdoc-spark
    /// --evidence N); --html has no pair pages, the documents being on the cluster.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["paths", "matrix", "sources"])]
    pub from: Option<PathBuf>,
    /// Operating point of every detector, and the detector run when --method is not given.
    /// teacher: chosen on data for sources and submissions (revised reuse found, few false
    /// pairs), with the fuzzy comparison. news: chosen on data for versions of one story in a
    /// feed, with FFP. documents: every pair sharing a passage, the fuzzy comparison judged
    /// against chance with `simdoc compare`'s default matching (text held by more than 10
    /// documents left out). paper: each paper's defaults (the thesis's matching for fuzzy),
    /// with CoDet. Default: teacher when sources are marked (--sources), documents otherwise.
    /// Any option below overrides its preset value. EVALUATION.md, "Collection presets", has
    /// the values and their measurement.
    #[arg(long, value_name = "paper|teacher|news|documents", value_parser = collection_preset_name)]
    pub preset: Option<CollectionPreset>,
    /// The detector (default: the preset's). Each is described at its paper's settings (`--preset
    /// paper`).
    #[arg(long, value_enum)]
    pub method: Option<MethodName>,
    /// How words are normalised.
    #[arg(long, value_enum, default_value = "refine")]
    pub normaliser: NormaliserName,
    /// Where idf comes from: the documents searched, or the reference model's collection.
    #[arg(long, value_enum, default_value = "collection")]
    pub idf: IdfSource,
    /// Write the result as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the pairs as CSV (a, b, relation, score with document names, then the evidence:
    /// a_in_b, b_in_a, matched sentences, passages).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write a self-contained HTML report: submissions by source, the ranked pairs with their
    /// evidence, the containment matrix with names, duplicate groups; each pair with evidence
    /// gets its own report page in the folder FILE-pairs (at most 500).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Compute the evidence (the fuzzy comparison of the two documents: containment both ways
    /// and the passages) for this many of the highest-ranked pairs; 0 for none. It is in the
    /// JSON, CSV, HTML and the printed pairs.
    #[arg(long, value_name = "N", default_value_t = 500)]
    pub evidence: usize,
    /// Write the thesis's odds-ratio matrix (pairwise fuzzy comparison, Table 4.1) as a heatmap
    /// (FILE.svg, FILE.png) or a table (FILE.csv); up to 500 documents. With 30 documents or
    /// fewer it is also printed.
    #[arg(long, value_name = "FILE")]
    pub matrix: Option<PathBuf>,
    /// Print at most this many pairs (all go to --json and --csv).
    #[arg(long, default_value_t = 200)]
    pub show: usize,
    #[command(flatten)]
    pub read_limit: super::MaxBytesArg,

    /// CoDet DT: words of each sentence inserted.
    #[arg(long, help_heading = "CoDet")]
    pub depth_threshold: Option<usize>,
    /// CoDet PSC: suffixes of each sentence inserted.
    #[arg(long, help_heading = "CoDet")]
    pub processed_suffix_count: Option<usize>,
    /// CoDet ETL: containment when CS/SCS exceeds it (paper: 0.6).
    #[arg(long, help_heading = "CoDet")]
    pub etl: Option<f64>,
    /// CoDet: do not sort a sentence's words by idf (WS off).
    #[arg(long, help_heading = "CoDet")]
    pub no_word_sorting: bool,
    /// CoDet: keep only the latest N documents in the tree.
    #[arg(long, value_name = "N", help_heading = "CoDet")]
    pub time_window: Option<usize>,

    /// DSC, FFP, Roul: words per shingle (paper: 4, 4, 3).
    #[arg(long, help_heading = "DSC / FFP / Roul")]
    pub shingle_size: Option<usize>,
    /// DSC, FFP: share of the contained document's hashes (paper: 0.6).
    #[arg(long, help_heading = "DSC / FFP / Roul")]
    pub containment_threshold: Option<f64>,
    /// DSC, FFP: a shingle held by more than N documents counts as shared by none (skew; the
    /// default of simdoc-spark is 1000; here off unless given).
    #[arg(long, value_name = "N", help_heading = "DSC / FFP / Roul")]
    pub max_df: Option<u32>,
    /// DSC: keep every STEP-th shingle (paper: 3).
    #[arg(long, help_heading = "DSC / FFP / Roul")]
    pub step: Option<usize>,
    /// DSC: sample shingles by position (the CoDet paper) or by hash (Broder).
    #[arg(long, value_enum, help_heading = "DSC / FFP / Roul")]
    pub sampling: Option<SamplingName>,

    /// I-Match, SimHash: highest-idf words ignored (paper: 2).
    #[arg(long, help_heading = "I-Match / SimHash")]
    pub skipped_words: Option<usize>,
    /// I-Match: words fingerprinted (paper: 10).
    #[arg(long, help_heading = "I-Match / SimHash")]
    pub fingerprint_words: Option<usize>,
    /// SimHash: largest Hamming distance of a match (paper: 2).
    #[arg(long, help_heading = "I-Match / SimHash")]
    pub max_distance: Option<u32>,

    /// qSign m: signature bits (paper: 32).
    #[arg(long, help_heading = "qSign")]
    pub signature_bits: Option<u32>,
    /// qSign l: bits per word (paper: 2).
    #[arg(long, help_heading = "qSign")]
    pub bits_per_word: Option<u32>,
    /// qSign d: largest bit difference of a candidate (paper: 2).
    #[arg(long, help_heading = "qSign")]
    pub max_bit_difference: Option<u32>,
    /// qSign k: derive each sentence's d from this word flexibility (paper sect. 2.1.2), capped
    /// by --max-bit-difference; without it every sentence uses --max-bit-difference.
    #[arg(long, help_heading = "qSign")]
    pub word_flexibility: Option<u32>,
    /// qSign ρ_fp: acceptable false-hit rate for the derived d (0.1; needs --word-flexibility).
    #[arg(
        long,
        help_heading = "qSign",
        requires = "word_flexibility",
        value_parser = super::probability
    )]
    pub false_hit_rate: Option<f64>,
    /// qSign θ: word-overlap threshold (paper: 0.5).
    #[arg(long, help_heading = "qSign")]
    pub theta: Option<f64>,
    /// qSign: share of a document's sentences reused for containment (paper: 0.6).
    #[arg(long, help_heading = "qSign")]
    pub containment_share: Option<f64>,
    /// qSign: smallest share of reused sentences for a pair to be reported (paper: 0.25).
    #[arg(long, help_heading = "qSign")]
    pub min_reuse_share: Option<f64>,

    /// Roul th1: textual similarity (64 - Hamming) to consider a pair.
    #[arg(long, help_heading = "Roul")]
    pub th1: Option<u32>,
    /// Roul th2: textual similarity of a textual duplicate (paper: 46).
    #[arg(long, help_heading = "Roul")]
    pub th2: Option<u32>,
    /// Roul th3: textual similarity of an exact duplicate.
    #[arg(long, help_heading = "Roul")]
    pub th3: Option<u32>,
    /// Roul th4: LSI cosine of a conceptual duplicate.
    #[arg(long, help_heading = "Roul")]
    pub th4: Option<f64>,
    /// Roul: LSI dimensions (paper: 200).
    #[arg(long, help_heading = "Roul")]
    pub lsi_rank: Option<usize>,

    /// Fuzzy: sentence-matching preset (as `simdoc compare --preset`) in place of the
    /// collection preset's matching; the options below override it.
    #[arg(long, value_parser = super::preset_parser(), help_heading = "Fuzzy (and --matrix)")]
    pub matching_preset: Option<simdoc::compare::Preset>,
    #[command(flatten, next_help_heading = "Fuzzy (and --matrix)")]
    pub matching: super::MatchingValues,
    /// Fuzzy: resemblance at which a document counts as contained in another (paper: 0.9).
    #[arg(long, help_heading = "Fuzzy (and --matrix)")]
    pub containment: Option<f64>,
    /// Fuzzy: report a pair only when one document's resemblance in the other reaches this
    /// (paper: 0, every pair sharing a matched sentence).
    #[arg(long, help_heading = "Fuzzy (and --matrix)")]
    pub min_resemblance: Option<f64>,
    /// Fuzzy, judged against chance: text held by more than N documents (a sentence and those
    /// matching it) is common to the collection, a template or a set question, and left out of
    /// every pair's comparison, as MOSS leaves out passages of more than m programs; `off`
    /// leaves nothing out.
    #[arg(long, value_name = "N", help_heading = "Fuzzy (and --matrix)")]
    pub max_sharing: Option<SharingBar>,
    /// Fuzzy, judged against chance: compare at most N distinct sentences (both documents of
    /// each candidate pair, summed) to judge the candidate pairs, the strongest first; the run
    /// says how many were left unjudged (default 20,000,000: 500 articles of 100 sentences
    /// need 3.3 million).
    #[arg(long, value_name = "N", help_heading = "Fuzzy (and --matrix)")]
    pub judging_budget: Option<usize>,
    #[command(flatten, next_help_heading = "Fuzzy (and --matrix)")]
    pub model: super::ModelArg,
}

impl CollectionArgs {
    /// The preset in force: `--preset`, else the one for the question asked
    /// ([`CollectionPreset::for_question`]).
    pub fn chosen_preset(&self) -> CollectionPreset {
        self.preset
            .unwrap_or(CollectionPreset::for_question(!self.sources.is_empty()))
    }

    /// The detector run: `--method`, else the preset's.
    pub fn detector(&self) -> Detector {
        self.method
            .map_or(self.chosen_preset().params().detector, MethodName::detector)
    }

    /// The fuzzy comparison's sentence matching before the single options: `--matching-preset`
    /// if given, else the collection preset's.
    pub fn matching_preset(&self) -> simdoc::compare::Preset {
        self.matching_preset
            .unwrap_or(self.chosen_preset().matching())
    }

    /// The evidence's matching in words, with the command that shows a pair the same way:
    /// "the teacher preset's matching (fuzzy-set IR, permission 0.6, variation off; `simdoc
    /// compare --preset teacher` shows a pair with these figures)".
    pub fn matching_in_words(&self) -> anyhow::Result<String> {
        let base = self.matching_preset();
        let matching = self.matching.over(base)?;
        let name = match self.matching_preset {
            Some(preset) => preset.name().map(str::to_string),
            None => Some(self.chosen_preset().name().to_string()),
        };
        // The chance bar only where the matching judges against chance (the bar stays in the
        // thresholds of a preset whose judging `--judge-chance false` turned off).
        let mut shown = matching.thresholds;
        if matching.chance_search.is_none() {
            shown.max_e_value = None;
        }
        let mut thresholds = simdoc::render::report::thresholds_in_words(&shown);
        if matching.chance_search.is_some() && self.detector() == Detector::Fuzzy {
            thresholds.push_str(
                ", a pair reported when its comparison finds such a passage (the pairs sharing \
                 an EQ sentence are its candidates)",
            );
        }
        // The preset's cut on the pair's larger share, which a pair with evidence can miss
        // (the news preset reports versions of one story, at least 90% of one in the other).
        let cut = self.fuzzy_params()?.min_resemblance;
        if cut > 0.0 && self.detector() == Detector::Fuzzy {
            thresholds.push_str(&format!(
                ", and only when {} or more of one document is found in the other \
                 (--min-resemblance)",
                simdoc::render::percent(cut)
            ));
        }
        let exclusions = self.matching.exclusions();
        // What is left out, and where: exclusions from the ranking and the evidence alike, the
        // shortest match from the evidence only (the screening counts sentence by sentence).
        let mut left_out = String::new();
        if let Some(what) = exclusions.describe() {
            left_out.push_str(&format!("; {what} left out"));
        }
        if matching.thresholds.min_words > 0 {
            left_out.push_str(
                "; the ranking's scores count matches of every length, the shares and passages \
                 only the runs long enough",
            );
        }
        let matching_unchanged = matching == base && !exclusions.any();
        Ok(match name {
            Some(name) if matching_unchanged => format!(
                "the {name} preset's matching (fuzzy-set IR, {thresholds}; `simdoc compare \
                 --preset {name}` and `simdoc sources --preset {name}` show a pair with these \
                 figures)"
            ),
            Some(name) => format!(
                "the {name} preset's matching with options over it (fuzzy-set IR, \
                 {thresholds}{left_out})"
            ),
            None => format!("a custom matching (fuzzy-set IR, {thresholds}{left_out})"),
        })
    }

    /// The fuzzy comparison's parameters: the preset's, its matching replaced by
    /// [`Self::matching_preset`] with the options given over it; an error for thresholds
    /// outside [0, 1].
    pub fn fuzzy_params(&self) -> anyhow::Result<fuzzy::FuzzyParams> {
        let matching = self.matching.over(self.matching_preset())?;
        let mut p = with_matching(self.chosen_preset().params().fuzzy, matching);
        set(&mut p.containment, self.containment);
        set(&mut p.min_resemblance, self.min_resemblance);
        p.exclusions = self.matching.exclusions();
        if let Some(SharingBar(bar)) = self.max_sharing {
            if p.chance_search.is_none() {
                super::usage!(
                    "--max-sharing changes nothing here: common text is left out of pairs judged \
                     against chance, and this matching counts EQ sentences (--judge-chance true \
                     judges them)"
                );
            }
            p.max_sharing = bar;
        }
        if let Some(budget) = self.judging_budget {
            if p.chance_search.is_none() {
                super::usage!(
                    "--judging-budget changes nothing here: it bounds the comparisons that judge \
                     pairs against chance, and this matching counts EQ sentences \
                     (--judge-chance true judges them)"
                );
            }
            p.judging_budget = budget;
        }
        Ok(p)
    }

    /// The detector with the preset's parameters, overridden by the options given; `None` for
    /// the fuzzy method, which works on the documents themselves.
    pub fn method(&self) -> Option<Method> {
        let preset = self.chosen_preset().params();
        let method = preset.method(self.detector())?;
        Some(match method {
            Method::CoDet(mut p) => {
                set(&mut p.depth_threshold, self.depth_threshold);
                set(&mut p.processed_suffix_count, self.processed_suffix_count);
                set(&mut p.equivalency_threshold, self.etl);
                if self.no_word_sorting {
                    p.word_sorting = false;
                }
                if self.time_window.is_some() {
                    p.time_window = self.time_window;
                }
                Method::CoDet(p)
            }
            Method::Dsc(mut p) => {
                set(&mut p.shingle_size, self.shingle_size);
                set(&mut p.containment_threshold, self.containment_threshold);
                set(&mut p.step, self.step);
                if self.max_df.is_some() {
                    p.max_df = self.max_df;
                }
                if let Some(s) = self.sampling {
                    p.sampling = match s {
                        SamplingName::Position => dsc::Sampling::Position,
                        SamplingName::Hash => dsc::Sampling::Hash,
                    };
                }
                Method::Dsc(p)
            }
            Method::Ffp(mut p) => {
                set(&mut p.shingle_size, self.shingle_size);
                set(&mut p.containment_threshold, self.containment_threshold);
                if self.max_df.is_some() {
                    p.max_df = self.max_df;
                }
                Method::Ffp(p)
            }
            Method::IMatch(mut p) => {
                set(&mut p.skipped_words, self.skipped_words);
                set(&mut p.fingerprint_words, self.fingerprint_words);
                Method::IMatch(p)
            }
            Method::SimHash(mut p) => {
                set(&mut p.skipped_words, self.skipped_words);
                set(&mut p.max_distance, self.max_distance);
                Method::SimHash(p)
            }
            Method::QSign(mut p) => {
                set(&mut p.signature_bits, self.signature_bits);
                set(&mut p.bits_per_word, self.bits_per_word);
                set(&mut p.max_bit_difference, self.max_bit_difference);
                if let Some(k) = self.word_flexibility {
                    p.adaptive = Some(qsign::AdaptiveRange {
                        word_flexibility: k,
                        false_hit_rate: self.false_hit_rate.unwrap_or(0.1),
                    });
                }
                set(&mut p.overlap_threshold, self.theta);
                set(&mut p.containment_share, self.containment_share);
                set(&mut p.min_reuse_share, self.min_reuse_share);
                Method::QSign(p)
            }
            Method::Roul(mut p) => {
                set(&mut p.shingle_size, self.shingle_size);
                set(&mut p.th1, self.th1);
                set(&mut p.th2, self.th2);
                set(&mut p.th3, self.th3);
                set(&mut p.th4, self.th4);
                set(&mut p.lsi_rank, self.lsi_rank);
                Method::Roul(p)
            }
        })
    }
}

fn set<T: Copy>(field: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *field = v;
    }
}

#[cfg(test)]
mod tests;

/// How many documents may hold a text before it is common: a count of at least 2, or `off`
/// (`None`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SharingBar(pub Option<usize>);

impl std::str::FromStr for SharingBar {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text == "off" {
            return Ok(SharingBar(None));
        }
        match text.trim().parse::<usize>() {
            // Two documents sharing a text is what a collection run looks for.
            Ok(n) if n >= 2 => Ok(SharingBar(Some(n))),
            Ok(n) => Err(format!(
                "{n} would leave out text shared by two documents, the reuse looked for: give 2 or more, or `off`"
            )),
            Err(e) => Err(format!("`{text}` is not a count or `off`: {e}")),
        }
    }
}
