//! The web pages: HTTP-level checks of sessions, CSRF, error pages and
//! source privacy, and the contestant's and admin's day in a real headless
//! Chromium driven over WebDriver (chromedriver), against a server on port
//! 0 with real workers and the real sandbox. Screenshots of the main pages
//! go to `target/screenshots/` (not committed) for a person to look at.
//!
//! Every wait is a bounded poll for a condition; no test asserts a time.

use std::time::Duration;

use grundy::auth;
use grundy::store::{NewSubmission, Store};
use serde_json::json;

use crate::browser::Browser;
use crate::helpers::{
    cookie_pair, csrf_of, workspace_with_server, Server, NIM_C_AC, NIM_C_WA_FIRST,
};

pub(crate) const PASSWORD: &str = "correct horse battery";

/// Judge workers started and stopped by a test, apart from the server's.
struct Pool {
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    handle: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

impl Server {
    /// An account that signs in with [`PASSWORD`]; returns its id.
    pub(crate) fn account(&self, name: &str, admin: bool) -> i64 {
        static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let hash = HASH.get_or_init(|| auth::hash_password(PASSWORD).expect("hash"));
        self.rt
            .block_on(self.store.add_user(name, hash, admin))
            .expect("add user")
    }

    /// One worker judging this server's database, as `grundy worker` would
    /// on another machine (its own state: stopping it leaves the server up).
    fn workers(&self) -> Pool {
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let handle = self.rt.spawn(grundy::worker::work(
            self.ctx.clone(),
            self.store.clone(),
            1,
            async {
                let _ = rx.await;
            },
        ));
        Pool {
            stop: Some(tx),
            handle: Some(handle),
        }
    }

    fn stop_workers(&self, mut pool: Pool) {
        if let Some(stop) = pool.stop.take() {
            let _ = stop.send(());
        }
        if let Some(h) = pool.handle.take() {
            self.rt.block_on(h).expect("join").expect("workers");
        }
    }
}

// ---------------------------------------------------------------- HTTP, no browser

/// A reply: status, headers and body, redirects not followed.
pub(crate) struct Reply {
    pub status: u16,
    pub set_cookies: Vec<String>,
    pub location: Option<String>,
    pub content_type: String,
    pub body: String,
}

pub(crate) fn http(
    method: &str,
    url: &str,
    cookie: Option<&str>,
    form: Option<&[(&str, &str)]>,
) -> Reply {
    let agent = crate::http::agent(Duration::from_secs(120), false);
    let headers: Vec<(&str, &str)> = cookie.map(|c| ("Cookie", c)).into_iter().collect();
    let body = match form {
        Some(f) => crate::http::Body::Form(f),
        None => crate::http::Body::Empty,
    };
    let r = crate::http::send(&agent, method, url, &headers, body);
    let set_cookies = r
        .headers
        .iter()
        .filter(|(n, _)| n == "set-cookie")
        .map(|(_, v)| v.clone())
        .collect();
    let location = r.header("location").map(str::to_string);
    let content_type = crate::http::mime_type(r.header("content-type"));
    Reply {
        status: r.status,
        set_cookies,
        location,
        content_type,
        body: r.body,
    }
}

/// Signs in over HTTP; returns the session cookie (`name=value`).
pub(crate) fn sign_in(url: &str, name: &str) -> String {
    let form = http("GET", &format!("{url}/signin"), None, None);
    assert_eq!(form.status, 200);
    let pre = cookie_pair(
        form.set_cookies
            .iter()
            .find(|c| c.starts_with("grundy_signin="))
            .expect("the sign-in form sets its cookie"),
    );
    let token = csrf_of(&form.body);
    let done = http(
        "POST",
        &format!("{url}/signin"),
        Some(&pre),
        Some(&[
            ("csrf", &token),
            ("name", name),
            ("password", PASSWORD),
            ("next", "/problems"),
        ]),
    );
    assert_eq!(done.status, 303, "{}", done.body);
    let session = done
        .set_cookies
        .iter()
        .find(|c| c.starts_with("grundy_session="))
        .expect("a session cookie");
    cookie_pair(session)
}

#[test]
fn sessions_are_httponly_samesite_cookies_and_every_form_needs_its_csrf_token() {
    let ws = workspace_with_server("submissions_per_minute = 0");
    let s = Server::start(&ws, 0);
    s.account("bob", false);
    let url = &s.url;

    // The sign-in form's own guard: its cookie and its field must agree.
    let form = http("GET", &format!("{url}/signin"), None, None);
    let pre = form
        .set_cookies
        .iter()
        .find(|c| c.starts_with("grundy_signin="))
        .expect("the sign-in form sets its cookie")
        .clone();
    assert!(
        pre.contains("HttpOnly") && pre.contains("SameSite=Strict"),
        "{pre}"
    );
    let token = csrf_of(&form.body);
    let fields = [
        ("csrf", token.as_str()),
        ("name", "bob"),
        ("password", PASSWORD),
    ];
    let forged = http("POST", &format!("{url}/signin"), None, Some(&fields));
    assert_eq!(forged.status, 403, "no cookie: {}", forged.body);
    assert!(forged
        .set_cookies
        .iter()
        .all(|c| !c.starts_with("grundy_session")));
    let wrong = http(
        "POST",
        &format!("{url}/signin"),
        Some(&cookie_pair(&pre)),
        Some(&[
            ("csrf", token.as_str()),
            ("name", "bob"),
            ("password", "not it"),
        ]),
    );
    assert_eq!(wrong.status, 401);
    assert!(
        wrong.body.contains("Wrong name or password"),
        "{}",
        wrong.body
    );
    assert!(wrong
        .set_cookies
        .iter()
        .all(|c| !c.starts_with("grundy_session")));

    let done = http(
        "POST",
        &format!("{url}/signin"),
        Some(&cookie_pair(&pre)),
        Some(&fields),
    );
    assert_eq!(done.status, 303);
    let session = done
        .set_cookies
        .iter()
        .find(|c| c.starts_with("grundy_session="))
        .expect("a session cookie")
        .clone();
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(session.contains(flag), "{flag} in {session}");
    }
    assert!(
        !session.contains("Secure"),
        "not configured for HTTPS: {session}"
    );
    let cookie = cookie_pair(&session);
    let page = http("GET", &format!("{url}/problems"), Some(&cookie), None);
    assert_eq!(page.status, 200);
    assert!(page.body.contains("id=\"whoami\">bob<"), "signed in as bob");
    assert!(page.body.contains("Nim"), "the problem list");

