//! The `k8s\0` + `runtime.Unknown` envelope and the length-prefixed watch framing.
//!
//! Every non-stream protobuf body is the magic prefix followed by `Unknown{typeMeta = 1
//! {apiVersion = 1, kind = 2}, raw = 2, contentEncoding = 3, contentType = 4}`, the two
//! strings always written and empty (`protobuf.go`, `types_proto.go` `NestedMarshalTo`).
//! A watch stream is a sequence of frames, each a big-endian `uint32` length and a bare
//! `WatchEvent` message whose `object.raw` is a full envelope (`framer.go`, reference §5.4).

use super::wire::{read_fields, WireValue, Writer};

/// The magic prefix `k8s\0` of every protobuf body.
pub const MAGIC: [u8; 4] = [0x6b, 0x38, 0x73, 0x00];

/// The decoded envelope: type identity and the object's own message bytes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Unknown<'a> {
    /// `typeMeta.apiVersion` (`group/version`, or `v1` for core).
    pub api_version: String,
    /// `typeMeta.kind`.
    pub kind: String,
    /// The message bytes (`None` when `raw` was absent).
    pub raw: Option<&'a [u8]>,
}

/// `k8s\0` + `Unknown{typeMeta, raw, "", ""}` around an already encoded message.
pub(crate) fn wrap(api_version: &str, kind: &str, raw: &[u8]) -> Vec<u8> {
    let mut tm = Writer::new();
    tm.string(1, api_version);
    tm.string(2, kind);
    let mut w = Writer::new();
    w.buf.extend_from_slice(&MAGIC);
    w.bytes(1, &tm.buf);
    w.bytes(2, raw);
    w.string(3, "");
    w.string(4, "");
    w.buf
}

/// Checks the prefix and reads the `Unknown`, with the serializer's error texts
/// (`protobuf.go` `Serializer.Decode`).
pub(crate) fn unwrap(data: &[u8]) -> Result<Unknown<'_>, String> {
    if data.is_empty() {
        return Err("empty data".into());
    }
    if data.len() < MAGIC.len() || data[..MAGIC.len()] != MAGIC {
        return Err(format!(
            "provided data does not appear to be a protobuf message, expected prefix {}",
            go_bytes(&MAGIC)
        ));
    }
    if data.len() == MAGIC.len() {
        return Err("empty body".into());
    }
    let mut unk = Unknown::default();
    let mut type_meta: Vec<u8> = Vec::new();
    for wf in read_fields(&data[MAGIC.len()..], "Unknown")? {
        match (wf.num, wf.value) {
            // An embedded message: repeated occurrences merge.
            (1, WireValue::Len(b)) => type_meta.extend_from_slice(b),
            (2, WireValue::Len(b)) => unk.raw = Some(b),
            (3 | 4, WireValue::Len(_)) => {}
            (1..=4, _) => {
                let name =
                    ["TypeMeta", "Raw", "ContentEncoding", "ContentType"][wf.num as usize - 1];
                return Err(format!(
                    "proto: wrong wireType = {} for field {name}",
                    wf.wire_type
                ));
            }
            _ => {}
        }
    }
    for wf in read_fields(&type_meta, "TypeMeta")? {
        match (wf.num, wf.value) {
            (1, WireValue::Len(b)) => unk.api_version = String::from_utf8_lossy(b).into_owned(),
            (2, WireValue::Len(b)) => unk.kind = String::from_utf8_lossy(b).into_owned(),
            (1, _) => return Err(wrong_type(wf.wire_type, "APIVersion")),
            (2, _) => return Err(wrong_type(wf.wire_type, "Kind")),
            _ => {}
        }
    }
    Ok(unk)
}

fn wrong_type(wire_type: u8, field: &str) -> String {
    format!("proto: wrong wireType = {wire_type} for field {field}")
}

