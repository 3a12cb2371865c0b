//! Each process running judge workers reports itself to the database, so
//! the admin pages can show every worker of a judge spread over machines:
//! how many workers, the sandbox tiers in force there (what `grundy
//! doctor` prints), the submissions in hand, and when it was last heard of.

use std::fmt::Write as _;
use std::sync::Arc;

use tokio::sync::watch;

use crate::context::Context;
use crate::store::Store;

pub use crate::site::state::{Busy, HEARTBEAT};

pub use crate::site::state::process_name;

/// The sandbox facts of this machine, as `grundy doctor` words them.
pub fn tiers_text(ctx: &Context) -> String {
    let tiers = ctx.tiers();
    let mut out = String::new();
    let _ = writeln!(out, "isolation:   {}", tiers.isolation);
    let _ = writeln!(out, "measurement: {}", tiers.measurement);
    let _ = writeln!(out, "sandbox:     {}", ctx.runner().describe());
    if let Some(why) = &tiers.refused {
        let _ = writeln!(out, "REFUSING:    {why}");
    }
    for line in &tiers.missing {
        let _ = writeln!(out, "missing:     {line}");
    }
    out.trim_end().to_string()
}

/// Reports this process until `stop` turns true, then removes its entry.
/// A failure to report is logged; judging goes on regardless.
pub async fn run(
    store: Store,
    ctx: Arc<Context>,
    (name, workers): (String, usize),
    busy: Busy,
    mut stop: watch::Receiver<bool>,
) {
    let tiers = match tokio::task::spawn_blocking(move || tiers_text(&ctx)).await {
        Ok(t) => t,
        Err(e) => format!("unknown: {e}"),
    };
    if let Err(e) = store
        .register_workers(&name, i64::try_from(workers).unwrap_or(i64::MAX), &tiers)
        .await
    {
        tracing::warn!(error = %e, "could not report the workers");
    }
    loop {
        tokio::select! {
            _ = tokio::time::sleep(HEARTBEAT) => {}
            _ = stop.wait_for(|s| *s) => break,
        }
        let current = {
            // Held only to copy a few ids; no await inside.
            let held = busy.lock().unwrap_or_else(|p| p.into_inner());
            held.iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        if let Err(e) = store.workers_alive(&name, &current).await {
            tracing::warn!(error = %e, "could not report the workers");
        }
    }
    if let Err(e) = store.unregister_workers(&name).await {
        tracing::warn!(error = %e, "could not remove the workers' report");
    }
}
