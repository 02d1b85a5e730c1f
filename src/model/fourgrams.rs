//! Character 4-gram frequencies (thesis 3.2.1): how often each 4-gram occurs in the refined,
//! space-free sentences of the reference collection.
//!
//! A 4-gram is stored as one `u64` key so the table is a sorted key array plus a count array,
//! searched by binary search. The key spells the gram in a mixed radix over the collection's
//! *alphabet*: every distinct character gets a rank (most frequent first), and
//! `key = r0·A³ + r1·A² + r2·A + r3` for an alphabet of `A <= 65,536` characters, which always fits
//! in 64 bits. Frequent characters get small ranks, so keys are dense and their gaps small, which is
//! what makes the delta-encoded file section compact (see [`super::format`]).
//!
//! A collection with more than 65,536 distinct characters keeps the 65,536 most frequent; grams
//! with any other character are left out and read as unseen (count 0). Such characters are rare
//! by construction, so the grams that hold them are among a sentence's least frequent either way.

use rustc_hash::FxHashMap;

/// The most characters an alphabet can hold: ranks must fit in 16 bits.
pub const MAX_ALPHABET: usize = 1 << 16;

/// Why 4-gram data is inconsistent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FourgramError {
    #[error("the alphabet has {0} characters, more than 65,536")]
    AlphabetTooLarge(usize),
    #[error("the alphabet lists a character twice")]
    DuplicateCharacter,
    #[error("4-gram keys are not strictly increasing at entry {0}")]
    NotSorted(usize),
    #[error("4-gram key {key} is outside the alphabet's range")]
    KeyOutOfRange { key: u64 },
    #[error("{keys} keys but {counts} counts")]
    LengthMismatch { keys: usize, counts: usize },
    #[error("4-gram entry {0} has count 0")]
    ZeroCount(usize),
}

/// Sorted 4-gram keys and their occurrence counts over one alphabet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FourgramTable {
    /// Characters by rank (index = rank).
    alphabet: Vec<char>,
    /// `(character, rank)` sorted by character, for lookups.
    ranks: Vec<(char, u16)>,
    /// The ranks of ASCII characters, `u32::MAX` when absent: the common case without a search.
    ascii: [u32; 128],
    keys: Vec<u64>,
    counts: Vec<u32>,
}

impl FourgramTable {
    /// Counts of 4-grams, as collected, into a table. Counts above `u32::MAX` saturate.
    pub fn from_counts(counts: &FxHashMap<[char; 4], u64>) -> Self {
        let mut char_totals: FxHashMap<char, u64> = FxHashMap::default();
        for (gram, &n) in counts {
            for &c in gram {
                *char_totals.entry(c).or_default() += n;
            }
        }
        let mut alphabet: Vec<(char, u64)> = char_totals.into_iter().collect();
        alphabet.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        alphabet.truncate(MAX_ALPHABET);
        let alphabet: Vec<char> = alphabet.into_iter().map(|(c, _)| c).collect();
        let ranks = rank_index(&alphabet);
        let mut table = FourgramTable {
            ascii: ascii_ranks(&ranks),
            ranks,
            alphabet,
            keys: Vec::new(),
            counts: Vec::new(),
        };
        let mut entries: Vec<(u64, u32)> = counts
            .iter()
            .filter_map(|(gram, &n)| {
                let key = table.key(*gram)?;
                Some((key, u32::try_from(n).unwrap_or(u32::MAX)))
            })
            .collect();
        entries.sort_unstable();
        table.keys = entries.iter().map(|e| e.0).collect();
        table.counts = entries.iter().map(|e| e.1).collect();
        table
    }

    /// A table from its stored parts, checked: distinct characters, keys strictly increasing and
    /// inside the alphabet's range, counts positive.
    pub fn from_parts(
        alphabet: Vec<char>,
        keys: Vec<u64>,
        counts: Vec<u32>,
    ) -> Result<Self, FourgramError> {
        if alphabet.len() > MAX_ALPHABET {
            return Err(FourgramError::AlphabetTooLarge(alphabet.len()));
        }
        let ranks = rank_index(&alphabet);
        if ranks.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(FourgramError::DuplicateCharacter);
        }
        if keys.len() != counts.len() {
            return Err(FourgramError::LengthMismatch {
                keys: keys.len(),
                counts: counts.len(),
            });
        }
        if let Some(i) = keys.windows(2).position(|w| w[0] >= w[1]) {
            return Err(FourgramError::NotSorted(i + 1));
        }
        if let Some(&key) = keys.last()
            && key > max_key(alphabet.len())
        {
            return Err(FourgramError::KeyOutOfRange { key });
        }
        if let Some(i) = counts.iter().position(|&n| n == 0) {
            return Err(FourgramError::ZeroCount(i));
        }
        Ok(FourgramTable {
            alphabet,
            ascii: ascii_ranks(&ranks),
            ranks,
            keys,
            counts,
        })
    }

    /// The gram's key, or `None` if a character is outside the alphabet.
    pub fn key(&self, gram: [char; 4]) -> Option<u64> {
        let base = self.alphabet.len() as u64;
        let mut key = 0u64;
        for c in gram {
            let rank = match self.ascii.get(c as usize) {
                Some(&u32::MAX) => return None,
                Some(&rank) => rank,
                None => {
                    let k = self.ranks.binary_search_by_key(&c, |e| e.0).ok()?;
                    u32::from(self.ranks[k].1)
                }
            };
            // With base <= 2^16 and four digits below base, the key is at most 2^64 - 1.
            key = key * base + u64::from(rank);
        }
        Some(key)
    }

    /// Occurrences of `gram` in the collection; 0 if it was never seen.
    pub fn count(&self, gram: [char; 4]) -> u32 {
        self.key(gram)
            .and_then(|key| self.keys.binary_search(&key).ok())
            .map_or(0, |i| self.counts[i])
    }

    /// Number of distinct 4-grams stored.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Sum of all counts: the 4-gram occurrences in the collection.
    pub fn total(&self) -> u64 {
        self.counts.iter().map(|&n| u64::from(n)).sum()
    }

    pub fn alphabet(&self) -> &[char] {
        &self.alphabet
    }

    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    pub fn counts(&self) -> &[u32] {
        &self.counts
    }
}

