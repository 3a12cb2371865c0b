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

use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// What to install where PostgreSQL is missing.
pub const INSTALL: &str = "apt-get install postgresql";

/// The user the cluster's superuser is named after.
const USER: &str = "grundy";

/// A running cluster.
pub struct Cluster {
    dir: PathBuf,
    pid: i32,
    next: AtomicU32,
}

/// `initdb` and `postgres`, where they are installed.
pub fn binaries() -> Option<(PathBuf, PathBuf)> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    // Debian keeps them out of PATH, one directory per major version:
    // the newest first.
    let mut debian: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|d| d.flatten().map(|e| e.path().join("bin")).collect())
        .unwrap_or_default();
    debian.sort_by_key(|p| {
        std::cmp::Reverse(
            p.parent()
                .and_then(|v| v.file_name()?.to_str()?.parse::<u32>().ok())
                .unwrap_or(0),
        )
    });
    dirs.extend(debian);
    dirs.into_iter().find_map(|d| {
        let (initdb, postgres) = (d.join("initdb"), d.join("postgres"));
        (crate::helpers::runnable(&initdb) && crate::helpers::runnable(&postgres))
            .then_some((initdb, postgres))
    })
}

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
        stop(pid, &dir);
    }
}

/// Stops the server (a fast shutdown, then a kill after 10 s) and removes
/// its directory.
fn stop(pid: i32, dir: &Path) {
    // SAFETY: signals and reaps a child process this process started.
    unsafe {
        libc::kill(pid, libc::SIGINT);
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let mut status = 0;
            let r = libc::waitpid(pid, &mut status, libc::WNOHANG);
            if r == pid || r < 0 {
                break;
            }
            if Instant::now() > deadline {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &mut status, 0);
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

impl Cluster {
    /// `initdb` into a new temporary directory and a server on a socket
    /// there, ready for connections.
    ///
    /// # Errors
    /// A line saying what failed, with the programs' output.
    pub fn start(initdb: &Path, postgres: &Path) -> Result<Cluster, String> {
        let dir = tempfile::Builder::new()
            .prefix("grundy-pg-")
            .tempdir()
            .map_err(|e| format!("a temporary directory: {e}"))?
            .keep();
        let data = dir.join("data");
        let as_root = unsafe { libc::geteuid() } == 0;
        if as_root {
            // PostgreSQL will not run as root: nobody owns the cluster.
            let c = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes()).unwrap();
            // SAFETY: a valid C string naming a directory this process made.
            if unsafe { libc::chown(c.as_ptr(), 65534, 65534) } != 0 {
                return Err(format!(
                    "chown {}: {}",
                    dir.display(),
                    std::io::Error::last_os_error()
                ));
            }
        }
        let as_owner = |cmd: &mut Command| {
            if as_root {
                cmd.uid(65534).gid(65534);
            }
        };
        let mut init = Command::new(initdb);
        init.args([
            "--no-sync",
            "--auth=trust",
            "--encoding=UTF8",
            "--no-locale",
        ])
        .arg(format!("--username={USER}"))
        .arg("-D")
        .arg(&data)
        .current_dir(&dir)
        .env_remove("PGDATA")
        .stdin(Stdio::null());
        as_owner(&mut init);
        let out = init.output().map_err(|e| format!("running initdb: {e}"))?;
        if !out.status.success() {
            let _ = std::fs::remove_dir_all(&dir);
            return Err(format!(
                "initdb failed: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let mut server = Command::new(postgres);
        server
            .arg("-D")
            .arg(&data)
            .args(["-c", "listen_addresses="])
            .arg("-c")
            .arg(format!("unix_socket_directories={}", dir.display()))
            .args(["-c", "fsync=off", "-c", "synchronous_commit=off"])
            .args(["-c", "full_page_writes=off", "-c", "max_connections=300"])
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(
                std::fs::File::create(dir.join("server.log"))
                    .map(Stdio::from)
                    .unwrap_or_else(|_| Stdio::null()),
            );
        as_owner(&mut server);
        // SAFETY: only an async-signal-safe call between fork and exec.
        unsafe {
            server.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGQUIT);
                Ok(())
            });
        }
        let child: Child = server
            .spawn()
            .map_err(|e| format!("starting postgres: {e}"))?;
        let cluster = Cluster {
            dir,
            pid: child.id() as i32,
            next: AtomicU32::new(0),
        };
        // Ready once it accepts a connection (bounded).
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            match cluster.psql("postgres", "SELECT 1") {
                Ok(_) => return Ok(cluster),
                Err(e) if Instant::now() > deadline => {
                    let log =
                        std::fs::read_to_string(cluster.dir.join("server.log")).unwrap_or_default();
                    return Err(format!("postgres never became ready: {e}\n{log}"));
                }
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }

    /// The URL of database `name` in this cluster.
    pub fn url(&self, name: &str) -> String {
        format!(
            "postgres://{USER}@localhost/{name}?host={}",
            self.dir.display()
        )
    }

    /// Runs `statement` in database `name` on a connection of its own.
    fn psql(&self, name: &str, statement: &str) -> Result<(), String> {
        use sqlx::Connection as _;
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        rt.block_on(async {
            let mut c = sqlx::PgConnection::connect(&self.url(name))
                .await
                .map_err(|e| e.to_string())?;
            sqlx::raw_sql(statement)
                .execute(&mut c)
                .await
                .map_err(|e| e.to_string())?;
            c.close().await.map_err(|e| e.to_string())
        })
    }

    /// A new empty database; returns its URL.
    pub fn create_database(&self) -> String {
        let name = format!(
            "t{}_{}",
            std::process::id(),
            self.next.fetch_add(1, Ordering::Relaxed)
        );
        self.psql("postgres", &format!("CREATE DATABASE {name}"))
            .unwrap_or_else(|e| panic!("creating database {name}: {e}"));
        self.url(&name)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        stop(self.pid, &self.dir);
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
