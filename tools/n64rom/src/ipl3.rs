//! Which IPL3 a ROM carries, by content: ours (by its ASCII marker),
//! libdragon's r8 builds (by the SHA-256 of ROM 0x40..0x1000, which is the
//! same in every ROM built with them since the header is outside that
//! range), other libdragon revisions (by libdragon's own text marker), or
//! unknown (for example Nintendo's, which n64rom cannot recognise without a
//! copy).

use sha2::{Digest, Sha256};

use crate::header::IPL3_LEN;

/// The ASCII marker our own IPL3 (`n64/src/boot/ipl3.s`) carries.
pub const OUR_MARKER: &[u8] = b"Tic-Tac-Toe 64 IPL3";
/// The text libdragon puts into its IPL3s (`Libdragon IPL3  Coded by ...`).
pub const LIBDRAGON_MARKER: &[u8] = b"Libdragon IPL3";

/// SHA-256 of bytes 0x40..0x1000 of libdragon's `boot/bin/*.z64` at commit
/// 535d75170238218a261b1101e583f5a414a9afb0 (IPL3 revision r8). For compat,
/// the whole 4096-byte file has sha256 f522db2e31a7...a068 (its README).
const LIBDRAGON_COMPAT_R8: &str =
    "f716a90b1d36ec4253d096790791256d3543455e54473a755ff8c3d1199b15d5";
const LIBDRAGON_PROD_R8: &str = "093581bf974de53755a97c65ad366a5bab48e9f02b80320ba5ba99b785c3d8b7";
const LIBDRAGON_DEV_R8: &str = "a439577f56be98d164a21a533307b932c9ecdf6ed470b13e72658010bbd92252";

/// A recognised IPL3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KnownIpl3 {
    /// Tic-Tac-Toe 64's own IPL3: flat 1 MiB load, unsigned.
    Ours,
    /// libdragon `ipl3_compat` r8: flat 1 MiB load (or header word 0x10
    /// bytes), no CRC check.
    LibdragonCompat,
    /// libdragon `ipl3_prod` r8: loads an ELF found at a 256-byte boundary.
    LibdragonProd,
    /// libdragon `ipl3_dev` r8: like prod, with logging.
    LibdragonDev,
    /// A libdragon IPL3 of another revision or build.
    LibdragonOther,
    Unknown,
}

impl KnownIpl3 {
    pub fn describe(self) -> &'static str {
        match self {
            KnownIpl3::Ours => "Tic-Tac-Toe 64's own (flat 1 MiB load, unsigned)",
            KnownIpl3::LibdragonCompat => {
                "libdragon compat r8 (flat load, size from header word 0x10, no CRC check)"
            }
            KnownIpl3::LibdragonProd => "libdragon prod r8 (loads an ELF, no CRC check)",
            KnownIpl3::LibdragonDev => "libdragon dev r8 (loads an ELF, no CRC check)",
            KnownIpl3::LibdragonOther => "libdragon, unrecognised revision or build",
            KnownIpl3::Unknown => "unknown",
        }
    }

    /// libdragon's IPL3s that look for an ELF rather than a flat image.
    pub fn loads_elf(self) -> bool {
        matches!(self, KnownIpl3::LibdragonProd | KnownIpl3::LibdragonDev)
    }
}

/// Lower-case hex SHA-256 of an IPL3.
pub fn sha256_hex(ipl3: &[u8; IPL3_LEN]) -> String {
    Sha256::digest(ipl3)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Recognises an IPL3 (ROM bytes 0x40..0x1000).
pub fn identify(ipl3: &[u8; IPL3_LEN]) -> KnownIpl3 {
    match sha256_hex(ipl3).as_str() {
        LIBDRAGON_COMPAT_R8 => return KnownIpl3::LibdragonCompat,
        LIBDRAGON_PROD_R8 => return KnownIpl3::LibdragonProd,
        LIBDRAGON_DEV_R8 => return KnownIpl3::LibdragonDev,
        _ => {}
    }
    if contains(ipl3, OUR_MARKER) {
        KnownIpl3::Ours
    } else if contains(ipl3, LIBDRAGON_MARKER) {
        KnownIpl3::LibdragonOther
    } else {
        KnownIpl3::Unknown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers() {
        let mut ipl3 = [0u8; IPL3_LEN];
        assert_eq!(identify(&ipl3), KnownIpl3::Unknown);
        ipl3[IPL3_LEN - OUR_MARKER.len()..].copy_from_slice(OUR_MARKER);
        assert_eq!(identify(&ipl3), KnownIpl3::Ours);
        let mut other = [0xFFu8; IPL3_LEN];
        other[700..700 + LIBDRAGON_MARKER.len()].copy_from_slice(LIBDRAGON_MARKER);
        assert_eq!(identify(&other), KnownIpl3::LibdragonOther);
        // Half a marker is no marker.
        let mut half = [0u8; IPL3_LEN];
        half[..10].copy_from_slice(&OUR_MARKER[..10]);
        assert_eq!(identify(&half), KnownIpl3::Unknown);
    }

    #[test]
    fn sha256_known_vector() {
        // SHA-256 of 4032 zero bytes, as printed by `head -c 4032 /dev/zero | sha256sum`.
        assert_eq!(
            sha256_hex(&[0u8; IPL3_LEN]),
            "782972264d2f448a7741cb6afbc10275ffde7e1d3f5f9005fd45543a7c2b81b5"
        );
    }
}
