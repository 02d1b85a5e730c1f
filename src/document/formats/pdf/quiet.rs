//! `catch_unwind` without the panic message: `pdf-extract` panics on some malformed files (its
//! `unwrap`s), which the PDF reader turns into [`crate::document::LoadError::Corrupt`]; the
//! default panic hook would still print "thread 'main' panicked at ..." (and a backtrace) to the
//! user before the clear error. Found by fuzzing (`fuzz/`, document_bytes): a damaged PDF.
//!
//! A panic hook is process-wide, so it is not swapped around each call (another thread may
//! panic meanwhile). Instead one hook is installed once, in front of whatever hook was there: it
//! stays silent for a panic raised on a thread that is inside [`catch_quietly`] and hands every
//! other panic to the previous hook unchanged (a fuzzer's hook that aborts on any panic still
//! sees real ones).

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

thread_local! {
    /// How many [`catch_quietly`] calls this thread is inside.
    static QUIET: Cell<u32> = const { Cell::new(0) };
}

static INSTALL: Once = Once::new();

/// Runs `f`; a panic inside it is caught, silently, as `Err(())`.
pub fn catch_quietly<T>(f: impl FnOnce() -> T) -> Result<T, ()> {
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) == 0 {
                previous(info);
            }
        }));
    });
    QUIET.with(|q| q.set(q.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(q.get().saturating_sub(1)));
    result.map_err(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_inside_is_caught_and_a_value_passes_through() {
        assert_eq!(catch_quietly(|| 7), Ok(7));
        let caught: Result<(), ()> = catch_quietly(|| panic!("malformed"));
        assert_eq!(caught, Err(()));
        // The depth is back to zero: later panics elsewhere reach the previous hook.
        assert_eq!(QUIET.with(Cell::get), 0);
    }
}
