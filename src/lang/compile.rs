//! Compiling a source: its cache key, the name its main file is saved as,
//! the compile command with the program's further sources, the compiler's
//! run in the sandbox (retried when the machine failed it) and whether what
//! it left can be run.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::cache;
use super::failure::{Control, Failure, Settled};
use super::COMPILE_TRIES;
use super::{base_env, resolve, Compiled, Error, Language, Program, ProgramCache, Source};
use crate::config::CompileLimits;
use crate::digest::Fields;
use crate::sandbox::{Bind, Limits, RunSpec, Runner, Stdio};

impl Language {
    /// The cache key of a compilation: language, commands, toolchain
    /// version and every byte of the source.
    fn key(&self, version: &str, source: &Source) -> String {
        let mut h = Fields::new();
        h.field(self.id.as_bytes())
            .field(version.as_bytes())
            .field(self.config.source.as_bytes());
        for arg in self.config.compile.iter().chain(&self.config.run) {
            h.field(arg.as_bytes());
        }
        // The toolchain directory names the toolchain's version too.
        h.field(self.toolchain().unwrap_or_default().as_bytes())
            .field(self.main_name(source).as_bytes())
            .field(&source.text);
        for (path, text) in &source.siblings {
            h.field(path.to_string_lossy().as_bytes()).field(text);
        }
        // The same files make another program when more of them are
        // compiled.
        for unit in &source.units {
            h.field(b"unit").field(unit.as_bytes());
        }
        h.finish()
    }

    /// The name the main file is saved as: the language's `source`, or the
    /// source's own name where the language's commands use `{main}` or
    /// `{class}`, the name has the language's extension, is a plain
    /// identifier and the source declares a class of that name (Kattis runs
    /// `Hello.java`'s class `Hello`; a `sol.java` declaring `Main` stays
    /// `Main.java`); else, for such a language, the `source` with the
    /// file's own extension where it is one of the language's.
    pub fn main_name(&self, source: &Source) -> String {
        let uses = self
            .config
            .compile
            .iter()
            .chain(&self.config.run)
            .any(|a| a.contains("{main}") || a.contains("{class}"));
        let own = source.file_name.as_deref().filter(|name| {
            let Some((stem, ext)) = name.rsplit_once('.') else {
                return false;
            };
            let mut chars = stem.chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
                && self.config.extensions.iter().any(|e| e == ext)
                && declares_class(&source.text, stem)
        });
        match own {
            Some(name) if uses => name.to_string(),
            _ if uses => self.with_given_extension(source.file_name.as_deref()),
            _ => self.config.source.clone(),
        }
    }

    /// The language's `source` with the extension the submitted file has,
    /// where that is another of the language's (`main.mjs` for a `sol.mjs`:
    /// Node.js reads a `.mjs` file as a module, whatever it holds).
    fn with_given_extension(&self, file_name: Option<&str>) -> String {
        let given = file_name
            .and_then(|n| Path::new(n).extension())
            .and_then(|e| e.to_str())
            .filter(|e| self.config.extensions.iter().any(|x| x == e));
        match given {
            Some(ext) => Path::new(&self.config.source)
                .with_extension(ext)
                .display()
                .to_string(),
            None => self.config.source.clone(),
        }
    }

    /// Compiles `source` (or finds it in the cache).
    ///
    /// # Errors
    /// Only the judge's own failures: a missing toolchain, an unusable cache,
    /// a sandbox failure. A source that does not compile is
    /// `Ok(Compiled::Failed)`.
    pub fn compile(
        &self,
        runner: &dyn Runner,
        cache: &ProgramCache,
        source: &Source,
        limits: &CompileLimits,
    ) -> Result<Compiled, Error> {
        let mut tries = 0;
        loop {
            tries += 1;
            match self.compile_once(runner, cache, source, limits) {
                Err(e) if e.is_transient() && tries < COMPILE_TRIES => {
                    tracing::warn!(
                        language = %self.id,
                        error = %crate::errors::chain(&e),
                        "compilation failed by the machine; trying again"
                    );
                    std::thread::sleep(Duration::from_millis(100 << tries));
                }
                other => return other,
            }
        }
    }

