//! How `compare` grows with the size of its inputs (BENCHMARKS.md, "Compare against input
//! size"):
//!
//! ```text
//! SIMDOC_DATA=../shared/data cargo run --release --no-default-features --example bench_scaling
//! ```
//!
//! For each size (1, 3, 10 and 20 MB; `-- 1 3` for others) a document of ordinary prose is made
//! of whole enwiki-2015 articles (reference/enwiki-2015/text/AA, in file order) and compared with
//! itself, as `simdoc compare a.txt a.txt` does: loading (reading, the hierarchy, sentence
//! splitting) and preparing (refining every sentence, both sides) are timed apart from scoring
//! (the fuzzy matcher, the measured preset, down to the default floor) and the figures. The
//! growth exponent between two sizes is log(t2 / t1) / log(s2 / s1): 1 is linear. CPU time of
//! the process is reported beside wall time, since the machine is shared, and the peak resident
//! memory from making the document to the figures (Linux).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use simdoc::compare::{CompareOptions, DEFAULT_FLOOR, PreparedPair};
use simdoc::corpus::read_entries;
use simdoc::document::{self, LoadOptions};
use simdoc::model::ReferenceModel;
use simdoc::similarity::{Method, Preset};

/// Whole articles of the enwiki files, in order, until `bytes` are reached.
fn prose(data: &Path, bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 100_000);
    'files: for i in 0..100 {
        let path = data.join(format!("reference/enwiki-2015/text/AA/wiki_{i:02}"));
        for entry in read_entries(&path, &LoadOptions::default()).expect("enwiki file") {
            if text.len() >= bytes {
                break 'files;
            }
            text.push_str(&entry.text);
            text.push_str("\n\n");
        }
    }
    text
}

