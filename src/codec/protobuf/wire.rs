//! Protobuf wire primitives, written the way gogo-generated Go code writes and reads them.
//!
//! Only what the Kubernetes messages use: varints (`int64`, `int32`, `bool`) and
//! length-delimited fields (strings, bytes, embedded messages, map entries). Negative integers
//! are sign-extended to ten varint bytes, as gogo's `encodeVarintGenerated(uint64(v))` does for
//! both `int64` and `int32`. The reader reports gogo's error texts (`unexpected EOF`,
//! `proto: integer overflow`, ...) because kube-apiserver returns them verbatim in the 400
//! answer to a malformed protobuf body.

/// Wire type of varint-encoded scalars.
pub(crate) const VARINT: u8 = 0;
/// Wire type of 64-bit fixed-width scalars (not used by the served types; skipped on read).
pub(crate) const FIXED64: u8 = 1;
/// Wire type of strings, bytes, embedded messages and map entries.
pub(crate) const LEN: u8 = 2;
/// Wire type opening a (deprecated) group; skipped on read.
pub(crate) const START_GROUP: u8 = 3;
/// Wire type closing a group.
pub(crate) const END_GROUP: u8 = 4;
/// Wire type of 32-bit fixed-width scalars (skipped on read).
pub(crate) const FIXED32: u8 = 5;

/// gogo's `io.ErrUnexpectedEOF` text: a field runs past the end of its message.
pub(crate) const ERR_EOF: &str = "unexpected EOF";
/// gogo's `ErrIntOverflowGenerated`: a varint longer than ten bytes.
pub(crate) const ERR_OVERFLOW: &str = "proto: integer overflow";
/// gogo's `ErrInvalidLengthGenerated`: a length that is negative as a Go `int`.
pub(crate) const ERR_NEGATIVE_LENGTH: &str = "proto: negative length found during unmarshaling";

/// Appends protobuf fields to a buffer, in the order the caller writes them (gogo's output is
/// ascending by field number; the schema walk takes care of that).
#[derive(Debug, Default)]
pub(crate) struct Writer {
    /// The bytes written so far.
    pub buf: Vec<u8>,
}

impl Writer {
    /// A new, empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// A base-128 varint, least significant group first.
    pub fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.buf.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.buf.push(v as u8);
    }

    /// A field key: `(number << 3) | wire_type`.
    pub fn key(&mut self, num: u32, wire_type: u8) {
        self.varint((u64::from(num) << 3) | u64::from(wire_type));
    }

    /// A varint field holding an `int64` (negative values take ten bytes).
    pub fn int64(&mut self, num: u32, v: i64) {
        self.key(num, VARINT);
        self.varint(v as u64);
    }

    /// A varint field holding an `int32`, sign-extended to 64 bits like gogo's
    /// `uint64(int32)` conversion.
    pub fn int32(&mut self, num: u32, v: i32) {
        self.int64(num, i64::from(v));
    }

    /// A varint field holding a `bool` (`0` or `1`).
    pub fn bool(&mut self, num: u32, v: bool) {
        self.key(num, VARINT);
        self.varint(u64::from(v));
    }

    /// A length-delimited field (string, bytes, or an already encoded message).
    pub fn bytes(&mut self, num: u32, v: &[u8]) {
        self.key(num, LEN);
        self.varint(v.len() as u64);
        self.buf.extend_from_slice(v);
    }

    /// A string field (written even when empty, as gogo does for non-pointer strings).
    pub fn string(&mut self, num: u32, v: &str) {
        self.bytes(num, v.as_bytes());
    }
}

/// One field value as read from the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WireValue<'a> {
    /// A varint (wire type 0), as the raw unsigned 64-bit value.
    Varint(u64),
    /// A length-delimited payload (wire type 2).
    Len(&'a [u8]),
    /// Any other wire type, already skipped (fixed32/64, groups).
    Skipped,
}

