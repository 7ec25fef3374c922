//! Time tags 0 and 1 decoded into `interface{}`: fxamacker's `parseToTime` followed by
//! `TimeTagToRFC3339Nano`, i.e. the `time.Time` rendered with `MarshalText`.
//!
//! Tag 0 keeps the offset written in the input (`+00:00` and `Z` both print as `Z`, as on a
//! server whose local zone is UTC); tag 1 (epoch seconds) is converted to UTC.

use super::decoder::Decoder;
use crate::codec::rfc3339;

/// Unix seconds of 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z: `MarshalText` only writes
/// four-digit years.
const MIN_MARSHAL_UNIX: i64 = -62_167_219_200;
const MAX_MARSHAL_UNIX: i64 = 253_402_300_799;

/// Decodes the tag-0 or tag-1 item at the cursor (its content type already validated) to the
/// RFC 3339 text Go produces, or Go's error text.
pub(super) fn decode_time_tag(d: &mut Decoder<'_>) -> Result<String, String> {
    let (_, _, tag) = d.head();
    let (major, ai, val) = d.head();
    let (unix, nanos, offset) = match (major, ai) {
        (3, _) => {
            let bytes = d.string_bytes(major, ai, val)?;
            let s = String::from_utf8(bytes).unwrap_or_default();
            let parsed = rfc3339::parse_full(&s)
                .map_err(|e| format!("cbor: cannot set {s} for time.Time: {e}"))?;
            (parsed.unix, i64::from(parsed.nanos), zone_offset(&s))
        }
        (0, _) if val > i64::MAX as u64 => {
            return Err(format!(
                "cbor: cannot unmarshal positive integer into Go value of type time.Time ({val} overflows Go's int64)"
            ))
        }
        (0, _) => (val as i64, 0, 0),
        (1, _) if val > i64::MAX as u64 => {
            return Err(format!(
                "cbor: cannot unmarshal negative integer into Go value of type time.Time (-{} overflows Go's int64)",
                u128::from(val) + 1
            ))
        }
        (1, _) => (!(val as i64), 0, 0),
        (_, 25) => unix_from_float(super::decoder::f16_to_f64(val as u16)),
        (_, 26) => unix_from_float(f64::from(f32::from_bits(val as u32))),
        (_, _) => unix_from_float(f64::from_bits(val)),
    };
    // Tag 1 is converted to UTC; tag 0 keeps the parsed zone.
    let offset = if tag == 1 { 0 } else { offset };
    marshal_text(unix, nanos, offset).map_err(|e| {
        format!("cbor: decoded time cannot be represented in RFC3339 format with sub-second precision: {e}")
    })
}

/// The zone offset in seconds of a timestamp `rfc3339::parse_full` accepted: `Z`, or the
/// trailing `±hh:mm`.
fn zone_offset(s: &str) -> i64 {
    let b = s.as_bytes();
    if b.last() == Some(&b'Z') || b.len() < 6 {
        return 0;
    }
    let t = &b[b.len() - 6..];
    let num = |x: &[u8]| i64::from(x[0] - b'0') * 10 + i64::from(x[1] - b'0');
    let magnitude = num(&t[1..3]) * 3600 + num(&t[4..6]) * 60;
    if t[0] == b'-' {
        -magnitude
    } else {
        magnitude
    }
}

/// `time.Unix(int64(sec), int64(frac*1e9))` for `sec, frac := math.Modf(f)`, normalized so
/// the nanoseconds are in `0..1e9`. Out-of-range seconds saturate (Go's conversion is
/// unspecified there; either way the year check rejects them).
fn unix_from_float(f: f64) -> (i64, i64, i64) {
    let secs = f.trunc();
    let frac = f - secs;
    let mut sec = secs as i64;
    let mut nsec = (frac * 1e9) as i64;
    if nsec < 0 {
        sec = sec.saturating_sub(1);
        nsec += 1_000_000_000;
    }
    (sec, nsec, 0)
}

/// `Time.MarshalText` (RFC 3339 with trimmed nanoseconds) of the instant `unix` + `nanos` seen
/// at zone `offset`, with its two refusals: years outside 0..=9999 and offsets of 24 hours or
/// more.
fn marshal_text(unix: i64, nanos: i64, offset: i64) -> Result<String, String> {
    let local = unix.saturating_add(offset);
    if !(MIN_MARSHAL_UNIX..=MAX_MARSHAL_UNIX).contains(&local) {
        return Err("Time.MarshalText: year outside of range [0,9999]".to_string());
    }
    if offset.abs() / 3600 >= 24 {
        return Err("Time.MarshalText: timezone hour outside of range [0,23]".to_string());
    }
    // `format` writes `...SSZ`; drop the `Z` and add the fraction and the zone.
    let mut out = rfc3339::format(local);
    out.pop();
    if nanos != 0 {
        let digits = format!("{nanos:09}");
        out.push('.');
        out.push_str(digits.trim_end_matches('0'));
    }
    if offset == 0 {
        out.push('Z');
    } else {
        let abs = offset.abs();
        let sign = if offset < 0 { '-' } else { '+' };
        out.push_str(&format!("{sign}{:02}:{:02}", abs / 3600, (abs / 60) % 60));
    }
    Ok(out)
}
