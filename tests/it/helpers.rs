//! Running the built `grundy` binary against a fresh configuration.
//!
//! Each test gets its own directory and database. Generated tests and
//! compiled programs go to one shared, content-addressed data directory
//! under `target/` (safe for concurrent use: entries are renamed into
//! place), so the suite compiles nim's generator and solver once.
//!
//! A test that needs a program from outside Rust and gcc (g++, Python 3,
//! Java, Chromium) asks [`require`] or [`require_languages`] first: where
//! the program is missing the test is skipped with one line on stderr naming
//! what to install, or fails under `GRUNDY_REQUIRE_ALL=1` (as CI runs it).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// Whether every program in `programs` (absolute paths) is there to run.
/// Where one is missing the calling test should return at once: this prints
/// `SKIPPED <test>: needs <program> (<install>)` on stderr, or, under
/// `GRUNDY_REQUIRE_ALL=1`, fails the test with that line.
pub fn require(programs: &[&str], install: &str) -> bool {
    let missing: Vec<&str> = programs
        .iter()
        .copied()
        .filter(|p| !runnable(Path::new(p)))
        .collect();
    if missing.is_empty() {
        return true;
    }
    skip(&format!("needs {} ({install})", listed(&missing)));
    false
}

/// [`require`] for the toolchains of `languages` (keys of `[languages]` in the
/// shipped config.toml: `c`, `cpp`, `rust`, `python`, `java`, `go`, ...), as that file
/// names them: the test judges sources in these languages.
pub fn require_languages(languages: &[&str]) -> bool {
    let (missing, install) = missing_toolchains(languages);
    if missing.is_empty() {
        return true;
    }
    skip(&format!(
        "needs {} ({})",
        listed(&missing),
        install_command(&install)
    ));
    false
}

/// The languages of `languages` whose toolchains are there, for a test that
/// checks each one it can; the others are named in one line on stderr (or
/// fail the test under `GRUNDY_REQUIRE_ALL=1`).
pub fn languages_present<'a>(languages: &[&'a str]) -> Vec<&'a str> {
    let present: Vec<&str> = languages
        .iter()
        .copied()
        .filter(|l| missing_toolchains(&[l]).0.is_empty())
        .collect();
    if present.len() < languages.len() {
        let absent: Vec<&str> = languages
            .iter()
            .copied()
            .filter(|l| !present.contains(l))
            .collect();
        let (missing, install) = missing_toolchains(&absent);
        skip(&format!(
            "{} not tested: needs {} ({})",
            listed(&absent),
            listed(&missing),
            install_command(&install)
        ));
    }
    present
}

/// [`require_languages`] for every source under `paths` (files, or
/// directories walked whole: a package's submissions, validators and
/// checkers), each language by its extension.
pub fn require_sources(paths: &[&Path]) -> bool {
    let languages = languages_of_sources(paths);
    let languages: Vec<&str> = languages.iter().map(String::as_str).collect();
    require_languages(&languages)
}

/// The languages of the sources under `paths` (files or directories), by
/// extension, sorted.
pub fn languages_of_sources(paths: &[&Path]) -> Vec<String> {
    fn walk(path: &Path, out: &mut Vec<String>) {
        if path.is_dir() {
            for entry in std::fs::read_dir(path).expect("read a directory").flatten() {
                walk(&entry.path(), out);
            }
        } else if let Some(language) = path.to_str().and_then(language_of) {
            if !out.contains(&language) {
                out.push(language);
            }
        }
    }
    let mut languages = Vec::new();
    for path in paths {
        walk(path, &mut languages);
    }
    languages.sort();
    languages
}

/// The key of the language that judges a source named `name`, by extension
/// as the shipped config.toml maps it (`None` for an unknown one).
pub fn language_of(name: &str) -> Option<String> {
    let ext = Path::new(name).extension()?.to_str()?;
    shipped_languages().into_iter().find_map(|(key, lang)| {
        let exts = lang.get("extensions")?.as_array()?;
        exts.iter().any(|e| e.as_str() == Some(ext)).then_some(key)
    })
}

