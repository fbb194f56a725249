"""What the screen reader's checks share (.ci/screen_reader_check.py,
.ci/screen_reader_frames.py): a data folder with a player's settings, the
screen reader turned on as Orca turns it on, and the game's window found
in the AT-SPI tree."""
import os
import subprocess

import pyatspi


def data_folder(out, more=""):
    """OUT/data with a player's settings: English, the French deck, heuristic
    bots at Normal speed, classic rules; `more` adds fields."""
    data = os.path.join(out, "data")
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(data, "settings.ron"), "w") as f:
        f.write("(format: 1, skin: French, speed: Normal, bot_level: Heuristic, language: English,"
                f" home_rules: Some(Classic){more})")
    return data


def screen_reader_on():
    """AccessKit's adapter builds the tree once a screen reader is on, as
    Orca says it is."""
    for prop in ["IsEnabled", "ScreenReaderEnabled"]:
        subprocess.run(["gdbus", "call", "--session", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus",
                        "--method", "org.freedesktop.DBus.Properties.Set", "org.a11y.Status", prop, "<true>"],
                       check=True, capture_output=True, timeout=30)


def game_window():
    """The game's window in the tree, or None while it is not there."""
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        try:
            for j in range(app.childCount):
                if app.getChildAtIndex(j).name == "Klaverjas":
                    # Read afresh each time: libatspi keeps what it read
                    # until events it hears in a main loop, which the
                    # checks do not run.
                    app.set_cache_mask(pyatspi.Atspi.Cache.NONE)
                    return app.getChildAtIndex(j)
        except Exception:
            continue  # an application leaving the tree while it is read
    return None
