//! Passwords and tokens: Argon2id hashes (the PHC string format), random
//! session tokens and generated passwords from the system's random
//! source, and a cache of credentials already verified, so that the Contest
//! API's basic authentication (a password on every request) costs one
//! Argon2 run per login, not per request. The main types are [`Argon`] and
//! [`Verifier`].

use std::collections::HashMap;
use std::sync::Mutex;

use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};

/// The most memory a hash may ask for (a `password_hash` from elsewhere):
/// 64 MiB, in Argon2's 1 KiB blocks.
const MAX_BLOCKS: u32 = 64 * 1024;
/// The most passes a hash may ask for (the default is 2): a hash with a
/// time cost in the millions would hang every login.
const MAX_PASSES: u32 = 16;
/// The most lanes a hash may ask for.
const MAX_LANES: u32 = 8;

/// Whether a hash's parameters are within what this server runs.
fn bounded(params: &Params) -> bool {
    params.m_cost() <= MAX_BLOCKS && params.t_cost() <= MAX_PASSES && params.p_cost() <= MAX_LANES
}

/// Argon2 with two blocks of memory (two hashes at once, one per core of a
/// small server) reused for every hash: a long-running server does not
/// grow by 19 MiB per thread that ever checked a password (the allocator
/// keeps freed blocks of that size in each thread's arena).
#[derive(Debug, Default)]
pub(crate) struct Argon {
    memory: [Mutex<Vec<Block>>; 2],
}

impl Argon {
    fn run(
        &self,
        algorithm: Algorithm,
        version: Version,
        params: Params,
        password: &str,
        salt: &[u8],
        out: &mut [u8],
    ) -> bool {
        let blocks = params.block_count();
        // The free one, else wait for the first.
        let mut memory = match self.memory[1].try_lock() {
            Ok(m) => m,
            Err(_) => self.memory[0].lock().expect("not poisoned"),
        };
        if memory.len() < blocks {
            memory.resize(blocks, Block::default());
        }
        Argon2::new(algorithm, version, params)
            .hash_password_into_with_memory(password.as_bytes(), salt, out, &mut memory[..blocks])
            .is_ok()
    }

    /// The Argon2id hash of `password` (the PHC string), with a random salt.
    pub(crate) fn hash(&self, password: &str) -> String {
        self.hash_with_salt(password, random_bytes::<16>())
    }

    /// The Argon2id hash of a password contest.toml holds in clear, the
    /// same at every start (its salt is made from the login and the
    /// password): the keys made from the hashes (sessions' form tokens,
    /// the feed's tokens) then survive a restart, and change with the
    /// password.
    pub(crate) fn hash_of_clear(&self, login: &str, password: &str) -> String {
        let mut hasher = blake3::Hasher::new_derive_key("judge serve clear password salt v1");
        hasher.update(login.as_bytes());
        hasher.update(&[0]);
        hasher.update(password.as_bytes());
        let mut salt = [0u8; 16];
        salt.copy_from_slice(&hasher.finalize().as_bytes()[..16]);
        self.hash_with_salt(password, salt)
    }

    fn hash_with_salt(&self, password: &str, salt: [u8; 16]) -> String {
        let params = Params::DEFAULT;
        let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
        assert!(
            self.run(
                Algorithm::Argon2id,
                Version::V0x13,
                params.clone(),
                password,
                &salt,
                &mut out
            ),
            "argon2 hashes any password"
        );
        let salt = SaltString::encode_b64(&salt).expect("16 bytes make a salt");
        let hash = PasswordHash {
            algorithm: Algorithm::Argon2id.ident(),
            version: Some(Version::V0x13.into()),
            params: ParamsString::try_from(&params).expect("the default parameters"),
            salt: Some(salt.as_salt()),
            hash: Some(Output::new(&out).expect("a 32-byte output")),
        };
        hash.to_string()
    }

    /// Whether `password` matches `hash` (a PHC string of Argon2).
    pub(crate) fn verify(&self, password: &str, hash: &str) -> bool {
        let Ok(parsed) = PasswordHash::new(hash) else {
            return false;
        };
        let (Ok(algorithm), Ok(params)) = (
            Algorithm::try_from(parsed.algorithm),
            Params::try_from(&parsed),
        ) else {
            return false;
        };
        if !bounded(&params) {
            return false;
        }
        let version = parsed
            .version
            .and_then(|v| Version::try_from(v).ok())
            .unwrap_or(Version::V0x13);
        let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
            return false;
        };
        let mut salt_bytes = [0u8; 64];
        let Ok(salt) = salt.decode_b64(&mut salt_bytes) else {
            return false;
        };
        let mut out = vec![0u8; expected.len()];
        if !self.run(algorithm, version, params, password, salt, &mut out) {
            return false;
        }
        let expected = expected.as_bytes();
        out.len() == expected.len()
            && out
                .iter()
                .zip(expected)
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    }
}

/// Random bytes from the system.
fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).expect("the system's random source works");
    bytes
}

/// Whether `hash` (a PHC string) is a valid Argon2 hash this server checks
/// (its memory at most 64 MiB, at most 16 passes and 8 lanes).
pub(crate) fn is_valid_hash(hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| {
        Algorithm::try_from(h.algorithm).is_ok() && Params::try_from(&h).is_ok_and(|p| bounded(&p))
    })
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
    argon: Argon,
}

