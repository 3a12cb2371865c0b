//! problemtools' `verifyproblem` on the packages grundy reads and writes
//! (issue 23): `grundy verify` is to pass where `verifyproblem` passes, so
//! the Kattis fixtures grundy verifies, and what `grundy export` writes
//! (from shipped problems, and from fixtures imported and exported again),
//! must pass `verifyproblem` too. Run where it is installed (on `PATH`, or
//! in `/opt/problemtools` as `.ci/run` installs it); skipped with one line
//! elsewhere.
//!
//! Every part but the statement is checked: checking the statement renders
//! it with pandoc and LaTeX, which say nothing of how grundy judges. And
//! problemtools is told to run Python with CPython, to compile Java for
//! the JDK installed and Go with Go's own compiler, as grundy's config.toml
//! does: its own defaults (PyPy, `javac -source 21`, gccgo) are what
//! Kattis's machines have, not the format.
// See: issue 23.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::helpers::{require, require_sources, Workspace};
use crate::kattis::{fixture, with_own_problems};

/// Where `.ci/run` installs problemtools (a virtual environment: Debian's
/// Python takes no packages from pip outside one).
const INSTALLED: &str = "/opt/problemtools/bin/verifyproblem";
const INSTALL: &str =
    "python3 -m venv /opt/problemtools && /opt/problemtools/bin/pip install problemtools";

/// problemtools' languages as grundy's config.toml runs them.
const LANGUAGES: &str = "\
python3:
    compile: 'python3 -m py_compile {files}'
    run: 'python3 \"{mainfile}\"'
java:
    compile: 'javac -encoding UTF-8 -sourcepath {path} -d {path} {files}'
go:
    compile: 'go build -o {binary} {files}'
";

/// `verifyproblem` on `PATH`, else where `.ci/run` puts it; `None` (the
/// test skipped with one line) where neither is there.
fn verifyproblem() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|d| d.join("verifyproblem"))
            .find(|p| crate::helpers::runnable(p))
    });
    let path = on_path.unwrap_or_else(|| PathBuf::from(INSTALLED));
    require(&[path.to_str().unwrap_or(INSTALLED)], INSTALL).then_some(path)
}

/// Runs `verifyproblem` on the package in `dir`, with grundy's languages,
/// and fails naming every error it reports.
fn passes(verifyproblem: &Path, ws: &Workspace, dir: &Path) {
    let xdg = ws.dir.path().join("xdg");
    std::fs::create_dir_all(xdg.join("problemtools")).unwrap();
    std::fs::write(xdg.join("problemtools/languages.yaml"), LANGUAGES).unwrap();
    let out = Command::new(verifyproblem)
        .args([
            "-p",
            "config",
            "data",
            "graders",
            "submissions",
            "validators",
            "--",
        ])
        .arg(dir)
        .env("XDG_CONFIG_HOME", &xdg)
        .output()
        .expect("run verifyproblem");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let shown: Vec<&str> = text.lines().filter(|l| !l.starts_with("INFO")).collect();
    let summary = text
        .lines()
        .rfind(|l| l.contains(" tested: "))
        .unwrap_or_else(|| panic!("{}: no summary:\n{}", dir.display(), shown.join("\n")));
    assert!(
        summary.contains(" tested: 0 errors"),
        "{}: {summary}\n{}",
        dir.display(),
        shown.join("\n")
    );
}

/// Where a package is exported: Kattis takes the directory's name as the
/// problem's short name, `[a-z0-9]+`.
fn out_dir(ws: &Workspace, name: &str) -> PathBuf {
    let short: String = name.chars().filter(char::is_ascii_alphanumeric).collect();
    let dir = ws.dir.path().join("out");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(short)
}

#[test]
fn verifyproblem_passes_the_kattis_fixtures_of_multi_pass_and_interactive_orders() {
    let Some(vp) = verifyproblem() else { return };
    // recall: multi-pass; talk: the interactive orders (a validator that
    // rejects first, a submission that exits first).
    for name in ["recall", "talk"] {
        if !require_sources(&[&fixture(name)]) {
            return;
        }
        let ws = Workspace::new();
        passes(&vp, &ws, &fixture(name));
    }
}

#[test]
fn verifyproblem_passes_grundys_exports() {
    let Some(vp) = verifyproblem() else { return };
    // A shipped problem: submissions in every language, accepted, wrong
    // and too slow, and the Rust input validator rewritten to exit 42/43.
    // (One is enough here: the others export the same way, and each costs
    // minutes of verifyproblem.)
    let ws = Workspace::new();
    let problem = crate::helpers::repo().join("problems/nim");
    if !require_sources(&[&problem.join("submissions")]) {
        return;
    }
    let out = out_dir(&ws, "nim");
    let done = ws.grundy(&[
        "export",
        "nim",
        "--format",
        "kattis",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    // problemtools runs a submission under an address-space limit of the
    // memory limit, where Go's runtime and V8 cannot even start (they
    // reserve far more than they touch; Kattis's own judge does not limit
    // them so). grundy holds them to resident memory; their exports are
    // checked by export's tests, not here.
    for reserving in ["xor.go", "xor.js"] {
        std::fs::remove_file(out.join("submissions/accepted").join(reserving)).unwrap();
    }
    passes(&vp, &ws, &out);
    // Fixtures imported and exported again: an output validator directory
    // with group flags (divisor), the default output limit (roomy), an
    // interactive one (talk). Not pieces: problemtools runs its Java
    // submission whose class is in a package by the class's bare name (a
    // run-time error there), where grundy runs it as the package's class.
    let ws = with_own_problems();
    for name in ["divisor", "roomy", "talk"] {
        if !require_sources(&[&fixture(name)]) {
            return;
        }
        let dir = fixture(name);
        let slug = format!("back-{name}");
        let done = ws.grundy(&["import", dir.to_str().unwrap(), "--as", &slug]);
        assert_eq!(done.code, 0, "{}", done.stderr);
        let out = out_dir(&ws, name);
        let done = ws.grundy(&[
            "export",
            &slug,
            "--format",
            "kattis",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(done.code, 0, "{}", done.stderr);
        passes(&vp, &ws, &out);
    }
}
