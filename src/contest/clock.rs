//! The contest clock: when a contest starts, how long it lasts and when its
//! scoreboard freezes, and times written as the ICPC Contest API writes
//! them (absolute `2026-12-01T09:00:00.000+00:00`, contest-relative
//! `1:22:05.034`). The main type is [`ContestClock`]. Times are
//! milliseconds since the Unix epoch, UTC ([`EpochMs`]).

use serde::{Deserialize, Serialize};

/// Milliseconds since 1970-01-01T00:00:00Z.
pub(crate) type EpochMs = i64;

/// When a contest runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ContestClock {
    /// The scheduled start (contest.toml `start`); `None`: the jury starts it.
    pub(crate) start: Option<EpochMs>,
    /// Its length, ms.
    pub(crate) duration_ms: i64,
    /// How long before the end the scoreboard freezes, ms (`None`: never).
    pub(crate) freeze_ms: Option<i64>,
}

impl ContestClock {
    /// The end, once the start is known.
    pub(crate) fn end(&self, start: EpochMs) -> EpochMs {
        start + self.duration_ms
    }

    /// When the scoreboard freezes, once the start is known.
    pub(crate) fn freeze_at(&self, start: EpochMs) -> Option<EpochMs> {
        self.freeze_ms.map(|f| self.end(start) - f)
    }
}

/// The current time.
pub(crate) fn now_ms() -> EpochMs {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    since.as_millis() as EpochMs
}

/// Minutes into the contest (whole, rounded down, as ICPC counts penalty
/// time); 0 for a time before the start.
pub(crate) fn contest_minute(start: EpochMs, time: EpochMs) -> u64 {
    ((time - start).max(0) / 60_000) as u64
}

/// A TOML date-time with a time zone as milliseconds since the epoch.
pub(crate) fn datetime_ms(datetime: &toml::value::Datetime) -> Result<EpochMs, String> {
    let (Some(date), Some(time)) = (datetime.date, datetime.time) else {
        return Err(format!(
            "`{datetime}` is not a date and time (write 2026-12-01T09:00:00Z)"
        ));
    };
    let Some(offset) = datetime.offset else {
        return Err(format!(
            "`{datetime}` has no time zone: add `Z` for UTC or an offset such as `+02:00`"
        ));
    };
    let offset_minutes = match offset {
        toml::value::Offset::Z => 0,
        toml::value::Offset::Custom { minutes } => i64::from(minutes),
    };
    let days = days_from_civil(
        i64::from(date.year),
        i64::from(date.month),
        i64::from(date.day),
    );
    let seconds = days * 86_400
        + i64::from(time.hour) * 3600
        + i64::from(time.minute) * 60
        + i64::from(time.second)
        - offset_minutes * 60;
    Ok(seconds * 1000 + i64::from(time.nanosecond / 1_000_000))
}

/// An absolute time as the Contest API writes it (UTC, milliseconds).
pub(crate) fn format_time(ms: EpochMs) -> String {
    let days = ms.div_euclid(86_400_000);
    let rest = ms.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}+00:00",
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000
    )
}

/// An absolute time of the Contest API (`2026-12-01T09:00:00Z`,
/// `...T10:00:00.250+01:00`, `+01`), as milliseconds since the epoch.
pub(crate) fn parse_time(text: &str) -> Result<EpochMs, String> {
    let bad = || format!("`{text}` is not a time like 2026-12-01T09:00:00Z");
    let (date, rest) = text.split_once('T').ok_or_else(bad)?;
    let mut parts = date.splitn(3, '-').map(|p| p.parse::<i64>().ok());
    let (Some(Some(y)), Some(Some(mo)), Some(Some(d))) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    let (clock, zone) = match rest.find(['Z', '+', '-']) {
        Some(i) => rest.split_at(i),
        None => return Err(bad()),
    };
    let (hms, fraction) = clock.split_once('.').unwrap_or((clock, ""));
    let mut hms = hms.splitn(3, ':').map(|p| p.parse::<i64>().ok());
    let (Some(Some(h)), Some(Some(mi)), Some(Some(s))) = (hms.next(), hms.next(), hms.next())
    else {
        return Err(bad());
    };
    let millis = if fraction.is_empty() {
        0
    } else if !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    } else {
        let digits: String = fraction.chars().chain("000".chars()).take(3).collect();
        digits.parse::<i64>().map_err(|_| bad())?
    };
    let offset_minutes = match zone {
        "Z" => 0,
        _ => {
            let sign = if zone.starts_with('-') { -1 } else { 1 };
            let (oh, om) = zone[1..].split_once(':').unwrap_or((&zone[1..], "0"));
            let (Ok(oh @ 0..=23), Ok(om @ 0..=59)) = (oh.parse::<i64>(), om.parse::<i64>()) else {
                return Err(bad());
            };
            sign * (oh * 60 + om)
        }
    };
    // Years of four digits, as the API writes them (and no overflow).
    if !(1..=9999).contains(&y)
        || !(1..=12).contains(&mo)
        || !(1..=31).contains(&d)
        || !(0..=23).contains(&h)
        || !(0..=59).contains(&mi)
        || !(0..=60).contains(&s)
    {
        return Err(bad());
    }
    let seconds = days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s - offset_minutes * 60;
    Ok(seconds * 1000 + millis)
}

