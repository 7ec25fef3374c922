//! apimachinery's `duration.HumanDuration`: the `AGE` column's "2-3 significant figures".

/// `translateTimestampSince` (and its MicroTime twin): how long ago the timestamp `v` was,
/// `None` when it is unset (printers show `<unknown>`).
pub fn since(v: &serde_json::Value, now_ms: i64) -> Option<String> {
    let t = crate::codec::rfc3339::parse_full(v.as_str()?).ok()?;
    (!t.is_go_zero())
        .then(|| human_duration(now_ms - t.unix * 1000 - i64::from(t.nanos) / 1_000_000))
}

/// `HumanDuration` of `ms` milliseconds (Go truncates every unit toward zero).
pub fn human_duration(ms: i64) -> String {
    let seconds = ms / 1000;
    if seconds < -1 {
        return "<invalid>".into();
    }
    if seconds < 0 {
        return "0s".into();
    }
    if seconds < 60 * 2 {
        return format!("{seconds}s");
    }
    let minutes = ms / 60_000;
    if minutes < 10 {
        let s = seconds % 60;
        return if s == 0 {
            format!("{minutes}m")
        } else {
            format!("{minutes}m{s}s")
        };
    }
    if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = ms / 3_600_000;
    if hours < 8 {
        let m = minutes % 60;
        return if m == 0 {
            format!("{hours}h")
        } else {
            format!("{hours}h{m}m")
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        let h = hours % 24;
        return if h == 0 {
            format!("{}d", hours / 24)
        } else {
            format!("{}d{h}h", hours / 24)
        };
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        let dy = (hours / 24) % 365;
        return if dy == 0 {
            format!("{}y", hours / 24 / 365)
        } else {
            format!("{}y{dy}d", hours / 24 / 365)
        };
    }
    format!("{}y", hours / 24 / 365)
}

#[cfg(test)]
mod tests {
    use super::human_duration;

    #[test]
    fn matches_apimachinery() {
        let s = 1000;
        let m = 60 * s;
        let h = 60 * m;
        let d = 24 * h;
        let cases = [
            (-2500, "<invalid>"),
            (-1999, "0s"),
            (-500, "0s"),
            (0, "0s"),
            (119 * s, "119s"),
            (120 * s, "2m"),
            (150 * s, "2m30s"),
            (10 * m + 30 * s, "10m"),
            (179 * m, "179m"),
            (3 * h, "3h"),
            (7 * h + 59 * m, "7h59m"),
            (8 * h + 30 * m, "8h"),
            (47 * h, "47h"),
            (48 * h, "2d"),
            (7 * d + 23 * h, "7d23h"),
            (8 * d, "8d"),
            (729 * d, "729d"),
            (730 * d, "2y"),
            (731 * d, "2y1d"),
            (8 * 365 * d, "8y"),
        ];
        for (ms, want) in cases {
            assert_eq!(human_duration(ms), want, "{ms}");
        }
    }
}
