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
#[cfg(windows)]
mod console {
    use std::ffi::c_void;
    const ATTACH_PARENT_PROCESS: u32 = u32::MAX;
    const STD_OUTPUT_HANDLE: u32 = -11i32 as u32;
    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn AttachConsole(process: u32) -> i32;
        fn GetStdHandle(which: u32) -> *mut c_void;
    }
    pub fn attach() {
        // SAFETY: both take plain numbers; where the output already goes
        // somewhere (a pipe, a file), it stays there.
        unsafe {
            if GetStdHandle(STD_OUTPUT_HANDLE).is_null() {
                AttachConsole(ATTACH_PARENT_PROCESS);
            }
        }
    }
}
