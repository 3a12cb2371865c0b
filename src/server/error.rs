//! The API's one error: a status and `{"error": {"code", "message"}}`.
//! Internal causes are logged here, where they are converted, and never
//! sent: a reply names no SQL, no path of the server, no stack.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::site::log_internal;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    pub fn bad_request(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub fn unauthorized() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "a valid token is required (Authorization: Bearer TOKEN)",
        )
    }

    pub fn forbidden() -> ApiError {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "only an admin may do this",
        )
    }

    pub fn not_found(what: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", what)
    }

    pub fn unavailable() -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "shutting_down",
            "the judge is shutting down; try again later",
        )
    }

    /// An internal failure: logged with its whole chain, answered generically.
    pub fn internal(err: &(dyn std::error::Error + 'static)) -> ApiError {
        log_internal(err, "internal error");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "an internal error occurred",
        )
    }
}

impl From<crate::bounds::TooLong> for ApiError {
    fn from(e: crate::bounds::TooLong) -> ApiError {
        ApiError::bad_request("too_long", e.to_string())
    }
}

impl From<crate::store::Error> for ApiError {
    /// A change the contest's state does not allow is the caller's
    /// `409 refused`, a field over its bound `400 too_long`, with why;
    /// anything else is internal.
    fn from(e: crate::store::Error) -> ApiError {
        match e {
            e @ crate::store::Error::Refused(..) => {
                ApiError::new(StatusCode::CONFLICT, "refused", e.to_string())
            }
            crate::store::Error::TooLong(e) => e.into(),
            e => ApiError::internal(&e),
        }
    }
}

impl From<tokio::task::JoinError> for ApiError {
    fn from(e: tokio::task::JoinError) -> ApiError {
        ApiError::internal(&e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": {"code": self.code, "message": self.message}});
        (self.status, Json(body)).into_response()
    }
}
