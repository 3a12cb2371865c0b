//! A program that builds itself: a directory with a `build` and a `run`
//! script (a Kattis validator's other form). `build` runs in the
//! directory, in a box under the compile limits that sees every configured
//! language's toolchain; the directory it leaves is cached like any
//! compiled program, and `run` is then the program's command.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::failure::{Control, Failure, Settled};
use super::{compiler_run, Compiled, Error, Languages, Program};
use super::{Bind, ProgramCache, Runner};
use crate::config::CompileLimits;
use crate::digest::Fields;

/// The files of a program directory: (path relative to it, bytes,
/// executable), sorted. Hidden files are left out.
pub fn read_dir_files(dir: &Path) -> std::io::Result<Vec<(PathBuf, Vec<u8>, bool)>> {
    fn walk(
        base: &Path,
        dir: &Path,
        out: &mut Vec<(PathBuf, Vec<u8>, bool)>,
    ) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let path = entry.path();
            if path.is_dir() {
                walk(base, &path, out)?;
            } else if path.is_file() {
                let exec = std::fs::metadata(&path)?.permissions().mode() & 0o111 != 0;
                let rel = path.strip_prefix(base).unwrap_or(&path).to_path_buf();
                out.push((rel, std::fs::read(&path)?, exec));
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    out.sort();
    Ok(out)
}

/// Builds the program of `files` (a directory's, with `build` and `run`
/// at its top) or finds it in the cache.
///
/// # Errors
/// Only the judge's own failures; a `build` that fails is
/// `Ok(Compiled::Failed)` with its output.
pub fn build(
    languages: &Languages,
    runner: &dyn Runner,
    cache: &ProgramCache,
    files: &[(PathBuf, Vec<u8>, bool)],
    limits: &CompileLimits,
) -> Result<Compiled, Error> {
    let mut paths: Vec<PathBuf> = Vec::new();
    for language in languages.iter() {
        // A language whose paths cannot be filled, or are not on this
        // machine (a missing toolchain), is not visible; a build needing it
        // fails with its own message.
        for p in language.paths().unwrap_or_default() {
            if p.exists() && !paths.contains(&p) {
                paths.push(p);
            }
        }
    }
    let mut h = Fields::new();
    h.field(b"kattis build/run");
    for p in &paths {
        h.field(p.to_string_lossy().as_bytes());
    }
    for (rel, text, exec) in files {
        h.field(rel.to_string_lossy().as_bytes())
            .field(text)
            .field(&[u8::from(*exec)]);
    }
    let key = h.finish();
    let program = |dir: PathBuf, cached: bool| Program {
        dir,
        run: vec!["/bin/sh".into(), "{dir}/run".into()],
        paths: paths.clone(),
        memory_exit_code: None,
        time_factor: 1.0,
        // A package's own scripts: the box's usual bound.
        processes: 64,
        cached,
    };
    if let Some(hit) = cache.lookup(&key)? {
        return Ok(match hit {
            Ok(dir) => Compiled::Ok(program(dir, true)),
            Err(message) => Compiled::Failed(message),
        });
    }
    let work = cache.workspace()?;
    let src_dir = work.path().join("box");
    for (rel, text, exec) in files {
        let path = src_dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(ProgramCache::err(parent))?;
        }
        std::fs::write(&path, text).map_err(ProgramCache::err(&path))?;
        let mode = if *exec { 0o755 } else { 0o644 };
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode))
            .map_err(ProgramCache::err(&path))?;
    }
    let log = work.path().join("build.log");
    let mut binds: Vec<Bind> = paths.iter().map(Bind::read_only).collect();
    binds.push(Bind::writable(&src_dir));
    let build_run = |dir: &Path, log: &Path, binds: Vec<Bind>| {
        compiler_run(
            Path::new("/bin/sh"),
            dir,
            &["build".to_string()],
            limits,
            log,
        )
        .binds(binds)
    };
    let spec = build_run(&src_dir, &log, binds.clone());
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
                drop(spec);
                drop(work);
                // An empty build script in a box like this one.
                let trivial = cache.workspace()?;
                let dir = trivial.path().join("box");
                std::fs::create_dir(&dir).map_err(ProgramCache::err(&dir))?;
                let script = dir.join("build");
                std::fs::write(&script, b"").map_err(ProgramCache::err(&script))?;
                binds.pop();
                binds.push(Bind::writable(&dir));
                let log = trivial.path().join("build.log");
                let control = runner.run(&build_run(&dir, &log, binds))?;
                unsure.settle("build script", Control::of(&control))
            }
        };
    }
    if let Err(why) = super::cache::survey(&src_dir) {
        return Ok(Compiled::Failed(why));
    }
    let dir = cache.store(&key, &src_dir, limits.cache_limit << 20)?;
    Ok(Compiled::Ok(program(dir, false)))
}
