//! One document against a pool of sources, judged against chance: the comparison of the
//! document with the pool joined into one text, cut by source.
//!
//! A comparison of two documents counts as evidence only the passages unlikely by chance among
//! all the pairs of sentences the two could form ([`crate::compare::chance`]). Against a pool
//! the search is the same, and so is the question, only larger: a sentence that shares a few
//! words with some sentence of one source in a thousand is what a thousand sources make likely.
//! So the document is searched against every source's sentences at once (one null model of the
//! document and the pool, one set of seeds and links, none across two sources), and each
//! source's links become the [`Comparison`] of the document with that source, its passages
//! judged with E-values over every source searched, as BLAST reports a hit against a database
//! (Altschul et al. 1997). A pool of one source is then exactly `compare` of the two documents.
//!
//! Scoring sentence pairs by Sims alone (the measured and thesis presets) lets chance grow with
//! the pool: against 1,000 unrelated articles, a quarter of a news text was attributed to some
//! source. Judged against chance, an unrelated text is attributed nothing however large the
//! pool; what it counts is what `compare` against the pool joined into one file counts.

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;

use super::{Best, SentenceMatch, SourceId, SourceIndex, SourceShare, pair};
use crate::compare::chance::null::reference_rates;
use crate::compare::chance::search::{SearchRequest, search};
use crate::compare::passages::PassageOptions;
use crate::compare::{CompareOptions, Comparison};
use crate::document::Document;
use crate::similarity::{Cancelled, ModelView, PreparedDoc, ScoredPair, TermId, Thresholds};

/// What the document needs beside the index: its preparation and counted sentences.
pub(super) struct Checked<'a> {
    pub document: &'a Document,
    pub prepared: &'a PreparedDoc,
    pub counted: &'a [bool],
    pub words: &'a std::sync::Arc<[u32]>,
}

/// Each source holding evidence of the document, with its share and each document sentence's
/// best match in it.
pub(super) type Shares = Vec<(SourceShare, Vec<Best>)>;

/// Each source holding evidence of the document (see the module docs); and how many class
/// pairs were listed only in part.
pub(super) fn shares(
    index: &SourceIndex,
    checked: &Checked,
    model: &dyn ModelView,
    thresholds: &Thresholds,
    cancel: &AtomicBool,
) -> Result<(Shares, usize), Cancelled> {
    let options = index.options;
    let Some(chance) = options.chance_search else {
        return Ok((Vec::new(), 0));
    };
    let doc_classes = crate::compare::SentenceClasses::of(checked.prepared);
    let pool_classes = index.pool_classes();
    let reference = reference_rates(model, &index.vocabulary);
    let found = search(
        &SearchRequest {
            docs: [checked.prepared, &index.all],
            classes: [&doc_classes, pool_classes],
            model,
            reference: reference
                .as_ref()
                .map(|r| r as &(dyn Fn(TermId) -> f64 + Sync)),
            method: options.method,
            rules: &options.rules,
            options: &chance,
            right_parts: &index.starts[..index.sources.len()],
        },
        cancel,
    )?;
    crate::similarity::check(cancel)?;
    let evidence = found
        .evidence
        .split_right(&index.starts[..index.sources.len()]);
    let mut pairs = found.pairs;
    pairs.sort_unstable_by_key(|p| (index.owner(p.right as usize), p.left, p.right));
    let mut by_source: Vec<(SourceId, Vec<ScoredPair>)> = Vec::new();
    for group in
        pairs.chunk_by(|x, y| index.owner(x.right as usize) == index.owner(y.right as usize))
    {
        by_source.push((index.owner(group[0].right as usize), group.to_vec()));
    }
    drop(pairs);
    // Judged against chance a comparison looks for no one-to-two matches (the chains step on
    // one side instead), as `compare` does.
    let pair_options = CompareOptions {
        one_to_two: false,
        ..options
    };
    let doc_has_boilerplate = checked.document.boilerplate_mask().iter().any(|&b| b);
    let with_evidence: Vec<_> = by_source
        .into_iter()
        .filter_map(|(source, pairs)| {
            let at = evidence.binary_search_by_key(&source, |(s, _)| *s).ok()?;
            Some((source, pairs, evidence[at].1.clone()))
        })
        .collect();
    let shares = with_evidence
        .into_par_iter()
        .filter_map(|(source, pairs, evidence)| {
            let context = pair::PairContext {
                document: checked.document,
                prepared: checked.prepared,
                doc_counted: checked.counted,
                source: &index.sources[source],
                all: &index.all,
                range: index.starts[source]..index.starts[source + 1],
                source_counted: &index.counted,
                propagate: !options.include_boilerplate
                    && (doc_has_boilerplate || index.has_boilerplate[source]),
                doc_words: checked.words,
            };
            let mut comparison = context.comparison(pairs, model, &pair_options);
            comparison.link_surprises = Some(evidence);
            share_of(source, &comparison, thresholds)
        })
        .collect();
    Ok((shares, found.capped.len()))
}

/// One source's share of the document judged against chance: its containment and use as the
/// pair's figures count them (only evidence), and each document sentence's best match among the
/// evidence. `None` when the source holds no evidence under `thresholds`.
fn share_of(
    source: SourceId,
    comparison: &Comparison,
    thresholds: &Thresholds,
) -> Option<(SourceShare, Vec<Best>)> {
    let matches: Vec<ScoredPair> = comparison.matches(thresholds).copied().collect();
    if matches.is_empty() {
        return None;
    }
    let figures = comparison.figures_given(&matches, thresholds);
    let (passages, _) = crate::compare::passages::passages_of(
        comparison,
        &matches,
        thresholds,
        PassageOptions {
            min_pairs: crate::compare::passages::default_min_pairs(true),
            ..PassageOptions::default()
        },
    );
    let mut best: Vec<Best> = vec![None; comparison.active[0].len()];
    for p in &matches {
        if let Some(slot) = best.get_mut(p.left as usize)
            && slot.is_none_or(|(sim, _, _)| p.sim_lr > sim)
        {
            *slot = Some((p.sim_lr, p.right, None));
        }
    }
    let sentences = best
        .iter()
        .enumerate()
        .filter_map(|(i, b)| {
            b.map(|(sim, source_sentence, joined_with)| SentenceMatch {
                sentence: i as u32,
                source_sentence,
                joined_with,
                sim,
            })
        })
        .collect();
    Some((
        SourceShare {
            source,
            containment: figures.containment[0],
            used: figures.containment[1],
            matched: figures.matched[0],
            sentences,
            passages,
        },
        best,
    ))
}
