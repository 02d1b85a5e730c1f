//! Where the command line writes its reports: files, or standard output for `-`. A command's
//! files are one transaction ([`simdoc::write`]): each is streamed through a buffer to a
//! temporary file beside its target (a JSON report of a million listed pairs is over 100 MB, so
//! nothing is built in memory first; a pipe or a device is streamed to directly, as
//! [`simdoc::write::target`] says), and [`RunOutputs::commit`] puts them all in place at the
//! end, under a lock, so that an interrupted or concurrent run never leaves a torn or mixed
//! report. Before any work, [`refuse_overwriting`] stops an output that would replace an input or
//! cannot be written where it is (a missing folder, a read-only file).

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use simdoc::escape;
use simdoc::write::{FolderCheck, Outputs};

/// Whether `path` means standard output (`-`).
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Refuses, before any work, outputs that are inputs, are named twice, or are folders holding
/// an input ([`simdoc::write::check_targets`]).
pub fn refuse_overwriting(
    files: &[Option<&PathBuf>],
    folders: &[&Path],
    inputs: &[PathBuf],
) -> anyhow::Result<()> {
    let files: Vec<&Path> = files.iter().flatten().map(|p| p.as_path()).collect();
    Ok(simdoc::write::check_targets(&files, folders, inputs)?)
}

/// One command's outputs, written at [`RunOutputs::commit`] (standard output at once).
#[derive(Default)]
pub struct RunOutputs {
    staged: Outputs,
}

impl RunOutputs {
    pub fn new() -> Self {
        RunOutputs::default()
    }

    /// Streams what `write` produces to the file at `path` (staged), or to standard output for
    /// `-`.
    pub fn write_with(
        &mut self,
        path: &Path,
        write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let context = || {
            if is_stdout(path) {
                "writing to standard output".to_string()
            } else {
                format!("{}: cannot write", escape::path(path))
            }
        };
        if is_stdout(path) {
            let mut out = BufWriter::new(std::io::stdout().lock());
            write(&mut out).with_context(context)?;
            out.flush().with_context(context)
        } else {
            let out = self.staged.create(path)?;
            write(out).with_context(context)
        }
    }

    /// Stages `bytes` as the file at `path`.
    pub fn write_file(&mut self, path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
        Ok(self.staged.write(path, bytes)?)
    }

    /// Streams `value` as pretty-printed JSON, with a final newline, to `path` or standard
    /// output.
    pub fn write_json(&mut self, path: &Path, value: &impl serde::Serialize) -> anyhow::Result<()> {
        self.write_with(path, |out| {
            serde_json::to_writer_pretty(&mut *out, value)?;
            out.write_all(b"\n")?;
            Ok(())
        })
    }

    /// [`RunOutputs::write_json`] without the indentation: for reports that may be large, where
    /// the indentation of deeply nested values was a third of the bytes.
    pub fn write_json_compact(
        &mut self,
        path: &Path,
        value: &impl serde::Serialize,
    ) -> anyhow::Result<()> {
        self.write_with(path, |out| {
            serde_json::to_writer(&mut *out, value)?;
            out.write_all(b"\n")?;
            Ok(())
        })
    }

    /// A staged folder that replaces `target` whole at the commit ([`Outputs::folder`]).
    pub fn folder(&mut self, target: &Path, ours: FolderCheck) -> anyhow::Result<PathBuf> {
        Ok(self.staged.folder(target, ours)?)
    }

    /// Puts every staged output in place.
    pub fn commit(self) -> anyhow::Result<()> {
        Ok(self.staged.commit()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_written_whole_with_a_final_newline() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("out.json");
        let mut outputs = RunOutputs::new();
        outputs
            .write_json(&path, &serde_json::json!({"pairs": [1, 2]}))
            .expect("staged");
        assert!(!path.exists(), "nothing in place before the commit");
        outputs.commit().expect("written");
        let text = std::fs::read_to_string(&path).expect("read back");
        assert!(text.ends_with("}\n"), "{text:?}");
        let value: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(value["pairs"], serde_json::json!([1, 2]));
    }

    #[test]
    fn a_file_that_cannot_be_created_names_its_path() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("missing").join("out.json");
        let error = RunOutputs::new()
            .write_json(&path, &1)
            .expect_err("no such folder");
        assert!(error.to_string().contains("out.json"), "{error}");
    }
}
