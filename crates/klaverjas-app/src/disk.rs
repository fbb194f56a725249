//! Where saves and settings are kept: files on a desktop or a phone, and
//! in a browser its `localStorage`, one key a path. Both give the same
//! four operations with the same promises: a write replaces the old text
//! whole or not at all, and a text moved aside stays there.

use std::io;
use std::path::Path;

pub use store::{exists, read_to_string, remove, rename, write_whole};

#[cfg(not(target_arch = "wasm32"))]
mod store {
    use super::*;
    use std::fs;
    use std::io::Write;

    /// Writes `text` to a temporary file first, flushed to disk, then
    /// renamed over the old file, so a crash never leaves half a file.
    pub fn write_whole(path: &Path, text: &str) -> io::Result<()> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        let tmp = path.with_extension("ron.tmp");
        let mut file = fs::File::create(&tmp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    }

    pub fn read_to_string(path: &Path) -> io::Result<String> {
        fs::read_to_string(path)
    }

    pub fn rename(from: &Path, to: &Path) -> io::Result<()> {
        fs::rename(from, to)
    }

    pub fn exists(path: &Path) -> bool {
        path.exists()
    }

    pub fn remove(path: &Path) -> io::Result<()> {
        fs::remove_file(path)
    }
}

/// `localStorage` writes one key at once and synchronously: a card played
/// is on disk before the next frame, and a tab closed after it keeps it.
#[cfg(target_arch = "wasm32")]
mod store {
    use super::*;

    fn storage() -> io::Result<web_sys::Storage> {
        web_sys::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .ok_or_else(|| io::Error::other("this browser keeps no local storage"))
    }

    fn key(path: &Path) -> String {
        format!("klaverjas:{}", path.display())
    }

    fn failed(e: wasm_bindgen::JsValue) -> io::Error {
        io::Error::other(format!("{e:?}"))
    }

    pub fn write_whole(path: &Path, text: &str) -> io::Result<()> {
        storage()?.set_item(&key(path), text).map_err(failed)
    }

    pub fn read_to_string(path: &Path) -> io::Result<String> {
        match storage()?.get_item(&key(path)).map_err(failed)? {
            Some(text) => Ok(text),
            None => Err(io::ErrorKind::NotFound.into()),
        }
    }

    pub fn rename(from: &Path, to: &Path) -> io::Result<()> {
        let text = read_to_string(from)?;
        write_whole(to, &text)?;
        remove(from)
    }

    pub fn exists(path: &Path) -> bool {
        read_to_string(path).is_ok()
    }

    pub fn remove(path: &Path) -> io::Result<()> {
        storage()?.remove_item(&key(path)).map_err(failed)
    }
}

/// The newest format of saves and settings this version reads. 2 holds
/// what a version reading only 1 would misread: the Wilde Boom preset, a
/// deal's doubles, roem announced from the hand.
pub const SAVE_FORMAT: u32 = 2;
