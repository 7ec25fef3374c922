//! gzip for responses, behind `APIResponseCompression` (beta, on by default).
//!
//! kube-apiserver's `deferredResponseWriter` compresses when the client's `Accept-Encoding`
//! has a `gzip` token (exactly, after trimming spaces: `gzip;q=1` does not count) and the
//! body is larger than `defaultGzipThresholdBytes` (128 KiB); streamed lists are buffered up
//! to that size first, so the rule is the body size either way. It then sets
//! `Content-Encoding: gzip` and adds `Vary: Accept-Encoding`, and compresses at level 1
//! (`gzipContentEncodingLevel`). Watches are never compressed.

use std::io::Write as _;

/// Bodies up to this many bytes are sent as they are.
pub const GZIP_THRESHOLD_BYTES: usize = 128 * 1024;

/// `ContentEncodingSupported`: whether `Accept-Encoding` offers `gzip`.
pub fn accepts_gzip(accept_encoding: &str) -> bool {
    accept_encoding.split(',').any(|t| t.trim() == "gzip")
}

/// Whether a body of `len` bytes is compressed for a client that accepts gzip.
pub fn should_compress(len: usize) -> bool {
    len > GZIP_THRESHOLD_BYTES
}

/// gzip at level 1 (pure-Rust backend, so the wasm build compresses too).
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(
        Vec::with_capacity(bytes.len() / 4),
        flate2::Compression::fast(),
    );
    enc.write_all(bytes).expect("writing to a Vec cannot fail");
    enc.finish().expect("writing to a Vec cannot fail")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        assert!(accepts_gzip("gzip"));
        assert!(accepts_gzip("deflate, gzip"));
        assert!(!accepts_gzip("gzip;q=1"));
        assert!(!accepts_gzip("x-gzip"));
        assert!(!accepts_gzip(""));
    }

    #[test]
    fn round_trip() {
        use std::io::Read as _;
        let data = vec![b'a'; 200_000];
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&gzip(&data)[..])
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, data);
    }
}
