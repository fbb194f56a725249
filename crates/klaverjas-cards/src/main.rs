//! `kj-cards`: draws every deck into `assets/cards/<deck>/`, a contact
//! sheet of each into `docs/cards/`, the app's icons into `android/` and
//! `ios/`, and synthesises the table's sounds into `assets/sounds/` (beside
//! the cards' folder).
//!
//! ```sh
//! cargo run -p klaverjas-cards --release            # from the workspace root
//! cargo run -p klaverjas-cards --release -- OUT SHEETS ICON_ROOT
//! ```

use klaverjas_cards::{Deck, Face, ICONS, Sound, app_icon, contact_sheet, encode_png, encode_wav, render, synthesise};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // Write beside, then rename: an interrupted run leaves no half file.
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() > 3 || args.iter().any(|a| a.starts_with('-')) {
        eprintln!("usage: kj-cards [OUT_DIR [SHEET_DIR [ICON_ROOT]]]  (defaults: assets/cards docs/cards .)");
        return ExitCode::from(2);
    }
    let out = PathBuf::from(args.first().map_or("assets/cards", String::as_str));
    let sheets = PathBuf::from(args.get(1).map_or("docs/cards", String::as_str));
    let icons = PathBuf::from(args.get(2).map_or(".", String::as_str));
    let mut total = 0usize;
    let mut files = 0usize;
    for deck in Deck::ALL {
        for face in Face::all() {
            let png = encode_png(&render(deck, face));
            total += png.len();
            files += 1;
            if let Err(e) = write(&out.join(deck.dir()).join(face.file_name()), &png) {
                eprintln!("error: cannot write {}: {e}", out.display());
                return ExitCode::FAILURE;
            }
        }
        let sheet = sheets.join(format!("{}.png", deck.dir()));
        if let Err(e) = write(&sheet, &encode_png(&contact_sheet(deck))) {
            eprintln!("error: cannot write {}: {e}", sheet.display());
            return ExitCode::FAILURE;
        }
    }
    for (path, size) in ICONS {
        let path = icons.join(path);
        if let Err(e) = write(&path, &encode_png(&app_icon(size))) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    let sounds = out.join("../sounds");
    let mut sound_bytes = 0;
    for sound in Sound::ALL {
        let wav = encode_wav(&synthesise(sound));
        sound_bytes += wav.len();
        if let Err(e) = write(&sounds.join(sound.file_name()), &wav) {
            eprintln!("error: cannot write {}: {e}", sounds.display());
            return ExitCode::FAILURE;
        }
    }
    println!(
        "{files} cards, {:.2} MB, in {}; contact sheets in {}; {} icons under {}; {} sounds, {} kB, in {}",
        total as f64 / 1e6,
        out.display(),
        sheets.display(),
        ICONS.len(),
        icons.display(),
        Sound::ALL.len(),
        sound_bytes / 1000,
        sounds.display()
    );
    ExitCode::SUCCESS
}
