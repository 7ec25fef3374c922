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
