//! The desktops' icon files: Windows' `.ico` (in the `.exe`'s resources)
//! and macOS's `.icns` (in the app bundle), each a container of the app's
//! icon at the sizes that system asks for, every picture stored as PNG
//! (Windows Vista and macOS 10.7 and later read PNG pictures in both).

/// A container of icon pictures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IconFile {
    Ico,
    Icns,
}

/// The icon files, from the workspace root.
pub const ICON_FILES: [(&str, IconFile); 2] =
    [("packaging/windows/klaverjas.ico", IconFile::Ico), ("packaging/macos/Klaverjas.icns", IconFile::Icns)];

/// Windows picks from these by the screen's scale (Explorer's lists at
/// 16 to 40, its tiles at 48 to 256).
const ICO_SIZES: [u32; 8] = [16, 20, 24, 32, 40, 48, 64, 256];

/// Every size an `.iconset` names (16 to 512 points, each at 1x and 2x),
/// with the type code `iconutil` gives it.
const ICNS_TYPES: [(&[u8; 4], u32); 10] = [
    (b"icp4", 16),
    (b"ic11", 32),
    (b"icp5", 32),
    (b"ic12", 64),
    (b"ic07", 128),
    (b"ic13", 256),
    (b"ic08", 256),
    (b"ic14", 512),
    (b"ic09", 512),
    (b"ic10", 1024),
];

impl IconFile {
    /// The file, from `png(size)`: the icon at that size as a PNG file.
    pub fn encode(self, png: impl Fn(u32) -> Vec<u8>) -> Vec<u8> {
        match self {
            IconFile::Ico => ico(&ICO_SIZES.map(|size| (size, png(size)))),
            IconFile::Icns => icns(&ICNS_TYPES.map(|(code, size)| (code, png(size)))),
        }
    }
}

/// An `.ico`: a directory of 16-byte entries, then each picture.
fn ico(pictures: &[(u32, Vec<u8>)]) -> Vec<u8> {
    let count = pictures.len() as u16;
    let mut out = Vec::new();
    out.extend(0u16.to_le_bytes());
    out.extend(1u16.to_le_bytes()); // an icon, not a cursor
    out.extend(count.to_le_bytes());
    let mut offset = 6 + 16 * pictures.len() as u32;
    for (size, png) in pictures {
        // A side of 256 is written as 0: the field is one byte.
        let side = if *size >= 256 { 0 } else { *size as u8 };
        out.extend([side, side, 0, 0]);
        out.extend(1u16.to_le_bytes()); // colour planes
        out.extend(32u16.to_le_bytes()); // bits per pixel
        out.extend((png.len() as u32).to_le_bytes());
        out.extend(offset.to_le_bytes());
        offset += png.len() as u32;
    }
    for (_, png) in pictures {
        out.extend(png);
    }
    out
}

/// An `.icns`: big-endian, each entry its type code and length (both
/// counted), the whole file likewise.
fn icns(pictures: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
    let mut body = Vec::new();
    for (code, png) in pictures {
        body.extend(*code);
        body.extend((8 + png.len() as u32).to_be_bytes());
        body.extend(png);
    }
    let mut out = b"icns".to_vec();
    out.extend((8 + body.len() as u32).to_be_bytes());
    out.extend(body);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in picture that names its size, to find it again.
    fn named(size: u32) -> Vec<u8> {
        format!("png of {size}").into_bytes()
    }

    #[test]
    fn an_ico_lists_each_picture_where_it_lies() {
        let file = IconFile::Ico.encode(named);
        assert_eq!(&file[..6], &[0, 0, 1, 0, 8, 0]);
        for (i, size) in ICO_SIZES.into_iter().enumerate() {
            let entry = &file[6 + 16 * i..6 + 16 * (i + 1)];
            assert_eq!(entry[0] as u32, size % 256, "its width");
            let len = u32::from_le_bytes(entry[8..12].try_into().unwrap()) as usize;
            let at = u32::from_le_bytes(entry[12..16].try_into().unwrap()) as usize;
            assert_eq!(file[at..at + len], named(size));
        }
    }

    #[test]
    fn an_icns_holds_every_size_of_an_iconset_at_its_length() {
        let file = IconFile::Icns.encode(named);
        assert_eq!(&file[..4], b"icns");
        assert_eq!(u32::from_be_bytes(file[4..8].try_into().unwrap()) as usize, file.len());
        let mut at = 8;
        let mut found = Vec::new();
        while at < file.len() {
            let len = u32::from_be_bytes(file[at + 4..at + 8].try_into().unwrap()) as usize;
            found.push((file[at..at + 4].to_vec(), file[at + 8..at + len].to_vec()));
            at += len;
        }
        assert_eq!(at, file.len());
        let expected: Vec<_> = ICNS_TYPES.iter().map(|(code, size)| (code.to_vec(), named(*size))).collect();
        assert_eq!(found, expected);
    }
}
