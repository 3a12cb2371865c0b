//! Templates (compiled into the binary, auto-escaped) and the pages' one
//! error: a status shown as a page in the site's style. Internal causes are
//! logged where they are converted and never shown.

use std::sync::OnceLock;

use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use minijinja::{context, Environment, Value};

use crate::store::WebSession;

/// The templates, each compiled in with `include_str!`.
const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("templates/base.html")),
    ("error.html", include_str!("templates/error.html")),
    ("signin.html", include_str!("templates/signin.html")),
    ("tokens.html", include_str!("templates/tokens.html")),
    (
        "admin_tokens.html",
        include_str!("templates/admin_tokens.html"),
    ),
    ("problems.html", include_str!("templates/problems.html")),
    ("problem.html", include_str!("templates/problem.html")),
    ("list.html", include_str!("templates/list.html")),
    ("submission.html", include_str!("templates/submission.html")),
    ("results.html", include_str!("templates/results.html")),
    ("source.html", include_str!("templates/source.html")),
    ("contests.html", include_str!("templates/contests.html")),
    ("contest.html", include_str!("templates/contest.html")),
    (
        "contest_head.html",
        include_str!("templates/contest_head.html"),
    ),
    (
        "contest_board.html",
        include_str!("templates/contest_board.html"),
    ),
    (
        "contest_board_row.html",
        include_str!("templates/contest_board_row.html"),
    ),
    (
        "contest_live.html",
        include_str!("templates/contest_live.html"),
    ),
    ("scoreboard.html", include_str!("templates/scoreboard.html")),
    (
        "contest_settings.html",
        include_str!("templates/contest_settings.html"),
    ),
    (
        "admin_contests.html",
        include_str!("templates/admin_contests.html"),
    ),
    (
        "admin_contest.html",
        include_str!("templates/admin_contest.html"),
    ),
    (
        "admin_shadow.html",
        include_str!("templates/admin_shadow.html"),
    ),
    (
        "admin_users.html",
        include_str!("templates/admin_users.html"),
    ),
    (
        "admin_queue.html",
        include_str!("templates/admin_queue.html"),
    ),
    (
        "admin_problems.html",
        include_str!("templates/admin_problems.html"),
    ),
];

fn env() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        for (name, text) in TEMPLATES {
            // The templates are part of the binary and covered by the
            // tests, which render every one; a broken one is a build bug.
            if let Err(e) = env.add_template(name, text) {
                tracing::error!(template = name, error = %e, "template does not compile");
            }
        }
        env
    })
}

/// What every page's frame shows about the visitor.
pub fn me(session: Option<&WebSession>) -> Value {
    match session {
        Some(s) => context! {
            name => s.user.name.clone(),
            is_admin => s.user.is_admin,
            csrf => s.csrf.clone(),
        },
        None => Value::from(()),
    }
}

/// Renders a template with `ctx`.
///
/// # Errors
/// A template failure, as an internal error.
pub fn render(name: &str, ctx: Value) -> Result<Html<String>, PageError> {
    let tmpl = env()
        .get_template(name)
        .map_err(|e| PageError::internal(&e))?;
    tmpl.render(ctx)
        .map(Html)
        .map_err(|e| PageError::internal(&e))
}

/// A page's failure.
#[derive(Debug)]
pub enum PageError {
    /// Not signed in: to the sign-in page, then back to this path.
    SignIn(String),
    /// Shown as an error page.
    Status {
        status: StatusCode,
        title: &'static str,
        message: String,
    },
}

impl PageError {
    pub fn status(status: StatusCode, title: &'static str, message: impl Into<String>) -> Self {
        PageError::Status {
            status,
            title,
            message: message.into(),
        }
    }

    pub fn not_found() -> Self {
        PageError::status(
            StatusCode::NOT_FOUND,
            "Not found",
            "There is no such page here. It may have moved, or never existed.",
        )
    }

    pub fn forbidden() -> Self {
        PageError::status(
            StatusCode::FORBIDDEN,
            "Not allowed",
            "Only an admin may open this page or do this.",
        )
    }

