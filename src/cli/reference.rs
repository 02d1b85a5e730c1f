//! The reference model a command runs with.

use std::borrow::Cow;
use std::path::Path;

use simdoc::model::ReferenceModel;

/// The model in the file given with `--model`, else the embedded one (borrowed, not copied).
pub fn reference_model(path: Option<&Path>) -> anyhow::Result<Cow<'static, ReferenceModel>> {
    Ok(match path {
        Some(path) => Cow::Owned(ReferenceModel::load(path)?),
        None => Cow::Borrowed(ReferenceModel::embedded()),
    })
}
