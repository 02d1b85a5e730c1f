//! Pictures and reports without a window: the dotplot as SVG and PNG, comparison reports as JSON,
//! CSV and text. The viewer exports through these same functions.

pub(crate) mod changes;
pub(crate) mod changes_html;
pub mod collection;
pub mod collection_html;
pub mod collection_json;
pub mod collection_pages;
pub mod collection_ranking;
pub(crate) mod dotplot;
pub mod heatmap;
pub mod html;
pub mod png;
pub mod report;
pub mod report_json;
pub mod sources;
pub(crate) mod units;
pub(crate) mod words;

pub use dotplot::{Dotplot, Tier};

/// A count with its noun as people say it: "1 pair", "3 pairs", "0 pairs".
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A share as people say it, in whole percent: "34%", and "under 1%" rather than a misleading
/// "0%" for a share that is there but small. Every report and view words shares this way.
pub fn percent(share: f64) -> String {
    let whole = format!("{:.0}", share * 100.0);
    if share > 0.0 && whole == "0" {
        "under 1%".to_string()
    } else {
        format!("{whole}%")
    }
}

/// An E-value as people read it: two decimals down to 0.01, then in powers of ten ("3.2e-7"),
/// and "< 1e-300" where the computation bottoms out.
pub fn e_value(e: f64) -> String {
    if e >= 0.01 {
        format!("{e:.2}")
    } else if e > 1e-300 {
        format!("{e:.1e}")
    } else {
        "< 1e-300".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::{e_value, percent};

    #[test]
    fn e_values_read_in_decimals_then_powers_of_ten() {
        assert_eq!(e_value(0.5), "0.50");
        assert_eq!(e_value(0.0032), "3.2e-3");
        assert_eq!(e_value(0.0), "< 1e-300");
    }

    #[test]
    fn shares_read_in_whole_percent_and_a_small_one_is_not_zero() {
        assert_eq!(percent(0.0), "0%");
        assert_eq!(percent(0.004), "under 1%");
        assert_eq!(percent(0.005), "under 1%");
        assert_eq!(percent(0.006), "1%");
        assert_eq!(percent(0.62), "62%");
        assert_eq!(percent(1.0), "100%");
    }
}
