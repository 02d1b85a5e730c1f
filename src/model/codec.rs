//! The byte-level codec of model files: a growing buffer with varints and strings, and a
//! bounds-checked reader that fails with a message instead of panicking (the payload of a model
//! file is untrusted input, [`super::format`]).

use super::vocabulary::{Vocabulary, VocabularyBuilder};

fn shared_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

#[derive(Default)]
pub(crate) struct Writer {
    pub(crate) out: Vec<u8>,
}

impl Writer {
    pub(crate) fn u8(&mut self, v: u8) {
        self.out.push(v);
    }

    pub(crate) fn bytes(&mut self, b: &[u8]) {
        self.out.extend_from_slice(b);
    }

    /// Unsigned LEB128.
    pub(crate) fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.out.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.out.push(v as u8);
    }

    pub(crate) fn string(&mut self, s: &str) {
        self.varint(s.len() as u64);
        self.bytes(s.as_bytes());
    }

    pub(crate) fn f64(&mut self, v: f64) {
        self.bytes(&v.to_le_bytes());
    }

    /// Sorted distinct strings: their count, then each front-coded against the previous one
    /// (bytes shared with it as a varint, then the rest as a string).
    pub(crate) fn sorted_strings(&mut self, strings: &Vocabulary) {
        self.varint(strings.len() as u64);
        let mut previous = "";
        for term in strings.iter() {
            let shared = shared_prefix(previous.as_bytes(), term.as_bytes());
            self.varint(shared as u64);
            self.varint((term.len() - shared) as u64);
            self.bytes(&term.as_bytes()[shared..]);
            previous = term;
        }
    }
}

/// A bounds-checked cursor over a byte slice; every read fails with a message instead of
/// panicking.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    pub(crate) fn is_at_end(&self) -> bool {
        self.remaining() == 0
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if n > self.remaining() {
            return Err(format!(
                "the payload ends early (wanted {n} bytes at offset {}, {} left)",
                self.pos,
                self.remaining()
            ));
        }
        let slice = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(slice)
    }

    pub(crate) fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    pub(crate) fn u8(&mut self) -> Result<u8, String> {
        Ok(self.array::<1>()?[0])
    }

    /// Unsigned LEB128 of at most 10 bytes that fits in 64 bits.
    pub(crate) fn varint(&mut self) -> Result<u64, String> {
        // Most values in a model file fit in one byte.
        if let Some(&byte) = self.bytes.get(self.pos)
            && byte < 0x80
        {
            self.pos += 1;
            return Ok(u64::from(byte));
        }
        let mut value = 0u64;
        for shift in (0..70).step_by(7) {
            let byte = self.u8()?;
            let bits = u64::from(byte & 0x7f);
            if shift == 63 && bits > 1 {
                return Err("a varint overflows 64 bits".to_string());
            }
            value |= bits << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err("a varint is longer than 10 bytes".to_string())
    }

    pub(crate) fn varint_u32(&mut self, what: &str) -> Result<u32, String> {
        let v = self.varint()?;
        u32::try_from(v).map_err(|_| format!("{what} ({v}) does not fit in 32 bits"))
    }

    /// A count of items that take at least `min_bytes` each (0: any), checked against the bytes
    /// left so that no forged count can make the reader allocate more than the file describes.
    pub(crate) fn count(&mut self, what: &str, min_bytes: usize) -> Result<usize, String> {
        let n = self.varint()?;
        let limit = match min_bytes {
            0 => u64::from(u32::MAX),
            m => (self.remaining() / m) as u64,
        };
        if n > limit {
            return Err(format!(
                "{what}: {n} announced, more than the remaining {} bytes can hold",
                self.remaining()
            ));
        }
        // n <= limit, which fits in usize.
        Ok(n as usize)
    }

    /// A varint length and that many bytes.
    pub(crate) fn bytes_counted(&mut self, what: &str) -> Result<&'a [u8], String> {
        let n = self.count(what, 1)?;
        self.take(n)
    }

    pub(crate) fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_le_bytes(self.array()?))
    }

    /// Strings written by [`Writer::sorted_strings`], checked to be strictly increasing UTF-8.
    pub(crate) fn sorted_strings(&mut self, what: &str) -> Result<Vocabulary, String> {
        let count = self.count(what, 2)?;
        let mut strings = VocabularyBuilder::with_capacity(count);
        let mut text = Vec::new();
        for index in 0..count {
            let shared = self.count("a string's shared prefix", 0)?;
            let suffix = self.bytes_counted(what)?;
            let last = strings.last().as_bytes();
            if shared > last.len() {
                return Err(format!(
                    "{what}: string {index} shares more bytes than its predecessor has"
                ));
            }
            text.clear();
            text.extend_from_slice(&last[..shared]);
            text.extend_from_slice(suffix);
            let text = std::str::from_utf8(&text)
                .map_err(|_| format!("{what}: string {index} is not UTF-8"))?;
            strings.push(text).map_err(|e| format!("{what}: {e}"))?;
        }
        Ok(strings.finish())
    }

    pub(crate) fn string(&mut self, what: &str) -> Result<&'a str, String> {
        let bytes = self.bytes_counted(what)?;
        std::str::from_utf8(bytes).map_err(|_| format!("{what} is not UTF-8"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_and_refuse_overflow() {
        let values = [0u64, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX];
        let mut w = Writer::default();
        for v in values {
            w.varint(v);
        }
        let mut r = Reader::new(&w.out);
        for v in values {
            assert_eq!(r.varint().unwrap(), v);
        }
        assert!(r.is_at_end());
        assert!(Reader::new(&[0xff; 10]).varint().is_err());
        assert!(
            Reader::new(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02])
                .varint()
                .is_err()
        );
        assert!(Reader::new(&[0x80]).varint().is_err());
    }

    #[test]
    fn forged_counts_cannot_allocate_beyond_the_input() {
        let mut w = Writer::default();
        w.varint(1 << 40);
        w.bytes(&[0; 16]);
        assert!(Reader::new(&w.out).count("terms", 2).is_err());
    }
}
