//! WordNet's `c` between the words of a left sentence and each of its candidates, found through
//! the lemmas of the right sentence ([`LemmaRelations`], [`PairRelations`]), and a cheap upper
//! bound of the pair's aligned Sims ([`PairRelations::may_keep`]) that skips the alignment of
//! the candidates that cannot reach the floor.
//!
//! ## The bound
//! The aligned mu(w, S_j) of a word w absent from S_j ([`crate::similarity::aligned`]) is
//! 1 - prod (1 - c(w, k)) over the words k of S_j that are absent from S_i, may relate, and lie
//! in a gap where w lies. Dropping the gap condition keeps every one of those factors and adds
//! more, each in [0, 1]: the product can only shrink and mu only grow. Summed and divided as
//! eq. 3.3 does, that is an upper bound of each directional Sim computed from the pair's own
//! words, with no longest common subsequence. On the 5,000-sentence benchmark
//! (`bench_compare presets`) fewer than a quarter of the index's candidates under the wordnet
//! preset pass it.
//!
//! The bound holds in floating point, not only in real numbers: it takes its products and sums
//! in the order the aligned Sims take them (words of S_i ascending, words of S_j ascending), and
//! rounding to nearest is monotone, so multiplying by an extra factor in [0, 1] never raises a
//! product and adding a larger term never lowers a sum. A pair whose bound misses the floor
//! misses it when aligned, and skipping it changes no result.

use super::*;

/// [`LemmaRelations::starts`] of a lemma no word of the sentence relates to.
const NOT_RELATED: u32 = u32::MAX;

/// [`PairRelations`]' partner slot of a term the other sentence lacks.
const NO_PARTNER: u32 = u32::MAX;

/// For one left sentence, every lemma its words relate to, with the left terms (slots of its
/// set) relating to it and the largest `c` of each: 1 for a lemma of the term's own words,
/// else the strongest WordNet relation's weight. Filled once per left sentence; then `c(l, r)`
/// of a pair is the largest entry of `l` over the right word's lemmas ([`Lexical::c`]'s value)
/// and each right lemma is one array read, whatever the lexicon holds.
#[derive(Default)]
pub(super) struct LemmaRelations {
    /// (lemma, left slot, c), sorted by lemma and then slot, one entry per lemma and slot.
    entries: Vec<(LemmaId, u32, f32)>,
    /// Per lemma id, the index of its first entry ([`NOT_RELATED`] without one). Grown to the
    /// largest lemma seen; only the entries of the last fill are set, and the next fill clears
    /// them.
    starts: Vec<u32>,
    /// Per left slot, whether its words have lemmas (may relate to anything).
    pub(super) relates: Vec<bool>,
    /// Bit `lemma % LEMMA_FILTER_BITS` set for every lemma with entries: most lemmas of a
    /// candidate relate to nothing of the left sentence, and this small bitmap (in the first
    /// level of cache) says so without reading `starts`, which spans the whole lexicon.
    filter: Vec<u64>,
}

/// The bits of [`LemmaRelations::filter`].
const LEMMA_FILTER_BITS: usize = 4096;

