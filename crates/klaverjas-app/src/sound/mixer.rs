//! Our own mixer, for where Bevy's audio cannot go without system headers
//! (Linux: see [`super::alsa`]) and for recording the table to a WAV file
//! (`--record-sound`). A thread sums the sounds that are playing into
//! chunks of 20 ms and hands them to an [`Output`]; the game only sends it
//! [`Command`]s, so a slow device never holds up a frame.

use klaverjas_cards::{SAMPLE_RATE, Sound, decode_wav};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError, channel};
use std::time::{Duration, Instant};

/// Frames mixed at a time: 20 ms.
const CHUNK: usize = SAMPLE_RATE as usize / 50;

/// Where the mixed sound goes.
pub trait Output: Send + 'static {
    /// Plays (or keeps) these samples; blocks while the device is full.
    fn write(&mut self, samples: &[i16]) -> Result<(), String>;
    /// Whether silence is written while nothing plays (a recording keeps
    /// time), or the mixer waits for the next sound (a device).
    fn keeps_time(&self) -> bool;
    /// Everything written so far has been played or stored.
    fn finish(&mut self) {}
}

/// What the game asks of the mixer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Command {
    /// Starts `sound` at this volume (0 to 1), over whatever plays.
    Play(Sound, f32),
    /// Silences everything at once (the app went to the background).
    Stop,
}

impl Command {
    /// The sound a request starts, if it starts one.
    pub fn sound(&self) -> Option<Sound> {
        match self {
            Command::Play(sound, _) => Some(*sound),
            Command::Stop => None,
        }
    }
}

/// The game's end of a running mixer. Dropping it ends the thread, which
/// lets the output finish (a recording is written out).
pub struct Mixer {
    commands: Option<Sender<Command>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Mixer {
    /// Loads the sounds from `sounds_dir` and starts mixing into `output`.
    /// A sound whose file cannot be read stays silent; the first such
    /// problem is logged.
    pub fn start(sounds_dir: &Path, output: impl Output) -> Mixer {
        let clips = Clips::load(sounds_dir);
        let (tx, rx) = channel();
        let thread = std::thread::Builder::new()
            .name("klaverjas-sound".into())
            .spawn(move || run(rx, clips, output))
            .map_err(|e| bevy::log::warn!("no sound: the mixer's thread did not start: {e}"))
            .ok();
        Mixer { commands: Some(tx), thread }
    }

    pub fn send(&self, command: Command) {
        if let Some(tx) = &self.commands {
            // A mixer whose device failed has ended: silence, as promised.
            let _ = tx.send(command);
        }
    }
}

impl Drop for Mixer {
    fn drop(&mut self) {
        self.commands = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Every sound's samples, as floats.
struct Clips(Vec<Vec<f32>>);

impl Clips {
    fn load(dir: &Path) -> Clips {
        let mut problem: Option<String> = None;
        let clips = Sound::ALL
            .iter()
            .map(|sound| {
                let path = dir.join(sound.file_name());
                let read = std::fs::read(&path).map_err(|e| e.to_string());
                match read.and_then(|bytes| decode_wav(&bytes).map_err(|e| e.to_string())) {
                    Ok(samples) => samples.iter().map(|&s| s as f32 / 32768.0).collect(),
                    Err(e) => {
                        problem.get_or_insert(format!("{}: {e}", path.display()));
                        Vec::new()
                    }
                }
            })
            .collect();
        if let Some(problem) = problem {
            bevy::log::warn!("some sounds stay silent: {problem}");
        }
        Clips(clips)
    }

    fn of(&self, sound: Sound) -> &[f32] {
        &self.0[sound.index()]
    }
}

/// A sound playing: which, how far, how loud.
struct Voice {
    sound: Sound,
    at: usize,
    volume: f32,
}

/// Sums the voices' next `out.len()` samples into `out`, clipped to 16
/// bits; voices that end are dropped.
fn mix(voices: &mut Vec<Voice>, clips: &Clips, out: &mut [i16]) {
    let mut sum = vec![0.0f32; out.len()];
    for v in voices.iter_mut() {
        let clip = clips.of(v.sound);
        for (s, x) in sum.iter_mut().zip(clip.iter().skip(v.at)) {
            *s += x * v.volume;
        }
        v.at += out.len();
    }
    voices.retain(|v| v.at < clips.of(v.sound).len());
    for (o, s) in out.iter_mut().zip(sum) {
        *o = (s * 32768.0).round().clamp(-32768.0, 32767.0) as i16;
    }
}

fn run(commands: Receiver<Command>, clips: Clips, mut output: impl Output) {
    let mut voices: Vec<Voice> = Vec::new();
    let mut chunk = vec![0i16; CHUNK];
    let start = Instant::now();
    let mut written = 0u64;
    // When the samples written so far have played, in the game's time.
    let played_out = |written: u64| start + Duration::from_secs_f64(written as f64 / SAMPLE_RATE as f64);
    let take = |command, voices: &mut Vec<Voice>| match command {
        Command::Play(sound, volume) => voices.push(Voice { sound, at: 0, volume }),
        Command::Stop => voices.clear(),
    };
    'mixing: loop {
        // A recording writes silence in time with the game; a device with
        // nothing to play waits for the next sound.
        let waited = if output.keeps_time() {
            commands.recv_timeout(played_out(written).saturating_duration_since(Instant::now())).map_err(|e| match e {
                RecvTimeoutError::Timeout => TryRecvError::Empty,
                RecvTimeoutError::Disconnected => TryRecvError::Disconnected,
            })
        } else if voices.is_empty() {
            commands.recv().map_err(|_| TryRecvError::Disconnected)
        } else {
            commands.try_recv()
        };
        let mut next = waited;
        loop {
            match next {
                Ok(c) => take(c, &mut voices),
                Err(TryRecvError::Empty) => break,
                // The game's end dropped: stop now, not when the last sound ends.
                Err(TryRecvError::Disconnected) => break 'mixing,
            }
            next = commands.try_recv();
        }
        if output.keeps_time() && Instant::now() < played_out(written) {
            continue;
        }
        mix(&mut voices, &clips, &mut chunk);
        if let Err(e) = output.write(&chunk) {
            bevy::log::warn!("no sound from here on: {e}");
            break;
        }
        written += CHUNK as u64;
    }
    output.finish();
}

/// A recording of everything the table plays, in time, to a WAV file
/// written when the game ends (`--record-sound`).
pub struct Recording {
    path: PathBuf,
    samples: Vec<i16>,
}

impl Recording {
    pub fn new(path: PathBuf) -> Recording {
        Recording { path, samples: Vec::new() }
    }
}

impl Output for Recording {
    fn write(&mut self, samples: &[i16]) -> Result<(), String> {
        self.samples.extend_from_slice(samples);
        Ok(())
    }

