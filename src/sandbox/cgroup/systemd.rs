//! Asking systemd for a cgroup of the judge's own: a transient scope unit
//! holding the judge's process, with `Delegate=yes`, as `systemd-run --scope
//! -p Delegate=yes` and rootless container engines get one. The judge stays
//! the same process; systemd moves it into the new scope, whose subtree is
//! then the judge's to manage, and removes the scope when the judge is gone.
//!
//! One D-Bus method call (`StartTransientUnit`) on a local socket, written
//! here rather than taken from a D-Bus crate: the protocol subset is small
//! (EXTERNAL authentication, one call, its reply), and a full client would
//! bring its own async runtime for this one message. As root the call goes to
//! the system manager, otherwise to the user's own manager (`user@UID.service`),
//! first on systemd's private socket, then on the bus.

use std::io::{self, BufRead, Read, Write};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Why no scope could be had.
#[derive(Debug)]
pub(crate) struct ScopeError(pub(crate) String);

impl std::fmt::Display for ScopeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The sockets to try, best first: systemd's private socket (no bus daemon
/// needed), then the bus (`true`: say Hello and name the destination).
fn sockets(uid: u32) -> Vec<(PathBuf, bool)> {
    if uid == 0 {
        return vec![
            ("/run/systemd/private".into(), false),
            ("/run/dbus/system_bus_socket".into(), true),
        ];
    }
    let runtime = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|d| d.is_absolute())
        .unwrap_or_else(|| PathBuf::from(format!("/run/user/{uid}")));
    vec![
        (runtime.join("systemd/private"), false),
        (runtime.join("bus"), true),
    ]
}

/// Whether systemd manages this system (`sd_booted(3)`'s test).
pub(crate) fn booted() -> bool {
    std::path::Path::new("/run/systemd/system").is_dir()
}

/// Moves this process into a new transient scope with `Delegate=yes` and
/// waits until it is there; returns the unit's name.
pub(crate) fn move_into_scope(uid: u32) -> Result<String, ScopeError> {
    let pid = std::process::id();
    let manager = if uid == 0 {
        "the system's systemd"
    } else {
        "the user's systemd (user@UID.service)"
    };
    let mut tried = Vec::new();
    for (path, bus) in sockets(uid) {
        if !path.exists() {
            tried.push(format!("{} does not exist", path.display()));
            continue;
        }
        for attempt in 0..3 {
            let unit = match attempt {
                0 => format!("judge-{pid}.scope"),
                n => format!("judge-{pid}-{n}.scope"),
            };
            match start_scope(&path, bus, uid, &unit, pid) {
                Ok(()) => return wait_until_moved(&unit).map(|()| unit),
                // A scope of that name left by an earlier judge of this pid.
                Err(e) if e.to_string().contains("UnitExists") => continue,
                Err(e) => {
                    tried.push(format!("{}: {e}", path.display()));
                    break;
                }
            }
        }
    }
    Err(ScopeError(format!(
        "no delegated scope from {manager}: {}",
        tried.join("; ")
    )))
}

