//! The card pictures from `assets/cards/` (made by `kj-cards`), turned into
//! egui textures the first time the table shows each one.
//!
//! The files are twice the largest size the game draws a card at. Each is
//! halved (averaging, so it stays sharp) until it is no more than twice the
//! size it is drawn at on this screen: a 720p table keeps 232 px cards, a
//! phone 1080 px wide 464 px, and a deck's 53 textures take 8 to 31 MB of
//! video memory instead of 126.
//!
//! Where the folder is missing the table draws plain cards instead, and the
//! title screen says why.

use crate::settings::Skin;
use bevy::prelude::Resource;
use bevy_egui::egui::{self, Color32, ColorImage, Mesh, Pos2, Rect, TextureHandle, TextureId, TextureOptions};
use klaverjas_cards::{Deck, Face};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

#[derive(Resource)]
pub struct CardPictures {
    /// `assets/cards`, if found.
    root: Option<PathBuf>,
    /// How many times the files are halved for this screen.
    halvings: u32,
    /// The player's skin, which the textures are of.
    skin: Skin,
    /// Loaded textures; `None` records a file that could not be read, so it
    /// is not tried again every frame.
    textures: HashMap<Face, Option<TextureHandle>>,
    /// The first file that failed, for the player.
    pub problem: Option<String>,
}

/// Where the pictures may be, in order: `$KLAVERJAS_ASSETS/cards`, an
/// `assets/cards` beside the executable or up to three folders above it
/// (`target/release/` in a checkout), and the checkout this was built from.
pub fn find_root() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::var_os("KLAVERJAS_ASSETS") {
        candidates.push(PathBuf::from(dir).join("cards"));
    }
    if let Ok(exe) = std::env::current_exe() {
        candidates.extend(exe.ancestors().skip(1).take(4).map(|d| d.join("assets/cards")));
    }
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/cards"));
    candidates.into_iter().find(|d| d.join(Deck::French.dir()).join(Face::Back.file_name()).is_file())
}

impl CardPictures {
    pub fn new(root: Option<PathBuf>) -> CardPictures {
        let problem = match &root {
            None => Some("assets/cards was not found: plain cards are drawn".to_string()),
            Some(_) => None,
        };
        if let Some(p) = &problem {
            bevy::log::warn!("{p}");
        }
        CardPictures { root, halvings: 0, skin: Skin::French, textures: HashMap::new(), problem }
    }

    /// The skin to draw; switching frees the old skin's textures.
    pub fn use_skin(&mut self, skin: Skin) {
        if skin != self.skin {
            self.skin = skin;
            self.textures.clear();
        }
    }

    pub fn skin(&self) -> Skin {
        self.skin
    }

    /// Chooses the texture size for cards drawn `drawn_height` physical
    /// pixels high; a change drops the textures made for the old size.
    pub fn fit(&mut self, drawn_height: f32) {
        let full = klaverjas_cards::CARD_HEIGHT as f32;
        let mut halvings = 0;
        while halvings < 3 && full / 2f32.powi(halvings as i32 + 1) >= drawn_height {
            halvings += 1;
        }
        if halvings != self.halvings {
            self.halvings = halvings;
            self.textures.clear();
        }
    }

    /// The texture of a face in the current skin, loading it on first use.
    pub fn texture(&mut self, ctx: &egui::Context, face: Face) -> Option<TextureId> {
        let root = self.root.as_ref()?;
        let (halvings, deck) = (self.halvings, self.skin.deck());
        let slot = self.textures.entry(face).or_insert_with(|| {
            let path = root.join(deck.dir()).join(face.file_name());
            match load(&path, halvings) {
                Ok(image) => Some(ctx.load_texture(path.display().to_string(), image, TextureOptions::LINEAR)),
                Err(e) => {
                    bevy::log::warn!("{}: {e}", path.display());
                    self.problem.get_or_insert_with(|| format!("{}: {e}", path.display()));
                    None
                }
            }
        });
        slot.as_ref().map(TextureHandle::id)
    }
}