    /// One try of [`Language::compile`].
    fn compile_once(
        &self,
        runner: &dyn Runner,
        cache: &ProgramCache,
        source: &Source,
        limits: &CompileLimits,
    ) -> Result<Compiled, Error> {
        let version = self.version(runner).map_err(|program| Error::Missing {
            language: self.id.clone(),
            program,
        })?;
        let key = self.key(&version, source);
        let main_name = self.main_name(source);
        if let Some(hit) = cache.lookup(&key)? {
            return Ok(match hit {
                Ok(dir) => Compiled::Ok(self.program(dir, true, &main_name)?),
                Err(message) => Compiled::Failed(message),
            });
        }
        let prepared = if self.config.compile.iter().any(|a| a.contains("{prepared}")) {
            self.prepared(runner, cache, &version, limits)
        } else {
            None
        };
        let work = cache.workspace()?;
        let src_dir = work.path().join("box");
        let log = work.path().join("compile.log");
        let spec =
            match self.compiler_spec(work.path(), source, limits, prepared.as_deref(), &log)? {
                Ok(spec) => spec,
                Err(why) => return Ok(Compiled::Failed(why)),
            };
        if let Some(spec) = spec {
            let outcome = runner.run(&spec)?;
            if !outcome.success() {
                let failed = Failure {
                    outcome: &outcome,
                    log: &log,
                    work: work.path(),
                };
                return match failed.verdict(limits, cache, &key)? {
                    Settled::Compiled(compiled) => Ok(compiled),
                    Settled::Unsure(unsure) => {
                        // What the compile left goes first: the trivial
                        // compile is to see the machine as it is without it.
                        drop(spec);
                        drop(work);
                        let control = self.control(runner, cache, limits, prepared.as_deref())?;
                        unsure.settle(&self.id, control)
                    }
                };
            }
            if let Some(why) = self.not_runnable(&src_dir, &main_name) {
                return Ok(Compiled::Failed(why));
            }
        }
        let size = match cache::survey(&src_dir) {
            Ok(size) => size,
            Err(why) => return Ok(Compiled::Failed(why)),
        };
        if size > limits.program_limit << 20 {
            return Ok(Compiled::Failed(format!(
                "the compiled program takes {} MiB, above the limit of {} MiB",
                size.div_ceil(1 << 20),
                limits.program_limit
            )));
        }
        let dir = cache.store(&key, &src_dir, limits.cache_limit << 20)?;
        Ok(Compiled::Ok(self.program(dir, false, &main_name)?))
    }

