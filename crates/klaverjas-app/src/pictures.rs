//! The card pictures of the chosen skin, loaded through Bevy's
//! `AssetServer` from `assets/cards/<deck>/` (made by `kj-cards`), so the
//! same code reads them from a folder on the desktop, from the app bundle
//! on a phone and from the server in a browser.
//!
//! The files are twice the largest size the game draws a card at. Our own
//! loader ([`CardLoader`]) decodes each and halves it (averaging, so it
//! stays sharp: sprites have no mipmaps, and a picture shrunk fourfold on
//! the GPU shimmers) until it is no more than twice the size it is drawn at
//! on this screen, before it is an asset: no deck is ever held at full
//! size, only the picture being decoded. A 720p table keeps 232 px cards, a
//! phone 1080 px wide 464 px; only the GPU keeps the pixels.

use crate::drawn::{self, Drawn};
use crate::settings::Skin;
use crate::state::{PlayerSettings, Screen};
use crate::table::layout::Table;
use bevy::asset::RenderAssetUsages;
use bevy::image::Image;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use klaverjas::{Card, PileCard};
use klaverjas_cards::Face;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The folder Bevy's `AssetServer` reads: `$KLAVERJAS_ASSETS`; where the
/// installed game keeps it ([`crate::platform::installed`]); an `assets`
/// folder up to three folders above the program (`target/release/` in a
/// checkout); or the checkout this was built from. `None` where none
/// holds the card pictures: Bevy's default then applies (the bundle's
/// assets on a phone).
pub fn find_assets() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::var_os("KLAVERJAS_ASSETS") {
        candidates.push(PathBuf::from(dir));
    }
    candidates.extend(crate::platform::installed("assets"));
    if let Ok(exe) = std::env::current_exe() {
        candidates.extend(exe.ancestors().skip(2).take(3).map(|d| d.join("assets")));
    }
    // The checkout: `cargo run` and `cargo test` name it at run time; the
    // build's own path is the last resort (a build cached from another
    // checkout keeps that one's path).
    if let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR") {
        candidates.push(Path::new(&dir).join("../../assets"));
    }
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets"));
    candidates.into_iter().find(|d| d.join(face_path(Skin::French, Face::Back)).is_file())
}

/// A picture's path under the assets folder.
pub fn face_path(skin: Skin, face: Face) -> String {
    format!("cards/{}/{}", skin.dir(), face.file_name())
}

/// The handles of the skin's pictures, and their egui textures.
#[derive(Resource)]
pub struct CardImages {
    pub skin: Skin,
    handles: HashMap<Face, Handle<Image>>,
    /// How many times each picture is halved on this screen.
    pub halvings: u32,
    /// The first picture that failed, for the player.
    pub problem: Option<String>,
}

impl CardImages {
    pub fn face(&self, face: Face) -> Handle<Image> {
        self.handles.get(&face).cloned().unwrap_or_default()
    }

    pub fn card(&self, card: Card) -> Handle<Image> {
        self.face(Face::Card(card))
    }

    pub fn back(&self) -> Handle<Image> {
        self.face(Face::Back)
    }

    pub fn pile(&self, card: PileCard) -> Handle<Image> {
        self.face(Face::Pile { suit: card.suit, rank: card.rank })
    }

    /// Whether the pictures have been asked for (at the title they wait
    /// for it to be drawn).
    pub fn asked(&self) -> bool {
        !self.handles.is_empty()
    }

    /// Whether every picture has arrived (or failed).
    pub fn ready(&self, server: &AssetServer) -> bool {
        self.asked()
            && self.handles.values().all(|h| {
                matches!(server.load_state(h), bevy::asset::LoadState::Failed(_))
                    || server.is_loaded_with_dependencies(h)
            })
    }

    fn load(server: &AssetServer, skin: Skin, halvings: u32) -> CardImages {
        let handles = Face::all()
            .into_iter()
            .map(|f| {
                let (path, halvings) = source(skin, f, halvings);
                let settings = move |s: &mut CardSettings| s.halvings = halvings;
                (f, server.load_builder().with_settings(settings).load(path))
            })
            .collect();
        CardImages { skin, handles, halvings, problem: None }
    }
}

