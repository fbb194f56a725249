//! What differs between a desktop, an Android phone and an iPhone: where
//! the game keeps its files and whether it offers Quit. Each choice is a
//! function of the [`Target`], so the host's tests check every target's.

use std::path::PathBuf;

/// The kind of machine the game runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Desktop,
    Android,
    Ios,
}

/// This build's target.
pub const TARGET: Target = if cfg!(target_os = "android") {
    Target::Android
} else if cfg!(target_os = "ios") {
    Target::Ios
} else {
    Target::Desktop
};

/// The directory for saves and settings. On Android it is the app's
/// internal storage, which the activity knows and `directories` does not;
/// elsewhere the platform's data directory for the game. The working
/// directory is the last resort.
pub fn data_dir(target: Target, android_internal: Option<PathBuf>, project: Option<PathBuf>) -> PathBuf {
    let chosen = match target {
        Target::Android => android_internal,
        Target::Desktop | Target::Ios => project,
    };
    chosen.unwrap_or_else(|| PathBuf::from("."))
}

/// This machine's data directory.
pub fn this_data_dir() -> PathBuf {
    data_dir(TARGET, android_internal_dir(), project_dir())
}

fn project_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "klaverjas", "klaverjas").map(|d| d.data_dir().to_path_buf())
}

#[cfg(target_os = "android")]
fn android_internal_dir() -> Option<PathBuf> {
    bevy::android::ANDROID_APP.get().and_then(|app| app.internal_data_path())
}

#[cfg(not(target_os = "android"))]
fn android_internal_dir() -> Option<PathBuf> {
    None
}

/// Whether the title offers Quit: a phone's apps are left with the home
/// gesture, and a Quit button there is a way to lose the app.
pub fn has_quit(target: Target) -> bool {
    target == Target::Desktop
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_target_keeps_its_files_where_its_system_wants_them() {
        let internal = Some(PathBuf::from("/data/user/0/org.klaverjas/files"));
        let project = Some(PathBuf::from("/home/p/.local/share/klaverjas"));
        assert_eq!(data_dir(Target::Android, internal.clone(), project.clone()), internal.clone().unwrap());
        assert_eq!(data_dir(Target::Desktop, internal.clone(), project.clone()), project.clone().unwrap());
        assert_eq!(data_dir(Target::Ios, internal.clone(), project.clone()), project.clone().unwrap());
        // Without what a target needs, the working directory, never the
        // other target's place.
        assert_eq!(data_dir(Target::Android, None, project), PathBuf::from("."));
        assert_eq!(data_dir(Target::Desktop, internal, None), PathBuf::from("."));
    }

    #[test]
    fn only_a_desktop_offers_quit() {
        assert!(has_quit(Target::Desktop));
        assert!(!has_quit(Target::Android) && !has_quit(Target::Ios));
        assert_eq!(TARGET, Target::Desktop, "the host builds for a desktop");
    }
}
