//! Command-line flags as kubectl's (spf13/pflag through cobra) parses them: `--name=value`,
//! `--name value`, `-n value`, `-nvalue`, `-n=value`, booleans alone or `=true|false`,
//! shorthand booleans grouped (`-Aw`), flags anywhere among the arguments, `--` ending them;
//! and pflag's error texts.

/// Whether a flag takes a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bool,
    Value,
}

/// One flag a command accepts.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub long: &'static str,
    pub short: Option<char>,
    pub kind: Kind,
}

pub const fn value(long: &'static str, short: Option<char>) -> Spec {
    Spec {
        long,
        short,
        kind: Kind::Value,
    }
}

pub const fn boolean(long: &'static str, short: Option<char>) -> Spec {
    Spec {
        long,
        short,
        kind: Kind::Bool,
    }
}

/// kubectl's global flags, accepted by every command.
pub const GLOBAL: &[Spec] = &[
    value("namespace", Some('n')),
    value("v", Some('v')),
    value("as", None),
    value("as-group", None),
    value("as-uid", None),
    value("kubeconfig", None),
    value("context", None),
    value("cluster", None),
    value("user", None),
    value("server", Some('s')),
    value("token", None),
    value("request-timeout", None),
    value("cache-dir", None),
    boolean("insecure-skip-tls-verify", None),
    boolean("match-server-version", None),
    boolean("warnings-as-errors", None),
];

/// The flags and arguments of one command line.
#[derive(Debug, Default, Clone)]
pub struct Parsed {
    pub args: Vec<String>,
    values: Vec<(&'static str, String)>,
}

impl Parsed {
    /// The last value given for `long`.
    pub fn get(&self, long: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(l, _)| *l == long)
            .map(|(_, v)| v.as_str())
    }

    /// Every value given for `long`, in order (repeatable flags: `--from-literal`, `-f`).
    pub fn all(&self, long: &str) -> Vec<&str> {
        self.values
            .iter()
            .filter(|(l, _)| *l == long)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// A boolean flag's value (false when absent).
    pub fn on(&self, long: &str) -> bool {
        self.get(long) == Some("true")
    }

    pub fn has(&self, long: &str) -> bool {
        self.get(long).is_some()
    }
}

fn find<'a>(specs: &[&'a [Spec]], f: impl Fn(&Spec) -> bool) -> Option<&'a Spec> {
    specs.iter().flat_map(|s| s.iter()).find(|s| f(s))
}

fn parse_bool(spec: &Spec, text: &str, shown: &str) -> Result<String, String> {
    match text {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Ok("true".into()),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Ok("false".into()),
        _ => Err(format!(
            "invalid argument {text:?} for {shown:?} flag: strconv.ParseBool: parsing {text:?}: invalid syntax",
            shown = match spec.short {
                Some(c) => format!("-{c}, --{}", spec.long),
                None => format!("--{}", shown.trim_start_matches('-')),
            }
        )),
    }
}

/// Parses `words` (the command's, after its name) against the command's flags and the global
/// ones; pflag's error text on failure.
pub fn parse(words: &[String], command: &[Spec]) -> Result<Parsed, String> {
    let specs = [command, GLOBAL];
    let mut out = Parsed::default();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        i += 1;
        if w == "--" {
            out.args.extend(words[i..].iter().cloned());
            break;
        }
        if let Some(long) = w.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let spec = find(&specs, |s| s.long == name)
                .ok_or_else(|| format!("unknown flag: --{name}"))?;
            let v = match (spec.kind, inline) {
                (Kind::Bool, None) => "true".to_string(),
                (Kind::Bool, Some(v)) => parse_bool(spec, v, &format!("--{name}"))?,
                (Kind::Value, Some(v)) => v.to_string(),
                (Kind::Value, None) => {
                    let v = words
                        .get(i)
                        .ok_or_else(|| format!("flag needs an argument: --{name}"))?;
                    i += 1;
                    v.clone()
                }
            };
            out.values.push((spec.long, v));
        } else if w.len() > 1 && w.starts_with('-') {
            let shorts: Vec<char> = w[1..].chars().collect();
            let mut j = 0;
            while j < shorts.len() {
                let c = shorts[j];
                let spec = find(&specs, |s| s.short == Some(c))
                    .ok_or_else(|| format!("unknown shorthand flag: '{c}' in {w}"))?;
                let rest: String = shorts[j + 1..].iter().collect();
                match spec.kind {
                    Kind::Bool => {
                        if let Some(v) = rest.strip_prefix('=') {
                            out.values
                                .push((spec.long, parse_bool(spec, v, &format!("-{c}"))?));
                            break;
                        }
                        out.values.push((spec.long, "true".into()));
                        j += 1;
                    }
                    Kind::Value => {
                        let v = if let Some(v) = rest.strip_prefix('=') {
                            v.to_string()
                        } else if !rest.is_empty() {
                            rest
                        } else {
                            let v = words
                                .get(i)
                                .ok_or_else(|| format!("flag needs an argument: '{c}' in {w}"))?;
                            i += 1;
                            v.clone()
                        };
                        out.values.push((spec.long, v));
                        break;
                    }
                }
            }
        } else {
            out.args.push(w.clone());
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GET: &[Spec] = &[
        value("output", Some('o')),
        boolean("all-namespaces", Some('A')),
        boolean("watch", Some('w')),
    ];

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn the_forms_pflag_accepts() {
        let p = parse(&words("cm -oyaml -n=demo x --v 8 -Aw --output=json"), GET).unwrap();
        assert_eq!(p.args, ["cm", "x"]);
        assert_eq!(p.get("output"), Some("json"));
        assert_eq!(p.all("output"), ["yaml", "json"]);
        assert_eq!(p.get("namespace"), Some("demo"));
        assert_eq!(p.get("v"), Some("8"));
        assert!(p.on("all-namespaces") && p.on("watch"));
        let p = parse(&words("-- -n x"), GET).unwrap();
        assert_eq!(p.args, ["-n", "x"]);
    }

    #[test]
    fn pflag_error_texts() {
        for (line, want) in [
            ("--foo", "unknown flag: --foo"),
            ("-x", "unknown shorthand flag: 'x' in -x"),
            ("-Ax", "unknown shorthand flag: 'x' in -Ax"),
            ("-n", "flag needs an argument: 'n' in -n"),
            ("--namespace", "flag needs an argument: --namespace"),
            (
                "--watch=maybe",
                "invalid argument \"maybe\" for \"-w, --watch\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax",
            ),
        ] {
            assert_eq!(parse(&words(line), GET).unwrap_err(), want, "{line}");
        }
    }
}
