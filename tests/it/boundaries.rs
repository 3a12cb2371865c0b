//! docs/architecture.md's layer table as a test: a lower layer that imports an
//! upper one (by `crate::` or by `super::` climbing to the root) fails here,
//! naming the file and the import; every module of `src/lib.rs` has a row.

use std::path::{Path, PathBuf};

/// Each module of `src/lib.rs` and the crate modules it must not use: the
/// layer table of `docs/architecture.md` ("Layers"), lowest first. `config`,
/// `verdict`, `digest`, `errors`, `color`, `bounds` and `plural` are the shared vocabulary: any layer may
/// use them (the sandbox only its own part of config), and they use no
/// layer. `context` wires the judge core together for the edges; `cli` is
/// the top and may use everything.
const FORBIDDEN: &[(&str, &[&str])] = &[
    ("config", ALL_LAYERS),
    ("verdict", ALL_LAYERS),
    ("digest", ALL_LAYERS),
    ("errors", ALL_LAYERS),
    ("color", ALL_LAYERS),
    ("bounds", ALL_LAYERS),
    ("plural", ALL_LAYERS),
    (
        "sandbox",
        &[
            "verdict", "digest", "lang", "checker", "problem", "data", "judge", "store", "verify",
            "export", "import", "auth", "site", "worker", "server", "web", "hosted", "cli",
            "context", "contest", "shadow",
        ],
    ),
    (
        "lang",
        &[
            "verdict", "checker", "problem", "data", "judge", "store", "verify", "export",
            "import", "auth", "site", "worker", "server", "web", "hosted", "cli", "context",
            "contest", "shadow",
        ],
    ),
    (
        "checker",
        &[
            "lang", "problem", "data", "judge", "store", "verify", "export", "import", "auth",
            "site", "worker", "server", "web", "hosted", "cli", "context", "contest", "shadow",
        ],
    ),
    (
        "problem",
        &[
            "sandbox", "lang", "data", "judge", "store", "verify", "export", "import", "auth",
            "site", "worker", "server", "web", "hosted", "cli", "context", "contest", "shadow",
        ],
    ),
    (
        "data",
        &[
            "judge", "store", "verify", "export", "import", "auth", "site", "worker", "server",
            "web", "hosted", "cli", "context", "contest", "shadow",
        ],
    ),
    (
        "judge",
        &[
            "store", "verify", "export", "import", "auth", "site", "worker", "server", "web",
            "hosted", "cli", "context", "contest", "shadow",
        ],
    ),
    (
        "contest",
        &[
            "sandbox", "lang", "checker", "problem", "data", "judge", "store", "verify", "export",
            "import", "auth", "site", "worker", "server", "web", "hosted", "cli", "context",
            "shadow",
        ],
    ),
    (
        "store",
        &[
            "sandbox", "lang", "checker", "data", "verify", "export", "import", "auth", "site",
            "worker", "server", "web", "hosted", "cli", "context", "shadow",
        ],
    ),
    (
        "verify",
        &[
            "store", "export", "import", "auth", "site", "worker", "server", "web", "hosted",
            "cli", "context", "contest", "shadow",
        ],
    ),
    (
        "export",
        &[
            "store", "judge", "verify", "import", "auth", "site", "worker", "server", "web",
            "hosted", "cli", "context", "contest", "shadow",
        ],
    ),
    (
        "import",
        &[
            "sandbox", "lang", "data", "store", "judge", "verify", "export", "auth", "site",
            "worker", "server", "web", "hosted", "cli", "context", "contest", "shadow",
        ],
    ),
    (
        "context",
        &[
            "store", "verify", "export", "import", "auth", "site", "worker", "server", "web",
            "hosted", "cli", "contest", "shadow",
        ],
    ),
    (
        "auth",
        &[
            "sandbox", "lang", "checker", "problem", "data", "judge", "store", "verify", "export",
            "import", "site", "worker", "server", "web", "hosted", "cli", "context", "contest",
            "shadow",
        ],
    ),
    (
        "worker",
        &[
            "sandbox", "verify", "export", "import", "auth", "site", "server", "web", "hosted",
            "cli", "contest", "shadow",
        ],
    ),
    (
        "site",
        &[
            "sandbox", "export", "server", "web", "hosted", "cli", "shadow",
        ],
    ),
    (
        "shadow",
        &[
            "sandbox", "verify", "export", "import", "auth", "worker", "server", "web", "hosted",
            "cli",
        ],
    ),
    (
        "server",
        &[
            "sandbox", "verify", "export", "import", "web", "hosted", "cli",
        ],
    ),
    (
        "web",
        &[
            "sandbox", "verify", "export", "import", "server", "hosted", "cli",
        ],
    ),
    ("hosted", &["sandbox", "verify", "export", "import", "cli"]),
    ("cli", &[]),
];