/// This process's CPU time (user + system) so far.
fn cpu_time() -> Duration {
    // SAFETY: getrusage fills the zeroed struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// Makes the next [`peak_memory_mb`] the peak of what follows: hands freed memory back to the
/// system and resets the kernel's high-water mark of this process ("5" to
/// /proc/self/clear_refs, Linux).
fn reset_peak_memory() {
    // SAFETY: malloc_trim only returns free heap pages to the system.
    unsafe { libc::malloc_trim(0) };
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// This process's peak resident memory since [`reset_peak_memory`], in MB (VmHWM of
/// /proc/self/status; 0 where there is none).
fn peak_memory_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|kb| kb.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Wall and CPU time of `f`.
fn timed<T>(f: impl FnOnce() -> T) -> (T, [f64; 2]) {
    let (wall, cpu) = (Instant::now(), cpu_time());
    let out = f();
    (
        out,
        [
            wall.elapsed().as_secs_f64(),
            (cpu_time() - cpu).as_secs_f64(),
        ],
    )
}

struct Row {
    megabytes: f64,
    sentences: usize,
    load: [f64; 2],
    prepare: [f64; 2],
    compare: [f64; 2],
    pairs: usize,
    /// Peak resident memory from making the document to the figures.
    peak_mb: f64,
    /// Pairs at the floor before pruning: one way only, and both ways.
    at_floor: [usize; 2],
}

fn main() {
    let Some(data) = std::env::var_os("SIMDOC_DATA").map(PathBuf::from) else {
        eprintln!("set SIMDOC_DATA to the shared data folder");
        std::process::exit(2);
    };
    let sizes: Vec<f64> = {
        let given: Vec<f64> = std::env::args()
            .skip(1)
            .filter_map(|a| a.parse().ok())
            .collect();
        if given.is_empty() {
            vec![1.0, 3.0, 10.0, 20.0]
        } else {
            given
        }
    };
    let dir = std::env::temp_dir().join("simdoc-bench-scaling");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let model = ReferenceModel::embedded();
    let never = AtomicBool::new(false);
    let options = CompareOptions::default();
    let mut rows: Vec<Row> = Vec::new();
    for &mb in &sizes {
        reset_peak_memory();
        let path = dir.join(format!("prose-{mb}mb.txt"));
        let text = prose(&data, (mb * 1e6) as usize);
        std::fs::write(&path, &text).expect("write the document");
        let (doc, load) =
            timed(|| document::load(&path, &LoadOptions::default()).expect("load the document"));
        let (pair, prepare) = timed(|| PreparedPair::new(&doc, &doc, model, &options));
        let (pairs, compare) = timed(|| {
            let comparison = pair
                .compare(model, Method::Fuzzy, DEFAULT_FLOOR, &never)
                .expect("not cancelled");
            let _ = comparison.figures(&Preset::MEASURED.thresholds);
            comparison.pairs.len()
        });
        let peak_mb = peak_memory_mb();
        // What the matcher finds before the comparison keeps what it needs (untimed): the pairs
        // with a directional Sim at the floor one way only grow with the square of the size.
        let found = Method::Fuzzy
            .matcher()
            .score_pairs(
                &pair.left,
                &pair.right,
                model,
                DEFAULT_FLOOR,
                &pair.rules,
                &never,
            )
            .expect("not cancelled");
        let both = found
            .iter()
            .filter(|p| p.sim_lr >= DEFAULT_FLOOR && p.sim_rl >= DEFAULT_FLOOR)
            .count();
        let row = Row {
            megabytes: text.len() as f64 / 1e6,
            sentences: doc.sentences.len(),
            load,
            prepare,
            compare,
            pairs,
            peak_mb,
            at_floor: [found.len() - both, both],
        };
        println!(
            "{:.1} MB, {} sentences: load {:.2} s (CPU {:.2}), prepare {:.2} s (CPU {:.2}), \
             compare {:.2} s (CPU {:.2}), {} pairs kept, peak memory {:.0} MB; at the floor \
             before pruning {} one way only, {} both ways",
            row.megabytes,
            row.sentences,
            row.load[0],
            row.load[1],
            row.prepare[0],
            row.prepare[1],
            row.compare[0],
            row.compare[1],
            row.pairs,
            row.peak_mb,
            row.at_floor[0],
            row.at_floor[1]
        );
        rows.push(row);
    }
    let exponent = |a: &Row, b: &Row, t: fn(&Row) -> f64| {
        (t(b) / t(a)).ln() / (b.megabytes / a.megabytes).ln()
    };
    println!();
    println!(
        "| MB | sentences | load s (CPU) | prepare s (CPU) | compare s (CPU) | pairs kept | peak memory MB | at the floor one way / both ways | growth exponent of compare CPU (of load + prepare CPU) from the previous size |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (i, row) in rows.iter().enumerate() {
        let growth = if i == 0 {
            "".to_string()
        } else {
            let previous = &rows[i - 1];
            format!(
                "{:.2} ({:.2})",
                exponent(previous, row, |r| r.compare[1]),
                exponent(previous, row, |r| r.load[1] + r.prepare[1])
            )
        };
        println!(
            "| {:.1} | {} | {:.2} ({:.2}) | {:.2} ({:.2}) | {:.2} ({:.2}) | {} | {:.0} | {} / {} | {} |",
            row.megabytes,
            row.sentences,
            row.load[0],
            row.load[1],
            row.prepare[0],
            row.prepare[1],
            row.compare[0],
            row.compare[1],
            row.pairs,
            row.peak_mb,
            row.at_floor[0],
            row.at_floor[1],
            growth
        );
    }
    if let (Some(first), Some(last)) = (rows.first(), rows.last())
        && rows.len() > 1
    {
        println!(
            "\ngrowth exponent of compare CPU over {:.1}-{:.1} MB: {:.2}; of load + prepare CPU: {:.2}",
            first.megabytes,
            last.megabytes,
            exponent(first, last, |r| r.compare[1]),
            exponent(first, last, |r| r.load[1] + r.prepare[1])
        );
    }
}
