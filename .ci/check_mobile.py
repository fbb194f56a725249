#!/usr/bin/env python3
"""Checks what CI can of the phone projects without their SDKs: every XML,
property list and JSON file parses, the manifest asks no permission but
the network's (a table with friends) and names the library the mobile
crate builds, the iPhone's property list says why the game looks on the
home network, and the icons are PNGs of their stated sizes. Standard
library only."""
import json, plistlib, struct, sys
import xml.etree.ElementTree as ET
from pathlib import Path

root = Path(__file__).resolve().parent.parent
android = ET.parse(root / "android/AndroidManifest.xml").getroot()
ns = "{http://schemas.android.com/apk/res/android}"
asked = [u.get(ns + "name") for u in android.findall("uses-permission")]
assert asked == ["android.permission.INTERNET"], f"the app asks only to reach a table over the network, not {asked}"
lib = [m.get(ns + "value") for m in android.iter("meta-data") if m.get(ns + "name") == "android.app.lib_name"]
cargo = (root / "crates/klaverjas-mobile/Cargo.toml").read_text()
assert lib and f'name = "{lib[0]}"' in cargo, f"the manifest loads {lib}, the mobile crate builds another"
assert android.find("application").get(ns + "hasCode") == "false", "the app is the library alone"
assert any(a.get(ns + "name") == "android.app.NativeActivity" for a in android.iter("activity"))
for f in (root / "android/res").rglob("*.xml"):
    ET.parse(f)
ET.parse(root / "ios/Klaverjas/LaunchScreen.storyboard")
plist = plistlib.load(open(root / "ios/Klaverjas/Info.plist", "rb"))
assert plist["UILaunchStoryboardName"] == "LaunchScreen"
assert "friends" in plist["NSLocalNetworkUsageDescription"]
for f in (root / "ios").rglob("Contents.json"):
    json.load(open(f))
sizes = {"mdpi": 48, "hdpi": 72, "xhdpi": 96, "xxhdpi": 144, "xxxhdpi": 192}
icons = [(root / f"android/res/mipmap-{d}/ic_launcher.png", n) for d, n in sizes.items()]
icons.append((root / "ios/Klaverjas/Assets.xcassets/AppIcon.appiconset/AppIcon.png", 1024))
for path, n in icons:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    assert struct.unpack(">II", head[16:24]) == (n, n), f"{path}: not {n}x{n}"
print(f"phone projects: manifest, {len(icons)} icons, plist and storyboard check out")
