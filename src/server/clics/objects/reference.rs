//! A contest's reference data: judgement types, languages and problems.

use serde_json::{json, Value};

use super::super::ApiError;
use crate::contest::{Contest, Scoring};
use crate::context::Context;
use crate::site::AppState;

pub fn judgement_types() -> Vec<Value> {
    let t = |id: &str, name: &str, penalty: bool, solved: bool| json!({"id": id, "name": name, "penalty": penalty, "solved": solved});
    vec![
        t("AC", "accepted", false, true),
        t("WA", "wrong answer", true, false),
        t("PE", "presentation error", true, false),
        t("TLE", "time limit exceeded", true, false),
        t("MLE", "memory limit exceeded", true, false),
        t("OLE", "output limit exceeded", true, false),
        t("RTE", "run-time error", true, false),
        t("CE", "compiler error", false, false),
        t("JE", "judging error", false, false),
    ]
}

pub fn languages(ctx: &Context) -> Vec<Value> {
    ctx.languages
        .iter()
        .map(|l| {
            json!({
                "id": clics_language(ctx, &l.id),
                "name": l.config.name,
                "entry_point_required": false,
                "extensions": l.config.extensions,
            })
        })
        .collect()
}

pub use crate::site::clics_language;

/// Problem `p` (its place in contest `c`) with what its package says,
/// and its `max_score` in a scoring contest (every problem scores 0 to
/// 100).
///
/// # Errors
/// A package that cannot be read.
pub async fn fill_problem(state: &AppState, c: &Contest, p: &mut Value) -> Result<(), ApiError> {
    let ctx = state.ctx.clone();
    let slug = p["id"].as_str().unwrap_or_default().to_string();
    let manifest = tokio::task::spawn_blocking(move || {
        ctx.catalog.load(&slug).map(|problem| {
            (
                problem.manifest.name.clone(),
                problem.manifest.time_limit,
                problem.manifest.tests.len(),
                problem.manifest.rgb.clone(),
                problem.manifest.color.clone(),
            )
        })
    })
    .await?
    .map_err(|e| ApiError::internal(&e))?;
    p["name"] = json!(manifest.0);
    p["time_limit"] = json!(manifest.1);
    p["test_data_count"] = json!(manifest.2);
    // The contest's colour, else the problem's own, else none (the
    // properties are absent, as the standard has no null for them).
    if let (None, Some(rgb), Some(color)) = (p.get("rgb"), manifest.3, manifest.4) {
        p["rgb"] = json!(rgb);
        p["color"] = json!(color);
    }
    if c.scoring == Scoring::Ioi {
        p["max_score"] = json!(100);
    }
    Ok(())
}