    // A form without the session's token is refused and stores nothing.
    for token in ["", "0000", "deadbeef"] {
        let refused = http(
            "POST",
            &format!("{url}/problems/nim/submit"),
            Some(&cookie),
            Some(&[
                ("csrf", token),
                ("language", "c"),
                ("source", NIM_C_WA_FIRST),
            ]),
        );
        assert_eq!(refused.status, 403, "{}", refused.body);
        assert!(refused.body.contains("Form expired"));
    }
    let stored =
        s.rt.block_on(s.store.list(&grundy::store::ListFilter {
            limit: 10,
            ..Default::default()
        }))
        .expect("list");
    assert!(stored.is_empty(), "a refused form stored nothing");
    let signout = http(
        "POST",
        &format!("{url}/signout"),
        Some(&cookie),
        Some(&[("csrf", "x")]),
    );
    assert_eq!(signout.status, 403);
    let still = http("GET", &format!("{url}/problems"), Some(&cookie), None);
    assert_eq!(still.status, 200, "a forged sign-out did nothing");

    // Signing out for real ends the session on the server too.
    let token = csrf_of(&still.body);
    let out = http(
        "POST",
        &format!("{url}/signout"),
        Some(&cookie),
        Some(&[("csrf", &token)]),
    );
    assert_eq!(out.status, 303);
    let after = http("GET", &format!("{url}/problems"), Some(&cookie), None);
    assert_eq!(after.status, 303, "the old cookie no longer works");
}

