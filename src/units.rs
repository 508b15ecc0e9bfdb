//! Human units in config files: durations (`"1s"`, `"1500ms"`) and sizes
//! (`"64MiB"`, `"512 KiB"`). The main types are [`Millis`] and [`Bytes`].

use std::fmt;
use std::time::Duration;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

/// A duration written as a humantime string (`"1s"`, `"250ms"`, `"2m"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Millis(pub Duration);

impl<'de> Deserialize<'de> for Millis {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Millis;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a duration such as \"1s\" or \"1500ms\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Millis, E> {
                parse_duration(v).map(Millis).map_err(E::custom)
            }
        }
        deserializer.deserialize_str(V)
    }
}

/// Parses `"1s"`, `"1500ms"`, `"2m 30s"`; a zero duration is an error.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let d = humantime::parse_duration(text.trim())
        .map_err(|e| format!("invalid duration `{text}`: {e} (write e.g. \"1s\" or \"1500ms\")"))?;
    if d.is_zero() {
        return Err(format!("invalid duration `{text}`: must be more than zero"));
    }
    Ok(d)
}

/// A size in bytes written as `"64MiB"`, `"1GiB"`, `"512KiB"`, `"100MB"` or a bare byte count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bytes(pub u64);

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Bytes;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a size such as \"64MiB\" or \"512KiB\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Bytes, E> {
                parse_size(v).map(Bytes).map_err(E::custom)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Bytes, E> {
                u64::try_from(v)
                    .map(Bytes)
                    .map_err(|_| E::custom(format!("invalid size {v}: must not be negative")))
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// Parses a size; units are KiB/MiB/GiB (powers of 1024), KB/MB/GB (powers of 1000) or B.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("invalid size `{text}` (write e.g. \"64MiB\")"))?;
    let factor: u64 = match unit.trim() {
        "" | "B" => 1,
        "K" | "KiB" | "k" => 1 << 10,
        "M" | "MiB" => 1 << 20,
        "G" | "GiB" => 1 << 30,
        "KB" | "kB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        other => {
            return Err(format!(
                "invalid size `{text}`: unknown unit `{other}` (use B, KiB, MiB, GiB, KB, MB, GB)"
            ))
        }
    };
    let bytes = value * factor as f64;
    if !(bytes >= 1.0 && bytes < u64::MAX as f64) {
        return Err(format!("invalid size `{text}`: must be at least one byte"));
    }
    Ok(bytes as u64)
}

/// Formats a byte count for humans (`1.5 MiB`).
pub fn format_kib(kib: u64) -> String {
    if kib >= 1024 * 1024 {
        format!("{:.1} GiB", kib as f64 / (1024.0 * 1024.0))
    } else if kib >= 1024 {
        format!("{:.1} MiB", kib as f64 / 1024.0)
    } else {
        format!("{kib} KiB")
    }
}

/// Formats a duration for humans (`1.25 s`, `12 ms`).
pub fn format_ms(ms: u64) -> String {
    if ms >= 10_000 {
        format!("{:.1} s", ms as f64 / 1000.0)
    } else if ms >= 1000 {
        format!("{:.2} s", ms as f64 / 1000.0)
    } else {
        format!("{ms} ms")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("64MiB"), Ok(64 << 20));
        assert_eq!(parse_size("512 KiB"), Ok(512 << 10));
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        assert_eq!(parse_size("100MB"), Ok(100_000_000));
        assert_eq!(parse_size("1.5KiB"), Ok(1536));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(
            parse_size("64 mb"),
            Err(
                "invalid size `64 mb`: unknown unit `mb` (use B, KiB, MiB, GiB, KB, MB, GB)".into()
            )
        );
        assert_eq!(
            parse_size("lots"),
            Err("invalid size `lots` (write e.g. \"64MiB\")".into())
        );
        assert!(parse_size("0").is_err());
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("1s"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_duration("1500ms"), Ok(Duration::from_millis(1500)));
        assert!(parse_duration("0s").unwrap_err().contains("more than zero"));
        assert!(parse_duration("fast")
            .unwrap_err()
            .starts_with("invalid duration `fast`"));
    }

    #[test]
    fn human_formats() {
        assert_eq!(format_kib(512), "512 KiB");
        assert_eq!(format_kib(1536), "1.5 MiB");
        assert_eq!(format_ms(12), "12 ms");
        assert_eq!(format_ms(1250), "1.25 s");
    }
}
