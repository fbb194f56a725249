#!/usr/bin/env python3
"""Checks a Mac app bundle as macOS reads it: the layout, Info.plist
(parsed by plistlib, the keys Finder and Launch Services read), the program
and its icon, the .icns holding every size an .iconset names (read by
Pillow, whose reader is not ours), and the assets where the game looks.
  check_bundle.py Klaverjas.app"""
import os, plistlib, sys
from PIL import Image

app = sys.argv[1]
contents = os.path.join(app, "Contents")
with open(os.path.join(contents, "Info.plist"), "rb") as f:
    plist = plistlib.load(f)
for key, want in [("CFBundlePackageType", "APPL"), ("CFBundleIdentifier", "org.klaverjas.game"),
                  ("NSHighResolutionCapable", True)]:
    assert plist.get(key) == want, f"Info.plist: {key} is {plist.get(key)!r}, not {want!r}"
for key in ["CFBundleExecutable", "CFBundleIconFile", "CFBundleShortVersionString", "CFBundleVersion",
            "LSMinimumSystemVersion", "CFBundleName"]:
    assert plist.get(key), f"Info.plist: no {key}"
assert "@" not in plist["CFBundleShortVersionString"], "the version was not filled in"
program = os.path.join(contents, "MacOS", plist["CFBundleExecutable"])
assert os.access(program, os.X_OK), f"{program}: not an executable"
icon = os.path.join(contents, "Resources", plist["CFBundleIconFile"] + ".icns")
sizes = Image.open(icon).info["sizes"]
wanted = {(s, s, scale) for s in (16, 32, 128, 256, 512) for scale in (1, 2)}
assert wanted <= set(sizes), f"{icon}: missing {sorted(wanted - set(sizes))}"
for size in sorted(wanted):
    im = Image.open(icon)
    im.size = size  # Pillow picks the picture of that size and scale
    im.load()
    assert im.size == (size[0] * size[2],) * 2, f"{icon}: the {size} picture is {im.size}"
for need in ["cards/french/back.png", "sounds/deal.wav"]:
    assert os.path.isfile(os.path.join(contents, "Resources", "assets", need)), f"no Resources/assets/{need}"
print(f"{app}: Info.plist parses ({plist['CFBundleIdentifier']} {plist['CFBundleShortVersionString']}, "
      f"macOS {plist['LSMinimumSystemVersion']} and later, high-DPI), the program and assets in place, "
      f"the icon at {', '.join(f'{w}@{s}x' for w, _, s in sorted(wanted))}")
