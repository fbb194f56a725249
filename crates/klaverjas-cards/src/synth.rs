//! The sound generator: every sound of the table synthesised from noise,
//! filters and tones, so the files are ours and the same on every machine.
//! Only IEEE arithmetic is used (our own `sin` and `exp` below): the
//! platform's maths library may round differently, and a test compares the
//! committed files byte for byte.

use crate::sounds::{SAMPLE_RATE, Sound};

const RATE: f64 = SAMPLE_RATE as f64;
const PI: f64 = std::f64::consts::PI;

/// The sound's samples, as the file holds them.
pub fn synthesise(sound: Sound) -> Vec<i16> {
    let mut t = Track::new(length(sound));
    let mut noise = Noise(0x9E37_79B9_7F4A_7C15 ^ sound as u64);
    let peak = match sound {
        Sound::Shuffle => {
            shuffle(&mut t, &mut noise);
            0.55
        }
        Sound::Deal => {
            for i in 0..8 {
                flick(&mut t, &mut noise, 0.03 + 0.115 * i as f64);
            }
            0.5
        }
        Sound::Lay => {
            tap(&mut t, &mut noise, Tap { at: 0.0, amp: 1.0, centre: 2200.0, q: 1.2, decay: 0.010 });
            tap(&mut t, &mut noise, Tap { at: 0.008, amp: 0.4, centre: 3400.0, q: 1.5, decay: 0.004 });
            thump(&mut t, 0.0, 160.0, 0.35, 0.015);
            0.45
        }
        Sound::PlayMine => {
            tap(&mut t, &mut noise, Tap { at: 0.0, amp: 0.6, centre: 4200.0, q: 1.0, decay: 0.002 });
            tap(&mut t, &mut noise, Tap { at: 0.002, amp: 1.0, centre: 2900.0, q: 0.9, decay: 0.009 });
            thump(&mut t, 0.002, 140.0, 0.5, 0.02);
            0.7
        }
        Sound::PlayTheirs => {
            tap(&mut t, &mut noise, Tap { at: 0.0, amp: 1.0, centre: 1500.0, q: 1.0, decay: 0.013 });
            thump(&mut t, 0.0, 150.0, 0.25, 0.018);
            0.38
        }
        Sound::Sweep => {
            swish(&mut t, &mut noise, 0.0, 0.26, (700.0, 2600.0), 1.0);
            tap(&mut t, &mut noise, Tap { at: 0.25, amp: 0.6, centre: 1800.0, q: 1.0, decay: 0.012 });
            0.5
        }
        Sound::RoemCall => {
            roem(&mut t);
            0.6
        }
        Sound::RoemAnswer => {
            bell(&mut t, 0.0, 1318.5, 0.18, 1.0);
            bell(&mut t, 0.12, 1760.0, 0.25, 1.0);
            0.5
        }
        Sound::Refused => {
            buzz(&mut t, 0.0, 110.0, 0.09);
            buzz(&mut t, 0.13, 98.0, 0.11);
            0.45
        }
        Sound::DealWon => {
            for (i, f) in [523.25, 659.26, 783.99].into_iter().enumerate() {
                bell(&mut t, 0.1 * i as f64, f, 0.35, 0.8);
            }
            bell(&mut t, 0.3, 1046.5, 0.6, 1.0);
            0.55
        }
        Sound::Nat => {
            wah(&mut t, 0.0, 0.3, (392.0, 392.0));
            wah(&mut t, 0.32, 0.3, (370.0, 370.0));
            wah(&mut t, 0.64, 0.52, (349.2, 330.0));
            0.5
        }
    };
    t.finish(peak)
}

/// How long each sound lasts, in seconds.
fn length(sound: Sound) -> f64 {
    match sound {
        Sound::Shuffle => 1.1,
        Sound::Deal => 1.0,
        Sound::Lay => 0.09,
        Sound::PlayMine | Sound::PlayTheirs => 0.11,
        Sound::Sweep => 0.32,
        Sound::RoemCall => 0.55,
        Sound::RoemAnswer => 0.6,
        Sound::Refused => 0.3,
        Sound::DealWon => 1.1,
        Sound::Nat => 1.2,
    }
}

