//! Word shingles hashed with SHA-1, and containment by shared hashes through an inverted index:
//! the common machinery of DSC ([`super::dsc`]) and full fingerprinting ([`super::ffp`]).
//!
//! Choices: shingles run over the document's terms in reading order across sentence
//! boundaries; a shingle is hashed as its terms joined by single spaces (64-bit SHA-1, see
//! [`super::hashing`]); a document shorter than one shingle is one shingle of all its terms;
//! hashes are compared as sets.
//!
//! Skew (a deviation the papers do not need at their scale, as Passim caps n-gram document
//! frequencies): with a document-frequency cap, a hash held by more documents than the cap
//! counts as shared by none. Without it a boilerplate sentence in every document makes every
//! pair a candidate, which is quadratic; with it the candidates are those sharing a rarer hash.
//! A document's size (the denominator of its share) still counts every hash it has. The cap is
//! off by default here; `simdoc-spark` sets one and `--max-df` gives both the same.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::hashing::sha1_u64_of_words;
use super::per_document::per_document;
use super::{Cancelled, Collection, DetectedPair, Detection, DocId, Job, Relation};

/// The 64-bit SHA-1 of every `size`-word shingle of document `doc`, in order.
pub fn shingle_hashes(collection: &Collection, doc: DocId, size: usize) -> Vec<u64> {
    let words: Vec<&str> = collection.documents[doc]
        .terms()
        .map(|t| collection.term(t))
        .collect();
    shingle_hashes_of_words(&words, size)
}

/// The 64-bit SHA-1 of every `size`-word shingle of a document's terms (in reading order): what
/// [`shingle_hashes`] computes, for front ends without a [`Collection`] (the Spark executors).
pub fn shingle_hashes_of_words<S: AsRef<str>>(words: &[S], size: usize) -> Vec<u64> {
    let mut buffer = Vec::new();
    if words.is_empty() {
        return Vec::new();
    }
    let size = size.max(1).min(words.len());
    words
        .windows(size)
        .map(|w| sha1_u64_of_words(w.iter().map(AsRef::as_ref), &mut buffer))
        .collect()
}

/// The decision for two documents sharing `shared` distinct hashes, `earlier` holding
/// `earlier_size` of them and `later` `later_size` (both non-zero): each contains the other (a
/// duplicate, scored by the smaller share), one contains the other (scored by the contained
/// document's share), or neither reaches `threshold`.
pub fn containment_decision(
    earlier: DocId,
    later: DocId,
    shared: u32,
    earlier_size: usize,
    later_size: usize,
    threshold: f64,
) -> Option<DetectedPair> {
    let later_share = f64::from(shared) / later_size as f64;
    let earlier_share = f64::from(shared) / earlier_size as f64;
    match (later_share >= threshold, earlier_share >= threshold) {
        (true, true) => Some(DetectedPair::new(
            earlier,
            later,
            Relation::Duplicate,
            later_share.min(earlier_share),
        )),
        (true, false) => Some(DetectedPair::new(
            earlier,
            later,
            Relation::Contains,
            later_share,
        )),
        (false, true) => Some(DetectedPair::new(
            later,
            earlier,
            Relation::Contains,
            earlier_share,
        )),
        (false, false) => None,
    }
}

/// How many of the sets hold each hash (sets already deduplicated).
fn document_frequencies(sets: &[Vec<u64>]) -> FxHashMap<u64, u32> {
    let mut df: FxHashMap<u64, u32> = FxHashMap::default();
    for hash in sets.iter().flatten() {
        *df.entry(*hash).or_insert(0) += 1;
    }
    df
}

/// Containment decisions from per-document hash sets: `d_C ⊇ d_A` when at least `threshold`
/// of `d_A`'s distinct hashes are among `d_C`'s. Each document looks its hashes up in an
/// inverted index and counts only the documents before it, so only pairs with a common hash are
/// counted (CoDet sect. 5.2: "It calculates similarity values for each document pair that has
/// at least one substring in common"), each once. Scores are the share of the contained
/// document's hashes. With `max_df`, hashes held by more documents are not looked up (see the
/// module docs).
///
/// The index is built first, in stream order (each list sorted by document), and the
/// documents then count their shared hashes on every core: the documents before one are a
/// prefix of each of its lists, so the pairs are those of inserting one document at a time.
pub fn containment_by_shared_hashes(
    collection: &Collection,
    mut hashes: Vec<Vec<u64>>,
    threshold: f64,
    max_df: Option<u32>,
    stage: &'static str,
    job: &mut Job<'_>,
) -> Result<Detection, Cancelled> {
    hashes.par_iter_mut().for_each(|set| {
        set.sort_unstable();
        set.dedup();
    });
    let df = if max_df.is_some() {
        document_frequencies(&hashes)
    } else {
        FxHashMap::default()
    };
    let counted = |hash: &u64| max_df.is_none_or(|cap| df.get(hash).is_none_or(|&n| n <= cap));
    let mut postings: FxHashMap<u64, Vec<u32>> = FxHashMap::default();
    for (doc, set) in hashes.iter().enumerate() {
        let id = u32::try_from(doc).unwrap_or(u32::MAX);
        for hash in set.iter().filter(|h| counted(h)) {
            postings.entry(*hash).or_default().push(id);
        }
    }
    let per_document = per_document(hashes.len(), stage, job, |doc| {
        let set = &hashes[doc];
        let mut shared: FxHashMap<u32, u32> = FxHashMap::default();
        for hash in set.iter().filter(|h| counted(h)) {
            if let Some(list) = postings.get(hash) {
                let before = list.partition_point(|&other| (other as usize) < doc);
                for &other in &list[..before] {
                    *shared.entry(other).or_insert(0) += 1;
                }
            }
        }
        shared
            .into_iter()
            .filter_map(|(other, count)| {
                let other = other as DocId;
                containment_decision(other, doc, count, hashes[other].len(), set.len(), threshold)
            })
            .collect::<Vec<DetectedPair>>()
    })?;
    let pairs = per_document.into_iter().flatten().collect();
    Ok(Detection::from_pairs(pairs, collection))
}