#[test]
fn errors_are_pages_in_the_sites_style_and_sources_stay_private() {
    let ws = workspace_with_server("submissions_per_minute = 1");
    let s = Server::start(&ws, 0);
    s.account("ann", true);
    let bob_id = s.account("bob", false);
    s.account("cid", false);
    let url = &s.url;
    let secret_line = "/* bob's secret approach */";
    let source = format!("{secret_line}\n{NIM_C_AC}");
    let id =
        s.rt.block_on(s.store.insert_submission(NewSubmission {
            problem: "nim",
            language: "c",
            source: source.as_bytes(),
            user_id: Some(bob_id),
        }))
        .expect("insert");

    // Signed out: sent to sign in, and back after; public pages open.
    let away = http("GET", &format!("{url}/submissions/{id}"), None, None);
    assert_eq!(away.status, 303);
    assert_eq!(
        away.location.as_deref(),
        Some(format!("/signin?next=/submissions/{id}").as_str())
    );
    let recent = http("GET", &format!("{url}/recent"), None, None);
    assert_eq!(recent.status, 200);
    assert!(
        recent.body.contains(&format!("/submissions/{id}")),
        "listed"
    );
    assert!(!recent.body.contains("secret approach"), "never a source");

    // Unknown pages are HTML pages; the API keeps its JSON.
    let missing = http("GET", &format!("{url}/no/such/page"), None, None);
    assert_eq!(missing.status, 404);
    assert!(
        missing.content_type.starts_with("text/html"),
        "{}",
        missing.content_type
    );
    assert!(missing.body.contains("Not found") && missing.body.contains("/static/style.css"));
    let api = http("GET", &format!("{url}/api/v1/no/such"), None, None);
    assert_eq!(api.status, 404);
    assert!(api.body.contains("\"not_found\""), "{}", api.body);

    let bob = sign_in(url, "bob");
    let cid = sign_in(url, "cid");
    let ann = sign_in(url, "ann");
    for (who, cookie, sees) in [
        ("bob", &bob, true),
        ("ann", &ann, true),
        ("cid", &cid, false),
    ] {
        let page = http(
            "GET",
            &format!("{url}/submissions/{id}"),
            Some(cookie),
            None,
        );
        assert_eq!(page.status, 200, "{who} sees the verdict page");
        assert_eq!(
            page.body.contains("secret approach"),
            sees,
            "{who} and the source"
        );
        let src = http(
            "GET",
            &format!("{url}/submissions/{id}/source"),
            Some(cookie),
            None,
        );
        assert_eq!(
            src.status,
            if sees { 200 } else { 404 },
            "{who}'s source page"
        );
        assert_eq!(src.body.contains("secret approach"), sees, "{who}");
    }
    let bad_id = http("GET", &format!("{url}/submissions/x1"), Some(&bob), None);
    assert_eq!(bad_id.status, 404);

    // A contestant on an admin page: 403 as a page, no internals.
    for path in ["/admin/users", "/admin/queue"] {
        let denied = http("GET", &format!("{url}{path}"), Some(&cid), None);
        assert_eq!(denied.status, 403, "{path}");
        assert!(denied.body.contains("Not allowed"), "{}", denied.body);
    }
    let token = csrf_of(&http("GET", &format!("{url}/problems"), Some(&cid), None).body);
    let denied = http(
        "POST",
        &format!("{url}/submissions/{id}/rejudge"),
        Some(&cid),
        Some(&[("csrf", &token)]),
    );
    assert_eq!(denied.status, 403);
    assert_eq!(
        http("GET", &format!("{url}/admin/users"), Some(&ann), None).status,
        200
    );

    // Over the rate limit: the 429 page. The first submission is refused
    // for an empty source (kept with its message), the second stored, the
    // third refused.
    let page = http("GET", &format!("{url}/problems/nim"), Some(&cid), None);
    let token = csrf_of(&page.body);
    let submit = |src: &str| {
        http(
            "POST",
            &format!("{url}/problems/nim/submit"),
            Some(&cid),
            Some(&[("csrf", &token), ("language", "c"), ("source", src)]),
        )
    };
    let empty = submit("");
    assert_eq!(empty.status, 400);
    assert!(empty.body.contains("The source is empty"), "{}", empty.body);
    let first = submit(NIM_C_WA_FIRST);
    assert_eq!(first.status, 303, "{}", first.body);
    let second = submit(NIM_C_WA_FIRST);
    assert_eq!(second.status, 429, "{}", second.body);
    assert!(second.body.contains("Slow down") && second.body.contains("/static/style.css"));
    for body in [&missing.body, &second.body, &empty.body] {
        for leak in ["sqlx", "panicked", "/root", "/tmp", "src/"] {
            assert!(!body.contains(leak), "{leak} shown: {body}");
        }
    }
}

