//! Capped partners ([`simdoc::similarity::partners`]) against every pair: on templated lines
//! long enough that the fuzzy matcher's search stops early, each sentence keeps partners
//! scoring exactly as its best ones among all pairs, and what it keeps is a subset of them; in
//! a comparison, a collection, and a document against a pool of sources (per source).

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use simdoc::compare::Preset;
use simdoc::compare::{CompareOptions, PreparedPair};
use simdoc::document::{Document, SourceFormat, parse_text};
use simdoc::similarity::fuzzy::FuzzyMatcher;
use simdoc::similarity::table::TableModel;
use simdoc::similarity::{
    NeededPairs, Neighbours, PARTNERS_KEPT, PartnersKept, PreparedDoc, ScoredPair, ScoringRequest,
    SentenceMatcher,
};
use simdoc::sources::Attribution;

/// A small deterministic generator (xorshift), so that each case is the same on every run.
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn word(i: usize) -> String {
    format!("zq{i}x")
}

/// `lines` lines from three templates of four words, each with one or two slots (a word of its
/// own, "number" `i`, and for half of them one of two words), and now and then a line of
/// random words.
fn templated(lines: usize, draw: &mut Draw) -> String {
    let templates = [[0, 1, 2, 3], [4, 5, 6, 7], [0, 5, 8, 9]];
    (0..lines)
        .map(|i| {
            if draw.below(20) == 0 {
                let words: Vec<String> = (0..5).map(|_| word(draw.below(30))).collect();
                return format!("{}.\n\n", words.join(" "));
            }
            let mut words: Vec<String> =
                templates[draw.below(3)].iter().map(|&w| word(w)).collect();
            words.push(format!("qn{i}x"));
            // Half the lines fill a second slot from two words: partners then score 5/6, 4/5
            // or 4/6 by the smaller Sim, and the best are not every partner alike.
            if draw.below(2) == 0 {
                words.push(word(10 + draw.below(2)));
            }
            format!("{}.\n\n", words.join(" "))
        })
        .collect()
}

/// Correlations among the template words, so that partners also touch through correlates.
fn model() -> TableModel {
    let mut model = TableModel::new();
    for i in 0..30 {
        model.add_term(&word(i));
    }
    for (a, b, c) in [
        (0, 4, 0.6),
        (1, 5, 0.3),
        (2, 8, 0.8),
        (3, 9, 0.5),
        (10, 11, 0.7),
    ] {
        model.set_correlation(&word(a), &word(b), c);
    }
    model
}

fn prepared(left: &str, right: &str, model: &TableModel) -> PreparedPair {
    let preset = Preset::MEASURED;
    let options = CompareOptions {
        refine: preset.refine,
        rules: preset.rules,
        ..CompareOptions::default()
    };
    let left = parse_text(left, "a.txt", SourceFormat::Text);
    let right = parse_text(right, "b.txt", SourceFormat::Text);
    PreparedPair::new(&left, &right, model, &options)
}

/// Per sentence of one side, the smaller Sims of its pairs at the floor both ways, best first.
fn best_per_sentence(pairs: &[ScoredPair], floor: f64, side: usize, len: usize) -> Vec<Vec<f64>> {
    let mut best = vec![Vec::new(); len];
    for pair in pairs.iter().filter(|p| p.min_sim() >= floor) {
        let own = if side == 0 { pair.left } else { pair.right };
        best[own as usize].push(pair.min_sim());
    }
    for scores in &mut best {
        scores.sort_unstable_by(|a, b| b.total_cmp(a));
    }
    best
}

/// Every kept pair is a pair of `all` with the same Sims, and each sentence's `kept` best
/// smaller Sims are those of `all`.
fn assert_best_kept(kept: &[ScoredPair], all: &[ScoredPair], floor: f64, lens: [usize; 2]) {
    for pair in kept {
        let at = all
            .binary_search_by_key(&(pair.left, pair.right), |p| (p.left, p.right))
            .unwrap_or_else(|_| panic!("{pair:?} is not among all pairs"));
        assert_eq!((all[at].sim_lr, all[at].sim_rl), (pair.sim_lr, pair.sim_rl));
    }
    for (side, &len) in lens.iter().enumerate() {
        let got = best_per_sentence(kept, floor, side, len);
        let want = best_per_sentence(all, floor, side, len);
        for (sentence, (got, want)) in got.iter().zip(&want).enumerate() {
            let top = want.len().min(PARTNERS_KEPT);
            assert_eq!(
                got.get(..top),
                Some(&want[..top]),
                "side {side}, sentence {sentence}: {} partners kept of {}",
                got.len(),
                want.len()
            );
        }
    }
}

