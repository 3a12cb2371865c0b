//! Problems through the site (issue 47): an admin uploads a problem
//! archive through the API and the admin page; it is verified, stored,
//! listed and judged; it can be replaced (its submissions rejudged on
//! request), hidden and shown, and removed unless a contest holds it. Bad
//! archives — links, paths out, bombs, missing parts, a package that does
//! not verify — get one line each and change nothing.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use crate::freeze::token;
use crate::helpers::{
    copy_dir, repo, require_languages, workspace_with_server, zip_dir, Server, Workspace,
};
use crate::http::{agent, send, Body};

/// A workspace whose problems directory is its own: the catalog's shared
/// code and nim (for a contest), nothing else.
fn own_catalog(server: &str) -> (Workspace, PathBuf) {
    let ws = workspace_with_server(server);
    let problems = ws.dir.path().join("problems");
    for name in ["_common", "nim"] {
        copy_dir(&repo().join("problems").join(name), &problems.join(name));
    }
    ws.use_problems(&problems);
    (ws, problems)
}

/// An archive of `entries` (name, bytes), deflated.
fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in entries {
        zip.start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// The verify tests' fixture package ("Take One or Two").
fn fixture() -> PathBuf {
    repo().join("tests/fixtures/verify/base")
}

fn upload(s: &Server, auth: &str, query: &str, archive: Vec<u8>) -> (u16, Value) {
    let agent = agent(Duration::from_secs(600), true);
    let r = send(
        &agent,
        "POST",
        &format!("{}/api/v1/problems{query}", s.url),
        &[("Authorization", auth)],
        Body::Raw("application/zip", archive),
    );
    (r.status, r.json())
}

fn call(s: &Server, method: &str, path: &str, auth: &str) -> (u16, Value) {
    crate::freeze::api(method, &format!("{}/api/v1{path}", s.url), auth, None)
}

/// The slugs `/api/v1/problems` lists to the token's holder.
fn listed(s: &Server, auth: &str) -> Vec<String> {
    let (status, v) = call(s, "GET", "/problems", auth);
    assert_eq!(status, 200, "{v}");
    v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["slug"].as_str().unwrap().to_string())
        .collect()
}

