//! Each process running judge workers reports itself to the database, so
//! the admin pages can show every worker of a judge spread over machines:
//! how many workers, the machine's cores, the sandbox tiers in force there
//! (what `grundy doctor` prints), the languages it has toolchains for with
//! their versions (the only ones its workers claim), the submissions in
//! hand, and when it was last heard of.

use std::sync::Arc;

use tokio::sync::watch;

use crate::context::Context;
use crate::store::Store;

use super::{Busy, HEARTBEAT};

/// One configured language on this machine.
#[derive(Debug, Clone)]
pub struct Language {
    pub id: String,
    /// The toolchain's version line, where it is there.
    pub version: Option<String>,
    /// Why it is not usable here, where it is not.
    pub missing: Option<String>,
}

/// Every configured language, probed on this machine (it runs each
/// toolchain's version command once: call it off the async threads).
pub fn languages(ctx: &Context) -> Vec<Language> {
    ctx.languages
        .iter()
        .map(|lang| match lang.version(ctx.runner().as_ref()) {
            Ok(version) => Language {
                id: lang.id.clone(),
                version: Some(version),
                missing: None,
            },
            Err(why) => Language {
                id: lang.id.clone(),
                version: None,
                missing: Some(why),
            },
        })
        .collect()
}

/// The ids of the usable ones among `languages`.
pub fn usable(languages: &[Language]) -> Vec<String> {
    languages
        .iter()
        .filter(|l| l.missing.is_none())
        .map(|l| l.id.clone())
        .collect()
}

/// The languages as announced: `id version` a line, the usable ones only.
pub fn languages_text(languages: &[Language]) -> String {
    languages
        .iter()
        .filter_map(|l| Some(format!("{} {}", l.id, l.version.as_ref()?)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// How long a process may stay silent before it is taken off the list
/// of workers (its history stays): long past [`super::LIVE`], so the admins
/// see a dead process as silent for a while first.
pub const FORGET_AFTER: std::time::Duration = std::time::Duration::from_secs(600);

/// Takes the processes silent for [`FORGET_AFTER`] off the list.
async fn forget_the_dead(store: &Store) {
    match store.forget_silent_workers(FORGET_AFTER).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(n, "forgot worker processes silent for ten minutes"),
        Err(e) => tracing::warn!(error = %e, "could not forget the silent worker processes"),
    }
}

/// Reports this process until `stop` turns true, then removes its entry.
/// A failure to report is logged; judging goes on regardless. A language
/// whose toolchain was missing (or whose probe failed, a box starved by
/// load) is probed again with the heartbeat, as often as its probe may be
/// retried: once found, the workers claim it (`judged`) and it is announced.
pub async fn run(
    store: Store,
    ctx: Arc<Context>,
    (name, workers): (String, usize),
    (mut languages, judged): (Vec<Language>, super::Judged),
    busy: Busy,
    mut stop: watch::Receiver<bool>,
) {
    let probe = ctx.clone();
    let tiers = match tokio::task::spawn_blocking(move || probe.tiers_text()).await {
        Ok(t) => t,
        Err(e) => format!("unknown: {e}"),
    };
    if let Err(e) = store
        .register_workers(&name, i64::try_from(workers).unwrap_or(i64::MAX), &tiers)
        .await
    {
        tracing::warn!(error = %e, "could not report the workers");
    }
    forget_the_dead(&store).await;
    announce(&store, &name, &languages, &judged).await;
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
        forget_the_dead(&store).await;
        if languages.iter().any(|l| l.missing.is_some()) {
            let probe = ctx.clone();
            if let Ok(now) = tokio::task::spawn_blocking(move || self::languages(&probe)).await {
                if usable(&now) != usable(&languages) {
                    languages = now;
                    announce(&store, &name, &languages, &judged).await;
                }
            }
        }
    }
    if let Err(e) = store.unregister_workers(&name).await {
        tracing::warn!(error = %e, "could not remove the workers' report");
    }
}

/// Tells the workers and the database which languages this machine judges
/// now.
async fn announce(store: &Store, name: &str, languages: &[Language], judged: &super::Judged) {
    let now = usable(languages);
    if judged.get().is_some_and(|before| *before != *now) {
        tracing::info!(languages = %now.join(" "), "a toolchain was found: judging these now");
    }
    judged.set(now);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if let Err(e) = store
        .announce_workers(
            name,
            i64::try_from(cores).unwrap_or(1),
            &languages_text(languages),
        )
        .await
    {
        tracing::warn!(error = %e, "could not report the workers");
    }
}
