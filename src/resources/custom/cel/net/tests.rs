//! The IP and CIDR libraries against the results and texts of the real libraries (their
//! tests in k8s.io/apiserver, and Go's `net/netip`).

use super::super::{eval, parse, Scope, Val};

fn run(expr: &str) -> Result<Val, String> {
    let e = parse(expr)?;
    let mut steps = 0;
    eval(&e, &mut Scope::new(Vec::new(), &mut steps))
}

fn yes(expr: &str) -> (&str, Result<Val, String>) {
    (expr, Ok(Val::Bool(true)))
}

fn no(expr: &str) -> (&str, Result<Val, String>) {
    (expr, Ok(Val::Bool(false)))
}

fn text(expr: &str, s: &str) -> (&'static str, Result<Val, String>) {
    let expr: &'static str = Box::leak(expr.to_string().into_boxed_str());
    (expr, Ok(Val::Str(s.into())))
}

fn err<'a>(expr: &'a str, e: &str) -> (&'a str, Result<Val, String>) {
    (expr, Err(e.into()))
}

#[test]
fn ip_library() {
    let cases = [
        yes(r#"isIP("192.168.0.1")"#),
        no(r#"isIP("192.168.0.1.0")"#),
        err(
            r#"ip("192.168.0.1.0")"#,
            r#"IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long"#,
        ),
        yes(r#"ip.isCanonical("127.0.0.1")"#),
        err(
            r#"ip.isCanonical("127.0.0.1.0")"#,
            r#"IP Address "127.0.0.1.0" parse error during conversion from string: ParseAddr("127.0.0.1.0"): IPv4 address too long"#,
        ),
        yes(r#"ip("192.168.0.1").family() == 4"#),
        yes(r#"ip("0.0.0.0").isUnspecified()"#),
        no(r#"ip("127.0.0.1").isUnspecified()"#),
        yes(r#"ip("127.0.0.1").isLoopback()"#),
        no(r#"ip("1.2.3.4").isLoopback()"#),
        yes(r#"ip("224.0.0.1").isLinkLocalMulticast()"#),
        no(r#"ip("224.0.1.1").isLinkLocalMulticast()"#),
        yes(r#"ip("169.254.169.254").isLinkLocalUnicast()"#),
        no(r#"ip("192.168.0.1").isLinkLocalUnicast()"#),
        yes(r#"ip("192.168.0.1").isGlobalUnicast()"#),
        no(r#"ip("255.255.255.255").isGlobalUnicast()"#),
        yes(r#"isIP("2001:db8::68")"#),
        no(r#"isIP("2001:db8:::68")"#),
        err(
            r#"ip("2001:db8:::68")"#,
            r#"IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")"#,
        ),
        yes(r#"ip.isCanonical("2001:db8::68")"#),
        no(r#"ip.isCanonical("2001:DB8::68")"#),
        no(r#"ip.isCanonical("2001:db8:0:0:0:0:0:68")"#),
        yes(r#"ip("2001:db8::68").family() == 6"#),
        yes(r#"ip("::").isUnspecified()"#),
        no(r#"ip("::1").isUnspecified()"#),
        yes(r#"ip("::1").isLoopback()"#),
        no(r#"ip("2001:db8::abcd").isLoopback()"#),
        yes(r#"ip("ff02::1").isLinkLocalMulticast()"#),
        no(r#"ip("fd00::1").isLinkLocalMulticast()"#),
        yes(r#"ip("fe80::1").isLinkLocalUnicast()"#),
        no(r#"ip("fd80::1").isLinkLocalUnicast()"#),
        yes(r#"ip("2001:db8::abcd").isGlobalUnicast()"#),
        no(r#"ip("ff00::1").isGlobalUnicast()"#),
        text(r#"string(ip("192.168.0.1"))"#, "192.168.0.1"),
        text(
            r#"string(ip("2001:0db8:0000:0000:0001:0000:0000:0001"))"#,
            "2001:db8::1:0:0:1",
        ),
        text(r#"string(ip("1:0:0:2:0:0:0:3"))"#, "1:0:0:2::3"),
        text(r#"string(ip("1:0:2:3:4:5:6:7"))"#, "1:0:2:3:4:5:6:7"),
        text(r#"string(ip("::ffff"))"#, "::ffff"),
        text(r#"string(ip("64:ff9b::1.2.3.4"))"#, "64:ff9b::102:304"),
        yes(r#"type(ip("192.168.0.1")) == net.IP"#),
        yes(r#"ip("10.0.0.1") == ip("10.0.0.1") && ip("::1") != ip("::2")"#),
        err(
            r#"ip("::ffff:1.2.3.4")"#,
            r#"IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed"#,
        ),
        err(
            r#"ip("fe80::1%eth0")"#,
            r#"IP address "fe80::1%eth0" with zone value is not allowed"#,
        ),
        err(
            r#"ip("01.2.3.4")"#,
            r#"IP Address "01.2.3.4" parse error during conversion from string: ParseAddr("01.2.3.4"): IPv4 field has octet with leading zero"#,
        ),
        err(
            r#"ip("1.2.3.256")"#,
            r#"IP Address "1.2.3.256" parse error during conversion from string: ParseAddr("1.2.3.256"): IPv4 field has value >255"#,
        ),
        err(
            r#"ip("1.2..3")"#,
            r#"IP Address "1.2..3" parse error during conversion from string: ParseAddr("1.2..3"): IPv4 field must have at least one digit (at ".3")"#,
        ),
        err(
            r#"ip("1.2.3")"#,
            r#"IP Address "1.2.3" parse error during conversion from string: ParseAddr("1.2.3"): IPv4 address too short"#,
        ),
        err(
            r#"ip("1.2.3.x")"#,
            r#"IP Address "1.2.3.x" parse error during conversion from string: ParseAddr("1.2.3.x"): unexpected character (at "x")"#,
        ),
        err(
            r#"ip("localhost")"#,
            r#"IP Address "localhost" parse error during conversion from string: ParseAddr("localhost"): unable to parse IP"#,
        ),
        err(
            r#"ip("12345::1")"#,
            r#"IP Address "12345::1" parse error during conversion from string: ParseAddr("12345::1"): each group must have 4 or less digits (at "12345::1")"#,
        ),
        err(
            r#"ip("1:2:3:4:5:6:7")"#,
            r#"IP Address "1:2:3:4:5:6:7" parse error during conversion from string: ParseAddr("1:2:3:4:5:6:7"): address string too short"#,
        ),
        err(
            r#"ip("1::2::3")"#,
            r#"IP Address "1::2::3" parse error during conversion from string: ParseAddr("1::2::3"): multiple :: in address (at ":3")"#,
        ),
        err(
            r#"ip("1:2:3:4:5:6:7:8::")"#,
            r#"IP Address "1:2:3:4:5:6:7:8::" parse error during conversion from string: ParseAddr("1:2:3:4:5:6:7:8::"): the :: must expand to at least one field of zeros"#,
        ),
        err(
            r#"ip("1:2:3:4:5:6:7:8:9")"#,
            r#"IP Address "1:2:3:4:5:6:7:8:9" parse error during conversion from string: ParseAddr("1:2:3:4:5:6:7:8:9"): trailing garbage after address (at "9")"#,
        ),
        err(
            r#"ip("1:2:")"#,
            r#"IP Address "1:2:" parse error during conversion from string: ParseAddr("1:2:"): colon must be followed by more characters (at ":")"#,
        ),
        err(
            r#"ip("::1.2.3.04")"#,
            r#"IP Address "::1.2.3.04" parse error during conversion from string: ParseAddr("::1.2.3.04"): IPv4 field has octet with leading zero"#,
        ),
    ];
    for (expr, want) in cases {
        assert_eq!(run(expr), want, "{expr}");
    }
}

#[test]
fn cidr_library() {
    let cases = [
        err(
            r#"cidr("192.168.0.0/")"#,
            r#"network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/"): bad bits after slash: """#,
        ),
        err(
            r#"cidr("2001:db8::/")"#,
            r#"network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("2001:db8::/"): bad bits after slash: """#,
        ),
        err(
            r#"cidr("10.0.0.0/33")"#,
            r#"network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("10.0.0.0/33"): prefix length out of range"#,
        ),
        err(
            r#"cidr("10.0.0.0")"#,
            r#"network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("10.0.0.0"): no '/'"#,
        ),
        err(
            r#"cidr("10.0.0.0/08")"#,
            r#"network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("10.0.0.0/08"): bad bits after slash: "08""#,
        ),
        err(
            r#"cidr("10.0.0/8")"#,
            r#"network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("10.0.0/8"): ParseAddr("10.0.0"): IPv4 address too short"#,
        ),
        err(
            r#"cidr("::ffff:10.0.0.0/104")"#,
            r#"network address parse error during conversion from string: IPv4-mapped IPv6 address "::ffff:10.0.0.0/104" is not allowed"#,
        ),
        yes(r#"isCIDR("192.168.0.0/24")"#),
        no(r#"isCIDR("192.168.0.0")"#),
        yes(r#"cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))"#),
        no(r#"cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))"#),
        yes(r#"cidr("192.168.0.0/24").containsIP("192.168.0.1")"#),
        no(r#"cidr("192.168.0.0/24").containsIP("192.168.1.1")"#),
        no(r#"cidr("192.168.0.0/24").containsIP(ip("::1"))"#),
        err(
            r#"cidr("192.168.0.0/24").containsIP("nope")"#,
            "no such overload",
        ),
        yes(r#"cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25"))"#),
        yes(r#"cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.1/32"))"#),
        no(r#"cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))"#),
        no(r#"cidr("192.168.0.0/24").containsCIDR(cidr("192.169.0.1/32"))"#),
        yes(r#"cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")"#),
        no(r#"cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23")"#),
        yes(r#"cidr("0.0.0.0/0").containsCIDR("10.0.0.0/8")"#),
        err(
            r#"cidr("10.0.0.0/8").containsCIDR("nope")"#,
            r#"network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("nope"): no '/'"#,
        ),
        yes(r#"cidr("192.168.0.0/24").ip() == ip("192.168.0.0")"#),
        yes(r#"cidr("192.168.0.1/24").masked() == cidr("192.168.0.0/24")"#),
        yes(r#"cidr("192.168.0.1/24") != cidr("192.168.0.0/24")"#),
        yes(r#"cidr("192.168.0.0/24").prefixLength() == 24"#),
        yes(r#"cidr("2001:db8::/32").containsIP(ip("2001:db8::1"))"#),
        no(r#"cidr("2001:db8::/32").containsIP("2001:dc8::1")"#),
        yes(r#"cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))"#),
        no(r#"cidr("2001:db8::/32").containsCIDR("2001:db8::/31")"#),
        yes(r#"cidr("2001:db8:1::/32").masked() == cidr("2001:db8::/32")"#),
        yes(r#"cidr("2001:db8::/32").prefixLength() == 32"#),
        text(r#"string(cidr("192.168.0.0/24"))"#, "192.168.0.0/24"),
        text(
            r#"string(cidr("2001:db8:1::1/32").masked())"#,
            "2001:db8::/32",
        ),
        text(r#"string(cidr("2001:db8:1::1/32"))"#, "2001:db8:1::1/32"),
        yes(r#"type(cidr("192.168.0.0/24")) == net.CIDR"#),
    ];
    for (expr, want) in cases {
        assert_eq!(run(expr), want, "{expr}");
    }
}

#[test]
fn type_values() {
    let cases = [
        yes("type(1) == int && type('a') == string && type(1u) == uint"),
        yes("type([]) == list && type({}) == map && type(null) == null_type"),
        yes("type(type(1)) == type && type(1) != string"),
        yes("type(duration('1s')) == google.protobuf.Duration"),
        no("type(1) == 'int'"),
    ];
    for (expr, want) in cases {
        assert_eq!(run(expr), want, "{expr}");
    }
}
