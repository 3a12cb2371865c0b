//! A package's `verify.toml`: what the setter tells `grundy verify` beyond
//! `problem.toml` — adversaries expected to pass and declared bounds that
//! need no test, each with its reason, and the answers that say who wins.
//! The file is optional; a package without one has no marks.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

/// Every kind of built-in adversary (`super::adversaries`), as
/// `verify.toml` names them.
pub const KINDS: &[&str] = &[
    "constant",
    "first-sample",
    "echo",
    "random-tokens",
    "count-parity",
    "sum-parity",
    "max-parity",
    "first-parity",
    "last-parity",
    "all-equal",
];

/// What `verify.toml` says.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Notes {
    /// Adversary kind -> why it is expected to pass.
    #[serde(default)]
    pub adversaries: BTreeMap<String, String>,
    /// Declared bound -> why no test needs to reach its maximum.
    #[serde(default)]
    pub bounds: BTreeMap<String, String>,
    #[serde(default)]
    pub game: Option<Game>,
}

/// The answers of a game problem: the line saying the player to move
/// wins, and the one saying they lose.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Game {
    pub wins: String,
    pub loses: String,
    /// `solution.rs --grundy` prints each case's Sprague–Grundy value.
    #[serde(default)]
    pub grundy: bool,
}

impl Notes {
    /// Reads `dir/verify.toml`; none is no marks.
    ///
    /// # Errors
    /// One line naming what is wrong in the file.
    pub fn read(dir: &Path) -> Result<Notes, String> {
        let path = dir.join("verify.toml");
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Notes::default()),
            Err(e) => return Err(format!("verify.toml: {e}")),
        };
        let notes: Notes =
            toml::from_str(&text).map_err(|e| format!("verify.toml: {}", e.message().trim()))?;
        for (kind, why) in &notes.adversaries {
            if !KINDS.contains(&kind.as_str()) {
                return Err(format!(
                    "verify.toml: [adversaries] has no kind {kind:?} (kinds: {})",
                    KINDS.join(", ")
                ));
            }
            if why.trim().is_empty() {
                return Err(format!(
                    "verify.toml: [adversaries] {kind:?} needs a reason"
                ));
            }
        }
        if let Some((name, _)) = notes.bounds.iter().find(|(_, why)| why.trim().is_empty()) {
            return Err(format!("verify.toml: [bounds] {name:?} needs a reason"));
        }
        Ok(notes)
    }
}
