//! Unpacking one part of a zip container against the container's unpacking allowance, counting
//! the compressed bytes the part really takes up.
//!
//! The allowance is a multiple of the compressed bytes of the parts read ([`Allowance`]), not
//! of the whole file: an EPUB of 0.8 MB whose chapter unpacked to 60 MB of `<p>a</p>` passed a
//! check against the file's size thanks to one large entry of random bytes nobody reads, and
//! reading it took 3 GB. The compressed bytes are those the decompressor consumed, not the
//! size the zip directory declares (which a file can overstate at will): the part is inflated
//! here, from its raw bytes, through a reader that counts what is consumed, and its checksum
//! checked as the zip crate would. DOCX, ODT and EPUB use stored and deflated parts only.

use std::cell::Cell;
use std::io::{BufRead, Read};

use zip::CompressionMethod;
use zip::read::ZipFile;

/// How much the parts read from one container may unpack to.
#[derive(Clone, Copy, Debug)]
pub(super) struct Allowance {
    /// Never more than this, all parts together.
    pub max_total: u64,
    /// At most this many bytes per compressed byte of the parts read (with
    /// [`Allowance::at_least`] whatever they are), when set.
    pub ratio: Option<u64>,
    /// What the ratio allows however few compressed bytes were read.
    pub at_least: u64,
}

impl Allowance {
    /// What the parts may unpack to, all together, once `compressed` bytes of them are read.
    pub fn after(&self, compressed: u64) -> u64 {
        match self.ratio {
            Some(ratio) => ratio
                .saturating_mul(compressed)
                .max(self.at_least)
                .min(self.max_total),
            None => self.max_total,
        }
    }
}

/// Why a part was not unpacked.
#[derive(Debug)]
pub(super) enum UnpackError {
    /// Past the allowance, which was this many bytes at that point.
    OverAllowance { limit: u64 },
    /// Compressed with a method these formats do not use.
    Method(CompressionMethod),
    /// Damaged: the deflate stream or the checksum.
    Damaged(String),
}

/// A part's bytes and the compressed bytes they took up.
pub(super) struct Unpacked {
    pub bytes: Vec<u8>,
    pub compressed: u64,
}

/// Bytes read per step: the allowance is checked after each.
const STEP: usize = 64 << 10;

/// Unpacks the raw part `entry` (opened with `by_index_raw`), the parts before it having taken
/// `compressed_before` compressed and `unpacked_before` unpacked bytes. Stops as soon as the
/// total passes the allowance.
pub(super) fn unpack<R: Read>(
    entry: &mut ZipFile<'_, R>,
    compressed_before: u64,
    unpacked_before: u64,
    allowance: Allowance,
) -> Result<Unpacked, UnpackError> {
    let method = entry.compression();
    let expected_crc = entry.crc32();
    let declared = entry.size();
    let consumed = Cell::new(0u64);
    let source = Counted {
        inner: std::io::BufReader::new(entry),
        consumed: &consumed,
    };
    let mut reader: Box<dyn Read + '_> = match method {
        CompressionMethod::Stored => Box::new(source),
        CompressionMethod::Deflated => Box::new(flate2::bufread::DeflateDecoder::new(source)),
        other => return Err(UnpackError::Method(other)),
    };
    let room = allowance.max_total.saturating_sub(unpacked_before);
    let mut bytes = Vec::with_capacity(declared.min(room) as usize);
    loop {
        let limit = allowance.after(compressed_before.saturating_add(consumed.get()));
        if unpacked_before.saturating_add(bytes.len() as u64) > limit {
            return Err(UnpackError::OverAllowance { limit });
        }
        let read = (&mut reader)
            .take(STEP as u64)
            .read_to_end(&mut bytes)
            .map_err(|e| UnpackError::Damaged(e.to_string()))?;
        if read == 0 {
            break;
        }
    }
    drop(reader);
    let limit = allowance.after(compressed_before.saturating_add(consumed.get()));
    if unpacked_before.saturating_add(bytes.len() as u64) > limit {
        return Err(UnpackError::OverAllowance { limit });
    }
    if crc32fast::hash(&bytes) != expected_crc {
        return Err(UnpackError::Damaged("its checksum does not match".into()));
    }
    Ok(Unpacked {
        bytes,
        compressed: consumed.get(),
    })
}

/// A buffered reader that counts the bytes its user took: `consume`d by a decompressor reading
/// it as [`BufRead`], or `read` directly.
struct Counted<'c, R> {
    inner: R,
    consumed: &'c Cell<u64>,
}

impl<R: BufRead> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = self.inner.read(buf)?;
        self.consumed.set(self.consumed.get() + read as u64);
        Ok(read)
    }
}

impl<R: BufRead> BufRead for Counted<'_, R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.consumed.set(self.consumed.get() + amount as u64);
        self.inner.consume(amount);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_allowance_grows_with_the_compressed_bytes_read_between_its_bounds() {
        let allowance = Allowance {
            max_total: 1000,
            ratio: Some(100),
            at_least: 200,
        };
        assert_eq!(allowance.after(0), 200);
        assert_eq!(allowance.after(5), 500);
        assert_eq!(allowance.after(50), 1000);
        let absolute = Allowance {
            ratio: None,
            ..allowance
        };
        assert_eq!(absolute.after(0), 1000);
    }
}
