//! The card pictures of the chosen skin, loaded through Bevy's
//! `AssetServer` from `assets/cards/<deck>/` (made by `kj-cards`), so the
//! same code reads them from a folder on the desktop and from the app
//! bundle on a phone.
//!
//! The files are twice the largest size the game draws a card at. As each
//! arrives it is halved (averaging, so it stays sharp: sprites have no
//! mipmaps, and a picture shrunk fourfold on the GPU shimmers) until it is
//! no more than twice the size it is drawn at on this screen: a 720p table
//! keeps 232 px cards, a phone 1080 px wide 464 px, and a deck's textures
//! take 8 to 31 MB of video memory instead of 126.

use crate::settings::Skin;
use crate::state::PlayerSettings;
use crate::table::layout::Table;
use bevy::asset::RenderAssetUsages;
use bevy::image::Image;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::tasks::{AsyncComputeTaskPool, Task, block_on};
use bevy::window::RequestRedraw;
use klaverjas::{Card, PileCard};
use klaverjas_cards::Face;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The folder Bevy's `AssetServer` reads: `$KLAVERJAS_ASSETS`, an `assets`
/// folder beside the executable or up to three folders above it
/// (`target/release/` in a checkout), or the checkout this was built from.
/// `None` where none holds the card pictures: Bevy's default then applies
/// (the bundle's assets on a phone).
pub fn find_assets() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::var_os("KLAVERJAS_ASSETS") {
        candidates.push(PathBuf::from(dir));
    }
    if let Ok(exe) = std::env::current_exe() {
        candidates.extend(exe.ancestors().skip(1).take(4).map(|d| d.join("assets")));
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
    /// Pictures sent to be halved, and how many times.
    halved: HashMap<AssetId<Image>, u32>,
    /// The first picture that failed, for the player.
    pub problem: Option<String>,
    /// Pictures still being halved.
    pending: usize,
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

    /// Whether every picture has arrived (or failed) and been halved.
    pub fn ready(&self, server: &AssetServer) -> bool {
        self.handles.values().all(|h| {
            let failed = matches!(server.load_state(h), bevy::asset::LoadState::Failed(_));
            failed || (server.is_loaded_with_dependencies(h) && self.halved.get(&h.id()) == Some(&self.halvings))
        }) && self.pending == 0
    }

    fn load(server: &AssetServer, skin: Skin, halvings: u32) -> CardImages {
        let handles: HashMap<Face, Handle<Image>> =
            Face::all().into_iter().map(|f| (f, server.load(face_path(skin, f)))).collect();
        // A skin shown before may still be loaded, and halved then.
        let halved =
            handles.values().filter(|h| server.is_loaded_with_dependencies(*h)).map(|h| (h.id(), halvings)).collect();
        CardImages { skin, handles, halvings, halved, problem: None, pending: 0 }
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
    app.init_resource::<Halving>()
        .add_systems(PreStartup, load_skin)
        .add_systems(Update, (follow_skin, halve_loaded).chain());
}

fn wanted_halvings(table: &Table, windows: &Query<&Window>) -> u32 {
    let scale = windows.iter().next().map_or(1.0, |w| w.scale_factor());
    halvings_for(table.layout().card.y * table.zoom * scale)
}

fn load_skin(
    mut commands: Commands,
    server: Res<AssetServer>,
    settings: Res<PlayerSettings>,
    table: Res<Table>,
    windows: Query<&Window>,
) {
    let halvings = wanted_halvings(&table, &windows);
    commands.insert_resource(CardImages::load(&server, settings.0.skin, halvings));
}

/// A new skin loads its pictures, sized for the window as it is then; the
/// cards take the new handles from [`CardImages`]. A window made larger
/// keeps the size its pictures loaded at (the asset server keeps one copy
/// a path), at most twice enlarged.
fn follow_skin(
    mut images: ResMut<CardImages>,
    server: Res<AssetServer>,
    settings: Res<PlayerSettings>,
    table: Res<Table>,
    windows: Query<&Window>,
) {
    if settings.0.skin != images.skin {
        *images = CardImages::load(&server, settings.0.skin, wanted_halvings(&table, &windows));
    }
}

/// Pictures being halved on the async compute pool, so a new skin or the
/// first deal never waits for them: the full picture shows meanwhile.
#[derive(Resource, Default)]
struct Halving(Vec<(AssetId<Image>, u32, Task<Option<Image>>)>);

/// Sends each picture of the skin to be halved as it arrives, puts the
/// halved ones in place, and notes failures.
fn halve_loaded(
    mut loaded: MessageReader<AssetEvent<Image>>,
    mut failed: MessageReader<bevy::asset::AssetLoadFailedEvent<Image>>,
    mut images: ResMut<CardImages>,
    mut assets: ResMut<Assets<Image>>,
    mut halving: ResMut<Halving>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    for event in loaded.read() {
        let AssetEvent::LoadedWithDependencies { id } = *event else { continue };
        let halvings = images.halvings;
        let ours = images.handles.values().any(|h| h.id() == id);
        if !ours || images.halved.get(&id) == Some(&halvings) {
            continue;
        }
        images.halved.insert(id, halvings);
        if let Some(image) = assets.get(id).cloned() {
            let task = AsyncComputeTaskPool::get().spawn(async move { halve(&image, halvings) });
            halving.0.push((id, halvings, task));
        }
    }
    let mut i = 0;
    while i < halving.0.len() {
        if !halving.0[i].2.is_finished() {
            i += 1;
            continue;
        }
        let (id, halvings, task) = halving.0.swap_remove(i);
        if let Some(smaller) = block_on(task)
            && images.halved.get(&id) == Some(&halvings)
            && let Some(mut image) = assets.get_mut(id)
        {
            *image = smaller;
        }
    }
    images.pending = halving.0.len();
    if !halving.0.is_empty() {
        redraw.write(RequestRedraw);
    }
    for e in failed.read() {
        warn!("{}: {}", e.path, e.error);
        if images.problem.is_none() {
            images.problem = Some(format!("{}: {}", e.path, e.error));
        }
    }
}

/// `image` halved `times` times, averaging with the colours weighted by
/// their alpha, so transparent corners do not darken the edges. `None`
/// where nothing is to be done or the format is not 8-bit RGBA.
fn halve(image: &Image, times: u32) -> Option<Image> {
    let format = image.texture_descriptor.format;
    if times == 0 || !matches!(format, TextureFormat::Rgba8UnormSrgb | TextureFormat::Rgba8Unorm) {
        return None;
    }
    let (mut w, mut h) = (image.width() as usize, image.height() as usize);
    let mut px: Vec<[u32; 4]> = image
        .data
        .as_ref()?
        .chunks_exact(4)
        .map(|c| {
            let a = c[3] as u32;
            [c[0] as u32 * a, c[1] as u32 * a, c[2] as u32 * a, a]
        })
        .collect();
    for _ in 0..times {
        let (nw, nh) = (w / 2, h / 2);
        let mut next = Vec::with_capacity(nw * nh);
        for y in 0..nh {
            for x in 0..nw {
                let at = |dx: usize, dy: usize| px[(2 * y + dy) * w + 2 * x + dx];
                let quad = [at(0, 0), at(1, 0), at(0, 1), at(1, 1)];
                next.push(std::array::from_fn(|k| quad.iter().map(|q| q[k]).sum::<u32>() / 4));
            }
        }
        (px, w, h) = (next, nw, nh);
    }
    let bytes: Vec<u8> = px
        .iter()
        .flat_map(|&[r, g, b, a]| {
            let straight = |v: u32| (v + a / 2).checked_div(a).unwrap_or(0).min(255) as u8;
            [straight(r), straight(g), straight(b), a.min(255) as u8]
        })
        .collect();
    let size = Extent3d { width: w as u32, height: h as u32, depth_or_array_layers: 1 };
    // Only the GPU needs the pixels from now on: the main world's copy goes
    // once they are uploaded.
    let mut smaller = Image::new(size, TextureDimension::D2, bytes, format, RenderAssetUsages::RENDER_WORLD);
    smaller.sampler = image.sampler.clone();
    Some(smaller)
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
    fn halving_averages_and_keeps_transparent_corners_clean() {
        // 4 x 2: a transparent pixel beside opaque red, and plain white.
        let data = vec![
            0, 0, 0, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, //
            255, 0, 0, 255, 255, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        ];
        let size = Extent3d { width: 4, height: 2, depth_or_array_layers: 1 };
        let image =
            Image::new(size, TextureDimension::D2, data, TextureFormat::Rgba8UnormSrgb, RenderAssetUsages::default());
        let half = halve(&image, 1).expect("RGBA halves");
        assert_eq!((half.width(), half.height()), (2, 1));
        let px = half.data.expect("pixels");
        // Three opaque reds and one transparent pixel: still pure red,
        // three quarters opaque (black would bleed in without weighting).
        assert_eq!(&px[0..4], &[255, 0, 0, 191]);
        assert_eq!(&px[4..8], &[255, 255, 255, 255]);
        assert!(halve(&image, 0).is_none());
    }

    #[test]
    fn the_picture_size_is_the_smallest_halving_at_least_the_drawn_size() {
        for (drawn, halvings) in [(700.0, 0), (340.0, 1), (158.0, 2), (60.0, 3)] {
            assert_eq!(halvings_for(drawn), halvings, "{drawn}");
        }
    }
}
