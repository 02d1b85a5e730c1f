//! How `compare` grows with the size of its inputs (BENCHMARKS.md, "Compare against input
//! size"), under the default preset (documents: matches judged against chance):
//!
//! ```text
//! SIMDOC_DATA=../shared/data cargo run --release --no-default-features --example bench_scaling
//! ```
//!
//! Three cases, each at 1, 3, 10 and 20 MB per document (`-- 1 3` for other sizes; `-- revised 10`
//! runs one case only, as for a profile):
//!
//! - **unrelated**: two texts of whole enwiki-2015 articles (reference/enwiki-2015/text/AA, in
//!   file order), the even articles against the odd ones: nothing was reused;
//! - **revised**: the even articles against a revised copy of themselves (5% of sentences
//!   dropped, then 10% of paragraphs moved elsewhere; a fixed seed);
//! - **templated**: N lines "Text number {i} about the budget." against themselves, N = 10^3,
//!   10^4 and 10^5 (and the sizes given, at 35 bytes a line, when they are larger): lines that
//!   differ by one number, as tables, forms and logs do.
//!
//! Each row times reading both documents (loading: the hierarchy, sentence splitting) and
//! refining them (preparing every sentence) apart from comparing them (the search, the matches
//! with their passages' evidence, and the figures), with the process's CPU time (steadier than
//! wall time on a shared machine) and its peak resident memory from reading to the figures
//! (Linux). Each pair is compared three times and the row keeps the run of median CPU time.
//! "× reading" is the comparison's CPU over reading and refining's. The growth
//! exponent between two sizes is log(t2 / t1) / log(s2 / s1): 1 is linear.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use simdoc::compare::Preset;
use simdoc::compare::{CompareOptions, PreparedPair, floor_for};
use simdoc::corpus::read_entries;
use simdoc::document::{self, LoadOptions};
use simdoc::model::ReferenceModel;
use simdoc::similarity::Method;

/// Whole articles of the enwiki files, in order, every other one from `first` (0 or 1), until
/// `bytes` are reached.
fn prose(data: &Path, bytes: usize, first: usize) -> String {
    let mut text = String::with_capacity(bytes + 100_000);
    let mut index = 0usize;
    'files: for i in 0..100 {
        let path = data.join(format!("reference/enwiki-2015/text/AA/wiki_{i:02}"));
        for entry in read_entries(&path, &LoadOptions::default()).expect("enwiki file") {
            if text.len() >= bytes {
                break 'files;
            }
            index += 1;
            if index % 2 != first {
                continue;
            }
            text.push_str(&entry.text);
            text.push_str("\n\n");
        }
    }
    text
}

/// A small deterministic generator (xorshift64), so that the revised copy is the same every run.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// `text` revised: 5% of its sentences dropped (cut at ". "), then 10% of its paragraphs moved
/// to other places.
fn revised(text: &str) -> String {
    let mut dice = Dice(0x9e37_79b9_7f4a_7c15);
    let mut paragraphs: Vec<String> = text
        .split('\n')
        .filter(|p| !p.trim().is_empty())
        .filter_map(|p| {
            let kept: Vec<&str> = p
                .split_inclusive(". ")
                .filter(|_| dice.below(100) >= 5)
                .collect();
            (!kept.is_empty()).then(|| kept.concat())
        })
        .collect();
    for _ in 0..paragraphs.len() / 10 {
        let from = dice.below(paragraphs.len());
        let moved = paragraphs.remove(from);
        let to = dice.below(paragraphs.len() + 1);
        paragraphs.insert(to, moved);
    }
    paragraphs.join("\n\n")
}

/// `lines` lines that differ by one number.
fn templated(lines: usize) -> String {
    (0..lines)
        .map(|i| format!("Text number {i} about the budget.\n"))
        .collect()
}

/// This process's CPU time (user + system) so far.
#[allow(
    unsafe_code,
    reason = "libc::getrusage has no safe wrapper in the dependencies"
)]
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
#[allow(unsafe_code, reason = "libc::malloc_trim has no safe wrapper")]
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
    case: &'static str,
    /// Megabytes per document.
    megabytes: f64,
    sentences: [usize; 2],
    /// Reading and refining both documents: wall and CPU seconds.
    reading: [f64; 2],
    compare: [f64; 2],
    /// Peak resident memory from reading to the figures.
    peak_mb: f64,
    matched: usize,
    containment: [f64; 2],
}

impl Row {
    fn growth_from(&self, previous: &Row, time: fn(&Row) -> f64) -> f64 {
        (time(self) / time(previous)).ln() / (self.megabytes / previous.megabytes).ln()
    }
}

/// How many times each pair is compared; a row keeps the run of median CPU time. One run of a
/// second or less moves by a tenth from run to run on a shared machine, and the growth exponent
/// from 1 MB with it (a tenth is 0.03 of exponent over 1-20 MB).
const COMPARE_RUNS: usize = 3;