/// Every module that is a layer (not shared vocabulary).
const ALL_LAYERS: &[&str] = &[
    "sandbox", "lang", "checker", "problem", "data", "judge", "store", "verify", "export",
    "import", "auth", "site", "server", "web", "hosted", "context", "cli", "contest", "worker",
    "shadow",
];

#[test]
fn no_lower_layer_imports_an_upper_one() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for (layer, forbidden) in FORBIDDEN {
        for file in rust_files(&src.join(layer)) {
            let text = std::fs::read_to_string(&file).unwrap();
            for module in crate_modules_used(&text, &module_path(&src, &file)) {
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
    let mut used = crate_modules_used(text, &["judge".to_string()]);
    used.sort();
    assert_eq!(used, ["cli", "judge", "store"], "Report is not a module");
}

#[test]
fn the_scan_resolves_super_from_the_files_module() {
    let module = |path: &str| -> Vec<String> { path.split("::").map(String::from).collect() };
    // From src/site.rs, `super::` is the crate's root.
    let text = "use super::store::Store;\nuse super::{web, judge::Judge};\n";
    let mut used = crate_modules_used(text, &module("site"));
    used.sort();
    assert_eq!(used, ["judge", "store", "web"]);
    // From src/judge/plan.rs, `super::` is judge itself; two climb to the root.
    let text = "use super::aggregate;\nfn f() { super::super::store::open(); }\n";
    assert_eq!(crate_modules_used(text, &module("judge::plan")), ["store"]);
    // An inline module is a level: its `super::` is the file's module.
    let text = "fn f() {}\n#[cfg(test)]\nmod tests {\n    use super::f;\n    use super::super::server;\n}\nuse super::cli;\n";
    let mut used = crate_modules_used(text, &module("site"));
    used.sort();
    assert_eq!(used, ["cli", "server"]);
    // The file's module from its path.
    let src = Path::new("/r/src");
    assert_eq!(
        module_path(src, Path::new("/r/src/judge/mod.rs")),
        ["judge"]
    );
    assert_eq!(
        module_path(src, Path::new("/r/src/judge/plan.rs")),
        ["judge", "plan"]
    );
    assert_eq!(module_path(src, Path::new("/r/src/site.rs")), ["site"]);
}

#[test]
fn no_two_sibling_modules_use_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let circles: Vec<String> = sibling_circles(&src)
        .iter()
        .map(|c| format!("a circle: {}", c.join(" -> ")))
        .collect();
    assert!(circles.is_empty(), "{}", circles.join("\n"));
}

#[test]
fn the_circle_check_finds_a_circle_between_siblings_and_not_a_parent() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |path: &str, text: &str| {
        let path = src.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("lib.rs", "pub mod a;\n");
    // a's parent uses its children and they use what it defines: no circle.
    write(
        "a/mod.rs",
        "mod b;\nmod c;\nmod d;\nuse self::b::B;\npub struct Shared;\n",
    );
    write("a/d.rs", "use super::Shared;\n");
    // b and c through c's folder, `crate::` on one side, a group on the other.
    write(
        "a/b.rs",
        "use super::{c::deep::C, Shared};\npub struct B;\n",
    );
    write("a/c/mod.rs", "pub mod deep;\n");
    write(
        "a/c/deep.rs",
        "pub struct C;\nfn f() { let _ = crate::a::b::B; }\n",
    );
    let circles = sibling_circles(src);
    assert_eq!(circles, [["a::b", "a::c", "a::b"]], "{circles:?}");
    // A macro's `$crate::` paths count, and a circle of three is found once.
    write("a/c/deep.rs", "pub struct C;\n");
    write("a/d.rs", "macro_rules! m { () => { $crate::a::b::B } }\n");
    write("a/c/mod.rs", "use super::d;\n");
    assert_eq!(sibling_circles(src), [["a::b", "a::c", "a::d", "a::b"]]);
}

#[test]
fn every_module_of_the_crate_has_a_row_and_every_row_a_module() {
    let lib =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let modules: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';'))
        .collect();
    assert!(
        modules.len() > 10,
        "src/lib.rs lists its modules: {modules:?}"
    );
    for module in &modules {
        assert!(
            FORBIDDEN.iter().any(|(layer, _)| layer == module),
            "src/{module} has no row in the boundary table (and docs/architecture.md)"
        );
    }
    for (layer, forbidden) in FORBIDDEN {
        for name in std::iter::once(layer).chain(forbidden.iter()) {
            assert!(
                modules.contains(name),
                "the table names {name}, which src/lib.rs does not declare"
            );
        }
    }
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