impl LemmaRelations {
    pub(super) fn fill(&mut self, sentence: &PreparedSentence, lexical: &Lexical<'_>) {
        for &(lemma, _, _) in &self.entries {
            self.starts[lemma as usize] = NOT_RELATED;
        }
        self.entries.clear();
        self.relates.clear();
        for slot in 0..sentence.set.len() {
            let own = sentence.lemmas_at(slot);
            self.relates.push(!own.is_empty());
            for &lemma in own {
                // A word's own lemma is c = 1 whatever its relations weigh: marked above any
                // weight until the duplicates are folded.
                self.entries.push((lemma, slot as u32, f32::INFINITY));
                for (other, relation) in lexical.lexicon.related(lemma) {
                    let c = lexical.weights.of(relation) as f32;
                    if c > 0.0 {
                        self.entries.push((other, slot as u32, c));
                    }
                }
            }
        }
        self.entries
            .sort_unstable_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then(b.2.total_cmp(&a.2)));
        self.entries
            .dedup_by_key(|&mut (lemma, slot, _)| (lemma, slot));
        for entry in &mut self.entries {
            if entry.2 == f32::INFINITY {
                entry.2 = 1.0;
            }
        }
        if let Some(&(largest, _, _)) = self.entries.last()
            && largest as usize >= self.starts.len()
        {
            self.starts.resize(largest as usize + 1, NOT_RELATED);
        }
        self.filter.clear();
        self.filter.resize(LEMMA_FILTER_BITS / 64, 0);
        for (at, &(lemma, _, _)) in self.entries.iter().enumerate().rev() {
            self.starts[lemma as usize] = at as u32;
            let bit = lemma as usize % LEMMA_FILTER_BITS;
            self.filter[bit / 64] |= 1 << (bit % 64);
        }
    }

    /// The (lemma, left slot, c) entries of `lemma`.
    pub(super) fn of(&self, lemma: LemmaId) -> &[(LemmaId, u32, f32)] {
        let bit = lemma as usize % LEMMA_FILTER_BITS;
        if self
            .filter
            .get(bit / 64)
            .is_none_or(|word| word & (1 << (bit % 64)) == 0)
        {
            return &[];
        }
        let start = self.starts.get(lemma as usize).copied();
        match start {
            Some(start) if start != NOT_RELATED => {
                // A lemma has few entries (one per left word relating to it): a scan.
                let from = &self.entries[start as usize..];
                let len = from.iter().take_while(|&&(l, _, _)| l == lemma).count();
                &from[..len]
            }
            _ => &[],
        }
    }
}

/// The related words of one pair of sentences: each (left slot, right slot) with `c > 0`, both
/// ways sorted, which terms the two sets share, and which are content terms. Scratch space
/// reused from pair to pair.
#[derive(Default)]
pub(super) struct PairRelations {
    /// (left slot, right slot, c), by left slot and then right slot.
    by_left: Vec<(u32, u32, f32)>,
    /// (right slot, left slot, c), by right slot and then left slot.
    by_right: Vec<(u32, u32, f32)>,
    /// Per left slot, the right slot of the same term ([`NO_PARTNER`] if absent).
    left_partner: Vec<u32>,
    right_partner: Vec<u32>,
    /// Per slot, whether the term is one of the sentence's content terms.
    left_content: Vec<bool>,
    right_content: Vec<bool>,
    /// Per slot, its links in term space for the alignment ([`PairLinks`]): `(other term, c)`,
    /// ascending, in `rows[starts[slot]..starts[slot + 1]]`.
    left_rows: Rows,
    right_rows: Rows,
}

impl PairRelations {
    /// The relations of the left sentence `relations` was filled for with `right`.
    pub(super) fn fill(
        &mut self,
        relations: &LemmaRelations,
        left: &PreparedSentence,
        right: &PreparedSentence,
    ) {
        self.by_right.clear();
        for slot in 0..right.set.len() {
            let start = self.by_right.len();
            for &lemma in right.lemmas_at(slot) {
                let entries = relations.of(lemma);
                let links = entries
                    .iter()
                    .map(|&(_, left_slot, c)| (slot as u32, left_slot, c));
                self.by_right.extend(links);
            }
            // One link per left slot, the largest `c` over the right word's lemmas.
            let links = &mut self.by_right[start..];
            links.sort_unstable_by(|a, b| a.1.cmp(&b.1).then(b.2.total_cmp(&a.2)));
            let mut kept = start;
            for at in start..self.by_right.len() {
                if at == start || self.by_right[at].1 != self.by_right[kept - 1].1 {
                    self.by_right[kept] = self.by_right[at];
                    kept += 1;
                }
            }
            self.by_right.truncate(kept);
        }
        self.by_left.clear();
        let turned = self.by_right.iter().map(|&(j, i, c)| (i, j, c));
        self.by_left.extend(turned);
        self.by_left.sort_unstable_by_key(|&(i, j, _)| (i, j));
        partners(
            &left.set,
            &right.set,
            &mut self.left_partner,
            &mut self.right_partner,
        );
        content_flags(left, &mut self.left_content);
        content_flags(right, &mut self.right_content);
    }