// ---------------------------------------------------------------- the browser

/// The verdict the page shows, `queued`/`judging` until it is in.
fn shown_verdict(b: &Browser) -> String {
    b.try_find("#verdict")
        .map(|_| b.text("#verdict"))
        .unwrap_or_default()
}

/// Submits `source` as C from the problem page, pasted; returns the
/// submission's id from the page it lands on.
fn submit_from_page(b: &Browser, url: &str, source: &str) -> i64 {
    b.goto(&format!("{url}/problems/nim"));
    b.click("#language option[value=\"c\"]");
    b.type_into("#source", source);
    submitted(b)
}

/// Submits the file at `path` from the problem page: its extension picks
/// the language; returns the submission's id.
fn submit_file(b: &Browser, url: &str, path: &std::path::Path) -> i64 {
    b.goto(&format!("{url}/problems/nim"));
    assert_eq!(
        b.script("return document.getElementById('language').value;"),
        json!("cpp"),
        "the default language"
    );
    let input = b.find("#file");
    let file = path.to_str().expect("a UTF-8 path");
    b.cmd(
        "POST",
        &format!("/element/{input}/value"),
        Some(json!({"text": file})),
    );
    b.wait_for("the file in the source box", Duration::from_secs(30), |b| {
        b.script("return document.getElementById('source').value.includes('scanf');") == json!(true)
    });
    assert_eq!(
        b.script("return document.getElementById('language').value;"),
        json!("c"),
        "the language follows the file's extension"
    );
    submitted(b)
}

/// Presses Submit and waits for the submission's page; its id.
fn submitted(b: &Browser) -> i64 {
    b.click("#submit");
    b.wait_for("the submission's page", Duration::from_secs(300), |b| {
        b.try_find("#results").is_some()
    });
    let here = b.url();
    here.rsplit('/')
        .next()
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("not a submission's page: {here}"))
}

