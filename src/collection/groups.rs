//! Duplicate groups: connected components of the duplicate relations.

use super::{Collection, DetectedPair, DocId};

/// Union-find with path halving.
struct DisjointSets {
    parent: Vec<usize>,
}

impl DisjointSets {
    fn new(n: usize) -> Self {
        DisjointSets {
            parent: (0..n).collect(),
        }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    fn union(&mut self, x: usize, y: usize) {
        let (rx, ry) = (self.find(x), self.find(y));
        if rx != ry {
            self.parent[rx.max(ry)] = rx.min(ry);
        }
    }
}

/// Every unordered pair of documents that share a group, as `(smaller, larger)`: how groups
/// are scored against ground-truth groups (precision and recall over pairs).
pub fn pairs_within_groups(groups: &[Vec<DocId>]) -> std::collections::HashSet<(DocId, DocId)> {
    let mut pairs = std::collections::HashSet::new();
    for group in groups {
        for (i, &x) in group.iter().enumerate() {
            for &y in &group[i + 1..] {
                pairs.insert((x.min(y), x.max(y)));
            }
        }
    }
    pairs
}

/// The groups of documents linked by duplicate relations ([`super::Relation::is_duplicate`]),
/// each of two or more. Each group starts with the document to keep: the longest
/// ([`super::PreparedDocument::length`]; Roul et al. step 11), ties to the earliest; the others
/// follow in stream order. Groups are sorted by their first member.
pub fn duplicate_groups(pairs: &[DetectedPair], collection: &Collection) -> Vec<Vec<DocId>> {
    let n = collection.len();
    let mut sets = DisjointSets::new(n);
    let mut linked = vec![false; n];
    for pair in pairs.iter().filter(|p| p.relation.is_duplicate()) {
        if pair.a < n && pair.b < n {
            sets.union(pair.a, pair.b);
            linked[pair.a] = true;
            linked[pair.b] = true;
        }
    }
    let mut by_root: Vec<Vec<DocId>> = vec![Vec::new(); n];
    for doc in (0..n).filter(|&d| linked[d]) {
        let root = sets.find(doc);
        by_root[root].push(doc);
    }
    let length = |d: DocId| collection.documents[d].length;
    let mut groups: Vec<Vec<DocId>> = by_root
        .into_iter()
        .filter(|g| g.len() > 1)
        .map(|mut group| {
            // Members are in stream order; the longest (earliest on ties) moves to the front.
            let keep = group
                .iter()
                .enumerate()
                .max_by(|&(i, &x), &(j, &y)| length(x).cmp(&length(y)).then(j.cmp(&i)))
                .map_or(0, |(i, _)| i);
            let kept = group.remove(keep);
            group.insert(0, kept);
            group
        })
        .collect();
    groups.sort();
    groups
}

/// Whether every document of `group` holds the same text once runs of whitespace count as one
/// space and letters are compared in lower case: what "identical" means in a report. A group of
/// duplicates ([`duplicate_groups`]) is only near-identical otherwise: two answers of 96 and 100
/// words, each 90% found in the other, are duplicates by their containment and not identical.
/// `text(d)` gives document `d`'s text; `false` when one is missing.
pub fn same_text<'t>(group: &[DocId], text: impl Fn(DocId) -> Option<&'t str>) -> bool {
    fn normalised(text: &str) -> impl Iterator<Item = char> + '_ {
        text.split_whitespace()
            .enumerate()
            .flat_map(|(k, word)| (k > 0).then_some(' ').into_iter().chain(word.chars()))
            .flat_map(char::to_lowercase)
    }
    let mut texts = group.iter().map(|&d| text(d));
    let Some(Some(first)) = texts.next() else {
        return false;
    };
    texts.all(|text| text.is_some_and(|t| normalised(t).eq(normalised(first))))
}

#[cfg(test)]
mod tests {
    #[test]
    fn same_text_ignores_whitespace_and_case_only() {
        use crate::document::{SourceFormat, parse_text};
        let doc = |t: &str| parse_text(t, "t.txt", SourceFormat::Text);
        let documents = [
            doc("The river flooded.  The town\nwas evacuated."),
            doc("the river flooded. The Town was   evacuated."),
            doc("The river flooded. The town was evacuated quickly."),
        ];
        let text = |d: usize| documents.get(d).map(|doc| doc.text.as_str());
        assert!(super::same_text(&[0, 1], text));
        assert!(!super::same_text(&[0, 1, 2], text));
        assert!(!super::same_text(&[0, 7], text));
    }

    use super::super::{Relation, prepare::words};
    use super::*;

    #[test]
    fn pairs_within_groups_are_unordered_and_distinct() {
        let pairs = pairs_within_groups(&[vec![5, 1, 3], vec![2, 4], vec![7]]);
        let mut sorted: Vec<_> = pairs.into_iter().collect();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![(1, 3), (1, 5), (2, 4), (3, 5)]);
        assert!(pairs_within_groups(&[]).is_empty());
    }

    #[test]
    fn groups_are_components_led_by_the_longest_document() {
        let docs = ["a", "a b c", "a b", "x", "y", "y z"]
            .iter()
            .map(|t| vec![words(t)])
            .collect();
        let c = Collection::from_terms(vec![], docs, vec![]);
        let pairs = vec![
            DetectedPair::new(0, 1, Relation::Duplicate, 1.0),
            DetectedPair::new(2, 0, Relation::ExactDuplicate, 1.0),
            DetectedPair::new(4, 5, Relation::TextualDuplicate, 1.0),
            DetectedPair::new(3, 4, Relation::Contains, 1.0),
        ];
        assert_eq!(
            duplicate_groups(&pairs, &c),
            vec![vec![1, 0, 2], vec![5, 4]]
        );
    }
}
