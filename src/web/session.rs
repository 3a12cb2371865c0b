//! Who is looking at a page: the session cookie, the CSRF token of its
//! forms, and the extractors that send a visitor to sign in or refuse a
//! non-admin.
//!
//! The cookie carries 32 random bytes (hex); the store keeps only their
//! SHA-256 hash, with a CSRF token of the session's own that every form
//! posts back. The sign-in form, before any session exists, is guarded by
//! a double-submitted random value: a cookie set with the form, and the
//! same value in the form.

use axum::extract::FromRequestParts;
use axum::http::header::COOKIE;
use axum::http::request::Parts;
use axum::http::HeaderMap;
use rand::Rng as _;

use super::render::PageError;
use crate::auth;
use crate::site::AppState;
use crate::store::WebSession;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "grundy_session";
/// The sign-in form's double-submit cookie.
pub const SIGNIN_COOKIE: &str = "grundy_signin";
/// How long a session lasts (14 days).
pub const SESSION_TTL_S: i64 = 14 * 24 * 3600;

/// 32 random bytes from the operating system, as hex.
pub fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    crate::auth::os_rng().fill_bytes(&mut bytes);
    crate::digest::hex(&bytes)
}

/// A cookie's value from the request's `Cookie` headers.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// A `Set-Cookie` value: HttpOnly, SameSite, whole site; `max_age` 0
/// deletes it.
pub fn set_cookie(name: &str, value: &str, max_age: i64, same_site: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{name}={value}; Path=/; Max-Age={max_age}; HttpOnly; SameSite={same_site}{secure}")
}

/// Whether two secrets are equal, in time independent of where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Refuses a form whose CSRF token is not the session's.
///
/// # Errors
/// [`PageError`] 403 when the token is missing or wrong.
pub fn check_csrf(session: &WebSession, given: &str) -> Result<(), PageError> {
    if same_secret(&session.csrf, given) {
        Ok(())
    } else {
        Err(PageError::expired_form())
    }
}

/// The visitor's session, if signed in.
pub struct Viewer(pub Option<WebSession>);

impl FromRequestParts<AppState> for Viewer {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, PageError> {
        Ok(Viewer(current(state, &parts.headers).await?))
    }
}

/// The session `headers` carry, as the database says now: `None` without
/// a session cookie, or once the session ended or its account was
/// disabled. A request held open (a live part) asks again as it waits.
///
/// # Errors
/// Database failures.
pub async fn current(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<Option<WebSession>, PageError> {
    let Some(secret) = cookie(headers, SESSION_COOKIE) else {
        return Ok(None);
    };
    Ok(state.store.session(&auth::token_hash(&secret)).await?)
}

/// A signed-in visitor; anyone else is sent to sign in, and back here after.
pub struct Signed(pub WebSession);

impl FromRequestParts<AppState> for Signed {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, PageError> {
        match Viewer::from_request_parts(parts, state).await?.0 {
            Some(s) => Ok(Signed(s)),
            None => {
                let next = parts
                    .uri
                    .path_and_query()
                    .map_or("/", |p| p.as_str())
                    .to_string();
                Err(PageError::SignIn(next))
            }
        }
    }
}

/// A signed-in admin; a signed-in contestant gets 403.
pub struct Admin(pub WebSession);

impl FromRequestParts<AppState> for Admin {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, PageError> {
        let Signed(s) = Signed::from_request_parts(parts, state).await?;
        if s.user.is_admin {
            Ok(Admin(s))
        } else {
            Err(PageError::forbidden())
        }
    }
}

/// Where to go after signing in: a path of this site only, so the
/// parameter cannot send anyone away. `next` is resolved against the
/// site's own origin as a browser would resolve it (which drops tabs and
/// newlines and reads a backslash as `/`), and kept only if the result stays on
/// that origin; what is kept is the parsed path and query, which are
/// always valid in a `Location` header.
pub fn safe_next(next: Option<&str>) -> String {
    const HOME: &str = "/problems";
    // The origin is a stand-in: only "the same as the base" matters.
    let Ok(base) = url::Url::parse("http://grundy.invalid/") else {
        return HOME.to_string();
    };
    let Some(next) = next.filter(|n| n.starts_with('/')) else {
        return HOME.to_string();
    };
    // A browser would silently drop or reinterpret these; refuse them
    // rather than guess the same way.
    if next
        .chars()
        .any(|c| c.is_control() || c.is_whitespace() || c == '\\')
    {
        return HOME.to_string();
    }
    match base.join(next) {
        Ok(url) if url.origin() == base.origin() && url.username().is_empty() => {
            let mut out = url.path().to_string();
            if let Some(q) = url.query() {
                out.push('?');
                out.push_str(q);
            }
            out
        }
        _ => HOME.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_found_among_others() {
        let mut h = HeaderMap::new();
        h.append(COOKIE, "a=1; grundy_session=abc".parse().unwrap());
        h.append(COOKIE, "b=2".parse().unwrap());
        assert_eq!(cookie(&h, SESSION_COOKIE).as_deref(), Some("abc"));
        assert_eq!(cookie(&h, "b").as_deref(), Some("2"));
        assert_eq!(cookie(&h, "c"), None);
    }

    #[test]
    fn session_cookie_flags() {
        let c = set_cookie(SESSION_COOKIE, "x", 60, "Lax", true);
        assert_eq!(
            c,
            "grundy_session=x; Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure"
        );
        assert!(!set_cookie(SESSION_COOKIE, "x", 60, "Lax", false).contains("Secure"));
    }

    #[test]
    fn only_local_paths_are_followed_after_sign_in() {
        assert_eq!(safe_next(Some("/problems/nim")), "/problems/nim");
        assert_eq!(safe_next(Some("//evil.example")), "/problems");
        assert_eq!(safe_next(Some("https://evil.example")), "/problems");
        assert_eq!(safe_next(Some("/\\evil.example")), "/problems");
        assert_eq!(safe_next(None), "/problems");
        assert_eq!(
            safe_next(Some("/submissions?before=3")),
            "/submissions?before=3"
        );
        for evil in [
            "/\t/evil.example",
            "/\n/evil.example",
            "\\\\evil.example",
            "/\\evil.example",
            "/\r\nSet-Cookie: x=1",
            "/a\x0cb",
            "/a\x7fb",
            "https://evil.example/",
            "javascript:alert(1)",
            "///evil.example",
            "",
        ] {
            assert_eq!(safe_next(Some(evil)), "/problems", "{evil:?}");
        }
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "ab"));
        assert!(!same_secret("", "a"));
    }
}
