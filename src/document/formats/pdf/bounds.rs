//! Bounds on the work `lopdf` does while it loads a PDF, before the loaded document can be
//! checked: `lopdf` 0.42 (the version `pdf-extract` 0.12 uses) unpacks cross-reference streams
//! and object streams (`/Type /ObjStm`, which pack many small objects into one compressed
//! stream) inside `Document::load_mem`, with no limit on their unpacked size or on how many
//! objects they hold. A 1 MB file can unpack to gigabytes there, or describe millions of
//! objects that the raw count of `obj` keywords never sees.
//!
//! Two checks close that gap:
//! - [`inflated_size_within`], on the raw bytes before `lopdf` parses anything: the data after
//!   every `stream` keyword is unpacked through a counter as deflate data (the filter producers
//!   use for these streams), against one budget for the whole file, so no stream of the file,
//!   of whatever kind, unpacks past it while loading;
//! - [`load`], `lopdf`'s loader with an object filter that runs before each object stream is
//!   unpacked: it counts the objects the stream's index lists (as `lopdf` reads them: the
//!   numbers before `/First`, in pairs) and empties the stream, so `lopdf` reads nothing from
//!   it, once the file's objects pass the limit, and it refuses streams packed with a filter
//!   chain other than a single deflate (the counter above only sees one layer).
//!
//! Not covered: an encrypted PDF that opens without a password and has object streams. There
//! `lopdf` decrypts the streams and unpacks them without calling the filter, and the raw bytes
//! are ciphertext, so neither check sees what they unpack to. Nor, later, content streams packed
//! with a chain of filters (say deflate inside deflate): only the first layer is counted.

use std::cell::RefCell;
use std::io::Read;

use pdf_extract::{Document, LoadOptions, Object, ObjectId};

/// Why a PDF is refused while it loads.
#[derive(Debug, PartialEq, Eq)]
pub enum LoadRefusal {
    /// Its streams unpack to more than the budget.
    Inflates,
    /// Its object streams list more objects than the limit, with the others counted.
    TooManyObjects,
    /// An object stream is packed with filters other than one deflate.
    PackedObjects,
}

/// Unpacks the data after every `stream` keyword of `bytes` as deflate data, stopping where it
/// stops being deflate data (other filters, ciphertext and plain content stop it within a few
/// bytes); refuses when all of it together passes `budget` bytes, or when the unpacking reads
/// more than four times the file
/// (overlapping streams built to be read over and over; each attempt counts at least
/// `ATTEMPT_COST` bytes, so a file of nothing but stream headers is bounded too). One
/// decompressor and one output buffer serve every stream: nothing is allocated per stream.
pub fn inflated_size_within(bytes: &[u8], budget: u64) -> Result<(), LoadRefusal> {
    let mut left = budget;
    let mut read_budget = (bytes.len() as u64).saturating_mul(4);
    let mut inflater = flate2::Decompress::new(false);
    let mut out = vec![0u8; 64 * 1024];
    for keyword in memchr::memmem::find_iter(bytes, b"stream") {
        // `endstream` closes a stream; only the opening keyword is followed by data.
        if keyword >= 3 && &bytes[keyword - 3..keyword] == b"end" {
            continue;
        }
        // `lopdf` reads `stream`, spaces or tabs, an end of line, then the data.
        let mut after = keyword + b"stream".len();
        while matches!(bytes.get(after), Some(b' ' | b'\t')) {
            after += 1;
        }
        let start = match bytes.get(after..after + 2) {
            Some(b"\r\n") => after + 2,
            Some([b'\n' | b'\r', _]) => after + 1,
            _ => continue,
        };
        // Past the two-byte zlib header, whatever it says: where the zlib header is wrong,
        // `lopdf` unpacks what follows it as raw deflate data.
        let Some(data) = bytes.get(start + 2..) else {
            continue;
        };
        inflater.reset(false);
        loop {
            let (read, written) = (inflater.total_in(), inflater.total_out());
            // `total_in` never passes the input it was given.
            let input = data.get(read as usize..).unwrap_or_default();
            let status = inflater.decompress(input, &mut out, flate2::FlushDecompress::None);
            if inflater.total_out() > left {
                return Err(LoadRefusal::Inflates);
            }
            // The end of the stream, where it breaks, or where it stops moving.
            let moved = inflater.total_in() != read || inflater.total_out() != written;
            if !matches!(status, Ok(flate2::Status::Ok)) || !moved {
                break;
            }
        }
        left -= inflater.total_out();
        read_budget = read_budget
            .checked_sub(inflater.total_in().max(ATTEMPT_COST))
            .ok_or(LoadRefusal::Inflates)?;
    }
    Ok(())
}

