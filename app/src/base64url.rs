//! Base64url (RFC 4648 §5) without padding, for share links, on the
//! `base64` crate.

use base64::alphabet;
use base64::engine::{DecodePaddingMode, Engine, GeneralPurpose, GeneralPurposeConfig};

/// URL-safe alphabet; no padding written, padding tolerated when reading,
/// and (as links are typed and re-encoded by hand) non-zero trailing bits
/// accepted.
const URL_SAFE: GeneralPurpose = GeneralPurpose::new(
    &alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true),
);

/// Encodes `bytes` as base64url without `=` padding.
pub fn encode(bytes: &[u8]) -> String {
    URL_SAFE.encode(bytes)
}

/// Decodes base64url (padding and surrounding whitespace tolerated; the
/// standard alphabet's `+` and `/` too, for links pasted through tools that
/// re-encode).
pub fn decode(text: &str) -> Result<Vec<u8>, String> {
    let clean: Vec<u8> = text
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .map(|b| match b {
            b'+' => b'-',
            b'/' => b'_',
            b => b,
        })
        .collect();
    URL_SAFE.decode(clean).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for len in 0..40 {
            let data: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            let text = encode(&data);
            assert!(!text.contains('='));
            assert!(text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
            assert_eq!(decode(&text).unwrap(), data, "length {len}");
        }
    }

    #[test]
    fn known_vectors() {
        assert_eq!(encode(b""), "");
        assert_eq!(encode(b"f"), "Zg");
        assert_eq!(encode(b"fo"), "Zm8");
        assert_eq!(encode(b"foo"), "Zm9v");
        assert_eq!(encode(b"foob"), "Zm9vYg");
        assert_eq!(encode(&[0xfb, 0xff]), "-_8");
        assert_eq!(decode("Zm9vYg==").unwrap(), b"foob");
        assert_eq!(decode("+/8").unwrap(), vec![0xfb, 0xff]);
    }

    #[test]
    fn rejects_garbage() {
        assert!(decode("Zm9v!").is_err());
        assert!(decode("Z").is_err());
        assert!(decode("Zg=a").is_err());
    }
}