/// The contestant's and admin's day in a real browser: sign in, read a
/// problem, submit a wrong then a right solution and watch each verdict
/// arrive without a reload, another user refused the source, a signed-out
/// visitor sent to sign in, an admin rejudging.
#[test]
fn a_contestant_and_an_admin_use_the_pages_in_a_real_browser() {
    let ws = workspace_with_server("submissions_per_minute = 0\nlease_seconds = 30");
    // No workers of the server's own: the test starts them once a page
    // shows its submission queued, so the verdict must arrive live.
    let s = Server::start(&ws, 0);
    s.account("ann", true);
    s.account("bob", false);
    s.account("cid", false);
    let url = s.url.as_str();
    let Some(b) = Browser::start() else {
        return;
    };
    let judged = Duration::from_secs(300);

    // A signed-out visitor is sent to sign in, and comes back after.
    b.goto(&format!("{url}/problems/nim"));
    assert!(b.url().contains("/signin?next="), "{}", b.url());
    b.shot("signin");
    b.type_into("#name", "bob");
    b.type_into("#password", PASSWORD);
    b.click("#signin");
    b.wait_for("the problem page", Duration::from_secs(60), |b| {
        b.try_find("#statement").is_some()
    });
    assert_eq!(b.text("#whoami"), "bob");
    assert!(b.text("#statement").contains("heaps of stones"));
    assert!(
        b.try_find("#statement pre .copy").is_some(),
        "samples have copy buttons"
    );
    b.shot("problem");

    b.goto(&format!("{url}/problems"));
    assert!(b.text("#problems").contains("Nim"));

    // A wrong answer, judged while the page watches.
    let wa = submit_from_page(&b, url, NIM_C_WA_FIRST);
    assert_eq!(shown_verdict(&b), "queued");
    assert!(
        b.try_find("#tests tr.waiting").is_some(),
        "the planned tests are listed"
    );
    b.script("window.__same_page = true;");
    let pool = s.workers();
    b.wait_for("the WA verdict", judged, |b| shown_verdict(b) == "WA");
    assert_eq!(
        b.script("return window.__same_page === true;"),
        json!(true),
        "no reload"
    );
    assert!(b.text("#tests").contains("WA"));
    b.shot("submission-wa");
    s.stop_workers(pool);

    // The right solution, uploaded as a file; the table fills in while it
    // is judged.
    let ac = submit_file(&b, url, &ws.file("xor.c", NIM_C_AC));
    assert_eq!(shown_verdict(&b), "queued");
    b.script("window.__same_page = true;");
    let pool = s.workers();
    b.wait_for("the AC verdict", judged, |b| shown_verdict(b) == "AC");
    assert_eq!(
        b.script("return window.__same_page === true;"),
        json!(true),
        "no reload"
    );
    assert!(b.try_find("#tests tr.waiting").is_none(), "every test done");
    assert!(
        b.try_find("svg.chart rect.bar").is_some(),
        "the time and memory chart"
    );
    assert_eq!(b.text("#score"), "100");
    b.goto(&format!("{url}/submissions/{ac}"));
    assert!(
        b.text("#source-code").contains("scanf"),
        "the owner sees the source"
    );
    assert!(b.try_find("#source-code .k").is_some(), "highlighted");
    b.resize(1280, 2200);
    b.shot("submission-ac");
    b.resize(1280, 900);
    b.goto(&format!("{url}/submissions/{ac}/source"));
    b.shot("source");
    b.goto(&format!("{url}/submissions?verdict=AC"));
    let mine = b.text("#submissions");
    assert!(
        mine.contains(&ac.to_string()) && !mine.contains("WA"),
        "{mine}"
    );
    b.shot("my-submissions");
    b.goto(&format!("{url}/problems"));
    assert!(b.text("#problems").contains("AC"), "my best verdict on nim");
    b.resize(1280, 1400);
    b.shot("problems");
    b.resize(1280, 900);
    b.sign_out();

    // Another contestant: the verdict yes, the source no.
    b.sign_in(url, "cid");
    b.goto(&format!("{url}/submissions/{ac}"));
    assert_eq!(shown_verdict(&b), "AC");
    assert!(b.try_find("#source-code").is_none(), "no source for cid");
    b.goto(&format!("{url}/submissions/{ac}/source"));
    assert!(
        b.text("h1").contains("Not found"),
        "cid gets 404 for the source"
    );
    b.shot("not-found");
    b.goto(&format!("{url}/problems"));
    b.sign_out();

    // Signed out: the recent list is public, the rest asks to sign in.
    b.goto(&format!("{url}/recent"));
    assert!(b.text("#submissions").contains("bob"));
    b.shot("recent");
    b.goto(&format!("{url}/submissions"));
    assert!(b.url().contains("/signin"), "{}", b.url());

    // The admin rejudges the wrong answer and looks at users and workers.
    b.sign_in(url, "ann");
    b.goto(&format!("{url}/submissions/{wa}"));
    assert!(
        b.text("#tests").contains("expected"),
        "admins see checker messages"
    );
    b.click("#rejudge");
    b.wait_for("the rejudged verdict", judged, |b| {
        b.url().ends_with(&format!("/submissions/{wa}")) && shown_verdict(b) == "WA"
    });
    let history =
        s.rt.block_on(s.store.history_verdicts(wa))
            .expect("history");
    assert_eq!(
        history,
        vec!["WA".to_string()],
        "the old result kept, judged again"
    );
    b.goto(&format!("{url}/admin/users"));
    assert!(b.text("#users").contains("cid"));
    b.shot("admin-users");
    b.wait_for("the worker's report", Duration::from_secs(60), |b| {
        b.goto(&format!("{url}/admin/queue"));
        b.try_find(".worker .facts").is_some()
    });
    assert!(b.text(".worker .facts").contains("isolation:"));
    b.shot("admin-queue");

    // A phone's width: the problem page in one column.
    b.sign_out();
    b.sign_in(url, "bob");
    b.resize(390, 844);
    b.goto(&format!("{url}/problems/nim"));
    let overflow =
        b.script("return document.documentElement.scrollWidth <= window.innerWidth + 1;");
    assert_eq!(overflow, json!(true), "no sideways scrolling on a phone");
    b.shot("phone-problem");
    b.goto(&format!("{url}/submissions/{ac}"));
    b.shot("phone-submission");
    s.stop_workers(pool);
}

