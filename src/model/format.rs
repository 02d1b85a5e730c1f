//! The model file: versioned, checksummed, compact, and safe to read from an untrusted source.
//!
//! ```text
//! offset  size  field
//! 0       8     magic "SIMDOCRM"
//! 8       4     format version, u32 little-endian (this code writes 5 and reads 1 to 5)
//! 12      8     payload length L, u64 little-endian
//! 20      L     payload (below)
//! 20+L    4     CRC-32 (crc32fast) of bytes 8..20+L: version, length and payload
//! ```
//!
//! Payload, version 2 (`varint` = unsigned LEB128, at most 10 bytes; strings are a varint byte
//! length and UTF-8 bytes):
//! 1. parameters: unit (u8: 0 document, 1 paragraph), `min_df` varint, `floor` f64 LE,
//!    `per_term` varint; then the relatedness kind (u8: 0 co-occurrence, eq. 3.1; 1 word
//!    vectors, followed by `window`, `dimensions` and `min_count` varints and `threshold` and
//!    `scale` f64 LE). Version 1 files have no kind (they are co-occurrence models) and still
//!    load;
//! 2. source note: string;
//! 3. counts: documents, units, sentences, tokens, each a varint;
//! 4. vocabulary: term count T, then each term front-coded against the previous one (bytes
//!    shared with it as a varint, then the rest as a string); terms strictly increasing;
//! 5. document frequencies: T varints;
//! 6. correlations, each pair once (`i < j`): the number R of non-empty rows, then per row the
//!    gap to it from the previous row (the first: its id) as a varint, its number of pairs, the
//!    column deltas (the first from `i`, then from the previous column; all `>= 1`) as varints,
//!    and the pairs' quantised `c` as u16 LE ([`super::correlations`]);
//! 7. 4-grams: the alphabet (count, then each character as a varint code point, in rank order),
//!    the number G of grams, their keys as varint deltas (the first from 0), their counts as
//!    varints ([`super::fourgrams`]);
//! 8. (version 3) WordNet's relations: a byte, 0 for none, 1 followed by the lexicon
//!    ([`super::wordnet::file`]);
//! 9. (version 3) the pair verdict: a byte, 0 for none, 1 followed by it ([`super::verdict`]);
//! 10. (version 4) the reference sentences holding each term: a byte, 0 for none, 1 followed by
//!     them ([`super::sentence_rates`]);
//! 11. (version 5) the pair verdict's term counts: a byte, 0 for none, 1 followed by them
//!     ([`super::verdict::StoredTerms`]; only with a verdict).
//!
//! Files of versions 1 and 2 still load, without WordNet relations or a verdict; the presets
//! that need them then say so; files before version 4 load without sentence rates (a
//! comparison's chance model then reads the documents' rates alone) ([`crate::similarity::lexical::require`]);
//! files before version 5 load with a verdict without term counts (one trained before the
//! TF-KLD features, which [`crate::similarity::verdict::Verdict::new`] refuses by its feature
//! names with a message that says to train it again).
//!
//! Loading checks in order: file size, magic, version, length, checksum, then every structural
//! rule above while decoding (a file that passes the checksum can still be forged). No length
//! read from the file allocates more than the bytes left could describe.

use std::path::{Path, PathBuf};

use super::codec::{Reader, Writer};
use super::correlations::Correlations;
use super::fourgrams::FourgramTable;
use super::sentence_rates::SentenceRates;
use super::vectors::VectorParams;
use super::verdict::{StoredTerms, StoredVerdict};
use super::vocabulary::Vocabulary;
use super::{
    CollectionCounts, CooccurrenceUnit, InvalidModel, ModelParams, ReferenceModel, Relatedness,
    TermId,
};

