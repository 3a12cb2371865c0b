//! The hosted judge's state, shared by the API, the pages and the judge
//! workers of one process: the context, the store, the limits and
//! throttles, and the signals between handlers and workers.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{watch, Notify};

use super::place::Place;
use super::signin::{self, Passwords, Throttle};
use crate::context::Context;
use crate::store::{Store, SubmitLimits};
pub use crate::worker::{Busy, Changes, WorkerEnv, WorkerTiming, HEARTBEAT};

/// How long a sign-in waits for a free password hasher before it is
/// told to retry.
const PASSWORD_WAIT: Duration = Duration::from_secs(2);

/// Everything a handler or worker needs; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub ctx: Arc<Context>,
    pub store: Store,
    /// A user's limits on new submissions.
    pub limits: SubmitLimits,
    /// Failed sign-ins, by name and by client address.
    pub throttle: Arc<Throttle>,
    /// argon2 on a bounded pool.
    pub passwords: Arc<Passwords>,
    /// What this process's judge workers share with the pages.
    pub worker: WorkerEnv,
    /// Woken when a submission is stored.
    pub wake: Arc<Notify>,
    /// Contests' scoreboard inputs, read again only when they changed.
    pub boards: Arc<super::boards::Boards>,
    /// The event feeds open now, counted per client address and in all.
    pub feeds: Arc<FeedSlots>,
    /// The long polls waiting now for a change.
    pub polls: Arc<Polls>,
    /// The workers' reports that queued tries' reasons are told from.
    pub judges: Arc<super::waiting::Recent>,
    /// The work this server runs in the background for a contest (a
    /// shadow following another system), started by an admin.
    pub followers: Arc<Followers>,
    stopping: Arc<AtomicBool>,
    stop: watch::Sender<bool>,
}

impl AppState {
    pub fn new(ctx: Arc<Context>, store: Store) -> AppState {
        let server = &ctx.config.server;
        let (stop, _) = watch::channel(false);
        AppState {
            limits: SubmitLimits {
                per_minute: server.submissions_per_minute,
                max_waiting: server.max_waiting,
            },
            throttle: Arc::new(Throttle::new(signin::Limits {
                per_name: server.signin_failures_per_name,
                per_address: server.signin_failures_per_address,
                backoff: Duration::from_secs_f64(server.signin_backoff_seconds),
            })),
            passwords: Arc::new(Passwords::new(
                match server.password_hashers {
                    0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
                    n => n,
                },
                PASSWORD_WAIT,
            )),
            worker: WorkerEnv::new(ctx.clone()),
            // Feeds never take every connection: one is always left for the rest.
            feeds: Arc::new(FeedSlots::new(
                server
                    .max_feeds
                    .min(server.max_connections.saturating_sub(1).max(1)),
                server.feeds_per_address,
            )),
            polls: Arc::default(),
            judges: Arc::default(),
            followers: Arc::default(),
            ctx,
            store,
            wake: Arc::new(Notify::new()),
            boards: Arc::default(),
            stopping: Arc::new(AtomicBool::new(false)),
            stop,
        }
    }

    /// Stops taking work: new submissions get 503, long polls return,
    /// workers finish the submission in hand and claim no more.
    pub fn begin_shutdown(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        self.stop.send_replace(true);
    }

    pub fn is_stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    /// Becomes `true` when the server begins to shut down.
    pub fn stop_signal(&self) -> watch::Receiver<bool> {
        self.stop.subscribe()
    }
}

/// Background work of a server per contest (a shadow following another
/// system), each with its stop switch and the last thing it said.
#[derive(Default)]
pub struct Followers(std::sync::Mutex<std::collections::HashMap<i64, Follower>>);

struct Follower {
    stop: watch::Sender<bool>,
    said: Arc<std::sync::Mutex<String>>,
    running: bool,
}

/// A started follower's side: when to stop, and where to say how it goes.
pub struct Following {
    pub stop: watch::Receiver<bool>,
    pub said: Arc<std::sync::Mutex<String>>,
}

impl Followers {
    /// Registers work for contest `id`; `None` while some runs already.
    pub fn start(&self, id: i64) -> Option<Following> {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if all.get(&id).is_some_and(|f| f.running) {
            return None;
        }
        let (stop, stopped) = watch::channel(false);
        let said = Arc::new(std::sync::Mutex::new("starting".to_string()));
        all.insert(
            id,
            Follower {
                stop,
                said: Arc::clone(&said),
                running: true,
            },
        );
        Some(Following {
            stop: stopped,
            said,
        })
    }

    /// Asks contest `id`'s work to stop; `false` when none runs.
    pub fn stop(&self, id: i64) -> bool {
        let all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        all.get(&id).filter(|f| f.running).is_some_and(|f| {
            f.stop.send_replace(true);
            true
        })
    }

