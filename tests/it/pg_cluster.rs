//! A throwaway PostgreSQL cluster (see `pg.rs`), for the tests and the
//! benches: `initdb` into a temporary directory, `postgres` on a Unix
//! socket there, stopped and removed by [`Cluster`]'s `Drop` or [`stop`].

#![allow(dead_code)]

use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// What to install where PostgreSQL is missing.
pub const INSTALL: &str = "apt-get install postgresql";

/// The user the cluster's superuser is named after.
const USER: &str = "grundy";

/// A running cluster.
pub struct Cluster {
    pub dir: PathBuf,
    pub pid: i32,
    next: AtomicU32,
}

fn runnable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
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
        (runnable(&initdb) && runnable(&postgres)).then_some((initdb, postgres))
    })
}

/// Stops the server (a fast shutdown, then a kill after 10 s) and removes
/// its directory.
pub fn stop(pid: i32, dir: &Path) {
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
        Cluster::start_with(initdb, postgres, false)
    }

    /// [`Cluster::start`], writing to disk as a production server does
    /// where `durable` (the tests' cluster skips fsync: it is thrown away).
    ///
    /// # Errors
    /// As [`Cluster::start`].
    pub fn start_with(initdb: &Path, postgres: &Path, durable: bool) -> Result<Cluster, String> {
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
            .args(["-c", "max_connections=300"])
            .args(if durable {
                &[][..]
            } else {
                &[
                    "-c",
                    "fsync=off",
                    "-c",
                    "synchronous_commit=off",
                    "-c",
                    "full_page_writes=off",
                ][..]
            })
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
