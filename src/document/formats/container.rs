//! The zip container of DOCX, ODT and EPUB, with the bounds every reader of untrusted zip files
//! needs: a zip file's directory is checked for its entry count before it is parsed, and every
//! part is unpacked through an allowance, whatever sizes its headers declare (a zip bomb
//! declares small sizes and unpacks to gigabytes): at most [`MAX_UNPACK_RATIO`] times the
//! compressed bytes of the parts read, and never more than [`unpacked_limit`] of the file's
//! size ([`super::unpack`]).

use std::cell::{Cell, RefCell};
use std::io::Cursor;
use std::path::Path;

use zip::ZipArchive;
use zip::result::ZipError;

use super::unpack::{Allowance, UnpackError, unpack};
use crate::document::{LoadError, SourceFormat};

/// Most entries a container may have. A long book with its images has a few thousand; the
/// parsed directory costs a few hundred bytes an entry, so this bounds its memory too.
pub const MAX_ENTRIES: usize = 10_000;

/// Most bytes the parts read from one container may unpack to, all together: the same as the
/// 64 MiB a text file may have ([`crate::document::LoadOptions`]). The parts read are XML, which
/// holds less text than its size; a real document's parts stay far below it.
pub const MAX_UNPACKED_BYTES: u64 = 64 * 1024 * 1024;

/// Most bytes the parts read may unpack to per compressed byte of those parts, so that what
/// reading it holds in memory is bounded by a multiple of what the file gives them (a 59 KB
/// EPUB unpacking to 60 MiB of paragraphs took 2.3 GB; one of 0.8 MB, most of it an unread
/// entry of random bytes, took 3 GB while this was a multiple of the whole file's size): the
/// whole test fixtures unpack to 1.9 to 3.8 times their size, a zip bomb to a thousand times.
pub const MAX_UNPACK_RATIO: u64 = 100;

/// What any container may unpack to, however small (below [`MAX_UNPACK_RATIO`]'s reach).
pub const MIN_UNPACKED_LIMIT: u64 = 4 * 1024 * 1024;

/// The most a container of `size` bytes may unpack to: [`MAX_UNPACK_RATIO`] times its size, at
/// least [`MIN_UNPACKED_LIMIT`], at most [`MAX_UNPACKED_BYTES`] (the parts read may unpack to
/// less: [`MAX_UNPACK_RATIO`] times their own compressed bytes).
pub fn unpacked_limit(size: u64) -> u64 {
    size.saturating_mul(MAX_UNPACK_RATIO)
        .clamp(MIN_UNPACKED_LIMIT, MAX_UNPACKED_BYTES)
}

/// Why a container naming one part twice is refused rather than read: zip readers differ on
/// which copy they take (the zip crate the last, others the first), so the text Word or a
/// reader shows and the text simdoc would compare may differ, which is the point of such a
/// file; no writer of these formats makes one.
const AMBIGUOUS: &str = "it holds two parts of the same name, and readers differ on which one \
                         they show: which text is the document's cannot be told";

/// The central directory's per-entry signature.
const CENTRAL_ENTRY_SIGNATURE: &[u8] = b"PK\x01\x02";

/// An opened zip container that names `path` in its errors.
pub struct Container<'a> {
    archive: RefCell<ZipArchive<Cursor<&'a [u8]>>>,
    path: &'a Path,
    format: SourceFormat,
    /// How much the parts may unpack to.
    allowance: Allowance,
    /// Compressed and unpacked bytes of the parts read so far.
    compressed: Cell<u64>,
    unpacked: Cell<u64>,
}

impl<'a> Container<'a> {
    /// Opens the container in `bytes`, which is a `format` file (for messages) read from `path`,
    /// with the unpacked-size limit of its size ([`unpacked_limit`]) and the ratio to the
    /// compressed bytes read ([`MAX_UNPACK_RATIO`]).
    pub fn open(bytes: &'a [u8], path: &'a Path, format: SourceFormat) -> Result<Self, LoadError> {
        let limit = unpacked_limit(bytes.len() as u64);
        let mut container = Self::with_limits(bytes, path, format, MAX_ENTRIES, limit)?;
        container.allowance.ratio = Some(MAX_UNPACK_RATIO);
        Ok(container)
    }

    /// [`Container::open`] with other bounds (tests use small ones), and no limit on the
    /// unpacking ratio: at most `max_unpacked` bytes, all parts together.
    pub fn with_limits(
        bytes: &'a [u8],
        path: &'a Path,
        format: SourceFormat,
        max_entries: usize,
        max_unpacked: u64,
    ) -> Result<Self, LoadError> {
        // Counting signatures over-counts when compressed data happens to hold one, which only
        // matters for a file already near the limit.
        let entries = memchr::memmem::find_iter(bytes, CENTRAL_ENTRY_SIGNATURE).count();
        if entries > max_entries {
            return Err(LoadError::OverLimit {
                path: path.to_path_buf(),
                what: format!("the container has {entries} entries"),
                limit: max_entries as u64,
            });
        }
        let archive = ZipArchive::new(Cursor::new(bytes)).map_err(|e| LoadError::Corrupt {
            path: path.to_path_buf(),
            format,
            problem: format!("corrupt zip container ({e})"),
        })?;
        if archive.has_duplicate_names() {
            return Err(LoadError::Corrupt {
                path: path.to_path_buf(),
                format,
                problem: AMBIGUOUS.into(),
            });
        }
        Ok(Container {
            archive: RefCell::new(archive),
            path,
            format,
            allowance: Allowance {
                max_total: max_unpacked,
                ratio: None,
                at_least: MIN_UNPACKED_LIMIT,
            },
            compressed: Cell::new(0),
            unpacked: Cell::new(0),
        })
    }

