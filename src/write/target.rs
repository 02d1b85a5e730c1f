//! What an output path is, decided before anything is written, and how it is written: the way
//! a shell's `>` treats the path, except that a regular file is replaced by a transaction.
//!
//! | the path is | written |
//! |---|---|
//! | nothing yet, in an existing folder | a new file, by transaction |
//! | a regular file | replaced by transaction (its mode and, where allowed, owner kept); refused when this user may not write it (`Permission denied`, as the shell says) |
//! | a symbolic link | what it leads to, by these same rules (a dangling link: the file it names is created); the link stays |
//! | a FIFO (a named pipe, a process substitution's `/dev/fd/N`) or a character device (`/dev/null`, a terminal) | opened and streamed to as the output is made: it cannot be replaced, and replacing it would break it (as root, `--json /dev/null` replaced the system's `/dev/null` with a regular file) |
//! | a folder, a block device, a socket | refused |
//! | in a folder that does not exist or may not be written | refused, before any work (it was found only once the comparison was done) |
//!
//! A transaction needs the target's folder writable (its temporary file goes there); a file
//! this user may write in a folder they may not is refused, not written in place (a run
//! stopped midway would leave it torn).

use std::path::{Path, PathBuf};

use super::{WriteError, folder_of, io_error};

/// How an output is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A regular file, existing or new, at this path (symbolic links to it resolved): staged
    /// beside it and renamed over it at the commit.
    File(PathBuf),
    /// A FIFO or a character device at this path (as given: a process substitution's
    /// `/dev/fd/N` only means something to the kernel): opened and written to directly.
    Stream(PathBuf),
}

/// Symbolic links followed before giving up, as Linux does (`ELOOP`).
const MAX_LINKS: usize = 40;

/// What writing to `path` means (see the module docs). Opens nothing that could block: a FIFO
/// is only classified here.
pub fn classify(path: &Path) -> Result<Target, WriteError> {
    match std::fs::metadata(path) {
        Ok(metadata) => classify_existing(path, &metadata),
        Err(error)
            if matches!(
                error.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            // Nothing there, or a symbolic link leading nowhere: the file it names is made (if
            // its folder is one).
            let target = resolve_links(path).map_err(io_error(path))?;
            check_folder(path, &target)?;
            Ok(Target::File(target))
        }
        Err(error) => Err(io_error(path)(error)),
    }
}

fn classify_existing(path: &Path, metadata: &std::fs::Metadata) -> Result<Target, WriteError> {
    let file_type = metadata.file_type();
    if file_type.is_file() {
        let target = resolve_links(path).map_err(io_error(path))?;
        check_writable(path, &target)?;
        check_folder(path, &target)?;
        return Ok(Target::File(target));
    }
    if file_type.is_dir() {
        return Err(WriteError::IsFolder {
            path: path.to_path_buf(),
        });
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() || file_type.is_char_device() {
            return Ok(Target::Stream(path.to_path_buf()));
        }
        let what = if file_type.is_block_device() {
            "a block device"
        } else if file_type.is_socket() {
            "a socket"
        } else {
            "not a regular file"
        };
        Err(WriteError::NotWritableKind {
            path: path.to_path_buf(),
            what,
        })
    }
    #[cfg(not(unix))]
    Err(WriteError::NotWritableKind {
        path: path.to_path_buf(),
        what: "not a regular file",
    })
}

/// `path` with the symbolic links of its last component followed to what they name (which
/// may not exist yet). A relative link is read from the folder the link is in.
fn resolve_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let leads_to = std::fs::read_link(&current)?;
                current = if leads_to.is_absolute() {
                    leads_to
                } else {
                    folder_of(&current).join(leads_to)
                };
            }
            _ => return Ok(current),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// Refuses a regular file this user may not write, as the shell's `>` would: the file is