/// The programs missing for `languages`, and the commands that install them.
fn missing_toolchains(languages: &[&str]) -> (Vec<String>, Vec<String>) {
    let shipped = shipped_languages();
    let (mut missing, mut install) = (Vec::new(), Vec::new());
    for &language in languages {
        let Some((_, table)) = shipped.iter().find(|(key, _)| key == language) else {
            panic!("no language {language:?} in config.toml");
        };
        // The absolute programs its commands start with ({toolchain} and
        // {dir} are filled in by the judge: rustc comes with cargo, and a
        // compiled program is the judge's own).
        let mut gone = Vec::new();
        for command in ["compile", "run", "version"] {
            let program = table
                .get(command)
                .and_then(|c| c.as_array())
                .and_then(|c| c.first())
                .and_then(|p| p.as_str());
            if let Some(p) = program.filter(|p| p.starts_with('/')) {
                if !runnable(Path::new(p)) && !gone.contains(&p.to_string()) {
                    gone.push(p.to_string());
                }
            }
        }
        // A toolchain found by its `toolchain` command (rustup's rustc):
        // that program, on PATH and reachable by this user.
        let located = table
            .get("toolchain")
            .and_then(|c| c.as_array())
            .and_then(|c| c.first())
            .and_then(|p| p.as_str());
        if let Some(p) = located.filter(|p| grundy::lang::resolve(p).is_none()) {
            gone.push(p.to_string());
        }
        // Its own directories (Kotlin's compiler, run by the JDK's java).
        let paths = table.get("paths").and_then(|c| c.as_array());
        for p in paths.into_iter().flatten().filter_map(|p| p.as_str()) {
            if p.starts_with('/') && !Path::new(p).exists() && !gone.contains(&p.to_string()) {
                gone.push(p.to_string());
            }
        }
        if !gone.is_empty() {
            install.push(install_hint(language).to_string());
            missing.extend(gone);
        }
    }
    (missing, install)
}

/// The Debian package of a language's toolchain (empty where none gives
/// it: Rust comes from rustup).
fn install_hint(language: &str) -> &'static str {
    match language {
        "c" => "gcc",
        "cpp" => "g++",
        "python" => "python3",
        "java" => "openjdk-17-jdk-headless",
        "cpp17" | "cpp20" | "cpp23" => "g++",
        "pypy3" => "pypy3",
        "go" => "golang-go",
        "javascript" => "nodejs",
        "kotlin" => "kotlin",
        "csharp" => "mono-mcs",
        "haskell" => "ghc",
        "ocaml" => "ocaml",
        "pascal" => "fp-compiler",
        "ruby" => "ruby",
        "php" => "php-cli",
        _ => "",
    }
}

/// One command installing `packages`.
fn install_command(packages: &[String]) -> String {
    let named: Vec<&str> = packages
        .iter()
        .map(String::as_str)
        .filter(|p| !p.is_empty())
        .collect();
    match named.len() {
        0 => "see config.toml".into(),
        n if n < packages.len() => {
            format!(
                "apt-get install {}; see config.toml for the rest",
                named.join(" ")
            )
        }
        _ => format!("apt-get install {}", named.join(" ")),
    }
}

/// `a`, `a and b`, `a, b and c`.
fn listed<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => {
            let init: Vec<&str> = init.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", init.join(", "), last.as_ref())
        }
    }
}