/// A sound being made, in floating point until it is finished.
struct Track(Vec<f64>);

impl Track {
    fn new(seconds: f64) -> Track {
        Track(vec![0.0; (seconds * RATE) as usize])
    }

    /// Adds `f(t)` from `at` seconds for `len` seconds, `t` from 0.
    fn add(&mut self, at: f64, len: f64, mut f: impl FnMut(f64) -> f64) {
        let start = (at * RATE) as usize;
        let n = (len * RATE) as usize;
        for i in 0..n {
            let Some(s) = self.0.get_mut(start + i) else { break };
            *s += f(i as f64 / RATE);
        }
    }

    /// Scaled to `peak` of full scale, faded out over its last 5 ms so it
    /// ends without a click, and rounded to 16 bits.
    fn finish(mut self, peak: f64) -> Vec<i16> {
        let fade = (0.005 * RATE) as usize;
        let n = self.0.len();
        for (i, s) in self.0.iter_mut().enumerate().skip(n.saturating_sub(fade)) {
            *s *= (n - i) as f64 / fade as f64;
        }
        let loudest = self.0.iter().fold(0.0f64, |m, s| m.max(s.abs()));
        let scale = if loudest > 0.0 { peak / loudest } else { 0.0 };
        self.0.iter().map(|s| (s * scale * 32767.0).round().clamp(-32767.0, 32767.0) as i16).collect()
    }
}

/// White noise from a fixed seed: xorshift64*.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (x >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }

    /// Uniform in `lo..hi`.
    fn between(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next() + 1.0) / 2.0
    }
}

/// A resonant filter (the state-variable form that stays stable at any
/// frequency), giving its low-pass and band-pass outputs.
#[derive(Default)]
struct Filter {
    ic1: f64,
    ic2: f64,
}

impl Filter {
    /// One sample through the filter tuned to `centre` Hz with quality `q`;
    /// returns (low-pass, band-pass).
    fn run(&mut self, x: f64, centre: f64, q: f64) -> (f64, f64) {
        let w = PI * centre.min(RATE * 0.45) / RATE;
        let g = sin(w) / sin(w + PI / 2.0);
        let k = 1.0 / q;
        let a1 = 1.0 / (1.0 + g * (g + k));
        let a2 = g * a1;
        let a3 = g * a2;
        let v3 = x - self.ic2;
        let v1 = a1 * self.ic1 + a2 * v3;
        let v2 = self.ic2 + a2 * self.ic1 + a3 * v3;
        self.ic1 = 2.0 * v1 - self.ic1;
        self.ic2 = 2.0 * v2 - self.ic2;
        (v2, v1)
    }
}

/// A burst of filtered noise: a card's edge or face meeting the felt.
struct Tap {
    at: f64,
    amp: f64,
    centre: f64,
    q: f64,
    decay: f64,
}

fn tap(t: &mut Track, noise: &mut Noise, tap: Tap) {
    let mut f = Filter::default();
    let attack = 0.0008;
    t.add(tap.at, tap.decay * 7.0 + attack, |s| {
        let env = if s < attack { s / attack } else { exp(-(s - attack) / tap.decay) };
        tap.amp * f.run(noise.next() * env, tap.centre, tap.q).1
    });
}

/// The low knock of a card landing on the table top under the felt.
fn thump(t: &mut Track, at: f64, freq: f64, amp: f64, decay: f64) {
    t.add(at, decay * 7.0, |s| amp * sin(2.0 * PI * freq * s) * exp(-s / decay) * (s / 0.001).min(1.0));
}

