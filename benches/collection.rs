//! Collection detectors on a synthetic collection (no data needed): 2,000 documents of ten
//! eight-word sentences over a 5,000-word vocabulary, every tenth document made of sentences
//! copied from earlier ones. `cargo bench --no-default-features --bench collection`.
//! Real-data rates are in BENCHMARKS.md (scripts/bench_collection.sh).

use simdoc::collection::{Collection, Method, without_job};

fn main() {
    divan::main();
}

/// SplitMix64, for a collection that is the same on every run.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn synthetic(documents: usize) -> Collection {
    let mut state = 42;
    let mut docs: Vec<Vec<Vec<String>>> = Vec::with_capacity(documents);
    for i in 0..documents {
        let doc = if i % 10 == 9 {
            (0..5)
                .map(|_| {
                    let from = (next(&mut state) as usize) % i;
                    let sentences = &docs[from];
                    sentences[(next(&mut state) as usize) % sentences.len()].clone()
                })
                .collect()
        } else {
            (0..10)
                .map(|_| {
                    (0..8)
                        .map(|_| format!("w{}", next(&mut state) % 5_000))
                        .collect()
                })
                .collect()
        };
        docs.push(doc);
    }
    Collection::from_terms(Vec::new(), docs, Vec::new())
}

#[divan::bench(args = ["ffp", "codet", "imatch", "simhash", "dsc", "qsign", "roul"], sample_count = 5)]
fn detect(bencher: divan::Bencher, name: &str) {
    let collection = synthetic(2_000);
    let method = Method::all_defaults()
        .into_iter()
        .find(|m| m.name() == name)
        .expect("a known method");
    bencher
        .bench_local(|| without_job(|job| method.detect(&collection, job)).expect("not cancelled"));
}
