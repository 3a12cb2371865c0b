//! Who calls the Contest API: an admin, a team (a participant of the
//! contest), or the public; from an API token or HTTP Basic.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use super::ApiError;
use crate::contest::{Contest, Viewer};
use crate::site::policy::Who;
use crate::site::signin::{self, Checked};
use crate::site::AppState;
use crate::store::User;

/// The caller's role.
#[derive(Debug, Clone)]
pub enum Role {
    Admin,
    /// A signed-in account; a team where it takes part in the contest.
    User(User),
    Team(i64),
    Public,
}

impl Role {
    /// The role within contest `c`: an account that does not take part is
    /// the public.
    pub async fn within(self, state: &AppState, c: &Contest) -> Result<Role, ApiError> {
        Ok(match self {
            Role::User(u) if state.store.takes_part(c, u.id).await? => Role::Team(u.id),
            Role::User(_) => Role::Public,
            other => other,
        })
    }

    /// Who the role is to the contest it was taken [`Role::within`], for
    /// the access policy.
    pub fn who(&self) -> Who {
        match self {
            Role::Admin => Who::Admin,
            Role::Team(id) => Who::Participant(*id),
            Role::User(_) | Role::Public => Who::Other,
        }
    }

    pub fn viewer(&self) -> Viewer {
        match self {
            Role::Admin => Viewer::Admin,
            Role::Team(id) => Viewer::Team(*id),
            Role::User(_) | Role::Public => Viewer::Public,
        }
    }
}

impl FromRequestParts<AppState> for Role {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Some(header) = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
        else {
            return Ok(Role::Public);
        };
        let user = if let Some(token) = header.strip_prefix("Bearer ") {
            // Checked on every request: a revoked token or a disabled
            // account is refused at once.
            let hash = crate::auth::token_hash(token.trim());
            state.store.user_for_token(&hash).await?
        } else if let Some(encoded) = header.strip_prefix("Basic ") {
            let (name, password) = basic(encoded.trim()).ok_or_else(ApiError::unauthorized)?;
            // The sign-in form's own check: its throttle, pool and timing.
            let address = parts
                .extensions
                .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
                .map(|c| c.0.ip());
            match signin::check(state, &name, password, address).await? {
                Checked::User(user) => Some(user),
                Checked::Wrong => None,
                Checked::Busy => return Err(ApiError::unavailable()),
                Checked::Throttled(wait) => {
                    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                    return Err(ApiError::new(
                        axum::http::StatusCode::TOO_MANY_REQUESTS,
                        "throttled",
                        format!("too many failed sign-ins for this name or from this address; try again in {seconds} s"),
                    ));
                }
            }
        } else {
            None
        };
        match user {
            Some(u) if !u.disabled && u.is_admin => Ok(Role::Admin),
            Some(u) if !u.disabled => Ok(Role::User(u)),
            _ => Err(ApiError::unauthorized()),
        }
    }
}

/// What a caller signed in with, kept by a long request (an open feed) to
/// check again while it lasts: a revoked token, a disabled account or a
/// changed password ends it.
#[derive(Debug, Clone)]
pub enum Credential {
    Anonymous,
    /// An API token's hash.
    Token(Vec<u8>),
    /// An account's name and its password hash when the request began.
    Password {
        name: String,
        hash: String,
    },
}

impl Credential {
    /// The credential of a request whose [`Role`] was already checked.
    ///
    /// # Errors
    /// Database failures.
    pub async fn of(
        state: &AppState,
        headers: &axum::http::HeaderMap,
    ) -> Result<Credential, ApiError> {
        let header = headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        if let Some(token) = header.strip_prefix("Bearer ") {
            return Ok(Credential::Token(crate::auth::token_hash(token.trim())));
        }
        if let Some((name, _)) = header.strip_prefix("Basic ").and_then(|e| basic(e.trim())) {
            if let Some((_, hash)) = state.store.user_with_password(&name).await? {
                return Ok(Credential::Password { name, hash });
            }
        }
        Ok(Credential::Anonymous)
    }

    /// Whether it still signs in, as the database says now (no cache).
    ///
    /// # Errors
    /// Database failures.
    pub async fn valid(&self, state: &AppState) -> Result<bool, crate::store::Error> {
        Ok(match self {
            Credential::Anonymous => true,
            Credential::Token(hash) => state
                .store
                .user_for_token(hash)
                .await?
                .is_some_and(|u| !u.disabled),
            Credential::Password { name, hash } => state
                .store
                .user_with_password(name)
                .await?
                .is_some_and(|(u, h)| !u.disabled && h == *hash),
        })
    }
}

/// The name and password of an HTTP Basic credential (base64 of
/// `name:password`).
fn basic(encoded: &str) -> Option<(String, String)> {
    let bytes = base64_decode(encoded)?;
    let text = String::from_utf8(bytes).ok()?;
    let (name, password) = text.split_once(':')?;
    Some((name.to_string(), password.to_string()))
}

/// Standard base64 with padding.
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let text = text.as_bytes();
    if !text.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    for chunk in text.chunks(4) {
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 {
            return None;
        }
        let mut n = 0u32;
        for &c in &chunk[..4 - pad] {
            n = n << 6 | value(c)?;
        }
        n <<= 6 * pad as u32;
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn basic_credentials_decode() {
        // "bob:pa:ss" (a colon in the password stays in it).
        assert_eq!(
            super::basic("Ym9iOnBhOnNz"),
            Some(("bob".into(), "pa:ss".into()))
        );
        assert_eq!(super::base64_decode("YQ=="), Some(b"a".to_vec()));
        assert_eq!(super::base64_decode("YWI="), Some(b"ab".to_vec()));
        assert_eq!(super::base64_decode("YW*="), None);
        assert_eq!(super::basic("bm9jb2xvbg=="), None, "no colon");
    }
}
