//! The configuration's sections, one type each, with the defaults they take
//! when `config.toml` leaves a key out: `[limits]`, `[compile]`,
//! `[sandbox]`, `[timing]`, `[server]` and `[languages.<id>]`. Checking
//! values against each other is [`Config`](super::Config)'s, at load.

use std::path::PathBuf;

use serde::Deserialize;

/// Limits of every submission's run beyond the problem's own time and
/// memory limits (which every `problem.toml` sets).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Wall-clock limit as a multiple of the CPU limit (default 3.0).
    pub wall_factor: f64,
    /// MiB of standard output per run (default 64).
    pub output_limit: u64,
    /// KiB of source code accepted per submission (default 256).
    pub source_limit: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            wall_factor: 3.0,
            output_limit: 64,
            source_limit: 256,
        }
    }
}

/// Limits for compilers and the program cache.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CompileLimits {
    /// Seconds of CPU time per compilation, every process of the compiler
    /// included (default 10): a template or macro bomb is stopped here,
    /// not by the wall clock.
    pub cpu_limit: f64,
    /// Seconds of wall-clock time per compilation (default 20).
    pub time_limit: f64,
    /// MiB of memory (default 2048).
    pub memory_limit: u64,
    /// KiB of compiler messages kept (default 64).
    pub output_limit: u64,
    /// MiB a compiled program may take on disk, every file of it together
    /// (default 64); any single file the compiler writes is cut there too.
    pub program_limit: u64,
    /// MiB of the whole program cache (default 4096); beyond it the least
    /// recently used entries are removed.
    pub cache_limit: u64,
    /// MiB of working space per compilation, every file the compiler
    /// writes together (default 512): a tmpfs of the box, not the host's
    /// disk, counted in the compilation's memory where a cgroup counts.
    pub space_limit: u64,
}

impl Default for CompileLimits {
    fn default() -> Self {
        CompileLimits {
            cpu_limit: 10.0,
            time_limit: 20.0,
            memory_limit: 2048,
            output_limit: 64,
            program_limit: 64,
            cache_limit: 4096,
            space_limit: 512,
        }
    }
}

/// How untrusted programs are isolated and measured (`[sandbox]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SandboxConfig {
    /// `auto` (default): the best namespace tier this machine allows, and
    /// refuse to run anything when none works (fail closed); `namespaces`:
    /// the same; `none`: rlimits and a process group only (insecure: for
    /// trusted code or broken hosts; also what the `--insecure` flag asks).
    pub isolation: Isolation,
    /// `auto` (default): cgroup v2, else cgroup v1, else rusage; or force
    /// one of `cgroup-v2`, `cgroup-v1`, `rusage`.
    pub measurement: MeasurementChoice,
    /// Host uid (and gid) a box runs as when the judge runs as root
    /// (default 60000, a uid that owns nothing). Unprivileged judges run
    /// boxes as themselves.
    pub uid: u32,
    /// Host paths every box sees read-only (default: `/usr`, `/bin`, `/lib`,
    /// `/lib64`, `/lib32`, `/sbin`, `/etc/ld.so.cache`, `/etc/alternatives`;
    /// missing ones are skipped). Languages add their own (`paths`).
    pub paths: Vec<PathBuf>,
    /// MiB of the box's private `/tmp` (default 64); what is written there
    /// also counts towards the memory limit where cgroups measure.
    pub tmp_size: u64,
    /// Programs run at once by the whole judge, every worker, compiler
    /// and generator included (default 0: one per core).
    pub slots: usize,
}

/// The isolation requested in `[sandbox] isolation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Isolation {
    Auto,
    Namespaces,
    None,
}

/// The measurement requested in `[sandbox] measurement`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MeasurementChoice {
    Auto,
    CgroupV2,
    CgroupV1,
    Rusage,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        SandboxConfig {
            isolation: Isolation::Auto,
            measurement: MeasurementChoice::Auto,
            uid: 60000,
            paths: [
                "/usr",
                "/bin",
                "/lib",
                "/lib64",
                "/lib32",
                "/sbin",
                "/etc/ld.so.cache",
                "/etc/alternatives",
            ]
            .iter()
            .map(PathBuf::from)
            .collect(),
            tmp_size: 64,
            slots: 0,
        }
    }
}