#[test]
fn templated_lines_keep_each_sentences_best_partners() {
    let model = model();
    let never = AtomicBool::new(false);
    let floor = 0.4;
    for seed in [7u64, 1_234_567, 99] {
        let mut draw = Draw(seed);
        // Over 1,024 lines share each template's words: the search stops early.
        let pair = prepared(
            &templated(1_300, &mut draw),
            &templated(1_100, &mut draw),
            &model,
        );
        let lens = [pair.left.sentences.len(), pair.right.sentences.len()];
        let neighbours = [Neighbours::in_order(lens[0]), Neighbours::in_order(lens[1])];
        let needed = NeededPairs::WithOneWay {
            left: &neighbours[0],
            right: &neighbours[1],
        };
        let matcher = FuzzyMatcher::THESIS;
        let request = ScoringRequest {
            left: &pair.left,
            right: &pair.right,
            model: &model,
            floor,
            rules: &pair.rules,
        };
        // Every pair at the floor one way or both: the one-way pairs a capped search keeps
        // depend on the candidates it met (the neighbour test of `needed`), and are pairs at
        // the floor with their Sims.
        let mut all = matcher
            .score_pairs(&request, &never)
            .expect("not cancelled");
        all.sort_unstable_by_key(|p| (p.left, p.right));
        let capped = matcher
            .score_capped_pairs(&request, needed, PartnersKept::best(PARTNERS_KEPT), &never)
            .expect("not cancelled");
        assert_best_kept(&capped.pairs, &all, floor, lens);
        let both_ways =
            |pairs: &[ScoredPair]| pairs.iter().filter(|p| p.min_sim() >= floor).count();
        assert!(
            both_ways(&capped.pairs) <= PARTNERS_KEPT * (lens[0] + lens[1]),
            "{} pairs kept",
            both_ways(&capped.pairs)
        );
        assert!(
            both_ways(&all) > 20 * both_ways(&capped.pairs),
            "seed {seed}: the cap applied: {} of {} pairs kept, {} sentences",
            both_ways(&capped.pairs),
            both_ways(&all),
            lens[0]
        );
        // Every sentence with more partners than it keeps is reported.
        for (side, &len) in lens.iter().enumerate() {
            let want = best_per_sentence(&all, floor, side, len);
            for (sentence, scores) in want.iter().enumerate() {
                if scores.len() > PARTNERS_KEPT {
                    assert!(
                        capped.capped[side]
                            .binary_search(&(sentence as u32))
                            .is_ok(),
                        "side {side}, sentence {sentence} is not reported"
                    );
                }
            }
        }
    }
}

#[test]
fn a_collection_of_templated_lines_keeps_each_sentences_best_partners() {
    let model = model();
    let never = AtomicBool::new(false);
    let floor = 0.4;
    let mut draw = Draw(42);
    let pair = prepared(&templated(1_500, &mut draw), "", &model);
    let doc: &PreparedDoc = &pair.left;
    let len = doc.sentences.len();
    let matcher = FuzzyMatcher::THESIS;
    let request = ScoringRequest::within(doc, &model, floor, &pair.rules);
    let mut all = matcher
        .pairs_within(&request, |p| Some(*p), &never)
        .expect("not cancelled");
    all.sort_unstable_by_key(|p| (p.left, p.right));
    let kept = 5;
    let (mut capped, capped_sentences) = matcher
        .pairs_within_capped(&request, kept, |p| Some(*p), &never)
        .expect("not cancelled");
    capped.sort_unstable_by_key(|p| (p.left, p.right));
    capped.dedup_by_key(|p| (p.left, p.right));
    for p in &capped {
        let at = all
            .binary_search_by_key(&(p.left, p.right), |q| (q.left, q.right))
            .expect("a kept pair is a pair");
        assert_eq!((all[at].sim_lr, all[at].sim_rl), (p.sim_lr, p.sim_rl));
    }
    // Each sentence's best `kept` smaller Sims, from its own side (its search).
    let got = best_per_sentence(&capped, floor, 0, len);
    let want = best_per_sentence(&all, floor, 0, len);
    for (sentence, (got, want)) in got.iter().zip(&want).enumerate() {
        let top = want.len().min(kept);
        assert_eq!(got.get(..top), Some(&want[..top]), "sentence {sentence}");
        if want.len() > kept {
            assert!(capped_sentences.binary_search(&(sentence as u32)).is_ok());
        }
    }
    assert!(
        all.len() > 20 * capped.len(),
        "the cap applied: {} of {} pairs kept, {len} sentences",
        capped.len(),
        all.len()
    );
}

