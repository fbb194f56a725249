//! What differs between a desktop, an Android phone and an iPhone: where
//! the game keeps its files, whether it offers Quit, whether it is touched,
//! and which edges of the screen the system draws over. Each choice is a
//! function of the [`Target`], so the host's tests check every target's;
//! `--phone` makes a desktop window behave as a phone ([`Device`]).

use std::path::{Path, PathBuf};

/// The kind of machine the game runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Desktop,
    Android,
    Ios,
    /// A browser with a mouse: the page is the window.
    Browser,
    /// A browser on a touch screen: a phone's layout, the browser's own
    /// bars outside the page.
    BrowserTouch,
}

impl Target {
    /// A phone: played by touch, every target at least [`TOUCH_TARGET`]
    /// high, larger text, the system's bars over the screen's edges.
    pub fn is_phone(self) -> bool {
        !matches!(self, Target::Desktop | Target::Browser)
    }
}

/// The smallest height of anything a finger must hit, in logical pixels
/// (Android's dp, iOS's points): both systems' guidelines ask 44 to 48.
pub const TOUCH_TARGET: f32 = 48.0;

/// This build's target.
pub const TARGET: Target = if cfg!(target_os = "android") {
    Target::Android
} else if cfg!(target_os = "ios") {
    Target::Ios
} else if cfg!(target_arch = "wasm32") {
    Target::Browser
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
        // Keys of the page's local storage ([`crate::disk`]).
        Target::Browser | Target::BrowserTouch => return PathBuf::from("klaverjas"),
    };
    chosen.unwrap_or_else(|| PathBuf::from("."))
}

/// Where the game as installed keeps its folder `name` (`assets`, `site`):
/// beside the program (an unpacked `.zip` or `.tar.gz`), under
/// `share/klaverjas/` beside its `bin/` (`/usr/bin/klaverjas` from the
/// `.deb`), and in a Mac app's `Contents/Resources/`.
pub fn installed(name: &str) -> Vec<PathBuf> {
    let Some(dir) = std::env::current_exe().ok().and_then(|exe| exe.parent().map(PathBuf::from)) else {
        return Vec::new();
    };
    let mut found = vec![dir.join(name)];
    if let Some(above) = dir.parent() {
        found.push(above.join("share/klaverjas").join(name));
        found.push(above.join("Resources").join(name));
    }
    found
}

/// This machine's data directory.
pub fn this_data_dir() -> PathBuf {
    data_dir(TARGET, android_internal_dir(), project_dir())
}

fn project_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "klaverjas", "klaverjas").map(|d| d.data_dir().to_path_buf())
}

/// Where a picture the player asks for goes (the score sheet's): the
/// desktop's Pictures folder, else the game's data folder `data`.
pub fn pictures_dir(data: &Path) -> PathBuf {
    directories::UserDirs::new()
        .and_then(|u| u.picture_dir().map(Path::to_path_buf))
        .unwrap_or_else(|| data.to_path_buf())
}

/// What a picture handed to the player becomes, for the words of its
/// button: saved (a desktop), downloaded (a browser), shared (a phone).
pub const PICTURE_WORDS: &str = match TARGET {
    Target::Desktop => "picture.save",
    Target::Browser | Target::BrowserTouch => "picture.download",
    Target::Android | Target::Ios => "picture.share",
};

/// Hands the player a picture (`png`, named `name`): on a desktop written
/// whole into the Pictures folder (else the data folder `data`). Says
/// where it went.
#[cfg(not(any(target_os = "android", target_os = "ios", target_arch = "wasm32")))]
pub fn keep_picture(png: &[u8], name: &str, data: &Path) -> Result<String, String> {
    let folder = pictures_dir(data);
    // Another sheet's picture of the same day stays: a number is added.
    let (stem, kind) = name.rsplit_once('.').unwrap_or((name, "png"));
    let path = (1..)
        .map(|n| if n == 1 { folder.join(name) } else { folder.join(format!("{stem}-{n}.{kind}")) })
        .find(|p| !p.exists())
        .unwrap_or_else(|| folder.join(name));
    let part = folder.join(format!(".{name}.part"));
    std::fs::create_dir_all(&folder)
        .and_then(|_| std::fs::write(&part, png))
        .and_then(|_| std::fs::rename(&part, &path))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path.display().to_string())
}

