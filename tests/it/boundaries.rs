//! DESIGN.md's boundary table as a test: a lower layer that imports an
//! upper one fails here, naming the file and the import.

use std::path::{Path, PathBuf};

/// Each layer and the crate modules it must not use. `context` and `cli`
/// sit on top of everything; `config`, `verdict`, `digest` and `errors` are shared
/// vocabulary any layer may use (the sandbox only its own part of config).
const FORBIDDEN: &[(&str, &[&str])] = &[
    (
        "sandbox",
        &[
            "verdict", "digest", "lang", "checker", "problem", "data", "judge", "store", "verify",
            "export", "import", "cli", "context",
        ],
    ),
    (
        "lang",
        &[
            "verdict", "checker", "problem", "data", "judge", "store", "verify", "export",
            "import", "cli", "context",
        ],
    ),
    (
        "checker",
        &[
            "lang", "problem", "data", "judge", "store", "verify", "export", "import", "cli",
            "context",
        ],
    ),
    (
        "problem",
        &[
            "sandbox", "lang", "data", "judge", "store", "verify", "export", "import", "cli",
            "context",
        ],
    ),
    (
        "data",
        &[
            "judge", "store", "verify", "export", "import", "cli", "context",
        ],
    ),
    (
        "judge",
        &["store", "verify", "export", "import", "cli", "context"],
    ),
    (
        "store",
        &[
            "sandbox", "lang", "checker", "data", "verify", "export", "cli", "context",
        ],
    ),
    ("verify", &["store", "export", "import", "cli", "context"]),
    (
        "export",
        &["store", "judge", "verify", "import", "cli", "context"],
    ),
    (
        "import",
        &[
            "sandbox", "lang", "data", "store", "judge", "verify", "export", "cli", "context",
        ],
    ),
    (
        "auth",
        &[
            "sandbox", "lang", "checker", "problem", "data", "judge", "store", "verify", "export",
            "import", "site", "server", "web", "hosted", "cli", "context",
        ],
    ),
    (
        "site",
        &[
            "sandbox", "verify", "export", "import", "server", "web", "hosted", "cli",
        ],
    ),
    ("server", &["web", "hosted", "cli", "sandbox"]),
    ("web", &["server", "hosted", "cli", "sandbox"]),
];

#[test]
fn no_lower_layer_imports_an_upper_one() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for (layer, forbidden) in FORBIDDEN {
        for file in rust_files(&src.join(layer)) {
            let text = std::fs::read_to_string(&file).unwrap();
            for module in crate_modules_used(&text) {
                if forbidden.contains(&module.as_str()) {
                    let rel = file.strip_prefix(&src).unwrap().display().to_string();
                    found.push(format!("src/{rel}: the {layer} layer uses crate::{module}"));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_scan_sees_grouped_and_nested_imports() {
    let text = "use crate::{judge::{Judge, Report},\n    store};\nfn f() { crate::cli::run(); }\n// crate::verify\n";
    let mut used = crate_modules_used(text);
    used.sort();
    assert_eq!(used, ["cli", "judge", "store"], "Report is not a module");
}

#[test]
fn every_layer_of_the_table_exists() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (layer, _) in FORBIDDEN {
        assert!(
            !rust_files(&src.join(layer)).is_empty(),
            "src/{layer} has no Rust files: the table is stale"
        );
    }
}

/// `src/<layer>.rs` or every `.rs` under `src/<layer>/`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let single = dir.with_extension("rs");
    if single.is_file() {
        return vec![single];
    }
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The top-level crate modules a file names through `crate::`, outside
/// comments.
fn crate_modules_used(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |name: &str| {
        let name = name.trim();
        let end = name
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(name.len());
        let name = &name[..end];
        if !name.is_empty() && !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    };
    // Comments stripped, lines joined: a grouped import may span lines.
    let code: Vec<&str> = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect();
    let code = code.join(" ");
    let mut rest = code.as_str();
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // The group's items at its own depth: `a::{b, c}, d` is a, d.
            let (mut depth, mut start) = (0usize, 0usize);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        add(&group[start..i]);
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        add(&group[start..i]);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            add(rest);
        }
    }
    out
}
