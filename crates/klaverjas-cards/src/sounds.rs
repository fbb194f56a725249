//! The table's sounds: their names and files. The generator (the
//! `generator` feature) synthesises each into `assets/sounds/`; the game
//! only needs to know what to load and how to read it.

/// One sound of the table, heard when the table shows what it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sound {
    /// The pack riffled and bridged before a deal.
    Shuffle,
    /// The packets flicked round the table as a deal is dealt.
    Deal,
    /// A card laid on the felt: turned up, laid away, swapped.
    Lay,
    /// A card the player plays: a firm snap.
    PlayMine,
    /// A card a bot plays: softer, so the player hears who played.
    PlayTheirs,
    /// A won trick swept to its pile.
    Sweep,
    /// "Roem!" called by a bot.
    RoemCall,
    /// The player's own call of roem, answered: counted.
    RoemAnswer,
    /// A card or a call that is not taken.
    Refused,
    /// The deal is over and the player's side won it.
    DealWon,
    /// The deal is over and the playing side went *nat*.
    Nat,
}

impl Sound {
    pub const ALL: [Sound; 11] = [
        Sound::Shuffle,
        Sound::Deal,
        Sound::Lay,
        Sound::PlayMine,
        Sound::PlayTheirs,
        Sound::Sweep,
        Sound::RoemCall,
        Sound::RoemAnswer,
        Sound::Refused,
        Sound::DealWon,
        Sound::Nat,
    ];

    /// Its place in [`Sound::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file's name in `assets/sounds/`.
    pub const fn file_name(self) -> &'static str {
        match self {
            Sound::Shuffle => "shuffle.wav",
            Sound::Deal => "deal.wav",
            Sound::Lay => "lay.wav",
            Sound::PlayMine => "play-mine.wav",
            Sound::PlayTheirs => "play-theirs.wav",
            Sound::Sweep => "sweep.wav",
            Sound::RoemCall => "roem-call.wav",
            Sound::RoemAnswer => "roem-answer.wav",
            Sound::Refused => "refused.wav",
            Sound::DealWon => "deal-won.wav",
            Sound::Nat => "nat.wav",
        }
    }

    /// The file's path under the assets folder.
    pub fn path(self) -> String {
        format!("sounds/{}", self.file_name())
    }
}

/// Samples per second of every sound file: plenty for card noises and
/// chimes, and half the bytes of CD quality.
pub const SAMPLE_RATE: u32 = 22_050;

/// Why a WAV file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WavError {
    /// Not a RIFF WAVE file.
    NotWave,
    /// A WAVE file, but not 16-bit mono PCM at [`SAMPLE_RATE`].
    Format { channels: u16, rate: u32, bits: u16 },
    /// The file ends inside its header or has no sample data.
    Truncated,
}

impl std::fmt::Display for WavError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WavError::NotWave => write!(f, "not a RIFF WAVE file"),
            WavError::Format { channels, rate, bits } => {
                write!(f, "{channels} channels of {bits}-bit samples at {rate} Hz, not 16-bit mono at {SAMPLE_RATE} Hz")
            }
            WavError::Truncated => write!(f, "the file ends before its samples"),
        }
    }
}

impl std::error::Error for WavError {}

/// A WAV file of 16-bit mono samples at [`SAMPLE_RATE`].
pub fn encode_wav(samples: &[i16]) -> Vec<u8> {
    let data = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&SAMPLE_RATE.to_le_bytes());
    out.extend_from_slice(&(SAMPLE_RATE * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&s.to_le_bytes());
    }
    out
}

/// The samples of a WAV file as [`encode_wav`] writes them; other chunks
/// before the data are skipped.
pub fn decode_wav(bytes: &[u8]) -> Result<Vec<i16>, WavError> {
    if bytes.len() < 12 || &bytes[0..4] != b"RIFF" || &bytes[8..12] != b"WAVE" {
        return Err(WavError::NotWave);
    }
    let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
    let u32_at = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let mut at = 12;
    let mut format = None;
    while at + 8 <= bytes.len() {
        let (id, len) = (&bytes[at..at + 4], u32_at(at + 4) as usize);
        let body = at + 8;
        // A length from the file is not trusted: past the end is the end.
        let end = body.saturating_add(len).min(bytes.len());
        if id == b"fmt " {
            if body + 16 > bytes.len() {
                return Err(WavError::Truncated);
            }
            format = Some((u16_at(body), u16_at(body + 2), u32_at(body + 4), u16_at(body + 14)));
        } else if id == b"data" {
            let Some((kind, channels, rate, bits)) = format else { return Err(WavError::Truncated) };
            if kind != 1 || channels != 1 || rate != SAMPLE_RATE || bits != 16 {
                return Err(WavError::Format { channels, rate, bits });
            }
            return Ok(bytes[body..end].chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect());
        }
        at = end.saturating_add(len & 1);
    }
    Err(WavError::Truncated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wav_reads_back_what_was_written() {
        let samples = [0, 1, -1, i16::MAX, i16::MIN, 1234];
        assert_eq!(decode_wav(&encode_wav(&samples)), Ok(samples.to_vec()));
    }

    #[test]
    fn a_wav_of_another_kind_is_refused_by_name() {
        assert_eq!(decode_wav(b"OggS not a wave file"), Err(WavError::NotWave));
        let mut stereo = encode_wav(&[1, 2]);
        stereo[22] = 2;
        assert_eq!(decode_wav(&stereo), Err(WavError::Format { channels: 2, rate: SAMPLE_RATE, bits: 16 }));
        assert_eq!(decode_wav(&encode_wav(&[1])[..36]), Err(WavError::Truncated));
        // A chunk claiming more bytes than any file holds ends the file.
        let mut huge = encode_wav(&[1, 2]);
        huge[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(decode_wav(&huge), Err(WavError::Truncated));
        let mut long_data = encode_wav(&[1, 2]);
        long_data[40..44].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(decode_wav(&long_data), Ok(vec![1, 2]));
    }

    #[test]
    fn every_sound_is_at_its_index() {
        for (i, sound) in Sound::ALL.into_iter().enumerate() {
            assert_eq!(sound.index(), i);
        }
    }

    #[test]
    fn every_sound_has_its_own_file() {
        let names: std::collections::HashSet<_> = Sound::ALL.iter().map(|s| s.file_name()).collect();
        assert_eq!(names.len(), Sound::ALL.len());
    }
}
