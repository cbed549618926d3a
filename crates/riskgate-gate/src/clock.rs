//! Time for the gate: RFC 3339 UTC timestamps (seed 000's `approved_at` / `expires_at`, the
//! audit log) and the `--since` argument of `riskgate log` (`30m`, `2h`, `7d`, `1w`, an
//! RFC 3339 time or a `YYYY-MM-DD` date).

use std::time::Duration;

use time::format_description::well_known::Rfc3339;
use time::{Date, OffsetDateTime, PrimitiveDateTime, Time};

/// Now, in UTC, to the second.
pub fn now() -> OffsetDateTime {
    let t = OffsetDateTime::now_utc();
    t.replace_nanosecond(0).unwrap_or(t)
}

/// `2024-01-15T10:30:00Z`.
pub fn format(t: OffsetDateTime) -> String {
    t.to_offset(time::UtcOffset::UTC)
        .format(&Rfc3339)
        .unwrap_or_else(|_| t.unix_timestamp().to_string())
}

/// Parse an RFC 3339 time.
pub fn parse(s: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(s.trim(), &Rfc3339).ok()
}

/// Parse a duration: a number and a unit `s`, `m`, `h`, `d`, `w` (`90s`, `15m`, `2h`, `7d`).
pub fn parse_duration(s: &str) -> Option<Duration> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit())?;
    let (num, unit) = s.split_at(split);
    let n: u64 = num.parse().ok()?;
    let secs = match unit.trim() {
        "s" | "sec" | "secs" | "second" | "seconds" => 1,
        "m" | "min" | "mins" | "minute" | "minutes" => 60,
        "h" | "hr" | "hour" | "hours" => 3600,
        "d" | "day" | "days" => 86_400,
        "w" | "week" | "weeks" => 604_800,
        _ => return None,
    };
    n.checked_mul(secs).map(Duration::from_secs)
}

/// Parse `--since`: a duration back from `now`, an RFC 3339 time, or a date (midnight UTC).
pub fn parse_since(s: &str, now: OffsetDateTime) -> Option<OffsetDateTime> {
    if let Some(d) = parse_duration(s) {
        let d = time::Duration::try_from(d).ok()?;
        return now.checked_sub(d);
    }
    if let Some(t) = parse(s) {
        return Some(t);
    }
    let fmt = time::macros::format_description!("[year]-[month]-[day]");
    let date = Date::parse(s.trim(), &fmt).ok()?;
    Some(PrimitiveDateTime::new(date, Time::MIDNIGHT).assume_utc())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_seconds_utc() {
        let t = parse("2024-01-15T11:30:00+01:00").unwrap();
        assert_eq!(format(t), "2024-01-15T10:30:00Z");
    }

    #[test]
    fn durations_and_since() {
        assert_eq!(parse_duration("15m"), Some(Duration::from_secs(900)));
        assert_eq!(parse_duration("2 h"), Some(Duration::from_secs(7200)));
        assert_eq!(parse_duration("7"), None);
        assert_eq!(parse_duration("3 fortnights"), None);
        let now = parse("2024-01-15T10:30:00Z").unwrap();
        assert_eq!(
            format(parse_since("1d", now).unwrap()),
            "2024-01-14T10:30:00Z"
        );
        assert_eq!(
            format(parse_since("2024-01-01", now).unwrap()),
            "2024-01-01T00:00:00Z"
        );
        assert!(parse_since("yesterday", now).is_none());
    }
}