/// Go's `%v` of a byte slice: `[107 56 115 0]`.
fn go_bytes(b: &[u8]) -> String {
    let parts: Vec<String> = b.iter().map(u8::to_string).collect();
    format!("[{}]", parts.join(" "))
}

/// One frame: 4-byte big-endian length, then `message`.
pub(crate) fn frame(message: &[u8]) -> Result<Vec<u8>, String> {
    let len = u32::try_from(message.len()).map_err(|_| "watch event too large".to_string())?;
    let mut out = Vec::with_capacity(message.len() + 4);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(message);
    Ok(out)
}

/// Splits a stream into frame payloads. A truncated header or payload is `unexpected EOF`
/// (what `LengthDelimitedFrameReader` returns on a short read).
pub(crate) fn split_frames(mut data: &[u8]) -> Result<Vec<&[u8]>, String> {
    let mut out = Vec::new();
    while !data.is_empty() {
        if data.len() < 4 {
            return Err("unexpected EOF".into());
        }
        let len = u32::from_be_bytes([data[0], data[1], data[2], data[3]]);
        let end = usize::try_from(len)
            .ok()
            .and_then(|n| n.checked_add(4))
            .ok_or("unexpected EOF")?;
        let body = data.get(4..end).ok_or("unexpected EOF")?;
        out.push(body);
        data = &data[end..];
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_layout() {
        let got = wrap("v1", "Status", &[0x0a, 0x00]);
        let want: Vec<u8> = [
            &b"k8s\0"[..],
            &[0x0a, 0x0c], // typeMeta, 12 bytes
            &[0x0a, 0x02],
            b"v1",
            &[0x12, 0x06],
            b"Status",
            &[0x12, 0x02, 0x0a, 0x00], // raw
            &[0x1a, 0x00],             // contentEncoding ""
            &[0x22, 0x00],             // contentType ""
        ]
        .concat();
        assert_eq!(got, want);
        let unk = unwrap(&got).unwrap();
        assert_eq!(
            (unk.api_version.as_str(), unk.kind.as_str(), unk.raw),
            ("v1", "Status", Some(&[0x0a, 0x00][..]))
        );
    }

    #[test]
    fn unwrap_errors() {
        let prefix_err =
            "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]";
        let cases: &[(&[u8], &str)] = &[
            (b"", "empty data"),
            (b"{}", prefix_err),
            (b"k8s", prefix_err),
            (b"k8s\x01\x0a\x00", prefix_err),
            (b"k8s\0", "empty body"),
            (b"k8s\0\x0a", "unexpected EOF"),
            (b"k8s\0\x10\x01", "proto: wrong wireType = 0 for field Raw"),
            (
                b"k8s\0\x0a\x02\x08\x01",
                "proto: wrong wireType = 0 for field APIVersion",
            ),
        ];
        for (data, want) in cases {
            assert_eq!(unwrap(data).unwrap_err(), *want, "{data:?}");
        }
    }

    #[test]
    fn unwrap_merges_type_meta_and_skips_unknown_fields() {
        // typeMeta split over two occurrences, an unknown field 9, raw absent.
        let data = b"k8s\0\x0a\x04\x0a\x02v1\x48\x01\x0a\x08\x12\x06Status";
        let unk = unwrap(data).unwrap();
        assert_eq!(unk.api_version, "v1");
        assert_eq!(unk.kind, "Status");
        assert_eq!(unk.raw, None);
    }

    #[test]
    fn frames() {
        let a = frame(b"abc").unwrap();
        assert_eq!(a, [0, 0, 0, 3, b'a', b'b', b'c']);
        let mut stream = a.clone();
        stream.extend(frame(b"").unwrap());
        assert_eq!(split_frames(&stream).unwrap(), vec![&b"abc"[..], &b""[..]]);
        for bad in [&a[..2], &a[..6], &[0xff, 0xff, 0xff, 0xff, 0x00][..]] {
            assert_eq!(split_frames(bad).unwrap_err(), "unexpected EOF");
        }
    }
}
