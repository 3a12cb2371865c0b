//! A language's toolchain as the judge finds it: where it is (`PATH`, a
//! version manager's `toolchain` command), its version line (probed in the
//! box), its prepared directory (a precompiled header), and the memo that
//! keeps each probe's answer.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::{base_env, read_bounded, Language, ProgramCache};
use crate::config::CompileLimits;
use crate::digest::Fields;
use crate::sandbox::{Bind, Limits, RunSpec, Runner, Stdio};

/// How long a failed probe is believed before it is tried again.
const RETRY_PROBE_AFTER: Duration = Duration::from_secs(30);

/// Runs of a version command before a probe fails.
const PROBE_RUNS: u32 = 3;

/// The memo of a probe (a toolchain's version, its directory, a prepared
/// header): a success is kept for good; a failure only for
/// [`RETRY_PROBE_AFTER`], so a judge that runs for months recovers from a
/// transient one (a toolchain being upgraded, a machine under load).
#[derive(Debug)]
pub(super) struct Probe<T> {
    memo: Mutex<Option<(Result<T, String>, Instant)>>,
    retry_after: Duration,
}

impl<T> Default for Probe<T> {
    fn default() -> Self {
        Probe {
            memo: Mutex::new(None),
            retry_after: RETRY_PROBE_AFTER,
        }
    }
}

impl<T: Clone> Probe<T> {
    /// The memo, or `probe()`'s result when there is none to trust. One
    /// probe runs at a time; others wait for its result.
    pub(super) fn get_or(&self, probe: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
        // The memo is replaced whole under the lock: a panic cannot leave
        // it half-written, so a poisoned lock holds a usable value.
        let mut memo = self.memo.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((result, at)) = &*memo {
            if result.is_ok() || at.elapsed() < self.retry_after {
                return result.clone();
            }
        }
        let result = probe();
        *memo = Some((result.clone(), Instant::now()));
        result
    }

