//! CEL's `google.protobuf.Timestamp` and `google.protobuf.Duration`, as cel-go has them
//! with Kubernetes' options (`DefaultUTCTimeZone`): `timestamp()` and `duration()`, their
//! arithmetic and comparisons, `int()` and `string()` of them, and the `get*` accessors in
//! UTC or a given zone. A timestamp keeps the offset it was written with, which `string()`
//! prints (RFC 3339 with nanoseconds, as Go's `RFC3339Nano`); comparisons and equality use
//! the instant.
//!
//! Zones: `UTC` (and the empty name) and fixed offsets (`+05:30`) only; an IANA name other
//! than `UTC` is refused as Go refuses a name it does not know (`unknown time zone X`), where
//! the real server would look it up.

use super::eval::Val;
use crate::codec::rfc3339;

/// The range CEL timestamps must stay in: `0001-01-01T00:00:00Z` to
/// `9999-12-31T23:59:59.999999999Z`.
const MIN_UNIX: i64 = -62_135_596_800;
const MAX_UNIX: i64 = 253_402_300_799;
const NANOS: i128 = 1_000_000_000;

/// A timestamp: an instant and the offset (seconds east of UTC) it was written with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ts {
    pub secs: i64,
    pub nanos: u32,
    pub offset: i32,
}

impl Ts {
    fn total(&self) -> i128 {
        i128::from(self.secs) * NANOS + i128::from(self.nanos)
    }

    /// The timestamp at `total` nanoseconds since the epoch, or `timestamp overflow`.
    fn at(total: i128, offset: i32) -> Result<Ts, String> {
        let secs = total.div_euclid(NANOS);
        if secs < i128::from(MIN_UNIX) || secs > i128::from(MAX_UNIX) {
            return Err("timestamp overflow".into());
        }
        Ok(Ts {
            secs: secs as i64,
            nanos: total.rem_euclid(NANOS) as u32,
            offset,
        })
    }

    /// The civil fields in `offset`: year, month (1-12), day (1-31), hour, minute, second,
    /// day of year (1-366), weekday (0 = Sunday).
    fn civil(&self, offset: i32) -> [i64; 8] {
        let local = self.secs + i64::from(offset);
        let days = local.div_euclid(86_400);
        let rem = local.rem_euclid(86_400);
        let (y, m, d) = rfc3339::civil_from_days(days);
        let yday = days - rfc3339::days_from_civil(y, 1, 1) + 1;
        // 1970-01-01 was a Thursday.
        let wday = (days + 4).rem_euclid(7);
        [y, m, d, rem / 3600, rem % 3600 / 60, rem % 60, yday, wday]
    }

    /// Go's `Format(time.RFC3339Nano)` in the timestamp's own offset.
    pub fn format(&self) -> String {
        let [y, m, d, h, mi, s, ..] = self.civil(self.offset);
        let mut out = format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}");
        if self.nanos != 0 {
            let frac = format!("{:09}", self.nanos);
            out.push('.');
            out.push_str(frac.trim_end_matches('0'));
        }
        if self.offset == 0 {
            out.push('Z');
        } else {
            let sign = if self.offset < 0 { '-' } else { '+' };
            let o = self.offset.abs();
            out.push_str(&format!("{sign}{:02}:{:02}", o / 3600, o % 3600 / 60));
        }
        out
    }
}

/// `time.Parse(time.RFC3339, s)`, keeping the offset.
fn parse_rfc3339(s: &str) -> Option<Ts> {
    let p = rfc3339::parse_full(s).ok()?;
    let offset = match s.as_bytes().last()? {
        b'Z' | b'z' => 0,
        _ => {
            let tail = s.get(s.len().checked_sub(6)?..)?;
            let sign = if tail.starts_with('-') { -1 } else { 1 };
            let h: i32 = tail.get(1..3)?.parse().ok()?;
            let m: i32 = tail.get(4..6)?.parse().ok()?;
            sign * (h * 3600 + m * 60)
        }
    };
    Some(Ts {
        secs: p.unix,
        nanos: p.nanos,
        offset,
    })
}

fn conversion_error(from: &str, to: &str) -> String {
    format!("type conversion error from '{from}' to '{to}'")
}

const TIMESTAMP: &str = "google.protobuf.Timestamp";
const DURATION: &str = "google.protobuf.Duration";

/// `timestamp(string)`.
pub fn timestamp_of(s: &str) -> Result<Val, String> {
    let ts = parse_rfc3339(s).ok_or_else(|| conversion_error("string", TIMESTAMP))?;
    if ts.secs < MIN_UNIX || ts.secs > MAX_UNIX {
        return Err("timestamp overflow".into());
    }
    Ok(Val::Timestamp(ts))
}

/// A `date-time` string as the schema's values read (strfmt's `ParseDateTime`: RFC 3339,
/// or without a zone, in UTC), or `None`.
pub fn date_time(s: &str) -> Option<Ts> {
    parse_rfc3339(s).or_else(|| {
        let b = s.as_bytes();
        let zoneless = b.len() >= 19 && b[10] == b'T';
        zoneless.then(|| parse_rfc3339(&format!("{s}Z"))).flatten()
    })
}

