//! How simdoc decides between damaged UTF-8 and a legacy encoding (src/document/decode.rs),
//! measured on the shared data: EVALUATION.md, "Decoding damaged UTF-8".
//!
//! ```sh
//! SIMDOC_DATA=/work/shared/data cargo run --release --no-default-features --example eval_decoding
//! ```
//!
//! Two tables. The files of the data that are not valid UTF-8 (all of them legacy text, as
//! their sources say): how many invalid sequences and valid multi-byte characters each has,
//! and what the rule (UTF-8 when the valid multi-byte characters are at least as many as the
//! invalid sequences) decides. Then valid UTF-8 files with non-ASCII characters, damaged by
//! replacing k bytes at random positions with a byte that is never valid UTF-8 (0xFF): the share
//! still read as UTF-8, for k = 1 to 100 (ten damaged copies of each file per k; a fixed seed),
//! of all of them and of those with at least 20 non-ASCII characters (where reading the file as
//! Windows-1252 would garble more than a character or two).

use std::path::{Path, PathBuf};

use simdoc::document::decode::{Utf8Tally, decode};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// A small deterministic generator (xorshift), so the damage is the same on every run.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn main() {
    let Some(data) = std::env::var_os("SIMDOC_DATA").map(PathBuf::from) else {
        eprintln!("set SIMDOC_DATA to the shared data folder");
        std::process::exit(2);
    };
    let mut all = Vec::new();
    files(&data, &mut all);
    let texts: Vec<(PathBuf, Vec<u8>)> = all
        .into_iter()
        .filter_map(|p| {
            let bytes = std::fs::read(&p).ok()?;
            // Text only: no NUL in the first 4 KB, at most 64 MiB.
            let head = &bytes[..bytes.len().min(4096)];
            (!head.contains(&0) && bytes.len() <= 64 << 20).then_some((p, bytes))
        })
        .collect();
    println!("## Files of the shared data that are not valid UTF-8");
    println!();
    println!("| file | bytes | invalid sequences | valid multi-byte characters | read as |");
    println!("|---|---|---|---|---|");
    for (path, bytes) in &texts {
        if std::str::from_utf8(bytes).is_ok() {
            continue;
        }
        let tally = Utf8Tally::of(bytes);
        let read_as = decode(bytes, false).map_or("binary", |d| d.encoding);
        println!(
            "| {} | {} | {} | {} | {read_as} |",
            path.strip_prefix(&data).unwrap_or(path).display(),
            bytes.len(),
            tally.invalid,
            tally.multibyte
        );
    }
    let utf8: Vec<&Vec<u8>> = texts
        .iter()
        .filter(|(_, b)| std::str::from_utf8(b).is_ok_and(|t| !t.is_ascii()))
        .map(|(_, b)| b)
        .collect();
    println!();
    println!(
        "## Valid UTF-8 files with non-ASCII characters ({}), damaged",
        utf8.len()
    );
    println!();
    let rich = |bytes: &[u8]| {
        std::str::from_utf8(bytes).map_or(0, |t| t.chars().filter(|c| !c.is_ascii()).count()) >= 20
    };
    println!(
        "| damaged bytes | copies | still read as UTF-8 | copies of the {} files with 20 or more non-ASCII characters | still read as UTF-8 |",
        utf8.iter().filter(|b| rich(b)).count()
    );
    println!("|---|---|---|---|---|");
    let mut random = Random(0x5eed_2028);
    let share = |kept: usize, copies: usize| 100.0 * kept as f64 / copies.max(1) as f64;
    for k in [1, 2, 5, 10, 20, 50, 100] {
        let (mut copies, mut kept, mut rich_copies, mut rich_kept) = (0, 0, 0, 0);
        for bytes in &utf8 {
            let is_rich = rich(bytes);
            for _ in 0..10 {
                let mut damaged = (*bytes).clone();
                for _ in 0..k {
                    let at = random.below(damaged.len());
                    damaged[at] = 0xFF;
                }
                let utf8_kept =
                    usize::from(decode(&damaged, false).is_ok_and(|d| d.encoding == "UTF-8"));
                copies += 1;
                kept += utf8_kept;
                rich_copies += usize::from(is_rich);
                rich_kept += utf8_kept * usize::from(is_rich);
            }
        }
        println!(
            "| {k} | {copies} | {kept} ({:.1}%) | {rich_copies} | {rich_kept} ({:.1}%) |",
            share(kept, copies),
            share(rich_kept, rich_copies)
        );
    }
}