/// Hands the player a picture in a browser: downloaded as `name`.
#[cfg(target_arch = "wasm32")]
pub fn keep_picture(png: &[u8], name: &str, _data: &Path) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    let refused = |e: wasm_bindgen::JsValue| format!("{e:?}");
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(png));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("image/png");
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(refused)?;
    let address = web_sys::Url::create_object_url_with_blob(&blob).map_err(refused)?;
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let link: web_sys::HtmlAnchorElement =
        document.create_element("a").map_err(refused)?.dyn_into().map_err(|_| "no link".to_string())?;
    link.set_href(&address);
    link.set_download(name);
    link.click();
    // Let go of the picture once the download has surely taken its copy
    // (Safari reads it after the click returns).
    let release = wasm_bindgen::closure::Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&address);
    });
    let window = web_sys::window().ok_or("no window")?;
    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(release.unchecked_ref(), 10_000);
    Ok(name.to_string())
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

/// The edges of the screen, in logical pixels, where the system draws its
/// bars or the camera's notch: nothing of the game may lie there.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SafeArea {
    pub top: f32,
    pub bottom: f32,
    pub left: f32,
    pub right: f32,
}

/// The safe area of a screen of `width` x `height` logical pixels. Bevy 0.19
/// does not pass on the insets winit knows (iOS's safe area, Android's
/// content rectangle), so a phone keeps clear of the largest its system
/// draws: the status bar
/// with a camera cut-out (48 dp on Android, 59 pt under the iPhone's
/// island) and the gesture bar (24 dp, 34 pt) held upright; held
/// sideways, the cut-out's side (either: it turns with the phone) and the
/// gesture bar below.
pub fn safe_area(target: Target, width: f32, height: f32) -> SafeArea {
    let (notch, gestures) = match target {
        Target::Desktop | Target::Browser | Target::BrowserTouch => return SafeArea::default(),
        Target::Android => (48.0, 24.0),
        Target::Ios => (59.0, 34.0),
    };
    if height >= width {
        SafeArea { top: notch, bottom: gestures, left: 0.0, right: 0.0 }
    } else {
        SafeArea { top: 0.0, bottom: gestures * 0.6, left: notch, right: notch }
    }
}

/// What the game is shown on: this build's target, or under `--phone` an
/// Android phone on the desktop, so that what CI photographs is what a
/// phone shows.
#[derive(bevy::prelude::Resource, Clone, Copy, Debug, PartialEq)]
pub struct Device(pub Target);

impl Device {
    pub fn new(phone_on_desktop: bool) -> Device {
        Device(match TARGET {
            _ if phone_on_desktop => Target::Android,
            Target::Browser if browser_touch() => Target::BrowserTouch,
            target => target,
        })
    }

    pub fn touch(self) -> bool {
        self.0.is_phone()
    }
}

/// Whether the browser reports a touch screen.
#[cfg(target_arch = "wasm32")]
fn browser_touch() -> bool {
    web_sys::window().is_some_and(|w| w.navigator().max_touch_points() > 0)
}

#[cfg(not(target_arch = "wasm32"))]
fn browser_touch() -> bool {
    false
}

/// Tells the page the first screen is on the window: the page then takes
/// its own loading screen away (`crates/klaverjas-web/site/index.html`).
#[cfg(target_arch = "wasm32")]
pub fn first_screen_drawn() {
    if let (Some(window), Ok(event)) = (web_sys::window(), web_sys::Event::new("klaverjas-drawn")) {
        let _ = window.dispatch_event(&event);
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub fn first_screen_drawn() {}

/// The page's address as the command line: `?demo&seed=7` is
/// `--demo --seed 7`. A table's link (`/t/CODE`, which the table server
/// sends on to `/?join=CODE`) opens at the table's join.
#[cfg(target_arch = "wasm32")]
pub fn web_args() -> Vec<String> {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    query_args(&search)
}

/// `?name&name=value` as `--name --name value`, each part decoded of `+`.
pub fn query_args(search: &str) -> Vec<String> {
    let mut args = Vec::new();
    for part in search.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
        let (name, value) = part.split_once('=').map_or((part, None), |(n, v)| (n, Some(v)));
        args.push(format!("--{}", name.replace('+', " ")));
        args.extend(value.map(|v| v.replace('+', " ")));
    }
    args
}

/// A seed from the clock, for a match nobody asked to repeat.
pub fn clock_seed() -> u64 {
    // A browser has no system clock for std: its own counts milliseconds.
    #[cfg(target_arch = "wasm32")]
    return (js_sys::Date::now() * 1e6) as u64 ^ (js_sys::Math::random() * 1e9) as u64;
    #[cfg(not(target_arch = "wasm32"))]
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1)
}