/// Noise swelling and fading through a band that moves from `sweep.0` to
/// `sweep.1` Hz: cards sliding over cloth.
fn swish(t: &mut Track, noise: &mut Noise, at: f64, len: f64, sweep: (f64, f64), amp: f64) {
    let mut f = Filter::default();
    t.add(at, len, |s| {
        let x = s / len;
        let hump = sin(PI * x);
        let centre = sweep.0 + (sweep.1 - sweep.0) * x;
        amp * f.run(noise.next() * hump * hump, centre, 1.4).1
    });
}

/// A riffle: the two halves' corners falling one by one, fast in the
/// middle, then the bridge's cascade of cards settling.
fn shuffle(t: &mut Track, noise: &mut Noise) {
    let riffle = 0.72;
    let mut at = 0.02;
    while at < riffle {
        let x = at / riffle;
        // The interval between falling cards: 28 ms at the ends, 11 in the middle.
        let gap = 0.011 + 0.017 * (2.0 * x - 1.0) * (2.0 * x - 1.0);
        let amp = noise.between(0.45, 1.0);
        let centre = noise.between(2400.0, 3900.0);
        tap(t, noise, Tap { at, amp, centre, q: 1.3, decay: 0.0028 });
        at += gap * noise.between(0.8, 1.2);
    }
    swish(t, noise, 0.02, riffle, (2600.0, 3200.0), 0.12);
    let mut at = 0.8;
    let mut amp = 0.7;
    while at < 1.04 {
        tap(t, noise, Tap { at, amp, centre: 2000.0, q: 1.0, decay: 0.004 });
        at += 0.0045 * noise.between(0.7, 1.3);
        amp *= 0.96;
    }
}

/// A packet flicked across the table and landing.
fn flick(t: &mut Track, noise: &mut Noise, at: f64) {
    swish(t, noise, at, 0.045, (3200.0, 1500.0), 0.45);
    tap(t, noise, Tap { at: at + 0.045, amp: 1.0, centre: 2000.0, q: 1.1, decay: 0.008 });
    thump(t, at + 0.045, 150.0, 0.2, 0.012);
}

/// A struck bell: its fundamental and two inharmonic partials dying away.
fn bell(t: &mut Track, at: f64, freq: f64, decay: f64, amp: f64) {
    t.add(at, decay * 6.0, |s| {
        let env = (s / 0.003).min(1.0);
        let partials = sin(2.0 * PI * freq * s) * exp(-s / decay)
            + 0.3 * sin(2.0 * PI * freq * 2.76 * s) * exp(-s / (decay * 0.45))
            + 0.1 * sin(2.0 * PI * freq * 5.4 * s) * exp(-s / (decay * 0.22));
        amp * env * partials
    });
}

/// A low, dull "no": odd harmonics, like a muted square wave.
fn buzz(t: &mut Track, at: f64, freq: f64, len: f64) {
    t.add(at, len, |s| {
        let env = (s / 0.005).min(1.0) * ((len - s) / 0.02).min(1.0);
        let wave: f64 = [1.0, 3.0, 5.0, 7.0].iter().map(|k| sin(2.0 * PI * freq * k * s) / k).sum();
        env * wave
    });
}

/// A falling "wah" of a muted horn: a note gliding from `glide.0` to
/// `glide.1` Hz through a filter that opens and closes.
fn wah(t: &mut Track, at: f64, len: f64, glide: (f64, f64)) {
    let mut f = Filter::default();
    let mut phase = 0.0;
    t.add(at, len, |s| {
        let x = s / len;
        let freq = glide.0 + (glide.1 - glide.0) * x + 3.0 * sin(2.0 * PI * 5.5 * s) * x;
        phase += freq / RATE;
        phase -= phase.floor();
        let wave: f64 = (1..=8).map(|k| sin(2.0 * PI * phase * k as f64) / k as f64).sum();
        let env = (s / 0.02).min(1.0) * ((len - s) / 0.04).min(1.0);
        let open = sin(PI * x.min(1.0));
        f.run(env * wave, 450.0 + 1400.0 * open, 2.0).0
    });
}