/// The first bytes of every model file.
pub const MAGIC: [u8; 8] = *b"SIMDOCRM";
/// The format version this code writes, and the newest it reads.
pub const VERSION: u32 = 5;
/// Model files larger than this are refused before being read. The largest model a build of the
/// whole enwiki-2015 reference wrote is about 10 MB (BENCHMARKS.md, "Size against the pruning
/// parameters"); a file fifty times that is not a model anyone built for simdoc, and decoding one
/// would take several times its size in memory.
pub const MAX_MODEL_BYTES: u64 = 512 * 1024 * 1024;
/// Magic, version and length.
const HEADER_LEN: usize = 20;
const CHECKSUM_LEN: usize = 4;

/// Why a model file could not be read or written. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("{}: cannot read or write the model file: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{}: is {size} bytes, over the {limit}-byte limit for model files",
        path.display()
    )]
    TooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
    /// A FIFO, a device or a socket: refused before reading (it could block or never end).
    #[error("{}: is {}, not a model file", path.display(), kind.described())]
    NotRegular {
        path: PathBuf,
        kind: crate::read::SpecialFile,
    },
    #[error("{}: the model file is empty", path.display())]
    Empty { path: PathBuf },
    #[error("{}: is not a simdoc model file (its first bytes are not \"SIMDOCRM\")", path.display())]
    NotAModel { path: PathBuf },
    #[error(
        "{}: the model file has format version {found}, newer than this simdoc reads \
         (up to {VERSION}); use a newer simdoc or rebuild the model",
        path.display()
    )]
    NewerVersion { path: PathBuf, found: u32 },
    #[error("{}: the model file has format version {found}, which no simdoc wrote", path.display())]
    UnknownVersion { path: PathBuf, found: u32 },
    #[error(
        "{}: the model file is truncated: {actual} bytes, the header announces {expected}",
        path.display()
    )]
    Truncated {
        path: PathBuf,
        expected: u64,
        actual: u64,
    },
    #[error(
        "{}: the model file has {actual} bytes, more than the {expected} its header announces",
        path.display()
    )]
    TrailingBytes {
        path: PathBuf,
        expected: u64,
        actual: u64,
    },
    #[error(
        "{}: the model file is corrupted (checksum {computed:08x}, stored {stored:08x})",
        path.display()
    )]
    Checksum {
        path: PathBuf,
        stored: u32,
        computed: u32,
    },
    #[error("{}: the model file is malformed: {reason}", path.display())]
    Malformed { path: PathBuf, reason: String },
}

impl ModelError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            ModelError::Io { path, .. }
            | ModelError::TooLarge { path, .. }
            | ModelError::NotRegular { path, .. }
            | ModelError::Empty { path }
            | ModelError::NotAModel { path }
            | ModelError::NewerVersion { path, .. }
            | ModelError::UnknownVersion { path, .. }
            | ModelError::Truncated { path, .. }
            | ModelError::TrailingBytes { path, .. }
            | ModelError::Checksum { path, .. }
            | ModelError::Malformed { path, .. } => path,
        }
    }
}

impl ReferenceModel {
    /// Reads a model file: a regular file of at most [`MAX_MODEL_BYTES`].
    pub fn load(path: &Path) -> Result<ReferenceModel, ModelError> {
        Self::load_limited(path, MAX_MODEL_BYTES)
    }

    /// Reads a model file of at most `limit` bytes.
    pub fn load_limited(path: &Path, limit: u64) -> Result<ReferenceModel, ModelError> {
        use crate::read::ReadError;
        let path_buf = || path.to_path_buf();
        let bytes = crate::read::read_regular_file(path, limit).map_err(|error| match error {
            ReadError::Io(source) => ModelError::Io {
                path: path_buf(),
                source,
            },
            ReadError::Special(kind) => ModelError::NotRegular {
                path: path_buf(),
                kind,
            },
            ReadError::TooLarge { size, limit } => ModelError::TooLarge {
                path: path_buf(),
                size,
                limit,
            },
        })?;
        Self::from_bytes(&bytes, path)
    }