/// Fair timing across the judge's workers (`[timing]`, used by `grundy
/// serve` and `grundy worker`; a local `grundy submit` ignores it). See
/// `docs/timing.md`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TimingConfig {
    /// Scale every time limit by the worker's speed factor (default true).
    /// The factor is 1 while the live workers' calibrations differ by no
    /// more than `spread`.
    pub fair: bool,
    /// The reference speed: milliseconds of CPU the calibration program
    /// takes on the machine the problems' limits were set on (default 0:
    /// the fastest live worker is the reference).
    pub reference_ms: f64,
    /// The largest difference in speed that is ignored (default 0.05: 5%).
    pub spread: f64,
    /// A verdict decided within this fraction of the limit (an AC using at
    /// least `1 - margin` of it, a TLE within `1 + margin`) is judged once
    /// more, on another worker where there is one (default 0.10; 0: never).
    pub rerun_margin: f64,
    /// Runs of the calibration program in a calibration, each with every
    /// worker slot busy; their median is the worker's speed (default 5; 0:
    /// not calibrated, factor 1).
    pub calibration_runs: u32,
    /// Seconds between a worker's calibrations after the first at start
    /// (default 600); a change in the machine's other load calibrates
    /// sooner. 0: at start only.
    pub recalibrate_seconds: u64,
}

impl Default for TimingConfig {
    fn default() -> Self {
        TimingConfig {
            fair: true,
            reference_ms: 0.0,
            spread: 0.05,
            rerun_margin: 0.10,
            calibration_runs: 5,
            recalibrate_seconds: 600,
        }
    }
}

/// The hosted judge (`[server]`, used by `grundy serve`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    /// Address to listen on (default `127.0.0.1:8080`; `--bind` overrides).
    pub bind: String,
    /// Judge workers in the server (default 0: one per core; `--workers`
    /// overrides).
    pub workers: usize,
    /// Seconds a worker's claim on a submission lasts unrenewed (default
    /// 30; renewed every third of it while judging). After a crash, a
    /// submission is judged again once its lease has expired.
    pub lease_seconds: f64,
    /// Submissions one user may make per minute (default 10; 0: no limit).
    pub submissions_per_minute: u32,
    /// Marks the web pages' cookies `Secure` (default false): set it when
    /// the judge is reached over HTTPS (behind a proxy that terminates it).
    pub secure_cookies: bool,
    /// Questions to the judges one team may ask per contest per minute
    /// (default 3; 0: no limit).
    pub questions_per_minute: u32,
    /// Submissions of one user waiting to be judged at once (default 5; 0:
    /// no limit); rejudges are not counted.
    pub max_waiting: u32,
    /// Failed sign-ins for one account name before it must wait (default 5).
    pub signin_failures_per_name: u32,
    /// Failed sign-ins from one client address before it must wait
    /// (default 30: behind a proxy, every visitor shares its address).
    pub signin_failures_per_address: u32,
    /// The first wait after too many failed sign-ins, doubled by each
    /// further failure up to an hour (default 30).
    pub signin_backoff_seconds: f64,
    /// Passwords hashed at once, each with 19 MiB (default 0: one per core);
    /// a sign-in that finds them all busy for 2 s is told to retry (503).
    pub password_hashers: usize,
    /// Seconds a connection may take to send a request's head, and may sit
    /// idle between requests, before it is closed (default 10).
    pub header_timeout_seconds: f64,
    /// Connections served at once (default 1024); more wait to be accepted.
    pub max_connections: usize,
    /// Contest API event feeds open at once (default 256; at most
    /// `max_connections` - 1, so the rest of the server keeps connections).
    pub max_feeds: usize,
    /// Event feeds open at once from one client address (default 8).
    pub feeds_per_address: usize,
    /// The largest problem archive an admin may upload, in MiB, both as
    /// sent and once unpacked (default 256).
    pub upload_limit_mib: u64,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            bind: "127.0.0.1:8080".into(),
            workers: 0,
            lease_seconds: 30.0,
            submissions_per_minute: 10,
            secure_cookies: false,
            max_waiting: 5,
            questions_per_minute: 3,
            signin_failures_per_name: 5,
            signin_failures_per_address: 30,
            signin_backoff_seconds: 30.0,
            password_hashers: 0,
            header_timeout_seconds: 10.0,
            max_connections: 1024,
            max_feeds: 256,
            feeds_per_address: 8,
            upload_limit_mib: 256,
        }
    }
}

