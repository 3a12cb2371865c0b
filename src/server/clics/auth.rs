//! Who calls the Contest API: an admin, a team (a participant of the
//! contest), or the public; from an API token or HTTP Basic.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use super::ApiError;
use crate::contest::{Contest, Viewer};
use crate::site::place::Place;
use crate::site::policy::Who;
use crate::site::signin::{self, Checked, Credential};
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
        Ok(Signed::from_request_parts(parts, state).await?.role)
    }
}

/// The caller's [`Role`] with the [`Credential`] it signed in with, for a
/// request that lasts (an open feed) and checks it again with
/// [`signin::holder`], the check that signed it in.
pub struct Signed {
    pub role: Role,
    pub credential: Credential,
}

impl FromRequestParts<AppState> for Signed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Some(header) = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
        else {
            return Ok(Signed {
                role: Role::Public,
                credential: Credential::Anonymous,
            });
        };
        let signed = if let Some(token) = header.strip_prefix("Bearer ") {
            // Checked on every request: a revoked token or a disabled
            // account is refused at once.
            let credential = Credential::token(token);
            signin::holder(&state.store, &credential)
                .await?
                .map(|u| (u, credential))
        } else if header.starts_with("Basic ") {
            let (name, password) =
                signin::basic_credentials(header).ok_or_else(ApiError::unauthorized)?;
            // The sign-in form's own check: its throttle, pool and timing.
            let address = Place::of_request(&parts.extensions);
            match signin::check(state, &name, password, address).await? {
                Checked::User(user, credential) => Some((user, credential)),
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
        // `holder` answers enabled accounts only.
        match signed {
            Some((u, credential)) => Ok(Signed {
                role: if u.is_admin {
                    Role::Admin
                } else {
                    Role::User(u)
                },
                credential,
            }),
            None => Err(ApiError::unauthorized()),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::site::signin::basic_credentials;

    #[test]
    fn basic_credentials_decode() {
        // "bob:pa:ss" (a colon in the password stays in it).
        assert_eq!(
            basic_credentials("Basic Ym9iOnBhOnNz"),
            Some(("bob".into(), "pa:ss".into()))
        );
        // " boss2:pw": the name as sent, its blank kept.
        assert_eq!(
            basic_credentials("Basic IGJvc3MyOnB3"),
            Some((" boss2".into(), "pw".into()))
        );
        assert_eq!(basic_credentials("Basic YW*="), None);
        assert_eq!(basic_credentials("Basic bm9jb2xvbg=="), None, "no colon");
        assert_eq!(basic_credentials("Bearer Ym9iOnBhOnNz"), None);
    }
}