    /// Decodes a model file's bytes; `origin` names them in errors.
    pub fn from_bytes(bytes: &[u8], origin: &Path) -> Result<ReferenceModel, ModelError> {
        let path = || origin.to_path_buf();
        if bytes.is_empty() {
            return Err(ModelError::Empty { path: path() });
        }
        let magic_len = bytes.len().min(MAGIC.len());
        if bytes[..magic_len] != MAGIC[..magic_len] {
            return Err(ModelError::NotAModel { path: path() });
        }
        if bytes.len() < HEADER_LEN {
            return Err(ModelError::Truncated {
                path: path(),
                expected: (HEADER_LEN + CHECKSUM_LEN) as u64,
                actual: bytes.len() as u64,
            });
        }
        // The file holds at least HEADER_LEN bytes, so both fixed-size copies are in bounds.
        let mut version = [0u8; 4];
        version.copy_from_slice(&bytes[8..12]);
        let version = u32::from_le_bytes(version);
        let mut payload_len = [0u8; 8];
        payload_len.copy_from_slice(&bytes[12..HEADER_LEN]);
        let payload_len = u64::from_le_bytes(payload_len);
        if version > VERSION {
            return Err(ModelError::NewerVersion {
                path: path(),
                found: version,
            });
        }
        if version == 0 {
            return Err(ModelError::UnknownVersion {
                path: path(),
                found: version,
            });
        }
        let expected = payload_len.saturating_add((HEADER_LEN + CHECKSUM_LEN) as u64);
        let actual = bytes.len() as u64;
        if actual < expected {
            return Err(ModelError::Truncated {
                path: path(),
                expected,
                actual,
            });
        }
        if actual > expected {
            return Err(ModelError::TrailingBytes {
                path: path(),
                expected,
                actual,
            });
        }
        // `expected == bytes.len()` now, so these bounds are inside the slice.
        let checked_end = bytes.len() - CHECKSUM_LEN;
        let mut stored = [0u8; 4];
        stored.copy_from_slice(&bytes[checked_end..]);
        let stored = u32::from_le_bytes(stored);
        let computed = crc32fast::hash(&bytes[MAGIC.len()..checked_end]);
        if stored != computed {
            return Err(ModelError::Checksum {
                path: path(),
                stored,
                computed,
            });
        }
        decode_payload(&bytes[HEADER_LEN..checked_end], version).map_err(|reason| {
            ModelError::Malformed {
                path: path(),
                reason,
            }
        })
    }

    /// The model as file bytes (see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = encode_payload(self);
        let mut out = Vec::with_capacity(HEADER_LEN + payload.len() + CHECKSUM_LEN);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&payload);
        let crc = crc32fast::hash(&out[MAGIC.len()..]);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Writes the model to `path`, through a temporary file beside it that is renamed at the end,
    /// so an interrupted save never leaves a half-written model under the final name.
    pub fn save(&self, path: &Path) -> Result<(), ModelError> {
        let io = |source| ModelError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut partial = path.as_os_str().to_owned();
        partial.push(".partial");
        let partial = PathBuf::from(partial);
        std::fs::write(&partial, self.to_bytes()).map_err(io)?;
        std::fs::rename(&partial, path).map_err(|source| {
            let _ = std::fs::remove_file(&partial);
            io(source)
        })
    }
}

