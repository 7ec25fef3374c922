//! Kubernetes' semver library (`semver`, `isSemver`, with the normalizing form of version 1;
//! `major`, `minor`, `patch`, `isGreaterThan`, `isLessThan`, `compareTo`), on a port of
//! blang/semver's `Parse`: the library hands blang's error texts out unwrapped, so the parse
//! is written here to give them byte for byte.

use std::cmp::Ordering;

use super::eval::Val;
use crate::codec::go_quote;

/// A version as blang's `semver.Version` holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    major: u64,
    minor: u64,
    patch: u64,
    pre: Vec<Pre>,
    /// Kept for nothing but completeness: build metadata has no precedence.
    build: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Pre {
    Num(u64),
    Str(String),
}

/// `strconv.ParseUint(s, 10, 64)`'s error texts.
fn parse_uint(s: &str) -> Result<u64, String> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "strconv.ParseUint: parsing {}: invalid syntax",
            go_quote(s)
        ));
    }
    s.parse().map_err(|_| {
        format!(
            "strconv.ParseUint: parsing {}: value out of range",
            go_quote(s)
        )
    })
}

fn number(s: &str, which: &str, capital: &str) -> Result<u64, String> {
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "Invalid character(s) found in {which} number {}",
            go_quote(s)
        ));
    }
    if s.len() > 1 && s.starts_with('0') {
        return Err(format!(
            "{capital} number must not contain leading zeroes {}",
            go_quote(s)
        ));
    }
    parse_uint(s)
}

fn alnum(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-'
}

/// blang's `semver.Parse`.
fn parse(s: &str) -> Result<Version, String> {
    if s.is_empty() {
        return Err("Version string empty".into());
    }
    let parts: Vec<&str> = s.splitn(3, '.').collect();
    if parts.len() != 3 {
        return Err("No Major.Minor.Patch elements found".into());
    }
    let major = number(parts[0], "major", "Major")?;
    let minor = number(parts[1], "minor", "Minor")?;
    let mut patch = parts[2];
    let mut build = Vec::new();
    if let Some(i) = patch.find('+') {
        build = patch[i + 1..].split('.').map(String::from).collect();
        patch = &patch[..i];
    }
    let mut pre_ids: Vec<&str> = Vec::new();
    if let Some(i) = patch.find('-') {
        pre_ids = patch[i + 1..].split('.').collect();
        patch = &patch[..i];
    }
    let patch = number(patch, "patch", "Patch")?;
    let mut pre = Vec::new();
    for p in pre_ids {
        if p.is_empty() {
            return Err("Prerelease is empty".into());
        }
        if p.bytes().all(|b| b.is_ascii_digit()) {
            if p.len() > 1 && p.starts_with('0') {
                return Err(format!(
                    "Numeric PreRelease version must not contain leading zeroes {}",
                    go_quote(p)
                ));
            }
            pre.push(Pre::Num(parse_uint(p)?));
        } else if p.chars().all(alnum) {
            pre.push(Pre::Str(p.to_string()));
        } else {
            return Err(format!(
                "Invalid character(s) found in prerelease {}",
                go_quote(p)
            ));
        }
    }
    for b in &build {
        if b.is_empty() {
            return Err("Build meta data is empty".into());
        }
        if !b.chars().all(alnum) {
            return Err(format!(
                "Invalid character(s) found in build meta data {}",
                go_quote(b)
            ));
        }
    }
    Ok(Version {
        major,
        minor,
        patch,
        pre,
        build,
    })
}

/// The library's `normalizeAndParse`: one leading `v` dropped, leading zeros stripped from
/// each part, a missing minor or patch added as 0 (no whitespace trimmed).
fn normalize_and_parse(s: &str) -> Result<Version, String> {
    let s = s.strip_prefix('v').unwrap_or(s);
    let mut parts: Vec<String> = s.splitn(3, '.').map(String::from).collect();
    for p in parts.iter_mut() {
        if p.len() > 1 {
            let t = p.trim_start_matches('0');
            *p = if t.is_empty() || !t.starts_with(|c: char| c.is_ascii_digit()) {
                format!("0{t}")
            } else {
                t.to_string()
            };
        }
    }
    if parts.len() < 3 {
        if parts.last().is_some_and(|p| p.contains(['+', '-'])) {
            return Err("short version cannot contain PreRelease/Build meta data".into());
        }
        parts.resize(3, "0".into());
    }
    parse(&parts.join("."))
}