/// The web build keeps every deck halved once beside the full pictures
/// (`kj-cards --halve`): all a phone's screen needs, a quarter of the
/// download and of the decoding.
const HALVED_COPIES: bool = cfg!(target_arch = "wasm32");

/// Where a picture to be halved `halvings` times is loaded from, and how
/// many halvings are then left to do.
fn source(skin: Skin, face: Face, halvings: u32) -> (String, u32) {
    if HALVED_COPIES && halvings > 0 {
        (format!("cards-half/{}/{}", skin.dir(), face.file_name()), halvings - 1)
    } else {
        (face_path(skin, face), halvings)
    }
}

/// How many halvings keep a picture at least `drawn_height` physical pixels
/// high (so at most twice that).
pub fn halvings_for(drawn_height: f32) -> u32 {
    let full = klaverjas_cards::CARD_HEIGHT as f32;
    let mut halvings = 0;
    while halvings < 3 && full / 2f32.powi(halvings as i32 + 1) >= drawn_height {
        halvings += 1;
    }
    halvings
}

pub fn plugin(app: &mut App) {
    // The game's only PNGs are card pictures: Bevy's own image loader is
    // built without PNG, so this one is the loader of every `.png`.
    app.register_asset_loader(CardLoader)
        .add_systems(PreStartup, (say_where, load_skin))
        .add_systems(Update, (follow_skin, note_failures));
}

/// Which folder of card pictures and sounds an installed game found (a
/// package's check reads it: a checkout's would be found too).
fn say_where() {
    if let Some(dir) = find_assets() {
        info!("the card pictures and sounds from {}", dir.display());
    }
}

fn wanted_halvings(table: &Table, windows: &Query<&Window>) -> u32 {
    let scale = windows.iter().next().map_or(1.0, |w| w.scale_factor());
    halvings_for(table.layout().card.y * table.zoom * scale)
}

/// Whether what the title does not show (these pictures, the sounds) may
/// load now: see [`drawn::may_load`]. A run condition.
pub fn may_load(drawn: Option<Res<Drawn>>, screen: Res<State<Screen>>) -> bool {
    drawn::may_load(drawn.as_deref(), *screen.get() == Screen::Title)
}

/// The pictures load at once, or, where the game opens at the title,
/// once the title is on the window (or left): the table's sprites and the
/// panels take the handles from [`CardImages`] each frame.
fn load_skin(
    mut commands: Commands,
    server: Res<AssetServer>,
    settings: Res<PlayerSettings>,
    table: Res<Table>,
    windows: Query<&Window>,
    (drawn, screen): (Option<Res<Drawn>>, Res<State<Screen>>),
) {
    let skin = settings.0.skin;
    let halvings = wanted_halvings(&table, &windows);
    commands.insert_resource(if may_load(drawn, screen) {
        CardImages::load(&server, skin, halvings)
    } else {
        CardImages { skin, handles: HashMap::new(), halvings, problem: None }
    });
}

/// A new skin (or the first, where it waited) loads its pictures, sized
/// for the window as it is then. A window made larger keeps the size its
/// pictures loaded at (the asset server keeps one copy a path), at most
/// twice enlarged.
fn follow_skin(
    mut images: ResMut<CardImages>,
    server: Res<AssetServer>,
    settings: Res<PlayerSettings>,
    table: Res<Table>,
    windows: Query<&Window>,
    (drawn, screen): (Option<Res<Drawn>>, Res<State<Screen>>),
) {
    let waited = !images.asked() && may_load(drawn, screen);
    if settings.0.skin != images.skin || waited {
        *images = CardImages::load(&server, settings.0.skin, wanted_halvings(&table, &windows));
    }
}

