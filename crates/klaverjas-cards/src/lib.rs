//! Card art and sounds for Klaverjas. Every face and back of each deck is
//! drawn by this crate's generator (`kj-cards`) into `assets/cards/<deck>/`,
//! and every sound of the table synthesised into `assets/sounds/`; the
//! files are committed so a build needs no extra step, and a test checks
//! that they are exactly what the generator makes.
//!
//! Without the `generator` feature this crate only names the files (and reads
//! a WAV), which is all the game needs to load them.

use klaverjas::{Card, Rank, Suit};

#[cfg(feature = "generator")]
mod court;
#[cfg(feature = "generator")]
mod draw;
mod halve;
mod icon_files;
#[cfg(feature = "generator")]
mod shapes;
mod sounds;
#[cfg(feature = "generator")]
mod synth;

pub use halve::halve;
pub use icon_files::{ICON_FILES, IconFile};
pub use sounds::{SAMPLE_RATE, Sound, WavError, decode_wav, encode_wav};
#[cfg(feature = "generator")]
pub use synth::synthesise;

#[cfg(feature = "generator")]
pub use draw::{app_icon, contact_sheet, encode_png, encode_rgba_png, render};

/// The app's icon files, from the workspace root, and their sizes in
/// pixels: Android's launcher icon at each screen density, iOS's one
/// 1024-pixel icon (the system scales it), and the web app's two that a
/// browser installs to the home screen, and Linux's hicolor theme at
/// each size a desktop asks for (the `.deb` and the `.tar.gz` install them).
pub const ICONS: [(&str, u32); 16] = [
    ("android/res/mipmap-mdpi/ic_launcher.png", 48),
    ("android/res/mipmap-hdpi/ic_launcher.png", 72),
    ("android/res/mipmap-xhdpi/ic_launcher.png", 96),
    ("android/res/mipmap-xxhdpi/ic_launcher.png", 144),
    ("android/res/mipmap-xxxhdpi/ic_launcher.png", 192),
    ("ios/Klaverjas/Assets.xcassets/AppIcon.appiconset/AppIcon.png", 1024),
    ("crates/klaverjas-web/site/icon-192.png", 192),
    ("crates/klaverjas-web/site/icon-512.png", 512),
    ("packaging/linux/icons/hicolor/16x16/apps/org.klaverjas.game.png", 16),
    ("packaging/linux/icons/hicolor/24x24/apps/org.klaverjas.game.png", 24),
    ("packaging/linux/icons/hicolor/32x32/apps/org.klaverjas.game.png", 32),
    ("packaging/linux/icons/hicolor/48x48/apps/org.klaverjas.game.png", 48),
    ("packaging/linux/icons/hicolor/64x64/apps/org.klaverjas.game.png", 64),
    ("packaging/linux/icons/hicolor/128x128/apps/org.klaverjas.game.png", 128),
    ("packaging/linux/icons/hicolor/256x256/apps/org.klaverjas.game.png", 256),
    ("packaging/linux/icons/hicolor/512x512/apps/org.klaverjas.game.png", 512),
];

/// A face's size in pixels: twice the largest a phone shows (the player's
/// hand on a portrait phone 1440 px wide is 454 px high; a test in the app
/// checks this against its layout). The ratio is the table's, 1 : 1.45.
/// The width of the design space cards are drawn in (`draw`), and the
/// radius of their rounded corners there.
const DESIGN_WIDTH: f32 = 480.0;
const CORNER: f32 = 30.0;
/// How far in from each edge a card's picture may be see-through, as a
/// share of its width: the frame's edge (1.5), as far as a rounded corner
/// reaches along the diagonal, and two units for a picture halved and
/// sampled between its pixels. The rectangle inside is opaque (the game
/// draws no shadow under it).
pub const SEE_THROUGH: f32 = (1.5 + CORNER * (1.0 - std::f32::consts::FRAC_1_SQRT_2) + 2.0) / DESIGN_WIDTH;
pub const CARD_WIDTH: u32 = 640;
pub const CARD_HEIGHT: u32 = 928;

/// A deck's look, the game's *skin*: the player picks one in the settings
/// and the whole table follows. Each has its own folder under `assets/cards/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Deck {
    /// Clubs, diamonds, hearts and spades in red and black; J, Q, K.
    French,
    /// The French deck with clubs green and diamonds blue, for colour-blind
    /// players and small screens.
    FrenchFourColour,
    /// Acorns, bells, roses and shields ("eikels, bellen, rozen en schilden",
    /// RULES seed 001) with courts B (boer), V (vrouw) and H (heer).
    Swiss,
}

impl Deck {
    pub const ALL: [Deck; 3] = [Deck::French, Deck::FrenchFourColour, Deck::Swiss];

    /// The folder name under `assets/cards/`.
    pub const fn dir(self) -> &'static str {
        match self {
            Deck::French => "french",
            Deck::FrenchFourColour => "french-four-colour",
            Deck::Swiss => "swiss",
        }
    }

    /// The letter in a card's corner: Swiss-style courts are B, V, H.
    pub const fn rank_label(self, rank: Rank) -> &'static str {
        match (self, rank) {
            (Deck::Swiss, Rank::Jack) => "B",
            (Deck::Swiss, Rank::Queen) => "V",
            (Deck::Swiss, Rank::King) => "H",
            (_, Rank::Seven) => "7",
            (_, Rank::Eight) => "8",
            (_, Rank::Nine) => "9",
            (_, Rank::Ten) => "10",
            (_, Rank::Jack) => "J",
            (_, Rank::Queen) => "Q",
            (_, Rank::King) => "K",
            (_, Rank::Ace) => "A",
        }
    }
}

/// One picture of a deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Face {
    /// One of the 32 playing cards.
    Card(Card),
    /// A 2 to 6 from the `classic` preset's trump pile ("stapel").
    Pile {
        suit: Suit,
        rank: u8,
    },
    Back,
}

impl Face {
    /// Every picture a deck has: 32 cards, 20 pile cards and the back.
    pub fn all() -> Vec<Face> {
        let mut faces = Vec::with_capacity(53);
        for suit in Suit::ALL {
            faces.extend((2..=6).map(|rank| Face::Pile { suit, rank }));
            faces.extend(Rank::ALL.iter().map(|&rank| Face::Card(Card::new(suit, rank))));
        }
        faces.push(Face::Back);
        faces
    }

    /// The file's name in the deck's folder: `7C.png`, `TH.png`, `2S.png`,
    /// `back.png` (the engine's card notation).
    pub fn file_name(self) -> String {
        match self {
            Face::Card(card) => format!("{card}.png"),
            Face::Pile { suit, rank } => format!("{rank}{}.png", suit.letter()),
            Face::Back => "back.png".to_string(),
        }
    }
}
