//! Content hashes, the keys of the program cache and of test data: SHA-256
//! over length-prefixed fields (so `("ab", "c")` and `("a", "bc")` differ),
//! written as lower-case hex.

use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

/// A hash built field by field; each field is its length (8 bytes, little
/// endian) then its bytes.
#[derive(Default)]
pub struct Fields(Sha256);

impl Fields {
    pub fn new() -> Fields {
        Fields::default()
    }

    /// Adds one field.
    pub fn field(&mut self, bytes: &[u8]) -> &mut Fields {
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }

    /// The hash, in hex.
    pub fn finish(self) -> String {
        hex(&self.0.finalize())
    }
}

/// SHA-256 of `bytes`, in hex.
pub fn sha256(bytes: &[u8]) -> String {
    hex(&sha256_bytes(bytes))
}

/// SHA-256 of `bytes`, the 32 bytes themselves (as a database keeps them).
pub fn sha256_bytes(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// SHA-256 and length of a file, streamed.
///
/// # Errors
/// When the file cannot be read.
pub fn sha256_file(path: &Path) -> std::io::Result<(String, u64)> {
    let mut f = std::fs::File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut total = 0u64;
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
        total += n as u64;
    }
    Ok((hex(&h.finalize()), total))
}

/// Lower-case hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_boundaries_change_the_hash() {
        let mut a = Fields::new();
        a.field(b"ab").field(b"c");
        let mut b = Fields::new();
        b.field(b"a").field(b"bc");
        assert_ne!(a.finish(), b.finish());
    }

    #[test]
    fn hex_is_lower_case_and_two_digits_per_byte() {
        assert_eq!(hex(&[0x00, 0x0f, 0xa0, 0xff]), "000fa0ff");
    }

    #[test]
    fn sha256_of_nothing_is_the_known_value() {
        assert_eq!(
            sha256(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