/// "Roem!": a voice made of a pulse train through three formants, moving
/// from a rolled r through the vowel *oe* to the closing m.
fn roem(t: &mut Track) {
    let mut formants = [Filter::default(), Filter::default(), Filter::default()];
    let mut phase = 0.0;
    let len = 0.52;
    t.add(0.0, len, |s| {
        // The pitch of a called word: up a little, then falling.
        let pitch = if s < 0.12 { 150.0 + 200.0 * s } else { 174.0 - 90.0 * (s - 0.12) };
        phase += pitch / RATE;
        let pulse = if phase >= 1.0 {
            phase -= 1.0;
            1.0
        } else {
            0.0
        };
        // Formant frequencies and the loudness of each stretch, blended
        // over 25 ms at each boundary.
        let stretches = [
            (0.00, [420.0, 1250.0, 2200.0], 0.6),
            (0.06, [320.0, 800.0, 2300.0], 1.0),
            (0.36, [260.0, 1150.0, 2400.0], 0.35),
        ];
        let mut shape = stretches[0];
        for w in stretches.windows(2) {
            let (a, b) = (w[0], w[1]);
            let x = ((s - b.0) / 0.025).clamp(0.0, 1.0);
            if s >= b.0 {
                shape = (b.0, [0, 1, 2].map(|i| a.1[i] + (b.1[i] - a.1[i]) * x), a.2 + (b.2 - a.2) * x);
            }
        }
        // The rolled r: the tongue's taps at 28 Hz.
        let trill = if s < 0.06 { 0.55 + 0.45 * sin(2.0 * PI * 28.0 * s) } else { 1.0 };
        let env = (s / 0.015).min(1.0) * ((len - s) / 0.06).min(1.0) * shape.2 * trill;
        let gains = [1.0, 0.55, 0.2];
        let qs = [4.0, 8.0, 15.0];
        (0..3).map(|i| gains[i] * formants[i].run(pulse * env, shape.1[i], qs[i]).1).sum()
    });
}

/// Sine from IEEE arithmetic alone: reduced to [-π/2, π/2], then a
/// Taylor series accurate to about 1e-9 there.
fn sin(x: f64) -> f64 {
    let mut x = x - 2.0 * PI * (x / (2.0 * PI)).round();
    if x > PI / 2.0 {
        x = PI - x;
    } else if x < -PI / 2.0 {
        x = -PI - x;
    }
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    for n in 1..8 {
        term *= -x2 / ((2 * n) as f64 * (2 * n + 1) as f64);
        sum += term;
    }
    sum
}

/// e^x from IEEE arithmetic alone: x = k·ln 2 + r, e^r by its series.
fn exp(x: f64) -> f64 {
    if x < -700.0 {
        return 0.0;
    }
    let ln2 = std::f64::consts::LN_2;
    let k = (x / ln2).round();
    let r = x - k * ln2;
    let mut term = 1.0;
    let mut sum = 1.0;
    for n in 1..14 {
        term *= r / n as f64;
        sum += term;
    }
    sum * f64::from_bits(((k as i64 + 1023) as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_sine_and_exponential_match_the_library_closely() {
        for i in -2000..2000 {
            let x = i as f64 * 0.01;
            assert!((sin(x) - x.sin()).abs() < 1e-9, "sin {x}");
            assert!((exp(x / 10.0) - (x / 10.0).exp()).abs() / (x / 10.0).exp() < 1e-12, "exp {x}");
        }
    }

    #[test]
    fn every_sound_peaks_where_asked_and_ends_quietly() {
        for sound in Sound::ALL {
            let samples = synthesise(sound);
            let peak = samples.iter().map(|s| s.unsigned_abs()).max().unwrap();
            assert!((10_000..=23_000).contains(&peak), "{sound:?} peaks at {peak}");
            assert!(samples.last().unwrap().unsigned_abs() < 200, "{sound:?} ends with a click");
        }
    }
}
