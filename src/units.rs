//! Human units in config files: durations (`"1s"`, `"1500ms"`) and sizes
//! (`"64MiB"`, `"512 KiB"`). The main types are [`Millis`] and [`Bytes`].

use std::fmt;
use std::time::Duration;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

/// A duration written as a humantime string (`"1s"`, `"250ms"`, `"2m"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Millis(pub Duration);

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

/// The longest duration accepted anywhere (limits, `--time`): a week. Far
/// above any real limit, and far below what would overflow the clock.
pub(crate) const MAX_DURATION: Duration = Duration::from_secs(7 * 24 * 3600);

/// Parses `"1s"`, `"1500ms"`, `"2m 30s"`; a zero duration is an error, and so
/// is one above [`MAX_DURATION`].
pub(crate) fn parse_duration(text: &str) -> Result<Duration, String> {
    let d = humantime::parse_duration(text.trim())
        .map_err(|e| format!("invalid duration `{text}`: {e} (write e.g. \"1s\" or \"1500ms\")"))?;
    if d.is_zero() {
        return Err(format!("invalid duration `{text}`: must be more than zero"));
    }
    if d > MAX_DURATION {
        return Err(format!("invalid duration `{text}`: must be at most 7 days"));
    }
    Ok(d)
}

/// The largest size accepted anywhere: 1 TiB.
pub(crate) const MAX_SIZE: u64 = 1 << 40;

/// The smallest memory limit: no process starts with less than this.
pub(crate) const MIN_MEMORY: u64 = 4 << 20;

/// A memory limit, as `--memory-limit` takes it: a size of at least
/// [`MIN_MEMORY`].
pub(crate) fn parse_memory_limit(text: &str) -> Result<u64, String> {
    let bytes = parse_size(text)?;
    check_memory_limit(bytes).map_err(|why| format!("invalid memory limit `{text}`: {why}"))?;
    Ok(bytes)
}

/// Why `bytes` cannot be a memory limit, if it cannot.
pub(crate) fn check_memory_limit(bytes: u64) -> Result<(), String> {
    if bytes < MIN_MEMORY {
        return Err(format!(
            "{} is below the 4 MiB a process needs to start",
            format_kib(bytes / 1024)
        ));
    }
    Ok(())
}

/// A number as messages show it: as written when short, else in `1e300` form.
pub(crate) fn shown_number(value: f64) -> String {
    if value.abs() < 1e9 {
        value.to_string()
    } else {
        format!("{value:e}")
    }
}

/// A duration a package writes as a number of seconds: finite, above zero,
/// and at most [`MAX_DURATION`].
pub(crate) fn seconds(value: f64) -> Result<Duration, String> {
    if !(value.is_finite() && value > 0.0 && value <= MAX_DURATION.as_secs_f64()) {
        return Err(format!(
            "must be a number of seconds above 0 and at most 7 days (604800), got {}",
            shown_number(value)
        ));
    }
    Ok(Duration::from_secs_f64(value).max(Duration::from_millis(1)))
}

/// A size a package writes as a number of MiB: finite, above zero, and at
/// most [`MAX_SIZE`].
pub(crate) fn mebibytes(value: f64) -> Result<u64, String> {
    let bytes = value * 1024.0 * 1024.0;
    if !(bytes.is_finite() && bytes >= 1.0 && bytes <= MAX_SIZE as f64) {
        return Err(format!(
            "must be a number of MiB above 0 and at most 1048576 (1 TiB), got {}",
            shown_number(value)
        ));
    }
    Ok(bytes as u64)
}

/// A factor from `low` to `high`.
pub(crate) fn factor(value: f64, low: f64, high: f64) -> Result<f64, String> {
    if !(value.is_finite() && value >= low && value <= high) {
        return Err(format!(
            "must be a number from {low} to {high}, got {}",
            shown_number(value)
        ));
    }
    Ok(value)
}

/// A size in bytes written as `"64MiB"`, `"1GiB"`, `"512KiB"`, `"100MB"` or a bare byte count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Bytes(pub u64);

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
                match u64::try_from(v) {
                    Ok(0) | Err(_) => Err(E::custom(format!(
                        "invalid size {v}: must be at least one byte"
                    ))),
                    Ok(n) if n > MAX_SIZE => Err(E::custom(format!(
                        "invalid size {v}: must be at most 1 TiB"
                    ))),
                    Ok(n) => Ok(Bytes(n)),
                }
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// Parses a size; units are KiB/MiB/GiB (powers of 1024), KB/MB/GB (powers of 1000) or B.
pub(crate) fn parse_size(text: &str) -> Result<u64, String> {
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
    if bytes.is_nan() || bytes < 1.0 {
        return Err(format!("invalid size `{text}`: must be at least one byte"));
    }
    if bytes > MAX_SIZE as f64 {
        return Err(format!("invalid size `{text}`: must be at most 1 TiB"));
    }
    Ok(bytes as u64)
}

/// Formats a byte count for humans (`1.5 MiB`).
pub(crate) fn format_kib(kib: u64) -> String {
    if kib >= 1024 * 1024 {
        format!("{:.1} GiB", kib as f64 / (1024.0 * 1024.0))
    } else if kib >= 1024 {
        format!("{:.1} MiB", kib as f64 / 1024.0)
    } else {
        format!("{kib} KiB")
    }
}

/// Formats a duration for humans (`1.25 s`, `12 ms`).
pub(crate) fn format_ms(ms: u64) -> String {
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
        assert_eq!(
            parse_size("99999999999999999999GiB"),
            Err("invalid size `99999999999999999999GiB`: must be at most 1 TiB".into())
        );
        assert_eq!(
            parse_memory_limit("1KiB"),
            Err(
                "invalid memory limit `1KiB`: 1 KiB is below the 4 MiB a process needs to start"
                    .into()
            )
        );
        assert_eq!(parse_memory_limit("4MiB"), Ok(4 << 20));
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("1s"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_duration("1500ms"), Ok(Duration::from_millis(1500)));
        assert!(parse_duration("0s").unwrap_err().contains("more than zero"));
        assert!(parse_duration("fast")
            .unwrap_err()
            .starts_with("invalid duration `fast`"));
        assert_eq!(
            parse_duration("7000000000000000000s"),
            Err("invalid duration `7000000000000000000s`: must be at most 7 days".into())
        );
        assert_eq!(parse_duration("7d"), Ok(MAX_DURATION));
    }

    #[test]
    fn package_numbers_are_checked() {
        assert_eq!(seconds(1.5), Ok(Duration::from_millis(1500)));
        for bad in [0.0, -1.0, 1e300, f64::NAN, f64::INFINITY, 604801.0] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(
            seconds(1e300),
            Err(
                "must be a number of seconds above 0 and at most 7 days (604800), got 1e300".into()
            )
        );
        assert_eq!(mebibytes(2.0), Ok(2 << 20));
        for bad in [0.0, 1e300, f64::NAN, 2e6] {
            assert!(mebibytes(bad).is_err(), "{bad}");
        }
        assert_eq!(factor(2.0, 1.0, 100.0), Ok(2.0));
        assert!(factor(1e300, 1.0, 100.0).is_err());
    }

    #[test]
    fn human_formats() {
        assert_eq!(format_kib(512), "512 KiB");
        assert_eq!(format_kib(1536), "1.5 MiB");
        assert_eq!(format_ms(12), "12 ms");
        assert_eq!(format_ms(1250), "1.25 s");
    }
}
