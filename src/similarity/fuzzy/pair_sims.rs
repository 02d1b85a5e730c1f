//! Both directional Sims of one pair of sentences under the rules ([`sentence_similarity`],
//! [`sentence_overlap`]), and the pair they make when one reaches the floor: what the
//! indexed search, brute force, the explanations and callers scoring a single pair all go
//! through. Apart from the matcher, which decides which pairs to score.

use super::rows::append_correlate_row;
use super::*;

/// Scratch space for one pair's aligned Sims: the alignment's table and the two sentences'
/// content terms in order.
#[derive(Default)]
pub(super) struct AlignScratch {
    dp: Vec<u32>,
    left: Vec<TermId>,
    right: Vec<TermId>,
}

/// The content terms of `sentence` in order (repeats kept), into `out`.
pub(super) fn content_sequence(sentence: &PreparedSentence, out: &mut Vec<TermId>) {
    let content = sentence.content();
    out.clear();
    out.extend(
        sentence
            .terms
            .iter()
            .copied()
            .filter(|t| content.binary_search(t).is_ok()),
    );
}

/// Both directional Sims of two sentences under `rules`: `None` for a pair the rules forbid; a
/// direction whose content terms miss the content floor counts 0 when stopwords take part.
/// `sets` computes the thesis's Sims of two term sets (its flag: content terms only); `c(l, r)`
/// relates a left term to a right term for [`Relate::Aligned`]. A pair whose content terms miss
/// the content floor both ways (or either way, with `both_ways_only`: only pairs reaching the
/// floor both ways are wanted) scores 0 both ways without its whole sets scored.
pub(super) fn sims_under_rules(
    left: &PreparedSentence,
    right: &PreparedSentence,
    rules: &MatchRules,
    c: &impl PairRelatedness,
    mut sets: impl FnMut(&[TermId], &[TermId], bool) -> (f64, f64),
    scratch: &mut AlignScratch,
    both_ways_only: bool,
) -> Option<(f64, f64)> {
    if !rules.may_match(left, right) {
        return None;
    }
    let stopwords = left.has_stopwords() || right.has_stopwords();
    let content = stopwords.then(|| match rules.relate {
        Relate::All => sets(left.content(), right.content(), true),
        Relate::Aligned => {
            content_sequence(left, &mut scratch.left);
            content_sequence(right, &mut scratch.right);
            aligned_sims(
                &scratch.left,
                left.content(),
                &scratch.right,
                right.content(),
                c,
                &mut scratch.dp,
            )
        }
    });
    // Both directions zeroed by the content floor (or one, when both are wanted): the whole
    // sets need no scoring.
    if content.is_some_and(|(lr, rl)| {
        let (lr_out, rl_out) = (lr < rules.content_floor, rl < rules.content_floor);
        (lr_out && rl_out) || (both_ways_only && (lr_out || rl_out))
    }) {
        return Some((0.0, 0.0));
    }
    let (mut lr, mut rl) = match rules.relate {
        Relate::All => sets(&left.set, &right.set, false),
        Relate::Aligned => aligned_sims(
            &left.terms,
            &left.set,
            &right.terms,
            &right.set,
            c,
            &mut scratch.dp,
        ),
    };
    if let Some((content_lr, content_rl)) = content {
        if content_lr < rules.content_floor {
            lr = 0.0;
        }
        if content_rl < rules.content_floor {
            rl = 0.0;
        }
    }
    Some((lr, rl))
}

/// c(l, r) from a map of sorted correlate rows of the left terms.
pub(super) fn correlation_in<'m>(
    rows: &'m FxHashMap<TermId, Vec<(TermId, f32)>>,
) -> impl Fn(TermId, TermId) -> f32 + 'm {
    move |l, r| lookup(rows.get(&l).map_or(&[][..], Vec::as_slice), l, r)
}

