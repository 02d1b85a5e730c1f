//! Pictures and reports without a window: the dotplot as SVG and PNG, comparison reports as JSON,
//! CSV and text. The viewer exports through these same functions.

pub mod collection;
pub mod collection_html;
pub mod dotplot;
pub mod heatmap;
pub mod html;
pub mod png;
pub mod report;
pub mod sources;
pub mod words;

pub use dotplot::{Dotplot, Tier};
