//! No option is accepted that changes nothing: a collection detector's option when another
//! detector runs, a matching option when no fuzzy comparison is made, a chance search's option
//! in a matching that does not judge against chance, word relatedness or the learned verdict
//! with a method other than fuzzy, a threshold with the fourgram or exact method. Each is
//! refused as a usage error (exit 2) that says why and what would make it count.

use super::MatchingValues;
use super::collection_args::{CollectionArgs, IdfSource, NormaliserName};
use simdoc::collection::presets::Detector;
use simdoc::similarity::Method;

impl CollectionArgs {
    /// The detectors' options given on the command line, each with the detectors that read it
    /// ([`Self::method`]): the table [`Self::check_options_apply`] refuses by.
    fn detector_options_given(&self) -> Vec<(&'static str, &'static [Detector])> {
        use Detector::{CoDet, Dsc, Ffp, IMatch, QSign, Roul, SimHash};
        let given = [
            (
                "--depth-threshold",
                self.depth_threshold.is_some(),
                &[CoDet][..],
            ),
            (
                "--processed-suffix-count",
                self.processed_suffix_count.is_some(),
                &[CoDet],
            ),
            ("--etl", self.etl.is_some(), &[CoDet]),
            ("--no-word-sorting", self.no_word_sorting, &[CoDet]),
            ("--time-window", self.time_window.is_some(), &[CoDet]),
            (
                "--shingle-size",
                self.shingle_size.is_some(),
                &[Dsc, Ffp, Roul],
            ),
            (
                "--containment-threshold",
                self.containment_threshold.is_some(),
                &[Dsc, Ffp],
            ),
            ("--max-df", self.max_df.is_some(), &[Dsc, Ffp]),
            ("--step", self.step.is_some(), &[Dsc]),
            ("--sampling", self.sampling.is_some(), &[Dsc]),
            (
                "--skipped-words",
                self.skipped_words.is_some(),
                &[IMatch, SimHash],
            ),
            (
                "--fingerprint-words",
                self.fingerprint_words.is_some(),
                &[IMatch],
            ),
            ("--max-distance", self.max_distance.is_some(), &[SimHash]),
            ("--signature-bits", self.signature_bits.is_some(), &[QSign]),
            ("--bits-per-word", self.bits_per_word.is_some(), &[QSign]),
            (
                "--max-bit-difference",
                self.max_bit_difference.is_some(),
                &[QSign],
            ),
            (
                "--word-flexibility",
                self.word_flexibility.is_some(),
                &[QSign],
            ),
            ("--false-hit-rate", self.false_hit_rate.is_some(), &[QSign]),
            ("--theta", self.theta.is_some(), &[QSign]),
            (
                "--containment-share",
                self.containment_share.is_some(),
                &[QSign],
            ),
            (
                "--min-reuse-share",
                self.min_reuse_share.is_some(),
                &[QSign],
            ),
            ("--th1", self.th1.is_some(), &[Roul]),
            ("--th2", self.th2.is_some(), &[Roul]),
            ("--th3", self.th3.is_some(), &[Roul]),
            ("--th4", self.th4.is_some(), &[Roul]),
            ("--lsi-rank", self.lsi_rank.is_some(), &[Roul]),
            (
                "--containment",
                self.containment.is_some(),
                &[Detector::Fuzzy],
            ),
            (
                "--min-resemblance",
                self.min_resemblance.is_some(),
                &[Detector::Fuzzy],
            ),
            (
                "--max-sharing",
                self.max_sharing.is_some(),
                &[Detector::Fuzzy],
            ),
            (
                "--judging-budget",
                self.judging_budget.is_some(),
                &[Detector::Fuzzy],
            ),
            (
                "--normaliser",
                self.normaliser != NormaliserName::Refine,
                &[CoDet, Dsc, Ffp, IMatch, SimHash, QSign, Roul],
            ),
            (
                "--idf",
                self.idf != IdfSource::Collection,
                &[CoDet, IMatch, SimHash, QSign, Roul],
            ),
        ];
        given
            .into_iter()
            .filter(|(_, given, _)| *given)
            .map(|(flag, _, detectors)| (flag, detectors))
            .collect()
    }