/// Today's date in UTC, the day whose deals are the deals of the day.
pub fn today() -> klaverjas_ai::daily::Day {
    #[cfg(target_arch = "wasm32")]
    return klaverjas_ai::daily::Day::from_unix_days((js_sys::Date::now() / 86_400_000.0).floor() as i64);
    #[cfg(not(target_arch = "wasm32"))]
    klaverjas_ai::daily::Day::today()
}

/// Whether [`copy_to_clipboard`] has a clipboard to copy to: a desktop's
/// or a browser's.
pub const HAS_CLIPBOARD: bool = matches!(TARGET, Target::Desktop | Target::Browser);

/// A copy asked of the clipboard, and what became of it: a desktop
/// answers at once, a browser when its promise settles. Until then
/// [`Copying::outcome`] is `None`, and whoever shows it keeps looking.
#[derive(Clone, Debug, Default)]
pub struct Copying(std::sync::Arc<std::sync::Mutex<Option<Result<(), String>>>>);

impl Copying {
    fn settled(outcome: Result<(), String>) -> Copying {
        let copying = Copying::default();
        copying.settle(outcome);
        copying
    }

    fn settle(&self, outcome: Result<(), String>) {
        if let Ok(mut slot) = self.0.lock() {
            *slot = Some(outcome);
        }
    }

    pub fn outcome(&self) -> Option<Result<(), String>> {
        self.0.lock().ok()?.clone()
    }
}

/// A pasted text as one line: a line break would end a one-line field's
/// text there.
pub fn one_line(text: &str) -> String {
    text.trim().replace(['\n', '\r'], " ")
}

/// Copies `text` to the system clipboard, or says why it could not.
#[cfg(not(any(target_os = "android", target_os = "ios", target_arch = "wasm32")))]
pub fn copy_to_clipboard(text: &str) -> Copying {
    use std::sync::{Mutex, OnceLock};
    // On X11 the copying program serves the clipboard: it lives as long as
    // the game does.
    static CLIPBOARD: OnceLock<Mutex<Option<arboard::Clipboard>>> = OnceLock::new();
    let lock = CLIPBOARD.get_or_init(|| Mutex::new(arboard::Clipboard::new().ok()));
    Copying::settled(match lock.lock() {
        Ok(mut clipboard) => match clipboard.as_mut() {
            Some(c) => c.set_text(text.to_string()).map_err(|e| e.to_string()),
            None => Err("no clipboard".to_string()),
        },
        Err(e) => Err(e.to_string()),
    })
}

/// The system clipboard's text, for a paste into a text field.
#[cfg(not(any(target_os = "android", target_os = "ios", target_arch = "wasm32")))]
pub fn paste_from_clipboard() -> Result<String, String> {
    // Its own connection: the copying one above serves what we copied.
    arboard::Clipboard::new().and_then(|mut c| c.get_text()).map_err(|e| e.to_string())
}

/// The browser's clipboard, which copies when the page was just touched
/// (as it was: the Copy button), and says so when its promise settles:
/// copied, or refused and why.
#[cfg(target_arch = "wasm32")]
pub fn copy_to_clipboard(text: &str) -> Copying {
    use wasm_bindgen::JsCast;
    let Some(window) = web_sys::window() else { return Copying::settled(Err("no window".to_string())) };
    let navigator = window.navigator();
    // Only a secure page (https, or localhost) has the clipboard's API,
    // and a table's link on the home network is plain http: there the
    // page copies the old way, from a text area selected for the moment
    // (the tap that asked is still fresh enough for the browser).
    if js_sys::Reflect::get(&navigator, &"clipboard".into()).is_ok_and(|c| c.is_undefined()) {
        return Copying::settled(copy_by_selection(&window, text));
    }
    let copying = Copying::default();
    let settle = copying.clone();
    let promise = wasm_bindgen_futures::JsFuture::from(navigator.clipboard().write_text(text));
    wasm_bindgen_futures::spawn_local(async move {
        let outcome = promise.await.map(|_| ()).map_err(|e| {
            let reason = e.dyn_ref::<js_sys::Error>().map_or_else(|| format!("{e:?}"), |e| String::from(e.message()));
            bevy::log::warn!("the browser did not copy: {reason}");
            reason
        });
        settle.settle(outcome);
    });
    copying
}