/// How to compile and run one language.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanguageConfig {
    /// Human-readable name, e.g. "C++17 (g++)".
    pub name: String,
    /// The language's id in the Kattis problem format (problemtools'
    /// `languages.yaml`: `cpp`, `python3`, `csharp`), for reading and
    /// writing Kattis packages; several languages may share one (`cpp`
    /// for every C++ standard).
    #[serde(default)]
    pub kattis_id: Option<String>,
    /// The language's id in the CLICS Contest API (`cpp`, `python3`,
    /// `kotlin`, as the specification lists them where it does); unique
    /// among the configured languages.
    #[serde(default)]
    pub clics_id: Option<String>,
    /// File extensions (without the dot) that select this language.
    pub extensions: Vec<String>,
    /// The file name the source is saved as before compiling (e.g. `Main.java`).
    pub source: String,
    /// Compile command, run in the directory holding the source; empty for none.
    #[serde(default)]
    pub compile: Vec<String>,
    /// Run command; `{dir}` is the compiled program's directory,
    /// `{memory_mib}` the memory limit.
    pub run: Vec<String>,
    /// Command printing the toolchain's version.
    #[serde(default)]
    pub version: Vec<String>,
    /// Command printing the toolchain's root directory (e.g. `rustc --print
    /// sysroot`), run once outside the box; its output replaces
    /// `{toolchain}` in `compile`, `run`, `version` and `paths`, so a box
    /// can use the real toolchain without seeing a version manager's home.
    #[serde(default)]
    pub toolchain: Vec<String>,
    /// Command run once per toolchain version, in a box whose working
    /// directory is kept under the data directory (e.g. to build a
    /// precompiled header); that directory fills `{prepared}` in `compile`
    /// and is visible read-only to compilations. If it fails, compile
    /// arguments naming `{prepared}` are dropped.
    #[serde(default)]
    pub prepare: Vec<String>,
    /// Host paths the box must see read-only to compile and run this
    /// language (its installation, when outside the system paths of
    /// `[sandbox]`).
    #[serde(default)]
    pub paths: Vec<String>,
    /// The exit status by which this language's runtime reports that it
    /// ran out of its own memory limit (Java with
    /// `-XX:+ExitOnOutOfMemoryError` exits 3): the judge calls it MLE,
    /// as it does when the kernel stops a program at the limit.
    #[serde(default)]
    pub memory_exit_code: Option<i32>,
    /// Multiplier on the problem's time limit (default 1.0).
    #[serde(default = "one")]
    pub time_factor: f64,
    /// Processes and threads a run of a program may have alive at once
    /// (default 64): a runtime that starts a thread per core (Go, the
    /// JVM, Node.js, Mono) needs more on a machine with many.
    #[serde(default = "default_processes")]
    pub processes: u64,
    /// Whether this judge must have this language (default false): `grundy
    /// doctor` and `grundy languages` exit 1 when a required language does
    /// not work. Any other language whose toolchain is missing is reported
    /// with the reason and left out, and is no failure.
    #[serde(default)]
    pub required: bool,
}

fn default_processes() -> u64 {
    64
}

fn one() -> f64 {
    1.0
}
