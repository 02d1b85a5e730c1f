//! Writing outputs as transactions: a report is the old one or the new one, whole, never a torn
//! or mixed one.
//!
//! - Every output to a regular file (an existing one, a new one, or the one a symbolic link
//!   leads to) is written to a temporary file beside its target (same folder, so the same file
//!   system) and renamed over the target once complete. A run killed midway, even by SIGKILL,
//!   leaves the previous output in place (and at most a hidden `.NAME.*.partial` file).
//! - An output to what is not a regular file is written the way a shell's `>` would
//!   ([`target`]): a FIFO, a process substitution or a character device such as `/dev/null` is
//!   streamed to as the output is made (never replaced), a read-only file is refused, a folder
//!   or block device where a file goes is refused.
//! - A folder of outputs (a collection report's pair pages) is staged the same way and replaces
//!   the old folder whole ([`folders`]): on Linux the two are swapped in one step (`renameat2`
//!   with `RENAME_EXCHANGE`), then the old one is removed, so a rerun leaves none of the old
//!   run's pages behind.
//! - [`Outputs::commit`] moves one run's outputs into place while it holds an exclusive lock
//!   (`flock`) on each target folder, taken in one order: two runs writing the same outputs at
//!   once serialise there (the writing itself, to temporary files, goes on side by side), and
//!   what is left is all of one run's outputs, never some of each.
//! - [`check_targets`], before anything is written (and before the work that makes the
//!   outputs), refuses an output that is one of the inputs (writing it would destroy the
//!   document), an output named twice, an output folder that holds an input or files simdoc did
//!   not write, and an output that cannot be written where it is (a missing folder, a read-only
//!   file).

mod conflicts;
mod folders;
pub(crate) mod target;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use tempfile::{NamedTempFile, TempDir};

use crate::escape;
pub use conflicts::check_targets;
use folders::{check_replaceable, lock_folders, replace_folder};
use target::Target;

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
    /// A folder where an output file goes.
    #[error("{}: is a folder; an output file goes there", escape::path(path))]
    IsFolder { path: PathBuf },
    /// A block device or a socket where an output file goes.
    #[error(
        "{}: is {what}; outputs go to files, pipes and character devices",
        escape::path(path)
    )]
    NotWritableKind { path: PathBuf, what: &'static str },
    /// The folder an output goes in is missing (or not a folder).
    #[error(
        "{}: cannot write: its folder {} {problem}",
        escape::path(path),
        escape::path(folder)
    )]
    NoFolder {
        path: PathBuf,
        folder: PathBuf,
        problem: &'static str,
    },
    /// The folder a file is replaced in does not let this user add the temporary file.
    #[error(
        "{}: cannot write: its folder {} does not let this user add a file ({error}); outputs \
         are written beside their target and renamed into place",
        escape::path(path),
        escape::path(folder)
    )]
    FolderNotWritable {
        path: PathBuf,
        folder: PathBuf,
        error: std::io::Error,
    },
    /// A pipe or device that was a regular file by the time it was opened.
    #[error(
        "{}: changed while it was opened (it is now a regular file); not written",
        escape::path(path)
    )]
    Changed { path: PathBuf },
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

/// How much of a streamed output is gathered before one write to its pipe or device (a write
/// per line cost millions of system calls on a large report).
const STREAM_BUFFER: usize = 64 << 10;

/// One run's outputs, staged beside their targets until [`Outputs::commit`]; dropped without a
/// commit, the staged files and folders are removed and the targets are untouched. Streamed
/// outputs (pipes, devices: [`Target::Stream`]) are written as they are made.
#[derive(Default)]
pub struct Outputs {
    /// Staged files and the paths they replace (symbolic links resolved).
    files: Vec<(BufWriter<NamedTempFile>, PathBuf)>,
    /// Open pipes and devices, and their paths (for messages).
    streams: Vec<(BufWriter<File>, PathBuf)>,
    folders: Vec<(TempDir, PathBuf, FolderCheck)>,
}

/// What may be in a folder an output folder replaces: a name test for its entries.
pub type FolderCheck = fn(&std::ffi::OsStr) -> bool;

impl Outputs {
    pub fn new() -> Self {
        Outputs::default()
    }

    /// Where to write the output for `target`: a staged file that [`Outputs::commit`] puts in
    /// place, or, for a pipe or a device, the opened target itself (a FIFO waits here for its
    /// reader). See [`target::classify`].
    pub fn create(&mut self, target: &Path) -> Result<&mut dyn Write, WriteError> {
        match target::classify(target)? {
            Target::File(resolved) => {
                let temporary = tempfile::Builder::new()
                    .prefix(&temporary_prefix(&resolved))
                    .suffix(".partial")
                    .tempfile_in(folder_of(&resolved))
                    .map_err(io_error(target))?;
                self.files.push((BufWriter::new(temporary), resolved));
                match self.files.last_mut() {
                    Some((writer, _)) => Ok(writer),
                    None => unreachable!("a file was just pushed"),
                }
            }
            Target::Stream(path) => {
                let file = target::open_stream(&path)?;
                self.streams
                    .push((BufWriter::with_capacity(STREAM_BUFFER, file), path));
                match self.streams.last_mut() {
                    Some((writer, _)) => Ok(writer),
                    None => unreachable!("a stream was just pushed"),
                }
            }
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

    /// Finishes the streamed outputs and puts every staged output in place (see the module
    /// docs). A staged folder left empty removes its target instead (a report without pair
    /// pages has no folder of them).
    pub fn commit(self) -> Result<(), WriteError> {
        for (mut stream, path) in self.streams {
            stream.flush().map_err(io_error(&path))?;
        }
        let mut files = Vec::with_capacity(self.files.len());
        for (writer, target) in self.files {
            let temporary = writer
                .into_inner()
                .map_err(|e| io_error(&target)(e.into_error()))?;
            set_creation_mode(temporary.path(), &target).map_err(io_error(&target))?;
            keep_owner(temporary.as_file(), &target);
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

/// Gives a staged file the owner and group of the file it replaces, where this user may (root
/// may give a file away; others may at most choose one of their groups): the shell's `>`
/// writes into the existing file, which keeps its owner. Where not allowed, the new file is
/// this user's, as a new file would be.
fn keep_owner(staged: &File, target: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(old), Ok(new)) = (std::fs::metadata(target), staged.metadata())
            && (old.uid(), old.gid()) != (new.uid(), new.gid())
        {
            let _ = std::os::unix::fs::fchown(staged, Some(old.uid()), Some(old.gid()));
        }
    }
    #[cfg(not(unix))]
    let _ = (staged, target);
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

    #[cfg(unix)]
    #[test]
    fn a_link_keeps_leading_to_its_target_which_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        std::fs::write(&real, "old").unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("real.json", &link).unwrap();
        write_file(&link, b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        assert_eq!(names_in(dir.path()), ["link.json", "real.json"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_streamed_to_its_reader_and_stays_a_fifo() {
        use std::io::Read;
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut text = String::new();
                std::fs::File::open(&fifo)
                    .unwrap()
                    .read_to_string(&mut text)
                    .unwrap();
                text
            })
        };
        write_file(&fifo, b"streamed").unwrap();
        assert_eq!(reader.join().unwrap(), "streamed");
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo());
        assert_eq!(names_in(dir.path()), ["pipe"]);
    }
}
