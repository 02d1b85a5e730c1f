//! An in-memory [`ModelView`] built from literal values: the thesis's worked examples give their
//! correlation factors directly (Tables 3.3 and 3.4), and tests inject them through this.

use rustc_hash::FxHashMap;

use super::{ModelView, TermId};
use crate::model::verdict::StoredVerdict;
use crate::model::wordnet::Lexicon;

/// Terms, symmetric correlation factors and 4-gram counts given by hand, and optionally WordNet
/// relations and a verdict.
#[derive(Clone, Debug, Default)]
pub struct TableModel {
    ids: FxHashMap<String, TermId>,
    rows: Vec<Vec<(TermId, f32)>>,
    fourgrams: FxHashMap<[char; 4], u32>,
    lexicon: Option<Lexicon>,
    verdict: Option<StoredVerdict>,
}

impl TableModel {
    pub fn new() -> Self {
        TableModel::default()
    }

    /// The id of `term`, adding it if new.
    pub fn add_term(&mut self, term: &str) -> TermId {
        if let Some(&id) = self.ids.get(term) {
            return id;
        }
        let id = self.rows.len() as TermId;
        self.ids.insert(term.to_string(), id);
        self.rows.push(Vec::new());
        id
    }

    /// Sets c(a, b) = c(b, a) = `c` (a value of 0 removes the pair).
    pub fn set_correlation(&mut self, a: &str, b: &str, c: f32) {
        let (a, b) = (self.add_term(a), self.add_term(b));
        if a == b {
            return;
        }
        for (from, to) in [(a, b), (b, a)] {
            let row = &mut self.rows[from as usize];
            row.retain(|&(t, _)| t != to);
            if c > 0.0 {
                row.push((to, c));
                row.sort_by_key(|&(t, _)| t);
            }
        }
    }

    /// Builder form of [`TableModel::set_correlation`].
    pub fn with_correlation(mut self, a: &str, b: &str, c: f32) -> Self {
        self.set_correlation(a, b, c);
        self
    }

    /// Adds WordNet relations ([`crate::model::wordnet`]).
    pub fn with_lexicon(mut self, lexicon: Lexicon) -> Self {
        self.lexicon = Some(lexicon);
        self
    }

    /// Adds a stored verdict ([`crate::model::verdict`]).
    pub fn with_verdict(mut self, verdict: StoredVerdict) -> Self {
        self.verdict = Some(verdict);
        self
    }

    /// Sets how often a 4-gram occurs in the (imagined) reference collection.
    pub fn set_fourgram(&mut self, gram: &str, count: u32) {
        let chars: Vec<char> = gram.chars().collect();
        if let [a, b, c, d] = chars[..] {
            self.fourgrams.insert([a, b, c, d], count);
        }
    }

    /// c(a, b) by id: 1 for the same term, the stored value, else 0.
    pub fn correlation(&self, a: TermId, b: TermId) -> f32 {
        if a == b {
            return 1.0;
        }
        self.rows
            .get(a as usize)
            .and_then(|row| row.iter().find(|&&(t, _)| t == b))
            .map_or(0.0, |&(_, c)| c)
    }
}

impl ModelView for TableModel {
    fn term_id(&self, term: &str) -> Option<TermId> {
        self.ids.get(term).copied()
    }

    fn vocabulary_size(&self) -> u32 {
        self.rows.len() as u32
    }

    fn correlates(&self, term: TermId, out: &mut Vec<(TermId, f32)>) {
        if let Some(row) = self.rows.get(term as usize) {
            out.extend_from_slice(row);
        }
    }

    fn fourgram_count(&self, gram: [char; 4]) -> u32 {
        self.fourgrams.get(&gram).copied().unwrap_or(0)
    }

    fn lexicon(&self) -> Option<&Lexicon> {
        self.lexicon.as_ref()
    }

    fn verdict(&self) -> Option<&StoredVerdict> {
        self.verdict.as_ref()
    }
}