/// The module path of a file under `src/` (`judge/interactive.rs` is
/// `judge::interactive`, `store/mod.rs` is `store`).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("a file under src/");
    let mut path: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if path.last().is_some_and(|last| last == "mod") {
        path.pop();
    }
    path
}

/// The top-level crate modules a file of module `module` names, outside
/// comments: through `crate::`, and through `super::` where it climbs to the
/// crate's root (from `src/site.rs`, `super::store` is `crate::store`; from
/// `src/judge/plan.rs`, `super::` is `judge`, its own layer). Inline modules
/// (`mod tests { ... }`) count as a level.
fn crate_modules_used(text: &str, module: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for used in paths_used(text, module) {
        if used.from_root {
            if let Some(first) = used.path.first() {
                if !out.contains(first) {
                    out.push(first.clone());
                }
            }
        }
    }
    out
}

/// A path a file names, from the crate's root.
#[derive(Debug, PartialEq)]
struct Used {
    path: Vec<String>,
    /// Written as `crate::` (or `$crate::`), or with `super::`s that climb
    /// to the root: not relative to the file's own layer.
    from_root: bool,
}

/// Every path a file of module `module` names through `crate::`,
/// `$crate::` or `super::`, outside comments, resolved from the crate's
/// root (a group `a::{b, c::d}` is each of its items). Inline modules
/// (`mod tests { ... }`) count as a level for `super::`.
fn paths_used(text: &str, module: &[String]) -> Vec<Used> {
    let mut out = Vec::new();
    // Comments stripped, lines joined: a grouped import may span lines.
    let code: Vec<&str> = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect();
    let code = code.join(" ");
    // Inline modules open here, with the brace depth inside each.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let boundary = code[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let c = rest.chars().next().unwrap_or(' ');
        if c == '{' {
            depth += 1;
        } else if c == '}' {
            depth = depth.saturating_sub(1);
            while inline.last().is_some_and(|(_, d)| *d > depth) {
                inline.pop();
            }
        } else if boundary && rest.starts_with("mod ") {
            let after = rest["mod ".len()..].trim_start();
            let name: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if after[name.len()..].trim_start().starts_with('{') {
                inline.push((name, depth + 1));
            }
        } else if boundary && rest.starts_with("crate::") {
            for path in expand(&rest["crate::".len()..]) {
                out.push(Used {
                    path,
                    from_root: true,
                });
            }
            at += "crate::".len();
            continue;
        } else if boundary && rest.starts_with("super::") {
            let mut path = rest;
            let mut climbs = 0;
            while let Some(tail) = path.strip_prefix("super::") {
                path = tail;
                climbs += 1;
            }
            // The scope `super::` starts from: the file's module, then its
            // inline modules.
            let mut scope: Vec<String> = module.to_vec();
            scope.extend(inline.iter().map(|(name, _)| name.clone()));
            if climbs <= scope.len() {
                let base = &scope[..scope.len() - climbs];
                for tail in expand(path) {
                    let mut full = base.to_vec();
                    full.extend(tail);
                    out.push(Used {
                        path: full,
                        from_root: climbs == scope.len(),
                    });
                }
            }
            at += rest.len() - path.len();
            continue;
        }
        at += c.len_utf8();
    }
    out
}