    fn keeps_time(&self) -> bool {
        true
    }

    fn finish(&mut self) {
        let wav = klaverjas_cards::encode_wav(&self.samples);
        if let Err(e) = std::fs::write(&self.path, wav) {
            bevy::log::error!("the recording could not be written to {}: {e}", self.path.display());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clips() -> Clips {
        Clips(Sound::ALL.iter().map(|&s| if s == Sound::Lay { vec![0.5; CHUNK + 10] } else { vec![0.25; 5] }).collect())
    }

    #[test]
    fn voices_add_up_at_their_volume_and_end_with_their_clip() {
        let clips = clips();
        let mut voices =
            vec![Voice { sound: Sound::Lay, at: 0, volume: 1.0 }, Voice { sound: Sound::Sweep, at: 0, volume: 0.5 }];
        let mut out = vec![0; CHUNK];
        mix(&mut voices, &clips, &mut out);
        assert_eq!(out[0], ((0.5 + 0.125) * 32768.0f32).round() as i16);
        assert_eq!(out[5], (0.5 * 32768.0f32).round() as i16);
        assert_eq!(voices.len(), 1, "the short sound ended");
        mix(&mut voices, &clips, &mut out);
        assert_eq!(out[9], (0.5 * 32768.0f32).round() as i16);
        assert_eq!(out[10], 0);
        assert!(voices.is_empty());
    }

    #[test]
    fn loud_sums_clip_instead_of_wrapping() {
        let clips = clips();
        let mut voices: Vec<Voice> = (0..4).map(|_| Voice { sound: Sound::Lay, at: 0, volume: 1.0 }).collect();
        let mut out = vec![0; CHUNK];
        mix(&mut voices, &clips, &mut out);
        assert_eq!(out[0], i16::MAX);
    }

    /// A recording keeps time: a sound sent after 100 ms starts about 100
    /// ms into the file, and the file holds the sound's samples.
    #[test]
    fn a_recording_keeps_the_games_time() {
        let dir = std::env::temp_dir().join(format!("klaverjas-mixer-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rec.wav");
        let sounds = crate::pictures::find_assets().expect("the checkout's assets").join("sounds");
        let mixer = Mixer::start(&sounds, Recording::new(path.clone()));
        std::thread::sleep(Duration::from_millis(100));
        mixer.send(Command::Play(Sound::PlayMine, 1.0));
        std::thread::sleep(Duration::from_millis(200));
        drop(mixer);
        let samples = decode_wav(&std::fs::read(&path).unwrap()).unwrap();
        let clip = decode_wav(&std::fs::read(sounds.join(Sound::PlayMine.file_name())).unwrap()).unwrap();
        let sound_at = |samples: &[i16]| samples.iter().position(|&s| s != 0).expect("a sound");
        let start = sound_at(&samples) - sound_at(&clip);
        let ms = start as f64 * 1000.0 / SAMPLE_RATE as f64;
        assert!((80.0..=160.0).contains(&ms), "the sound starts at {ms} ms");
        assert_eq!(samples[start..start + clip.len()], clip[..], "the sound at full volume, as its file holds it");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
