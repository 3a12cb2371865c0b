//! The workers' calibrated speeds as admins see them, on the queue page
//! and in the API's admin view alike: each worker's median and runs, its
//! spread, and the factor its limits are scaled by now.

use serde::Serialize;

use super::AppState;
use crate::judge::{calibrate, fair};
use crate::store::{self, FairTiming};

pub use crate::worker::LIVE;

/// One worker's calibration.
#[derive(Debug, Clone, Serialize)]
pub struct Speed {
    pub worker: String,
    /// CPU milliseconds of the median calibration run (lower is faster).
    pub median_ms: i64,
    pub runs_ms: Vec<u64>,
    /// The slowest run over the fastest.
    pub spread: f64,
    pub language: String,
    pub measured_at: String,
    /// What its limits are multiplied by now (1 when fair timing is off
    /// or the live workers are within the spread).
    pub factor: f64,
    pub alive: bool,
}

/// The workers' speeds and the reference they are scaled against.
#[derive(Debug, Clone, Serialize)]
pub struct Speeds {
    /// `"configured"` (`[timing] reference_ms`), `"fastest"` (the fastest
    /// live worker) or `"off"` (`[timing] fair = false`).
    pub reference: &'static str,
    /// The reference's calibration, milliseconds, where there is one.
    pub reference_ms: Option<f64>,
    pub workers: Vec<Speed>,
}

/// Every recorded calibration, fastest first, with its factor now.
///
/// # Errors
/// Database failures.
pub async fn speeds(state: &AppState) -> Result<Speeds, store::Error> {
    let timing = &state.ctx.config.timing;
    let all = state.store.worker_speeds().await?;
    let live = state.store.live_speeds(LIVE).await?;
    let live_ms: Vec<f64> = live.iter().map(|s| s.median_ms as f64).collect();
    let configured = Some(timing.reference_ms).filter(|r| *r > 0.0);
    let (reference, reference_ms) = match (timing.fair, configured) {
        (false, _) => ("off", None),
        (true, Some(ms)) => ("configured", Some(ms)),
        (true, None) => ("fastest", live_ms.iter().copied().reduce(f64::min)),
    };
    let workers = all
        .into_iter()
        .map(|s| {
            let runs_ms: Vec<u64> = serde_json::from_str(&s.runs_ms).unwrap_or_default();
            let factor = if timing.fair {
                fair::speed_factor(s.median_ms as f64, &live_ms, configured, timing.spread)
            } else {
                1.0
            };
            Speed {
                alive: live.iter().any(|l| l.worker == s.worker),
                spread: calibrate::Calibration {
                    median_ms: u64::try_from(s.median_ms).unwrap_or(0),
                    runs_ms: runs_ms.clone(),
                    language: String::new(),
                }
                .spread(),
                worker: s.worker,
                median_ms: s.median_ms,
                runs_ms,
                language: s.language,
                measured_at: s.measured_at,
                factor,
            }
        })
        .collect();
    Ok(Speeds {
        reference,
        reference_ms,
        workers,
    })
}
