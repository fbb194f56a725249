//! The desktop entry point: `cargo run --release`.

fn main() -> std::process::ExitCode {
    klaverjas_app::main()
}