// ---------------------------------------------------------------- the store's part

#[test]
fn sessions_end_on_sign_out_password_change_disabling_and_expiry() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("web.db").display());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let store = Store::open(&url).await.expect("store");
        let bob = store.add_user("bob", "h", false).await.expect("bob");
        let live = auth::token_hash("live");
        let expired = auth::token_hash("expired");
        store
            .add_session(bob, &live, "c1", 60_000)
            .await
            .expect("add");
        store
            .add_session(bob, &expired, "c2", -1)
            .await
            .expect("add");
        let s = store
            .session(&live)
            .await
            .expect("read")
            .expect("a live session");
        assert_eq!((s.user.name.as_str(), s.csrf.as_str()), ("bob", "c1"));
        assert!(
            store.session(&expired).await.expect("read").is_none(),
            "expired"
        );

        store.set_disabled("bob", true).await.expect("disable");
        assert!(
            store.session(&live).await.expect("read").is_none(),
            "disabled"
        );
        store.set_disabled("bob", false).await.expect("enable");
        assert!(
            store.session(&live).await.expect("read").is_some(),
            "enabled again"
        );

        store.set_password("bob", "h2").await.expect("password");
        assert!(
            store.session(&live).await.expect("read").is_none(),
            "password changed"
        );
        let (_, hash) = store
            .user_with_password("bob")
            .await
            .expect("read")
            .expect("bob");
        assert_eq!(hash, "h2");
        assert!(matches!(
            store.set_password("nobody", "h").await,
            Err(grundy::store::Error::NoUser(_))
        ));

        store
            .add_session(bob, &live, "c3", 60_000)
            .await
            .expect("add");
        store.end_session(&live).await.expect("end");
        assert!(
            store.session(&live).await.expect("read").is_none(),
            "signed out"
        );

        store.set_admin("bob", true).await.expect("admin");
        assert!(
            store
                .user("bob")
                .await
                .expect("read")
                .expect("bob")
                .is_admin
        );
    });
}

#[test]
fn worker_processes_report_tiers_and_submissions_in_hand() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("web.db").display());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let store = Store::open(&url).await.expect("store");
        store
            .register_workers("host:1", 2, "isolation:   namespaces")
            .await
            .expect("register");
        store
            .workers_alive("host:1", "7,9")
            .await
            .expect("heartbeat");
        let rows = store.worker_processes().await.expect("read");
        assert_eq!(rows.len(), 1);
        assert_eq!((rows[0].workers, rows[0].current.as_str()), (2, "7,9"));
        assert!(rows[0].tiers.contains("namespaces"));
        assert!(rows[0].silent_ms < 60_000, "{}", rows[0].silent_ms);
        // Registering again (a restarted process) starts it afresh.
        store
            .register_workers("host:1", 1, "t")
            .await
            .expect("again");
        let rows = store.worker_processes().await.expect("read");
        assert_eq!((rows.len(), rows[0].current.as_str()), (1, ""));
        store.unregister_workers("host:1").await.expect("remove");
        assert!(store.worker_processes().await.expect("read").is_empty());

        let counts = store.queue_counts().await.expect("counts");
        assert_eq!((counts.queued, counts.judging, counts.done), (0, 0, 0));
        let id = store
            .insert_submission(NewSubmission {
                problem: "nim",
                language: "c",
                source: b"x",
                user_id: None,
            })
            .await
            .expect("insert");
        assert_eq!(store.queue_counts().await.expect("counts").queued, 1);
        assert!(
            store.judging().await.expect("judging").is_empty(),
            "{id} only queued"
        );
    });
}

