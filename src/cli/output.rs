//! Where the command line writes its reports: a file, or standard output for `-`. Reports are
//! streamed through a buffer, not built in memory first: a JSON report of a million listed
//! pairs is over 100 MB.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::Context;

/// Whether `path` means standard output (`-`).
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Writes `bytes` to the file at `path`.
pub fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("{}: cannot write", path.display()))
}

/// Streams what `write` produces to the file at `path`, or to standard output for `-`.
pub fn write_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let context = || {
        if is_stdout(path) {
            "writing to standard output".to_string()
        } else {
            format!("{}: cannot write", path.display())
        }
    };
    if is_stdout(path) {
        let mut out = BufWriter::new(std::io::stdout().lock());
        write(&mut out).with_context(context)?;
        out.flush().with_context(context)
    } else {
        let file = File::create(path).with_context(context)?;
        let mut out = BufWriter::new(file);
        write(&mut out).with_context(context)?;
        out.flush().with_context(context)
    }
}

/// Streams `value` as pretty-printed JSON, with a final newline, to `path` or standard output.
pub fn write_json(path: &Path, value: &impl serde::Serialize) -> anyhow::Result<()> {
    write_with(path, |out| {
        serde_json::to_writer_pretty(&mut *out, value)?;
        out.write_all(b"\n")?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_written_whole_with_a_final_newline() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("out.json");
        write_json(&path, &serde_json::json!({"pairs": [1, 2]})).expect("written");
        let text = std::fs::read_to_string(&path).expect("read back");
        assert!(text.ends_with("}\n"), "{text:?}");
        let value: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(value["pairs"], serde_json::json!([1, 2]));
    }

    #[test]
    fn a_file_that_cannot_be_created_names_its_path() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("missing").join("out.json");
        let error = write_json(&path, &1).expect_err("no such folder");
        assert!(error.to_string().contains("out.json"), "{error}");
    }
}