    /// Whether the aligned Sims of the pair under `rules` may keep it at `floor` (one direction
    /// reaching it; both, with `both_ways_only`), by the bound of the module docs, each
    /// direction's content terms held to the content floor as [`sims_under_rules`] holds them.
    /// `false` only for a pair whose aligned Sims would not keep it; `true` under
    /// [`Relate::All`], which the bound does not bound.
    pub(super) fn may_keep(
        &self,
        left: &PreparedSentence,
        right: &PreparedSentence,
        rules: &MatchRules,
        floor: f64,
        both_ways_only: bool,
    ) -> bool {
        if rules.relate != Relate::Aligned || floor <= 0.0 {
            return true;
        }
        may_reach_floors(
            left.has_stopwords() || right.has_stopwords(),
            |content| self.bounds(left, right, content),
            [rules.content_floor, floor],
            both_ways_only,
        )
    }

    /// Upper bounds of both aligned directional Sims, over the content terms or the whole sets
    /// (see the module docs).
    pub(super) fn bounds(
        &self,
        left: &PreparedSentence,
        right: &PreparedSentence,
        content: bool,
    ) -> (f64, f64) {
        let (left_len, right_len) = if content {
            (left.content().len(), right.content().len())
        } else {
            (left.set.len(), right.set.len())
        };
        if left_len == 0 || right_len == 0 {
            return (0.0, 0.0);
        }
        let left_side = Side {
            partner: &self.left_partner,
            content: &self.left_content,
            len: left_len,
        };
        let right_side = Side {
            partner: &self.right_partner,
            content: &self.right_content,
            len: right_len,
        };
        (
            side_bound(&left_side, &right_side, &self.by_left, content),
            side_bound(&right_side, &left_side, &self.by_right, content),
        )
    }

    /// The pair's `c` as the alignment asks for it, by term ([`PairRelatedness`]).
    pub(super) fn links<'a>(
        &'a mut self,
        relations: &'a LemmaRelations,
        left: &'a PreparedSentence,
        right: &'a PreparedSentence,
    ) -> PairLinks<'a> {
        self.left_rows
            .fill(&self.by_left, left.set.len(), &right.set);
        self.right_rows
            .fill(&self.by_right, right.set.len(), &left.set);
        PairLinks {
            left,
            right,
            left_rows: &self.left_rows,
            right_rows: &self.right_rows,
            left_relates: &relations.relates,
        }
    }
}

/// Per slot of one sentence, its links to the other sentence's terms: `(term, c)` ascending.
#[derive(Default)]
struct Rows {
    starts: Vec<u32>,
    entries: Vec<(TermId, f32)>,
}

impl Rows {
    /// From `links` (slot, other slot, c), sorted, for `len` slots; `other` is the other
    /// sentence's set.
    fn fill(&mut self, links: &[(u32, u32, f32)], len: usize, other: &[TermId]) {
        self.entries.clear();
        self.entries
            .extend(links.iter().map(|&(_, k, c)| (other[k as usize], c)));
        self.starts.clear();
        let mut at = 0;
        for slot in 0..len as u32 {
            self.starts.push(at as u32);
            while at < links.len() && links[at].0 == slot {
                at += 1;
            }
        }
        self.starts.push(at as u32);
    }

    fn of(&self, slot: usize) -> &[(TermId, f32)] {
        &self.entries[self.starts[slot] as usize..self.starts[slot + 1] as usize]
    }
}

/// Which of the other sentence's slots holds the same term, for each slot of both sorted sets.
fn partners(left: &[TermId], right: &[TermId], of_left: &mut Vec<u32>, of_right: &mut Vec<u32>) {
    of_left.clear();
    of_left.resize(left.len(), NO_PARTNER);
    of_right.clear();
    of_right.resize(right.len(), NO_PARTNER);
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        match left[i].cmp(&right[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                of_left[i] = j as u32;
                of_right[j] = i as u32;
                i += 1;
                j += 1;
            }
        }
    }
}

/// Per slot of `sentence`'s set, whether the term is a content term.
pub(super) fn content_flags(sentence: &PreparedSentence, out: &mut Vec<bool>) {
    out.clear();
    if !sentence.has_stopwords() {
        out.resize(sentence.set.len(), true);
        return;
    }
    // Both sorted, the content terms a subset: one walk.
    let mut content = sentence.content().iter().peekable();
    out.extend(
        sentence
            .set
            .iter()
            .map(|t| content.next_if_eq(&t).is_some()),
    );
}

/// One sentence of a pair as [`side_bound`] reads it.
struct Side<'a> {
    partner: &'a [u32],
    content: &'a [bool],
    /// The number of terms counted: the whole set's, or the content terms'.
    len: usize,
}

