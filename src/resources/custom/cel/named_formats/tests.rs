//! The format library against its tests in k8s.io/apiserver.

use super::super::{eval, parse, Scope, Val};

fn run(expr: &str) -> Result<Val, String> {
    let e = parse(expr)?;
    let mut steps = 0;
    eval(&e, &mut Scope::new(Vec::new(), &mut steps))
}

const LABEL: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN: &str = r"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

#[test]
fn formats_validate_as_apimachinery_does() {
    let valid = [
        r#"format.dns1123Label().validate("my-label-name")"#,
        r#"format.dns1123Subdomain().validate("apiextensions.k8s.io")"#,
        r#"format.qualifiedName().validate("apiextensions.k8s.io/v1beta1")"#,
        r#"format.dns1123LabelPrefix().validate("my-label-prefix-")"#,
        r#"format.dns1123SubdomainPrefix().validate("mysubdomain.prefix.-")"#,
        r#"format.dns1035LabelPrefix().validate("my-label-prefix-")"#,
        r#"format.uri().validate("http://example.com")"#,
        r#"format.uuid().validate("123e4567-e89b-12d3-a456-426614174000")"#,
        r#"format.byte().validate("aGVsbG8=")"#,
        r#"format.date().validate("2021-01-01")"#,
        r#"format.datetime().validate("2021-01-01T00:00:00Z")"#,
        r#"format.labelValue().validate("")"#,
        r#"format.named("dns1123Label").value().validate("ok")"#,
    ];
    for expr in valid {
        assert_eq!(run(expr), Ok(Val::Optional(None)), "{expr}");
    }
    let invalid = [
        (
            r#"format.dns1123Label().validate("contains a space")"#,
            LABEL,
        ),
        (
            r#"format.dns1123Subdomain().validate("contains a space")"#,
            SUBDOMAIN,
        ),
        (
            r#"format.dns1035Label().validate("contains a space")"#,
            DNS1035,
        ),
        (
            r#"format.qualifiedName().validate("contains a space")"#,
            NAME_PART,
        ),
        (
            r#"format.dns1123LabelPrefix().validate("contains a space-")"#,
            LABEL,
        ),
        (
            r#"format.dns1123SubdomainPrefix().validate("contains a space-")"#,
            SUBDOMAIN,
        ),
        (
            r#"format.dns1035LabelPrefix().validate("contains a space-")"#,
            DNS1035,
        ),
        (
            r#"format.dns1123Label().validate("a.b")"#,
            "must not contain dots",
        ),
        (r#"format.byte().validate("aGVsbG8")"#, "invalid base64"),
        (r#"format.date().validate("2020-01-32")"#, "invalid date"),
        (
            r#"format.datetime().validate("2020-01-32T00:00:00Z")"#,
            "invalid datetime",
        ),
        (
            r#"format.uuid().validate("nope")"#,
            "does not match the UUID format",
        ),
        (
            r#"format.uri().validate("foo")"#,
            r#"parse "foo": invalid URI for request"#,
        ),
    ];
    for (expr, msg) in invalid {
        let want = run(&format!("optional.of([{}])", crate::codec::go_quote(msg)));
        assert_eq!(run(expr), want, "{expr}");
    }
    let t = |e: &str| assert_eq!(run(e), Ok(Val::Bool(true)), "{e}");
    t(r#"!format.named("unknown").hasValue() && !format.named("dns1123subdomain").hasValue()"#);
    t(r#"format.named("dns1123Label").value() == format.dns1123Label()"#);
    t(r#"format.dns1123Label() != format.dns1035Label()"#);
    t(r#"type(format.uri()) == kubernetes.NamedFormat"#);
}