/// opened for writing (not truncated, nothing written) and the refusal is the system's.
fn check_writable(path: &Path, target: &Path) -> Result<(), WriteError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A FIFO swapped in since the look above must not block this open.
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options
        .open(target)
        .map(drop)
        .map_err(|error| io_error(path)(error))
}

/// Refuses a target whose folder does not exist, is not a folder, or may not be written
/// (its temporary file goes there).
fn check_folder(path: &Path, target: &Path) -> Result<(), WriteError> {
    let folder = folder_of(target);
    let no_folder = |problem| WriteError::NoFolder {
        path: path.to_path_buf(),
        folder: folder.to_path_buf(),
        problem,
    };
    match std::fs::metadata(folder) {
        Ok(metadata) if metadata.is_dir() => {}
        Ok(_) => return Err(no_folder("is not a folder")),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(no_folder("does not exist"));
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotADirectory => {
            return Err(no_folder("is not a folder"));
        }
        Err(error) => return Err(io_error(path)(error)),
    }
    #[cfg(unix)]
    {
        use rustix::fs::{Access, AtFlags, CWD, accessat};
        // The effective user's right to add a file there (root's too, on a read-only mount).
        accessat(
            CWD,
            folder,
            Access::WRITE_OK | Access::EXEC_OK,
            AtFlags::EACCESS,
        )
        .map_err(|error| WriteError::FolderNotWritable {
            path: path.to_path_buf(),
            folder: folder.to_path_buf(),
            error: error.into(),
        })?;
    }
    Ok(())
}

/// Refuses an output folder (staged beside itself) whose own folder does not exist or may not
/// be written.
pub fn check_parent(folder: &Path) -> Result<(), WriteError> {
    check_folder(folder, folder)
}

/// Opens a [`Target::Stream`] for writing: a FIFO waits here for its reader, as the shell's
/// `>` does. Nothing is created or truncated; a regular file found here now (swapped in since
/// it was classified) is refused rather than written over from its start.
pub fn open_stream(path: &Path) -> Result<std::fs::File, WriteError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOCTTY);
    }
    let file = options.open(path).map_err(io_error(path))?;
    let is_file = file.metadata().map_err(io_error(path))?.is_file();
    if is_file {
        return Err(WriteError::Changed {
            path: path.to_path_buf(),
        });
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_and_regular_files_are_files_and_folders_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let fresh = dir.path().join("fresh.json");
        assert_eq!(classify(&fresh).unwrap(), Target::File(fresh.clone()));
        std::fs::write(&fresh, "old").unwrap();
        assert_eq!(classify(&fresh).unwrap(), Target::File(fresh.clone()));
        assert!(matches!(
            classify(dir.path()),
            Err(WriteError::IsFolder { .. })
        ));
        let nowhere = dir.path().join("missing").join("out.json");
        let error = classify(&nowhere).unwrap_err();
        assert!(matches!(error, WriteError::NoFolder { .. }), "{error}");
        assert!(
            error.to_string().ends_with("missing does not exist"),
            "{error}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn links_lead_to_their_target_and_fifos_are_streams() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        std::fs::write(&real, "old").unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("real.json", &link).unwrap();
        assert_eq!(classify(&link).unwrap(), Target::File(real.clone()));
        let chain = dir.path().join("chain.json");
        std::os::unix::fs::symlink(&link, &chain).unwrap();
        assert_eq!(classify(&chain).unwrap(), Target::File(real));
        let dangling = dir.path().join("dangling.json");
        std::os::unix::fs::symlink("made.json", &dangling).unwrap();
        assert_eq!(
            classify(&dangling).unwrap(),
            Target::File(dir.path().join("made.json"))
        );
        let looped = dir.path().join("loop.json");
        std::os::unix::fs::symlink("loop.json", &looped).unwrap();
        assert!(classify(&looped).is_err());
        let fifo = dir.path().join("pipe");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        // Classified without opening: no reader exists, and a blocking open would hang here.
        assert_eq!(classify(&fifo).unwrap(), Target::Stream(fifo.clone()));
    }
}