    pub fn expired_form() -> Self {
        PageError::status(
            StatusCode::FORBIDDEN,
            "Form expired",
            "This form was not sent from this site's page, or your session changed since it was \
             shown. Go back, reload the page and try again.",
        )
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        PageError::status(StatusCode::BAD_REQUEST, "Bad request", message)
    }

    /// An internal failure: logged with its chain, shown generically.
    pub fn internal(err: &(dyn std::error::Error + 'static)) -> Self {
        crate::site::log_internal(err, "internal error on a page");
        PageError::status(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Something went wrong",
            "The judge failed to show this page. The failure is logged; try again in a moment.",
        )
    }
}

impl From<crate::store::Error> for PageError {
    /// A change the contest's state does not allow, or a field over its
    /// bound, is a bad request, with why; anything else is internal.
    fn from(e: crate::store::Error) -> Self {
        match e {
            e @ crate::store::Error::Refused(..) => PageError::bad_request(e.to_string()),
            crate::store::Error::TooLong(e) => PageError::bad_request(e.to_string()),
            e => PageError::internal(&e),
        }
    }
}

impl From<tokio::task::JoinError> for PageError {
    fn from(e: tokio::task::JoinError) -> Self {
        PageError::internal(&e)
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        match self {
            PageError::SignIn(next) => {
                let to = format!("/signin?next={}", percent_encode(&next));
                Redirect::to(&to).into_response()
            }
            PageError::Status {
                status,
                title,
                message,
            } => {
                // The error page does not know the visitor: its frame shows
                // neither a name nor a sign-in button.
                let ctx = context! { title, message, status => status.as_u16(), me => (), neutral => true };
                match render("error.html", ctx) {
                    Ok(html) => (status, html).into_response(),
                    // The error page itself failed: a bare line, still no internals.
                    Err(_) => (
                        status,
                        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                        format!("{} {title}\n", status.as_u16()),
                    )
                        .into_response(),
                }
            }
        }
    }
}

/// Percent-encodes everything but unreserved characters and `/`.
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `Query` whose rejection is a page in the site's style (400), not
/// axum's plain text.
pub struct PageQuery<T>(pub T);

impl<T: serde::de::DeserializeOwned, S: Send + Sync> axum::extract::FromRequestParts<S>
    for PageQuery<T>
{
    type Rejection = PageError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, PageError> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Query(v)| PageQuery(v))
            .map_err(|_| PageError::bad_request("The address's query string does not make sense."))
    }
}

/// `Path` whose rejection is a page in the site's style (a path that does
/// not decode names nothing: 404).
pub struct PagePath<T>(pub T);

impl<T: serde::de::DeserializeOwned + Send, S: Send + Sync> axum::extract::FromRequestParts<S>
    for PagePath<T>
{
    type Rejection = PageError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, PageError> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(v)| PagePath(v))
            .map_err(|_| PageError::not_found())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_compiles() {
        let mut fresh = Environment::new();
        for (name, text) in TEMPLATES {
            fresh
                .add_template(name, text)
                .unwrap_or_else(|e| panic!("{name}: {e:#}"));
        }
        for (name, _) in TEMPLATES {
            env()
                .get_template(name)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    #[test]
    fn results_show_groups_with_their_points_and_skips() {
        let groups = vec![
            context! { name => "small", points => 40, score => 40, verdict => "AC", skipped => false },
            context! { name => "large", points => 60, score => 0, verdict => (), skipped => true },
        ];
        let html = render(
            "results.html",
            context! { id => 1, status => "done", verdict => "WA", tests => Vec::<String>::new(),
            rows => Vec::<Value>::new(), groups, chart => "" },
        )
        .expect("render")
        .0;
        assert!(
            html.contains("40 / 40") && html.contains("0 / 60"),
            "{html}"
        );
        assert!(html.contains(">skipped<"), "{html}");
    }

    #[test]
    fn error_pages_escape_and_keep_the_status() {
        let r = PageError::bad_request("<b>no</b>").into_response();
        assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    }

    #[test]
    fn sign_in_redirect_keeps_the_path_encoded() {
        assert_eq!(
            percent_encode("/submissions?problem=nim&x=1"),
            "/submissions%3Fproblem%3Dnim%26x%3D1"
        );
    }
}
