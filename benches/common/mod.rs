//! What the benches share: a configuration like the shipped one.

use std::path::{Path, PathBuf};

/// Writes `dir/config.toml`: the shipped `config.toml` with the
/// repository's problems, its data directory at `data`, the database at
/// `database_url` where one is given, and every other line put through
/// `edit` (`str::to_owned` keeps it).
pub fn config(
    dir: &Path,
    data: &Path,
    database_url: Option<&str>,
    edit: fn(&str) -> String,
) -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shipped = std::fs::read_to_string(repo.join("config.toml")).expect("config.toml");
    let mut text = format!(
        "data_dir = {:?}\nproblems_dir = {:?}\n",
        data.display().to_string(),
        repo.join("problems").display().to_string()
    );
    if let Some(url) = database_url {
        text += &format!("database_url = {url:?}\n");
    }
    for line in shipped.lines() {
        let set_here = ["data_dir", "problems_dir"]
            .iter()
            .chain(database_url.map(|_| &"database_url"))
            .any(|key| line.starts_with(key));
        if !set_here {
            text += &edit(line);
            text.push('\n');
        }
    }
    let path = dir.join("config.toml");
    std::fs::write(&path, text).expect("write config");
    path
}