/// The least each unpacking attempt counts against the read budget. A stream in a real file
/// takes more than a quarter of that (`N 0 obj<<>>stream` ... `endstream endobj`), so real
/// files stay within the budget however many small streams they have.
const ATTEMPT_COST: u64 = 128;

/// Reads `reader` to its end or first error; gives the bytes read.
pub fn copy_counting(reader: &mut impl Read) -> u64 {
    let mut buffer = [0u8; 16 * 1024];
    let mut total = 0u64;
    loop {
        match reader.read(&mut buffer) {
            Ok(0) | Err(_) => return total,
            Ok(n) => total += n as u64,
        }
    }
}

/// What the object filter of one load has seen, on the thread that loads.
struct Tally {
    objects: usize,
    max_objects: usize,
    refusal: Option<LoadRefusal>,
}

thread_local! {
    static TALLY: RefCell<Option<Tally>> = const { RefCell::new(None) };
}

/// Loads `bytes` with `lopdf`, counting the objects in object streams on top of
/// `raw_objects` (the objects outside them) and refusing past `max_objects`.
///
/// The tally lives in a thread-local because `lopdf`'s filter is a plain function pointer;
/// `lopdf` (built without its `rayon` feature, as here) calls it on the loading thread. Were it
/// ever called on another thread, it finds no tally there and empties every object stream:
/// the load then fails instead of running unbounded.
pub fn load(
    bytes: &[u8],
    raw_objects: usize,
    max_objects: usize,
) -> Result<Result<Document, pdf_extract::Error>, LoadRefusal> {
    TALLY.with(|tally| {
        *tally.borrow_mut() = Some(Tally {
            objects: raw_objects,
            max_objects,
            refusal: None,
        });
    });
    let loaded = Document::load_mem_with_options(bytes, LoadOptions::with_filter(count_objects));
    let tally = TALLY.with(|tally| tally.borrow_mut().take());
    match tally.and_then(|t| t.refusal) {
        Some(refusal) => Err(refusal),
        None => Ok(loaded),
    }
}

/// `lopdf`'s object filter: see [`load`]. `lopdf` keeps the object it passed in (a top-level
/// object) or the one returned (an object from inside an object stream, never a stream
/// itself), so a stream is answered with a placeholder and anything else with a copy.
fn count_objects(id: ObjectId, object: &mut Object) -> Option<(ObjectId, Object)> {
    let Object::Stream(stream) = object else {
        return Some((id, object.clone()));
    };
    if stream.dict.has_type(b"ObjStm") {
        let keep = TALLY.with(|tally| {
            let mut tally = tally.borrow_mut();
            // No tally on this thread: see `load`.
            let Some(tally) = tally.as_mut() else {
                return false;
            };
            if tally.refusal.is_some() {
                return false;
            }
            match indexed_objects(stream) {
                Err(problem) => tally.refusal = Some(problem),
                Ok(listed) => {
                    tally.objects = tally.objects.saturating_add(listed);
                    if tally.objects > tally.max_objects {
                        tally.refusal = Some(LoadRefusal::TooManyObjects);
                    }
                }
            }
            tally.refusal.is_none()
        });
        if !keep {
            stream.set_content(Vec::new());
        }
    }
    Some((id, Object::Null))
}

/// How many objects an object stream's index lists, read as `lopdf` reads it: the
/// whitespace-separated numbers before `/First`, in pairs.
fn indexed_objects(stream: &pdf_extract::Stream) -> Result<usize, LoadRefusal> {
    let filters = stream.filters().unwrap_or_default();
    if !(filters.is_empty() || filters == [b"FlateDecode".as_slice()]) {
        return Err(LoadRefusal::PackedObjects);
    }
    // Unpacked size is bounded: `inflated_size_within` counted this stream's deflate data.
    let Ok(content) = stream.decompressed_content() else {
        return Ok(0);
    };
    let Some(first) = stream
        .dict
        .get(b"First")
        .and_then(Object::as_i64)
        .ok()
        .and_then(|f| usize::try_from(f).ok())
    else {
        return Ok(0);
    };
    // lopdf reads no objects from an index that is not UTF-8.
    let index = content.get(..first).unwrap_or(&content);
    Ok(std::str::from_utf8(index)
        .map(|index| index.split_whitespace().count() / 2)
        .unwrap_or(0))
}