    /// Whether contest `id`'s work runs, and what it last said (its last
    /// word once it ended); `None` if this server never ran any.
    pub fn said(&self, id: i64) -> Option<(bool, String)> {
        let all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        all.get(&id).map(|f| {
            let said = f.said.lock().unwrap_or_else(|e| e.into_inner()).clone();
            (f.running, said)
        })
    }

    /// Contest `id`'s work ended (what it said last stays).
    pub fn ended(&self, id: i64) {
        if let Some(f) = self
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_mut(&id)
        {
            f.running = false;
        }
    }
}

/// The long polls (the pages' live parts, the API's `?wait=`) that are
/// waiting now for a change, between two looks at what they wait on: a
/// poll counted here has answered its first look and will see the next
/// change (what a test waits for before it makes one).
#[derive(Debug, Default)]
pub struct Polls(AtomicUsize);

impl Polls {
    /// How many wait now.
    pub fn waiting(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }

    /// Awaits `wait`, counted among the waiting polls meanwhile.
    pub async fn wait<F: std::future::Future>(&self, wait: F) -> F::Output {
        struct Counted<'a>(&'a AtomicUsize);
        impl Drop for Counted<'_> {
            fn drop(&mut self) {
                self.0.fetch_sub(1, Ordering::SeqCst);
            }
        }
        self.0.fetch_add(1, Ordering::SeqCst);
        let _counted = Counted(&self.0);
        wait.await
    }
}

/// The long-lived streams (event feeds) open now: at most `total`, and at
/// most `per_address` from one client [`Place`], so that they cannot take
/// the connections every other request needs.
pub struct FeedSlots {
    total: usize,
    per_address: usize,
    open: std::sync::Mutex<(usize, std::collections::HashMap<Option<Place>, usize>)>,
    /// What the open feeds of one contest and reader share, while one is
    /// open.
    shared: std::sync::Mutex<SharedTails>,
}

type SharedTails = std::collections::HashMap<(i64, crate::store::Reader), Arc<Shared>>;

/// What the open feeds of one contest and one reader (the public, or
/// admins) share: the lines one task reads from the record for all of
/// them, and a signal each waits on for the next ones.
#[derive(Debug)]
pub struct Shared {
    pub tail: std::sync::Mutex<Tail>,
    /// Bumped when the tail has new lines or the contest was read anew.
    pub news: tokio::sync::watch::Sender<u64>,
}

impl Shared {
    /// The tail, locked.
    pub fn lock(&self) -> std::sync::MutexGuard<'_, Tail> {
        self.tail
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// One event of a contest's record as a feed sends it.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub seq: i64,
    pub line: Arc<str>,
    /// It is the state that ends the updates.
    pub ends: bool,
    /// It changed the contest's settings or state.
    pub settings: bool,
}

/// The lines of [`Shared`]: every event after `base` up to `head` that
/// the reader may read, rendered.
#[derive(Debug, Default)]
pub struct Tail {
    /// Read from the record at least once: `base` and `head` are set.
    pub started: bool,
    pub base: i64,
    pub head: i64,
    pub lines: std::collections::VecDeque<Rendered>,
    /// The contest as last read, for the feeds' checks (`Some(None)`: it
    /// is gone).
    pub contest: Option<Option<crate::contest::Contest>>,
    /// The lines after one event, joined as the feeds that sent up to it
    /// send them next: made once for every feed that is that far (most
    /// are), until the lines change.
    pub joined: Option<Chunk>,
}

/// Lines of a feed joined into what it sends next, with what the feed
/// learns from them.
#[derive(Debug, Clone, Default)]
pub struct Chunk {
    /// The event they come after.
    pub after: i64,
    /// Each line with its newline.
    pub text: axum::body::Bytes,
    /// The last event among them (`after` when none).
    pub last: i64,
    /// They end with the state that ends the updates.
    pub ends: bool,
    /// One of them changed the contest's settings or state.
    pub settings: bool,
}

impl Chunk {
    /// `lines`, which come after event `after` in order, up to the one
    /// that ends the updates.
    pub fn join<'a>(after: i64, lines: impl IntoIterator<Item = &'a Rendered>) -> Chunk {
        let mut chunk = Chunk {
            after,
            last: after,
            ..Chunk::default()
        };
        let mut text = Vec::new();
        for l in lines {
            chunk.last = l.seq;
            text.extend_from_slice(l.line.as_bytes());
            text.push(b'\n');
            chunk.settings |= l.settings;
            if l.ends {
                chunk.ends = true;
                break;
            }
        }
        chunk.text = text.into();
        chunk
    }
}

