//! Writes the researcher's pair of issue 29, a long text and a revised copy of it (Wikipedia
//! articles of the shared data; see `tests/common/revised.rs` for the revision), to DIR as
//! `a.txt` and `b.txt`, for the export measurements of BENCHMARKS.md, "Exports of a long pair":
//!
//! ```text
//! SIMDOC_DATA=../shared/data cargo run --release --no-default-features --example revised_pair -- DIR [BYTES]
//! ```
//!
//! BYTES is the size of the text (default 5,000,000).

#[path = "../tests/common/revised.rs"]
mod revised;

use std::path::PathBuf;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args_os().skip(1);
    let dir = PathBuf::from(
        args.next()
            .ok_or_else(|| anyhow::anyhow!("usage: revised_pair DIR [BYTES]"))?,
    );
    let bytes: usize = match args.next() {
        Some(bytes) => bytes.to_string_lossy().parse()?,
        None => 5_000_000,
    };
    let data = std::env::var_os("SIMDOC_DATA")
        .ok_or_else(|| anyhow::anyhow!("set SIMDOC_DATA to the shared data folder"))?;
    let (a, b) = revised::revised_pair(std::path::Path::new(&data), bytes);
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("a.txt"), a)?;
    std::fs::write(dir.join("b.txt"), b)?;
    Ok(())
}
