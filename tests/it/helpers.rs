//! Running the built `grundy` binary against a fresh configuration.
//!
//! Each test gets its own directory and database. Generated tests and
//! compiled programs go to one shared, content-addressed data directory
//! under `target/` (safe for concurrent use: entries are renamed into
//! place), so the suite compiles nim's generator and solver once.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// nim's XOR rule in C: accepted.
pub const NIM_C_AC: &str = r#"#include <stdio.h>
int main(void) {
    int n; long long x = 0, a;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) { scanf("%lld", &a); x ^= a; }
    puts(x ? "Yes" : "No");
    return 0;
}
"#;

/// Wrong on nim's first test: the cheapest submission to judge.
pub const NIM_C_WA_FIRST: &str =
    "#include <stdio.h>\nint main(void) { puts(\"Maybe\"); return 0; }\n";

/// A workspace whose config.toml has its `[server]` section set to `server`.
pub fn workspace_with_server(server: &str) -> Workspace {
    let ws = Workspace::new();
    let text = std::fs::read_to_string(ws.config()).expect("config");
    let cut = text.find("[server]").expect("a [server] section");
    std::fs::write(ws.config(), format!("{}[server]\n{server}\n", &text[..cut])).expect("write");
    ws
}

/// A scratch workspace with its own `config.toml` and database.
pub struct Workspace {
    pub dir: tempfile::TempDir,
}

pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    /// One line on stderr, exit 2, nothing on stdout, the line containing `needle`.
    pub fn assert_usage_error(&self, needle: &str) {
        assert_eq!(
            self.code, 2,
            "stdout: {} stderr: {}",
            self.stdout, self.stderr
        );
        assert_eq!(self.stderr.lines().count(), 1, "one line: {}", self.stderr);
        assert!(self.stderr.starts_with("grundy: "), "{}", self.stderr);
        assert!(
            self.stderr.contains(needle),
            "{needle:?} in {}",
            self.stderr
        );
        assert!(self.stdout.is_empty(), "{}", self.stdout);
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not one JSON object ({e}): {}", self.stdout))
    }
}

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shared data directory (program cache and test data).
pub fn shared_data() -> PathBuf {
    repo().join("target").join("it-data")
}

impl Workspace {
    pub fn new() -> Workspace {
        Workspace::with_data_dir(&shared_data())
    }

    /// A workspace whose data directory is its own (for tests that damage it).
    pub fn isolated() -> Workspace {
        let ws = Workspace::with_data_dir(Path::new("/nonexistent"));
        let data = ws.dir.path().join("var");
        ws.write_config(&data);
        ws
    }

    fn with_data_dir(data: &Path) -> Workspace {
        let ws = Workspace {
            dir: tempfile::tempdir().expect("tempdir"),
        };
        ws.write_config(data);
        ws
    }

    fn write_config(&self, data: &Path) {
        let shipped = std::fs::read_to_string(repo().join("config.toml")).expect("config.toml");
        let db = self.dir.path().join("grundy.db");
        let head = format!(
            "data_dir = {:?}\nproblems_dir = {:?}\ndatabase_url = \"sqlite://{}\"\n",
            data.display().to_string(),
            repo().join("problems").display().to_string(),
            db.display()
        );
        let body: String = shipped
            .lines()
            .filter(|l| !l.starts_with("data_dir") && !l.starts_with("problems_dir"))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(self.config(), head + &body).expect("write config");
    }

    pub fn config(&self) -> PathBuf {
        self.dir.path().join("config.toml")
    }

    /// Writes a file into the workspace and returns its path.
    pub fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, text).expect("write source");
        path
    }

    /// Runs `grundy --config <ws>/config.toml ARGS...`.
    pub fn grundy(&self, args: &[&str]) -> Output {
        self.grundy_env(&[], args)
    }

    /// [`Workspace::grundy`] with environment variables set.
    pub fn grundy_env(&self, env: &[(&str, &str)], args: &[&str]) -> Output {
        let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .envs(env.iter().copied())
            .arg("--config")
            .arg(self.config())
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .expect("run grundy");
        Output {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// Submits `source` as file `name` to `problem` with `--json`.
    pub fn submit(&self, problem: &str, name: &str, source: &str) -> Output {
        let path = self.file(name, source);
        self.grundy(&[
            "submit",
            problem,
            path.to_str().expect("utf-8 path"),
            "--json",
        ])
    }
}

/// Copies a directory tree (a fixture package, to change).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create a directory");
    for entry in std::fs::read_dir(from).expect("read a fixture").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy a fixture file");
        }
    }
}

/// A server (API, pages and `workers` judge workers) running in this
/// process on 127.0.0.1:0, with the sandbox chosen first as `grundy serve`
/// does; stopped on drop.
pub struct Server {
    pub url: String,
    pub store: grundy::store::Store,
    pub ctx: std::sync::Arc<grundy::context::Context>,
    pub rt: std::sync::Arc<tokio::runtime::Runtime>,
    /// The server's state (its gauges, for tests that look inside).
    pub state: grundy::server::AppState,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    pub fn start(ws: &Workspace, workers: usize) -> Server {
        use std::sync::Arc;
        let config = grundy::config::Config::load(&ws.config()).expect("config");
        let rt = Arc::new(
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("runtime"),
        );
        let store = rt
            .block_on(grundy::store::Store::open(&config.database_url()))
            .expect("store");
        let ctx = Arc::new(grundy::context::Context::new(config));
        ctx.tiers();
        let listener = rt
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let state = grundy::server::AppState::new(ctx.clone(), store.clone());
        let handle = rt.spawn(grundy::hosted::serve(
            listener,
            state.clone(),
            workers,
            async {
                let _ = rx.await;
            },
        ));
        let rt2 = rt.clone();
        let thread = std::thread::spawn(move || {
            rt2.block_on(handle).expect("join").expect("serve");
        });
        Server {
            url: format!("http://{addr}"),
            store,
            ctx,
            rt,
            state,
            stop: Some(tx),
            thread: Some(thread),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