    /// Drops the memo: the next [`Probe::get_or`] probes again.
    pub(super) fn forget(&self) {
        *self.memo.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

impl Language {
    /// The toolchain's version line, or what is missing (probed in the box;
    /// a failure is probed again after a while). A line probed before, by
    /// this process or another, for the very same toolchain files is
    /// remembered (see `version_file`): a one-shot `grundy submit`
    /// starts no box to learn what the last one learnt.
    pub fn version(&self, runner: &dyn Runner) -> Result<String, String> {
        self.version.get_or(|| {
            let file = self.version_file();
            let remembered = file.as_ref().and_then(|f| std::fs::read_to_string(f).ok());
            if let Some(line) = remembered.filter(|l| !l.is_empty() && !l.contains('\n')) {
                return Ok(line);
            }
            let line = self.probe_version(runner)?;
            if let Some(file) = file {
                remember(&file, &line);
            }
            Ok(line)
        })
    }

    /// Where this toolchain's version line is remembered between
    /// processes: a file named by the toolchain's identity, the language,
    /// its filled version command, and each program and directory it uses
    /// as the file system has it (path, device, inode, size, modification
    /// and change times), as a compiler cache knows a compiler by its
    /// file. A toolchain installed, upgraded, replaced or removed is
    /// another identity, probed afresh. `None` when the judge remembers
    /// none (no data directory given), or a file is missing (the probe says
    /// which).
    fn version_file(&self) -> Option<PathBuf> {
        use std::os::unix::ffi::OsStrExt as _;
        use std::os::unix::fs::MetadataExt as _;
        let dir = self.remembered.as_ref()?;
        let mut key = Fields::new();
        key.field(self.id.as_bytes());
        let version = self.filled(&self.config.version).ok()?;
        for arg in &version {
            key.field(arg.as_bytes());
        }
        let mut files = Vec::new();
        for argv in [&version, &self.config.compile, &self.config.run] {
            if let Some(program) = argv.first() {
                let program = self.fill(program).ok()?;
                if !program.contains('{') {
                    files.push(resolve(&program)?);
                }
            }
        }
        files.extend(self.paths().ok()?);
        for file in files {
            let m = std::fs::metadata(&file).ok()?;
            key.field(file.as_os_str().as_bytes());
            for n in [m.dev(), m.ino(), m.size()] {
                key.field(&n.to_le_bytes());
            }
            for n in [m.mtime(), m.mtime_nsec(), m.ctime(), m.ctime_nsec()] {
                key.field(&n.to_le_bytes());
            }
        }
        Some(dir.join(key.finish()))
    }

    /// The toolchain directory (`{toolchain}`), from the `toolchain`
    /// command run once outside the box (it may be a version manager's
    /// proxy, which the box cannot see); `""` when none is configured.
    pub(super) fn toolchain(&self) -> Result<String, String> {
        self.toolchain.get_or(|| {
            let Some(program) = self.config.toolchain.first() else {
                return Ok(String::new());
            };
            let path = resolve(program).ok_or_else(|| format!("{program} not found"))?;
            let (status, stdout, stderr) = probe(&path, &self.config.toolchain[1..])
                .map_err(|e| format!("{program}: {}", crate::errors::chain(&e)))?;
            let text = String::from_utf8_lossy(&stdout).trim().to_string();
            let command = self.config.toolchain.join(" ");
            // The tool's own words say why (rustup: "no default is
            // configured"); ours only that it gave no directory.
            match reason(&stderr) {
                Some(why) if !status.success() => Err(format!("{command} failed: {why}")),
                _ if !status.success() || text.is_empty() || text.contains('\n') => {
                    Err(format!("{command} printed no toolchain directory"))
                }
                _ => Ok(text),
            }
        })
    }

    /// A configured argument with `{toolchain}` filled in.
    pub(super) fn fill(&self, arg: &str) -> Result<String, String> {
        if arg.contains("{toolchain}") {
            Ok(arg.replace("{toolchain}", &self.toolchain()?))
        } else {
            Ok(arg.to_string())
        }
    }

    pub(super) fn filled(&self, argv: &[String]) -> Result<Vec<String>, String> {
        argv.iter().map(|a| self.fill(a)).collect()
    }

    /// The directory the `prepare` command filled (built once per
    /// toolchain version and kept in the program cache), or `None` when
    /// there is no such command or it failed (compiling then goes on
    /// without it: slower, never wrong).
    pub(super) fn prepared(
        &self,
        runner: &dyn Runner,
        cache: &ProgramCache,
        version: &str,
        limits: &CompileLimits,
    ) -> Option<PathBuf> {
        if self.config.prepare.is_empty() {
            return None;
        }
        let probe = || {
            self.prepare(runner, cache, version, limits).inspect_err(|why| {
                tracing::warn!(language = %self.id, "prepare failed, compiling without it: {why}");
            })
        };
        match self.prepared.get_or(probe) {
            // The program cache may have evicted it since (a long-running
            // server): build it again rather than bind a vanished path.
            Ok(dir) if !dir.is_dir() => {
                self.prepared.forget();
                self.prepared.get_or(probe).ok()
            }
            memo => memo.ok(),
        }
    }

    pub(super) fn prepare(
        &self,
        runner: &dyn Runner,
        cache: &ProgramCache,
        version: &str,
        limits: &CompileLimits,
    ) -> Result<PathBuf, String> {
        let mut h = Fields::new();
        for part in [self.id.as_str(), version]
            .into_iter()
            .chain(self.config.prepare.iter().map(String::as_str))
        {
            h.field(part.as_bytes());
        }
        let name = format!("prepared-{}", h.finish());
        if let Some(dir) = cache.prepared(&name) {
            return Ok(dir);
        }
        let work = cache.workspace().map_err(|e| e.to_string())?;
        let dir = work.path().join("prepared");
        std::fs::create_dir(&dir).map_err(|e| e.to_string())?;
        let argv = self.filled(&self.config.prepare)?;
        let program = resolve(&argv[0]).ok_or_else(|| format!("{} not found", argv[0]))?;
        let log = work.path().join("prepare.log");
        let mut binds = self.binds()?;
        binds.push(Bind::writable(&dir));
        let run_limits = Limits::new(Duration::from_secs(60), 2 << 30)
            .wall(Duration::from_secs(120))
            .output(1 << 30)
            .open_files(256);
        let spec = RunSpec::new(program, &dir, run_limits)
            .args(&argv[1..])
            .envs(base_env())
            .stdout(Stdio::file(&log))
            .stderr(Stdio::file(&log))
            .binds(binds);
        let outcome = runner.run(&spec).map_err(|e| e.to_string())?;
        if !outcome.success() {
            return Err(format!(
                "{:?}: {}",
                outcome.termination,
                read_bounded(&log, 2000)
            ));
        }
        cache
            .store(&name, &dir, limits.cache_limit << 20)
            .map_err(|e| e.to_string())
    }

    /// The host paths every box of this language sees read-only.
    pub(super) fn paths(&self) -> Result<Vec<PathBuf>, String> {
        Ok(self
            .filled(&self.config.paths)?
            .into_iter()
            .map(PathBuf::from)
            .collect())
    }

    pub(super) fn binds(&self) -> Result<Vec<Bind>, String> {
        Ok(self.paths()?.into_iter().map(Bind::read_only).collect())
    }

    pub(super) fn probe_version(&self, runner: &dyn Runner) -> Result<String, String> {
        for argv in [&self.config.compile, &self.config.run] {
            if let Some(program) = argv.first() {
                let program = self.fill(program)?;
                if !program.contains('{') && resolve(&program).is_none() {
                    return Err(format!("{program} not found"));
                }
            }
        }
        // A language's own directories are part of its toolchain (Kotlin's
        // compiler is a jar that the JDK's java runs).
        if let Some(gone) = self.paths()?.into_iter().find(|p| !p.exists()) {
            return Err(format!("{} not found", gone.display()));
        }
        let version = self.filled(&self.config.version)?;
        let Some(program) = version.first() else {
            return Ok("(no version command)".to_string());
        };
        let path = resolve(program).ok_or_else(|| format!("{program} not found"))?;
        // The toolchain is there; a run that fails may be the machine's
        // passing trouble (a box that could not start under load), so it
        // is tried again before the language is called unavailable.
        let mut failure = String::new();
        for attempt in 0..PROBE_RUNS {
            if attempt > 0 {
                std::thread::sleep(Duration::from_millis(200 << attempt));
            }
            match self.run_version(runner, &path, &version[1..]) {
                Ok(line) => return Ok(line),
                Err(e) => failure = format!("{program} failed: {e}"),
            }
        }
        Err(failure)
    }

    /// One run of the version command in the box: its first line.
    pub(super) fn run_version(
        &self,
        runner: &dyn Runner,
        path: &Path,
        args: &[String],
    ) -> Result<String, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let out = dir.path().join("out");
        let limits = Limits::new(Duration::from_secs(10), 1 << 30)
            .wall(Duration::from_secs(20))
            .open_files(256);
        let spec = RunSpec::new(path, dir.path(), limits)
            .args(args)
            .envs(base_env())
            .stdout(Stdio::file(&out))
            .stderr(Stdio::file(&out))
            .binds(self.binds()?);
        let outcome = runner.run(&spec).map_err(|e| e.to_string())?;
        let text = std::fs::read(&out).unwrap_or_default();
        if outcome.success() {
            let text = String::from_utf8_lossy(&text);
            let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            Ok(line.trim().to_string())
        } else {
            let why = reason(&text).unwrap_or_default();
            Err(format!("{:?}: {why}", outcome.termination))
        }
    }
}

/// Writes `line` to `file` whole or not at all (a temporary file renamed
/// into place); a failure only means the next process probes again.
fn remember(file: &Path, line: &str) {
    let Some(dir) = file.parent() else { return };
    let written = std::fs::create_dir_all(dir).and_then(|()| {
        let mut staged = tempfile::NamedTempFile::new_in(dir)?;
        std::io::Write::write_all(&mut staged, line.as_bytes())?;
        staged.persist(file).map_err(|e| e.error)?;
        Ok(())
    });
    if let Err(e) = written {
        tracing::debug!(file = %file.display(), error = %e, "the toolchain's version is not remembered");
    }
}

/// Lines of a tool's diagnostics that say why it failed: the first two
/// that are not blank (rustup's `error:` and its `help:`), joined, each
/// cut to a readable length; `None` when it said nothing.
pub(super) fn reason(output: &[u8]) -> Option<String> {
    const LINE: usize = 240;
    let text = String::from_utf8_lossy(output);
    let lines: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(2)
        .map(|l| match l.char_indices().nth(LINE) {
            Some((at, _)) => format!("{}…", &l[..at]),
            None => l.to_string(),
        })
        .collect();
    (!lines.is_empty()).then(|| lines.join("; "))
}

/// Finds a program: a path with `/` is taken as is; a bare name is looked
/// up in `PATH`, skipping version-manager shim directories (a pyenv shim
/// is a shell script costing ~200 ms per start).
pub fn resolve(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return p.exists().then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|dir| !dir.ends_with("shims"))
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// How long a toolchain probe may take (a version manager's proxy that
/// hangs must not hang the judge).
const PROBE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);