/// Copies `text` through a text area selected for the moment and the
/// page's copy command, which a page without the clipboard's API has.
#[cfg(target_arch = "wasm32")]
fn copy_by_selection(window: &web_sys::Window, text: &str) -> Result<(), String> {
    use wasm_bindgen::JsCast;
    let refused = |e: wasm_bindgen::JsValue| format!("{e:?}");
    let document = window.document().ok_or("no document")?;
    let area: web_sys::HtmlTextAreaElement = document.create_element("textarea").map_err(refused)?.unchecked_into();
    area.set_value(text);
    // Out of sight, and read-only so that no phone opens its keyboard.
    let _ = area.set_attribute("readonly", "");
    let _ = area.set_attribute("style", "position:fixed;top:-1000px;opacity:0");
    let body = document.body().ok_or("no body")?;
    body.append_child(&area).map_err(refused)?;
    area.select();
    let copied = document.unchecked_ref::<web_sys::HtmlDocument>().exec_command("copy").map_err(refused);
    let _ = body.remove_child(&area);
    match copied? {
        true => Ok(()),
        false => Err("the browser refused to copy".to_string()),
    }
}

/// Whether [`share`] opens the phone's share sheet: Android's or iOS's.
pub const HAS_SHARE_SHEET: bool = matches!(TARGET, Target::Android | Target::Ios);

/// Android's share sheet with `text`, through the activity's Java side:
/// an `ACTION_SEND` intent of plain text in the system's chooser.
#[cfg(target_os = "android")]
pub fn share(text: &str) -> Result<(), String> {
    use jni::objects::JValue;
    with_activity(|env, activity| {
        let body = env.new_string(text)?;
        send(env, activity, ("text/plain", "android.intent.extra.TEXT"), JValue::from(&body), "Ljava/lang/String;")
    })
}

/// Starts the system's chooser for an `ACTION_SEND` intent of `kind` with
/// the extra `(name, value)` of JNI type `signature`.
#[cfg(target_os = "android")]
fn send(
    env: &mut jni::JNIEnv,
    activity: &jni::objects::JObject,
    (kind, name): (&str, &str),
    value: jni::objects::JValue,
    signature: &str,
) -> jni::errors::Result<()> {
    use jni::objects::{JObject, JValue};
    let action = env.new_string("android.intent.action.SEND")?;
    let intent = env.new_object("android/content/Intent", "(Ljava/lang/String;)V", &[JValue::from(&action)])?;
    let kind = env.new_string(kind)?;
    env.call_method(&intent, "setType", "(Ljava/lang/String;)Landroid/content/Intent;", &[JValue::from(&kind)])?;
    let name = env.new_string(name)?;
    let put = format!("(Ljava/lang/String;{signature})Landroid/content/Intent;");
    env.call_method(&intent, "putExtra", &put, &[JValue::from(&name), value])?;
    // The app that takes it may read what the intent points at.
    const FLAG_GRANT_READ_URI_PERMISSION: i32 = 1;
    env.call_method(
        &intent,
        "addFlags",
        "(I)Landroid/content/Intent;",
        &[JValue::Int(FLAG_GRANT_READ_URI_PERMISSION)],
    )?;
    let choose = "(Landroid/content/Intent;Ljava/lang/CharSequence;)Landroid/content/Intent;";
    let none = JObject::null();
    let chooser = env
        .call_static_method(
            "android/content/Intent",
            "createChooser",
            choose,
            &[JValue::from(&intent), JValue::from(&none)],
        )?
        .l()?;
    env.call_method(activity, "startActivity", "(Landroid/content/Intent;)V", &[JValue::from(&chooser)])?;
    Ok(())
}

