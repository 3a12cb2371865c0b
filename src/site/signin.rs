//! Signing in safely on a network: failed sign-ins are throttled per
//! account name and per client place ([`Place`]: an IPv4 address or an
//! IPv6 /64), with a back-off that doubles with every failure past the
//! limit; argon2 (19 MiB a hash) runs on a pool as large as the configured
//! number of hashers, and a request that finds it full waits briefly and
//! is then told to come back, so a crowd of sign-ins costs bounded memory.
//! One place holds at most half the pool, its further requests waiting in
//! a line of their own, so a flood from one place cannot keep everyone
//! else from signing in.
//!
//! Every credential is checked by one function, [`holder`]: at sign-in
//! (once a password matched, or for a token) and at every recheck of a
//! request that lasts, with the [`Credential`] that signed in. A password
//! signs in an account by id, so the recheck finds exactly the account
//! that signed in, however its name was typed.
//!
//! The throttle lives in this process's memory, bounded in entries: a
//! restart forgets it, which costs an attacker a restart per round.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;

use super::place::Place;
use crate::auth;
use crate::store::Store;

/// Names and addresses remembered at most; beyond it the entry seen
/// longest ago is forgotten first.
const MAX_ENTRIES: usize = 65_536;
/// The longest back-off.
const MAX_BACKOFF: Duration = Duration::from_secs(3600);
/// Failures older than this (with no lock in force) are forgotten.
const WINDOW: Duration = Duration::from_secs(15 * 60);

/// The throttle's limits.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Failed sign-ins for one name before it is locked.
    pub per_name: u32,
    /// Failed sign-ins from one address before it is locked.
    pub per_address: u32,
    /// The first lock; each further failure doubles it.
    pub backoff: Duration,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Name(String),
    Address(Place),
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    failures: u32,
    last: Instant,
    locked_until: Option<Instant>,
}

/// Failed sign-ins by name and by address.
#[derive(Debug)]
pub struct Throttle {
    limits: Limits,
    entries: Mutex<HashMap<Key, Entry>>,
}

