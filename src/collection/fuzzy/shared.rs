//! Which documents of a collection share EQ sentences, and how many: the counts behind the
//! resemblances of eq. 4.1, made one document at a time.
//!
//! Counting every ordered document pair at once held an entry for each pair sharing any EQ
//! sentence: 26.9 million for the 20,849 Reuters-21578 stories, where a report names 15,000
//! (the run peaked at 1.6 GB then, 0.5 GB now: `scripts/bench-all.sh fuzzy-collection`). Here the EQ pairs of sentence classes
//! are kept as a graph, linear in the sentences and the class pairs: per class, the classes EQ
//! to it and the documents holding it; per document, its classes. A document's row (how many of
//! its sentences have an EQ partner in each other document, and how many of theirs have one in
//! it) is made when it is asked for, in working space the size of the collection.

use crate::compare::SentenceClasses;

/// Lists of items, one per key: `items[starts[k]..starts[k + 1]]`.
#[derive(Clone, Debug, Default, PartialEq)]
struct Grouped<T> {
    starts: Vec<usize>,
    items: Vec<T>,
}

impl<T: Copy + Default> Grouped<T> {
    /// Groups `entries` by key (`keys` keys); within a key, items keep the order of `entries`.
    /// `entries` is called twice, once to count and once to place (a counting sort: no list of
    /// every `(key, item)` is held beside the result).
    fn from_entries<I: Iterator<Item = (usize, T)>>(keys: usize, entries: impl Fn() -> I) -> Self {
        let mut starts = vec![0usize; keys + 1];
        for (key, _) in entries() {
            starts[key + 1] += 1;
        }
        for k in 0..keys {
            starts[k + 1] += starts[k];
        }
        let mut next = starts.clone();
        let mut items = vec![T::default(); starts[keys]];
        for (key, item) in entries() {
            items[next[key]] = item;
            next[key] += 1;
        }
        Grouped { starts, items }
    }

    fn get(&self, key: usize) -> &[T] {
        match (self.starts.get(key), self.starts.get(key + 1)) {
            (Some(&a), Some(&b)) => &self.items[a..b],
            _ => &[],
        }
    }
}

/// The EQ sentences a collection's documents share (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct SharedSentences {
    /// Per document: its classes, each with how many of the document's sentences are in it.
    classes_of: Grouped<(u32, u32)>,
    /// Per class: its documents, each with how many of the class's members are in it.
    documents_of: Grouped<(u32, u32)>,
    /// Per class: the classes EQ to it, both ways round, itself included when it is EQ to
    /// itself, sorted.
    partners: Grouped<u32>,
}

/// One thread's working space for [`SharedSentences::row`], reused from document to document.
pub(super) struct RowScratch {
    /// Per document: sentences of the row's document with an EQ partner in it.
    matched_in: Vec<u32>,
    /// Per document: its sentences with an EQ partner in the row's document.
    matched_from: Vec<u32>,
    /// Per document: the last class of the row's document that reached it.
    reached_by: Vec<u32>,
    /// Per class: the last row that counted it as a partner.
    counted_in: Vec<u32>,
    touched: Vec<u32>,
    /// Tells classes (and rows) apart in `reached_by` (and `counted_in`); 0 is "never".
    class_stamp: u32,
    row_stamp: u32,
}

impl SharedSentences {
    /// The graph of a collection's classes (`classes`, over the sentence positions of all its
    /// documents, `owner` giving each position's document) and their EQ pairs (`eq_pairs`, class
    /// against class, either way round or both).
    pub(super) fn new(
        classes: &SentenceClasses,
        owner: &[usize],
        documents: usize,
        eq_pairs: &[(u32, u32)],
    ) -> SharedSentences {
        SharedSentences::from_members(
            classes.len(),
            |class| classes.members(class),
            owner,
            documents,
            eq_pairs,
        )
    }

