//! One budget for all the documents this process parses at once.
//!
//! Parsing holds many times its input while it runs (a page's DOM, the hierarchy being built:
//! 25 to 40 times the bytes of ordinary prose and pages, up to about 150 times for a file of
//! one-letter paragraphs), so reading a folder on every core at once multiplied the peak of its
//! largest file by the number of cores (a small EPUB unpacking to 60 MiB took 2.3 GB, on two
//! cores twice that). Every parse reserves its input's weight here first ([`reserve`]): the
//! bytes it will parse, counting a DOCX, ODT or EPUB at what its parts may unpack to. Parses
//! proceed side by side while their weights fit in [`CAPACITY`] (the largest document a file
//! may be by default), and wait otherwise; a heavier one waits until it is alone. So reading
//! many documents at once holds no more, at the peak of parsing, than the heaviest alone.

use std::sync::{Condvar, Mutex};

/// The input bytes parsed at once: 64 MiB, the default size limit of one document.
pub const CAPACITY: u64 = 64 << 20;

static IN_USE: Mutex<u64> = Mutex::new(0);
static FREED: Condvar = Condvar::new();

/// A reservation, released when dropped.
pub struct Permit {
    weight: u64,
}

/// Waits until `weight` bytes (at most [`CAPACITY`]) fit in the budget, and reserves them.
pub fn reserve(weight: u64) -> Permit {
    let weight = weight.min(CAPACITY);
    // A poisoned lock (a panic elsewhere while it was held) still guards a plain number.
    let mut in_use = IN_USE.lock().unwrap_or_else(|e| e.into_inner());
    while *in_use + weight > CAPACITY {
        in_use = FREED.wait(in_use).unwrap_or_else(|e| e.into_inner());
    }
    *in_use += weight;
    Permit { weight }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut in_use = IN_USE.lock().unwrap_or_else(|e| e.into_inner());
        *in_use -= self.weight;
        FREED.notify_all();
    }
}

/// The weight of parsing `bytes`: their length, or for a zip container (DOCX, ODT, EPUB) the
/// most its parts may unpack to ([`super::formats::container::unpacked_limit`]).
pub fn weight_of(bytes: &[u8]) -> u64 {
    let length = bytes.len() as u64;
    if bytes.starts_with(b"PK") {
        super::formats::container::unpacked_limit(length).max(length)
    } else {
        length
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn parses_wait_while_the_budget_is_full() {
        let at_once = AtomicU64::new(0);
        let most = AtomicU64::new(0);
        std::thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| {
                    let _permit = reserve(CAPACITY / 2);
                    let now = at_once.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    at_once.fetch_sub(1, Ordering::SeqCst);
                });
            }
        });
        assert!(most.load(Ordering::SeqCst) <= 2);
        // Heavier than the budget: alone, not forever.
        drop(reserve(CAPACITY * 4));
        assert_eq!(weight_of(b"PK\x03\x04 a small zip"), 4 << 20);
        assert_eq!(weight_of(b"plain text"), 10);
    }
}
