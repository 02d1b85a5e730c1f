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

/// Checks that `model` has what `rules` read (WordNet relations, a verdict this simdoc can
/// apply), so that a preset never runs silently without them.
pub fn check_rules(
    model: &ReferenceModel,
    rules: &simdoc::similarity::MatchRules,
) -> anyhow::Result<()> {
    simdoc::similarity::lexical::require(model, rules)?;
    if rules.verdict
        && let Some(Err(error)) = simdoc::similarity::verdict::Verdict::of(model)
    {
        return Err(error.into());
    }
    Ok(())
}
