//! The semver library against its tests in k8s.io/apiserver and blang/semver's texts.

use super::super::{eval, parse as cel, Scope, Val};

fn run(expr: &str) -> Result<Val, String> {
    let e = cel(expr)?;
    let mut steps = 0;
    eval(&e, &mut Scope::new(Vec::new(), &mut steps))
}

#[test]
fn versions_parse_and_compare_as_blang_semver() {
    let t = |e: &str| (e.to_string(), Ok(Val::Bool(true)));
    let f = |e: &str| (e.to_string(), Ok(Val::Bool(false)));
    let err = |e: &str, m: &str| (e.to_string(), Err(m.to_string()));
    let cases = vec![
        t(r#"isSemver("1.0.0")"#),
        t(r#"isSemver("1.0.0-alpha.1+build.5")"#),
        f(r#"isSemver("")"#),
        f(r#"isSemver("v1.0.0")"#),
        f(r#"isSemver(" 1.0.0")"#),
        f(r#"isSemver("1. 0.0")"#),
        f(r#"isSemver("1.0.0 ")"#),
        f(r#"isSemver("01.01.01")"#),
        f(r#"isSemver("1")"#),
        f(r#"isSemver("1.1")"#),
        t(r#"isSemver("v1.0.0", true)"#),
        t(r#"isSemver("01.01.01", true)"#),
        t(r#"isSemver("1", true)"#),
        t(r#"isSemver("1.1", true)"#),
        f(r#"isSemver("", true)"#),
        f(r#"isSemver(" 1.0.0", true)"#),
        t(r#"semver("v01.01", true) == semver("1.1.0")"#),
        t(r#"semver("1.0.0+a") == semver("1.0.0+b")"#),
        t(r#"semver("1.0.0-alpha") != semver("1.0.0")"#),
        err(r#"semver("v1.0")"#, "No Major.Minor.Patch elements found"),
        err(r#"semver("")"#, "Version string empty"),
        err(
            r#"semver("v1.0.0")"#,
            r#"Invalid character(s) found in major number "v1""#,
        ),
        err(
            r#"semver("01.1.1")"#,
            r#"Major number must not contain leading zeroes "01""#,
        ),
        err(
            r#"semver("1.01.1")"#,
            r#"Minor number must not contain leading zeroes "01""#,
        ),
        err(
            r#"semver("1.2.3.4")"#,
            r#"Invalid character(s) found in patch number "3.4""#,
        ),
        err(
            r#"semver(".1.2")"#,
            r#"strconv.ParseUint: parsing "": invalid syntax"#,
        ),
        err(r#"semver("1.0.0-")"#, "Prerelease is empty"),
        err(r#"semver("1.0.0+")"#, "Build meta data is empty"),
        err(
            r#"semver("1.0.0-01")"#,
            r#"Numeric PreRelease version must not contain leading zeroes "01""#,
        ),
        err(
            r#"semver("1.0.0-a_b")"#,
            r#"Invalid character(s) found in prerelease "a_b""#,
        ),
        err(
            r#"semver("1.0.0+a_b")"#,
            r#"Invalid character(s) found in build meta data "a_b""#,
        ),
        err(
            r#"semver("1.0-rc", true)"#,
            "short version cannot contain PreRelease/Build meta data",
        ),
        err(
            r#"semver("", true)"#,
            r#"strconv.ParseUint: parsing "": invalid syntax"#,
        ),
        t(
            r#"semver("1.2.3").major() == 1 && semver("1.2.3").minor() == 2 && semver("1.2.3").patch() == 3"#,
        ),
        t(r#"semver("1.0.0").isLessThan(semver("1.1.0"))"#),
        t(r#"semver("2.0.0").isGreaterThan(semver("1.10.0"))"#),
        t(r#"semver("1.0.0-alpha").isLessThan(semver("1.0.0-alpha.1"))"#),
        t(r#"semver("1.0.0-alpha.1").isLessThan(semver("1.0.0-alpha.beta"))"#),
        t(r#"semver("1.0.0-beta.2").isLessThan(semver("1.0.0-beta.11"))"#),
        t(r#"semver("1.0.0-rc.1").isLessThan(semver("1.0.0"))"#),
        t(r#"semver("1.0.0").compareTo(semver("1.0.0+x")) == 0"#),
        t(r#"semver("1.0.0").compareTo(semver("2.0.0")) == -1"#),
        t(r#"type(semver("1.0.0")) == kubernetes.Semver"#),
        err(r#"semver("1.0.0") == "1.0.0""#, "no such overload"),
        f(r#""1.0.0" == semver("1.0.0")"#),
        t(r#"semver("1.2.03-alpha", true) == semver("1.2.3-alpha")"#),
    ];
    for (expr, want) in cases {
        assert_eq!(run(&expr), want, "{expr}");
    }
}