/// Hands the player a picture (`png`, named `name`): shared through
/// Android's share sheet, from the phone's pictures (MediaStore, which an
/// app may add to without a permission since Android 10). Says where it
/// went.
#[cfg(target_os = "android")]
pub fn keep_picture(png: &[u8], name: &str, _data: &Path) -> Result<String, String> {
    use jni::objects::JValue;
    let kept = with_activity(|env, activity| {
        let bytes = env.byte_array_from_slice(png)?;
        let decode = "([BII)Landroid/graphics/Bitmap;";
        let length = JValue::Int(png.len() as i32);
        let bitmap = env
            .call_static_method(
                "android/graphics/BitmapFactory",
                "decodeByteArray",
                decode,
                &[JValue::from(&bytes), JValue::Int(0), length],
            )?
            .l()?;
        let resolver =
            env.call_method(activity, "getContentResolver", "()Landroid/content/ContentResolver;", &[])?.l()?;
        let title = env.new_string(name)?;
        let insert = "(Landroid/content/ContentResolver;Landroid/graphics/Bitmap;Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;";
        let args = [JValue::from(&resolver), JValue::from(&bitmap), JValue::from(&title), JValue::from(&title)];
        let address =
            env.call_static_method("android/provider/MediaStore$Images$Media", "insertImage", insert, &args)?.l()?;
        if address.is_null() {
            return Ok(false);
        }
        let parse = "(Ljava/lang/String;)Landroid/net/Uri;";
        let uri = env.call_static_method("android/net/Uri", "parse", parse, &[JValue::from(&address)])?.l()?;
        send(
            env,
            activity,
            // MediaStore keeps it as a JPEG.
            ("image/jpeg", "android.intent.extra.STREAM"),
            JValue::from(&uri),
            "Landroid/os/Parcelable;",
        )?;
        Ok(true)
    })?;
    if kept { Ok(name.to_string()) } else { Err("the phone did not keep the picture".to_string()) }
}

/// Calls `java` with the running activity, through its Java side.
#[cfg(target_os = "android")]
fn with_activity<T>(
    java: impl FnOnce(&mut jni::JNIEnv, &jni::objects::JObject) -> jni::errors::Result<T>,
) -> Result<T, String> {
    let app = bevy::android::ANDROID_APP.get().ok_or("no Android activity")?;
    // SAFETY: the running activity's own VM and activity, alive as long
    // as the game is.
    let vm = unsafe { jni::JavaVM::from_raw(app.vm_as_ptr().cast()) }.map_err(|e| e.to_string())?;
    let mut env = vm.attach_current_thread().map_err(|e| e.to_string())?;
    let activity = unsafe { jni::objects::JObject::from_raw(app.activity_as_ptr().cast()) };
    // The game's thread stays attached for the app's life: the call's
    // local references go with a frame of their own, not piling up.
    let done = env.with_local_frame(16, |env| java(env, &activity));
    // A Java exception is cleared here, not left to the next call.
    if done.is_err() {
        let _ = env.exception_clear();
    }
    done.map_err(|e| e.to_string())
}

/// The clipboard's text, from Android's `ClipboardManager` (its first
/// item, as text whatever it holds).
#[cfg(target_os = "android")]
pub fn paste_from_clipboard() -> Result<String, String> {
    use jni::objects::{JString, JValue};
    with_activity(|env, activity| {
        let name = env.new_string("clipboard")?;
        let service = "(Ljava/lang/String;)Ljava/lang/Object;";
        let manager = env.call_method(activity, "getSystemService", service, &[JValue::from(&name)])?.l()?;
        let clip = env.call_method(&manager, "getPrimaryClip", "()Landroid/content/ClipData;", &[])?.l()?;
        if clip.is_null() || env.call_method(&clip, "getItemCount", "()I", &[])?.i()? == 0 {
            return Ok(String::new());
        }
        let item = env.call_method(&clip, "getItemAt", "(I)Landroid/content/ClipData$Item;", &[JValue::Int(0)])?.l()?;
        let coerce = "(Landroid/content/Context;)Ljava/lang/CharSequence;";
        let text = env.call_method(&item, "coerceToText", coerce, &[JValue::from(activity)])?.l()?;
        let text = JString::from(env.call_method(&text, "toString", "()Ljava/lang/String;", &[])?.l()?);
        Ok(env.get_string(&text)?.into())
    })
}

/// The clipboard's text, from UIKit's general pasteboard (iOS asks the
/// player first). The pasteboard, unlike UIKit's views, may be read from
/// any thread: the screens' systems run on Bevy's pool.
#[cfg(target_os = "ios")]
pub fn paste_from_clipboard() -> Result<String, String> {
    let board = objc2_ui_kit::UIPasteboard::generalPasteboard();
    // SAFETY: a plain read of the pasteboard's text.
    let text = unsafe { board.string() };
    Ok(text.map(|s| s.to_string()).unwrap_or_default())
}

/// A page pastes through the browser (see `web_text`).
#[cfg(target_arch = "wasm32")]
pub fn paste_from_clipboard() -> Result<String, String> {
    Err("the page pastes itself".to_string())
}