impl Verifier {
    /// A verifier of these accounts: (login, Argon2 hash).
    pub(crate) fn new(
        argon: Argon,
        accounts: impl IntoIterator<Item = (String, String)>,
    ) -> Verifier {
        Verifier {
            key: random_bytes::<32>(),
            hashes: accounts.into_iter().collect(),
            verified: Mutex::new(HashMap::new()),
            argon,
        }
    }

    /// A key for `purpose` that stays the same while the accounts'
    /// hashes do (across restarts) and that only the holder of
    /// contest.toml's hashes can make.
    pub(crate) fn derived_key(&self, purpose: &str) -> [u8; 32] {
        let mut logins: Vec<&String> = self.hashes.keys().collect();
        logins.sort();
        let mut material = Vec::new();
        for login in logins {
            material.extend_from_slice(login.as_bytes());
            material.push(0);
            material.extend_from_slice(self.hashes[login].as_bytes());
            material.push(0);
        }
        blake3::derive_key(purpose, &material)
    }

    /// The form token of a session of `login` with cookie `token`, bound
    /// to the account's password hash: when contest.toml gives the
    /// account a new password, its sessions' tokens no longer match and
    /// the sessions end. `None` for an unknown login.
    pub(crate) fn session_tag(&self, login: &str, token: &str) -> Option<String> {
        let hash = self.hashes.get(login)?;
        let key = blake3::derive_key("judge serve session v1", hash.as_bytes());
        Some(
            blake3::keyed_hash(&key, token.as_bytes())
                .to_hex()
                .to_string(),
        )
    }

    /// Whether `password` is `login`'s, known without running Argon2 (it
    /// matched before).
    pub(crate) fn known(&self, login: &str, password: &str) -> bool {
        let keyed = *blake3::keyed_hash(&self.key, password.as_bytes()).as_bytes();
        self.verified.lock().expect("not poisoned").get(login) == Some(&keyed)
    }

    /// Whether `password` is `login`'s (tens of milliseconds of Argon2 the
    /// first time: call it where blocking is allowed).
    pub(crate) fn check(&self, login: &str, password: &str) -> bool {
        let Some(hash) = self.hashes.get(login) else {
            // As slow as a wrong password, so logins cannot be probed.
            let _ = self.argon.verify(password, DUMMY_HASH);
            return false;
        };
        let keyed = *blake3::keyed_hash(&self.key, password.as_bytes()).as_bytes();
        let known = self.verified.lock().expect("not poisoned").get(login) == Some(&keyed);
        if known {
            return true;
        }
        let ok = self.argon.verify(password, hash);
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
        let argon = Argon::default();
        let hash = argon.hash("correct horse");
        assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(is_valid_hash(&hash));
        assert!(argon.verify("correct horse", &hash));
        assert!(!argon.verify("correct horse ", &hash));
        assert!(!argon.verify("x", "not a hash"));
        // A hash made by the argon2 crate's own API verifies too.
        use argon2::password_hash::{PasswordHasher, SaltString};
        let theirs = Argon2::default()
            .hash_password(b"pw", &SaltString::encode_b64(b"0123456789abcdef").unwrap())
            .unwrap()
            .to_string();
        assert!(argon.verify("pw", &theirs));
        assert!(!is_valid_hash(
            "$argon2id$v=19$m=1048576,t=2,p=1$c29tZXNhbHQ$aGFzaA"
        ));
        // An absurd time cost would hang every login: refused, and never run.
        let slow = "$argon2id$v=19$m=19456,t=4000000,p=1$c29tZXNhbHRzb21lc2FsdA$0lAPFvb5mwHBbSqmi2ESVbMZf2Lh2bTSOgJ3c7LmjYk";
        assert!(!is_valid_hash(slow));
        assert!(!argon.verify("pw", slow));
        assert!(!is_valid_hash(
            "$argon2id$v=19$m=19456,t=2,p=64$c29tZXNhbHRzb21lc2FsdA$0lAPFvb5mwHBbSqmi2ESVbMZf2Lh2bTSOgJ3c7LmjYk"
        ));
        let verifier = Verifier::new(argon, [("t1".to_string(), hash)]);
        assert!(verifier.check("t1", "correct horse"));
        assert!(verifier.check("t1", "correct horse"));
        assert!(!verifier.check("t1", "wrong"));
        assert!(!verifier.check("t2", "correct horse"));
    }

    #[test]
    fn a_clear_password_hashes_the_same_at_every_start() {
        let argon = Argon::default();
        let a = argon.hash_of_clear("t1", "pw");
        assert_eq!(argon.hash_of_clear("t1", "pw"), a);
        assert_ne!(argon.hash_of_clear("t2", "pw"), a);
        assert_ne!(argon.hash_of_clear("t1", "pw2"), a);
        assert!(argon.verify("pw", &a));
    }

    #[test]
    fn session_tags_follow_the_password() {
        let argon = Argon::default();
        let (a, b) = (argon.hash("one"), argon.hash("two"));
        let before = Verifier::new(Argon::default(), [("t1".to_string(), a)]);
        let after = Verifier::new(Argon::default(), [("t1".to_string(), b)]);
        let tag = before.session_tag("t1", "token").unwrap();
        assert_eq!(before.session_tag("t1", "token").unwrap(), tag);
        assert_ne!(after.session_tag("t1", "token").unwrap(), tag);
        assert_ne!(before.session_tag("t1", "other").unwrap(), tag);
        assert_eq!(before.session_tag("t2", "token"), None);
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