impl Version {
    /// blang's `Compare`: major, minor, patch, then prerelease precedence.
    pub fn compare(&self, o: &Version) -> Ordering {
        let core = (self.major, self.minor, self.patch).cmp(&(o.major, o.minor, o.patch));
        if core != Ordering::Equal {
            return core;
        }
        match (self.pre.is_empty(), o.pre.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            _ => {}
        }
        for (a, b) in self.pre.iter().zip(o.pre.iter()) {
            let c = match (a, b) {
                (Pre::Num(x), Pre::Num(y)) => x.cmp(y),
                (Pre::Num(_), Pre::Str(_)) => Ordering::Less,
                (Pre::Str(_), Pre::Num(_)) => Ordering::Greater,
                (Pre::Str(x), Pre::Str(y)) => x.cmp(y),
            };
            if c != Ordering::Equal {
                return c;
            }
        }
        self.pre.len().cmp(&o.pre.len())
    }
}

impl std::fmt::Display for Version {
    /// `Version.String`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        for (i, p) in self.pre.iter().enumerate() {
            f.write_str(if i == 0 { "-" } else { "." })?;
            match p {
                Pre::Num(n) => write!(f, "{n}")?,
                Pre::Str(s) => f.write_str(s)?,
            }
        }
        if !self.build.is_empty() {
            write!(f, "+{}", self.build.join("."))?;
        }
        Ok(())
    }
}

/// `Semver.Equal`: by precedence (build metadata ignored); against anything but a version or
/// null, `no such overload`. `None` when the left side is no version.
pub fn equal(a: &Val, b: &Val) -> Option<Result<bool, String>> {
    match (a, b) {
        (Val::Semver(x), Val::Semver(y)) => Some(Ok(x.compare(y) == Ordering::Equal)),
        (Val::Semver(_), Val::Null) => Some(Ok(false)),
        (Val::Semver(_), _) => Some(Err("no such overload".into())),
        _ => None,
    }
}

/// The library's functions; `None` when `name` is not theirs for these arguments.
pub fn call(name: &str, target: Option<&Val>, args: &[Val]) -> Option<Result<Val, String>> {
    let read = |s: &str, normalize: bool| {
        if normalize {
            normalize_and_parse(s)
        } else {
            parse(s)
        }
    };
    let ok = |v: Val| Some(Ok(v));
    let sign = |o: Ordering| o as i64;
    match (name, target, args) {
        ("semver", None, [Val::Str(s)]) => Some(read(s, false).map(|v| Val::Semver(v.into()))),
        ("semver", None, [Val::Str(s), Val::Bool(n)]) => {
            Some(read(s, *n).map(|v| Val::Semver(v.into())))
        }
        ("isSemver", None, [Val::Str(s)]) => ok(Val::Bool(read(s, false).is_ok())),
        ("isSemver", None, [Val::Str(s), Val::Bool(n)]) => ok(Val::Bool(read(s, *n).is_ok())),
        // Go's conversion of a uint64 to int64: large numbers wrap.
        ("major", Some(Val::Semver(v)), []) => ok(Val::Int(v.major as i64)),
        ("minor", Some(Val::Semver(v)), []) => ok(Val::Int(v.minor as i64)),
        ("patch", Some(Val::Semver(v)), []) => ok(Val::Int(v.patch as i64)),
        ("isGreaterThan", Some(Val::Semver(v)), [Val::Semver(o)]) => {
            ok(Val::Bool(v.compare(o) == Ordering::Greater))
        }
        ("isLessThan", Some(Val::Semver(v)), [Val::Semver(o)]) => {
            ok(Val::Bool(v.compare(o) == Ordering::Less))
        }
        ("compareTo", Some(Val::Semver(v)), [Val::Semver(o)]) => ok(Val::Int(sign(v.compare(o)))),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
