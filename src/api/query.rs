//! Query strings, decoded as Go's `url.ParseQuery` does (`+` is a space, `%XX` escapes).
//!
//! Kubernetes reads most parameters as "first value wins" and booleans with its own lenient
//! rules (`watch=maybe` is true), so both are provided here.

use percent_encoding::percent_decode_str;

/// Decoded query parameters, in request order (repeats kept: `dryRun=All&dryRun=All`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

fn decode(s: &str) -> String {
    let s = s.replace('+', " ");
    percent_decode_str(&s).decode_utf8_lossy().into_owned()
}

impl Query {
    /// Parses a raw query string (without the `?`).
    pub fn parse(raw: &str) -> Self {
        let pairs = raw
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| match p.split_once('=') {
                Some((k, v)) => (decode(k), decode(v)),
                None => (decode(p), String::new()),
            })
            .collect();
        Query { pairs }
    }

    /// The first value of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Every value of `key`, in order.
    pub fn all(&self, key: &str) -> Vec<&str> {
        self.pairs
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// Whether `key` is present at all.
    pub fn has(&self, key: &str) -> bool {
        self.pairs.iter().any(|(k, _)| k == key)
    }

    /// A boolean as apimachinery converts query strings (`Convert_Slice_string_To_bool`):
    /// absent is `None`; `0` and `false` (any case) are false; anything else, even empty,
    /// `f` or `maybe`, is true.
    pub fn flag(&self, key: &str) -> Option<bool> {
        self.get(key)
            .map(|v| !(v == "0" || v.eq_ignore_ascii_case("false")))
    }

    /// An int64 as apimachinery converts query strings (`Convert_Slice_string_To_int64`):
    /// absent is `None`; present, even empty, it must parse as `strconv.ParseInt(s, 10, 64)`
    /// does, whose error text is the `Err`.
    pub fn int64(&self, key: &str) -> Result<Option<i64>, String> {
        let Some(s) = self.get(key) else {
            return Ok(None);
        };
        s.parse::<i64>().map(Some).map_err(|e| {
            use std::num::IntErrorKind::{NegOverflow, PosOverflow};
            let why = match e.kind() {
                PosOverflow | NegOverflow => "value out of range",
                _ => "invalid syntax",
            };
            format!(
                "strconv.ParseInt: parsing {}: {why}",
                crate::codec::go_quote(s)
            )
        })
    }

    /// A non-empty string parameter (apimachinery treats `key=` like absent for strings).
    pub fn string(&self, key: &str) -> Option<&str> {
        self.get(key).filter(|v| !v.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_like_go() {
        let q = Query::parse("labelSelector=app%3Dx%2Cb+in+(c)&watch&dryRun=All&dryRun=All");
        assert_eq!(q.get("labelSelector"), Some("app=x,b in (c)"));
        assert_eq!(q.flag("watch"), Some(true));
        assert_eq!(q.all("dryRun"), vec!["All", "All"]);
        assert_eq!(q.get("nope"), None);
    }

    #[test]
    fn integers_parse_as_go_parse_int() {
        for (raw, want) in [
            ("", Ok(None)),
            ("limit=5", Ok(Some(5))),
            ("limit=%2B5", Ok(Some(5))),
            ("limit=-5", Ok(Some(-5))),
            (
                "limit=",
                Err("strconv.ParseInt: parsing \"\": invalid syntax"),
            ),
            (
                "limit=1.5",
                Err("strconv.ParseInt: parsing \"1.5\": invalid syntax"),
            ),
            (
                "limit=99999999999999999999",
                Err("strconv.ParseInt: parsing \"99999999999999999999\": value out of range"),
            ),
        ] {
            let got = Query::parse(raw).int64("limit");
            assert_eq!(got, want.map_err(String::from), "{raw}");
        }
    }

    #[test]
    fn booleans_are_lenient() {
        for (raw, want) in [
            ("watch=1", Some(true)),
            ("watch=true", Some(true)),
            ("watch=maybe", Some(true)),
            ("watch=", Some(true)),
            ("watch=0", Some(false)),
            ("watch=F", Some(true)),
            ("watch=f", Some(true)),
            ("watch=FALSE", Some(false)),
            ("", None),
        ] {
            assert_eq!(Query::parse(raw).flag("watch"), want, "{raw}");
        }
    }
}