fn encode_payload(model: &ReferenceModel) -> Vec<u8> {
    let mut w = Writer::default();
    let params = &model.params;
    w.u8(match params.unit {
        CooccurrenceUnit::Document => 0,
        CooccurrenceUnit::Paragraph => 1,
    });
    w.varint(u64::from(params.min_df));
    w.bytes(&params.floor.to_le_bytes());
    w.varint(u64::from(params.per_term));
    match &params.relatedness {
        Relatedness::Cooccurrence => w.u8(0),
        Relatedness::Vectors(v) => {
            w.u8(1);
            w.varint(u64::from(v.window));
            w.varint(u64::from(v.dimensions));
            w.varint(u64::from(v.min_count));
            w.bytes(&v.threshold.to_le_bytes());
            w.bytes(&v.scale.to_le_bytes());
        }
    }
    w.string(&model.source);
    let c = &model.counts;
    for n in [c.documents, c.units, c.sentences, c.tokens] {
        w.varint(n);
    }

    w.sorted_strings(&model.vocabulary);
    for &df in &model.df {
        w.varint(u64::from(df));
    }

    let correlations = &model.correlations;
    let rows: Vec<TermId> = (0..correlations.terms() as TermId)
        .filter(|&i| correlations.row(i).0.last().is_some_and(|&j| j > i))
        .collect();
    w.varint(rows.len() as u64);
    let mut previous_row = 0;
    for &i in &rows {
        let (cols, values) = correlations.row(i);
        let first_upper = cols.partition_point(|&j| j < i);
        let (cols, values) = (&cols[first_upper..], &values[first_upper..]);
        w.varint(u64::from(i - previous_row));
        previous_row = i;
        w.varint(cols.len() as u64);
        let mut previous_col = i;
        for &j in cols {
            w.varint(u64::from(j - previous_col));
            previous_col = j;
        }
        for &q in values {
            w.bytes(&q.to_le_bytes());
        }
    }

    let fourgrams = &model.fourgrams;
    w.varint(fourgrams.alphabet().len() as u64);
    for &ch in fourgrams.alphabet() {
        w.varint(u64::from(u32::from(ch)));
    }
    w.varint(fourgrams.len() as u64);
    let mut previous_key = 0;
    for &key in fourgrams.keys() {
        w.varint(key - previous_key);
        previous_key = key;
    }
    for &n in fourgrams.counts() {
        w.varint(u64::from(n));
    }
    match &model.lexicon {
        Some(lexicon) => {
            w.u8(1);
            super::wordnet::file::encode(lexicon, &mut w);
        }
        None => w.u8(0),
    }
    match &model.verdict {
        Some(verdict) => {
            w.u8(1);
            verdict.encode(&mut w);
        }
        None => w.u8(0),
    }
    match &model.sentence_rates {
        Some(rates) => {
            w.u8(1);
            rates.encode(&mut w);
        }
        None => w.u8(0),
    }
    match model.verdict.as_ref().and_then(|v| v.terms.as_ref()) {
        Some(terms) => {
            w.u8(1);
            terms.encode(&mut w);
        }
        None => w.u8(0),
    }
    w.out
}

