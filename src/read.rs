//! Reading untrusted input files with bounds: regular files only, never more than a limit.
//!
//! Every file simdoc reads (documents, collections, corpora, model files, labelled data sets)
//! comes through [`read_regular_file`]. A FIFO would block `open` until some writer appears and a
//! device such as `/dev/zero` or `/dev/urandom` never ends, so both are refused by their file
//! type, before any byte is read. The size is checked before reading and enforced while reading
//! (a file that grows meanwhile stops at the limit plus one byte), so memory is bounded by the
//! limit whatever the file does.

use std::io::Read;
use std::path::Path;

/// What is at a path, when it is not a regular file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecialFile {
    Directory,
    Fifo,
    CharacterDevice,
    BlockDevice,
    Socket,
    Other,
}

impl SpecialFile {
    /// A phrase for error messages ("a FIFO", "a character device", ...).
    pub fn described(self) -> &'static str {
        match self {
            SpecialFile::Directory => "a directory",
            SpecialFile::Fifo => "a FIFO (named pipe)",
            SpecialFile::CharacterDevice => "a character device",
            SpecialFile::BlockDevice => "a block device",
            SpecialFile::Socket => "a socket",
            SpecialFile::Other => "not a regular file",
        }
    }

    /// `None` for a regular file.
    fn of(file_type: std::fs::FileType) -> Option<SpecialFile> {
        if file_type.is_file() {
            return None;
        }
        if file_type.is_dir() {
            return Some(SpecialFile::Directory);
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if file_type.is_fifo() {
                return Some(SpecialFile::Fifo);
            }
            if file_type.is_char_device() {
                return Some(SpecialFile::CharacterDevice);
            }
            if file_type.is_block_device() {
                return Some(SpecialFile::BlockDevice);
            }
            if file_type.is_socket() {
                return Some(SpecialFile::Socket);
            }
        }
        Some(SpecialFile::Other)
    }
}

/// Why a file was not read. Callers wrap it in their own error type, which names the file.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("is {}, not a regular file", .0.described())]
    Special(SpecialFile),
    #[error("is {size} bytes, over the {limit}-byte limit")]
    TooLarge { size: u64, limit: u64 },
}

/// Reads the regular file at `path` (symbolic links followed), refusing anything else and any
/// file over `limit` bytes.
pub fn read_regular_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    // Classify before opening: opening a FIFO for reading blocks until a writer comes.
    let metadata = std::fs::metadata(path)?;
    if let Some(special) = SpecialFile::of(metadata.file_type()) {
        return Err(ReadError::Special(special));
    }
    let file = open_without_blocking(path)?;
    // The path may have been replaced between the two looks: trust only the opened handle.
    let metadata = file.metadata()?;
    if let Some(special) = SpecialFile::of(metadata.file_type()) {
        return Err(ReadError::Special(special));
    }
    if metadata.len() > limit {
        return Err(ReadError::TooLarge {
            size: metadata.len(),
            limit,
        });
    }
    // The length is at most `limit`, which callers keep far below the address space.
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// Opens for reading; on Unix with `O_NONBLOCK`, so that a FIFO swapped in after the type check
/// fails the second check instead of blocking (the flag changes nothing for regular files).
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_read_whole_up_to_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        std::fs::write(&path, b"twelve bytes").unwrap();
        assert_eq!(read_regular_file(&path, 12).unwrap(), b"twelve bytes");
        match read_regular_file(&path, 11) {
            Err(ReadError::TooLarge { size, limit }) => assert_eq!((size, limit), (12, 11)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn directories_and_missing_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            read_regular_file(dir.path(), 100),
            Err(ReadError::Special(SpecialFile::Directory))
        ));
        assert!(matches!(
            read_regular_file(&dir.path().join("missing"), 100),
            Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound
        ));
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_fifos_are_refused_without_reading() {
        let dev_zero = Path::new("/dev/zero");
        if dev_zero.exists() {
            let err = read_regular_file(dev_zero, 1 << 40).unwrap_err();
            assert!(matches!(
                err,
                ReadError::Special(SpecialFile::CharacterDevice)
            ));
            assert_eq!(err.to_string(), "is a character device, not a regular file");
        }
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        // No writer ever opens the FIFO: a blocking open would hang this test.
        assert!(matches!(
            read_regular_file(&fifo, 100),
            Err(ReadError::Special(SpecialFile::Fifo))
        ));
    }
}
