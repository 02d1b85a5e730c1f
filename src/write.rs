//! Writing outputs as transactions: a report is the old one or the new one, whole, never a torn
//! or mixed one.
//!
//! - Every output is written to a temporary file beside its target (same folder, so the same
//!   file system) and renamed over the target once complete. A run killed midway, even by
//!   SIGKILL, leaves the previous output in place (and at most a hidden `.NAME.*.partial` file).
//! - A folder of outputs (a collection report's pair pages) is staged the same way and replaces
//!   the old folder whole: on Linux the two are swapped in one step (`renameat2` with
//!   `RENAME_EXCHANGE`), then the old one is removed, so a rerun leaves none of the old run's
//!   pages behind.
//! - [`Outputs::commit`] moves one run's outputs into place while it holds an exclusive lock
//!   (`flock`) on each target folder, taken in one order: two runs writing the same outputs at
//!   once serialise there (the writing itself, to temporary files, goes on side by side), and
//!   what is left is all of one run's outputs, never some of each.
//! - [`check_targets`], before anything is written, refuses an output that is one of the
//!   inputs (writing it would destroy the document), an output named twice, and an output
//!   folder that holds an input or files simdoc did not write.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use tempfile::{NamedTempFile, TempDir};

use crate::escape;

/// Why outputs could not be written. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{}: cannot write: {error}", escape::path(path))]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error(
        "{}: is one of the inputs; writing there would overwrite it (choose another output)",
        escape::path(path)
    )]
    OverwritesInput { path: PathBuf },
    #[error("{}: is named for two outputs", escape::path(path))]
    NamedTwice { path: PathBuf },
    /// An output folder (staged whole) whose target holds something else: replacing it would
    /// delete that.
    #[error(
        "{}: holds {what}; replacing this output folder would delete it (move it away or choose \
         another output)",
        escape::path(path)
    )]
    FolderInUse { path: PathBuf, what: String },
    #[error(
        "{}: is not a folder, and an output folder goes there",
        escape::path(path)
    )]
    NotAFolder { path: PathBuf },
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> WriteError + '_ {
    move |error| WriteError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// The folder a target is written in (`.` for a bare file name).
fn folder_of(target: &Path) -> &Path {
    match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// The name temporary files and folders beside `target` start with: hidden, and naming it.
fn temporary_prefix(target: &Path) -> String {
    let name = target
        .file_name()
        .map_or("output".into(), |n| n.to_string_lossy());
    format!(".{name}.")
}

/// One run's outputs, staged beside their targets until [`Outputs::commit`]; dropped without a
/// commit, the staged files and folders are removed and the targets are untouched.
#[derive(Default)]
pub struct Outputs {
    files: Vec<(BufWriter<NamedTempFile>, PathBuf)>,
    folders: Vec<(TempDir, PathBuf, FolderCheck)>,
}

/// What may be in a folder an output folder replaces: a name test for its entries.
pub type FolderCheck = fn(&std::ffi::OsStr) -> bool;

impl Outputs {
    pub fn new() -> Self {
        Outputs::default()
    }

    /// A staged file for `target`: write the output to it; [`Outputs::commit`] puts it in place.
    pub fn create(&mut self, target: &Path) -> Result<&mut dyn Write, WriteError> {
        let temporary = tempfile::Builder::new()
            .prefix(&temporary_prefix(target))
            .suffix(".partial")
            .tempfile_in(folder_of(target))
            .map_err(io_error(target))?;
        self.files
            .push((BufWriter::new(temporary), target.to_path_buf()));
        match self.files.last_mut() {
            Some((writer, _)) => Ok(writer),
            None => unreachable!("a file was just pushed"),
        }
    }

    /// Stages `bytes` as the new content of `target`.
    pub fn write(&mut self, target: &Path, bytes: &[u8]) -> Result<(), WriteError> {
        self.create(target)?
            .write_all(bytes)
            .map_err(io_error(target))
    }

    /// A staged folder for `target`, to be filled (its path is returned); on commit it replaces
    /// `target` whole. An existing `target` may only hold entries `ours` accepts (what an
    /// earlier run wrote there): anything else is [`WriteError::FolderInUse`], now and at commit.
    pub fn folder(&mut self, target: &Path, ours: FolderCheck) -> Result<PathBuf, WriteError> {
        check_replaceable(target, ours)?;
        let staged = tempfile::Builder::new()
            .prefix(&temporary_prefix(target))
            .suffix(".partial")
            .tempdir_in(folder_of(target))
            .map_err(io_error(target))?;
        let path = staged.path().to_path_buf();
        self.folders.push((staged, target.to_path_buf(), ours));
        Ok(path)
    }

    /// Puts every staged output in place (see the module docs). A staged folder left empty
    /// removes its target instead (a report without pair pages has no folder of them).
    pub fn commit(self) -> Result<(), WriteError> {
        let mut files = Vec::with_capacity(self.files.len());
        for (writer, target) in self.files {
            let temporary = writer
                .into_inner()
                .map_err(|e| io_error(&target)(e.into_error()))?;
            set_creation_mode(temporary.path(), &target).map_err(io_error(&target))?;
            files.push((temporary, target));
        }
        for (staged, target, _) in &self.folders {
            set_creation_mode(staged.path(), target).map_err(io_error(target))?;
        }
        let folders: Vec<&Path> = files
            .iter()
            .map(|(_, target)| target.as_path())
            .chain(self.folders.iter().map(|(_, target, _)| target.as_path()))
            .map(folder_of)
            .collect();
        let _locks = lock_folders(&folders)?;
        // Again under the lock: another run may have written there since the folder was staged.
        for (_, target, ours) in &self.folders {
            check_replaceable(target, *ours)?;
        }
        for (temporary, target) in files {
            temporary
                .persist(&target)
                .map_err(|e| io_error(&target)(e.error))?;
        }
        for (staged, target, _) in self.folders {
            replace_folder(staged, &target)?;
        }
        Ok(())
    }
}

/// Writes `bytes` to `target` as a transaction of one file.
pub fn write_file(target: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let mut outputs = Outputs::new();
    outputs.write(target, bytes)?;
    outputs.commit()
}

/// An existing `target` folder may be replaced when every entry passes `ours`.
fn check_replaceable(target: &Path, ours: FolderCheck) -> Result<(), WriteError> {
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

/// Moves the staged folder to `target`, replacing what is there (see the module docs).
fn replace_folder(staged: TempDir, target: &Path) -> Result<(), WriteError> {
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
fn lock_folders(folders: &[&Path]) -> Result<Vec<File>, WriteError> {
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

/// Gives a staged output (at `staged`) the permissions a newly created file or folder would
/// have (the temporary ones are private), or those of the target it replaces.
fn set_creation_mode(staged: &Path, target: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let is_dir = std::fs::metadata(staged)?.is_dir();
        let mode = match std::fs::metadata(target) {
            Ok(existing) if existing.is_dir() == is_dir => existing.permissions().mode() & 0o7777,
            _ => (if is_dir { 0o777 } else { 0o666 }) & !umask(),
        };
        std::fs::set_permissions(staged, std::fs::Permissions::from_mode(mode))?;
    }
    #[cfg(not(unix))]
    let _ = (staged, target);
    Ok(())
}

/// The process's file creation mask, read from `/proc/self/status` (reading it with `umask(2)`
/// would set it); the usual 022 where that is not available.
#[cfg(unix)]
fn umask() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("Umask:"))
                .and_then(|value| u32::from_str_radix(value.trim(), 8).ok())
        })
        .unwrap_or(0o022)
}

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