/// The names in the problems directory, scratch directories included.
fn on_disk(problems: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(problems)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn an_admin_uploads_a_problem_that_is_verified_listed_judged_hidden_and_removed() {
    if !require_languages(&["python", "c"]) {
        return;
    }
    let (ws, problems) = own_catalog("submissions_per_minute = 0");
    let s = Server::start(&ws, 1);
    s.account("ann", true);
    s.account("bob", false);
    let (ann, bob) = (token(&s, "ann"), token(&s, "bob"));
    let archive = zip_dir(&fixture(), "take-two/");

    // Only an admin uploads.
    let (status, v) = upload(&s, &bob, "", archive.clone());
    assert_eq!(status, 403, "{v}");
    assert_eq!(on_disk(&problems), ["_common", "nim"]);

    // Named after the archive's folder, verified, stored and listed.
    let (status, v) = upload(&s, &ann, "", archive.clone());
    assert_eq!(status, 201, "{v:#}");
    assert_eq!(v["slug"], "take-two");
    assert_eq!(v["name"], "Take One or Two");
    assert_eq!(v["replaced"], false);
    assert_eq!(v["report"]["verified"], true, "{v:#}");
    assert!(problems.join("take-two/problem.toml").is_file());
    assert_eq!(on_disk(&problems), ["_common", "nim", "take-two"]);
    assert!(listed(&s, &bob).contains(&"take-two".to_string()));

    // Judged like any problem of the catalog.
    let source = std::fs::read_to_string(fixture().join("submissions/accepted/mod3.py")).unwrap();
    let (status, sub) = crate::freeze::api(
        "POST",
        &format!("{}/api/v1/submissions", s.url),
        &bob,
        Some(serde_json::json!({"problem": "take-two", "language": "python", "source": source})),
    );
    assert_eq!(status, 202, "{sub}");
    let id = sub["id"].as_i64().unwrap();
    let mut judged = Value::Null;
    for _ in 0..10 {
        judged = call(&s, "GET", &format!("/submissions/{id}?wait=30"), &bob).1;
        if judged["status"] == "done" {
            break;
        }
    }
    assert_eq!(judged["verdict"], "AC", "{judged}");

    // Once there, the slug is refused unless replaced; a replace with a
    // rejudge queues its submissions again.
    let (status, v) = upload(&s, &ann, "", archive.clone());
    assert_eq!(status, 409, "{v}");
    assert_eq!(v["error"]["code"], "problem_exists");
    let (status, v) = upload(&s, &ann, "?replace=true&rejudge=true", archive.clone());
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["replaced"], true);
    assert_eq!(v["rejudged"], 1, "{v}");
    assert_eq!(on_disk(&problems), ["_common", "nim", "take-two"]);
    // The rejudged try is judged again (the problem cannot be removed
    // while it waits: below).
    for _ in 0..10 {
        judged = call(&s, "GET", &format!("/submissions/{id}?wait=30"), &bob).1;
        if judged["status"] == "done" {
            break;
        }
    }
    assert_eq!(judged["verdict"], "AC", "{judged}");

    // Hidden: gone for everyone but admins, and no practice submission.
    let (status, v) = call(&s, "POST", "/problems/take-two/hide", &ann);
    assert_eq!(status, 200, "{v}");
    assert!(!listed(&s, &bob).contains(&"take-two".to_string()));
    let (status, v) = call(&s, "GET", "/problems", &ann);
    assert_eq!(status, 200);
    let row = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["slug"] == "take-two")
        .cloned()
        .expect("admins still see it");
    assert_eq!(row["hidden"], true, "{row}");
    let (status, v) = call(&s, "GET", "/problems/take-two", &bob);
    assert_eq!(status, 404, "{v}");
    let (status, v) = crate::freeze::api(
        "POST",
        &format!("{}/api/v1/submissions", s.url),
        &bob,
        Some(
            serde_json::json!({"problem": "take-two", "language": "python", "source": "print(1)"}),
        ),
    );
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("unknown_problem")),
        "{v}"
    );
    let (status, _) = call(&s, "POST", "/problems/take-two/unhide", &ann);
    assert_eq!(status, 200);
    assert!(listed(&s, &bob).contains(&"take-two".to_string()));

    // A problem a contest holds is not removed; one no contest holds is.
    let now = grundy::site::contests::now_ms();
    let new = crate::clics::icpc_on_nim("cup", "Cup", now + 3_600_000, &["bob"]);
    s.rt.block_on(s.store.create_contest(&new, now))
        .expect("create");
    let (status, v) = call(&s, "DELETE", "/problems/nim", &ann);
    assert_eq!(status, 409, "{v}");
    assert_eq!(v["error"]["code"], "problem_in_contest");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("cup"),
        "{v}"
    );
    assert!(problems.join("nim").is_dir());
    let (status, v) = call(&s, "DELETE", "/problems/take-two", &bob);
    assert_eq!(status, 403, "{v}");
    let (status, v) = call(&s, "DELETE", "/problems/take-two", &ann);
    assert_eq!(status, 204, "{v}");
    assert_eq!(on_disk(&problems), ["_common", "nim"]);
    assert!(!listed(&s, &ann).contains(&"take-two".to_string()));
    let (status, _) = call(&s, "DELETE", "/problems/take-two", &ann);
    assert_eq!(status, 404);
}