/// A `date` string (`2006-01-02`) as the schema's values read: midnight UTC.
pub fn date(s: &str) -> Option<Ts> {
    (s.len() == 10).then(|| parse_rfc3339(&format!("{s}T00:00:00Z")))?
}

/// `duration(string)`: Go's `time.ParseDuration`.
pub fn duration_of(s: &str) -> Result<Val, String> {
    crate::resources::custom::formats::go_parse_duration(s)
        .map(Val::Duration)
        .ok_or_else(|| conversion_error("string", DURATION))
}

/// A `duration` string as the schema's values read (strfmt's `ParseDuration`: Go's form,
/// else a number and a unit such as `3 days`).
pub fn schema_duration(s: &str) -> Option<i64> {
    crate::resources::custom::formats::go_parse_duration(s)
        .or_else(|| crate::resources::custom::formats::strfmt_duration(s))
}

/// Go's `Duration.Seconds()`, printed as cel-go prints a duration: `5400s`, `0.001s`.
pub fn format_duration(ns: i64) -> String {
    let secs = (ns / 1_000_000_000) as f64 + (ns % 1_000_000_000) as f64 / 1e9;
    format!("{secs}s")
}

/// The zone an accessor's argument names: seconds east of UTC.
fn zone(tz: &str) -> Result<i32, String> {
    if let Some(colon) = tz.find(':') {
        let atoi = |t: &str| {
            t.parse::<i32>().map_err(|_| {
                format!(
                    "strconv.Atoi: parsing {}: invalid syntax",
                    crate::codec::go_quote(t)
                )
            })
        };
        let hours = atoi(&tz[..colon])?;
        let minutes = atoi(&tz[colon + 1..])?;
        let offset = if tz.starts_with('-') {
            hours * 60 - minutes
        } else {
            hours * 60 + minutes
        };
        return Ok(offset * 60);
    }
    match tz {
        "" | "UTC" => Ok(0),
        other => Err(format!("unknown time zone {other}")),
    }
}

/// The `get*` accessors and conversions of timestamps and durations; `None` when `name` and
/// the values are none of them.
pub fn call(name: &str, target: Option<&Val>, args: &[Val]) -> Option<Result<Val, String>> {
    let int = |i: i64| Some(Ok(Val::Int(i)));
    match (name, target, args) {
        ("timestamp", None, [Val::Str(s)]) => Some(timestamp_of(s)),
        ("timestamp", None, [Val::Int(i)]) => {
            Some(Ts::at(i128::from(*i) * NANOS, 0).map(Val::Timestamp))
        }
        ("timestamp", None, [t @ Val::Timestamp(_)]) => Some(Ok(t.clone())),
        ("duration", None, [Val::Str(s)]) => Some(duration_of(s)),
        ("duration", None, [d @ Val::Duration(_)]) => Some(Ok(d.clone())),
        ("duration", None, [Val::Int(_)]) => Some(Err(conversion_error("int", DURATION))),
        ("int", None, [Val::Timestamp(t)]) => int(t.secs),
        ("int", None, [Val::Duration(d)]) => int(*d),
        ("string", None, [Val::Timestamp(t)]) => Some(Ok(Val::Str(t.format()))),
        ("string", None, [Val::Duration(d)]) => Some(Ok(Val::Str(format_duration(*d)))),
        (_, Some(Val::Timestamp(t)), rest) => {
            let offset = match rest {
                [] => 0,
                [Val::Str(tz)] => match zone(tz) {
                    Ok(o) => o,
                    Err(e) => return Some(Err(e)),
                },
                _ => return None,
            };
            let [y, m, d, h, mi, s, yday, wday] = t.civil(offset);
            match name {
                "getFullYear" => int(y),
                "getMonth" => int(m - 1),
                "getDayOfYear" => int(yday - 1),
                "getDayOfMonth" => int(d - 1),
                "getDate" => int(d),
                "getDayOfWeek" => int(wday),
                "getHours" => int(h),
                "getMinutes" => int(mi),
                "getSeconds" => int(s),
                "getMilliseconds" => int(i64::from(t.nanos / 1_000_000)),
                _ => None,
            }
        }
        (_, Some(Val::Duration(ns)), []) => match name {
            "getHours" => int(ns / 3_600_000_000_000),
            "getMinutes" => int(ns / 60_000_000_000),
            "getSeconds" => int(ns / 1_000_000_000),
            "getMilliseconds" => int(ns / 1_000_000),
            _ => None,
        },
        _ => None,
    }
}

