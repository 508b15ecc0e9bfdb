//! Passwords and tokens: Argon2id hashes (the PHC string format), random
//! session tokens and generated passwords from the system's random
//! source, and a cache of credentials already verified, so that the Contest
//! API's basic authentication (a password on every request) costs one
//! Argon2 run per login, not per request. The main type is [`Verifier`].

use std::collections::HashMap;
use std::sync::Mutex;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

/// Random bytes from the system.
fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).expect("the system's random source works");
    bytes
}

/// The Argon2id hash of `password`, with a random salt.
pub(crate) fn hash_password(password: &str) -> String {
    let salt = SaltString::encode_b64(&random_bytes::<16>()).expect("16 bytes make a salt");
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .expect("argon2 hashes any password")
        .to_string()
}

/// Whether `hash` (a PHC string) is a valid Argon2 hash.
pub(crate) fn is_valid_hash(hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| h.algorithm.as_str().starts_with("argon2"))
}

/// Whether `password` matches `hash`.
pub(crate) fn verify_password(password: &str, hash: &str) -> bool {
    match PasswordHash::new(hash) {
        Ok(parsed) => Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

/// A random token (session cookies, form tokens): 32 bytes, hex.
pub(crate) fn random_token() -> String {
    random_bytes::<32>()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What a session token is stored as.
pub(crate) fn token_hash(token: &str) -> String {
    blake3::hash(token.as_bytes()).to_hex().to_string()
}

/// A password to hand out: 12 letters and digits that cannot be misread
/// (no 0/O, 1/l/I), about 70 bits.
pub(crate) fn generate_password() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzACDEFGHJKLMNPQRSTUVWXYZ23456789";
    random_bytes::<12>()
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect()
}

/// Checks passwords against the accounts' hashes, remembering (as a keyed
/// hash, in memory only) the last password of each account that matched.
#[derive(Debug)]
pub(crate) struct Verifier {
    key: [u8; 32],
    hashes: HashMap<String, String>,
    verified: Mutex<HashMap<String, [u8; 32]>>,
}

impl Verifier {
    /// A verifier of these accounts: (login, Argon2 hash).
    pub(crate) fn new(accounts: impl IntoIterator<Item = (String, String)>) -> Verifier {
        Verifier {
            key: random_bytes::<32>(),
            hashes: accounts.into_iter().collect(),
            verified: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `password` is `login`'s.
    pub(crate) fn check(&self, login: &str, password: &str) -> bool {
        let Some(hash) = self.hashes.get(login) else {
            // As slow as a wrong password, so logins cannot be probed.
            let _ = verify_password(password, DUMMY_HASH);
            return false;
        };
        let keyed = *blake3::keyed_hash(&self.key, password.as_bytes()).as_bytes();
        let known = self.verified.lock().expect("not poisoned").get(login) == Some(&keyed);
        if known {
            return true;
        }
        let ok = verify_password(password, hash);
        if ok {
            self.verified
                .lock()
                .expect("not poisoned")
                .insert(login.to_string(), keyed);
        }
        ok
    }
}

/// A hash of nothing anyone knows, verified against for unknown logins.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$0lAPFvb5mwHBbSqmi2ESVbMZf2Lh2bTSOgJ3c7LmjYk";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_hash_only() {
        let hash = hash_password("correct horse");
        assert!(hash.starts_with("$argon2id$"));
        assert!(is_valid_hash(&hash));
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("correct horse ", &hash));
        assert!(!verify_password("x", "not a hash"));
        let verifier = Verifier::new([("t1".to_string(), hash)]);
        assert!(verifier.check("t1", "correct horse"));
        assert!(verifier.check("t1", "correct horse"));
        assert!(!verifier.check("t1", "wrong"));
        assert!(!verifier.check("t2", "correct horse"));
    }

    #[test]
    fn generated_passwords_and_tokens_differ() {
        let (a, b) = (generate_password(), generate_password());
        assert_eq!(a.len(), 12);
        assert_ne!(a, b);
        assert_eq!(random_token().len(), 64);
        assert_ne!(random_token(), random_token());
    }
}