/// Why no feed could be opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum FeedsFull {
    #[error("{0} event feeds are open from this address, the most allowed; close one first")]
    Address(usize),
    #[error("{0} event feeds are open, the most this judge serves; try again later")]
    Total(usize),
}

impl FeedsFull {
    pub fn status(self) -> axum::http::StatusCode {
        match self {
            FeedsFull::Address(_) => axum::http::StatusCode::TOO_MANY_REQUESTS,
            FeedsFull::Total(_) => axum::http::StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

/// One open feed, counted until it is dropped.
pub struct FeedSlot {
    slots: Arc<FeedSlots>,
    address: Option<Place>,
}

impl FeedSlots {
    pub fn new(total: usize, per_address: usize) -> FeedSlots {
        FeedSlots {
            total,
            per_address,
            open: std::sync::Mutex::default(),
            shared: std::sync::Mutex::default(),
        }
    }

    /// What the feeds of `contest` for `reader` share, with a receiver of
    /// its news for one more feed, and whether it is new (then whoever
    /// asked starts the task that reads for it, which ends through
    /// [`FeedSlots::unshare`]).
    pub fn share(
        &self,
        contest: i64,
        reader: crate::store::Reader,
    ) -> (Arc<Shared>, tokio::sync::watch::Receiver<u64>, bool) {
        let mut all = self.lock_shared();
        let mut new = false;
        let shared = all.entry((contest, reader)).or_insert_with(|| {
            new = true;
            Arc::new(Shared {
                tail: std::sync::Mutex::default(),
                news: tokio::sync::watch::Sender::new(0),
            })
        });
        let news = shared.news.subscribe();
        (shared.clone(), news, new)
    }

    /// Forgets what the feeds of `contest` for `reader` shared if none is
    /// open any more: whether it did (a feed opened later starts afresh).
    pub fn unshare(&self, contest: i64, reader: crate::store::Reader) -> bool {
        let mut all = self.lock_shared();
        let unread = all
            .get(&(contest, reader))
            .is_none_or(|s| s.news.receiver_count() == 0);
        if unread {
            all.remove(&(contest, reader));
        }
        unread
    }

    /// Forgets `shared` as what the feeds of `contest` for `reader`
    /// share, if it still is (its task ended).
    pub fn forget_shared(&self, contest: i64, reader: crate::store::Reader, shared: &Arc<Shared>) {
        let mut all = self.lock_shared();
        if all
            .get(&(contest, reader))
            .is_some_and(|s| Arc::ptr_eq(s, shared))
        {
            all.remove(&(contest, reader));
        }
    }

    fn lock_shared(&self) -> std::sync::MutexGuard<'_, SharedTails> {
        self.shared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A slot for a feed from `address` (counted by its [`Place`]: one
    /// IPv6 /64 is one address), if one is free.
    ///
    /// # Errors
    /// Which cap is reached.
    pub fn take(self: &Arc<Self>, address: Option<Place>) -> Result<FeedSlot, FeedsFull> {
        let mut open = self.lock();
        if open.0 >= self.total {
            return Err(FeedsFull::Total(self.total));
        }
        let mine = open.1.entry(address).or_default();
        if *mine >= self.per_address {
            return Err(FeedsFull::Address(self.per_address));
        }
        *mine += 1;
        open.0 += 1;
        Ok(FeedSlot {
            slots: self.clone(),
            address,
        })
    }

    /// How many feeds are open now.
    pub fn open(&self) -> usize {
        self.lock().0
    }

    fn lock(
        &self,
    ) -> std::sync::MutexGuard<'_, (usize, std::collections::HashMap<Option<Place>, usize>)> {
        self.open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Drop for FeedSlot {
    fn drop(&mut self) {
        let mut open = self.slots.lock();
        open.0 = open.0.saturating_sub(1);
        if let Some(n) = open.1.get_mut(&self.address) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.1.remove(&self.address);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(address: &str) -> Option<Place> {
        Some(Place::of(address.parse().expect("an address")))
    }

    #[test]
    fn the_feeds_of_one_ipv6_64_are_counted_as_one_address() {
        let slots = Arc::new(FeedSlots::new(100, 2));
        let held: Vec<FeedSlot> = ["2001:db8::1", "2001:db8::2"]
            .iter()
            .map(|a| slots.take(from(a)).expect("within the cap"))
            .collect();
        assert_eq!(
            slots.take(from("2001:db8::ffff:3")).err(),
            Some(FeedsFull::Address(2)),
            "a third address of the same /64"
        );
        slots
            .take(from("2001:db8:0:1::1"))
            .expect("another /64 is another address");
        slots
            .take(from("192.0.2.1"))
            .expect("an IPv4 address is itself");
        drop(held);
        slots
            .take(from("2001:db8::9"))
            .expect("closed feeds free their places");
    }
}