/// `+` and `-` between timestamps and durations; `None` for other operands.
pub fn arithmetic(op: &str, a: &Val, b: &Val) -> Option<Result<Val, String>> {
    let overflow = || "integer overflow".to_string();
    let r = match (op, a, b) {
        ("+", Val::Timestamp(t), Val::Duration(d)) | ("+", Val::Duration(d), Val::Timestamp(t)) => {
            Ts::at(t.total() + i128::from(*d), t.offset).map(Val::Timestamp)
        }
        ("-", Val::Timestamp(t), Val::Duration(d)) => {
            Ts::at(t.total() - i128::from(*d), t.offset).map(Val::Timestamp)
        }
        ("-", Val::Timestamp(x), Val::Timestamp(y)) => i64::try_from(x.total() - y.total())
            .map(Val::Duration)
            .map_err(|_| overflow()),
        ("+", Val::Duration(x), Val::Duration(y)) => {
            x.checked_add(*y).map(Val::Duration).ok_or_else(overflow)
        }
        ("-", Val::Duration(x), Val::Duration(y)) => {
            x.checked_sub(*y).map(Val::Duration).ok_or_else(overflow)
        }
        _ => return None,
    };
    Some(r)
}

/// The order of two timestamps (by instant) or two durations.
pub fn compare(a: &Val, b: &Val) -> Option<std::cmp::Ordering> {
    match (a, b) {
        (Val::Timestamp(x), Val::Timestamp(y)) => Some(x.total().cmp(&y.total())),
        (Val::Duration(x), Val::Duration(y)) => Some(x.cmp(y)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: &str) -> Ts {
        match timestamp_of(s) {
            Ok(Val::Timestamp(t)) => t,
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn timestamps_print_in_their_offset_and_compare_by_instant() {
        assert_eq!(ts("2023-01-01T00:00:00Z").format(), "2023-01-01T00:00:00Z");
        assert_eq!(
            ts("2023-01-01T05:30:00.120+05:30").format(),
            "2023-01-01T05:30:00.12+05:30"
        );
        let (a, b) = (ts("2023-01-01T05:30:00+05:30"), ts("2023-01-01T00:00:00Z"));
        assert_eq!(
            compare(&Val::Timestamp(a), &Val::Timestamp(b)),
            Some(std::cmp::Ordering::Equal)
        );
        assert_eq!(
            timestamp_of("2023-13-01T00:00:00Z"),
            Err("type conversion error from 'string' to 'google.protobuf.Timestamp'".into())
        );
    }

    #[test]
    fn accessors_read_utc_or_the_zone_given() {
        let t = Val::Timestamp(ts("2024-03-10T23:30:05.250Z"));
        let get = |name: &str, args: &[Val]| call(name, Some(&t), args).unwrap().unwrap();
        assert_eq!(get("getFullYear", &[]), Val::Int(2024));
        assert_eq!(get("getMonth", &[]), Val::Int(2));
        assert_eq!(get("getDate", &[]), Val::Int(10));
        assert_eq!(get("getDayOfMonth", &[]), Val::Int(9));
        assert_eq!(get("getDayOfYear", &[]), Val::Int(69));
        assert_eq!(get("getDayOfWeek", &[]), Val::Int(0));
        assert_eq!(get("getMilliseconds", &[]), Val::Int(250));
        let plus = [Val::Str("+01:00".into())];
        assert_eq!(get("getDate", &plus), Val::Int(11));
        assert_eq!(get("getDayOfWeek", &plus), Val::Int(1));
        assert_eq!(
            call("getHours", Some(&t), &[Val::Str("Mars/Olympus".into())]),
            Some(Err("unknown time zone Mars/Olympus".into()))
        );
    }

    #[test]
    fn durations_parse_print_and_add() {
        let d = |s: &str| match duration_of(s) {
            Ok(Val::Duration(n)) => n,
            other => panic!("{s}: {other:?}"),
        };
        assert_eq!(format_duration(d("1h30m")), "5400s");
        assert_eq!(format_duration(d("1ms")), "0.001s");
        assert_eq!(format_duration(d("-1.5s")), "-1.5s");
        assert_eq!(
            duration_of("3d"),
            Err("type conversion error from 'string' to 'google.protobuf.Duration'".into())
        );
        let t = Val::Timestamp(ts("2023-01-01T00:00:00Z"));
        let later = arithmetic("+", &t, &Val::Duration(d("36h")))
            .unwrap()
            .unwrap();
        assert_eq!(
            call("string", None, std::slice::from_ref(&later))
                .unwrap()
                .unwrap(),
            Val::Str("2023-01-02T12:00:00Z".into())
        );
        assert_eq!(
            arithmetic("-", &later, &t),
            Some(Ok(Val::Duration(d("36h"))))
        );
        assert_eq!(
            arithmetic(
                "+",
                &Val::Timestamp(ts("9999-12-31T23:00:00Z")),
                &Val::Duration(d("2h"))
            ),
            Some(Err("timestamp overflow".into()))
        );
        let minutes = call("getMinutes", Some(&Val::Duration(d("3723s"))), &[]);
        assert_eq!(minutes, Some(Ok(Val::Int(62))));
    }
}
