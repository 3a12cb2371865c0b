//! What every judge worker of a process shares: the context, the lease,
//! the languages it judges and the packages it refused, the submissions
//! in hand, its name and measured speed, and the notices it gives when a
//! submission changes (the pages and the API's long polls listen to them
//! where they run in the same process).

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{watch, Notify};

use crate::context::Context;

/// How often a process running workers reports what it is judging.
pub const HEARTBEAT: Duration = Duration::from_secs(5);

/// A worker heard from within this long is alive (three heartbeats).
pub const LIVE: Duration = Duration::from_secs(3 * HEARTBEAT.as_secs());

/// The submissions a process's workers hold now.
pub type Busy = Arc<Mutex<BTreeSet<i64>>>;

/// What every judge worker of a process shares.
#[derive(Clone)]
pub struct WorkerEnv {
    pub ctx: Arc<Context>,
    /// How long a claim lasts unrenewed; renewed every third of it.
    pub lease: Duration,
    /// Told whenever a submission changes (a test done, a verdict), for
    /// the long polls waiting on that submission.
    pub changes: Arc<Changes>,
    /// The submissions this process's workers hold now (for the admin pages).
    pub busy: Busy,
    /// The languages this machine has toolchains for, the only ones its
    /// workers claim (any, before they are known); shared by the workers
    /// and grown when a toolchain missing at start is found later.
    pub languages: Judged,
    /// The problems whose published package this process's build did not
    /// match: its workers claim none of them.
    pub refused: Arc<Mutex<BTreeSet<String>>>,
    /// The published package versions whose tests this process checked.
    pub verified: Arc<Mutex<BTreeSet<String>>>,
    /// This process's name among the workers and its measured speed.
    pub timing: Arc<WorkerTiming>,
}

/// What fair timing knows of this process's workers.
#[derive(Debug)]
pub struct WorkerTiming {
    /// The process's name among the judge's workers ([`process_name`]);
    /// a re-run is kept from the worker of this name while another lives.
    pub name: String,
    /// Its latest calibration; until the first (or when every one failed)
    /// it judges with factor 1.
    calibration: std::sync::RwLock<Option<crate::judge::Calibration>>,
    /// The worker slots: each judging holds a read guard, a calibration
    /// the write guard, so a calibration waits for the judgings under way,
    /// holds new claims back, and has every slot to itself to fill with
    /// its copies.
    slots: tokio::sync::RwLock<()>,
}

impl WorkerTiming {
    pub fn named(name: impl Into<String>) -> WorkerTiming {
        WorkerTiming {
            name: name.into(),
            calibration: std::sync::RwLock::new(None),
            slots: tokio::sync::RwLock::new(()),
        }
    }

    /// The latest calibration, if any.
    pub fn calibration(&self) -> Option<crate::judge::Calibration> {
        self.calibration
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Keeps `c` as this process's speed from the next claim on.
    pub fn set_calibration(&self, c: crate::judge::Calibration) {
        *self
            .calibration
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(c);
    }

    /// One worker slot, held while it claims and judges (waits while a
    /// calibration runs).
    pub async fn slot(&self) -> tokio::sync::RwLockReadGuard<'_, ()> {
        self.slots.read().await
    }

    /// Every worker slot, for a calibration: waits for the judgings under
    /// way to end; no claim is made until it is dropped.
    pub async fn all_slots(&self) -> tokio::sync::RwLockWriteGuard<'_, ()> {
        self.slots.write().await
    }

    /// Whether a calibration holds the slots now.
    pub fn calibrating(&self) -> bool {
        self.slots.try_read().is_err()
    }
}

impl Default for WorkerTiming {
    fn default() -> Self {
        WorkerTiming::named(process_name())
    }
}

/// `host:pid`, naming this process among the judge's workers.
pub fn process_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".to_string());
    format!("{host}:{}", std::process::id())
}

/// The languages a machine's workers judge: `None` (any) until probed.
#[derive(Debug, Clone, Default)]
pub struct Judged(Arc<Mutex<Option<Arc<[String]>>>>);

impl Judged {
    /// The languages now.
    pub fn get(&self) -> Option<Arc<[String]>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Judges `languages` from now on.
    pub fn set(&self, languages: impl Into<Arc<[String]>>) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(languages.into());
    }
}

impl WorkerEnv {
    /// A process's workers before they start: a lease of
    /// `[server] lease_seconds`, any language until the toolchains are
    /// probed, nothing refused, named [`process_name`].
    pub fn new(ctx: Arc<Context>) -> WorkerEnv {
        WorkerEnv {
            lease: Duration::from_secs_f64(ctx.config.server.lease_seconds),
            ctx,
            changes: Arc::default(),
            busy: Busy::default(),
            timing: Arc::default(),
            languages: Judged::default(),
            refused: Arc::default(),
            verified: Arc::default(),
        }
    }

    /// Tells the long polls waiting on submission `id` that it changed.
    pub fn changed(&self, id: i64) {
        self.changes.changed(id);
    }
}

/// Change notices by submission: a long poll is woken for its own
/// submission only, not for every test of every submission being judged.
#[derive(Default)]
pub struct Changes {
    by_id: Mutex<std::collections::HashMap<i64, watch::Sender<u64>>>,
    /// Woken by any change (for the contest pages, which follow many
    /// submissions and the clarifications at once).
    pub any: Notify,
}

impl Changes {
    /// A receiver that sees every later change of submission `id`.
    pub fn subscribe(&self, id: i64) -> watch::Receiver<u64> {
        let mut by_id = self.by_id.lock().unwrap_or_else(|p| p.into_inner());
        // Submissions no one waits on any more are forgotten.
        by_id.retain(|_, sender| sender.receiver_count() > 0);
        by_id
            .entry(id)
            .or_insert_with(|| watch::channel(0).0)
            .subscribe()
    }

    /// Wakes the contest pages' waiters (a submission or a clarification).
    pub fn changed_any(&self) {
        self.any.notify_waiters();
    }

    /// Wakes the waiters of submission `id`, if any.
    pub fn changed(&self, id: i64) {
        self.any.notify_waiters();
        let by_id = self.by_id.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(sender) = by_id.get(&id) {
            sender.send_modify(|n| *n = n.wrapping_add(1));
        }
    }
}
