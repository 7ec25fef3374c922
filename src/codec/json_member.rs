//! The bytes of one member of a JSON object exactly as a client wrote them: what Go's
//! `RawExtension.UnmarshalJSON` keeps (a ControllerRevision's `data`), whitespace and number
//! spelling included, and what the real server later compares byte for byte.

/// The text of the top-level member `name` of `doc` (the last one when repeated, as a decoder
/// filling a struct ends with), or `None` when there is none or `doc` is not an object.
/// `doc` must be valid JSON (it was parsed before).
pub(crate) fn top_level_member<'a>(doc: &'a [u8], name: &str) -> Option<&'a [u8]> {
    let mut pos = skip_ws(doc, 0);
    if doc.get(pos) != Some(&b'{') {
        return None;
    }
    pos += 1;
    let mut found = None;
    loop {
        pos = skip_ws(doc, pos);
        if doc.get(pos) != Some(&b'"') {
            return found;
        }
        let key_end = skip_value(doc, pos)?;
        let key: Option<String> = serde_json::from_slice(&doc[pos..key_end]).ok();
        pos = skip_ws(doc, key_end) + 1; // the colon
        let start = skip_ws(doc, pos);
        let end = skip_value(doc, start)?;
        if key.as_deref() == Some(name) {
            found = Some(&doc[start..end]);
        }
        pos = skip_ws(doc, end);
        match doc.get(pos) {
            Some(b',') => pos += 1,
            _ => return found,
        }
    }
}

fn skip_ws(doc: &[u8], mut pos: usize) -> usize {
    while matches!(doc.get(pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        pos += 1;
    }
    pos
}

/// The end of the value starting at `pos`.
fn skip_value(doc: &[u8], pos: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = pos;
    loop {
        match *doc.get(i)? {
            b'"' => {
                i += 1;
                loop {
                    match *doc.get(i)? {
                        b'\\' => i += 2,
                        b'"' => break,
                        _ => i += 1,
                    }
                }
                i += 1;
            }
            b'{' | b'[' => {
                depth += 1;
                i += 1;
            }
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                i += 1;
            }
            b',' | b':' | b' ' | b'\t' | b'\n' | b'\r' if depth == 0 => return Some(i),
            _ => i += 1,
        }
        if depth == 0
            && !matches!(doc.get(i), Some(c) if c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-' | b'+'))
        {
            return Some(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::top_level_member;

    #[test]
    fn member_text_as_written() {
        let doc =
            br#" { "kind" : "X", "data" : { "a" : [1, "}"] } , "n": 1.50, "d\u0061ta2": null }"#;
        let text =
            |name| top_level_member(doc, name).map(|b| String::from_utf8(b.to_vec()).unwrap());
        assert_eq!(text("data").as_deref(), Some(r#"{ "a" : [1, "}"] }"#));
        assert_eq!(text("n").as_deref(), Some("1.50"));
        assert_eq!(text("kind").as_deref(), Some(r#""X""#));
        assert_eq!(text("data2").as_deref(), Some("null"));
        assert_eq!(text("missing"), None);
        assert_eq!(
            top_level_member(br#"{"data":1,"data":{"b":2}}"#, "data"),
            Some(&br#"{"b":2}"#[..])
        );
        assert_eq!(top_level_member(b"[1]", "data"), None);
    }
}
