//! String validators for names, label keys/values and path segments, returning apimachinery's
//! exact message lists.
//!
//! Every function returns the messages in the order Go appends them; an empty list means valid.
//! Callers wrap each message in a `field.Invalid` error (`<path>: Invalid value: "<v>": <msg>`).
//!
//! Sources: `k8s.io/apimachinery` `pkg/util/validation/validation.go` (DNS names, whose length
//! message says "characters"), `pkg/api/validate/content/{kube,dns,path,errors}.go` (label keys
//! and values, whose length message says "bytes"), `pkg/api/validation/generic.go`
//! (`NameIsDNSSubdomain`, `NameIsDNSLabel`, `maskTrailingDash`).
//!
//! Matching works on bytes, like Go's `regexp` on UTF-8 input: any non-ASCII byte fails the
//! ASCII character classes, and lengths are byte lengths.

/// apimachinery's `dns1123LabelFmt`, quoted in regex errors.
const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_ERR: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
/// apimachinery's `dns1123SubdomainFmt`.
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_ERR: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_ERR: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/// Maximum length of a DNS-1123 label (and of a label key's name part / a label value).
pub const DNS1123_LABEL_MAX_LENGTH: usize = 63;
/// Maximum length of a DNS-1123 subdomain.
pub const DNS1123_SUBDOMAIN_MAX_LENGTH: usize = 253;

/// Which wording a "too long" message uses: `pkg/util/validation` says "characters" (names,
/// namespaces), `pkg/api/validate/content` says "bytes" (label keys, label values, key prefixes).
#[derive(Clone, Copy)]
enum LenUnit {
    Characters,
    Bytes,
}

fn max_len_error(length: usize, unit: LenUnit) -> String {
    match unit {
        LenUnit::Characters => format!("must be no more than {length} characters"),
        LenUnit::Bytes => format!("must be no more than {length} bytes"),
    }
}

/// apimachinery's `RegexError`: note the `', ` + ` or ` joint, which yields two spaces.
pub(crate) fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    let mut s = format!("{msg} (e.g. ");
    for (i, ex) in examples.iter().enumerate() {
        if i > 0 {
            s.push_str(" or ");
        }
        s.push('\'');
        s.push_str(ex);
        s.push_str("', ");
    }
    s.push_str("regex used for validation is '");
    s.push_str(fmt);
    s.push_str("')");
    s
}

fn is_lower_alnum(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit()
}

/// `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
fn matches_dns_label(b: &[u8]) -> bool {
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) => {
            is_lower_alnum(f)
                && is_lower_alnum(l)
                && b.iter().all(|&c| is_lower_alnum(c) || c == b'-')
        }
        _ => false,
    }
}

/// `^<label>(\.<label>)*$`
fn matches_dns_subdomain(b: &[u8]) -> bool {
    b.split(|&c| c == b'.').all(matches_dns_label)
}

/// `^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`
fn matches_label_key_name(b: &[u8]) -> bool {
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) => {
            f.is_ascii_alphanumeric()
                && l.is_ascii_alphanumeric()
                && b.iter()
                    .all(|&c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_' || c == b'.')
        }
        _ => false,
    }
}

/// `validation.IsDNS1035Label`: `^[a-z]([-a-z0-9]*[a-z0-9])?$`, at most 63 characters
/// (CustomResourceDefinition version and resource names).
pub fn is_dns1035_label(value: &str) -> Vec<String> {
    let b = value.as_bytes();
    let mut errs = Vec::new();
    if b.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LENGTH, LenUnit::Characters));
    }
    if !(matches_dns_label(b) && b[0].is_ascii_lowercase()) {
        errs.push(regex_error(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
            "[a-z]([-a-z0-9]*[a-z0-9])?",
            &["my-name", "abc-123"],
        ));
    }
    errs
}