    /// [`SharedSentences::new`] with each class's members (sentence positions in reading
    /// order) given by `members`.
    fn from_members<'m>(
        class_count: usize,
        members: impl Fn(u32) -> &'m [u32],
        owner: &[usize],
        documents: usize,
        eq_pairs: &[(u32, u32)],
    ) -> SharedSentences {
        // A class's members are in reading order and a document's sentences are consecutive,
        // so equal documents are adjacent.
        let documents_of_class = |class: usize| {
            let mut counts: Vec<(u32, u32)> = Vec::new();
            for &position in members(class as u32) {
                let doc = owner[position as usize] as u32;
                match counts.last_mut() {
                    Some((last, n)) if *last == doc => *n += 1,
                    _ => counts.push((doc, 1)),
                }
            }
            counts
        };
        let documents_of = Grouped::from_entries(class_count, || {
            (0..class_count)
                .flat_map(move |c| documents_of_class(c).into_iter().map(move |e| (c, e)))
        });
        let classes_of = Grouped::from_entries(documents, || {
            (0..class_count).flat_map(|c| {
                documents_of
                    .get(c)
                    .iter()
                    .map(move |&(doc, members)| (doc as usize, (c as u32, members)))
            })
        });
        let mut partners = Grouped::from_entries(class_count, || {
            eq_pairs.iter().flat_map(|&(a, b)| {
                let mirrored = (a != b).then_some((b as usize, a));
                std::iter::once((a as usize, b)).chain(mirrored)
            })
        });
        dedup_groups(&mut partners);
        SharedSentences {
            classes_of,
            documents_of,
            partners,
        }
    }

    pub(super) fn scratch(&self) -> RowScratch {
        let documents = self.classes_of.starts.len().saturating_sub(1);
        let classes = self.documents_of.starts.len().saturating_sub(1);
        RowScratch {
            matched_in: vec![0; documents],
            matched_from: vec![0; documents],
            reached_by: vec![0; documents],
            counted_in: vec![0; classes],
            touched: Vec::new(),
            class_stamp: 0,
            row_stamp: 0,
        }
    }

    /// How many of the documents that `count` hold a sentence of `class` or of a class EQ to
    /// it, counted up to `limit` (more are not looked for). `seen` is working space, cleared
    /// here.
    pub(super) fn documents_sharing(
        &self,
        class: u32,
        limit: usize,
        counts: impl Fn(u32) -> bool,
        seen: &mut Vec<u32>,
    ) -> usize {
        seen.clear();
        let own = std::iter::once(class);
        let partners = self.partners.get(class as usize).iter().copied();
        for other in own.chain(partners) {
            for &(doc, _) in self.documents_of.get(other as usize) {
                if counts(doc) && !seen.contains(&doc) {
                    seen.push(doc);
                    if seen.len() >= limit {
                        return seen.len();
                    }
                }
            }
        }
        seen.len()
    }

    /// How many distinct sentences (classes) document `d` holds.
    pub(super) fn classes_in(&self, d: usize) -> usize {
        self.classes_of.get(d).len()
    }

    /// How many documents hold a sentence of `class` itself (equal once prepared).
    pub(super) fn documents_holding(&self, class: u32) -> usize {
        self.documents_of.get(class as usize).len()
    }

    /// Calls `visit(b, in_b, from_b)` for every document `b` other than `a` sharing an EQ
    /// sentence with it, in ascending order of `b`: `in_b` of `a`'s sentences have an EQ
    /// partner in `b` (the numerator of RS(a, b), eq. 4.1), and `from_b` of `b`'s have one in
    /// `a` (that of RS(b, a)). A sentence of `a` in class `c` has a partner in every document
    /// holding a class EQ to `c`; since EQ is symmetric, a sentence of `b` has one in `a`
    /// exactly when its class is EQ to one of `a`'s, so one pass over the partners of `a`'s
    /// classes counts both ways.
    #[cfg(test)]
    pub(super) fn row(
        &self,
        a: usize,
        scratch: &mut RowScratch,
        visit: impl FnMut(usize, u32, u32),
    ) {
        self.row_where(a, scratch, |_| true, visit);
    }

    /// [`SharedSentences::row`] counting only the sentences whose class `counts`, and only
    /// partners in classes that `count`: the pairs sharing text beyond what is left out.
    pub(super) fn row_where(
        &self,
        a: usize,
        scratch: &mut RowScratch,
        counts: impl Fn(u32) -> bool,
        mut visit: impl FnMut(usize, u32, u32),
    ) {
        let RowScratch {
            matched_in,
            matched_from,
            reached_by,
            counted_in,
            touched,
            class_stamp,
            row_stamp,
        } = scratch;
        *row_stamp = next_stamp(*row_stamp, counted_in);
        touched.clear();
        for &(class, members) in self.classes_of.get(a) {
            if !counts(class) {
                continue;
            }
            *class_stamp = next_stamp(*class_stamp, reached_by);
            for &partner in self.partners.get(class as usize) {
                if !counts(partner) {
                    continue;
                }
                let first_time = counted_in[partner as usize] != *row_stamp;
                counted_in[partner as usize] = *row_stamp;
                for &(b, members_in_b) in self.documents_of.get(partner as usize) {
                    let at = b as usize;
                    if at == a {
                        continue;
                    }
                    if matched_in[at] == 0 && matched_from[at] == 0 {
                        touched.push(b);
                    }
                    if first_time {
                        matched_from[at] = matched_from[at].saturating_add(members_in_b);
                    }
                    if reached_by[at] != *class_stamp {
                        reached_by[at] = *class_stamp;
                        matched_in[at] = matched_in[at].saturating_add(members);
                    }
                }
            }
        }
        touched.sort_unstable();
        for &b in touched.iter() {
            let at = b as usize;
            visit(at, matched_in[at], matched_from[at]);
            matched_in[at] = 0;
            matched_from[at] = 0;
        }
    }
}