/// Per sentence of one side and source of the right side (`group` says which), the best of a
/// Sim (`sim`) over the pairs.
fn best_per_source(
    pairs: &[ScoredPair],
    side: usize,
    group: impl Fn(u32) -> usize,
    sim: impl Fn(&ScoredPair) -> f64,
) -> BTreeMap<(u32, usize), f64> {
    let mut best = BTreeMap::new();
    for pair in pairs {
        let key = if side == 0 {
            (pair.left, group(pair.right))
        } else {
            (pair.right, 0)
        };
        let slot = best.entry(key).or_insert(f64::MIN);
        *slot = sim(pair).max(*slot);
    }
    best
}

#[test]
fn a_templated_document_keeps_its_best_partners_in_each_source() {
    let model = model();
    let never = AtomicBool::new(false);
    let floor = 0.4;
    let mut draw = Draw(5);
    // Sources of template lines, one of random words, and one long enough that the search
    // stops early in it; the pool holds them one after another.
    let sources: Vec<String> = [1_200, 300, 0, 1_100]
        .into_iter()
        .map(|lines| {
            if lines == 0 {
                (0..200)
                    .map(|_| {
                        format!(
                            "{} {} {}.\n\n",
                            word(12 + draw.below(18)),
                            word(13),
                            word(20)
                        )
                    })
                    .collect()
            } else {
                templated(lines, &mut draw)
            }
        })
        .collect();
    let pair = prepared(&templated(1_300, &mut draw), &sources.concat(), &model);
    let mut starts = vec![0];
    for text in &sources {
        let source = parse_text(text, "s.txt", SourceFormat::Text);
        starts.push(starts[starts.len() - 1] + source.sentences.len());
    }
    let lens = [pair.left.sentences.len(), pair.right.sentences.len()];
    assert_eq!(
        starts.last(),
        Some(&lens[1]),
        "the pool is the sources in turn"
    );
    let group = |j: u32| starts.partition_point(|&s| s <= j as usize) - 1;
    let matcher = FuzzyMatcher::THESIS;
    let request = ScoringRequest {
        left: &pair.left,
        right: &pair.right,
        model: &model,
        floor,
        rules: &pair.rules,
    };
    let mut all = matcher
        .score_pairs(&request, &never)
        .expect("not cancelled");
    all.sort_unstable_by_key(|p| (p.left, p.right));
    let capped = matcher
        .score_capped_per_source(&request, PartnersKept::best(PARTNERS_KEPT), &starts, &never)
        .expect("not cancelled");
    for p in &capped.pairs {
        let at = all
            .binary_search_by_key(&(p.left, p.right), |q| (q.left, q.right))
            .unwrap_or_else(|_| panic!("{p:?} is not among all pairs"));
        assert_eq!((all[at].sim_lr, all[at].sim_rl), (p.sim_lr, p.sim_rl));
    }
    // What the listing reads: a document sentence's best Sim into each source and its best
    // smaller Sim there, a source sentence's best Sim into the document.
    let into_source = |p: &ScoredPair| p.sim_lr;
    let smaller = |p: &ScoredPair| p.min_sim();
    let into_document = |p: &ScoredPair| p.sim_rl;
    for (side, sim) in [
        (0, &into_source as &dyn Fn(&ScoredPair) -> f64),
        (0, &smaller),
    ] {
        assert_eq!(
            best_per_source(&capped.pairs, side, group, sim),
            best_per_source(&all, side, group, sim),
        );
    }
    assert_eq!(
        best_per_source(&capped.pairs, 1, group, into_document),
        best_per_source(&all, 1, group, into_document),
    );
    // Each document sentence's best smaller Sims in each source are those of all pairs.
    for source in 0..sources.len() {
        let in_source = |pairs: &[ScoredPair]| -> Vec<ScoredPair> {
            pairs
                .iter()
                .filter(|p| group(p.right) == source)
                .copied()
                .collect()
        };
        let got = best_per_sentence(&in_source(&capped.pairs), floor, 0, lens[0]);
        let want = best_per_sentence(&in_source(&all), floor, 0, lens[0]);
        for (sentence, (got, want)) in got.iter().zip(&want).enumerate() {
            let top = want.len().min(PARTNERS_KEPT);
            assert_eq!(
                got.get(..top),
                Some(&want[..top]),
                "source {source}, sentence {sentence}"
            );
            if want.len() > PARTNERS_KEPT {
                assert!(capped.capped[0].binary_search(&(sentence as u32)).is_ok());
            }
        }
    }
    // At most the best both ways and by own Sim, per sentence and source, and the pairs
    // beside each.
    let bound = 5 * 2 * PARTNERS_KEPT * (lens[0] * sources.len() + lens[1]);
    assert!(
        capped.pairs.len() <= bound,
        "{} pairs kept",
        capped.pairs.len()
    );
    assert!(
        all.len() > 10 * capped.pairs.len(),
        "the cap applied: {} of {} pairs kept",
        capped.pairs.len(),
        all.len()
    );
}

