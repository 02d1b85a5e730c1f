//! A learned pair verdict as a model stores it: the weights of a logistic regression over
//! named pair features, with the data and command that made them. What the features are and how
//! the probability is computed is [`crate::similarity::verdict`]; this is the stored data and its
//! part of the model file (format version 3):
//!
//! 1. note: string (the training data and the command that made it);
//! 2. the WordNet weights its relatedness features were computed with: synonym, derived form,
//!    hypernym, each f64 LE;
//! 3. intercept, f64 LE; the recommended decision threshold, f64 LE;
//! 4. features: their count, then each as its name (string), its weight, its mean and its
//!    standard deviation on the training data (f64 LE each; the weight applies to the
//!    standardised feature `(x - mean) / sd`).
//!
//! Since format version 5 a verdict may carry the term counts its TF-KLD features read
//! ([`StoredTerms`], [`crate::similarity::verdict::kld`]), in a section of the file of their own
//! after the sentence rates (so the sections before it read as in version 4):
//!
//! 1. the prior strength, f64 LE;
//! 2. the counts summed over all terms: four varints (pairs of the same meaning holding the
//!    term in either sentence, in both; the same for the other pairs);
//! 3. the terms: their count, then each as its name (string; names strictly increasing) and
//!    its four counts as varints.

use super::codec::{Reader, Writer};

/// One feature of a stored verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredFeature {
    pub name: String,
    pub weight: f64,
    pub mean: f64,
    pub sd: f64,
}

/// A trained pair verdict (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct StoredVerdict {
    pub note: String,
    /// Synonym, derived form and hypernym weights of the relatedness features.
    pub wordnet_weights: [f64; 3],
    pub intercept: f64,
    /// The probability at or above which the training command recommends calling a pair the
    /// same.
    pub threshold: f64,
    pub features: Vec<StoredFeature>,
    /// The term counts of the TF-KLD features (format version 5; `None` in older files).
    pub terms: Option<StoredTerms>,
}

/// One term's counts over the training pairs: pairs of the same meaning that hold it in either
/// sentence and in both, and the same for the other pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoredTermCounts {
    pub same_either: u32,
    pub same_both: u32,
    pub different_either: u32,
    pub different_both: u32,
}

/// What the TF-KLD features learnt from the training pairs: each term's counts (refined terms,
/// not text), their sums and the smoothing's prior strength.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredTerms {
    pub strength: f64,
    pub totals: StoredTermCounts,
    /// Sorted by name, names distinct.
    pub terms: Vec<(String, StoredTermCounts)>,
}

impl StoredTermCounts {
    fn encode(&self, w: &mut Writer) {
        for x in [
            self.same_either,
            self.same_both,
            self.different_either,
            self.different_both,
        ] {
            w.varint(u64::from(x));
        }
    }

    fn decode(r: &mut Reader<'_>) -> Result<StoredTermCounts, String> {
        let counts = StoredTermCounts {
            same_either: r.varint_u32("a term count")?,
            same_both: r.varint_u32("a term count")?,
            different_either: r.varint_u32("a term count")?,
            different_both: r.varint_u32("a term count")?,
        };
        if counts.same_both > counts.same_either || counts.different_both > counts.different_either
        {
            return Err("a verdict term is counted in both sentences more than in either".into());
        }
        Ok(counts)
    }
}

impl StoredTerms {
    pub(crate) fn encode(&self, w: &mut Writer) {
        w.f64(self.strength);
        self.totals.encode(w);
        w.varint(self.terms.len() as u64);
        for (name, counts) in &self.terms {
            w.string(name);
            counts.encode(w);
        }
    }

    pub(crate) fn decode(r: &mut Reader<'_>) -> Result<StoredTerms, String> {
        let strength = r.f64()?;
        let totals = StoredTermCounts::decode(r)?;
        let count = r.count("verdict terms", 5)?;
        let mut terms: Vec<(String, StoredTermCounts)> = Vec::with_capacity(count);
        for _ in 0..count {
            let name = r.string("a verdict term")?.to_string();
            if terms.last().is_some_and(|(last, _)| *last >= name) {
                return Err("the verdict's terms are not strictly increasing".into());
            }
            terms.push((name, StoredTermCounts::decode(r)?));
        }
        let stored = StoredTerms {
            strength,
            totals,
            terms,
        };
        stored.validate()?;
        Ok(stored)
    }