    /// Saves `source` in `work` (its main file in `work/box`, the
    /// compiler's directory) and makes the compiler's run there, its
    /// messages going to `log`: `Ok(Err(why))` for a source that cannot be
    /// compiled as given, `Ok(Ok(None))` for a language with nothing to
    /// compile.
    fn compiler_spec(
        &self,
        work: &Path,
        source: &Source,
        limits: &CompileLimits,
        prepared: Option<&Path>,
        log: &Path,
    ) -> Result<Result<Option<RunSpec>, String>, Error> {
        let main_name = self.main_name(source);
        let src_dir = work.join("box");
        std::fs::create_dir_all(&src_dir).map_err(ProgramCache::err(&src_dir))?;
        let main = src_dir.join(&main_name);
        std::fs::write(&main, &source.text).map_err(ProgramCache::err(&main))?;
        for (rel, text) in &source.siblings {
            let path = work.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(ProgramCache::err(parent))?;
            }
            std::fs::write(&path, text).map_err(ProgramCache::err(&path))?;
        }
        // The compiler may write in the folders the siblings made in its
        // directory, as in the directory itself (javac writes each class
        // beside its source, in its package's folder): the box's user owns
        // only the directory, and the workspace above it is the judge's
        // alone.
        for (rel, _) in &source.siblings {
            let mut dir = work.join(rel);
            while dir.pop() && dir.starts_with(&src_dir) && dir != src_dir {
                std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777))
                    .map_err(ProgramCache::err(&dir))?;
            }
        }

        let missing = |program: String| Error::Missing {
            language: self.id.clone(),
            program,
        };
        let mut compile = self.filled(&self.config.compile).map_err(missing)?;
        for arg in &mut compile {
            *arg = fill_main(arg, &main_name);
        }
        if let Err(why) = add_units(&mut compile, &main_name, &source.units) {
            return Ok(Err(why));
        }
        match prepared {
            Some(dir) => {
                let dir = dir.display().to_string();
                for arg in &mut compile {
                    *arg = arg.replace("{prepared}", &dir);
                }
            }
            None => compile.retain(|a| !a.contains("{prepared}")),
        }
        let Some(program) = compile.first() else {
            return Ok(Ok(None));
        };
        let program = resolve(program).ok_or_else(|| missing(program.clone()))?;
        // The compiler sees the language's paths, its own directory
        // (writable) and the source's shared files beside it.
        let mut binds = self.binds().map_err(missing)?;
        // Its working space, of a bounded size, off the host's disk.
        binds.push(Bind::space(&src_dir, limits.space_limit << 20));
        let mut tops: Vec<PathBuf> = Vec::new();
        for (rel, _) in &source.siblings {
            if let Some(std::path::Component::Normal(top)) = rel.components().next() {
                let top = work.join(top);
                // Files beside the source are in the (writable) compile
                // directory already.
                if top != src_dir && !tops.contains(&top) {
                    tops.push(top);
                }
            }
        }
        binds.extend(tops.into_iter().map(Bind::read_only));
        // Seen at a neutral path: it lives in the judge's data directory.
        binds.extend(prepared.map(|d| Bind::read_only(d).at("/box/prepared")));
        let spec = compiler_run(&program, &src_dir, &compile[1..], limits, log).binds(binds);
        Ok(Ok(Some(spec)))
    }

    /// A trivial compile in this language (an empty source) under the
    /// same limits, to tell a machine that fails every compile from a
    /// source that failed its own: how it went.
    ///
    /// # Errors
    /// The sandbox's failure, or the cache's.
    fn control(
        &self,
        runner: &dyn Runner,
        cache: &ProgramCache,
        limits: &CompileLimits,
        prepared: Option<&Path>,
    ) -> Result<Control, Error> {
        let work = cache.workspace()?;
        let log = work.path().join("compile.log");
        let trivial = Source::new(Vec::new());
        let outcome = match self.compiler_spec(work.path(), &trivial, limits, prepared, &log)? {
            Ok(Some(spec)) => runner.run(&spec)?,
            // Nothing to compile, or nothing to compile it with: no
            // compiler to blame the machine for.
            Ok(None) | Err(_) => return Ok(Control::fine()),
        };
        Ok(Control::of(&outcome))
    }

    /// Why a compilation that succeeded left nothing to run, if it did:
    /// where the run command starts the compiled file itself (`{dir}/main`),
    /// that file must be an executable (a Rust source declaring itself a
    /// library makes rustc write an archive there).
    fn not_runnable(&self, src_dir: &Path, main_name: &str) -> Option<String> {
        let first = fill_main(self.config.run.first()?, main_name);
        let name = first.strip_prefix("{dir}/")?;
        let path = src_dir.join(name);
        (!is_runnable(&path)).then(|| {
            let meta = std::fs::symlink_metadata(&path);
            format!(
                "the compiler succeeded but left no runnable program: {name} {}",
                match meta {
                    Ok(m) if m.is_symlink() => "is a symbolic link, not the program itself",
                    Ok(_) => "is not an executable",
                    Err(_) => "is missing",
                }
            )
        })
    }

    fn program(&self, dir: PathBuf, cached: bool, main_name: &str) -> Result<Program, Error> {
        let missing = |program: String| Error::Missing {
            language: self.id.clone(),
            program,
        };
        let run = self.filled(&self.config.run).map_err(missing)?;
        Ok(Program {
            dir,
            run: run.iter().map(|a| fill_main(a, main_name)).collect(),
            paths: self.paths().map_err(missing)?,
            memory_exit_code: self.config.memory_exit_code,
            time_factor: self.config.time_factor,
            processes: self.config.processes,
            cached,
        })
    }
}

/// Whether `text` has `class NAME` followed by a non-identifier byte.
pub fn declares_class(text: &[u8], name: &str) -> bool {
    let needle = format!("class {name}");
    let needle = needle.as_bytes();
    text.windows(needle.len() + 1).any(|w| {
        w.starts_with(needle) && {
            let next = w[needle.len()];
            !(next.is_ascii_alphanumeric() || next == b'_' || next == b'$')
        }
    })
}

/// Adds a program's further sources to a compile command, after the
/// argument naming the main file (`gcc ... main.c` becomes `gcc ... main.c
/// a.c b.c`).
///
/// # Errors
/// A command that does not name the main file as an argument of its own,
/// or a further source saved under the main file's name.
fn add_units(compile: &mut Vec<String>, main_name: &str, units: &[String]) -> Result<(), String> {
    if units.is_empty() {
        return Ok(());
    }
    if let Some(clash) = units.iter().find(|u| *u == main_name) {
        return Err(format!(
            "{clash}: the main source is compiled under this name; rename the other file"
        ));
    }
    let Some(at) = compile.iter().position(|a| a == main_name) else {
        return Err(format!(
            "the language's compile command does not name {main_name} on its own, so the program's other sources ({}) cannot be added to it",
            units.join(", ")
        ));
    };
    let names = units.iter().map(|u| {
        // A file named like an option is still a file.
        if u.starts_with('-') {
            format!("./{u}")
        } else {
            u.clone()
        }
    });
    compile.splice(at + 1..at + 1, names);
    Ok(())
}

