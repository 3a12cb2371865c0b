//! The docs point at what the repository has (issue 38: docs/api.md named a
//! DESIGN.md that no checkout holds).

use crate::helpers::repo;

/// Every Markdown file the README and docs/ name by a path of this
/// repository exists. Names of a problem package's own files
/// (`statement.md`, `problem.en.md`) are the package format's, not files here.
#[test]
fn every_markdown_file_the_docs_name_exists() {
    let root = repo();
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap().flatten() {
        if entry.path().extension().is_some_and(|e| e == "md") {
            pages.push(entry.path());
        }
    }
    let package_files = ["statement.md", "problem.en.md"];
    let mut missing = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let dir = page.parent().unwrap();
        for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || "._/-".contains(c))) {
            let Some(name) = word.strip_suffix(".md").map(|_| word) else {
                continue;
            };
            let file = name.rsplit('/').next().unwrap();
            if package_files.contains(&file) || file == ".md" {
                continue;
            }
            // A name is relative to the page (a link) or to the root.
            if !dir.join(name).exists() && !root.join(name).exists() {
                missing.push(format!("{} names {name}", page.display()));
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}