/// A picture that did not load is logged, and the first kept for the player.
/// In a browser offline, a full-size picture the service worker never
/// fetched gives way to its halved copy, which it keeps, a little enlarged.
fn note_failures(
    mut failed: MessageReader<bevy::asset::AssetLoadFailedEvent<Image>>,
    mut images: ResMut<CardImages>,
    server: Res<AssetServer>,
) {
    for e in failed.read() {
        warn!("{}: {}", e.path, e.error);
        let skin = images.skin;
        if HALVED_COPIES
            && images.halvings == 0
            && let Some(face) = Face::all().into_iter().find(|&f| e.path.path() == Path::new(&face_path(skin, f)))
        {
            let (path, _) = source(skin, face, 1);
            let settings = |s: &mut CardSettings| s.halvings = 0;
            images.handles.insert(face, server.load_builder().with_settings(settings).load(path));
            continue;
        }
        if images.problem.is_none() {
            images.problem = Some(format!("{}: {}", e.path, e.error));
        }
    }
}

/// How a card picture is loaded: halved this many times.
#[derive(Clone, Copy, Default, serde::Serialize, serde::Deserialize)]
pub struct CardSettings {
    pub halvings: u32,
}

/// Decodes a card picture (PNG) and halves it before it becomes an asset,
/// its pixels kept for the GPU only.
#[derive(TypePath)]
pub struct CardLoader;

impl bevy::asset::AssetLoader for CardLoader {
    type Asset = Image;
    type Settings = CardSettings;
    type Error = image::ImageError;

    async fn load(
        &self,
        reader: &mut dyn bevy::asset::io::Reader,
        settings: &CardSettings,
        _: &mut bevy::asset::LoadContext<'_>,
    ) -> Result<Image, image::ImageError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await.map_err(image::ImageError::IoError)?;
        decode(&bytes, settings.halvings)
    }

    fn extensions(&self) -> &[&str] {
        &["png"]
    }
}

/// A PNG's pixels halved `halvings` times, as an image for the GPU only.
fn decode(png: &[u8], halvings: u32) -> Result<Image, image::ImageError> {
    let full = image::load_from_memory_with_format(png, image::ImageFormat::Png)?.into_rgba8();
    let (w, h) = full.dimensions();
    let (pixels, w, h) = klaverjas_cards::halve(full.into_raw(), w as usize, h as usize, halvings);
    let size = Extent3d { width: w as u32, height: h as u32, depth_or_array_layers: 1 };
    Ok(Image::new(size, TextureDimension::D2, pixels, TextureFormat::Rgba8UnormSrgb, RenderAssetUsages::RENDER_WORLD))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checkout_has_every_picture_of_every_skin() {
        let root = find_assets().expect("assets/cards in the checkout");
        for skin in Skin::ALL {
            for face in Face::all() {
                assert!(root.join(face_path(skin, face)).is_file(), "{}", face_path(skin, face));
            }
        }
    }

    #[test]
    fn a_card_picture_is_decoded_at_the_size_asked_for_the_gpu_only() {
        let root = find_assets().expect("assets/cards in the checkout");
        let png = std::fs::read(root.join(face_path(Skin::French, Face::Back))).expect("the back");
        let (w, h) = (klaverjas_cards::CARD_WIDTH, klaverjas_cards::CARD_HEIGHT);
        for halvings in [0, 1, 2] {
            let image = decode(&png, halvings).expect("a PNG");
            assert_eq!((image.width(), image.height()), (w >> halvings, h >> halvings));
            assert_eq!(image.asset_usage, RenderAssetUsages::RENDER_WORLD);
        }
        let damaged = decode(&png[..png.len() / 2], 1).expect_err("half a PNG");
        assert!(!damaged.to_string().is_empty());
    }

    #[test]
    fn the_picture_size_is_the_smallest_halving_at_least_the_drawn_size() {
        for (drawn, halvings) in [(700.0, 0), (340.0, 1), (158.0, 2), (60.0, 3)] {
            assert_eq!(halvings_for(drawn), halvings, "{drawn}");
        }
    }
}
