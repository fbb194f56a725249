//! The committed card art is exactly what the generator draws, and fits the
//! budget. After changing the drawing, regenerate it from the workspace root
//! with `cargo run -p klaverjas-cards --release` and commit the result.

use klaverjas_cards::{CARD_HEIGHT, CARD_WIDTH, Deck, Face, encode_png, render};
use std::path::PathBuf;

/// Read where cargo runs the test: a build cached from a checkout elsewhere
/// would otherwise compare that checkout's pictures.
fn assets() -> PathBuf {
    let crate_dir = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into());
    PathBuf::from(crate_dir).join("../../assets/cards")
}

#[test]
fn committed_cards_are_what_the_generator_draws() {
    let mut stale = Vec::new();
    for deck in Deck::ALL {
        for face in Face::all() {
            let path = assets().join(deck.dir()).join(face.file_name());
            let committed = std::fs::read(&path).unwrap_or_default();
            if committed != encode_png(&render(deck, face)) {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "{} card files differ from the generator (run `cargo run -p klaverjas-cards --release`): {:?}",
        stale.len(),
        stale
    );
}

/// The app's icons (`android/`, `ios/`, the web site, `packaging/`) are
/// the generator's too.
#[test]
fn committed_icons_are_what_the_generator_draws() {
    let root = assets().join("../..");
    for (path, size) in klaverjas_cards::ICONS {
        let committed = std::fs::read(root.join(path)).unwrap_or_default();
        assert!(committed == encode_png(&klaverjas_cards::app_icon(size)), "{path} differs from the generator's");
    }
    for (path, file) in klaverjas_cards::ICON_FILES {
        let committed = std::fs::read(root.join(path)).unwrap_or_default();
        let drawn = file.encode(|size| encode_png(&klaverjas_cards::app_icon(size)));
        assert!(committed == drawn, "{path} differs from the generator's");
    }
}

#[test]
fn every_deck_has_every_face_and_nothing_else() {
    for deck in Deck::ALL {
        let mut on_disk: Vec<String> = std::fs::read_dir(assets().join(deck.dir()))
            .expect("the deck's folder")
            .map(|e| e.expect("a folder entry").file_name().to_string_lossy().into_owned())
            .collect();
        let mut expected: Vec<String> = Face::all().into_iter().map(Face::file_name).collect();
        on_disk.sort();
        expected.sort();
        assert_eq!(on_disk, expected, "{}", deck.dir());
        assert_eq!(expected.len(), 32 + 20 + 1);
    }
}

#[test]
fn all_card_art_fits_in_ten_megabytes() {
    let mut total = 0;
    for deck in Deck::ALL {
        for entry in std::fs::read_dir(assets().join(deck.dir())).expect("the deck's folder") {
            total += entry.expect("a folder entry").metadata().expect("its size").len();
        }
    }
    assert!(total < 10_000_000, "card art takes {total} bytes");
}

#[test]
fn pictures_have_the_stated_size() {
    for face in [Face::Back, Face::Card(klaverjas::Card::new(klaverjas::Suit::Hearts, klaverjas::Rank::King))] {
        let card = render(Deck::French, face);
        assert_eq!((card.width(), card.height()), (CARD_WIDTH, CARD_HEIGHT));
    }
}

/// No two faces of a deck are drawn alike. The four-colour deck differs
/// from the French one exactly in its clubs, its diamonds and its back; the
/// Swiss-style deck differs everywhere.
#[test]
fn faces_differ_where_they_should() {
    use klaverjas::Suit;
    let draw = |deck| Face::all().into_iter().map(|f| (f, encode_png(&render(deck, f)))).collect::<Vec<_>>();
    let decks: Vec<_> = Deck::ALL.into_iter().map(draw).collect();
    for faces in &decks {
        let distinct: std::collections::HashSet<_> = faces.iter().map(|(_, png)| png).collect();
        assert_eq!(distinct.len(), faces.len());
    }
    let recoloured = |face: Face| match face {
        Face::Card(c) => matches!(c.suit(), Suit::Clubs | Suit::Diamonds),
        Face::Pile { suit, .. } => matches!(suit, Suit::Clubs | Suit::Diamonds),
        Face::Back => true,
    };
    let (french, four, swiss) = (&decks[0], &decks[1], &decks[2]);
    for i in 0..french.len() {
        assert_eq!(french[i].1 != four[i].1, recoloured(french[i].0), "{:?}", french[i].0);
        assert_ne!(french[i].1, swiss[i].1, "{:?}", french[i].0);
    }
}

/// The committed sounds are the generator's, and small.
#[test]
fn committed_sounds_are_what_the_generator_makes() {
    use klaverjas_cards::{Sound, decode_wav, encode_wav, synthesise};
    let dir = assets().join("../sounds");
    let mut total = 0;
    for sound in Sound::ALL {
        let path = dir.join(sound.file_name());
        let committed = std::fs::read(&path).unwrap_or_default();
        let made = encode_wav(&synthesise(sound));
        assert!(
            committed == made,
            "{} differs from the generator's (run `cargo run -p klaverjas-cards --release`)",
            path.display()
        );
        assert_eq!(decode_wav(&committed).expect("a readable WAV"), synthesise(sound));
        total += committed.len();
    }
    let on_disk = std::fs::read_dir(&dir).expect("assets/sounds").count();
    assert_eq!(on_disk, Sound::ALL.len(), "a file in assets/sounds that no sound names");
    assert!(total < 500_000, "the sounds take {total} bytes");
}