impl Side<'_> {
    /// Whether the term at `slot` is counted: any term, or a content term only.
    fn counts(&self, slot: usize, content: bool) -> bool {
        !content || self.content[slot]
    }
}

/// The bound of Sim(from, to) over the whole sets or the content terms: each counted term of
/// `from` that `to` holds (among its counted terms) adds 1, each other adds 1 - prod (1 - c) over
/// its links to counted terms of `to` that `from` lacks (among its counted terms). `links` are
/// (from slot, to slot, c), sorted.
fn side_bound(from: &Side<'_>, to: &Side<'_>, links: &[(u32, u32, f32)], content: bool) -> f64 {
    let shared = |partner: u32, other: &Side<'_>| {
        partner != NO_PARTNER && other.counts(partner as usize, content)
    };
    let mut sum = 0.0;
    let mut at = 0;
    for slot in 0..from.partner.len() {
        if !from.counts(slot, content) {
            continue;
        }
        if shared(from.partner[slot], to) {
            sum += 1.0;
            continue;
        }
        while at < links.len() && (links[at].0 as usize) < slot {
            at += 1;
        }
        let mut product = 1.0f64;
        while at < links.len() && links[at].0 as usize == slot {
            let (_, k, c) = links[at];
            at += 1;
            let absent = to.counts(k as usize, content) && !shared(to.partner[k as usize], from);
            if absent && c > 0.0 {
                product *= 1.0 - f64::from(c);
            }
        }
        // No factor adds 1 - 1 = 0: the sum is unchanged, as where the alignment skips a word.
        sum += 1.0 - product;
    }
    sum / from.len as f64
}

/// A filled [`PairRelations`] as the alignment reads it: `c` of a left and a right term, and
/// each term's links.
pub(super) struct PairLinks<'a> {
    left: &'a PreparedSentence,
    right: &'a PreparedSentence,
    left_rows: &'a Rows,
    right_rows: &'a Rows,
    left_relates: &'a [bool],
}

impl PairRelatedness for PairLinks<'_> {
    fn c(&self, l: TermId, r: TermId) -> f32 {
        let row = self.left_links(l).unwrap_or(&[]);
        row.binary_search_by_key(&r, |&(k, _)| k)
            .map_or(0.0, |at| row[at].1)
    }
    fn left_relates(&self, l: TermId) -> bool {
        self.left
            .set
            .binary_search(&l)
            .is_ok_and(|i| self.left_relates[i])
    }
    fn right_relates(&self, r: TermId) -> bool {
        self.right
            .set
            .binary_search(&r)
            .is_ok_and(|j| !self.right.lemmas_at(j).is_empty())
    }
    fn left_links(&self, l: TermId) -> Option<&[(TermId, f32)]> {
        let slot = self.left.set.binary_search(&l).ok()?;
        Some(self.left_rows.of(slot))
    }
    fn right_links(&self, r: TermId) -> Option<&[(TermId, f32)]> {
        let slot = self.right.set.binary_search(&r).ok()?;
        Some(self.right_rows.of(slot))
    }
}

/// Whether upper bounds of a pair's two directional Sims may still keep it: with stopwords in
/// either sentence, the content terms' bounds (`bounds(true)`) must reach `content_floor` in a
/// direction first, then the whole sets' (`bounds(false)`) `floor` in a direction that did (one
/// direction, or both with `both_ways_only`), as the matching holds the Sims themselves. Shared
/// by the exact bound here and the looser first look ([`super::pair_bound`]).
pub(super) fn may_reach_floors(
    stopwords: bool,
    mut bounds: impl FnMut(bool) -> (f64, f64),
    [content_floor, floor]: [f64; 2],
    both_ways_only: bool,
) -> bool {
    let keeps = |lr: bool, rl: bool| if both_ways_only { lr && rl } else { lr || rl };
    let mut alive = (true, true);
    if stopwords {
        let (lr, rl) = bounds(true);
        alive = (lr >= content_floor, rl >= content_floor);
        if !keeps(alive.0, alive.1) {
            return false;
        }
    }
    let (lr, rl) = bounds(false);
    keeps(alive.0 && lr >= floor, alive.1 && rl >= floor)
}