#[test]
fn sources_list_the_same_figures_with_partners_capped() {
    let model = model();
    let never = AtomicBool::new(false);
    let mut draw = Draw(11);
    let document = parse_text(&templated(1_200, &mut draw), "doc.txt", SourceFormat::Text);
    let sources: Vec<Document> = [1_100, 400, 1_000]
        .into_iter()
        .map(|lines| parse_text(&templated(lines, &mut draw), "s.txt", SourceFormat::Text))
        .collect();
    let preset = Preset::MEASURED;
    let run = |one_to_two: bool, partners_kept: usize| {
        let options = CompareOptions {
            refine: preset.refine,
            rules: preset.rules,
            one_to_two,
            partners_kept,
            ..CompareOptions::default()
        };
        simdoc::sources::attribute(
            &document,
            &sources,
            &model,
            &options,
            &preset.thresholds,
            &never,
        )
        .expect("not cancelled")
    };
    let figures = |a: &Attribution| -> Vec<(usize, f64, f64, usize)> {
        a.sources
            .iter()
            .map(|s| (s.source, s.containment, s.used, s.matched))
            .collect()
    };
    // Without one-to-two matches, what the listing reads is each sentence's best partner in
    // each source: the same sources, figures, and each sentence found in the same source at
    // the same Sim (the source sentence may differ among sentences scoring alike).
    let (capped, all) = (run(false, PARTNERS_KEPT), run(false, 0));
    assert!(all.partners_capped.is_empty());
    assert!(
        capped.partners_capped.document > 1_000,
        "{:?}",
        capped.partners_capped
    );
    assert_eq!(capped.counted, all.counted);
    assert_eq!(figures(&capped), figures(&all));
    let found = |a: &Attribution| -> Vec<Option<(usize, f64)>> {
        a.sentences
            .iter()
            .map(|s| s.map(|s| (s.source, s.sim)))
            .collect()
    };
    assert_eq!(found(&capped), found(&all));
    for (c, a) in capped.sources.iter().zip(&all.sources) {
        let listed = |s: &simdoc::sources::SourceShare| -> Vec<(u32, f64)> {
            s.sentences.iter().map(|m| (m.sentence, m.sim)).collect()
        };
        assert_eq!(listed(c), listed(a), "source {}", c.source);
    }
    // One-to-two matches are looked for among the partners kept and the sentences beside them:
    // a join of two lesser partners may be missed, so the shares are at most those of every
    // pair, and close.
    let (capped, all) = (run(true, PARTNERS_KEPT), run(true, 0));
    let (capped, all) = (figures(&capped), figures(&all));
    assert_eq!(capped.len(), all.len());
    for (c, a) in capped.iter().zip(&all) {
        assert_eq!(c.0, a.0);
        for (c, a) in [(c.1, a.1), (c.2, a.2)] {
            assert!(c <= a + 1e-12 && a - c < 0.01, "{c} against {a}");
        }
    }
}