fn load(path: &Path, halvings: u32) -> Result<ColorImage, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let mut buf = vec![0; reader.output_buffer_size().ok_or("the picture is too large")?];
    let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
    if info.color_type != png::ColorType::Rgba || info.bit_depth != png::BitDepth::Eight {
        return Err(format!("expected 8-bit RGBA, found {:?} {:?}", info.color_type, info.bit_depth));
    }
    let (mut w, mut h) = (info.width as usize, info.height as usize);
    // Premultiplied, so transparent corners do not darken the edges when
    // pixels are averaged.
    let mut px: Vec<[u16; 4]> = buf[..w * h * 4]
        .chunks_exact(4)
        .map(|c| {
            let a = c[3] as u16;
            [c[0] as u16 * a / 255, c[1] as u16 * a / 255, c[2] as u16 * a / 255, a]
        })
        .collect();
    for _ in 0..halvings {
        let (nw, nh) = (w / 2, h / 2);
        let mut next = Vec::with_capacity(nw * nh);
        for y in 0..nh {
            for x in 0..nw {
                let at = |dx: usize, dy: usize| px[(2 * y + dy) * w + 2 * x + dx];
                let quad = [at(0, 0), at(1, 0), at(0, 1), at(1, 1)];
                next.push(std::array::from_fn(|k| (quad.iter().map(|q| q[k]).sum::<u16>() + 2) / 4));
            }
        }
        (px, w, h) = (next, nw, nh);
    }
    let bytes: Vec<u8> = px.iter().flat_map(|p| p.map(|v| v as u8)).collect();
    Ok(ColorImage::from_rgba_premultiplied([w, h], &bytes))
}

/// Paints a texture into `rect`; `quarter_turn` lays it on its side (the
/// side players' backs). `tint` darkens a card that may not be played.
pub fn paint(p: &egui::Painter, texture: TextureId, rect: Rect, quarter_turn: bool, tint: Color32) {
    paint_part(p, texture, rect, Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0)), quarter_turn, tint);
}

/// Paints the part `uv` (0..1 on both axes) of a texture into `rect`.
pub fn paint_part(p: &egui::Painter, texture: TextureId, rect: Rect, uv: Rect, quarter_turn: bool, tint: Color32) {
    let mut mesh = Mesh::with_texture(texture);
    let corners = [rect.left_top(), rect.right_top(), rect.right_bottom(), rect.left_bottom()];
    let mut uvs = [uv.left_top(), uv.right_top(), uv.right_bottom(), uv.left_bottom()];
    if quarter_turn {
        uvs.rotate_right(1);
    }
    for (pos, uv) in corners.into_iter().zip(uvs) {
        mesh.vertices.push(egui::epaint::Vertex { pos, uv, color: tint });
    }
    mesh.add_triangle(0, 1, 2);
    mesh.add_triangle(0, 2, 3);
    p.add(mesh);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checkout_has_the_pictures_and_they_load_at_each_size() {
        let root = find_root().expect("assets/cards in the checkout");
        let path = root.join(Deck::Swiss.dir()).join(Face::Back.file_name());
        for halvings in 0..3 {
            let image = load(&path, halvings).expect("a committed picture loads");
            let (w, h) =
                (klaverjas_cards::CARD_WIDTH as usize >> halvings, klaverjas_cards::CARD_HEIGHT as usize >> halvings);
            assert_eq!(image.size, [w, h]);
            // Rounded corners stay transparent; the middle is opaque.
            assert_eq!(image.pixels[0].a(), 0);
            assert_eq!(image.pixels[h / 2 * w + w / 2].a(), 255);
        }
    }

    #[test]
    fn a_damaged_picture_is_an_error_not_a_panic() {
        let dir = std::env::temp_dir().join(format!("kj-pictures-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let path = dir.join("bad.png");
        std::fs::write(&path, b"\x89PNG\r\n\x1a\nnot really").expect("a file");
        assert!(load(&path, 1).is_err());
        assert!(load(&dir.join("missing.png"), 0).is_err());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn the_texture_size_is_the_smallest_halving_at_least_the_drawn_size() {
        let mut pics = CardPictures::new(None);
        for (drawn, halvings) in [(700.0, 0), (340.0, 1), (158.0, 2), (60.0, 3)] {
            pics.fit(drawn);
            assert_eq!(pics.halvings, halvings, "{drawn}");
        }
    }
}
