//! Pass 1 of the decoder: fxamacker's `wellformed`, as `modes.Decode` configures it.
//!
//! Checks the syntax and the limits (64 nested levels, 1024 array elements, 1024 map pairs)
//! and rejects bignum tags, NaN and infinities before any value is built, so that the value
//! pass can skip over bad elements the way Go does. Recursion is bounded by the nesting limit.

use super::decoder::{
    f16_to_f64, type_name, unacceptable, Decoder, ARRAY, BYTES, MAP, NINT, SIMPLE, TAG,
    TAG_BIGNUM_NEG, TAG_BIGNUM_POS, TEXT, UINT, UNEXPECTED_EOF,
};

/// `MaxNestedLevels: 64` (arrays, maps and nested tags).
const MAX_NESTED_LEVELS: u32 = 64;
/// `MaxArrayElements: 1024`.
const MAX_ARRAY_ELEMENTS: u64 = 1024;
/// `MaxMapPairs: 1024`.
const MAX_MAP_PAIRS: u64 = 1024;

impl Decoder<'_> {
    /// Checks that the input starts with one well-formed item within the limits; with
    /// `allow_extra` false, also that nothing follows it (`ExtraneousDataError`). An empty
    /// input is Go's `io.EOF`.
    pub(super) fn wellformed(&mut self, allow_extra: bool) -> Result<(), String> {
        if self.off == self.data.len() {
            return Err("EOF".to_string());
        }
        self.wf_item(0)?;
        if !allow_extra && self.off != self.data.len() {
            return Err(format!(
                "cbor: {} bytes of extraneous data starting at index {}",
                self.data.len() - self.off,
                self.off
            ));
        }
        Ok(())
    }

    /// `wellformedHead`: one head with bounds checks, the simple-value syntax rule, and the
    /// NaN/infinity rejection for floats.
    fn wf_head(&mut self) -> Result<(u8, u8, u64), String> {
        let rem = self.data.len() - self.off;
        if rem == 0 {
            return Err(UNEXPECTED_EOF.to_string());
        }
        let b = self.data[self.off];
        let (major, ai) = (b >> 5, b & 0x1f);
        self.off += 1;
        let rem = rem - 1;
        let arg_len = match ai {
            0..=23 => return Ok((major, ai, u64::from(ai))),
            24 => 1,
            25 => 2,
            26 => 4,
            27 => 8,
            31 => {
                return match major {
                    UINT | NINT | TAG => Err(format!(
                        "cbor: invalid additional information 31 for type {}",
                        type_name(major)
                    )),
                    SIMPLE => Err("cbor: unexpected \"break\" code".to_string()),
                    _ => Ok((major, ai, 31)),
                };
            }
            _ => {
                return Err(format!(
                    "cbor: invalid additional information {ai} for type {}",
                    type_name(major)
                ))
            }
        };
        if rem < arg_len {
            return Err(UNEXPECTED_EOF.to_string());
        }
        let val = self.data[self.off..self.off + arg_len]
            .iter()
            .fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
        self.off += arg_len;
        if major == SIMPLE {
            let f = match ai {
                24 if val < 32 => {
                    return Err(format!(
                        "cbor: invalid simple value {val} for type primitives"
                    ))
                }
                24 => return Ok((major, ai, val)),
                25 => f16_to_f64(val as u16),
                26 => f64::from(f32::from_bits(val as u32)),
                _ => f64::from_bits(val),
            };
            if f.is_nan() {
                return Err(unacceptable("primitives", "floating-point NaN"));
            }
            if f.is_infinite() {
                return Err(unacceptable("primitives", "floating-point infinity"));
            }
        }
        Ok((major, ai, val))
    }

    /// `wellformedInternal`: one item; returns the deepest nesting level reached.
    fn wf_item(&mut self, mut depth: u32) -> Result<u32, String> {
        let (major, ai, val) = self.wf_head()?;
        let indefinite = ai == 31;
        match major {
            BYTES | TEXT => {
                if indefinite {
                    return self.wf_indefinite_string(major, depth);
                }
                if val > i64::MAX as u64 {
                    return Err(format!(
                        "cbor: {} length {val} is too large, causing integer overflow",
                        type_name(major)
                    ));
                }
                if ((self.data.len() - self.off) as u64) < val {
                    return Err(UNEXPECTED_EOF.to_string());
                }
                self.off += val as usize;
            }
            ARRAY | MAP => {
                depth += 1;
                if depth > MAX_NESTED_LEVELS {
                    return Err(format!(
                        "cbor: exceeded max nested level {MAX_NESTED_LEVELS}"
                    ));
                }
                if indefinite {
                    return self.wf_indefinite_container(major, depth);
                }
                if val > i64::MAX as u64 {
                    return Err(format!(
                        "cbor: {} length {val} is too large, it would cause integer overflow",
                        type_name(major)
                    ));
                }
                if major == ARRAY && val > MAX_ARRAY_ELEMENTS {
                    return Err(format!(
                        "cbor: exceeded max number of elements {MAX_ARRAY_ELEMENTS} for CBOR array"
                    ));
                }
                if major == MAP && val > MAX_MAP_PAIRS {
                    return Err(format!(
                        "cbor: exceeded max number of key-value pairs {MAX_MAP_PAIRS} for CBOR map"
                    ));
                }
                let items = if major == MAP { val * 2 } else { val };
                let mut max_depth = depth;
                for _ in 0..items {
                    max_depth = max_depth.max(self.wf_item(depth)?);
                }
                depth = max_depth;
            }
            TAG => {
                // A chain of tags is scanned in place; each tag after the first is a level.
                let mut tag = val;
                loop {
                    if self.off == self.data.len() {
                        return Err(UNEXPECTED_EOF.to_string());
                    }
                    if tag == TAG_BIGNUM_POS || tag == TAG_BIGNUM_NEG {
                        return Err(unacceptable("tag", "bignum"));
                    }
                    if self.data[self.off] >> 5 != TAG {
                        break;
                    }
                    tag = self.wf_head()?.2;
                    depth += 1;
                    if depth > MAX_NESTED_LEVELS {
                        return Err(format!(
                            "cbor: exceeded max nested level {MAX_NESTED_LEVELS}"
                        ));
                    }
                }
                return self.wf_item(depth);
            }
            _ => {}
        }
        Ok(depth)
    }

    /// `wellformedIndefiniteString`: definite-length chunks of the same major type up to the
    /// break code.
    fn wf_indefinite_string(&mut self, major: u8, mut depth: u32) -> Result<u32, String> {
        loop {
            let Some(&b) = self.data.get(self.off) else {
                return Err(UNEXPECTED_EOF.to_string());
            };
            if b == 0xff {
                self.off += 1;
                return Ok(depth);
            }
            if b >> 5 != major {
                return Err(format!(
                    "cbor: wrong element type {} for indefinite-length {}",
                    type_name(b >> 5),
                    type_name(major)
                ));
            }
            if b & 0x1f == 31 {
                return Err(format!(
                    "cbor: indefinite-length {} chunk is not definite-length",
                    type_name(major)
                ));
            }
            depth = self.wf_item(depth)?;
        }
    }

    /// `wellformedIndefiniteArrayOrMap`: items up to the break code, counted against the
    /// limits as they come; a map needs an even number of items.
    fn wf_indefinite_container(&mut self, major: u8, depth: u32) -> Result<u32, String> {
        let mut max_depth = depth;
        let mut count = 0u64;
        loop {
            let Some(&b) = self.data.get(self.off) else {
                return Err(UNEXPECTED_EOF.to_string());
            };
            if b == 0xff {
                self.off += 1;
                break;
            }
            max_depth = max_depth.max(self.wf_item(depth)?);
            count += 1;
            if major == ARRAY && count > MAX_ARRAY_ELEMENTS {
                return Err(format!(
                    "cbor: exceeded max number of elements {MAX_ARRAY_ELEMENTS} for CBOR array"
                ));
            }
            if major == MAP && count.is_multiple_of(2) && count / 2 > MAX_MAP_PAIRS {
                return Err(format!(
                    "cbor: exceeded max number of key-value pairs {MAX_MAP_PAIRS} for CBOR map"
                ));
            }
        }
        if major == MAP && !count.is_multiple_of(2) {
            return Err("cbor: unexpected \"break\" code".to_string());
        }
        Ok(max_depth)
    }
}
