//! A throwaway PostgreSQL cluster for the tests: `initdb` into a temporary
//! directory, `postgres` listening only on a Unix socket in that directory
//! (no TCP port, no password), one fresh database per test. No system
//! service is started or touched.
//!
//! One cluster serves a whole test process (starting one takes seconds).
//! It is stopped and its directory removed when the process exits (an
//! `atexit` hook), and the kernel stops it should the process die without
//! exiting (the server is spawned with a parent-death signal, from a thread
//! that lives as long as the process). [`Cluster`] owned outside the shared
//! one (a bench) is stopped by its `Drop`.
//!
//! PostgreSQL refuses to run as root: as root the cluster runs as `nobody`
//! (uid 65534), which owns its directory.
//!
//! Where `initdb` and `postgres` are not found (in PATH, or Debian's
//! `/usr/lib/postgresql/*/bin`) [`database`] skips the calling test with one
//! line naming what to install, or fails it under `GRUNDY_REQUIRE_ALL=1`.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

#[path = "pg_cluster.rs"]
mod cluster;
pub use cluster::{binaries, Cluster, INSTALL};

/// The URL of a fresh, empty database in this process's cluster (started
/// at the first call); `None` (the test skipped) where PostgreSQL is not
/// installed.
pub fn database() -> Option<String> {
    let cluster = shared()?;
    Some(cluster.create_database())
}

/// This process's cluster, started at the first call; `None` (with the
/// skip line) where PostgreSQL is not installed.
pub fn shared() -> Option<&'static Cluster> {
    static SHARED: OnceLock<Option<Cluster>> = OnceLock::new();
    let Some((initdb, postgres)) = binaries() else {
        crate::helpers::skip(&format!("needs PostgreSQL ({INSTALL})"));
        return None;
    };
    let cluster = SHARED.get_or_init(|| {
        // Spawned from a thread that never ends, so the parent-death
        // signal (which follows the spawning thread) fires only when the
        // whole process goes.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("postgres-cluster".into())
            .spawn(move || {
                let _ = tx.send(Cluster::start(&initdb, &postgres));
                loop {
                    std::thread::park();
                }
            })
            .expect("spawn the cluster's thread");
        let cluster = rx
            .recv()
            .expect("the cluster's thread")
            .unwrap_or_else(|e| panic!("starting a PostgreSQL cluster: {e}"));
        *AT_EXIT.lock().unwrap() = Some((cluster.pid, cluster.dir.clone()));
        // SAFETY: registers a plain function with no arguments.
        unsafe { libc::atexit(stop_at_exit) };
        Some(cluster)
    });
    cluster.as_ref()
}

/// The shared cluster's server and directory, for [`stop_at_exit`].
static AT_EXIT: Mutex<Option<(i32, PathBuf)>> = Mutex::new(None);

extern "C" fn stop_at_exit() {
    if let Some((pid, dir)) = AT_EXIT.lock().ok().and_then(|mut g| g.take()) {
        cluster::stop(pid, &dir);
    }
}

/// Points `ws`'s configuration at a fresh PostgreSQL database (its
/// `database_url`); false (the test skipped) where PostgreSQL is
/// not installed.
pub fn use_postgres(ws: &crate::helpers::Workspace) -> bool {
    let Some(url) = database() else {
        return false;
    };
    let text = std::fs::read_to_string(ws.config()).expect("config");
    let kept: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("database_url"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(ws.config(), format!("database_url = \"{url}\"\n{kept}")).expect("write");
    true
}
