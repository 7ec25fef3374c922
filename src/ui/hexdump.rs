//! Binary bodies (Protobuf's `k8s\0` envelope, CBOR's `d9d9f7` tag, gzip) shown the way
//! `hexdump -C` shows them, so the magic bytes the spec talks about are visible.

/// Whether `bytes` should be shown as text: valid UTF-8 without control characters other
/// than whitespace.
pub fn is_text(bytes: &[u8]) -> bool {
    match std::str::from_utf8(bytes) {
        Ok(s) => !s
            .chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t')),
        Err(_) => false,
    }
}

/// Bytes per line: half of `hexdump -C`'s 16, so the dump fits beside the decoded form in
/// the response panel on a laptop screen.
pub const PER_LINE: usize = 8;

/// `hexdump -C` style lines of [`PER_LINE`] bytes: offset, hex, and the printable ASCII; at
/// most `max` bytes, then a line saying how many more there are, then the length.
pub fn hexdump(bytes: &[u8], max: usize) -> String {
    let mut out = String::new();
    for (i, chunk) in bytes[..bytes.len().min(max)].chunks(PER_LINE).enumerate() {
        let hex: String = chunk.iter().map(|b| format!("{b:02x} ")).collect();
        let ascii: String = chunk
            .iter()
            .map(|&b| {
                if b.is_ascii_graphic() || b == b' ' {
                    b as char
                } else {
                    '.'
                }
            })
            .collect();
        out.push_str(&format!(
            "{:08x}  {hex:<width$} |{ascii}|\n",
            i * PER_LINE,
            width = PER_LINE * 3
        ));
    }
    if bytes.len() > max {
        out.push_str(&format!("… {} more bytes\n", bytes.len() - max));
    }
    out.push_str(&format!("{:08x}\n", bytes.len()));
    out
}

/// What the leading bytes say the body is (spec: Protobuf envelope, CBOR self-describe tag).
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(&[0x6b, 0x38, 0x73, 0x00]) {
        Some("Protobuf (k8s\\0 envelope)")
    } else if bytes.starts_with(&[0xd9, 0xd9, 0xf7]) {
        Some("CBOR (self-described, tag 55799)")
    } else if bytes.starts_with(&[0x1f, 0x8b]) {
        Some("gzip")
    } else {
        None
    }
}
