//! The iOS app's executable (`ios/` bundles it); on other systems the same
//! game as `cargo run`.

fn main() {
    klaverjas_mobile::main();
}
