//! `grundy init`: sets up a problem set where the configuration in force
//! looks for one. An installed binary run outside a checkout finds no
//! `./config.toml` and so looks under the user's data directory
//! (`~/.local/share/grundy/problems`); `init` copies a problem set there:
//! the one given with `--from`, else the one grundy was built with (the
//! checkout `cargo install --path .` ran in), where it still is.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};

use crate::context::Context;

/// The problem set of the checkout this binary was built from.
fn built_with() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("problems")
}

/// Whether `dir` holds a problem set: a folder with at least one package.
fn holds_problems(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.path().join("problem.toml").is_file())
    })
}

/// Fails with one line saying what to do when the configured problems
/// directory does not exist (the commands that list or open problems
/// call this first).
///
/// # Errors
/// The missing directory and how to set one up.
pub fn need_problem_set(ctx: &Context) -> anyhow::Result<()> {
    let root = &ctx.catalog.root;
    if root.is_dir() {
        return Ok(());
    }
    let source = built_with();
    let how = if holds_problems(&source) {
        format!(
            "run `grundy init` to copy the problem set grundy was built with ({}) there",
            source.display()
        )
    } else {
        "run `grundy init --from DIR` to copy a problem set there".to_string()
    };
    bail!(
        "no problem set at {}: {how}, or run grundy where a config.toml names one (--config PATH)",
        root.display()
    )
}

/// `grundy init [--from DIR]`.
///
/// # Errors
/// A source that is not a problem set, a target that already holds one
/// (nothing is changed), or a copy that fails.
pub fn run(ctx: &Context, from: Option<&Path>) -> anyhow::Result<u8> {
    let target = &ctx.catalog.root;
    let source = from.map_or_else(built_with, Path::to_path_buf);
    if !holds_problems(&source) {
        match from {
            Some(_) => bail!(
                "{}: not a problem set (no folder with a problem.toml)",
                source.display()
            ),
            None => bail!(
                "the problem set grundy was built with ({}) is gone: give one with --from DIR",
                source.display()
            ),
        }
    }
    if target.exists() {
        bail!(
            "{} already exists: nothing changed (remove it first to set it up again)",
            target.display()
        );
    }
    // Copied beside the target, then moved in place: an interrupted copy
    // leaves no half problem set where grundy looks for one.
    let parent = target
        .parent()
        .with_context(|| format!("{}: no parent folder", target.display()))?;
    std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    let staging = tempfile::Builder::new()
        .prefix(".problems-")
        .tempdir_in(parent)
        .with_context(|| format!("creating a folder in {}", parent.display()))?;
    let copy = staging.path().join("problems");
    crate::problem::copy_tree(&source, &copy)
        .map_err(|(path, e)| anyhow::anyhow!("copying {}: {e}", path.display()))?;
    std::fs::rename(&copy, target).with_context(|| format!("creating {}", target.display()))?;
    let count = ctx.catalog.slugs()?.len();
    writeln!(
        std::io::stdout(),
        "set up {} in {} (from {})",
        crate::plural::count(count, "problem", "problems"),
        target.display(),
        source.display()
    )?;
    Ok(0)
}
