//! Each format against values Go's check takes and refuses (from the Go sources' own tests
//! and behaviour: strfmt, govalidator, net, net/mail, net/url, time).

use super::valid;

/// (format, value, valid)
const CASES: &[(&str, &str, bool)] = &[
    // date and date-time
    ("date", "2024-02-29", true),
    ("date", "2023-02-29", false),
    ("date-time", "2024-01-02T03:04:05Z", true),
    ("date-time", "2024-01-02T03:04:05.123+01:00", true),
    ("date-time", "2024-01-02", false),
    // UUIDs: each dash optional, versions and variants
    ("uuid", "123e4567-e89b-12d3-a456-426614174000", true),
    ("uuid", "123E4567E89B12D3A456426614174000", true),
    ("uuid", "123e4567-e89b12d3-a456426614174000", true),
    ("uuid", "123e4567-e89b-12d3-a456-42661417400", false),
    ("uuid", "123e4567--e89b-12d3-a456-426614174000", false),
    ("uuid3", "a3bb189e-8bf9-3888-1912-ace4e6543002", true),
    ("uuid3", "a3bb189e-8bf9-4888-9912-ace4e6543002", false),
    ("uuid4", "a3bb189e-8bf9-4888-9912-ace4e6543002", true),
    ("uuid4", "a3bb189e-8bf9-4888-c912-ace4e6543002", false),
    ("uuid5", "a3bb189e-8bf9-5888-A912-ace4e6543002", true),
    ("uuid5", "a3bb189e-8bf9-4888-a912-ace4e6543002", false),
    // byte: govalidator's base64 pattern (never empty; padding not checked for zero bits)
    ("byte", "aGVsbG8=", true),
    ("byte", "YR==", true),
    ("byte", "aGVsbG8", false),
    ("byte", "", false),
    ("byte", "aG=sbG8=", false),
    // IPs: ipv4 sloppy (leading zeros), ipv6 strict
    ("ipv4", "10.0.0.1", true),
    ("ipv4", "010.000.0.1", true),
    ("ipv4", "256.0.0.1", false),
    ("ipv4", "::ffff:10.0.0.1", true),
    ("ipv4", "::1", false),
    ("ipv6", "2001:db8::1", true),
    ("ipv6", "::ffff:10.0.0.1", true),
    ("ipv6", "10.0.0.1", false),
    ("ipv6", "2001:db8::1%eth0", false),
    ("cidr", "10.0.0.0/8", true),
    ("cidr", "010.0.0.0/08", true),
    ("cidr", "10.0.0.0/33", false),
    ("cidr", "2001:db8::/64", true),
    ("cidr", "10.0.0.0/+8", false),
    ("cidr", "10.0.0.0", false),
    // MAC
    ("mac", "00:1a:2B:3c:4d:5e", true),
    ("mac", "00-1a-2b-3c-4d-5e", true),
    ("mac", "001a.2b3c.4d5e", true),
    ("mac", "00:1a:2b:3c:4d:5e:6f:70", true),
    ("mac", "00:1a-2b:3c:4d:5e", false),
    ("mac", "00:1a:2b:3c:4d", false),
    ("mac", "0:1a:2b:3c:4d:5e", false),
    // hostname: one label with a dash right after its first character, or dotted labels
    // with a top-level domain of letters
    ("hostname", "localhost", true),
    ("hostname", "a-host", true),
    ("hostname", "my-host", false),
    ("hostname", "my-host.example.com", true),
    ("hostname", "example.c", false),
    ("hostname", "1.2.3.4", false),
    ("hostname", "-a.com", false),
    ("hostname", "a-.com", false),
    ("hostname", "a_b.com", false),
    ("hostname", "bücher.de", true),
    ("hostname", "a+b", true),
    ("hostname", "host.example.com.", false),
    // email: net/mail.ParseAddress
    ("email", "user@example.com", true),
    ("email", "User Name <user@example.com>", true),
    ("email", "\"john doe\"@example.com", true),
    ("email", "\"a\\\"b\"@example.com", true),
    ("email", "\"\"@example.com", false),
    ("email", "user@[192.0.2.1]", true),
    ("email", "user@example.com (comment)", true),
    ("email", "team: user@example.com;", true),
    ("email", "user", false),
    ("email", "user@", false),
    ("email", "@example.com", false),
    ("email", "user@@example.com", false),
    ("email", "user.@example.com", false),
    ("email", "a@b.com, c@d.com", false),
    ("email", "User Name", false),
    ("email", "user@[not-an-ip]", false),
    ("email", "team: ;", false),
    // uri: url.ParseRequestURI
    ("uri", "https://example.com/path?q=1", true),
    ("uri", "/absolute/path", true),
    ("uri", "mailto:user@example.com", true),
    ("uri", "*", true),
    ("uri", "http://user:pass@host:8080/", true),
    ("uri", "relative/path", false),
    ("uri", "", false),
    ("uri", ":nope", false),
    ("uri", "http://host:port/", false),
    ("uri", "http://ho st/", false),
    ("uri", "http://example.com/%zz", false),
    ("uri", "http://example.com#frag", false),
    ("uri", "http://example.com/p#frag", true),
    // ISBN, credit card, SSN
    ("isbn10", "0-306-40615-2", true),
    ("isbn10", "0306406153", false),
    ("isbn10", "080442957X", true),
    ("isbn13", "978-0-306-40615-7", true),
    ("isbn13", "9780306406158", false),
    ("isbn", "978 0 306 40615 7", true),
    ("creditcard", "4111 1111 1111 1111", true),
    ("creditcard", "4111-1111-1111-1112", false),
    ("creditcard", "378282246310005", true),
    ("creditcard", "1234567812345670", false),
    ("ssn", "123-45-6789", true),
    ("ssn", "123 45-6789", true),
    ("ssn", "123456789", false),
    // colours
    ("hexcolor", "#fff", true),
    ("hexcolor", "A0B1C2", true),
    ("hexcolor", "#ffff", false),
    ("rgbcolor", "rgb(255, 0, 10)", true),
    ("rgbcolor", "rgb(256,0,0)", false),
    ("rgbcolor", "rgb(01,0,0)", false),
    // bsonobjectid
    ("bsonobjectid", "507f1f77bcf86cd799439011", true),
    ("bsonobjectid", "507f1f77bcf86cd79943901", false),
    // duration: time.ParseDuration, else a number and a unit strfmt knows
    ("duration", "1h30m", true),
    ("duration", "1.5s", true),
    ("duration", "-300ms", true),
    ("duration", "0", true),
    ("duration", "3 days", true),
    ("duration", "2 hours", true),
    ("duration", "5 minutes", true),
    ("duration", "1w", true),
    ("duration", "5", false),
    ("duration", "5 parsecs", false),
    ("duration", "", false),
    ("duration", "99999999999999999999 days", false),
    // formats with no check, and names
    ("password", "", true),
    ("no-such-format", "anything", true),
    ("k8s-short-name", "abc-1", true),
    ("k8s-short-name", "1abc", false),
    ("k8s-long-name", "a.b-c", true),
];

#[test]
fn every_format_takes_and_refuses_as_go() {
    let wrong: Vec<String> = CASES
        .iter()
        .filter(|(f, v, want)| valid(f, v) != *want)
        .map(|(f, v, want)| format!("{f} {v:?}: want {want}"))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