/// Decodes a payload of format `version` that passed its checksum; the error says what is
/// wrong.
fn decode_payload(payload: &[u8], version: u32) -> Result<ReferenceModel, String> {
    let mut r = Reader::new(payload);
    let unit = match r.u8()? {
        0 => CooccurrenceUnit::Document,
        1 => CooccurrenceUnit::Paragraph,
        other => return Err(format!("unknown co-occurrence unit {other}")),
    };
    let min_df = r.varint_u32("min_df")?;
    let floor = f64::from_le_bytes(r.array()?);
    let per_term = r.varint_u32("per_term")?;
    let relatedness = if version < 2 {
        Relatedness::Cooccurrence
    } else {
        match r.u8()? {
            0 => Relatedness::Cooccurrence,
            1 => Relatedness::Vectors(VectorParams {
                window: r.varint_u32("window")?,
                dimensions: r.varint_u32("dimensions")?,
                min_count: r.varint_u32("min_count")?,
                threshold: f64::from_le_bytes(r.array()?),
                scale: f64::from_le_bytes(r.array()?),
            }),
            other => return Err(format!("unknown relatedness kind {other}")),
        }
    };
    let params = ModelParams {
        relatedness,
        unit,
        min_df,
        floor,
        per_term,
    };
    let source = r.string("source note")?.to_string();
    let counts = CollectionCounts {
        documents: r.varint()?,
        units: r.varint()?,
        sentences: r.varint()?,
        tokens: r.varint()?,
    };

    let vocabulary: Vocabulary = r.sorted_strings("terms")?;
    let terms = vocabulary.len();
    let mut df = Vec::with_capacity(terms);
    for _ in 0..terms {
        df.push(r.varint_u32("a document frequency")?);
    }

    let rows = r.count("correlation rows", 2)?;
    let mut pairs: Vec<(TermId, TermId, u16)> = Vec::new();
    let mut row: u64 = 0;
    for k in 0..rows {
        let gap = r.varint()?;
        if k > 0 && gap == 0 {
            return Err("correlation rows are not increasing".to_string());
        }
        row = row.saturating_add(gap);
        let i = TermId::try_from(row)
            .ok()
            .filter(|&i| (i as usize) < terms)
            .ok_or_else(|| format!("correlation row {row} is outside the {terms} terms"))?;
        let len = r.count("a correlation row", 3)?;
        if len == 0 {
            return Err(format!("correlation row {i} is listed but empty"));
        }
        let start = pairs.len();
        pairs.reserve(len);
        let mut col = u64::from(i);
        for _ in 0..len {
            let delta = r.varint()?;
            if delta == 0 {
                return Err(format!("correlation row {i} has columns out of order"));
            }
            col = col.saturating_add(delta);
            let j = TermId::try_from(col)
                .ok()
                .filter(|&j| (j as usize) < terms)
                .ok_or_else(|| format!("correlation row {i} names term {col}, outside"))?;
            pairs.push((i, j, 0));
        }
        for pair in &mut pairs[start..] {
            pair.2 = u16::from_le_bytes(r.array()?);
        }
    }
    let correlations = Correlations::from_sorted_upper(terms, &pairs).map_err(|e| e.to_string())?;
    drop(pairs);

    let alphabet_len = r.count("the 4-gram alphabet", 1)?;
    let mut alphabet = Vec::with_capacity(alphabet_len);
    for _ in 0..alphabet_len {
        let code = r.varint()?;
        let ch = u32::try_from(code)
            .ok()
            .and_then(char::from_u32)
            .ok_or_else(|| format!("{code} is not a character"))?;
        alphabet.push(ch);
    }
    let grams = r.count("4-grams", 2)?;
    let mut keys = Vec::with_capacity(grams);
    let mut key: u64 = 0;
    for g in 0..grams {
        let delta = r.varint()?;
        if g > 0 && delta == 0 {
            return Err("4-gram keys are not increasing".to_string());
        }
        key = key
            .checked_add(delta)
            .ok_or_else(|| "a 4-gram key overflows".to_string())?;
        keys.push(key);
    }
    let mut gram_counts = Vec::with_capacity(grams);
    for _ in 0..grams {
        gram_counts.push(r.varint_u32("a 4-gram count")?);
    }
    let fourgrams =
        FourgramTable::from_parts(alphabet, keys, gram_counts).map_err(|e| e.to_string())?;
    let (lexicon, verdict) = if version >= 3 {
        let lexicon = match r.u8()? {
            0 => None,
            1 => Some(super::wordnet::file::decode(&mut r)?),
            other => return Err(format!("unknown lexicon marker {other}")),
        };
        let verdict = match r.u8()? {
            0 => None,
            1 => Some(StoredVerdict::decode(&mut r)?),
            other => return Err(format!("unknown verdict marker {other}")),
        };
        (lexicon, verdict)
    } else {
        (None, None)
    };
    let sentence_rates = if version >= 4 {
        match r.u8()? {
            0 => None,
            1 => Some(SentenceRates::decode(&mut r, terms)?),
            other => return Err(format!("unknown sentence rates marker {other}")),
        }
    } else {
        None
    };
    let mut verdict = verdict;
    if version >= 5 {
        match (r.u8()?, verdict.as_mut()) {
            (0, _) => {}
            (1, Some(verdict)) => verdict.terms = Some(StoredTerms::decode(&mut r)?),
            (1, None) => return Err("verdict term counts without a verdict".into()),
            (other, _) => return Err(format!("unknown verdict terms marker {other}")),
        }
    }
    if !r.is_at_end() {
        return Err(format!("{} unread bytes at the end", r.remaining()));
    }
    let mut model = ReferenceModel::assemble(
        params,
        source,
        counts,
        vocabulary,
        df,
        correlations,
        fourgrams,
    )
    .map_err(|e: InvalidModel| e.to_string())?;
    model.lexicon = lexicon;
    model.verdict = verdict;
    model.sentence_rates = sentence_rates;
    Ok(model)
}
