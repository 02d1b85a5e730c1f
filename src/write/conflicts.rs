//! Refusing, before any work, outputs that would destroy an input or each other, or that
//! cannot be written at all ([`check_targets`]).

use std::path::{Path, PathBuf};

use super::{WriteError, target};
use crate::escape;

/// The identity of an existing file: device and inode on Unix (a hard link or a symbolic link
/// to an input is that input), the canonical path elsewhere. Read without opening the file (a
/// FIFO among the inputs must not block).
#[derive(PartialEq, Eq, Hash)]
enum FileId {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg(not(unix))]
    Path(PathBuf),
}

fn file_id(path: &Path) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let metadata = std::fs::metadata(path).ok()?;
        Some(FileId::Inode(metadata.dev(), metadata.ino()))
    }
    #[cfg(not(unix))]
    {
        std::fs::canonicalize(path).ok().map(FileId::Path)
    }
}

/// Refuses, before any work: an output that is one of the inputs, an output named twice, an
/// output folder that holds an input, and an output that cannot be written where it is (its
/// folder missing, a read-only file, a folder or a block device where a file goes:
/// [`target::classify`]). `files` are the output files (`-`, standard output, is left out),
/// `folders` the output folders (their own folder must exist), `inputs` every file read.
pub fn check_targets(
    files: &[&Path],
    folders: &[&Path],
    inputs: &[PathBuf],
) -> Result<(), WriteError> {
    let outputs: Vec<&Path> = files
        .iter()
        .chain(folders)
        .copied()
        .filter(|p| p.as_os_str() != "-")
        .collect();
    let mut seen = std::collections::HashSet::new();
    for output in &outputs {
        let absolute = std::path::absolute(output).unwrap_or_else(|_| output.to_path_buf());
        if !seen.insert(absolute) {
            return Err(WriteError::NamedTwice {
                path: output.to_path_buf(),
            });
        }
    }
    let existing: Vec<(FileId, &Path)> = files
        .iter()
        .filter(|p| p.as_os_str() != "-")
        .filter_map(|p| file_id(p).map(|id| (id, *p)))
        .collect();
    let canonical_folders: Vec<(PathBuf, &Path)> = folders
        .iter()
        .filter_map(|f| std::fs::canonicalize(f).ok().map(|c| (c, *f)))
        .collect();
    for input in inputs {
        if let Some(id) = file_id(input)
            && let Some((_, output)) = existing.iter().find(|(o, _)| *o == id)
        {
            return Err(WriteError::OverwritesInput {
                path: output.to_path_buf(),
            });
        }
        if !canonical_folders.is_empty()
            && let Ok(canonical) = std::fs::canonicalize(input)
            && let Some((_, folder)) = canonical_folders
                .iter()
                .find(|(f, _)| canonical.starts_with(f))
        {
            return Err(WriteError::FolderInUse {
                path: folder.to_path_buf(),
                what: format!("the input {}", escape::path(input)),
            });
        }
    }
    for file in files.iter().filter(|p| p.as_os_str() != "-") {
        target::classify(file)?;
    }
    for folder in folders {
        target::check_parent(folder)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_that_is_an_input_or_named_twice_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let essay = dir.path().join("essay.txt");
        std::fs::write(&essay, "text").unwrap();
        let other = dir.path().join("other.txt");
        let inputs = [essay.clone(), other.clone()];
        let error = check_targets(&[&essay], &[], &inputs).unwrap_err();
        assert!(
            matches!(error, WriteError::OverwritesInput { .. }),
            "{error}"
        );
        #[cfg(unix)]
        {
            let link = dir.path().join("link.txt");
            std::os::unix::fs::symlink(&essay, &link).unwrap();
            assert!(check_targets(&[&link], &[], &inputs).is_err());
            let hard = dir.path().join("hard.txt");
            std::fs::hard_link(&essay, &hard).unwrap();
            assert!(check_targets(&[&hard], &[], &inputs).is_err());
        }
        let report = dir.path().join("report.json");
        assert!(check_targets(&[&report, Path::new("-")], &[], &inputs).is_ok());
        assert!(matches!(
            check_targets(&[&report, &report], &[], &inputs),
            Err(WriteError::NamedTwice { .. })
        ));
        // An output folder holding an input.
        assert!(matches!(
            check_targets(&[], &[dir.path()], &inputs),
            Err(WriteError::FolderInUse { .. })
        ));
    }

    #[test]
    fn an_output_in_a_missing_folder_is_refused_before_any_work() {
        let dir = tempfile::tempdir().unwrap();
        let report = dir.path().join("no such folder").join("report.json");
        let error = check_targets(&[&report], &[], &[]).unwrap_err();
        assert!(matches!(error, WriteError::NoFolder { .. }), "{error}");
        let pages = dir.path().join("no such folder").join("report-pairs");
        let error = check_targets(&[], &[&pages], &[]).unwrap_err();
        assert!(matches!(error, WriteError::NoFolder { .. }), "{error}");
    }
}
