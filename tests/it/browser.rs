//! A headless Chromium driven over WebDriver (chromedriver), for the
//! tests that walk through the pages as people do (`web`, `contest_web`).
//! Where Chromium or its driver is missing a test is skipped with one line
//! naming what to install (a failure under `GRUNDY_REQUIRE_ALL=1`).

use std::net::TcpListener as StdListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{json, Value};

use crate::helpers::{repo, require, runnable};
use crate::web::PASSWORD;

/// A headless Chromium under a chromedriver started on a free port.
pub(crate) struct Browser {
    driver: Child,
    base: String,
    session: String,
    shots: PathBuf,
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

fn free_port() -> u16 {
    StdListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Browser {
    /// `None` where Chromium or its driver is missing: the test is then
    /// skipped, with one line saying what to install (a failure under
    /// `GRUNDY_REQUIRE_ALL=1`).
    pub(crate) fn start() -> Option<Browser> {
        let driver = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
            .into_iter()
            .find(|p| runnable(std::path::Path::new(p)));
        let chromium = ["/usr/bin/chromium", "/usr/lib/chromium/chromium"]
            .into_iter()
            .find(|p| runnable(std::path::Path::new(p)));
        let (Some(driver), Some(chromium)) = (driver, chromium) else {
            require(
                &["/usr/bin/chromium", "/usr/bin/chromedriver"],
                "apt-get install chromium chromium-driver",
            );
            return None;
        };
        let port = free_port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let base = format!("http://127.0.0.1:{port}");
        let mut browser = Browser {
            driver: child,
            base,
            session: String::new(),
            shots: repo().join("target").join("screenshots"),
        };
        let started = Instant::now();
        let probe = crate::http::agent(Duration::from_secs(5), false);
        while probe
            .get(&format!("{}/status", browser.base))
            .call()
            .is_err()
        {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                         "--disable-gpu", "--window-size=1280,900", "--lang=en-US"]
            },
            "timeouts": {"pageLoad": 300_000, "script": 60_000, "implicit": 0}
        }}});
        let v = browser.raw("POST", "/session", Some(caps));
        browser.session = v["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"))
            .to_string();
        std::fs::create_dir_all(&browser.shots).expect("screenshot directory");
        Some(browser)
    }

    /// A WebDriver command; returns its `value`.
    pub(crate) fn raw(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let agent = crate::http::agent(Duration::from_secs(330), true);
        let body = match body {
            Some(b) => crate::http::Body::Json(b),
            None => crate::http::Body::Empty,
        };
        let url = format!("{}{path}", self.base);
        let resp = crate::http::send(&agent, method, &url, &[], body);
        let v: Value = serde_json::from_str(&resp.body)
            .unwrap_or_else(|e| panic!("webdriver {method} {path}: {e}: {}", resp.body));
        v["value"].clone()
    }

    pub(crate) fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let v = self.raw(method, &format!("/session/{}{path}", self.session), body);
        if let Some(e) = v.get("error") {
            panic!("webdriver {method} {path}: {e} {}", v["message"]);
        }
        v
    }

    pub(crate) fn goto(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({"url": url})));
    }

    pub(crate) fn url(&self) -> String {
        self.cmd("GET", "/url", None)
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    pub(crate) fn try_find(&self, css: &str) -> Option<String> {
        let v = self.raw(
            "POST",
            &format!("/session/{}/element", self.session),
            Some(json!({"using": "css selector", "value": css})),
        );
        v[ELEMENT].as_str().map(str::to_string)
    }

    pub(crate) fn find(&self, css: &str) -> String {
        self.try_find(css)
            .unwrap_or_else(|| panic!("no element {css} on {}", self.url()))
    }

    pub(crate) fn click(&self, css: &str) {
        let e = self.find(css);
        self.cmd("POST", &format!("/element/{e}/click"), Some(json!({})));
    }

    pub(crate) fn type_into(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.cmd("POST", &format!("/element/{e}/clear"), Some(json!({})));
        self.cmd(
            "POST",
            &format!("/element/{e}/value"),
            Some(json!({"text": text})),
        );
    }

    /// An element's rendered text, read in one step in the page (the live
    /// results replace their elements; a held reference could go stale).
    pub(crate) fn text(&self, css: &str) -> String {
        self.try_text(css)
            .unwrap_or_else(|| panic!("no element {css} on {}", self.url()))
    }

    pub(crate) fn try_text(&self, css: &str) -> Option<String> {
        let v = self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({
                "script": "const e = document.querySelector(arguments[0]); return e ? e.innerText : null;",
                "args": [css]
            })),
        );
        v.as_str().map(str::to_string)
    }

    pub(crate) fn script(&self, js: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": js, "args": []})),
        )
    }

    pub(crate) fn resize(&self, width: u32, height: u32) {
        self.cmd(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        );
    }

    /// Saves a screenshot as `target/screenshots/NAME.png`.
    pub(crate) fn shot(&self, name: &str) {
        let data = self.cmd("GET", "/screenshot", None);
        let png = base64::engine::general_purpose::STANDARD
            .decode(data.as_str().expect("base64"))
            .expect("a PNG");
        std::fs::write(self.shots.join(format!("{name}.png")), png).expect("write screenshot");
    }

    /// Polls `cond` every 200 ms until it holds; panics naming `what` after
    /// `limit`.
    pub(crate) fn wait_for(&self, what: &str, limit: Duration, cond: impl Fn(&Browser) -> bool) {
        let started = Instant::now();
        while !cond(self) {
            assert!(
                started.elapsed() < limit,
                "timed out waiting for {what} on {}",
                self.url()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    pub(crate) fn sign_in(&self, url: &str, name: &str) {
        self.goto(&format!("{url}/signin"));
        self.type_into("#name", name);
        self.type_into("#password", PASSWORD);
        self.click("#signin");
        self.wait_for("signed in", Duration::from_secs(60), |b| {
            b.try_find("#whoami").is_some()
        });
        assert_eq!(self.text("#whoami"), name);
    }

    pub(crate) fn sign_out(&self) {
        self.click("#signout");
        self.wait_for("signed out", Duration::from_secs(60), |b| {
            b.url().contains("/signin")
        });
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.raw("DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

impl Browser {
    /// Runs `js` in the page with `args` (as `arguments[0]`, ...); returns
    /// its value.
    pub(crate) fn script_with(&self, js: &str, args: &[Value]) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": js, "args": args})),
        )
    }
}