/// One field read from a message: its number, wire type and value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WireField<'a> {
    /// The field number.
    pub num: u32,
    /// The wire type in the key.
    pub wire_type: u8,
    /// The value.
    pub value: WireValue<'a>,
}

/// Reads a varint at `*pos`, advancing it. Ten bytes at most (`shift >= 64` is gogo's
/// `proto: integer overflow`); running out of input is `unexpected EOF`.
pub(crate) fn read_varint(data: &[u8], pos: &mut usize) -> Result<u64, String> {
    let mut v: u64 = 0;
    let mut shift = 0u32;
    loop {
        if shift >= 64 {
            return Err(ERR_OVERFLOW.into());
        }
        let Some(&b) = data.get(*pos) else {
            return Err(ERR_EOF.into());
        };
        *pos += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Ok(v);
        }
        shift += 7;
    }
}

/// Reads the length of a length-delimited field and returns the payload, checking it the way
/// gogo does (negative as a Go `int` → negative length; past the end → `unexpected EOF`).
fn read_len<'a>(data: &'a [u8], pos: &mut usize) -> Result<&'a [u8], String> {
    let n = read_varint(data, pos)?;
    if n > i64::MAX as u64 {
        return Err(ERR_NEGATIVE_LENGTH.into());
    }
    // A length past the input (or past `usize` on 32-bit targets) is Go's `postIndex > l`.
    let end = usize::try_from(n)
        .ok()
        .and_then(|n| pos.checked_add(n))
        .ok_or(ERR_EOF)?;
    let payload = data.get(*pos..end).ok_or(ERR_EOF)?;
    *pos = end;
    Ok(payload)
}

/// Skips a group body up to its matching end-group key (gogo's `skipGenerated`).
fn skip_group(data: &[u8], pos: &mut usize) -> Result<(), String> {
    let mut depth = 1usize;
    while depth > 0 {
        let key = read_varint(data, pos)?;
        match (key & 7) as u8 {
            VARINT => {
                read_varint(data, pos)?;
            }
            FIXED64 => skip_fixed(data, pos, 8)?,
            LEN => {
                read_len(data, pos)?;
            }
            START_GROUP => depth += 1,
            END_GROUP => depth -= 1,
            FIXED32 => skip_fixed(data, pos, 4)?,
            wt => return Err(format!("proto: illegal wireType {wt}")),
        }
    }
    Ok(())
}

fn skip_fixed(data: &[u8], pos: &mut usize, n: usize) -> Result<(), String> {
    if data.len() - *pos < n {
        return Err(ERR_EOF.into());
    }
    *pos += n;
    Ok(())
}

