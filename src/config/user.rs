//! The user's own places: the XDG configuration and data directories and
//! the tokens `grundy login` stored there or `$GRUNDY_TOKEN` names. Like
//! [`Config::discover`](super::Config::discover), these read the
//! environment; nothing deeper in the library does.

use std::collections::BTreeMap;
use std::path::PathBuf;

/// The user's grundy configuration directory: `$XDG_CONFIG_HOME/grundy`,
/// else `~/.config/grundy` (also where `grundy login` keeps tokens).
pub fn user_config_dir() -> Option<PathBuf> {
    xdg_dir("XDG_CONFIG_HOME", ".config")
}

/// The user's grundy data directory: `$XDG_DATA_HOME/grundy`, else
/// `~/.local/share/grundy`.
pub fn user_data_dir() -> Option<PathBuf> {
    xdg_dir("XDG_DATA_HOME", ".local/share")
}

fn xdg_dir(var: &str, under_home: &str) -> Option<PathBuf> {
    let absolute = |p: PathBuf| p.is_absolute().then_some(p);
    std::env::var_os(var)
        .map(PathBuf::from)
        .and_then(absolute)
        .or_else(|| {
            std::env::var_os("HOME")
                .map(PathBuf::from)
                .and_then(absolute)
                .map(|h| h.join(under_home))
        })
        .map(|d| d.join("grundy"))
}

/// The token `grundy login` stored for a server, if any.
pub fn stored_token(server: &str) -> Option<String> {
    let path = user_config_dir()?.join("credentials.toml");
    let text = std::fs::read_to_string(path).ok()?;
    let table: BTreeMap<String, String> = toml::from_str(&text).ok()?;
    table.get(server.trim_end_matches('/')).cloned()
}

/// The token from the environment (`GRUNDY_TOKEN`), if set.
pub fn env_token() -> Option<String> {
    std::env::var("GRUNDY_TOKEN").ok().filter(|t| !t.is_empty())
}
