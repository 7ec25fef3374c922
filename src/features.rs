//! Feature gates, parsed from kube-apiserver's `--feature-gates` flag format.
//!
//! Only the gates the spec names are known; an unknown gate is an error, as it is for
//! kube-apiserver (`unrecognized feature gate: X`).

use std::collections::BTreeMap;

/// Every gate kubesim knows, with its default (spec "Versioning" table).
pub const KNOWN_GATES: &[(&str, bool)] = &[
    ("APIResponseCompression", true),
    ("AllowUnsafeMalformedObjectDeletion", false),
    ("CBORServingAndStorage", false),
    ("ConstrainedImpersonation", true),
    ("ListFromCacheSnapshot", true),
    ("ShardedListAndWatch", false),
    ("WatchList", true),
];

/// The enabled/disabled state of every known gate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatureGates {
    gates: BTreeMap<&'static str, bool>,
}

impl Default for FeatureGates {
    fn default() -> Self {
        // Inserted one by one (`extend`), not collected: collecting sorts first (see
        // `crate::sort`, a module of this same base layer).
        let mut gates = BTreeMap::new();
        gates.extend(KNOWN_GATES.iter().copied());
        FeatureGates { gates }
    }
}

impl FeatureGates {
    /// Parses `Name=true,Other=false` on top of the defaults.
    pub fn parse(spec: &str) -> Result<Self, String> {
        let mut g = FeatureGates::default();
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("missing bool value for {item}"))?;
            let enabled = parse_go_bool(value.trim()).ok_or_else(|| {
                format!(
                    "invalid value of {}={}, err: strconv.ParseBool: parsing {:?}: invalid syntax",
                    name.trim(),
                    value.trim(),
                    value.trim()
                )
            })?;
            g.set(name.trim(), enabled)?;
        }
        Ok(g)
    }

    /// Enables or disables one gate by name.
    pub fn set(&mut self, name: &str, enabled: bool) -> Result<(), String> {
        match KNOWN_GATES.iter().find(|(n, _)| *n == name) {
            Some((n, _)) => {
                self.gates.insert(n, enabled);
                Ok(())
            }
            None => Err(format!("unrecognized feature gate: {name}")),
        }
    }

    /// Whether a gate is on; unknown names are off.
    pub fn enabled(&self, name: &str) -> bool {
        self.gates.get(name).copied().unwrap_or(false)
    }

    /// All gates and their states, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, bool)> + '_ {
        self.gates.iter().map(|(k, v)| (*k, *v))
    }
}

/// Go's `strconv.ParseBool`.
pub fn parse_go_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Some(true),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_spec() {
        let g = FeatureGates::default();
        assert!(g.enabled("APIResponseCompression"));
        assert!(g.enabled("ListFromCacheSnapshot"));
        assert!(!g.enabled("CBORServingAndStorage"));
        assert!(!g.enabled("ShardedListAndWatch"));
        assert!(!g.enabled("AllowUnsafeMalformedObjectDeletion"));
    }

    #[test]
    fn parses_flag_format() {
        let g = FeatureGates::parse("CBORServingAndStorage=true, APIResponseCompression=false")
            .unwrap();
        assert!(g.enabled("CBORServingAndStorage"));
        assert!(!g.enabled("APIResponseCompression"));
        assert_eq!(
            FeatureGates::parse("Nope=true").unwrap_err(),
            "unrecognized feature gate: Nope"
        );
        assert!(FeatureGates::parse("ShardedListAndWatch").is_err());
        assert!(FeatureGates::parse("ShardedListAndWatch=maybe").is_err());
    }
}