/// Polls /proc/self/cgroup until this process is in `unit`.
fn wait_until_moved(unit: &str) -> Result<(), ScopeError> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
        if own
            .lines()
            .any(|l| l.starts_with("0::") && l.trim_end().ends_with(&format!("/{unit}")))
        {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(ScopeError(format!(
                "systemd started {unit} but did not move the judge into it"
            )));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn start_scope(
    path: &std::path::Path,
    bus: bool,
    uid: u32,
    unit: &str,
    pid: u32,
) -> io::Result<()> {
    let mut stream = UnixStream::connect(path)?;
    stream.set_read_timeout(Some(Duration::from_secs(20)))?;
    stream.set_write_timeout(Some(Duration::from_secs(20)))?;
    authenticate(&mut stream, uid)?;
    let mut serial = 1;
    if bus {
        let hello = Message::call(
            serial,
            "/org/freedesktop/DBus",
            "org.freedesktop.DBus",
            "Hello",
            Some("org.freedesktop.DBus"),
            "",
            Vec::new(),
        );
        stream.write_all(&hello)?;
        reply(&mut stream, serial)?;
        serial += 1;
    }
    let description = format!("judge: its sandbox's cgroups (pid {pid})");
    let mut body = Writer::default();
    body.string(unit);
    body.string("fail");
    body.array(8, |w| {
        w.property("Description", "s", |w| w.string(&description));
        w.property("PIDs", "au", |w| w.array(4, |w| w.u32(pid)));
        w.property("Delegate", "b", |w| w.u32(1));
        w.property("CollectMode", "s", |w| w.string("inactive-or-failed"));
    });
    body.array(8, |_| {});
    let call = Message::call(
        serial,
        "/org/freedesktop/systemd1",
        "org.freedesktop.systemd1.Manager",
        "StartTransientUnit",
        bus.then_some("org.freedesktop.systemd1"),
        "ssa(sv)a(sa(sv))",
        body.bytes,
    );
    stream.write_all(&call)?;
    reply(&mut stream, serial)
}

/// SASL EXTERNAL: the server checks the socket's peer credentials.
fn authenticate(stream: &mut UnixStream, uid: u32) -> io::Result<()> {
    let hex: String = uid
        .to_string()
        .bytes()
        .map(|b| format!("{b:02x}"))
        .collect();
    stream.write_all(format!("\0AUTH EXTERNAL {hex}\r\n").as_bytes())?;
    let mut line = String::new();
    io::BufReader::new(stream.try_clone()?)
        .take(512)
        .read_line(&mut line)?;
    if !line.starts_with("OK ") {
        return Err(io::Error::other(format!(
            "authentication refused: {}",
            line.trim()
        )));
    }
    stream.write_all(b"BEGIN\r\n")
}

/// Reads messages until the reply to `serial`: `Ok` for a method return, the
/// error's name and message otherwise. Signals in between are skipped.
fn reply(stream: &mut UnixStream, serial: u32) -> io::Result<()> {
    loop {
        let mut fixed = [0u8; 16];
        stream.read_exact(&mut fixed)?;
        if fixed[0] != b'l' {
            return Err(io::Error::other("a big-endian D-Bus reply (not supported)"));
        }
        let word = |i: usize| u32::from_le_bytes(fixed[i..i + 4].try_into().expect("4 bytes"));
        let (body_len, fields_len) = (word(4) as usize, word(12) as usize);
        if body_len + fields_len > 1 << 20 {
            return Err(io::Error::other("an oversized D-Bus reply"));
        }
        let padded = fields_len.div_ceil(8) * 8;
        let mut rest = vec![0u8; padded + body_len];
        stream.read_exact(&mut rest)?;
        let fields = Fields::parse(&fixed, &rest[..fields_len]);
        if fields.reply_serial != Some(serial) {
            continue;
        }
        return match fixed[1] {
            2 => Ok(()),
            3 => {
                let body = &rest[padded..];
                let text = (fields.signature.starts_with('s') && body.len() >= 4)
                    .then(|| {
                        let n = u32::from_le_bytes(body[..4].try_into().expect("4 bytes")) as usize;
                        body.get(4..4 + n)
                            .map(|b| String::from_utf8_lossy(b).into_owned())
                    })
                    .flatten()
                    .unwrap_or_default();
                Err(io::Error::other(format!("{}: {text}", fields.error_name)))
            }
            other => Err(io::Error::other(format!(
                "unexpected D-Bus message type {other}"
            ))),
        };
    }
}

/// The header fields of a reply that matter here.
#[derive(Default)]
struct Fields {
    reply_serial: Option<u32>,
    error_name: String,
    signature: String,
}

impl Fields {
    /// Parses the header field array (`a(yv)`), which starts at offset 16
    /// of the message (so 8-aligned offsets are aligned within it too).
    fn parse(_fixed: &[u8; 16], data: &[u8]) -> Fields {
        let mut fields = Fields::default();
        let mut at = 0;
        let u32_at = |at: usize| {
            data.get(at..at + 4)
                .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
        };
        while at < data.len() {
            at = at.div_ceil(8) * 8;
            let (Some(&code), Some(&sig_len)) = (data.get(at), data.get(at + 1)) else {
                break;
            };
            let sig_len = sig_len as usize;
            let Some(sig) = data.get(at + 2..at + 2 + sig_len) else {
                break;
            };
            let mut value = at + 2 + sig_len + 1;
            match sig {
                b"u" => {
                    value = value.div_ceil(4) * 4;
                    if code == 5 {
                        fields.reply_serial = u32_at(value);
                    }
                    at = value + 4;
                }
                b"s" | b"o" => {
                    value = value.div_ceil(4) * 4;
                    let n = u32_at(value).unwrap_or(0) as usize;
                    let text = data
                        .get(value + 4..value + 4 + n)
                        .map(|b| String::from_utf8_lossy(b).into_owned())
                        .unwrap_or_default();
                    if code == 4 {
                        fields.error_name = text;
                    }
                    at = value + 4 + n + 1;
                }
                b"g" => {
                    let n = data.get(value).copied().unwrap_or(0) as usize;
                    if code == 8 {
                        fields.signature = data
                            .get(value + 1..value + 1 + n)
                            .map(|b| String::from_utf8_lossy(b).into_owned())
                            .unwrap_or_default();
                    }
                    at = value + 1 + n + 1;
                }
                _ => break,
            }
        }
        fields
    }
}

/// Little-endian D-Bus marshalling of the few types used here. Offsets are
/// from the start of the buffer, which starts 8-aligned in the message.
#[derive(Default)]
struct Writer {
    bytes: Vec<u8>,
}

impl Writer {
    fn pad(&mut self, align: usize) {
        while self.bytes.len() % align != 0 {
            self.bytes.push(0);
        }
    }

    fn u32(&mut self, value: u32) {
        self.pad(4);
        self.bytes.extend_from_slice(&value.to_le_bytes());
    }

    fn string(&mut self, text: &str) {
        self.u32(text.len() as u32);
        self.bytes.extend_from_slice(text.as_bytes());
        self.bytes.push(0);
    }

    fn signature(&mut self, text: &str) {
        self.bytes.push(text.len() as u8);
        self.bytes.extend_from_slice(text.as_bytes());
        self.bytes.push(0);
    }

    /// An array whose elements are aligned to `align`: its byte length
    /// (without the padding before the first element) comes first.
    fn array(&mut self, align: usize, elements: impl FnOnce(&mut Writer)) {
        self.u32(0);
        let length_at = self.bytes.len() - 4;
        self.pad(align);
        let start = self.bytes.len();
        elements(self);
        let length = (self.bytes.len() - start) as u32;
        self.bytes[length_at..length_at + 4].copy_from_slice(&length.to_le_bytes());
    }

    /// A `(sv)` struct: a property name and its value as a variant.
    fn property(&mut self, name: &str, signature: &str, value: impl FnOnce(&mut Writer)) {
        self.pad(8);
        self.string(name);
        self.signature(signature);
        value(self);
    }

    /// A header field `(yv)`.
    fn field(&mut self, code: u8, signature: &str, value: impl FnOnce(&mut Writer)) {
        self.pad(8);
        self.bytes.push(code);
        self.signature(signature);
        value(self);
    }
}

struct Message;

impl Message {
    /// A method call message: header, fields, body.
    fn call(
        serial: u32,
        path: &str,
        interface: &str,
        member: &str,
        destination: Option<&str>,
        signature: &str,
        body: Vec<u8>,
    ) -> Vec<u8> {
        let mut w = Writer::default();
        w.bytes.extend_from_slice(&[b'l', 1, 0, 1]);
        w.u32(body.len() as u32);
        w.u32(serial);
        w.array(8, |w| {
            w.field(1, "o", |w| w.string(path));
            w.field(2, "s", |w| w.string(interface));
            w.field(3, "s", |w| w.string(member));
            if let Some(d) = destination {
                w.field(6, "s", |w| w.string(d));
            }
            if !signature.is_empty() {
                w.field(8, "g", |w| w.signature(signature));
            }
        });
        w.pad(8);
        w.bytes.extend_from_slice(&body);
        w.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes of a Hello call as the D-Bus specification lays them out
    /// (checked field by field: alignment of the field structs, the
    /// variant signatures, the padding before the body).
    #[test]
    fn a_method_call_is_marshalled_as_the_specification_says() {
        let m = Message::call(7, "/a", "b.c", "D", None, "s", vec![1, 0, 0, 0, b'x', 0]);
        let mut want = vec![b'l', 1, 0, 1, 6, 0, 0, 0, 7, 0, 0, 0];
        let fields: Vec<u8> = [
            // (1, o "/a") at 16
            vec![1, 1, b'o', 0, 2, 0, 0, 0, b'/', b'a', 0],
            vec![0, 0, 0, 0, 0], // to 32
            // (2, s "b.c")
            vec![2, 1, b's', 0, 3, 0, 0, 0, b'b', b'.', b'c', 0],
            vec![0, 0, 0, 0], // to 48
            // (3, s "D")
            vec![3, 1, b's', 0, 1, 0, 0, 0, b'D', 0],
            vec![0, 0, 0, 0, 0, 0], // to 64
            // (8, g "s")
            vec![8, 1, b'g', 0, 1, b's', 0],
        ]
        .concat();
        want.extend_from_slice(&(fields.len() as u32).to_le_bytes());
        want.extend_from_slice(&fields);
        want.push(0); // to 72
        want.extend_from_slice(&[1, 0, 0, 0, b'x', 0]);
        assert_eq!(m, want);
    }

    #[test]
    fn an_error_reply_gives_its_name_and_message() {
        // Fields of an error reply: error name (4), reply serial (5), signature (8).
        let mut w = Writer::default();
        w.array(8, |w| {
            w.field(4, "s", |w| w.string("org.x.Failed"));
            w.field(5, "u", |w| w.u32(9));
            w.field(8, "g", |w| w.signature("s"));
        });
        // The array starts at offset 12 of a message; here at 0 of the
        // buffer, so take the fields after its length word, re-aligned as
        // they are at offset 16.
        let data = &w.bytes[8..];
        let fields = Fields::parse(&[0; 16], data);
        assert_eq!(fields.reply_serial, Some(9));
        assert_eq!(fields.error_name, "org.x.Failed");
        assert_eq!(fields.signature, "s");
    }
}
