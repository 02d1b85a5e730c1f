//! The per-document half of a detector on every core.
//!
//! Every detector but CoDet has two halves: a fingerprint of each document on its own (shingle
//! hashes, an I-Match key, a SimHash, a textual SimHash and an LSI projection), which needs
//! nothing but the document, and a pass in stream order that looks each fingerprint up among
//! the earlier ones and inserts it (buckets, a block index, an inverted index). The first half
//! is most of the work and runs here on every core; the second stays in stream order, so the
//! pairs found are the same as on one thread (`tests::the_same_as_one_thread`). CoDet has no
//! per-document half (its tree walk needs the documents before it); it reads a batch of walked
//! documents' similarities in parallel instead ([`super::codet`]'s `batch`).

use rayon::prelude::*;

use super::{Cancelled, DocId, Job};

/// Documents handed to the thread pool at a time: progress and cancellation are checked
/// between blocks, so a block stays a fraction of a second even for long documents.
const BLOCK: usize = 512;

/// `fingerprint(doc)` for every document `0..total`, in order, computed on every core, with
/// `stage` reported to the job before each block.
pub fn per_document<T: Send>(
    total: usize,
    stage: &'static str,
    job: &mut Job<'_>,
    fingerprint: impl Fn(DocId) -> T + Sync,
) -> Result<Vec<T>, Cancelled> {
    let mut out = Vec::with_capacity(total);
    for start in (0..total).step_by(BLOCK) {
        job.step(stage, start, total)?;
        let end = (start + BLOCK).min(total);
        out.par_extend((start..end).into_par_iter().map(&fingerprint));
    }
    job.step(stage, total, total)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};

    use super::super::prepare::numbers;
    use super::super::{Collection, Method, Progress, without_job};
    use super::*;

    /// 1,500 documents of 2-6 sentences drawn from 400 words (a fixed generator), every fifth
    /// one a copy of an earlier document with one sentence dropped and one word changed: near
    /// duplicates and containments across several blocks.
    fn collection() -> Collection {
        let mut next = numbers(0x9e37_79b9_7f4a_7c15u64);
        let mut docs: Vec<Vec<Vec<String>>> = Vec::new();
        for d in 0..1500 {
            if d % 5 == 4 {
                let mut copy = docs[next(d as u64) as usize].clone();
                if copy.len() > 2 {
                    copy.remove(next(copy.len() as u64) as usize);
                }
                let sentence = next(copy.len() as u64) as usize;
                copy[sentence][0] = format!("w{}", next(400));
                docs.push(copy);
                continue;
            }
            let sentences = 2 + next(5);
            docs.push(
                (0..sentences)
                    .map(|_| {
                        (0..6 + next(10))
                            .map(|_| format!("w{}", next(400)))
                            .collect()
                    })
                    .collect(),
            );
        }
        Collection::from_terms(vec![], docs, vec![])
    }

    #[test]
    fn the_same_as_one_thread() {
        let collection = collection();
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool");
            pool.install(|| {
                Method::all_defaults()
                    .iter()
                    .map(|method| without_job(|job| method.detect(&collection, job)))
                    .collect::<Vec<_>>()
            })
        };
        let one = run(1);
        let found: usize = one
            .iter()
            .map(|d| d.as_ref().map_or(0, |d| d.pairs.len()))
            .sum();
        assert!(found > 300, "the copies are found: {found} pairs");
        assert_eq!(one, run(4));
    }

    #[test]
    fn results_keep_the_stream_order_across_blocks() {
        let total = BLOCK * 2 + 7;
        let out = without_job(|job| per_document(total, "t", job, |d| d * 3)).expect("runs");
        assert_eq!(out, (0..total).map(|d| d * 3).collect::<Vec<_>>());
    }

    #[test]
    fn progress_is_reported_per_block_and_cancel_stops_before_the_next() {
        let cancel = AtomicBool::new(false);
        let mut seen = Vec::new();
        let result = {
            let mut record = |p: Progress| {
                seen.push(p.done);
                cancel.store(p.done >= BLOCK, Ordering::Relaxed);
            };
            let mut job = Job::new(&mut record, &cancel);
            per_document(BLOCK * 3, "t", &mut job, |d| d)
        };
        assert_eq!(result, Err(Cancelled));
        assert_eq!(seen, vec![0, BLOCK]);
    }
}