/// Splits a message into its fields, in wire order. `message` is the Go type name used in
/// gogo's errors (`proto: ObjectMeta: illegal tag 0 (wire type 0)`).
pub(crate) fn read_fields<'a>(data: &'a [u8], message: &str) -> Result<Vec<WireField<'a>>, String> {
    let mut out = Vec::new();
    let mut pos = 0usize;
    while pos < data.len() {
        let key = read_varint(data, &mut pos)?;
        // gogo: `fieldNum := int32(wire >> 3)` (truncating); the error quotes the whole key.
        let num = (key >> 3) as i32;
        let wire_type = (key & 7) as u8;
        if wire_type == END_GROUP {
            return Err(format!(
                "proto: {message}: wiretype end group for non-group"
            ));
        }
        if num <= 0 {
            return Err(format!(
                "proto: {message}: illegal tag {num} (wire type {key})"
            ));
        }
        let value = match wire_type {
            VARINT => WireValue::Varint(read_varint(data, &mut pos)?),
            LEN => WireValue::Len(read_len(data, &mut pos)?),
            FIXED64 => {
                skip_fixed(data, &mut pos, 8)?;
                WireValue::Skipped
            }
            FIXED32 => {
                skip_fixed(data, &mut pos, 4)?;
                WireValue::Skipped
            }
            START_GROUP => {
                skip_group(data, &mut pos)?;
                WireValue::Skipped
            }
            wt => return Err(format!("proto: illegal wireType {wt}")),
        };
        out.push(WireField {
            num: num as u32,
            wire_type,
            value,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_match_gogo() {
        let cases: &[(i64, &[u8])] = &[
            (0, &[0x00]),
            (1, &[0x01]),
            (127, &[0x7f]),
            (128, &[0x80, 0x01]),
            (300, &[0xac, 0x02]),
            (1_700_000_000, &[0x80, 0xe2, 0xcf, 0xaa, 0x06]),
            (
                -1,
                &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
            ),
            (
                -62_135_596_800,
                &[0x80, 0x92, 0xb8, 0xc3, 0x98, 0xfe, 0xff, 0xff, 0xff, 0x01],
            ),
        ];
        for (v, want) in cases {
            let mut w = Writer::new();
            w.varint(*v as u64);
            assert_eq!(&w.buf, want, "{v}");
            let mut pos = 0;
            assert_eq!(read_varint(&w.buf, &mut pos).unwrap() as i64, *v);
            assert_eq!(pos, want.len());
        }
    }

    #[test]
    fn int32_is_sign_extended() {
        let mut w = Writer::new();
        w.int32(6, -2);
        assert_eq!(
            w.buf,
            [0x30, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]
        );
    }

    #[test]
    fn fields_and_skips() {
        let mut w = Writer::new();
        w.string(1, "a");
        w.bool(17, true);
        w.buf.extend_from_slice(&[0x19, 1, 2, 3, 4, 5, 6, 7, 8]); // field 3, fixed64
        w.buf.extend_from_slice(&[0x25, 1, 2, 3, 4]); // field 4, fixed32
        w.buf.extend_from_slice(&[0x2b, 0x08, 0x01, 0x2c]); // field 5, group {1: 1}
        w.bytes(2, b"");
        let fields = read_fields(&w.buf, "M").unwrap();
        let got: Vec<(u32, WireValue<'_>)> = fields.iter().map(|f| (f.num, f.value)).collect();
        assert_eq!(
            got,
            vec![
                (1, WireValue::Len(b"a")),
                (17, WireValue::Varint(1)),
                (3, WireValue::Skipped),
                (4, WireValue::Skipped),
                (5, WireValue::Skipped),
                (2, WireValue::Len(b"")),
            ]
        );
    }

    #[test]
    fn read_errors_use_gogo_texts() {
        let cases: &[(&[u8], &str)] = &[
            (&[0x0a], "unexpected EOF"),
            (&[0x0a, 0x05, b'a'], "unexpected EOF"),
            (&[0x08], "unexpected EOF"),
            (&[0x80], "unexpected EOF"),
            (
                &[
                    0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
                ],
                "proto: integer overflow",
            ),
            (
                &[
                    0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
                ],
                "proto: negative length found during unmarshaling",
            ),
            (&[0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f], "unexpected EOF"),
            (
                &[0x0a, 0x80, 0x80, 0x80, 0x80, 0x10, 0x00],
                "unexpected EOF",
            ),
            (&[0x00], "proto: M: illegal tag 0 (wire type 0)"),
            (&[0x02, 0x00], "proto: M: illegal tag 0 (wire type 2)"),
            (
                &[0xf8, 0xff, 0xff, 0xff, 0x7f, 0x00],
                "proto: M: illegal tag -1 (wire type 34359738360)",
            ),
            (&[0x0c], "proto: M: wiretype end group for non-group"),
            (&[0x0e], "proto: illegal wireType 6"),
            (&[0x19, 1, 2], "unexpected EOF"),
        ];
        for (data, want) in cases {
            assert_eq!(read_fields(data, "M").unwrap_err(), *want, "{data:?}");
        }
    }
}
