//! SHA-1, as every paper here uses it (CoDet sect. 4: "SHA1 algorithm is used in all methods";
//! Roul et al. step 4; qSign used MD5, see [`super::qsign`]).
//!
//! Bit order, which the papers leave open: a 64-bit hash is the first 8 bytes of the 20-byte
//! digest read big-endian, and "bit i" of a 64-bit value is `(value >> i) & 1`.

use sha1::{Digest, Sha1};

use super::Collection;
use super::prepare::TermId;

/// The full 160-bit SHA-1 digest.
pub fn sha1(bytes: &[u8]) -> [u8; 20] {
    Sha1::digest(bytes).into()
}

/// The first 64 bits of the SHA-1 digest, big-endian.
pub fn sha1_u64(bytes: &[u8]) -> u64 {
    let digest = sha1(bytes);
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

/// The 64-bit SHA-1 of `terms` joined by single spaces (a shingle or a word sequence).
pub fn sha1_u64_of_terms(collection: &Collection, terms: &[TermId], buffer: &mut Vec<u8>) -> u64 {
    sha1_u64_of_words(terms.iter().map(|&t| collection.term(t)), buffer)
}

/// The 64-bit SHA-1 of `words` joined by single spaces; `buffer` is reused between calls.
pub fn sha1_u64_of_words<'w>(
    words: impl IntoIterator<Item = &'w str>,
    buffer: &mut Vec<u8>,
) -> u64 {
    buffer.clear();
    for (i, word) in words.into_iter().enumerate() {
        if i > 0 {
            buffer.push(b' ');
        }
        buffer.extend_from_slice(word.as_bytes());
    }
    sha1_u64(buffer)
}

/// The 64-bit SHA-1 of every term of the vocabulary, indexed by [`TermId`].
pub fn term_hashes(collection: &Collection) -> Vec<u64> {
    (0..collection.vocabulary.len())
        .map(|id| sha1_u64(collection.term(id as TermId).as_bytes()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha1_matches_the_standard_test_vector() {
        // FIPS 180 test vector: SHA-1("abc") = a9993e36 4706816a ba3e2571 7850c26c 9cd0d89d.
        let digest = sha1(b"abc");
        assert_eq!(digest[..4], [0xa9, 0x99, 0x3e, 0x36]);
        assert_eq!(sha1_u64(b"abc"), 0xa999_3e36_4706_816a);
    }
}