#[test]
fn an_admin_adds_disables_and_resets_users_from_the_pages() {
    let ws = workspace_with_server("submissions_per_minute = 0");
    let s = Server::start(&ws, 0);
    s.account("ann", true);
    let url = &s.url;
    let ann = sign_in(url, "ann");
    let token = csrf_of(&http("GET", &format!("{url}/admin/users"), Some(&ann), None).body);
    let post = |path: &str, fields: &[(&str, &str)]| {
        let mut all = vec![("csrf", token.as_str())];
        all.extend_from_slice(fields);
        http("POST", &format!("{url}{path}"), Some(&ann), Some(&all))
    };

    let bad = post(
        "/admin/users",
        &[("name", "no spaces"), ("password", PASSWORD)],
    );
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("A name is 1 to 32"), "{}", bad.body);
    let short = post("/admin/users", &[("name", "dan"), ("password", "short")]);
    assert_eq!(short.status, 400);
    let added = post("/admin/users", &[("name", "dan"), ("password", PASSWORD)]);
    assert_eq!(added.status, 303, "{}", added.body);
    let again = post("/admin/users", &[("name", "dan"), ("password", PASSWORD)]);
    assert!(again.body.contains("already a user dan"), "{}", again.body);
    let dan = sign_in(url, "dan");
    assert_eq!(
        http("GET", &format!("{url}/problems"), Some(&dan), None).status,
        200
    );

    let off = post("/admin/users/dan", &[("action", "disable")]);
    assert_eq!(off.status, 303);
    let page = http("GET", &format!("{url}/problems"), Some(&dan), None);
    assert_eq!(page.status, 303, "a disabled user's session stops at once");
    assert_eq!(
        post("/admin/users/dan", &[("action", "enable")]).status,
        303
    );
    let reset = post(
        "/admin/users/dan",
        &[("action", "password"), ("password", "another long one")],
    );
    assert_eq!(reset.status, 303);
    assert_eq!(
        http("GET", &format!("{url}/problems"), Some(&dan), None).status,
        303,
        "a new password ends the old sessions"
    );
    assert_eq!(post("/admin/users/dan", &[("action", "admin")]).status, 303);
    let dan_user =
        s.rt.block_on(s.store.user("dan"))
            .expect("read")
            .expect("dan");
    assert!(dan_user.is_admin && !dan_user.disabled);

    let own = post("/admin/users/ann", &[("action", "disable")]);
    assert_eq!(own.status, 400, "an admin cannot lock themselves out");
    assert_eq!(
        post("/admin/users/nobody", &[("action", "enable")]).status,
        404
    );
    let forged = http(
        "POST",
        &format!("{url}/admin/users/dan"),
        Some(&ann),
        Some(&[("csrf", "nope"), ("action", "disable")]),
    );
    assert_eq!(forged.status, 403);
}

/// A TLE that the wall clock ended (the program slept or waited, its CPU
/// time under the limit) says so on its page, on a secret test too,
/// whose message the contestant does not see; a CPU-time TLE does not.
#[test]
fn a_tle_the_wall_clock_ended_says_so_on_its_page() {
    use grundy::judge::{Report, TestReport};
    use grundy::verdict::Verdict;
    let ws = workspace_with_server("submissions_per_minute = 0");
    let s = Server::start(&ws, 0);
    let bob = s.account("bob", false);
    let report = |message: &str| {
        let test = TestReport {
            name: "big-1".into(),
            group: grundy::problem::Group::secret(),
            verdict: Verdict::TLE,
            time_ms: 947,
            wall_ms: 3000,
            memory_kib: 1234,
            exit_code: None,
            signal: Some(9),
            message: message.into(),
            score: None,
            transcript: None,
        };
        Report {
            verdict: Verdict::TLE,
            score: 0,
            time_ms: 947,
            memory_kib: 1234,
            compile_output: String::new(),
            tests: vec![test],
            groups: Vec::new(),
        }
    };
    let walled = crate::freeze::judged_as(&s, bob, None, &report(grundy::judge::WALL_CLOCK));
    let cpu = crate::freeze::judged_as(&s, bob, None, &report(""));
    let cookie = sign_in(&s.url, "bob");
    let page = |id: i64| {
        let r = http(
            "GET",
            &format!("{}/submissions/{id}", s.url),
            Some(&cookie),
            None,
        );
        assert_eq!(r.status, 200, "{}", r.body);
        r.body
    };
    let walled = page(walled);
    assert!(walled.contains("stopped by the wall clock"), "{walled}");
    assert!(
        !walled.contains(grundy::judge::WALL_CLOCK),
        "the secret test's own message stays the admins'"
    );
    assert!(!page(cpu).contains("wall clock"));
}