/// The stamp after `stamp`, clearing `marks` when the stamps run out (0 means "never").
fn next_stamp(stamp: u32, marks: &mut [u32]) -> u32 {
    if stamp == u32::MAX {
        marks.fill(0);
        1
    } else {
        stamp + 1
    }
}

/// Sorts each group and drops repeated items, in place.
fn dedup_groups(groups: &mut Grouped<u32>) {
    let Grouped { starts, items } = groups;
    let mut kept = 0;
    for key in 0..starts.len().saturating_sub(1) {
        let (from, to) = (starts[key], starts[key + 1]);
        starts[key] = kept;
        items[from..to].sort_unstable();
        let mut last = None;
        for at in from..to {
            if last != Some(items[at]) {
                last = Some(items[at]);
                items[kept] = items[at];
                kept += 1;
            }
        }
    }
    if let Some(end) = starts.last_mut() {
        *end = kept;
    }
    items.truncate(kept);
    items.shrink_to_fit();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_placed_in_order_and_deduplicated() {
        let entries = [(2, 7u32), (0, 3), (2, 1), (2, 7), (0, 3), (3, 9)];
        let mut groups = Grouped::from_entries(4, || entries.iter().copied());
        assert_eq!(groups.get(0), &[3, 3]);
        assert_eq!(groups.get(1), &[] as &[u32]);
        assert_eq!(groups.get(2), &[7, 1, 7]);
        assert_eq!(groups.get(4), &[] as &[u32]);
        dedup_groups(&mut groups);
        assert_eq!(groups.starts, vec![0, 1, 1, 3, 4]);
        assert_eq!(groups.items, vec![3, 1, 7, 9]);
    }

    /// A small random generator (xorshift), so that the test needs no dependency.
    struct Random(u64);

    impl Random {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// Every row against counting sentence by sentence: a sentence of `a` counts in `b` when
    /// some sentence of `b` is in a class EQ to its own, either way round as listed.
    #[test]
    fn rows_count_what_counting_sentence_by_sentence_counts() {
        let mut random = Random(0x9e37_79b9_7f4a_7c15);
        for _ in 0..300 {
            let documents = 1 + random.below(6) as usize;
            let class_count = 1 + random.below(6) as u32;
            // Sentence positions in reading order, each with its document and class.
            let mut sentences: Vec<(usize, u32)> = Vec::new();
            for doc in 0..documents {
                for _ in 0..random.below(6) {
                    sentences.push((doc, random.below(u64::from(class_count)) as u32));
                }
            }
            let owner: Vec<usize> = sentences.iter().map(|&(doc, _)| doc).collect();
            let members: Vec<Vec<u32>> = (0..class_count)
                .map(|c| {
                    (0..sentences.len() as u32)
                        .filter(|&p| sentences[p as usize].1 == c)
                        .collect()
                })
                .collect();
            let eq_pairs: Vec<(u32, u32)> = (0..random.below(8))
                .map(|_| {
                    let a = random.below(u64::from(class_count)) as u32;
                    (a, random.below(u64::from(class_count)) as u32)
                })
                .collect();
            let shared = SharedSentences::from_members(
                class_count as usize,
                |c| &members[c as usize],
                &owner,
                documents,
                &eq_pairs,
            );
            let eq = |x: u32, y: u32| eq_pairs.contains(&(x, y)) || eq_pairs.contains(&(y, x));
            let count = |a: usize, b: usize| -> u32 {
                sentences
                    .iter()
                    .filter(|&&(doc, class)| {
                        doc == a
                            && sentences
                                .iter()
                                .any(|&(other, partner)| other == b && eq(class, partner))
                    })
                    .count() as u32
            };
            let mut scratch = shared.scratch();
            for a in 0..documents {
                let mut row = Vec::new();
                shared.row(a, &mut scratch, |b, in_b, from_b| {
                    row.push((b, in_b, from_b))
                });
                let expected: Vec<(usize, u32, u32)> = (0..documents)
                    .filter(|&b| b != a && count(a, b) > 0)
                    .map(|b| (b, count(a, b), count(b, a)))
                    .collect();
                assert_eq!(row, expected, "document {a}, EQ class pairs {eq_pairs:?}");
            }
        }
    }
}