impl Throttle {
    pub fn new(limits: Limits) -> Throttle {
        Throttle {
            limits,
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// How long until `name` from `address` may try again; `None` when it
    /// may now. A locked name or address is refused before any password
    /// is checked, the right one included.
    pub fn wait(&self, name: &str, address: Option<Place>) -> Option<Duration> {
        let now = Instant::now();
        let entries = self.lock();
        keys(name, address)
            .iter()
            .filter_map(|k| entries.get(k)?.locked_until)
            .filter(|until| *until > now)
            .map(|until| until - now)
            .max()
    }

    /// Counts a failed sign-in; returns how long until the next try is
    /// allowed, if this failure locked the name or the address.
    pub fn failed(&self, name: &str, address: Option<Place>) -> Option<Duration> {
        let now = Instant::now();
        let mut entries = self.lock();
        let mut wait = None;
        for key in keys(name, address) {
            let limit = match key {
                Key::Name(_) => self.limits.per_name,
                Key::Address(_) => self.limits.per_address,
            };
            if !entries.contains_key(&key) && entries.len() >= MAX_ENTRIES {
                forget_one(&mut entries, now);
            }
            let e = entries.entry(key).or_insert(Entry {
                failures: 0,
                last: now,
                locked_until: None,
            });
            let locked = e.locked_until.is_some_and(|u| u > now);
            if !locked && now.duration_since(e.last) > WINDOW {
                e.failures = 0;
            }
            e.failures = e.failures.saturating_add(1);
            e.last = now;
            if limit > 0 && e.failures >= limit {
                let doublings = (e.failures - limit).min(16);
                let lock = self
                    .limits
                    .backoff
                    .saturating_mul(1 << doublings)
                    .min(MAX_BACKOFF);
                e.locked_until = Some(now + lock);
                wait = Some(wait.map_or(lock, |w: Duration| w.max(lock)));
            }
        }
        wait
    }

    /// A sign-in succeeded: the name's failures are forgotten (the
    /// address's are not, so an attacker's own account cannot clear them).
    pub fn succeeded(&self, name: &str) {
        self.lock().remove(&Key::Name(normal(name)));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Entry>> {
        // A panic while holding the lock leaves counts that are still
        // counts: keep using them.
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn normal(name: &str) -> String {
    name.trim().to_lowercase()
}

fn keys(name: &str, address: Option<Place>) -> Vec<Key> {
    let mut keys = vec![Key::Name(normal(name))];
    keys.extend(address.map(Key::Address));
    keys
}

/// Makes room: drops what is stale, else the entry seen longest ago.
fn forget_one(entries: &mut HashMap<Key, Entry>, now: Instant) {
    entries.retain(|_, e| {
        e.locked_until.is_some_and(|u| u > now) || now.duration_since(e.last) <= WINDOW
    });
    if entries.len() >= MAX_ENTRIES {
        if let Some(oldest) = entries
            .iter()
            .min_by_key(|(_, e)| e.last)
            .map(|(k, _)| k.clone())
        {
            entries.remove(&oldest);
        }
    }
}

/// The password pool was full for the whole wait.
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("the judge is busy checking passwords; try again in a moment")]
pub struct Busy;

/// What a name and password come to ([`check`]).
#[derive(Debug)]
pub enum Checked {
    /// Right, and the account enabled: the account, and the credential to
    /// check again while a request lasts ([`holder`]).
    User(crate::store::User, Credential),
    /// Wrong name or password, or the account disabled.
    Wrong,
    /// The name or the address is locked for this long.
    Throttled(Duration),
    /// The hashing pool is full.
    Busy,
}

/// What a request signed in with, kept by a request that lasts (an open
/// feed, a long poll) to be checked again with [`holder`]: what signed in
/// is exactly what is checked again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Credential {
    /// None: the public.
    Anonymous,
    /// An API token, by its hash.
    Token(Vec<u8>),
    /// A password that matched: the account it signed in as (by id, never
    /// by the name as typed) and that account's password hash then, so a
    /// new password ends it.
    Password { user: i64, hash: String },
}

impl Credential {
    /// The credential of an API token as sent (surrounding blanks are no
    /// part of a token).
    pub fn token(token: &str) -> Credential {
        Credential::Token(auth::token_hash(token.trim()))
    }
}

/// The one check of a credential: the enabled account it signs in as now,
/// if any. A sign-in asks it once the password matched (or for a token at
/// once), and every recheck of a lasting request asks it again with the
/// same [`Credential`]: a revoked token, a disabled account or a changed
/// password ends both the same way.
///
/// # Errors
/// Database failures.
pub async fn holder(
    store: &Store,
    credential: &Credential,
) -> Result<Option<crate::store::User>, crate::store::Error> {
    let user = match credential {
        Credential::Anonymous => None,
        Credential::Token(hash) => store.user_for_token(hash).await?,
        Credential::Password { user, hash } => store
            .user_with_password_by_id(*user)
            .await?
            .filter(|(_, now)| now == hash)
            .map(|(u, _)| u),
    };
    Ok(user.filter(|u| !u.disabled))
}

/// Whether `credential` is refused only because its account is disabled
/// (a live token of a disabled account), so that its sender is told so
/// rather than that the token is not valid. A sender without the token
/// learns nothing: an unknown or revoked token is never a disabled one.
///
/// # Errors
/// Database failures.
pub async fn refused_as_disabled(
    store: &Store,
    credential: &Credential,
) -> Result<bool, crate::store::Error> {
    match credential {
        Credential::Token(hash) => store.token_of_disabled_account(hash).await,
        Credential::Anonymous | Credential::Password { .. } => Ok(false),
    }
}

/// An account name as typed, as it is looked up: without surrounding
/// blanks (a form or a `curl -u` adds them easily).
pub fn typed_name(name: &str) -> &str {
    name.trim()
}

/// The one sign-in check of a name and password, for the form, the token
/// door and the Contest API's HTTP Basic alike: the same throttle by name
/// and place, the same hashing pool, and for an unknown name the same
/// argon2 verification (of a hash no one knows) as for a known one, so the
/// time taken does not say which names exist. The account is then taken
/// from [`holder`], with the credential a lasting request checks again.
///
/// # Errors
/// Database failures.
pub async fn check(
    state: &super::AppState,
    name: &str,
    password: String,
    address: Option<Place>,
) -> Result<Checked, crate::store::Error> {
    let name = typed_name(name);
    // A locked name or address is refused before any password is checked:
    // guessing on gains nothing, and costs the judge nothing.
    if let Some(wait) = state.throttle.wait(name, address) {
        return Ok(Checked::Throttled(wait));
    }
    let (user, hash) = match state.store.user_with_password(name).await? {
        Some((user, hash)) => (Some(user), hash),
        None => (None, dummy_hash().to_string()),
    };
    let Ok(ok) = state
        .passwords
        .verify(password, hash.clone(), address)
        .await
    else {
        return Ok(Checked::Busy);
    };
    // Guesses sent at once all passed the check above; a lock that other
    // guesses set meanwhile holds for this one too, right or wrong.
    if let Some(wait) = state.throttle.wait(name, address) {
        return Ok(Checked::Throttled(wait));
    }
    let credential = match user {
        Some(u) if ok => Some(Credential::Password { user: u.id, hash }),
        _ => None,
    };
    let signed = match &credential {
        Some(c) => holder(&state.store, c).await?,
        None => None,
    };
    match (signed, credential) {
        (Some(u), Some(c)) => {
            state.throttle.succeeded(name);
            Ok(Checked::User(u, c))
        }
        _ => Ok(match state.throttle.failed(name, address) {
            Some(wait) => Checked::Throttled(wait),
            None => Checked::Wrong,
        }),
    }
}

/// The name and password of an `Authorization: Basic ...` header value
/// (base64 of `name:password`), or `None` when it is not one.
pub fn basic_credentials(header: &str) -> Option<(String, String)> {
    use base64::Engine as _;
    let encoded = header.strip_prefix("Basic ")?.trim();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let (name, password) = text.split_once(':')?;
    Some((name.to_string(), password.to_string()))
}

/// A valid argon2 hash of nothing anyone knows, made once.
fn dummy_hash() -> &'static str {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| auth::hash_password(&auth::new_token().token).unwrap_or_default())
}

/// argon2 on a bounded number of blocking threads, shared fairly among
/// the addresses asking.
#[derive(Debug)]
pub struct Passwords {
    permits: Arc<Semaphore>,
    /// The most hashers one address holds at once.
    share: usize,
    /// Each address's own line to the pool, while it has requests in it.
    lines: Mutex<HashMap<Place, Arc<Semaphore>>>,
    wait: Duration,
    /// Hashes running now and at most, shared with the blocking tasks.
    running: Arc<AtomicUsize>,
    peak: Arc<AtomicUsize>,
    /// Passwords verified so far.
    verified: Arc<AtomicUsize>,
}

impl Passwords {
    /// A pool of `size` hashers (at least one), at most half of them (at
    /// least one) for one address; a request waits up to `wait` for one.
    pub fn new(size: usize, wait: Duration) -> Passwords {
        let size = size.max(1);
        Passwords {
            permits: Arc::new(Semaphore::new(size)),
            share: size.div_ceil(2),
            lines: Mutex::default(),
            wait,
            running: Arc::default(),
            peak: Arc::default(),
            verified: Arc::default(),
        }
    }

    /// Whether `password` matches `hash` (false if the check itself
    /// failed), for a request from `from`.
    ///
    /// # Errors
    /// [`Busy`] when no hasher was free within the wait.
    pub async fn verify(
        &self,
        password: String,
        hash: String,
        from: Option<Place>,
    ) -> Result<bool, Busy> {
        let verified = self.verified.clone();
        self.run(from, move || {
            verified.fetch_add(1, Ordering::SeqCst);
            auth::verify_password(&password, &hash)
        })
        .await
        .map(|ok| ok.unwrap_or(false))
    }

    /// A new hash of `password`.
    ///
    /// # Errors
    /// [`Busy`] when no hasher was free within the wait; the inner error
    /// when argon2 failed.
    pub async fn hash(&self, password: String) -> Result<Result<String, auth::Error>, Busy> {
        let out = self
            .run(None, move || auth::hash_password(&password))
            .await?;
        Ok(out.unwrap_or_else(|| Err(auth::Error::Hash("the hasher panicked".into()))))
    }

    /// The most hashes that ran at once since start (for tests and metrics).
    /// How many passwords were verified (a dummy hash's included).
    pub fn verified(&self) -> usize {
        self.verified.load(Ordering::SeqCst)
    }

    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::SeqCst)
    }