/// The largest key an alphabet of `len` characters can spell (0 for an empty alphabet).
fn max_key(len: usize) -> u64 {
    let base = len as u64;
    // base <= 2^16, so base^4 - 1 fits in u64 (for base = 2^16 it is exactly u64::MAX).
    base.checked_pow(4)
        .map_or(u64::MAX, |p| p.saturating_sub(1))
}

fn ascii_ranks(ranks: &[(char, u16)]) -> [u32; 128] {
    let mut ascii = [u32::MAX; 128];
    for &(c, rank) in ranks {
        if let Some(slot) = ascii.get_mut(c as usize) {
            *slot = u32::from(rank);
        }
    }
    ascii
}

fn rank_index(alphabet: &[char]) -> Vec<(char, u16)> {
    let mut ranks: Vec<(char, u16)> = alphabet
        .iter()
        .take(MAX_ALPHABET)
        .enumerate()
        // `take(MAX_ALPHABET)` keeps every rank below 2^16.
        .map(|(rank, &c)| (c, rank as u16))
        .collect();
    ranks.sort_unstable();
    ranks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gram(s: &str) -> [char; 4] {
        let c: Vec<char> = s.chars().collect();
        [c[0], c[1], c[2], c[3]]
    }

    #[test]
    fn counts_are_looked_up_by_gram() {
        let mut counts = FxHashMap::default();
        counts.insert(gram("nove"), 3u64);
        counts.insert(gram("ovel"), 2);
        counts.insert(gram("élan"), 1);
        let table = FourgramTable::from_counts(&counts);
        assert_eq!(table.len(), 3);
        assert_eq!(table.total(), 6);
        assert_eq!(table.count(gram("nove")), 3);
        assert_eq!(table.count(gram("ovel")), 2);
        assert_eq!(table.count(gram("élan")), 1);
        assert_eq!(table.count(gram("evon")), 0);
        assert_eq!(table.count(gram("xxxx")), 0);
        // 'e', 'o', 'v' each occur in 5 gram occurrences; 'n' in 4: most frequent first,
        // ties by character.
        assert_eq!(&table.alphabet()[..4], &['e', 'o', 'v', 'n']);
        assert!(table.keys().windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn stored_parts_are_checked() {
        assert_eq!(
            FourgramTable::from_parts(vec!['a', 'a'], vec![], vec![]),
            Err(FourgramError::DuplicateCharacter)
        );
        assert_eq!(
            FourgramTable::from_parts(vec!['a', 'b'], vec![3, 2], vec![1, 1]),
            Err(FourgramError::NotSorted(1))
        );
        assert_eq!(
            FourgramTable::from_parts(vec!['a', 'b'], vec![16], vec![1]),
            Err(FourgramError::KeyOutOfRange { key: 16 })
        );
        assert_eq!(
            FourgramTable::from_parts(vec!['a', 'b'], vec![15], vec![0]),
            Err(FourgramError::ZeroCount(0))
        );
        let t = FourgramTable::from_parts(vec!['a', 'b'], vec![1, 15], vec![7, 9]).unwrap();
        assert_eq!(t.count(gram("aaab")), 7);
        assert_eq!(t.count(gram("bbbb")), 9);
        assert_eq!(max_key(1 << 16), u64::MAX);
        // Outside ASCII, ranks are found by search.
        let t = FourgramTable::from_parts(vec!['é', 'a'], vec![1], vec![4]).unwrap();
        assert_eq!(t.count(gram("éééa")), 4);
        assert_eq!(t.count(gram("éééb")), 0);
        assert_eq!(t.count(gram("ééé\u{10FFFF}")), 0);
    }
}
