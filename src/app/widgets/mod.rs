//! Pieces of the viewer that every view uses and that know nothing of any one view: the drop
//! overlay, the CJK font fallback, shortened labels.

pub(crate) mod file_drop;
pub mod fonts;

/// Shortens text to `max` characters with an ellipsis.
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}
