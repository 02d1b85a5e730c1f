//! `c` of two sentences' words for the verdict's features ([`super::features`]), asked of
//! WordNet once per pair of terms: the features read it three times (the aligned Sims over
//! all terms and over content terms, the Sims with every word related anywhere), and the
//! alignment reads each word's links instead of asking about every absent word.

use super::super::aligned::PairRelatedness;
use super::super::lexical::Lexical;
use super::super::{PreparedSentence, TermId};

/// `c` of every term of `a`'s set with every term of `b`'s, which relates nothing for a term
/// without lemmas (a kept stopword or number), and each term's links.
pub(super) struct PairWords<'s> {
    a: &'s PreparedSentence,
    b: &'s PreparedSentence,
    /// `c` by (slot of `a.set`, slot of `b.set`), row-major.
    table: Vec<f32>,
    /// Per slot of `a.set`, its `(term of b, c)` with `c > 0`, ascending:
    /// `a_links[a_starts[slot]..a_starts[slot + 1]]`; the same for `b`.
    a_links: Vec<(TermId, f32)>,
    a_starts: Vec<u32>,
    b_links: Vec<(TermId, f32)>,
    b_starts: Vec<u32>,
}

impl<'s> PairWords<'s> {
    /// The words of `a` and `b` related by `lexical` (none without it).
    pub(super) fn new(
        a: &'s PreparedSentence,
        b: &'s PreparedSentence,
        lexical: Option<&Lexical<'_>>,
    ) -> PairWords<'s> {
        let (n, m) = (a.set.len(), b.set.len());
        let mut table = vec![0.0f32; n * m];
        if let Some(lexical) = lexical {
            for i in (0..n).filter(|&i| !a.lemmas_at(i).is_empty()) {
                for j in (0..m).filter(|&j| !b.lemmas_at(j).is_empty()) {
                    table[i * m + j] = lexical.c(a.lemmas_at(i), b.lemmas_at(j));
                }
            }
        }
        let (mut a_links, mut a_starts) = (Vec::new(), Vec::with_capacity(n + 1));
        for i in 0..n {
            a_starts.push(a_links.len() as u32);
            let row = (0..m).map(|j| (b.set[j], table[i * m + j]));
            a_links.extend(row.filter(|&(_, c)| c > 0.0));
        }
        a_starts.push(a_links.len() as u32);
        let (mut b_links, mut b_starts) = (Vec::new(), Vec::with_capacity(m + 1));
        for j in 0..m {
            b_starts.push(b_links.len() as u32);
            let column = (0..n).map(|i| (a.set[i], table[i * m + j]));
            b_links.extend(column.filter(|&(_, c)| c > 0.0));
        }
        b_starts.push(b_links.len() as u32);
        PairWords {
            a,
            b,
            table,
            a_links,
            a_starts,
            b_links,
            b_starts,
        }
    }
}

impl PairRelatedness for PairWords<'_> {
    fn c(&self, left: TermId, right: TermId) -> f32 {
        match (
            self.a.set.binary_search(&left),
            self.b.set.binary_search(&right),
        ) {
            (Ok(i), Ok(j)) => self.table[i * self.b.set.len() + j],
            _ => 0.0,
        }
    }
    fn left_relates(&self, left: TermId) -> bool {
        !self.a.lemmas_of(left).is_empty()
    }
    fn right_relates(&self, right: TermId) -> bool {
        !self.b.lemmas_of(right).is_empty()
    }
    fn left_links(&self, left: TermId) -> Option<&[(TermId, f32)]> {
        let i = self.a.set.binary_search(&left).ok()?;
        Some(&self.a_links[self.a_starts[i] as usize..self.a_starts[i + 1] as usize])
    }
    fn right_links(&self, right: TermId) -> Option<&[(TermId, f32)]> {
        let j = self.b.set.binary_search(&right).ok()?;
        Some(&self.b_links[self.b_starts[j] as usize..self.b_starts[j + 1] as usize])
    }
}