/// The `[languages]` tables of the shipped config.toml, by key.
fn shipped_languages() -> Vec<(String, toml::Value)> {
    let text = std::fs::read_to_string(repo().join("config.toml")).expect("config.toml");
    let config: toml::Table = text.parse().expect("config.toml is TOML");
    config
        .get("languages")
        .and_then(|l| l.as_table())
        .map(|t| t.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default()
}

/// An executable file (a link followed).
pub fn runnable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Skips the calling test with one line on stderr, or fails it under
/// `GRUNDY_REQUIRE_ALL=1`.
pub fn skip(why: &str) {
    // The test harness names each test's thread after the test.
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    if std::env::var_os("GRUNDY_REQUIRE_ALL").is_some_and(|v| v == "1") {
        panic!("{test}: {why} (GRUNDY_REQUIRE_ALL=1: a missing program fails the test)");
    }
    // Written to the process's stderr itself: the harness captures
    // `eprintln!` of a passing test, and a skip must be seen.
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}

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

    /// Points the workspace's configuration at `problems` as its
    /// problems directory.
    pub fn use_problems(&self, problems: &Path) {
        let text = std::fs::read_to_string(self.config()).expect("config");
        let text: String = text
            .lines()
            .map(|l| match l.starts_with("problems_dir") {
                true => format!("problems_dir = {:?}\n", problems.display().to_string()),
                false => format!("{l}\n"),
            })
            .collect();
        std::fs::write(self.config(), text).expect("write config");
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

/// A workspace and its server with one judge worker and no rate limit,
/// for tests that judge C submissions; `None` (and the skip said) where C
/// is missing.
pub fn c_judge() -> Option<(Workspace, Server)> {
    if !require_languages(&["c"]) {
        return None;
    }
    let ws = workspace_with_server("submissions_per_minute = 0\nlease_seconds = 30");
    let s = Server::start(&ws, 1);
    Some((ws, s))
}

impl Server {
    /// A fresh API token of account `name`.
    pub fn token(&self, name: &str) -> String {
        let t = grundy::auth::new_token();
        self.rt
            .block_on(self.store.add_token(name, &t.hash, &t.prefix))
            .expect("add token");
        t.token
    }

    /// C `source` sent by user `user` to problem A of contest `slug`, as the
    /// contest's pages take it; its id. A worker is woken for it.
    pub fn contest_submit(&self, slug: &str, user: i64, source: &str) -> i64 {
        let contest = self
            .rt
            .block_on(self.store.contest(slug))
            .expect("read")
            .expect("there");
        let entry = grundy::site::intake::Entry {
            user_id: user,
            problem: String::new(),
            language: "c".into(),
            source: source.into(),
        };
        let id = self
            .rt
            .block_on(grundy::site::contests::submit(
                &self.ctx,
                &self.store,
                self.state.limits,
                &contest,
                "A",
                entry,
            ))
            .expect("taken");
        self.state.wake.notify_one();
        id
    }

    /// Waits (up to 5 minutes) until every submission of contest `id` is
    /// judged: the one wait for a contest's verdicts. It waits on the
    /// server's notice of a changed submission (which its workers give for
    /// every test and verdict), reading the contest's submissions again
    /// after each; the notice is armed before each read, so none is missed.
    pub fn contest_judged(&self, id: i64) {
        use std::time::{Duration, Instant};
        let deadline = Instant::now() + Duration::from_secs(300);
        let changes = std::sync::Arc::clone(&self.state.worker.changes);
        self.rt.block_on(async {
            loop {
                let notice = changes.any.notified();
                tokio::pin!(notice);
                notice.as_mut().enable();
                let subs = self
                    .store
                    .contest_submissions(id, None)
                    .await
                    .expect("read");
                if subs.iter().all(|x| x.status == "done") {
                    return;
                }
                let left = deadline.saturating_duration_since(Instant::now());
                assert!(!left.is_zero(), "not judged in time: {subs:?}");
                // A change made by another process gives no notice here:
                // look again at least every few seconds.
                let _ = tokio::time::timeout(left.min(Duration::from_secs(5)), notice).await;
            }
        });
    }

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
        // A serve that failed or panicked (a shutdown error included) fails
        // the test: its thread's panic is raised here, unless the test is
        // already failing (a second panic would abort the run).
        if let Some(t) = self.thread.take() {
            if let Err(panic) = t.join() {
                if !std::thread::panicking() {
                    std::panic::resume_unwind(panic);
                }
            }
        }
    }
}

/// The value of the first `name="csrf"` field of a page.
pub fn csrf_of(html: &str) -> String {
    let at = html
        .find("name=\"csrf\" value=\"")
        .expect("a form with a csrf field");
    let rest = &html[at + "name=\"csrf\" value=\"".len()..];
    rest[..rest.find('"').expect("end of the value")].to_string()
}

/// `name=value` of a `Set-Cookie` line.
pub fn cookie_pair(set_cookie: &str) -> String {
    set_cookie.split(';').next().unwrap_or("").to_string()
}

/// The queue's next submission, claimed as a worker with every language
/// (the one claim, [`Queue::claim`](grundy::store::Queue::claim)).
pub async fn claim_any(
    store: &grundy::store::Store,
    lease: std::time::Duration,
) -> Option<grundy::store::Claim> {
    use grundy::store::{ClaimAs, Queue};
    store.claim(lease, &ClaimAs::default()).await.unwrap()
}

/// Submission `id`'s first judging, claimed as a local `grundy submit`
/// claims its own.
pub async fn claim_own(
    store: &grundy::store::Store,
    id: i64,
    lease: std::time::Duration,
) -> Option<grundy::store::Lease> {
    use grundy::store::{ClaimAs, Queue};
    let own = ClaimAs {
        only: Some(id),
        ..ClaimAs::default()
    };
    Some(store.claim(lease, &own).await.unwrap()?.lease)
}

/// `dir`'s files as a ZIP archive (deflated), each under `prefix`.
pub fn zip_dir(dir: &Path, prefix: &str) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let rel = path
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let mode = {
                use std::os::unix::fs::PermissionsExt as _;
                std::fs::metadata(&path).unwrap().permissions().mode() & 0o777
            };
            let options = zip::write::SimpleFileOptions::default().unix_permissions(mode);
            zip.start_file(format!("{prefix}{rel}"), options).unwrap();
            std::io::Write::write_all(&mut zip, &std::fs::read(&path).unwrap()).unwrap();
        }
    }
    zip.finish().unwrap().into_inner()
}
