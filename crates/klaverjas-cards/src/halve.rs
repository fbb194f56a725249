//! Halving a picture: how the game draws a card at a screen's size, and
//! how the web build makes its copies halved once ahead of time. Halved
//! once, the two give the same pixels; a copy halved again can differ from
//! a picture halved twice at once by a level of a channel (the copy's were
//! rounded to 8 bits between the two).

/// RGBA pixels `w` by `h` halved `times` times, averaging with the colours
/// weighted by their alpha, so transparent corners do not darken the
/// edges; with their new size.
pub fn halve(rgba: Vec<u8>, mut w: usize, mut h: usize, times: u32) -> (Vec<u8>, usize, usize) {
    if times == 0 {
        return (rgba, w, h);
    }
    let mut px: Vec<[u32; 4]> = rgba
        .chunks_exact(4)
        .map(|c| {
            let a = c[3] as u32;
            [c[0] as u32 * a, c[1] as u32 * a, c[2] as u32 * a, a]
        })
        .collect();
    drop(rgba);
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
    let bytes = px
        .iter()
        .flat_map(|&[r, g, b, a]| {
            let straight = |v: u32| (v + a / 2).checked_div(a).unwrap_or(0).min(255) as u8;
            [straight(r), straight(g), straight(b), a.min(255) as u8]
        })
        .collect();
    (bytes, w, h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halving_averages_and_keeps_transparent_corners_clean() {
        // 4 x 2: a transparent pixel beside opaque red, and plain white.
        let data = vec![
            0, 0, 0, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, //
            255, 0, 0, 255, 255, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        ];
        let (px, w, h) = halve(data.clone(), 4, 2, 1);
        assert_eq!((w, h), (2, 1));
        // Three opaque reds and one transparent pixel: still pure red,
        // three quarters opaque (black would bleed in without weighting).
        assert_eq!(&px[0..4], &[255, 0, 0, 191]);
        assert_eq!(&px[4..8], &[255, 255, 255, 255]);
        assert_eq!(halve(data.clone(), 4, 2, 0), (data, 4, 2));
    }
}
