//! `kj-cards`: draws every deck into `assets/cards/<deck>/`, a contact
//! sheet of each into `docs/cards/`, the app's icons into `android/`,
//! `ios/`, the web site and `packaging/`, and synthesises the table's sounds into `assets/sounds/` (beside
//! the cards' folder).
//!
//! ```sh
//! cargo run -p klaverjas-cards --release            # from the workspace root
//! cargo run -p klaverjas-cards --release -- OUT SHEETS ICON_ROOT
//! cargo run -p klaverjas-cards -- --halve assets/cards OUT   # the web build's halved copies
//! ```

use klaverjas_cards::{
    Deck, Face, ICON_FILES, ICONS, Sound, app_icon, contact_sheet, encode_png, encode_rgba_png, encode_wav, render,
    synthesise,
};
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

/// Every deck's pictures under `from`, halved once as the game halves
/// them, into `to`: the web build's copies for phones, a quarter of the
/// bytes to download and of the pixels to decode.
fn halve_decks(from: &Path, to: &Path) -> Result<usize, String> {
    let mut total = 0;
    for deck in Deck::ALL {
        for face in Face::all() {
            let path = from.join(deck.dir()).join(face.file_name());
            let read = |e: &dyn std::fmt::Display| format!("cannot read {}: {e}", path.display());
            let file = std::fs::File::open(&path).map_err(|e| read(&e))?;
            let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
            decoder.set_transformations(png::Transformations::EXPAND);
            let mut reader = decoder.read_info().map_err(|e| read(&e))?;
            let mut rgba = vec![0; reader.output_buffer_size().ok_or_else(|| read(&"too large"))?];
            let info = reader.next_frame(&mut rgba).map_err(|e| read(&e))?;
            if info.color_type != png::ColorType::Rgba || info.bit_depth != png::BitDepth::Eight {
                return Err(read(&format_args!("{:?} {:?}, not 8-bit RGBA", info.color_type, info.bit_depth)));
            }
            rgba.truncate(info.buffer_size());
            let (half, w, h) = klaverjas_cards::halve(rgba, info.width as usize, info.height as usize, 1);
            let png = encode_rgba_png(w as u32, h as u32, &half);
            total += png.len();
            let out = to.join(deck.dir()).join(face.file_name());
            write(&out, &png).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        }
    }
    Ok(total)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, from, to] = &args[..]
        && flag == "--halve"
    {
        return match halve_decks(Path::new(from), Path::new(to)) {
            Ok(bytes) => {
                println!("every deck halved into {to}: {:.2} MB", bytes as f64 / 1e6);
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if args.len() > 3 || args.iter().any(|a| a.starts_with('-')) {
        eprintln!(
            "usage: kj-cards [OUT_DIR [SHEET_DIR [ICON_ROOT]]]  (defaults: assets/cards docs/cards .)\n       \
             kj-cards --halve CARDS_DIR OUT_DIR  (every deck halved once, for the web build)"
        );
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
    for (path, file) in ICON_FILES {
        let path = icons.join(path);
        if let Err(e) = write(&path, &file.encode(|size| encode_png(&app_icon(size)))) {
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
        ICONS.len() + ICON_FILES.len(),
        icons.display(),
        Sound::ALL.len(),
        sound_bytes / 1000,
        sounds.display()
    );
    ExitCode::SUCCESS
}