/// The paths `rest` (what follows `crate::` or `super::`) names: `a::b::C`
/// is one, `a::{b::{C, d}, e}` three (`a::b::C`, `a::b::d`, `a::e`).
/// `self` in a group names the group's own path.
fn expand(rest: &str) -> Vec<Vec<String>> {
    let mut prefix: Vec<String> = Vec::new();
    let mut rest = rest.trim_start();
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let mut out = Vec::new();
            // The group's items at its own depth: `a::{b, c}, d` is a, d.
            let (mut depth, mut start) = (0usize, 0usize);
            for (i, c) in group.char_indices() {
                let item = match c {
                    '{' => {
                        depth += 1;
                        None
                    }
                    '}' if depth == 0 => Some(&group[start..i]),
                    '}' => {
                        depth -= 1;
                        None
                    }
                    ',' if depth == 0 => Some(&group[start..i]),
                    _ => None,
                };
                if let Some(item) = item {
                    start = i + 1;
                    for tail in expand(item) {
                        let mut full = prefix.clone();
                        full.extend(tail.into_iter().filter(|s| s != "self"));
                        out.push(full);
                    }
                    if c == '}' {
                        break;
                    }
                }
            }
            return out;
        }
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        if name.is_empty() {
            break;
        }
        prefix.push(name.to_string());
        match rest[end..].strip_prefix("::") {
            Some(tail) => rest = tail.trim_start(),
            None => break,
        }
    }
    if prefix.is_empty() || prefix == ["self"] {
        Vec::new()
    } else {
        vec![prefix]
    }
}

/// Circles between sibling modules (files or folders beside each other in
/// one folder of `src/`, the layers included): each a list of module paths,
/// the first repeated last. A parent (`mod.rs`) using its children, or a
/// child using what its parent defines, is not a circle; two siblings that
/// use each other are, also through files inside a sibling's folder. Test
/// code (after `#[cfg(test)]`) is left out.
fn sibling_circles(src: &Path) -> Vec<Vec<String>> {
    use std::collections::{BTreeMap, BTreeSet};
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for file in rust_files(src) {
        let module = module_path(src, &file);
        let text = std::fs::read_to_string(&file).unwrap();
        // Only the code that ships: a unit test may check one sibling
        // against another (`checker::stream`'s tests against `tokens`).
        let shipped = text.split("#[cfg(test)]").next().unwrap_or("");
        let used = paths_used(shipped, &module);
        // The file is part of each of its ancestors: `a/c/deep.rs` using
        // `a::b` is `a::c` using its sibling `a::b`.
        for level in 1..=module.len() {
            let (parent, node) = (&module[..level - 1], &module[..level]);
            for used in &used {
                let Some(name) = used.path.get(level - 1) else {
                    continue;
                };
                if used.path[..level - 1] != *parent || *name == node[level - 1] {
                    continue;
                }
                // A sibling module, not an item its parent defines.
                let dir = parent.iter().fold(src.to_path_buf(), |d, p| d.join(p));
                if dir.join(format!("{name}.rs")).is_file()
                    || dir.join(name).join("mod.rs").is_file()
                {
                    let mut sibling = parent.to_vec();
                    sibling.push(name.clone());
                    edges.entry(node.to_vec()).or_default().insert(sibling);
                }
            }
        }
    }
    // A circle is a path back to where it started; each found once, from
    // its least module.
    let mut circles = Vec::new();
    for start in edges.keys() {
        let mut stack = vec![vec![start.clone()]];
        while let Some(path) = stack.pop() {
            let last = path.last().unwrap();
            for next in edges.get(last).into_iter().flatten() {
                if next == start {
                    let mut circle: Vec<String> = path.iter().map(|m| m.join("::")).collect();
                    circle.push(start.join("::"));
                    circles.push(circle);
                } else if next > start && !path.contains(next) {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    stack.push(longer);
                }
            }
        }
    }
    circles
}