    /// A finite, non-negative prior strength.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.strength.is_finite() && self.strength >= 0.0) {
            return Err("the verdict terms' prior strength is not a number >= 0".into());
        }
        Ok(())
    }
}

impl StoredVerdict {
    pub(crate) fn encode(&self, w: &mut Writer) {
        w.string(&self.note);
        for x in self.wordnet_weights {
            w.f64(x);
        }
        w.f64(self.intercept);
        w.f64(self.threshold);
        w.varint(self.features.len() as u64);
        for f in &self.features {
            w.string(&f.name);
            w.f64(f.weight);
            w.f64(f.mean);
            w.f64(f.sd);
        }
    }

    pub(crate) fn decode(r: &mut Reader<'_>) -> Result<StoredVerdict, String> {
        let note = r.string("the verdict's note")?.to_string();
        let wordnet_weights = [r.f64()?, r.f64()?, r.f64()?];
        let intercept = r.f64()?;
        let threshold = r.f64()?;
        let count = r.count("verdict features", 25)?;
        let mut features = Vec::with_capacity(count);
        for _ in 0..count {
            features.push(StoredFeature {
                name: r.string("a verdict feature's name")?.to_string(),
                weight: r.f64()?,
                mean: r.f64()?,
                sd: r.f64()?,
            });
        }
        let verdict = StoredVerdict {
            note,
            wordnet_weights,
            intercept,
            threshold,
            features,
            terms: None,
        };
        verdict.validate()?;
        Ok(verdict)
    }

    /// Every number finite, weights of relatedness in [0, 1], standard deviations positive,
    /// the threshold a probability.
    pub fn validate(&self) -> Result<(), String> {
        if !self.wordnet_weights.iter().all(|w| (0.0..=1.0).contains(w)) {
            return Err("the verdict's WordNet weights are not in [0, 1]".to_string());
        }
        if !self.intercept.is_finite() || !(0.0..=1.0).contains(&self.threshold) {
            return Err("the verdict's intercept or threshold is not a number in range".into());
        }
        for f in &self.features {
            if !(f.weight.is_finite() && f.mean.is_finite() && f.sd.is_finite() && f.sd > 0.0) {
                return Err(format!("the verdict feature {:?} is not finite", f.name));
            }
        }
        if let Some(terms) = &self.terms {
            terms.validate()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_round_trips_and_nonsense_is_refused() {
        let verdict = StoredVerdict {
            note: "trained on x".into(),
            wordnet_weights: [1.0, 0.8, 0.5],
            intercept: -1.5,
            threshold: 0.5,
            features: vec![StoredFeature {
                name: "a".into(),
                weight: 2.0,
                mean: 0.3,
                sd: 0.1,
            }],
            terms: None,
        };
        let mut w = Writer::default();
        verdict.encode(&mut w);
        let mut r = Reader::new(&w.out);
        assert_eq!(StoredVerdict::decode(&mut r).unwrap(), verdict);
        assert!(r.is_at_end());
        let counts = StoredTermCounts {
            same_either: 3,
            same_both: 2,
            different_either: 5,
            different_both: 0,
        };
        let terms = StoredTerms {
            strength: 2.0,
            totals: counts,
            terms: vec![("a".into(), counts), ("b".into(), counts)],
        };
        let mut w = Writer::default();
        terms.encode(&mut w);
        let mut r = Reader::new(&w.out);
        assert_eq!(StoredTerms::decode(&mut r).unwrap(), terms);
        assert!(r.is_at_end());
        let unsorted = StoredTerms {
            terms: vec![("b".into(), counts), ("a".into(), counts)],
            ..terms.clone()
        };
        let mut w = Writer::default();
        unsorted.encode(&mut w);
        assert!(StoredTerms::decode(&mut Reader::new(&w.out)).is_err());
        let impossible = StoredTerms {
            totals: StoredTermCounts {
                same_both: 4,
                ..counts
            },
            ..terms
        };
        let mut w = Writer::default();
        impossible.encode(&mut w);
        assert!(StoredTerms::decode(&mut Reader::new(&w.out)).is_err());
        let bad = StoredVerdict {
            threshold: 1.5,
            ..verdict.clone()
        };
        assert!(bad.validate().is_err());
        let mut bad = verdict;
        bad.features[0].sd = 0.0;
        assert!(bad.validate().is_err());
    }
}