    /// The line of requests from `address`.
    fn line(&self, address: Place) -> Arc<Semaphore> {
        let mut lines = self
            .lines
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if lines.len() >= MAX_ENTRIES {
            // Lines no request holds any more.
            lines.retain(|_, line| Arc::strong_count(line) > 1);
        }
        lines
            .entry(address)
            .or_insert_with(|| Arc::new(Semaphore::new(self.share)))
            .clone()
    }

    /// Forgets `address`'s line once no request is in it.
    fn leave(&self, address: Place, line: Arc<Semaphore>) {
        let mut lines = self
            .lines
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // The map's and `line`: no one else waits or hashes.
        if Arc::strong_count(&line) == 2 {
            lines.remove(&address);
        }
    }

    /// Runs `work` for a request from `from` on a blocking thread holding
    /// a permit, taken after a place in `from`'s own line; `None` if it
    /// panicked (logged).
    async fn run<T: Send + 'static>(
        &self,
        from: Option<Place>,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<Option<T>, Busy> {
        let line = from.map(|a| (a, self.line(a)));
        let out = self.run_in(line.as_ref().map(|(_, l)| l), work).await;
        if let Some((address, line)) = line {
            self.leave(address, line);
        }
        out
    }

    async fn run_in<T: Send + 'static>(
        &self,
        line: Option<&Arc<Semaphore>>,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<Option<T>, Busy> {
        let deadline = tokio::time::Instant::now() + self.wait;
        // Semaphores here are never closed: an error is only the timeout.
        let place = match line {
            Some(line) => Some(
                tokio::time::timeout_at(deadline, line.clone().acquire_owned())
                    .await
                    .map_err(|_| Busy)?
                    .map_err(|_| Busy)?,
            ),
            None => None,
        };
        let permit = tokio::time::timeout_at(deadline, self.permits.clone().acquire_owned())
            .await
            .map_err(|_| Busy)?
            .map_err(|_| Busy)?;
        let (running, peak) = (self.running.clone(), self.peak.clone());
        // The permit moves into the task: a request that is dropped while
        // waiting for the hash still holds its place until argon2 ends.
        let done = tokio::task::spawn_blocking(move || {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
            let out = work();
            running.fetch_sub(1, Ordering::SeqCst);
            drop(permit);
            drop(place);
            out
        })
        .await;
        match done {
            Ok(v) => Ok(Some(v)),
            Err(e) => {
                super::log_internal(&e, "password hashing failed");
                Ok(None)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(address: &str) -> Option<Place> {
        Some(Place::of(address.parse().expect("an address")))
    }

    fn limits() -> Limits {
        Limits {
            per_name: 3,
            per_address: 5,
            backoff: Duration::from_secs(60),
        }
    }

    #[test]
    fn a_name_is_locked_after_its_limit_and_the_lock_doubles() {
        let t = Throttle::new(limits());
        let addr = place("192.0.2.1");
        assert_eq!(t.failed("ann", addr), None);
        assert_eq!(t.failed("Ann ", addr), None);
        assert!(t.wait("ann", None).is_none());
        assert_eq!(t.failed("ann", addr), Some(Duration::from_secs(60)));
        assert!(t.wait("ANN", None).is_some());
        assert_eq!(t.failed("ann", addr), Some(Duration::from_secs(120)));
        // Another name from elsewhere is not locked.
        assert!(t.wait("bob", None).is_none());
    }

    #[test]
    fn an_address_is_locked_whatever_names_it_tries() {
        let t = Throttle::new(limits());
        let addr = place("192.0.2.1");
        for i in 0..5 {
            t.failed(&format!("user{i}"), addr);
        }
        assert!(t.wait("someone-new", addr).is_some());
        assert!(t.wait("someone-new", place("192.0.2.2")).is_none());
    }

    #[test]
    fn ipv6_addresses_are_counted_by_their_64_network() {
        let t = Throttle::new(limits());
        for i in 0..5 {
            t.failed(&format!("user{i}"), place(&format!("2001:db8::{i}")));
        }
        assert!(t.wait("x", place("2001:db8::ffff:1")).is_some());
        assert!(t.wait("x", place("2001:db8:0:1::1")).is_none());
    }

    #[test]
    fn success_clears_the_name_only() {
        let t = Throttle::new(limits());
        let addr = place("192.0.2.1");
        t.failed("ann", addr);
        t.failed("ann", addr);
        t.succeeded("ann");
        assert_eq!(t.failed("ann", addr), None);
    }

    #[tokio::test]
    async fn the_pool_runs_no_more_than_its_size_at_once() {
        let pool = Arc::new(Passwords::new(2, Duration::from_secs(60)));
        let hash = auth::hash_password("x").unwrap();
        let jobs: Vec<_> = (0..6)
            .map(|_| {
                let (pool, hash) = (pool.clone(), hash.clone());
                tokio::spawn(async move { pool.verify("x".into(), hash, None).await })
            })
            .collect();
        for j in jobs {
            assert!(j.await.unwrap().unwrap());
        }
        assert!(pool.peak() <= 2, "{}", pool.peak());
    }

    #[tokio::test]
    async fn one_address_holds_at_most_half_the_pool_and_others_pass_it() {
        let pool = Arc::new(Passwords::new(2, Duration::from_secs(600)));
        let hash = auth::hash_password("x").unwrap();
        let done = Arc::new(AtomicUsize::new(0));
        let verify = |from: &str| {
            let (pool, hash, done) = (pool.clone(), hash.clone(), done.clone());
            let from = place(from);
            tokio::spawn(async move {
                let ok = pool.verify("x".into(), hash, from).await;
                (ok, done.fetch_add(1, Ordering::SeqCst))
            })
        };
        // A flood from one /64 network, every request of it waiting (this
        // runtime has one thread: the flood's tasks run to their first wait
        // while this one yields) ...
        let flood: Vec<_> = (0..8).map(|i| verify(&format!("2001:db8::{i}"))).collect();
        for _ in 0..16 {
            tokio::task::yield_now().await;
        }
        let before = done.load(Ordering::SeqCst);
        // The flood holds its half of the pool and no more ...
        assert!(pool.permits.available_permits() >= 1, "the free half");
        // ... and one sign-in from elsewhere takes that half at once instead
        // of waiting behind the flood. How many of the flood's hashes, one
        // at a time, end while it runs depends on the machine's load (this
        // one's builds share two cores): a few, never the whole flood.
        let (ok, place) = verify("192.0.2.9").await.unwrap();
        assert!(ok.unwrap());
        assert!(
            place <= before + 3,
            "finished as number {place} of 9, {before} done when it came"
        );
        assert!(before < 6, "the flood ended before the test could tell");
        for f in flood {
            assert!(f.await.unwrap().0.unwrap());
        }
        assert!(pool.peak() <= 2);
        assert!(pool.lines.lock().unwrap().is_empty(), "lines are forgotten");
    }
}