    /// The file the container came from.
    pub fn path(&self) -> &Path {
        self.path
    }

    /// Whether the container has a part of that name.
    pub fn has(&self, name: &str) -> bool {
        self.archive.borrow().index_for_name(name).is_some()
    }

    /// The part's unpacked bytes; a missing part is [`LoadError::MissingPart`].
    pub fn read(&self, name: &str) -> Result<Vec<u8>, LoadError> {
        self.read_optional(name)?
            .ok_or_else(|| self.missing(name.to_string()))
    }

    /// The part's unpacked bytes, or `None` when the container has no such part.
    pub fn read_optional(&self, name: &str) -> Result<Option<Vec<u8>>, LoadError> {
        let mut archive = self.archive.borrow_mut();
        let Some(index) = archive.index_for_name(name) else {
            return Ok(None);
        };
        let (compressed, unpacked) = (self.compressed.get(), self.unpacked.get());
        // Raw: the part is inflated in `unpack`, which counts the compressed bytes it takes.
        let mut entry = archive
            .by_index_raw(index)
            .map_err(|e| self.zip_error(name, e))?;
        if entry.encrypted() {
            return Err(LoadError::Encrypted {
                path: self.path.to_path_buf(),
            });
        }
        // The declared size may lie; a part declaring more than the whole allowance is
        // refused before it is read.
        if unpacked.saturating_add(entry.size()) > self.allowance.max_total {
            return Err(self.over_budget(name, self.allowance.max_total));
        }
        let part =
            unpack(&mut entry, compressed, unpacked, self.allowance).map_err(|e| match e {
                UnpackError::OverAllowance { limit } => self.over_budget(name, limit),
                UnpackError::Method(method) => self.corrupt(format!(
                    "part {name} is compressed with {method}, which this format does not use"
                )),
                UnpackError::Damaged(problem) => {
                    self.corrupt(format!("part {name} cannot be unpacked ({problem})"))
                }
            })?;
        self.compressed
            .set(compressed.saturating_add(part.compressed));
        self.unpacked
            .set(unpacked.saturating_add(part.bytes.len() as u64));
        Ok(Some(part.bytes))
    }

    /// The part as text: UTF-8 (a byte-order mark is dropped) or UTF-16 with a byte-order mark,
    /// as XML allows.
    pub fn read_string(&self, name: &str) -> Result<String, LoadError> {
        let bytes = self.read(name)?;
        text_of(&bytes)
            .ok_or_else(|| self.corrupt(format!("part {name} is not UTF-8 or UTF-16 text")))
    }

    /// [`Container::read_string`] for a part that may be missing.
    pub fn read_string_optional(&self, name: &str) -> Result<Option<String>, LoadError> {
        if !self.has(name) {
            return Ok(None);
        }
        self.read_string(name).map(Some)
    }

    /// A [`LoadError::Corrupt`] about this container.
    pub fn corrupt(&self, problem: String) -> LoadError {
        LoadError::Corrupt {
            path: self.path.to_path_buf(),
            format: self.format,
            problem,
        }
    }

    /// A [`LoadError::MissingPart`] about this container.
    pub fn missing(&self, part: String) -> LoadError {
        LoadError::MissingPart {
            path: self.path.to_path_buf(),
            format: self.format,
            part,
        }
    }

    fn over_budget(&self, name: &str, limit: u64) -> LoadError {
        let what = match self.allowance.ratio {
            Some(ratio) if limit < self.allowance.max_total => format!(
                "its parts unpack to more than {ratio} times their compressed size (at part \
                 {name})"
            ),
            _ => format!("its parts unpack to more bytes than allowed (at part {name})"),
        };
        LoadError::OverLimit {
            path: self.path.to_path_buf(),
            what,
            limit,
        }
    }

    fn zip_error(&self, name: &str, error: ZipError) -> LoadError {
        match error {
            ZipError::UnsupportedArchive(message) if message.contains("assword") => {
                LoadError::Encrypted {
                    path: self.path.to_path_buf(),
                }
            }
            other => self.corrupt(format!("part {name} cannot be read ({other})")),
        }
    }
}

/// Bytes of an XML part as text (see [`Container::read_string`]).
fn text_of(bytes: &[u8]) -> Option<String> {
    let (encoding, bom_length) =
        encoding_rs::Encoding::for_bom(bytes).unwrap_or((encoding_rs::UTF_8, 0));
    let body = &bytes[bom_length..];
    if encoding == encoding_rs::UTF_8 {
        return String::from_utf8(body.to_vec()).ok();
    }
    let (text, had_errors) = encoding.decode_without_bom_handling(body);
    (!had_errors).then(|| text.into_owned())
}
