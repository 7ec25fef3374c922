//! The engine's only source of randomness: a seeded SplitMix64 generator.
//!
//! UIDs and generated names come from here, so the same seed and request sequence give
//! byte-identical responses — the property that makes kubesim usable as a test fixture.

/// A small, fast, seedable generator (SplitMix64). Not cryptographic; it need not be.
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

/// The alphabet of apiserver's `SimpleNameGenerator` (no vowels, no confusable digits).
pub(crate) const NAME_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

impl Rng {
    /// A generator whose whole output is determined by `seed`.
    pub fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    /// A generator continuing from an exported [`Rng::state`].
    pub fn from_state(state: u64) -> Self {
        Rng { state }
    }

    /// The internal state, for exporting a simulation losslessly.
    pub fn state(&self) -> u64 {
        self.state
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniformly distributed value in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        // Rejection sampling keeps the distribution exactly uniform.
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let v = self.next_u64();
            if v < zone {
                return v % n;
            }
        }
    }

    /// A random (version 4, RFC 4122 variant) UUID in its canonical text form.
    pub fn uuid(&mut self) -> String {
        let hi = self.next_u64();
        let lo = self.next_u64();
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&hi.to_be_bytes());
        b[8..].copy_from_slice(&lo.to_be_bytes());
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        // Written byte by byte: one per object created, where `format!` cost ten thousand
        // instructions.
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut out = String::with_capacity(36);
        for (i, x) in b.iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                out.push('-');
            }
            out.push(HEX[usize::from(x >> 4)] as char);
            out.push(HEX[usize::from(x & 0xf)] as char);
        }
        out
    }

    /// `n` characters from apiserver's name-generator alphabet (the `generateName` suffix).
    pub fn name_suffix(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| NAME_ALPHABET[self.below(NAME_ALPHABET.len() as u64) as usize] as char)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        assert_eq!(a.uuid(), b.uuid());
        assert_eq!(a.name_suffix(5), b.name_suffix(5));
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }

    #[test]
    fn uuid_is_version_4() {
        let u = Rng::new(42).uuid();
        let dashes: Vec<usize> = u.match_indices('-').map(|(i, _)| i).collect();
        assert_eq!(dashes, [8, 13, 18, 23]);
        assert!(u
            .bytes()
            .all(|c| c == b'-' || c.is_ascii_digit() || (b'a'..=b'f').contains(&c)));
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
        assert!(matches!(&u[19..20], "8" | "9" | "a" | "b"));
    }

    #[test]
    fn name_suffix_uses_generator_alphabet() {
        let s = Rng::new(3).name_suffix(50);
        assert!(s.bytes().all(|c| NAME_ALPHABET.contains(&c)));
    }
}