/// Refuses outputs that would destroy an input or each other (see the module docs): `files` are
/// the output files (`-`, standard output, is left out), `folders` the output folders, `inputs`
/// every file read.
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
    let folders: Vec<(PathBuf, &Path)> = folders
        .iter()
        .filter_map(|f| std::fs::canonicalize(f).ok().map(|c| (c, *f)))
        .collect();
    if existing.is_empty() && folders.is_empty() {
        return Ok(());
    }
    for input in inputs {
        if let Some(id) = file_id(input)
            && let Some((_, output)) = existing.iter().find(|(o, _)| *o == id)
        {
            return Err(WriteError::OverwritesInput {
                path: output.to_path_buf(),
            });
        }
        if !folders.is_empty()
            && let Ok(canonical) = std::fs::canonicalize(input)
            && let Some((_, folder)) = folders.iter().find(|(f, _)| canonical.starts_with(f))
        {
            return Err(WriteError::FolderInUse {
                path: folder.to_path_buf(),
                what: format!("the input {}", escape::path(input)),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn any(_: &std::ffi::OsStr) -> bool {
        true
    }

    fn numbered_pages(name: &std::ffi::OsStr) -> bool {
        name.to_str()
            .and_then(|n| n.strip_suffix(".html"))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    }

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn nothing_reaches_a_target_before_the_commit_and_nothing_stays_without_one() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("report.json");
        std::fs::write(&target, "old").unwrap();
        let mut outputs = Outputs::new();
        outputs.write(&target, b"new").unwrap();
        let pages = outputs
            .folder(&dir.path().join("report-pairs"), any)
            .unwrap();
        std::fs::write(pages.join("1.html"), "page").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        drop(outputs);
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(names_in(dir.path()), ["report.json"]);
    }

    #[test]
    fn a_commit_replaces_files_and_folders_whole() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("report.html");
        let folder = dir.path().join("report-pairs");
        std::fs::write(&target, "old").unwrap();
        std::fs::create_dir(&folder).unwrap();
        for page in ["1.html", "2.html", "3.html"] {
            std::fs::write(folder.join(page), "old page").unwrap();
        }
        let mut outputs = Outputs::new();
        outputs.write(&target, b"new").unwrap();
        let staged = outputs.folder(&folder, numbered_pages).unwrap();
        std::fs::write(staged.join("1.html"), "new page").unwrap();
        outputs.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(names_in(&folder), ["1.html"]);
        assert_eq!(
            std::fs::read_to_string(folder.join("1.html")).unwrap(),
            "new page"
        );
        assert_eq!(names_in(dir.path()), ["report-pairs", "report.html"]);
        // An empty staged folder removes the old one; none is made where there was none.
        let mut outputs = Outputs::new();
        outputs.folder(&folder, numbered_pages).unwrap();
        outputs.commit().unwrap();
        assert_eq!(names_in(dir.path()), ["report.html"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_new_file_gets_the_usual_permissions_and_a_replaced_one_keeps_its_own() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let fresh = dir.path().join("fresh.csv");
        write_file(&fresh, b"a").unwrap();
        let mode = std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !umask());
        let kept = dir.path().join("kept.csv");
        std::fs::write(&kept, "old").unwrap();
        std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_file(&kept, b"new").unwrap();
        assert_eq!(
            std::fs::metadata(&kept).unwrap().permissions().mode() & 0o777,
            0o640
        );
    }

    #[test]
    fn a_folder_holding_other_files_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("report-pairs");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("thesis.docx"), "mine").unwrap();
        let error = Outputs::new().folder(&folder, numbered_pages).unwrap_err();
        assert!(
            error.to_string().ends_with(
                "report-pairs: holds thesis.docx, which simdoc did not write; replacing this \
                 output folder would delete it (move it away or choose another output)"
            ),
            "{error}"
        );
        assert_eq!(names_in(&folder), ["thesis.docx"]);
    }

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
}