#[test]
fn bad_archives_get_one_line_each_and_change_nothing() {
    let (ws, problems) = own_catalog("submissions_per_minute = 0\nupload_limit_mib = 1");
    let s = Server::start(&ws, 0);
    s.account("ann", true);
    let ann = token(&s, "ann");
    let fixture_file = |rel: &str| std::fs::read(fixture().join(rel)).unwrap();
    let statement = fixture_file("statement.md");
    let manifest = fixture_file("problem.toml");
    let symlinked = {
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default();
        zip.start_file("p/problem.toml", options).unwrap();
        zip.write_all(&manifest).unwrap();
        zip.add_symlink("p/statement.md", "/etc/passwd", options)
            .unwrap();
        zip.finish().unwrap().into_inner()
    };
    let zeros = vec![0u8; 3 << 20];
    let cases: Vec<(&str, Vec<u8>, u16, &str, &str)> = vec![
        (
            "not a zip",
            b"PK no archive at all".to_vec(),
            400,
            "bad_archive",
            "not a ZIP archive",
        ),
        (
            "a path out",
            zip_of(&[("p/problem.toml", &manifest), ("../escaped.txt", b"x")]),
            400,
            "bad_archive",
            "a path outside the archive",
        ),
        (
            "an absolute path",
            zip_of(&[("/tmp/grundy-upload-absolute", b"x")]),
            400,
            "bad_archive",
            "a path outside the archive",
        ),
        ("a link", symlinked, 400, "bad_archive", "a link"),
        (
            "a bomb",
            zip_of(&[("p/problem.toml", &manifest), ("p/tests/big.in", &zeros)]),
            400,
            "bad_archive",
            "more than 1 MiB once unpacked",
        ),
        (
            "a file and a directory of one name",
            zip_of(&[
                ("p/statement.md", &statement),
                ("p/statement.md/x", b"through"),
            ]),
            400,
            "bad_archive",
            "the same path twice",
        ),
        (
            "no package",
            zip_of(&[("notes/readme.txt", b"hello")]),
            400,
            "bad_package",
            "no problem.toml or problem.yaml",
        ),
        (
            "a missing statement",
            zip_of(&[("p/problem.toml", &manifest)]),
            400,
            "bad_package",
            "statement.md: missing",
        ),
    ];
    let before = listed(&s, &ann);
    for (what, archive, status, code, words) in cases {
        let (got, v) = upload(&s, &ann, "", archive);
        assert_eq!(got, status, "{what}: {v}");
        assert_eq!(v["error"]["code"], code, "{what}: {v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert_eq!(message.lines().count(), 1, "{what}: {message}");
        assert!(message.contains(words), "{what}: {message}");
        assert!(
            !message.contains(".upload-"),
            "{what}: names no scratch path: {message}"
        );
        assert_eq!(on_disk(&problems), ["_common", "nim"], "{what}");
    }
    assert!(!problems.parent().unwrap().join("escaped.txt").exists());
    assert!(!Path::new("/tmp/grundy-upload-absolute").exists());
    // A slug that is none, and an archive over the limit as sent.
    let (got, v) = upload(
        &s,
        &ann,
        "?slug=Bad_Slug",
        zip_of(&[("problem.toml", &manifest)]),
    );
    assert_eq!(
        (got, v["error"]["code"].as_str()),
        (400, Some("bad_slug")),
        "{v}"
    );
    let noise: Vec<u8> = (0..(1u32 << 20) + 4096)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let (got, v) = upload(&s, &ann, "", noise);
    assert_eq!(
        (got, v["error"]["code"].as_str()),
        (413, Some("archive_too_large")),
        "{v}"
    );
    assert_eq!(listed(&s, &ann), before);
    assert_eq!(on_disk(&problems), ["_common", "nim"]);
}

#[test]
fn a_package_that_does_not_verify_is_refused_with_its_report() {
    if !require_languages(&["python", "c"]) {
        return;
    }
    let (ws, problems) = own_catalog("submissions_per_minute = 0");
    let s = Server::start(&ws, 0);
    s.account("ann", true);
    let ann = token(&s, "ann");
    // The wrong answer filed as accepted.
    let broken = ws.dir.path().join("broken");
    copy_dir(&fixture(), &broken);
    std::fs::copy(
        broken.join("submissions/wrong_answer/parity.py"),
        broken.join("submissions/accepted/parity.py"),
    )
    .unwrap();
    let (status, v) = upload(&s, &ann, "?slug=broken-take", zip_dir(&broken, ""));
    assert_eq!(status, 422, "{v:#}");
    assert_eq!(v["error"]["code"], "not_verified");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("example submissions"),
        "{v}"
    );
    assert_eq!(v["report"]["verified"], false, "{v}");
    assert_eq!(on_disk(&problems), ["_common", "nim"]);

    // The admin page takes the same archive as a form and shows the report.
    let cookie = crate::web::sign_in(&s.url, "ann");
    let page = crate::web::http(
        "GET",
        &format!("{}/admin/problems", s.url),
        Some(&cookie),
        None,
    );
    assert_eq!(page.status, 200);
    assert!(page.body.contains("nim"), "{}", page.body);
    let csrf = crate::helpers::csrf_of(&page.body);
    let boundary = "grundy-test-boundary-7d1f";
    let mut form = Vec::new();
    for (name, value) in [("csrf", csrf.as_str()), ("slug", "take-two")] {
        write!(
            form,
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
        )
        .unwrap();
    }
    write!(
        form,
        "--{boundary}\r\nContent-Disposition: form-data; name=\"archive\"; filename=\"p.zip\"\r\n\
         Content-Type: application/zip\r\n\r\n"
    )
    .unwrap();
    form.extend(zip_dir(&fixture(), ""));
    write!(form, "\r\n--{boundary}--\r\n").unwrap();
    let content_type = format!("multipart/form-data; boundary={boundary}");
    let r = send(
        &agent(Duration::from_secs(600), false),
        "POST",
        &format!("{}/admin/problems", s.url),
        &[("Cookie", &cookie)],
        Body::Raw(&content_type, form),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        r.body
            .contains("take-two (Take One or Two) added and verified."),
        "{}",
        r.body
    );
    assert!(
        r.body.contains("take-two: verified"),
        "the report: {}",
        r.body
    );
    assert_eq!(on_disk(&problems), ["_common", "nim", "take-two"]);

    // Hidden from the page, which says so.
    let page = crate::web::http(
        "GET",
        &format!("{}/admin/problems", s.url),
        Some(&cookie),
        None,
    );
    let csrf = crate::helpers::csrf_of(&page.body);
    let r = crate::web::http(
        "POST",
        &format!("{}/admin/problems/take-two", s.url),
        Some(&cookie),
        Some(&[("csrf", &csrf), ("action", "hide")]),
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let hidden = s.rt.block_on(s.store.hidden_catalog()).unwrap();
    assert_eq!(hidden, ["take-two"]);
}

/// On PostgreSQL, where workers on other machines judge from published
/// packages, an upload is published with its tests as `grundy publish`
/// publishes a problem, and a replace publishes the new version.
#[test]
fn on_postgresql_an_upload_is_published_to_the_workers() {
    if !require_languages(&["python", "c"]) {
        return;
    }
    let (ws, _problems) = own_catalog("submissions_per_minute = 0");
    if !crate::pg::use_postgres(&ws) {
        return;
    }
    let s = Server::start(&ws, 0);
    s.account("ann", true);
    let ann = token(&s, "ann");
    let (status, v) = upload(&s, &ann, "", zip_dir(&fixture(), "take-two/"));
    assert_eq!(status, 201, "{v:#}");
    let hash = v["published"].as_str().expect("published").to_string();
    let published =
        s.rt.block_on(s.store.published("take-two"))
            .expect("read")
            .expect("there");
    assert_eq!(published.hash, hash);
    // Another version (a statement changed) replaces it there too.
    let changed = tempfile::tempdir().unwrap();
    let dir = changed.path().join("take-two");
    copy_dir(&fixture(), &dir);
    let mut statement = std::fs::read_to_string(dir.join("statement.md")).unwrap();
    statement.push_str("\nOne more line.\n");
    std::fs::write(dir.join("statement.md"), statement).unwrap();
    let (status, v) = upload(&s, &ann, "?replace=true", zip_dir(&dir, "take-two/"));
    assert_eq!(status, 200, "{v:#}");
    let again =
        s.rt.block_on(s.store.published("take-two"))
            .expect("read")
            .expect("there");
    assert_ne!(again.hash, hash);
    assert_eq!(Some(again.hash.as_str()), v["published"].as_str());
}