#[cfg(test)]
mod tests {
    use super::super::{prepare::words, without_job};
    use super::*;

    #[test]
    fn shingles_slide_one_word_and_short_documents_are_one_shingle() {
        let docs = vec![vec![words("a b c"), words("d e")], vec![words("a b")]];
        let c = Collection::from_terms(vec![], docs, vec![]);
        let h = shingle_hashes(&c, 0, 4);
        assert_eq!(h.len(), 2, "a b c d, b c d e");
        assert_eq!(h[0], crate::collection::hashing::sha1_u64(b"a b c d"));
        assert_eq!(h[1], crate::collection::hashing::sha1_u64(b"b c d e"));
        assert_eq!(
            shingle_hashes(&c, 1, 4),
            vec![crate::collection::hashing::sha1_u64(b"a b")]
        );
    }

    #[test]
    fn containment_needs_the_threshold_share_of_the_smaller_set() {
        let c = Collection::from_terms(vec![], vec![vec![]; 4], vec![]);
        let hashes = vec![
            vec![1, 2, 3, 4, 5],
            vec![1, 2, 3, 9], // 3 of 4 = 0.75 in doc 0; doc 0 has 3 of 5 = 0.6 in doc 1
            vec![7, 8],       // nothing shared
            vec![1, 2, 3, 4, 5], // a copy of doc 0
        ];
        let d = without_job(|job| containment_by_shared_hashes(&c, hashes, 0.6, None, "t", job))
            .unwrap();
        let got: Vec<_> = d
            .pairs
            .iter()
            .map(|p| (p.a, p.b, p.relation, p.score))
            .collect();
        assert_eq!(
            got,
            vec![
                (0, 1, Relation::Duplicate, 0.6),
                (0, 3, Relation::Duplicate, 1.0),
                (1, 3, Relation::Duplicate, 0.6),
            ]
        );
        let hashes = vec![vec![1, 2, 3, 4, 5], vec![1, 2, 3, 9]];
        let d = without_job(|job| containment_by_shared_hashes(&c, hashes, 0.7, None, "t", job))
            .unwrap();
        assert_eq!(
            d.pairs,
            vec![DetectedPair::new(0, 1, Relation::Contains, 0.75)]
        );
    }

    #[test]
    fn a_hash_in_more_documents_than_the_cap_is_shared_by_none() {
        let c = Collection::from_terms(vec![], vec![vec![]; 4], vec![]);
        // Hash 0 is boilerplate in every document; 1 and 2 link documents 0 and 1 only.
        let hashes = vec![vec![0, 1, 2], vec![0, 1, 2, 9], vec![0, 7], vec![0, 8]];
        let all = without_job(|job| {
            containment_by_shared_hashes(&c, hashes.clone(), 0.5, None, "t", job)
        })
        .unwrap();
        assert_eq!(
            all.pairs.len(),
            6,
            "without a cap the boilerplate links every pair"
        );
        let capped =
            without_job(|job| containment_by_shared_hashes(&c, hashes, 0.5, Some(3), "t", job))
                .unwrap();
        // Shares keep the full sizes: 2 of 3 and 2 of 4 (hash 0 no longer counts).
        assert_eq!(
            capped.pairs,
            vec![DetectedPair::new(0, 1, Relation::Duplicate, 0.5)]
        );
    }

    #[test]
    fn shingles_of_words_equal_shingles_of_the_collection() {
        let docs = vec![vec![words("a b c"), words("d e")], vec![words("a b")]];
        let c = Collection::from_terms(vec![], docs, vec![]);
        assert_eq!(
            shingle_hashes_of_words(&["a", "b", "c", "d", "e"], 4),
            shingle_hashes(&c, 0, 4)
        );
        assert_eq!(
            shingle_hashes_of_words(&["a", "b"], 4),
            shingle_hashes(&c, 1, 4)
        );
        assert!(shingle_hashes_of_words::<&str>(&[], 4).is_empty());
    }
}