/// Both directional Sims of two prepared sentences under `rules`, straight from a model; 0 both
/// ways for a pair the rules forbid.
pub fn sentence_similarity(
    left: &PreparedSentence,
    right: &PreparedSentence,
    model: &dyn ModelView,
    rules: &MatchRules,
) -> (f64, f64) {
    if let Some(lexical) = FuzzyMatcher::THESIS.lexical(model, rules) {
        let c = WordsOf {
            lexical: &lexical,
            left,
            right,
        };
        return lexical_sims(left, right, rules, &c, &mut AlignScratch::default(), false)
            .unwrap_or((0.0, 0.0));
    }
    // Two sentences with the same terms: every term meets itself (c = 1), so its membership
    // (eq. 3.2) is 1 whatever else it relates to, and the Sims are the overlap's, bit for bit (a
    // product with a factor 0 is 0). Most links of a text against its revision are such pairs,
    // and reading their correlate rows was a tenth of comparing the two.
    if rules.relate == Relate::All && left.set == right.set && left.content() == right.content() {
        return sentence_overlap(left, right, rules);
    }
    correlated_sentence_similarity(left, right, model, rules)
}

/// [`sentence_similarity`] from the model's correlate rows, whatever the two sentences are.
pub(super) fn correlated_sentence_similarity(
    left: &PreparedSentence,
    right: &PreparedSentence,
    model: &dyn ModelView,
    rules: &MatchRules,
) -> (f64, f64) {
    let rows = SentenceRows::of(&left.set, model);
    let mut scratch = Vec::new();
    sims_under_rules(
        left,
        right,
        rules,
        &|l, r| lookup(rows.row(l).unwrap_or(&[]), l, r),
        |a, b, _| directional_sims(a, b, |w| rows.row(w), &mut scratch),
        &mut AlignScratch::default(),
        false,
    )
    .unwrap_or((0.0, 0.0))
}

/// The correlate rows of one sentence's terms, as [`correlate_rows`] keeps them (sorted, the
/// term itself and zero correlations left out), in one list: scoring one pair (a link of a
/// comparison judged against chance, an explained pair) reads a few terms' rows, and a hash map
/// with a list per term cost more to make than the scoring.
struct SentenceRows<'s> {
    /// The sentence's distinct terms, ascending.
    terms: &'s [TermId],
    /// `entries[starts[i]..starts[i + 1]]` is the row of `terms[i]`.
    starts: Vec<u32>,
    entries: Vec<(TermId, f32)>,
}

impl<'s> SentenceRows<'s> {
    /// The rows of `set` (distinct terms, ascending).
    fn of(set: &'s [TermId], model: &dyn ModelView) -> SentenceRows<'s> {
        let mut starts = Vec::with_capacity(set.len() + 1);
        let mut entries = Vec::new();
        starts.push(0);
        for &w in set {
            append_correlate_row(w, model, &|_| true, &mut entries);
            starts.push(entries.len() as u32);
        }
        SentenceRows {
            terms: set,
            starts,
            entries,
        }
    }

    /// The row of `w` (`None` for a term not of the sentence).
    fn row(&self, w: TermId) -> Option<&[(TermId, f32)]> {
        let i = self.terms.binary_search(&w).ok()?;
        Some(&self.entries[self.starts[i] as usize..self.starts[i + 1] as usize])
    }
}

/// Both directional Sims of two prepared sentences under `rules` with every correlation taken as
/// 0: the overlap method's scores (0 both ways for a pair the rules forbid).
pub fn sentence_overlap(
    left: &PreparedSentence,
    right: &PreparedSentence,
    rules: &MatchRules,
) -> (f64, f64) {
    let mut scratch = Vec::new();
    sims_under_rules(
        left,
        right,
        rules,
        &|_, _| 0.0,
        |a, b, _| directional_sims(a, b, |_| None, &mut scratch),
        &mut AlignScratch::default(),
        false,
    )
    .unwrap_or((0.0, 0.0))
}

/// The pair if the rules allow it and one of its directional Sims reaches the floor.
pub(super) fn kept(
    i: u32,
    j: u32,
    sims: Option<(f64, f64)>,
    floor: f64,
    left: &PreparedSentence,
    right: &PreparedSentence,
) -> Option<ScoredPair> {
    let (sim_lr, sim_rl) = sims?;
    (sim_lr >= floor || sim_rl >= floor)
        .then(|| ScoredPair::new(i, j, [sim_lr, sim_rl], left.terms == right.terms))
}
