//! What the numbers of every JSON output count, written into each file as `"units"` so that a
//! program reading one need not guess: character offsets and lengths count Unicode code points
//! (Rust `char`s, not bytes or UTF-16 units) of the text a document's `offsets_into` names, and
//! sentence positions count from 0 in reading order, as `simdoc compare`'s change list, the
//! viewer, the collection's passages and the sources report all number them.

use serde::{Deserialize, Serialize};

/// The `"units"` object of a JSON output: `{"offsets": "unicode_code_points", "sentences":
/// "positions_from_0"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Units {
    /// What a character offset or length counts.
    pub offsets: String,
    /// How sentence positions are numbered.
    pub sentences: String,
}

impl Default for Units {
    fn default() -> Self {
        Units {
            offsets: "unicode_code_points".to_string(),
            sentences: "positions_from_0".to_string(),
        }
    }
}
