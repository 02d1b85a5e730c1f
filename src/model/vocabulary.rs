//! The model's vocabulary: refined terms, sorted, as one string blob with offsets.
//!
//! A [`super::TermId`] is the index of a term in byte-wise sorted order, so looking a term up is a
//! binary search and needs no hash table to be built when a model is loaded. All terms live in one
//! `String` (no allocation per term).

use super::TermId;

/// Sorted, distinct refined terms.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vocabulary {
    /// All terms concatenated in id order.
    blob: String,
    /// `offsets[id]..offsets[id + 1]` is term `id` in `blob`; `offsets.len() == len() + 1`.
    offsets: Vec<u32>,
}

/// Why a list of terms cannot be a vocabulary.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VocabularyError {
    #[error("terms are not strictly increasing at term {index}")]
    NotSorted { index: usize },
    #[error("the terms need more than 4 GiB of text")]
    TooLarge,
}

impl Vocabulary {
    /// A vocabulary from terms that are already strictly increasing (byte-wise).
    pub fn from_sorted<S: AsRef<str>>(terms: &[S]) -> Result<Self, VocabularyError> {
        let mut builder = VocabularyBuilder::with_capacity(terms.len());
        for term in terms {
            builder.push(term.as_ref())?;
        }
        Ok(builder.finish())
    }

    /// Number of terms.
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The term with id `id`. Panics if `id >= len()`, like slice indexing: ids come from this
    /// vocabulary.
    pub fn term(&self, id: TermId) -> &str {
        let id = id as usize;
        &self.blob[self.offsets[id] as usize..self.offsets[id + 1] as usize]
    }

    /// The id of `term`, if the vocabulary holds it.
    pub fn id(&self, term: &str) -> Option<TermId> {
        let (mut low, mut high) = (0usize, self.len());
        while low < high {
            let mid = low + (high - low) / 2;
            // `mid < len()` fits in u32 because the builder refuses more than u32::MAX terms.
            match self.term(mid as TermId).cmp(term) {
                std::cmp::Ordering::Less => low = mid + 1,
                std::cmp::Ordering::Greater => high = mid,
                std::cmp::Ordering::Equal => return Some(mid as TermId),
            }
        }
        None
    }

    /// The terms in id order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.len()).map(|id| self.term(id as TermId))
    }

    /// Bytes of term text (without offsets).
    pub fn text_len(&self) -> usize {
        self.blob.len()
    }
}

/// Appends terms in increasing order; checks the order as it goes.
#[derive(Debug)]
pub struct VocabularyBuilder {
    blob: String,
    offsets: Vec<u32>,
    /// End of the previous term in `blob`.
    last_start: usize,
}

impl VocabularyBuilder {
    pub fn with_capacity(terms: usize) -> Self {
        let mut offsets = Vec::with_capacity(terms + 1);
        offsets.push(0);
        VocabularyBuilder {
            blob: String::new(),
            offsets,
            last_start: 0,
        }
    }

    /// The most recently pushed term ("" before the first).
    pub fn last(&self) -> &str {
        &self.blob[self.last_start..]
    }

    /// Appends `term`, which must sort strictly after the previous one.
    pub fn push(&mut self, term: &str) -> Result<(), VocabularyError> {
        let index = self.offsets.len() - 1;
        if index > 0 && term <= self.last() {
            return Err(VocabularyError::NotSorted { index });
        }
        if index >= u32::MAX as usize {
            return Err(VocabularyError::TooLarge);
        }
        let end =
            u32::try_from(self.blob.len() + term.len()).map_err(|_| VocabularyError::TooLarge)?;
        self.last_start = self.blob.len();
        self.blob.push_str(term);
        self.offsets.push(end);
        Ok(())
    }

    pub fn finish(self) -> Vocabulary {
        Vocabulary {
            blob: self.blob,
            offsets: self.offsets,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_by_term_and_id() {
        let v = Vocabulary::from_sorted(&["aid", "global", "tsunami", "über"]).unwrap();
        assert_eq!(v.len(), 4);
        assert_eq!(v.id("aid"), Some(0));
        assert_eq!(v.id("tsunami"), Some(2));
        assert_eq!(v.id("über"), Some(3));
        assert_eq!(v.id("zzz"), None);
        assert_eq!(v.id(""), None);
        assert_eq!(v.term(1), "global");
        assert_eq!(
            v.iter().collect::<Vec<_>>(),
            ["aid", "global", "tsunami", "über"]
        );
    }

    #[test]
    fn unsorted_or_duplicate_terms_are_refused() {
        assert_eq!(
            Vocabulary::from_sorted(&["b", "a"]),
            Err(VocabularyError::NotSorted { index: 1 })
        );
        assert_eq!(
            Vocabulary::from_sorted(&["a", "b", "b"]),
            Err(VocabularyError::NotSorted { index: 2 })
        );
        assert!(Vocabulary::from_sorted::<&str>(&[]).unwrap().is_empty());
    }
}