/// `{main}` is the main file's name, `{class}` its name without the
/// extension.
fn fill_main(arg: &str, main_name: &str) -> String {
    let class = main_name
        .rsplit_once('.')
        .map_or(main_name, |(stem, _)| stem);
    arg.replace("{main}", main_name).replace("{class}", class)
}

/// A compiler's run (or a package's build script's) of `program` with
/// `args` in `dir`, under the compile limits, everything it says going to
/// `log`.
pub(super) fn compiler_run(
    program: &Path,
    dir: &Path,
    args: &[String],
    limits: &CompileLimits,
    log: &Path,
) -> RunSpec {
    RunSpec::new(program, dir, compiler_limits(limits))
        .args(args)
        .envs(base_env())
        .stdout(Stdio::file(log))
        .stderr(Stdio::file(log))
}

/// The limits of a compiler's run (or a package's build script's).
fn compiler_limits(limits: &CompileLimits) -> Limits {
    Limits::new(
        Duration::from_secs_f64(limits.cpu_limit),
        limits.memory_limit << 20,
    )
    .wall(Duration::from_secs_f64(limits.time_limit))
    // Every file the compiler writes, the program included.
    .output(limits.program_limit << 20)
    .open_files(512)
    .processes(128)
}

/// Whether the file at `path` can be executed as a program: an ELF
/// executable (or position-independent executable) or a script, itself a
/// regular file (a symbolic link, to an absolute path or not, would be
/// followed in the box, where the host's check says nothing).
fn is_runnable(path: &Path) -> bool {
    use std::io::Read;
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return false;
    };
    if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 {
        return false;
    }
    let mut head = [0u8; 18];
    let Ok(mut f) = std::fs::File::open(path) else {
        return false;
    };
    let n = f.read(&mut head).unwrap_or(0);
    if head[..n].starts_with(b"#!") {
        return true;
    }
    // e_type (little or big endian): ET_EXEC (2) or ET_DYN (3).
    n == head.len()
        && head.starts_with(b"\x7fELF")
        && matches!(if head[5] == 2 { head[17] } else { head[16] }, 2 | 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn further_sources_follow_the_main_file_in_the_compile_command() {
        let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let mut compile = strings(&["gcc", "-o", "main", "main.c", "-lm"]);
        add_units(&mut compile, "main.c", &strings(&["a.c", "-b.c"])).unwrap();
        assert_eq!(
            compile,
            strings(&["gcc", "-o", "main", "main.c", "a.c", "./-b.c", "-lm"])
        );
        let mut script = strings(&["/bin/sh", "-c", "cc main.c"]);
        let err = add_units(&mut script, "main.c", &strings(&["a.c"])).unwrap_err();
        assert!(err.contains("does not name main.c on its own"), "{err}");
        let err = add_units(&mut compile, "main.c", &strings(&["main.c"])).unwrap_err();
        assert!(err.starts_with("main.c: "), "{err}");
    }

    #[test]
    fn only_an_executable_is_a_runnable_program() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, bytes: &[u8], mode: u32| {
            let p = dir.path().join(name);
            std::fs::write(&p, bytes).unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
            p
        };
        // What rustc writes for `#![crate_type = "lib"]`: an archive.
        assert!(!is_runnable(&write("lib", b"!<arch>\nlib.rmeta/", 0o755)));
        let mut elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0".to_vec();
        assert!(is_runnable(&write("pie", &elf, 0o755)));
        assert!(!is_runnable(&write("noexec", &elf, 0o644)));
        elf[16] = 1; // ET_REL: an object file
        assert!(!is_runnable(&write("object", &elf, 0o755)));
        assert!(is_runnable(&write("script", b"#!/bin/sh\n", 0o755)));
        assert!(!is_runnable(&dir.path().join("missing")));
        // A link to a runnable file, absolute or relative, is not one.
        let pie = dir.path().join("pie");
        std::os::unix::fs::symlink(&pie, dir.path().join("absolute")).unwrap();
        assert!(!is_runnable(&dir.path().join("absolute")));
        std::os::unix::fs::symlink("pie", dir.path().join("relative")).unwrap();
        assert!(!is_runnable(&dir.path().join("relative")));
    }

    #[test]
    fn a_class_is_declared_only_under_its_whole_name() {
        assert!(declares_class(b"public class Root {", "Root"));
        assert!(declares_class(b"class Root{}", "Root"));
        assert!(!declares_class(b"public class Rooted {", "Root"));
        assert!(!declares_class(b"public class Main {", "Root"));
    }
}
