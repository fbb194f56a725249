//! The Windows game's resources: its icon (`packaging/windows/klaverjas.ico`,
//! drawn by `kj-cards`) and its name and version as Explorer shows them,
//! compiled by MinGW's `windres` (`x86_64-w64-mingw32-windres`) when the
//! target is Windows. Every other target builds nothing here.

fn main() {
    let icon = "../../packaging/windows/klaverjas.ico";
    println!("cargo::rerun-if-changed={icon}");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("windows") {
        return;
    }
    let mut resource = winresource::WindowsResource::new();
    resource.set_icon(icon).set("FileDescription", "Klaverjas").set("ProductName", "Klaverjas");
    if let Err(e) = resource.compile() {
        // A Windows build without its icon is not one to ship.
        panic!("the Windows resources (icon, version) did not compile: {e}");
    }
}
