//! Sound on Linux without ALSA's headers: `libasound.so.2` is opened when
//! the game starts, as the window's Wayland library is, and its handful of
//! PCM functions are declared here. Building needs no `-dev` package; a
//! machine without the library or a sound device gets a silent table and
//! one line in the log. ALSA's `default` device goes through PulseAudio or
//! PipeWire where a desktop runs them.

use super::mixer::Output;
use klaverjas_cards::SAMPLE_RATE;
use libloading::{Library, Symbol};
use std::ffi::{CStr, c_char, c_int, c_long, c_uint, c_ulong, c_void};

/// ALSA's `snd_pcm_t`, only ever behind a pointer.
#[repr(C)]
struct Pcm {
    _private: [u8; 0],
}

const STREAM_PLAYBACK: c_int = 0;
/// Opened without waiting: a device another program holds (no mixing
/// daemon in between) refuses at once instead of freezing the start.
const OPEN_NONBLOCK: c_int = 1;
const FORMAT_S16_LE: c_int = 2;
const ACCESS_RW_INTERLEAVED: c_int = 3;
/// How much sound ALSA holds ahead: short enough that a card's snap
/// follows the card, long enough not to stutter on a busy machine.
const LATENCY_US: c_uint = 60_000;

type Open = unsafe extern "C" fn(*mut *mut Pcm, *const c_char, c_int, c_int) -> c_int;
type SetParams = unsafe extern "C" fn(*mut Pcm, c_int, c_int, c_uint, c_uint, c_int, c_uint) -> c_int;
type WriteI = unsafe extern "C" fn(*mut Pcm, *const c_void, c_ulong) -> c_long;
type Recover = unsafe extern "C" fn(*mut Pcm, c_int, c_int) -> c_int;
type Close = unsafe extern "C" fn(*mut Pcm) -> c_int;
type NonBlock = unsafe extern "C" fn(*mut Pcm, c_int) -> c_int;
type StrError = unsafe extern "C" fn(c_int) -> *const c_char;
/// ALSA's error handler is variadic; ours reads none of its arguments, so
/// the fixed ones suffice (on Linux's calling conventions a callee that
/// ignores the variadic part is called the same way).
type ErrorHandler = unsafe extern "C" fn(*const c_char, c_int, *const c_char, c_int, *const c_char);
type SetErrorHandler = unsafe extern "C" fn(Option<ErrorHandler>) -> c_int;

/// Says nothing: where ALSA cannot play, the game's one line says why,
/// instead of ALSA's lines about its configuration on stderr.
unsafe extern "C" fn quiet(_: *const c_char, _: c_int, _: *const c_char, _: c_int, _: *const c_char) {}

/// The default ALSA playback device, opened for 16-bit mono.
pub struct Alsa {
    // The functions below point into the library: it outlives them.
    pcm: *mut Pcm,
    writei: WriteI,
    recover: Recover,
    close: Close,
    strerror: StrError,
    _library: Library,
}

// The device is used from the mixer's thread only, after being moved there.
unsafe impl Send for Alsa {}

impl Alsa {
    /// Opens the default device, or says why there is no sound.
    pub fn open() -> Result<Alsa, String> {
        // SAFETY: loading ALSA runs its initialisers, which have no
        // preconditions; the signatures below are those of alsa/pcm.h.
        unsafe {
            let library = Library::new("libasound.so.2").map_err(|e| format!("no ALSA library ({e})"))?;
            let open: Open = *symbol::<Open>(&library, b"snd_pcm_open\0")?;
            let set_params: SetParams = *symbol::<SetParams>(&library, b"snd_pcm_set_params\0")?;
            let strerror: StrError = *symbol::<StrError>(&library, b"snd_strerror\0")?;
            let writei: WriteI = *symbol::<WriteI>(&library, b"snd_pcm_writei\0")?;
            let recover: Recover = *symbol::<Recover>(&library, b"snd_pcm_recover\0")?;
            let close: Close = *symbol::<Close>(&library, b"snd_pcm_close\0")?;
            let nonblock: NonBlock = *symbol::<NonBlock>(&library, b"snd_pcm_nonblock\0")?;
            let set_error_handler: SetErrorHandler =
                *symbol::<SetErrorHandler>(&library, b"snd_lib_error_set_handler\0")?;
            set_error_handler(Some(quiet));
            let describe = |code: c_int| CStr::from_ptr(strerror(code)).to_string_lossy().into_owned();
            let mut pcm = std::ptr::null_mut();
            let code = open(&mut pcm, c"default".as_ptr(), STREAM_PLAYBACK, OPEN_NONBLOCK);
            if code < 0 {
                return Err(format!("no sound device ({})", describe(code)));
            }
            // Writing may wait: it runs on the mixer's thread, which the
            // device paces.
            let code = nonblock(pcm, 0);
            if code < 0 {
                close(pcm);
                return Err(format!("the sound device cannot be waited on ({})", describe(code)));
            }
            let code = set_params(pcm, FORMAT_S16_LE, ACCESS_RW_INTERLEAVED, 1, SAMPLE_RATE, 1, LATENCY_US);
            if code < 0 {
                close(pcm);
                return Err(format!("the sound device refused 16-bit mono at {SAMPLE_RATE} Hz ({})", describe(code)));
            }
            Ok(Alsa { pcm, writei, recover, close, strerror, _library: library })
        }
    }
}

unsafe fn symbol<'l, T>(library: &'l Library, name: &[u8]) -> Result<Symbol<'l, T>, String> {
    // SAFETY: the caller names the symbol's true type.
    unsafe { library.get(name) }.map_err(|e| format!("an ALSA without {} ({e})", String::from_utf8_lossy(name)))
}

impl Output for Alsa {
    fn write(&mut self, samples: &[i16]) -> Result<(), String> {
        let mut rest = samples;
        while !rest.is_empty() {
            // SAFETY: `pcm` is open, and `rest` holds `rest.len()` mono frames.
            let n = unsafe { (self.writei)(self.pcm, rest.as_ptr().cast(), rest.len() as c_ulong) };
            if n < 0 {
                // An underrun (the table fell silent between sounds) or a
                // suspended device: ALSA's own recovery, then try again.
                // SAFETY: as above; `recover` takes the error just returned.
                let code = unsafe { (self.recover)(self.pcm, n as c_int, 1) };
                if code < 0 {
                    // SAFETY: `strerror` returns a static string for any code.
                    let why = unsafe { CStr::from_ptr((self.strerror)(code)) };
                    return Err(format!("the sound device failed ({})", why.to_string_lossy()));
                }
            } else {
                rest = &rest[n as usize..];
            }
        }
        Ok(())
    }

    fn keeps_time(&self) -> bool {
        false
    }
}

impl Drop for Alsa {
    fn drop(&mut self) {
        // SAFETY: `pcm` was opened by `open` and is closed once.
        unsafe { (self.close)(self.pcm) };
    }
}