/// What a probe printed: its exit status, stdout and stderr.
type Probed = (std::process::ExitStatus, Vec<u8>, Vec<u8>);

/// Runs `program args` outside the box for a line of output: its exit
/// status and what it printed on stdout and on stderr (the first 64 KiB
/// of each), killed past [`PROBE_TIMEOUT`].
fn probe(program: &Path, args: &[String]) -> std::io::Result<Probed> {
    use std::io::Read as _;
    use wait_timeout::ChildExt as _;
    let mut child = std::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()?;
    // Read on threads: a probe that fills a pipe still ends by the deadline.
    fn drain(mut pipe: impl std::io::Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut out = Vec::new();
            let _ = (&mut pipe).take(64 << 10).read_to_end(&mut out);
            out
        })
    }
    let stdout = drain(child.stdout.take().expect("piped"));
    let stderr = drain(child.stderr.take().expect("piped"));
    let Some(status) = child.wait_timeout(PROBE_TIMEOUT)? else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!("no answer in {} s", PROBE_TIMEOUT.as_secs()),
        ));
    };
    Ok((
        status,
        stdout.join().unwrap_or_default(),
        stderr.join().unwrap_or_default(),
    ))
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    #[test]
    fn a_failed_probe_is_tried_again_after_a_while_and_a_success_is_kept() {
        let probe = Probe {
            memo: Mutex::new(None),
            retry_after: Duration::ZERO,
        };
        let calls = Cell::new(0);
        let flaky = || {
            calls.set(calls.get() + 1);
            if calls.get() == 1 {
                Err("transient".to_string())
            } else {
                Ok(calls.get())
            }
        };
        assert_eq!(probe.get_or(flaky), Err("transient".to_string()));
        assert_eq!(probe.get_or(flaky), Ok(2));
        assert_eq!(probe.get_or(flaky), Ok(2), "a success is not probed again");
        assert_eq!(calls.get(), 2);
    }

    /// Issue 47: rustup with no default toolchain makes `rustc --print
    /// sysroot` fail; what it says on stderr is the reason shown.
    #[test]
    fn a_failing_toolchain_command_is_named_with_its_own_reason() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("fake-rustc");
        std::fs::write(
            &script,
            "#!/bin/sh\necho 'error: rustup could not choose a version of rustc to run' >&2\n\
             echo >&2\necho 'help: run rustup default stable' >&2\nexit 1\n",
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let text = format!(
            "[languages.fake]\nname = \"Fake\"\nextensions = [\"fk\"]\nsource = \"main.fk\"\n\
             run = [\"{{toolchain}}/bin/fake\"]\ntoolchain = [{:?}, \"--print\", \"sysroot\"]\n",
            script.display().to_string()
        );
        let config = crate::config::Config::parse(&text, dir.path()).unwrap();
        let languages = crate::lang::Languages::new(&config.languages);
        let fake = languages.get("fake").unwrap();
        let err = fake.toolchain().unwrap_err();
        assert!(err.contains("--print sysroot failed"), "{err}");
        assert!(
            err.contains("error: rustup could not choose a version of rustc to run; help: run rustup default stable"),
            "{err}"
        );
    }

    /// A runner that counts the runs it makes (plainly: no box).
    #[derive(Default)]
    struct Counted(std::sync::atomic::AtomicU32);

    impl Runner for Counted {
        fn run(
            &self,
            spec: &crate::sandbox::RunSpec,
        ) -> Result<crate::sandbox::Outcome, crate::sandbox::Error> {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            crate::sandbox::RlimitSandbox.run(spec)
        }

        fn describe(&self) -> String {
            "counted".into()
        }
    }

    /// Issue 46: a one-shot `grundy submit` started a box to probe the
    /// compiler's version every time. The line is remembered between
    /// processes for the very same toolchain file, and probed again once
    /// the file is another (an upgrade puts a new file in its place).
    #[test]
    fn a_version_line_is_remembered_between_processes_until_the_toolchain_changes() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let tool = dir.path().join("fake");
        let install = |line: &str| {
            let staged = dir.path().join("fake.new");
            std::fs::write(&staged, format!("#!/bin/sh\necho '{line}'\n")).unwrap();
            std::fs::set_permissions(&staged, std::fs::Permissions::from_mode(0o755)).unwrap();
            std::fs::rename(&staged, &tool).unwrap();
        };
        install("fake 1.0");
        let text = format!(
            "[languages.fake]\nname = \"Fake\"\nextensions = [\"fk\"]\nsource = \"main.fk\"\n\
             run = [{tool:?}, \"main.fk\"]\nversion = [{tool:?}, \"--version\"]\n",
            tool = tool.display().to_string()
        );
        let config = crate::config::Config::parse(&text, dir.path()).unwrap();
        let memo = dir.path().join("toolchains");
        // Each a process of its own: nothing is memoized in memory between.
        let version = |runner: &Counted| {
            crate::lang::Languages::remembering(&config.languages, memo.clone())
                .get("fake")
                .unwrap()
                .version(runner)
        };
        let runner = Counted::default();
        let runs = || runner.0.load(std::sync::atomic::Ordering::SeqCst);
        assert_eq!(version(&runner).as_deref(), Ok("fake 1.0"));
        assert_eq!(runs(), 1);
        assert_eq!(version(&runner).as_deref(), Ok("fake 1.0"));
        assert_eq!(runs(), 1, "remembered, not probed again");
        install("fake 2.0.1");
        assert_eq!(version(&runner).as_deref(), Ok("fake 2.0.1"));
        assert_eq!(runs(), 2, "another file: probed again");
        let forgetful = crate::lang::Languages::new(&config.languages);
        let fake = forgetful.get("fake").unwrap();
        assert_eq!(fake.version(&runner).as_deref(), Ok("fake 2.0.1"));
        assert_eq!(runs(), 3, "without a directory nothing is remembered");
    }

    #[test]
    fn a_reason_is_the_first_two_lines_said() {
        assert_eq!(reason(b""), None);
        assert_eq!(reason(b"\n  \n"), None);
        assert_eq!(
            reason(b"\nfirst\n\nsecond\nthird\n").as_deref(),
            Some("first; second")
        );
        let long = "x".repeat(1000);
        assert_eq!(reason(long.as_bytes()).unwrap().chars().count(), 241);
    }

    #[test]
    fn a_failed_probe_is_believed_for_a_while() {
        let probe: Probe<u32> = Probe::default();
        assert!(probe.get_or(|| Err("down".into())).is_err());
        assert_eq!(probe.get_or(|| Ok(1)), Err("down".to_string()));
    }
}
