//! Secrets of the hosted judge: argon2 password hashes and API tokens.
//! A token is 32 random bytes from the operating system (256 bits) written
//! as `g_` and hex; the store keeps only its SHA-256 hash and its first
//! characters (too few to use, enough to name it when revoking).

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use rand::rand_core::UnwrapErr;
use rand::rngs::SysRng;
use rand::Rng as _;

/// Characters of a token kept in the clear to name it (`g_` and 10 hex
/// digits: 40 bits, far too few to guess the rest from).
pub const PREFIX_LEN: usize = 12;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("hashing the password: {0}")]
    Hash(String),
}

/// The operating system's random source, for every secret grundy makes
/// (salts, tokens, session ids, generated passwords). It fails only on a
/// machine with no random source at all, where nothing secret can be made:
/// then it panics.
pub fn os_rng() -> UnwrapErr<SysRng> {
    UnwrapErr(SysRng)
}

/// An argon2id hash of `password` with a fresh salt, as a PHC string.
///
/// # Errors
/// Only if argon2 itself fails (it does not for valid parameters).
pub fn hash_password(password: &str) -> Result<String, Error> {
    let mut bytes = [0u8; 16];
    os_rng().fill_bytes(&mut bytes);
    let salt = SaltString::encode_b64(&bytes).map_err(|e| Error::Hash(e.to_string()))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| Error::Hash(e.to_string()))
}

/// Whether `password` matches a PHC hash from [`hash_password`].
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}

/// The most live tokens one account may make for itself (on the tokens
/// page or through the API); an admin's `grundy token new` is not bound.
pub const MAX_OWN_TOKENS: usize = 20;

/// A new token: what to give the user, and what to store.
pub struct NewToken {
    pub token: String,
    pub hash: Vec<u8>,
    pub prefix: String,
}

/// Makes a new random token.
pub fn new_token() -> NewToken {
    let mut bytes = [0u8; 32];
    os_rng().fill_bytes(&mut bytes);
    let token = format!("g_{}", crate::digest::hex(&bytes));
    NewToken {
        hash: token_hash(&token),
        prefix: token[..PREFIX_LEN].to_string(),
        token,
    }
}

/// The stored form of a token.
pub fn token_hash(token: &str) -> Vec<u8> {
    crate::digest::sha256_bytes(token.as_bytes()).to_vec()
}

/// Whether `text` has the shape of a whole token (not a prefix).
pub fn looks_like_token(text: &str) -> bool {
    text.len() == 66 && text.starts_with("g_") && text[2..].bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_hash_only() {
        let hash = hash_password("hunter2").unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(verify_password("hunter2", &hash));
        assert!(!verify_password("hunter3", &hash));
        assert!(!verify_password("hunter2", "not a hash"));
    }

    #[test]
    fn tokens_are_new_each_time_and_stored_only_hashed() {
        let a = new_token();
        let b = new_token();
        assert_ne!(a.token, b.token);
        assert!(looks_like_token(&a.token), "{}", a.token);
        assert_eq!(a.hash, token_hash(&a.token));
        assert_eq!(a.hash.len(), 32);
        assert!(a.token.starts_with(&a.prefix));
        assert!(!looks_like_token(&a.prefix));
    }
}