/// iOS's share sheet with `text`: a `UIActivityViewController` presented
/// by the window's root view controller (on an iPad a popover, which must
/// be told where it points: the middle of the screen's view). UIKit is
/// called on the main thread only: the caller is a system that runs there.
#[cfg(target_os = "ios")]
pub fn share(text: &str) -> Result<(), String> {
    use objc2::rc::Retained;
    use objc2::runtime::AnyObject;
    let line: Retained<AnyObject> = objc2_foundation::NSString::from_str(text).into();
    share_items(line)
}

/// iOS's share sheet with a picture (`png`): a `UIImage` item.
#[cfg(target_os = "ios")]
pub fn keep_picture(png: &[u8], name: &str, _data: &Path) -> Result<String, String> {
    use objc2::rc::Retained;
    use objc2::runtime::AnyObject;
    let data = objc2_foundation::NSData::with_bytes(png);
    let image = objc2_ui_kit::UIImage::imageWithData(&data).ok_or("not a picture")?;
    let item: Retained<AnyObject> = image.into();
    share_items(item)?;
    Ok(name.to_string())
}

/// Presents UIKit's share sheet with one item, over the key window.
#[cfg(target_os = "ios")]
fn share_items(item: objc2::rc::Retained<objc2::runtime::AnyObject>) -> Result<(), String> {
    use objc2::{MainThreadMarker, MainThreadOnly};
    use objc2_foundation::NSArray;
    use objc2_ui_kit::{UIActivityViewController, UIApplication};
    let mtm = MainThreadMarker::new().ok_or("not on the main thread")?;
    #[allow(deprecated)]
    let window = UIApplication::sharedApplication(mtm).keyWindow().ok_or("no window")?;
    let root = window.rootViewController().ok_or("no view controller")?;
    let items = NSArray::from_retained_slice(&[item]);
    // SAFETY: plain items (text, an image) and no custom activities, as
    // UIKit takes them.
    let sheet = unsafe {
        UIActivityViewController::initWithActivityItems_applicationActivities(
            UIActivityViewController::alloc(mtm),
            &items,
            None,
        )
    };
    if let (Some(popover), Some(view)) = (sheet.popoverPresentationController(), root.view()) {
        popover.setSourceView(Some(&view));
    }
    root.presentViewController_animated_completion(&sheet, true, None);
    Ok(())
}

/// No share sheet here: [`copy_to_clipboard`] where there is a clipboard.
#[cfg(not(any(target_os = "android", target_os = "ios")))]
pub fn share(_text: &str) -> Result<(), String> {
    Err("no share sheet".to_string())
}

/// Without a clipboard the code is on the screen, to copy by hand.
#[cfg(any(target_os = "android", target_os = "ios"))]
pub fn copy_to_clipboard(_text: &str) -> Copying {
    Copying::settled(Err("no clipboard".to_string()))
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
    fn an_address_reads_as_a_command_line() {
        assert_eq!(query_args("?demo&seed=7"), ["--demo", "--seed", "7"]);
        assert_eq!(query_args(""), Vec::<String>::new());
        assert_eq!(query_args("?rules=rotterdam&set=roem%3Dnone"), ["--rules", "rotterdam", "--set", "roem%3Dnone"]);
    }

    #[test]
    fn only_a_desktop_offers_quit() {
        assert!(has_quit(Target::Desktop));
        assert!(!has_quit(Target::Android) && !has_quit(Target::Ios));
        assert_eq!(TARGET, Target::Desktop, "the host builds for a desktop");
    }

    #[test]
    fn a_phone_keeps_clear_of_its_bars_and_a_desktop_of_nothing() {
        assert_eq!(safe_area(Target::Desktop, 411.0, 891.0), SafeArea::default());
        for phone in [Target::Android, Target::Ios] {
            let upright = safe_area(phone, 411.0, 891.0);
            assert!(upright.top >= 48.0 && upright.bottom >= 24.0, "{phone:?} {upright:?}");
            assert_eq!((upright.left, upright.right), (0.0, 0.0));
            let sideways = safe_area(phone, 891.0, 411.0);
            assert!(sideways.left >= 48.0 && sideways.right >= 48.0 && sideways.bottom > 0.0, "{sideways:?}");
            assert_eq!(sideways.top, 0.0, "held sideways the status bar is hidden");
        }
        assert!(Device::new(true).touch() && !Device::new(false).touch());
    }
}
