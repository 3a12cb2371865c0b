//! The tests' HTTP client, over `ureq`: every test that talks to a server
//! (the judge's API and pages, a WebDriver) sends through [`send`], so a
//! reply of any status comes back as a reply for the test to read, and no
//! request waits past the agent's bound.

use std::io::Read;
use std::time::Duration;

use serde_json::Value;

/// An agent whose requests end within `timeout`; it follows redirects only
/// where `follow` (the pages' tests look at the redirect itself).
pub fn agent(timeout: Duration, follow: bool) -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(if follow { 10 } else { 0 })
        .timeout_global(Some(timeout))
        .build()
        .into()
}

/// An agent for a stream that stays open (an event feed): no bound on the
/// whole reply, but each read waits at most `per_read`.
pub fn streaming(per_read: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_connect(Some(per_read))
        .timeout_per_read(Some(per_read))
        .build()
        .into()
}

/// What a request carries.
pub enum Body<'a> {
    Empty,
    Json(Value),
    Form(&'a [(&'a str, &'a str)]),
    /// Bytes of this content type (an archive, a multipart form).
    Raw(&'a str, Vec<u8>),
}

/// A reply: its status, its headers (lower-case names, in order) and its
/// body as text (up to 64 MiB).
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    /// The first value of header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON, or the body as a JSON string where it is not JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|_| Value::String(self.body.clone()))
    }
}

/// Sends `method` to `url` with `headers` and `body`, and returns the reply
/// as it streams in (for a feed read line by line); panics naming the
/// request when no reply comes.
pub fn open(
    agent: &ureq::Agent,
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Body<'_>,
) -> ureq::http::Response<ureq::Body> {
    let mut request = ureq::http::Request::builder().method(method).uri(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let (content_type, bytes) = match body {
        // A GET (or DELETE) with nothing to send has no body at all.
        Body::Empty if !matches!(method, "POST" | "PUT" | "PATCH") => {
            let request = request
                .body(())
                .unwrap_or_else(|e| panic!("{method} {url}: {e}"));
            return agent
                .run(request)
                .unwrap_or_else(|e| panic!("{method} {url}: {e}"));
        }
        // A POST with nothing to send says so: `Content-Length: 0`.
        Body::Empty => (None, Vec::new()),
        Body::Json(v) => (Some("application/json"), v.to_string().into_bytes()),
        Body::Raw(content_type, bytes) => (Some(content_type), bytes),
        Body::Form(pairs) => (
            Some("application/x-www-form-urlencoded"),
            url::form_urlencoded::Serializer::new(String::new())
                .extend_pairs(pairs.iter())
                .finish()
                .into_bytes(),
        ),
    };
    if let Some(content_type) = content_type {
        request = request.header("content-type", content_type);
    }
    let request = request
        .body(bytes)
        .unwrap_or_else(|e| panic!("{method} {url}: {e}"));
    agent
        .run(request)
        .unwrap_or_else(|e| panic!("{method} {url}: {e}"))
}

/// [`open`], read whole.
pub fn send(
    agent: &ureq::Agent,
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Body<'_>,
) -> Reply {
    let resp = open(agent, method, url, headers, body);
    let status = resp.status().as_u16();
    let headers = resp
        .headers()
        .iter()
        .map(|(n, v)| {
            (
                n.as_str().to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let mut body = String::new();
    resp.into_body()
        .into_reader()
        .take(64 << 20)
        .read_to_string(&mut body)
        .unwrap_or_else(|e| panic!("{method} {url}: reading the body: {e}"));
    Reply {
        status,
        headers,
        body,
    }
}

/// A GET with a minute's bound, following redirects.
pub fn get(url: &str, headers: &[(&str, &str)]) -> Reply {
    send(
        &agent(Duration::from_secs(60), true),
        "GET",
        url,
        headers,
        Body::Empty,
    )
}

/// The media type of a `content-type` header, without its parameters
/// (`text/html; charset=utf-8` is `text/html`); `text/plain` where there
/// is none, as HTTP reads a body without one.
pub fn mime_type(content_type: Option<&str>) -> String {
    content_type
        .and_then(|v| v.split(';').next())
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .unwrap_or("text/plain")
        .to_string()
}