fn dns1123_label(b: &[u8], unit: LenUnit) -> Vec<String> {
    let mut errs = Vec::new();
    if b.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LENGTH, unit));
    }
    if !matches_dns_label(b) {
        if matches_dns_subdomain(b) {
            // A valid subdomain but not a label: length was checked, so it must be dots.
            errs.push("must not contain dots".to_string());
        } else {
            errs.push(regex_error(
                DNS1123_LABEL_ERR,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

fn dns1123_subdomain(b: &[u8], unit: LenUnit) -> Vec<String> {
    let mut errs = Vec::new();
    if b.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH, unit));
    }
    if !matches_dns_subdomain(b) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_ERR,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `validation.IsDNS1123Label`: a lowercase RFC 1123 label of at most 63 characters (namespace
/// names, DNS-label object names).
pub fn is_dns1123_label(value: &str) -> Vec<String> {
    dns1123_label(value.as_bytes(), LenUnit::Characters)
}

/// `validation.IsDNS1123Subdomain`: dot-separated lowercase labels, at most 253 characters in
/// total (most object names, e.g. ControllerRevision).
pub fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    dns1123_subdomain(value.as_bytes(), LenUnit::Characters)
}

/// `validation.IsQualifiedName` (= `content.IsLabelKey` in current apimachinery): label keys,
/// annotation keys (lower-cased by the caller) and finalizer names. An optional DNS-subdomain
/// prefix and `/`, then a name part of at most 63 bytes.
pub fn is_qualified_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                for msg in dns1123_subdomain(prefix.as_bytes(), LenUnit::Bytes) {
                    errs.push(format!("prefix part {msg}"));
                }
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_ERR, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(format!(
            "name part {}",
            max_len_error(DNS1123_LABEL_MAX_LENGTH, LenUnit::Bytes)
        ));
    }
    if !matches_label_key_name(name.as_bytes()) {
        errs.push(format!(
            "name part {}",
            regex_error(
                LABEL_KEY_ERR,
                LABEL_KEY_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// `validation.IsValidLabelValue` (= `content.IsLabelValue`): empty, or a label-key-like name of
/// at most 63 bytes.
pub fn is_valid_label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LENGTH, LenUnit::Bytes));
    }
    if !value.is_empty() && !matches_label_key_name(value.as_bytes()) {
        errs.push(regex_error(
            LABEL_VALUE_ERR,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `path.IsValidPathSegmentName`: the name can be one segment of a URL or storage key. Exactly
/// `.` or `..` gives that single message; otherwise one message per `/` and `%` found.
pub fn is_valid_path_segment_name(name: &str) -> Vec<String> {
    for illegal in [".", ".."] {
        if name == illegal {
            return vec![format!("may not be '{illegal}'")];
        }
    }
    is_valid_path_segment_prefix(name)
}

/// `path.IsValidPathSegmentPrefix`: a generateName prefix can't contain `/` or `%` (exact `.`/`..`
/// are fine there, since a suffix follows).
pub fn is_valid_path_segment_prefix(name: &str) -> Vec<String> {
    ["/", "%"]
        .iter()
        .filter(|illegal| name.contains(**illegal))
        .map(|illegal| format!("may not contain '{illegal}'"))
        .collect()
}

/// The generic store's name rule (`path.ValidatePathSegmentName`, in `rest.BeforeCreate` as
/// `content.IsPathSegmentName`/`IsPathSegmentPrefix`), usable as a
/// [`NameValidator`](super::object_meta::NameValidator); `prefix` is true for generateName.
///
/// When: kube-apiserver runs `ValidateObjectMetaAccessor(meta, namespaced, <this>, "metadata")`
/// (i) on create in `rest.BeforeCreate`, only after the kind's strategy validation returned no
/// errors, and (ii) on update in `rest.BeforeUpdate` (`validateCommonFields`), before the
/// strategy's update validation, its errors prepended to the strategy's. Use
/// [`validate_generic_create`](super::object_meta::validate_generic_create) and
/// [`validate_common_fields_for_update`](super::object_meta::validate_common_fields_for_update).
/// Result: 422 `Invalid`, e.g. `metadata.name: Invalid value: "a%b": may not contain '%'`. For
/// kinds whose names are DNS subdomains or labels it never fires on its own, because `.`, `..`,
/// `/` and `%` already fail the DNS rules.
pub fn validate_path_segment(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        is_valid_path_segment_prefix(name)
    } else {
        is_valid_path_segment_name(name)
    }
}

/// `maskTrailingDash`, bug included: a trailing `-` and the byte before it are replaced by `a`
/// (so `ab-` is checked as `aa`, `x-` as `a`). Works on bytes because Go may cut a multi-byte
/// character in half, which then fails the regex.
fn mask_trailing_dash(name: &str) -> Vec<u8> {
    let b = name.as_bytes();
    if b.len() >= 2 && b[b.len() - 1] == b'-' {
        let mut out = b[..b.len() - 2].to_vec();
        out.push(b'a');
        out
    } else {
        // Includes "-" itself, which Go's length check leaves as it is.
        b.to_vec()
    }
}

fn masked(name: &str, prefix: bool) -> Vec<u8> {
    if prefix {
        mask_trailing_dash(name)
    } else {
        name.as_bytes().to_vec()
    }
}

/// `NameIsDNSSubdomain`: the name validator of most kinds (ControllerRevision, Pod, Secret...);
/// with `prefix` (generateName) a trailing `-` is allowed.
pub fn name_is_dns_subdomain(name: &str, prefix: bool) -> Vec<String> {
    dns1123_subdomain(&masked(name, prefix), LenUnit::Characters)
}

/// `NameIsDNSLabel`: the name validator of DNS-label-named kinds (Namespace); with `prefix`
/// (generateName) a trailing `-` is allowed.
pub fn name_is_dns_label(name: &str, prefix: bool) -> Vec<String> {
    dns1123_label(&masked(name, prefix), LenUnit::Characters)
}

/// `ValidateNamespaceName`: Namespace names (and every `metadata.namespace`) are DNS labels.
pub fn validate_namespace_name(name: &str, prefix: bool) -> Vec<String> {
    name_is_dns_label(name, prefix)
}

/// `ValidateControllerRevisionName` (`pkg/apis/apps/validation`): a DNS subdomain.
pub fn validate_controller_revision_name(name: &str, prefix: bool) -> Vec<String> {
    name_is_dns_subdomain(name, prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUB_RE: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    const LABEL_RE: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    const KEY_NAME_RE: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    const VALUE_RE: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

    fn check(f: fn(&str) -> Vec<String>, cases: &[(&str, &[&str])]) {
        for (input, want) in cases {
            assert_eq!(f(input), want.to_vec(), "input {input:?}");
        }
    }

    #[test]
    fn dns1123_subdomain_cases() {
        let long = "a".repeat(254);
        let max = "a".repeat(253);
        let cases: &[(&str, &[&str])] = &[
            ("a", &[]),
            ("example.com", &[]),
            ("1-2.x9", &[]),
            (&max, &[]),
            ("", &[SUB_RE]),
            ("Bad_Name", &[SUB_RE]),
            ("a..b", &[SUB_RE]),
            ("-a", &[SUB_RE]),
            ("a-", &[SUB_RE]),
            (".", &[SUB_RE]),
            ("a/b", &[SUB_RE]),
            ("é", &[SUB_RE]),
            ("a\n", &[SUB_RE]),
            (&long, &["must be no more than 253 characters"]),
        ];
        check(is_dns1123_subdomain, cases);
        let long_bad = format!("{}_", "a".repeat(253));
        assert_eq!(
            is_dns1123_subdomain(&long_bad),
            vec!["must be no more than 253 characters", SUB_RE]
        );
    }

    #[test]
    fn dns1123_label_cases() {
        let long = "a".repeat(64);
        let cases: &[(&str, &[&str])] = &[
            ("abc", &[]),
            ("0", &[]),
            (&long, &["must be no more than 63 characters"]),
            ("a.b", &["must not contain dots"]),
            ("ABC", &[LABEL_RE]),
            ("", &[LABEL_RE]),
            ("a_b", &[LABEL_RE]),
        ];
        check(is_dns1123_label, cases);
        let long_dots = format!("{}.b", "a".repeat(63));
        assert_eq!(
            is_dns1123_label(&long_dots),
            vec![
                "must be no more than 63 characters",
                "must not contain dots"
            ]
        );
    }

    #[test]
    fn qualified_name_cases() {
        let long_name = "a".repeat(64);
        let long_prefix = format!("{}/a", "a".repeat(254));
        let ok_long = format!("{}/{}", "a".repeat(253), "b".repeat(63));
        let three = "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
        let prefix_re = format!("prefix part {SUB_RE}");
        let cases: &[(&str, &[&str])] = &[
            ("simple", &[]),
            ("Uppercase_Is_OK_123", &[]),
            ("example.com/Uppercase_Is_OK_123", &[]),
            (&ok_long, &[]),
            ("", &["name part must be non-empty", KEY_NAME_RE]),
            ("-cant", &[KEY_NAME_RE]),
            ("only/one/slash", &[three]),
            ("/simple", &["prefix part must be non-empty"]),
            (
                "example.com/",
                &["name part must be non-empty", KEY_NAME_RE],
            ),
            ("Example.com/abc", &[&prefix_re]),
            (&long_name, &["name part must be no more than 63 bytes"]),
            (
                &long_prefix,
                &["prefix part must be no more than 253 bytes"],
            ),
        ];
        check(is_qualified_name, cases);
    }

    #[test]
    fn label_value_cases() {
        let long = "a".repeat(64);
        let cases: &[(&str, &[&str])] = &[
            ("", &[]),
            ("a", &[]),
            ("My_value-1.2", &[]),
            ("-x", &[VALUE_RE]),
            ("x.", &[VALUE_RE]),
            ("Tama-nui-te-rā", &[VALUE_RE]),
            (&long, &["must be no more than 63 bytes"]),
        ];
        check(is_valid_label_value, cases);
    }

    #[test]
    fn path_segment_cases() {
        let name: &[(&str, &[&str])] = &[
            ("a", &[]),
            ("...", &[]),
            (".", &["may not be '.'"]),
            ("..", &["may not be '..'"]),
            ("a/b", &["may not contain '/'"]),
            ("a%b/c", &["may not contain '/'", "may not contain '%'"]),
        ];
        for (input, want) in name {
            assert_eq!(
                validate_path_segment(input, false),
                want.to_vec(),
                "{input}"
            );
        }
        assert!(validate_path_segment(".", true).is_empty());
        assert_eq!(
            validate_path_segment("%", true),
            vec!["may not contain '%'"]
        );
    }

    #[test]
    fn generate_name_masking() {
        // (prefix, subdomain errors, label errors)
        let cases: &[(&str, bool, bool)] = &[
            ("abc-", true, true),
            ("a-", true, true),
            ("--", true, true),
            ("x.y-", true, false),
            ("-a-", false, false),
            ("é-", false, false),
            ("Ab-", false, false),
            ("abc", true, true),
        ];
        for (input, sub_ok, label_ok) in cases {
            assert_eq!(
                name_is_dns_subdomain(input, true).is_empty(),
                *sub_ok,
                "{input}"
            );
            assert_eq!(
                name_is_dns_label(input, true).is_empty(),
                *label_ok,
                "{input}"
            );
        }
        assert_eq!(name_is_dns_subdomain("abc-", false), vec![SUB_RE]);
        assert_eq!(name_is_dns_subdomain("-", true), vec![SUB_RE]);
        let long = format!("{}-", "a".repeat(64));
        assert_eq!(
            validate_namespace_name(&long, true),
            vec!["must be no more than 63 characters"]
        );
        assert!(validate_controller_revision_name("rev-1.a", false).is_empty());
    }
}