/// Writes both texts, reads, refines and compares them under the default preset (the comparison
/// [`COMPARE_RUNS`] times).
fn measure(
    dir: &Path,
    case: &'static str,
    texts: [String; 2],
    model: &ReferenceModel,
    never: &AtomicBool,
    previous: Option<&Row>,
) -> Row {
    let preset = Preset::DOCUMENTS;
    let options = CompareOptions {
        floor: floor_for(&preset.rules, &preset.thresholds),
        refine: preset.refine,
        rules: preset.rules,
        chance_search: preset.chance_search,
        ..CompareOptions::default()
    };
    let paths = [0, 1].map(|side| dir.join(format!("{case}-{side}.txt")));
    for (path, text) in paths.iter().zip(&texts) {
        std::fs::write(path, text).expect("write a document");
    }
    let megabytes = (texts[0].len() + texts[1].len()) as f64 / 2e6;
    drop(texts);
    reset_peak_memory();
    let (pair, reading) = timed(|| {
        let docs = paths
            .clone()
            .map(|path| document::load(&path, &LoadOptions::default()).expect("load a document"));
        PreparedPair::new(&docs[0], &docs[1], model, &options)
    });
    let compare_once = || {
        timed(|| {
            let comparison = pair
                .compare(model, Method::Fuzzy, options.floor, never)
                .expect("not cancelled");
            let matched = comparison.matches(&preset.thresholds).count();
            let figures = comparison.figures(&preset.thresholds);
            (matched, figures.containment)
        })
    };
    // The peak is the first run's: the later ones only time it again.
    let mut runs = vec![compare_once()];
    let peak_mb = peak_memory_mb();
    runs.extend((1..COMPARE_RUNS).map(|_| compare_once()));
    runs.sort_by(|a, b| a.1[1].total_cmp(&b.1[1]));
    let ((matched, containment), compare) = runs.swap_remove(COMPARE_RUNS / 2);
    let row = Row {
        case,
        megabytes,
        sentences: [pair.left.sentences.len(), pair.right.sentences.len()],
        reading,
        compare,
        peak_mb,
        matched,
        containment,
    };
    print_row(&row, previous);
    row
}

/// One row of the table, with the growth from `previous` when it is the same case.
fn print_row(row: &Row, previous: Option<&Row>) {
    let growth = match previous {
        Some(previous) if previous.case == row.case => format!(
            "{:.2} ({:.2})",
            row.growth_from(previous, |r| r.compare[1]),
            row.growth_from(previous, |r| r.compare[1] + r.reading[1])
        ),
        _ => String::new(),
    };
    println!(
        "| {} | {:.2} | {} / {} | {:.2} ({:.2}) | {:.2} ({:.2}) | {:.1} | {:.0} | {} | {:.3} / {:.3} | {} |",
        row.case,
        row.megabytes,
        row.sentences[0],
        row.sentences[1],
        row.reading[0],
        row.reading[1],
        row.compare[0],
        row.compare[1],
        row.compare[1] / row.reading[1].max(1e-9),
        row.peak_mb,
        row.matched,
        row.containment[0],
        row.containment[1],
        growth
    );
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
    let named: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a.parse::<f64>().is_err())
        .collect();
    let runs = |case: &str| named.is_empty() || named.iter().any(|n| n == case);
    let dir = std::env::temp_dir().join("simdoc-bench-scaling");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let model = ReferenceModel::embedded();
    let never = AtomicBool::new(false);
    println!(
        "| case | MB a document | sentences | read + refine s (CPU) | compare s (CPU) | compare CPU / read + refine CPU | peak memory MB | pairs matched | containment | growth exponent of compare CPU (of read + refine + compare) from the previous size |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut rows: Vec<Row> = Vec::new();
    for &mb in sizes.iter().filter(|_| runs("unrelated")) {
        let bytes = (mb * 1e6) as usize;
        let texts = [prose(&data, bytes, 0), prose(&data, bytes, 1)];
        let row = measure(&dir, "unrelated", texts, model, &never, rows.last());
        rows.push(row);
    }
    for &mb in sizes.iter().filter(|_| runs("revised")) {
        let original = prose(&data, (mb * 1e6) as usize, 0);
        let copy = revised(&original);
        let row = measure(
            &dir,
            "revised",
            [original, copy],
            model,
            &never,
            rows.last(),
        );
        rows.push(row);
    }
    let mut lines: Vec<usize> = vec![1_000, 10_000, 100_000];
    lines.extend(
        sizes
            .iter()
            .map(|mb| (mb * 1e6 / 35.0) as usize)
            .filter(|&n| n > 100_000),
    );
    for n in lines.into_iter().filter(|_| runs("templated")) {
        let text = templated(n);
        let row = measure(
            &dir,
            "templated",
            [text.clone(), text],
            model,
            &never,
            rows.last(),
        );
        rows.push(row);
    }
    for case in ["unrelated", "revised", "templated"] {
        let of_case: Vec<&Row> = rows.iter().filter(|r| r.case == case).collect();
        if let (Some(first), Some(last)) = (of_case.first(), of_case.last())
            && of_case.len() > 1
        {
            println!(
                "\n{case}: growth exponent of compare CPU over {:.2}-{:.2} MB: {:.2}; of read + refine + compare CPU: {:.2}",
                first.megabytes,
                last.megabytes,
                last.growth_from(first, |r| r.compare[1]),
                last.growth_from(first, |r| r.compare[1] + r.reading[1])
            );
        }
    }
}
