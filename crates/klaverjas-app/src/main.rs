//! The desktop entry point: `cargo run --release`.

// A Windows game opens no console window beside its own.
#![cfg_attr(windows, windows_subsystem = "windows")]

fn main() -> std::process::ExitCode {
    #[cfg(windows)]
    console::attach();
    klaverjas_app::main()
}

/// Started from a Command Prompt (`klaverjas --version`), the Windows game
/// writes to it: a game without a console of its own has no output at all.
/// (The Command Prompt does not wait for a windowed program, so the words
/// come after its next prompt; `klaverjas --version | more` waits.)
#[cfg(windows)]
mod console {
    use std::ffi::c_void;
    const ATTACH_PARENT_PROCESS: u32 = u32::MAX;
    const STD_OUTPUT_HANDLE: u32 = -11i32 as u32;
    const INVALID_HANDLE_VALUE: *mut c_void = -1isize as *mut c_void;
    const FILE_TYPE_UNKNOWN: u32 = 0;
    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn AttachConsole(process: u32) -> i32;
        fn GetStdHandle(which: u32) -> *mut c_void;
        fn GetFileType(file: *mut c_void) -> u32;
    }
    pub fn attach() {
        // SAFETY: each takes plain numbers or a handle the system gave.
        // Where the output already goes somewhere (a pipe, a file), it
        // stays there; a handle that is none, or leads nowhere (one a
        // windowed program can inherit), gives way to the console.
        unsafe {
            let out = GetStdHandle(STD_OUTPUT_HANDLE);
            if out.is_null() || out == INVALID_HANDLE_VALUE || GetFileType(out) == FILE_TYPE_UNKNOWN {
                AttachConsole(ATTACH_PARENT_PROCESS);
            }
        }
    }
}
