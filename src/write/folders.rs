//! Output folders (a collection report's pair pages) replaced whole, and the locks a commit
//! holds on the folders it writes in.

use std::fs::File;
use std::path::{Path, PathBuf};

use tempfile::TempDir;

use super::{FolderCheck, WriteError, folder_of, io_error, temporary_prefix};
use crate::escape;

/// An existing `target` folder may be replaced when every entry passes `ours`.
pub(super) fn check_replaceable(target: &Path, ours: FolderCheck) -> Result<(), WriteError> {
    let Ok(metadata) = std::fs::symlink_metadata(target) else {
        return Ok(());
    };
    if !metadata.is_dir() {
        return Err(WriteError::NotAFolder {
            path: target.to_path_buf(),
        });
    }
    for entry in std::fs::read_dir(target).map_err(io_error(target))? {
        let entry = entry.map_err(io_error(target))?;
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if !is_file || !ours(&entry.file_name()) {
            return Err(WriteError::FolderInUse {
                path: target.to_path_buf(),
                what: format!(
                    "{}, which simdoc did not write",
                    escape::terminal(&entry.file_name().to_string_lossy())
                ),
            });
        }
    }
    Ok(())
}

/// Moves the staged folder to `target`, replacing what is there (see the module docs of
/// [`super`]).
pub(super) fn replace_folder(staged: TempDir, target: &Path) -> Result<(), WriteError> {
    let empty = std::fs::read_dir(staged.path())
        .map_err(io_error(target))?
        .next()
        .is_none();
    let exists = std::fs::symlink_metadata(target).is_ok();
    if empty {
        // `staged` is removed when dropped.
        if exists {
            std::fs::remove_dir_all(target).map_err(io_error(target))?;
        }
        return Ok(());
    }
    if !exists {
        std::fs::rename(staged.path(), target).map_err(io_error(target))?;
        // Now at `target`: nothing is left to clean up.
        let _ = staged.keep();
        return Ok(());
    }
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        // The old folder is now at the staged path, which `staged` removes when dropped.
        match renameat_with(CWD, staged.path(), CWD, target, RenameFlags::EXCHANGE) {
            Ok(()) => return Ok(()),
            // A file system without the exchange (some network file systems): move aside.
            Err(e) if e == rustix::io::Errno::INVAL || e == rustix::io::Errno::NOSYS => {}
            Err(e) => return Err(io_error(target)(e.into())),
        }
    }
    let aside = tempfile::Builder::new()
        .prefix(&temporary_prefix(target))
        .suffix(".old")
        .tempdir_in(folder_of(target))
        .map_err(io_error(target))?;
    let old = aside.path().join("old");
    std::fs::rename(target, &old).map_err(io_error(target))?;
    std::fs::rename(staged.path(), target).map_err(io_error(target))?;
    let _ = staged.keep();
    // `aside`, holding the old folder, is removed when dropped.
    drop(aside);
    Ok(())
}

/// Exclusive locks on each distinct folder, taken in sorted order (two runs locking the same
/// folders cannot deadlock); released when dropped. Where a folder cannot be opened for a lock
/// (not on Unix), the commit goes on without it.
pub(super) fn lock_folders(folders: &[&Path]) -> Result<Vec<File>, WriteError> {
    let mut distinct: Vec<PathBuf> = folders
        .iter()
        .map(|f| std::fs::canonicalize(f).unwrap_or_else(|_| f.to_path_buf()))
        .collect();
    distinct.sort();
    distinct.dedup();
    let mut locks = Vec::with_capacity(distinct.len());
    for folder in distinct {
        let Ok(handle) = File::open(&folder) else {
            continue;
        };
        handle.lock().map_err(io_error(&folder))?;
        locks.push(handle);
    }
    Ok(locks)
}