    /// Refuses an option that would change nothing in this run: a detector's option when
    /// another detector runs, a fuzzy matching option when no fuzzy comparison is made (neither
    /// the fuzzy detector, nor evidence, nor the matrix). The matching's own options (the chance
    /// search's, for one) are checked where the matching is built ([`super::MatchingValues::over`]).
    pub fn check_options_apply(&self) -> anyhow::Result<()> {
        let detector = self.detector();
        for (flag, detectors) in self.detector_options_given() {
            if !detectors.contains(&detector) {
                let names: Vec<&str> = detectors.iter().map(|d| d.name()).collect();
                super::usage!(
                    "{flag} is an option of {} and changes nothing here: the detector run is {} \
                     (--method {} runs {})",
                    names.join(", "),
                    detector.name(),
                    names[0],
                    names[0]
                );
            }
        }
        let fuzzy_matching_made =
            detector == Detector::Fuzzy || self.evidence > 0 || self.matrix.is_some();
        if !fuzzy_matching_made && (self.matching_preset.is_some() || self.matching.any_given()) {
            super::usage!(
                "the fuzzy matching's options change nothing here: the detector run is {}, with \
                 --evidence 0 and no --matrix (the fuzzy comparison runs for neither)",
                detector.name()
            );
        }
        Ok(())
    }
}

impl MatchingValues {
    /// Refuses the matching options `method` does not read: word relatedness and the learned
    /// verdict belong to the fuzzy method (overlap is its Sims without relatedness); the
    /// thresholds and the search judged against chance to the graded methods (fuzzy and overlap:
    /// the fourgram and exact matchers' pairs are the same or not, their Sims 1).
    pub(super) fn check_method(&self, method: Method) -> anyhow::Result<()> {
        let relatedness = [
            ("--relate", self.relate.is_some()),
            ("--related-words", self.related_words.is_some()),
            ("--wordnet-weights", self.wordnet_weights.is_some()),
            ("--verdict", self.verdict.is_some()),
        ];
        if method != Method::Fuzzy
            && let Some((flag, _)) = relatedness.iter().find(|(_, given)| *given)
        {
            super::usage!(
                "{flag} is an option of the fuzzy method (its word relatedness and learned \
                 verdict) and changes nothing with --method {}",
                method.name()
            );
        }
        let mut graded = vec![
            ("--permission", self.permission.is_some()),
            ("--variation", self.variation.is_some()),
            ("--judge-chance", self.judge_chance.is_some()),
        ];
        graded.extend(self.chance_options_given().into_iter().map(|f| (f, true)));
        if !method.is_graded()
            && let Some((flag, _)) = graded.iter().find(|(_, given)| *given)
        {
            super::usage!(
                "{flag} changes nothing with --method {}: its sentence pairs are the same or not \
                 (both Sims 1), with no threshold to pass and nothing judged against chance",
                method.name()
            );
        }
        Ok(())
    }

    /// The options of the search judged against chance given on the command line: they
    /// change nothing in a matching that does not judge.
    pub(super) fn chance_options_given(&self) -> Vec<&'static str> {
        [
            ("--max-e-value", self.max_e_value.is_some()),
            ("--link-bar", self.link_bar.is_some()),
            ("--seed-link-bar", self.seed_link_bar.is_some()),
            ("--reach", self.reach.is_some()),
            ("--seeds-per-sentence", self.seeds_per_sentence.is_some()),
            ("--prior-sentences", self.prior_sentences.is_some()),
            ("--bridge-identical", self.bridge_identical.is_some()),
            (
                "--cooccurrence-discount",
                self.cooccurrence_discount.is_some(),
            ),
            ("--discount-list-cap", self.discount_list_cap.is_some()),
            ("--discount-bar", self.discount_bar.is_some()),
            ("--related-evidence", self.related_evidence.is_some()),
            ("--related-discount", self.related_discount.is_some()),
        ]
        .into_iter()
        .filter_map(|(flag, given)| given.then_some(flag))
        .collect()
    }

    /// Whether any matching option was given (`collection` refuses them when no fuzzy
    /// comparison is made).
    pub fn any_given(&self) -> bool {
        self.permission.is_some()
            || self.variation.is_some()
            || self.keep_stopwords.is_some()
            || self.keep_numbers.is_some()
            || self.min_terms.is_some()
            || self.content_floor.is_some()
            || self.relate.is_some()
            || self.related_words.is_some()
            || self.wordnet_weights.is_some()
            || self.verdict.is_some()
            || self.count_fragments
            || self.one_to_two.is_some()
            || self.partners.is_some()
            || self.judge_chance.is_some()
            || self.exclude_quotations
            || self.exclude_bibliography
            || self.min_words.is_some()
            || !self.chance_options_given().is_empty()
    }
}

#[cfg(test)]
mod tests;