/// A contest-relative time as the Contest API writes it: `(-)h:mm:ss.uuu`.
pub(crate) fn format_reltime(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let ms = ms.unsigned_abs();
    format!(
        "{sign}{}:{:02}:{:02}.{:03}",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

/// A contest-relative time as the Contest API writes it, `(-)h:mm:ss(.uuu)`,
/// in ms.
pub(crate) fn parse_reltime(text: &str) -> Result<i64, String> {
    let bad = || format!("`{text}` is not a contest time like 5:00:00 or 1:22:05.034");
    let (sign, rest) = match text.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, text),
    };
    let (hms, fraction) = rest.split_once('.').unwrap_or((rest, ""));
    let parts: Vec<&str> = hms.split(':').collect();
    let [h, m, s] = parts[..] else {
        return Err(bad());
    };
    let number = |p: &str, max: i64| {
        let n: i64 = p.parse().map_err(|_| bad())?;
        if p.bytes().all(|b| b.is_ascii_digit()) && (0..=max).contains(&n) {
            Ok(n)
        } else {
            Err(bad())
        }
    };
    let (h, m, s) = (number(h, 1_000_000)?, number(m, 59)?, number(s, 59)?);
    let millis = match fraction {
        "" => 0,
        f if f.len() <= 9 && f.bytes().all(|b| b.is_ascii_digit()) => {
            let digits: String = f.chars().chain("000".chars()).take(3).collect();
            digits.parse::<i64>().map_err(|_| bad())?
        }
        _ => return Err(bad()),
    };
    Ok(sign * (((h * 60 + m) * 60 + s) * 1000 + millis))
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contest_times_read_back_what_the_api_writes() {
        for ms in [0, 1, 59_999, 3_600_000, 5 * 3_600_000 + 1234, -61_000] {
            assert_eq!(parse_reltime(&format_reltime(ms)), Ok(ms));
        }
        assert_eq!(parse_reltime("5:00:00"), Ok(5 * 3_600_000));
        for bad in [
            "",
            "5",
            "5:00",
            "1:60:00",
            "1:00:0x",
            "a:00:00",
            "1:00:00.x",
            "1:+1:00",
        ] {
            assert!(parse_reltime(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn times_round_trip_through_the_api_format() {
        let dt: toml::value::Datetime = "2026-12-01T09:00:00Z".parse().unwrap();
        let ms = datetime_ms(&dt).unwrap();
        assert_eq!(ms, 1_796_115_600_000);
        assert_eq!(format_time(ms), "2026-12-01T09:00:00.000+00:00");
        assert_eq!(parse_time("2026-12-01T09:00:00Z"), Ok(ms));
        assert_eq!(parse_time("2026-12-01T10:00:00.000+01:00"), Ok(ms));
        assert_eq!(parse_time("2026-12-01T10:00:00+01"), Ok(ms));
        assert_eq!(parse_time("2026-12-01T08:30:00.5-00:30"), Ok(ms + 500));
        let local: toml::value::Datetime = "2026-12-01T09:00:00+02:00".parse().unwrap();
        assert_eq!(datetime_ms(&local).unwrap(), ms - 2 * 3_600_000);
        assert_eq!(format_time(0), "1970-01-01T00:00:00.000+00:00");
        assert_eq!(
            format_time(951_782_400_123),
            "2000-02-29T00:00:00.123+00:00"
        );
    }

    #[test]
    fn a_time_without_a_zone_or_a_date_alone_is_refused() {
        let local: toml::value::Datetime = "2026-12-01T09:00:00".parse().unwrap();
        assert!(datetime_ms(&local).unwrap_err().contains("no time zone"));
        let date: toml::value::Datetime = "2026-12-01".parse().unwrap();
        assert!(datetime_ms(&date)
            .unwrap_err()
            .contains("not a date and time"));
        assert!(parse_time("yesterday").is_err());
        assert!(parse_time("2026-13-01T09:00:00Z").is_err());
        // What a client may send: refused, never an overflow.
        for odd in [
            "99999999999999999-01-01T00:00:00Z",
            "2027-01-01T00:00:00+99999999999999999:00",
            "2027-01-01T00:00:00+01:99",
            "2027-01-01T00:00:00.-5Z",
            "10000-01-01T00:00:00Z",
            "0-01-01T00:00:00Z",
        ] {
            assert!(parse_time(odd).is_err(), "{odd}");
        }
        assert!(parse_time("9999-12-31T23:59:60.999+23:59").is_ok());
    }

    #[test]
    fn relative_times_and_minutes() {
        assert_eq!(format_reltime(0), "0:00:00.000");
        assert_eq!(format_reltime(4_925_034), "1:22:05.034");
        assert_eq!(format_reltime(-1500), "-0:00:01.500");
        assert_eq!(format_reltime(18_000_000), "5:00:00.000");
        assert_eq!(contest_minute(1000, 1000 + 59_999), 0);
        assert_eq!(contest_minute(1000, 1000 + 60_000), 1);
        assert_eq!(contest_minute(1000, 0), 0);
    }
}
