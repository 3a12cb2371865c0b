//! grundy installed (`cargo install --path .`) and run outside the
//! checkout: from an empty directory, with a home of its own, it finds no
//! `config.toml` and looks for its problem set under the user's data
//! directory. With none there it says what to do; `grundy init` sets one
//! up; nothing already there is overwritten.

use std::path::Path;
use std::process::Command;

use crate::helpers::{repo, Output};

/// The built binary (what `cargo install` copies) run in `cwd` with `home`
/// as its home and no configuration from the environment.
fn installed(cwd: &Path, home: &Path, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .current_dir(cwd)
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .env_remove("GRUNDY_CONFIG")
        .output()
        .expect("run grundy");
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn an_installed_grundy_says_what_to_do_then_init_sets_up_its_problems() {
    let (cwd, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (cwd, home) = (cwd.path(), home.path());
    let problems = home.join(".local/share/grundy/problems");

    // No problem set: one line naming where it looked and what to run.
    let missing = installed(cwd, home, &["problems"]);
    missing.assert_usage_error("grundy init");
    assert!(
        missing.stderr.contains(&problems.display().to_string()),
        "{}",
        missing.stderr
    );
    assert!(
        !missing.stderr.contains("No such file"),
        "{}",
        missing.stderr
    );
    installed(cwd, home, &["show", "nim"]).assert_usage_error("grundy init");

    // `init` copies the problem set grundy was built with.
    let init = installed(cwd, home, &["init"]);
    assert_eq!(init.code, 0, "{}", init.stderr);
    assert!(init.stdout.contains("set up"), "{}", init.stdout);
    assert!(problems.join("nim/problem.toml").is_file());
    assert!(problems.join("_common").is_dir(), "the shared code too");
    let listed = installed(cwd, home, &["problems", "--json"]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let slugs: Vec<String> = listed
        .json()
        .as_array()
        .expect("a list")
        .iter()
        .map(|p| p["slug"].as_str().unwrap().to_string())
        .collect();
    let shipped = std::fs::read_dir(repo().join("problems"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("problem.toml").is_file())
        .count();
    assert_eq!(slugs.len(), shipped, "{slugs:?}");
    assert!(slugs.iter().any(|s| s == "nim"));
    let shown = installed(cwd, home, &["show", "nim"]);
    assert_eq!(shown.code, 0, "{}", shown.stderr);

    // A second `init` changes nothing: a problem edited by hand stays.
    std::fs::write(problems.join("nim/statement.md"), "mine\n").unwrap();
    installed(cwd, home, &["init"]).assert_usage_error("already exists");
    assert_eq!(
        std::fs::read_to_string(problems.join("nim/statement.md")).unwrap(),
        "mine\n"
    );
}

#[test]
fn init_copies_a_problem_set_given_and_refuses_what_is_not_one() {
    let (cwd, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (cwd, home) = (cwd.path(), home.path());
    let mine = cwd.join("mine");
    crate::helpers::copy_dir(&repo().join("problems/nim"), &mine.join("nim"));
    crate::helpers::copy_dir(&repo().join("problems/_common"), &mine.join("_common"));

    let empty = cwd.join("empty");
    std::fs::create_dir(&empty).unwrap();
    installed(cwd, home, &["init", "--from", "empty"]).assert_usage_error("not a problem set");
    installed(cwd, home, &["init", "--from", "nowhere"]).assert_usage_error("not a problem set");
    assert!(
        !home.join(".local/share/grundy/problems").exists(),
        "nothing set up from a bad source"
    );

    let init = installed(cwd, home, &["init", "--from", "mine"]);
    assert_eq!(init.code, 0, "{}", init.stderr);
    let listed = installed(cwd, home, &["problems", "--json"]).json();
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
    assert_eq!(listed[0]["slug"], "nim");
}

/// Issue 47: `~/.config/grundy/config.toml` holding only `database_url`
/// moves nothing: the problem set is still looked for, and set up, under
/// `~/.local/share/grundy`, not beside the configuration file.
#[test]
fn a_user_config_with_only_database_url_keeps_the_default_places() {
    let (cwd, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (cwd, home) = (cwd.path(), home.path());
    let config_dir = home.join(".config/grundy");
    std::fs::create_dir_all(&config_dir).unwrap();
    let db = home.join("judge.db");
    std::fs::write(
        config_dir.join("config.toml"),
        format!("database_url = \"sqlite://{}\"\n", db.display()),
    )
    .unwrap();
    let problems = home.join(".local/share/grundy/problems");

    let missing = installed(cwd, home, &["problems"]);
    missing.assert_usage_error("grundy init");
    assert!(
        missing.stderr.contains(&problems.display().to_string()),
        "{}",
        missing.stderr
    );
    assert!(!missing.stderr.contains(".config"), "{}", missing.stderr);

    let init = installed(cwd, home, &["init"]);
    assert_eq!(init.code, 0, "{}", init.stderr);
    assert!(problems.join("nim/problem.toml").is_file());
    assert!(!config_dir.join("problems").exists());
    let listed = installed(cwd, home, &["problems", "--json"]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    assert!(listed.stdout.contains("\"nim\""), "{}", listed.stdout);
}
