//! The reference model as the matchers read it: [`ModelView`] for [`ReferenceModel`]. Here,
//! beside the matchers, rather than in `model`, so that the model knows nothing of what reads it
//! (the layers depend downward only: similarity on model).

use super::{ModelView, TermId};
use crate::model::ReferenceModel;
use crate::model::sentence_rates::SentenceRates;
use crate::model::verdict::StoredVerdict;
use crate::model::wordnet::Lexicon;

impl ModelView for ReferenceModel {
    fn term_id(&self, term: &str) -> Option<TermId> {
        ReferenceModel::term_id(self, term)
    }

    fn vocabulary_size(&self) -> u32 {
        u32::try_from(self.term_count()).unwrap_or(u32::MAX)
    }

    fn correlates(&self, term: TermId, out: &mut Vec<(TermId, f32)>) {
        if (term as usize) < self.term_count() {
            out.extend(ReferenceModel::correlates(self, term));
        }
    }

    fn fourgram_count(&self, gram: [char; 4]) -> u32 {
        ReferenceModel::fourgram_count(self, gram)
    }

    fn has_document_rates(&self) -> bool {
        self.documents() > 0
    }

    fn document_rate(&self, term: TermId) -> f64 {
        let documents = self.documents().max(1) as f64;
        (f64::from(self.df(term)).max(0.5) / documents).min(1.0)
    }

    fn lexicon(&self) -> Option<&Lexicon> {
        ReferenceModel::lexicon(self)
    }

    fn verdict(&self) -> Option<&StoredVerdict> {
        ReferenceModel::verdict(self)
    }

    fn sentence_rates(&self) -> Option<&SentenceRates> {
        ReferenceModel::sentence_rates(self)
    }
}
