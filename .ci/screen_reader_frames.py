#!/usr/bin/python3
"""Frames and memory of a demo deal with a screen reader's accessibility
tree built and read, or without one (docs/BENCHMARKS.md):

    .ci/xvfb 1280x720 dbus-run-session -- \\
        .ci/screen_reader_frames.py GAME OUT on|off

With `on` the screen reader is turned on as Orca does
(org.a11y.Status), so the game's AccessKit adapter builds the tree, and
the tree is read through pyatspi every few seconds, as a screen reader
reads it, while a demo deal plays (seed 3, heuristic bots, Normal speed,
1280x720). Prints the game's --stats, its maximum resident memory
(/usr/bin/time) and the tree's size at each read."""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from a11y import data_folder, game_window, screen_reader_on  # noqa: E402

game, out, mode = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
if mode == "on":
    screen_reader_on()
data = data_folder(out)
stats = os.path.join(out, "stats.json")
timed = os.path.join(out, "time.log")
with open(os.path.join(out, "game.log"), "w") as log, open(timed, "w") as err:
    game_proc = subprocess.Popen(["/usr/bin/time", "-v", game, "--demo", "--seed", "3", "--window", "1280x720",
                                  "--data-dir", data, "--quit-after-deals", "1", "--stats", stats],
                                 stdout=log, stderr=err)


def nodes(node):
    return 1 + sum(nodes(node.getChildAtIndex(i)) for i in range(node.childCount))


reads = []
while game_proc.poll() is None:
    time.sleep(3)
    if mode != "on":
        continue
    try:
        window = game_window()
        if window is not None:
            reads.append(nodes(window))
    except Exception:
        continue  # the game ending while it is read
if game_proc.returncode != 0:
    sys.exit(f"the game failed (exit {game_proc.returncode}); see {out}")
if mode == "on" and not reads:
    sys.exit("the screen reader was on but the tree was never read")
with open(timed) as f:
    rss = next(int(line.split()[-1]) for line in f if "Maximum resident" in line)
with open(stats) as f:
    s = json.load(f)
print(f"screen reader {mode}: {s['frames']} frames, longest {s['longest_frame_ms']} ms, "
      f"p99 {s['p99_frame_ms']} ms; {rss // 1024} MB maximum resident; the tree read {len(reads)} times: {reads}")
