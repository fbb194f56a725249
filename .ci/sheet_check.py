#!/usr/bin/python3
"""The score sheet for real cards, entered by tapping as a phone under Xvfb.

    .ci/xvfb 1080x2340 .ci/sheet_check.py GAME KJ OUT

The game runs as a phone (--phone 1080x2340@2.625) and says where its
controls are (--targets); this script taps them with X's pointer (xdotool:
Xvfb has no touch screen), as a player would: four names, who deals first,
then sixteen deals of a match as a table writes them down. On the way it
types an entry that cannot be (170 points) and reads the refusal, corrects
deal 4 by tapping its line, and kills the game (SIGKILL) in the middle of
deal 12's entry, starts it again and finishes the entry where it stopped.
The sheet's totals must equal `kj score`'s for the same deals; the finished
match must be in the statistics (profile.ron). Photographs the window
(xwd, read here) mid-match and at the end into OUT, and prints the taps
each deal took.
"""
import json
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from PIL import Image  # noqa: E402
from xshot import photograph as photograph_at  # noqa: E402

game, kj, out = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
data = os.path.join(out, "data")
os.makedirs(data, exist_ok=True)
with open(os.path.join(data, "settings.ron"), "w") as f:
    f.write("(format: 1, skin: French, speed: Fast, bot_level: Heuristic, language: English, home_rules: Some(Classic))")
log_path = os.path.join(out, "game.log")

# Sixteen deals of a classic match as a table writes them: the team that
# played with its trump, that team's card points, each team's roem, a pit,
# a revoke. Nat deals, a pit with roem, a revoke among them.
DEALS = [
    ("NS", "H", 102, (0, 0), False, None),
    ("EW", "S", 92, (0, 20), False, None),
    ("NS", "C", 70, (20, 0), False, None),  # nat; corrected below to 88
    ("EW", "D", 81, (0, 0), False, None),  # nat: half is not enough
    ("NS", "S", 162, (50, 0), True, None),  # pit with a run of four
    ("EW", "H", 110, (0, 70), False, None),
    ("NS", "D", 124, (20, 20), False, None),
    ("EW", "C", 97, (0, 0), False, None),
    ("NS", "H", 135, (100, 0), False, None),
    ("EW", "S", 64, (0, 20), False, None),  # nat
    ("NS", "C", 118, (0, 0), False, "EW"),  # EW revoked
    ("EW", "D", 121, (0, 50), False, None),  # killed mid-entry
    ("NS", "S", 83, (0, 0), False, None),
    ("EW", "H", 152, (0, 40), False, None),
    ("NS", "D", 96, (20, 0), False, None),
    ("EW", "C", 101, (0, 0), False, None),
]
CORRECTED = (3, ("NS", "C", 88, (20, 0), False, None))

targets = {}
read_to = 0
proc = None


def start():
    global proc, read_to
    targets.clear()
    log = open(log_path, "a")
    read_to = os.path.getsize(log_path)
    # No desktop folders of the machine's user: the picture goes into the
    # data folder.
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(out, "config"), HOME=out)
    proc = subprocess.Popen(
        [game, "--phone", "1080x2340@2.625", "--targets", "--screen", "sheet", "--data-dir", data],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )


def focus_the_window():
    """Xvfb has no window manager to give the game the keyboard."""
    subprocess.run(["sh", "-c", "xdotool search --onlyvisible --name Klaverjas windowfocus --sync"], check=False,
                   timeout=30)


def read_log():
    global read_to
    with open(log_path, encoding="utf-8", errors="replace") as f:
        f.seek(read_to)
        text = f.read()
        read_to = f.tell()
    for line in text.splitlines():
        m = re.search(r"target (\S+) (\d+),(\d+)$", line)
        if m:
            targets[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        m = re.search(r"target (\S+) gone$", line)
        if m:
            targets.pop(m.group(1), None)
    return text


def wait_for(name, seconds=120):
    until = time.time() + seconds
    while time.time() < until:
        read_log()
        if name in targets:
            return targets[name]
        if proc.poll() is not None:
            sys.exit(f"the game ended waiting for {name}; see {log_path}")
        time.sleep(0.1)
    sys.exit(f"{name} never showed; see {log_path}")


taps = 0


def settled(name):
    """Where name is once the layout has come to rest (a first frame lays
    a page out again, a keypad may move as the sheet grows)."""
    at = wait_for(name)
    while True:
        time.sleep(0.25)
        read_log()
        now = wait_for(name)
        if now == at:
            return at
        at = now


def tap(name):
    global taps
    x, y = settled(name)
    subprocess.run(["xdotool", "mousemove", str(x), str(y), "sleep", "0.05", "click", "1"], check=True)
    taps += 1
    # The frame that takes the tap, and the one after (egui answers a
    # click on release), before the next tap is aimed.
    time.sleep(0.35)
    read_log()


def type_text(text):
    subprocess.run(["xdotool", "type", "--delay", "60", text], check=True)
    time.sleep(0.3)


def said(pattern, seconds=30, fail=True):
    """Waits for a log line matching pattern; returns its match (None past
    the wait where not `fail`)."""
    until = time.time() + seconds
    seen = ""
    while time.time() < until:
        with open(log_path, encoding="utf-8", errors="replace") as f:
            seen = f.read()
        found = list(re.finditer(pattern, seen))
        if found:
            return found[-1]
        time.sleep(0.1)
    if not fail:
        return None
    sys.exit(f"the game never said {pattern!r}; see {log_path}")


def photograph(name):
    time.sleep(0.8)
    photograph_at(os.path.join(out, name))


def enter(deal, roem_team_default=True):
    """Taps one deal on the keypad (not its OK); returns the taps."""
    global taps
    before = taps
    team, suit, points, roem, pit, revoke = deal
    tap(f"sheet.played.{team}.{suit}")
    if pit:
        tap(f"sheet.pit.{team}")
    else:
        for digit in str(points):
            tap(f"sheet.key.{digit}")
    # The quick roem buttons add to the team that played until the other
    # is chosen.
    roem_team = team
    for who, value in zip(("NS", "EW"), roem):
        if value == 0:
            continue
        if roem_team != who:
            tap("sheet.roem_team")
            roem_team = who
        # The quick buttons +100, +50 and +20.
        for part in (100, 50, 20):
            while value >= part:
                tap(f"sheet.add_roem.{part}")
                value -= part
    if revoke:
        tap(f"sheet.revoke.{revoke}")
    return taps - before


def kj_line(deal):
    team, suit, points, roem, pit, revoke = deal
    words = [("S" if team == "NS" else "W"), suit, str(points), f"roem {roem[0]}/{roem[1]}"]
    if pit:
        words.append("pit")
    if revoke:
        words.append(f"revoke {revoke}")
    return " ".join(words)


start()
wait_for("sheet.start")
focus_the_window()
for seat, name in (("South", "Ann"), ("North", "Bob"), ("West", "Cas"), ("East", "Dee")):
    # On a busy machine the window may take the keyboard after the first
    # keys were sent: a name not in its field is typed again (the field
    # emptied first), up to three times.
    for attempt in range(3):
        tap(f"sheet.name.{seat}")
        type_text(name)
        if said(rf'field sheet.name.{seat} "{name}"', 10, fail=False):
            break
        print(f"the field sheet.name.{seat} did not show {name!r}: typed again")
        focus_the_window()
        tap(f"sheet.name.{seat}")
        subprocess.run(["xdotool", "key", "ctrl+a", "BackSpace"], check=True)
    else:
        said(rf'field sheet.name.{seat} "{name}"')
tap("sheet.dealer.West")
tap("sheet.start")

per_deal = []
for number, deal in enumerate(DEALS, start=1):
    taps_before = taps
    if number == 2:
        # 170 points cannot be: refused in words, nothing lost.
        tap("sheet.played.EW.S")
        for digit in "170":
            tap(f"sheet.key.{digit}")
        tap("sheet.key.OK")
        m = said(r"refused the entry: (.*)")
        print(f"refused as it should be: {m.group(1)}")
        photograph("sheet-refused.png")
        tap("sheet.clear")
        taps_before = taps
    if number == 12:
        # Killed with the team and two digits typed; the entry goes on
        # after the restart where it stopped.
        tap("sheet.played.EW.D")
        tap("sheet.key.1")
        tap("sheet.key.2")
        with open(os.path.join(data, "sheet.ron")) as f:
            kept = f.read()
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        start()
        wait_for("sheet.key.OK")
        with open(os.path.join(data, "sheet.ron")) as f:
            if f.read() != kept:
                sys.exit("the sheet after the restart is not the one killed")
        print("killed mid-entry (EW, diamonds, 1 2 typed) and started again: sheet.ron the same")
        tap("sheet.key.1")
        tap("sheet.add_roem.50")
    else:
        enter(deal)
    tap("sheet.key.OK")
    said(rf"deal {number} entered, totals")
    per_deal.append(taps - taps_before)
    if number == 8:
        photograph("sheet-mid.png")
    if number == 10:
        # Deal 3 was written wrong: 88, not 70. Its line, then the pad.
        n, deal4 = CORRECTED
        # The sheet keeps its last lines in view: up to the first ones.
        x, y = wait_for("sheet.totals")
        subprocess.run(["xdotool", "mousemove", str(x), str(y - 200), "click", "--repeat", "15", "--delay", "30", "4"], check=True)
        time.sleep(0.6)
        tap(f"sheet.line.{n}")
        tap("sheet.key.erase")
        tap("sheet.key.erase")
        tap("sheet.key.8")
        tap("sheet.key.8")
        tap("sheet.key.OK")
        said(rf"deal 10 entered, totals")
        photograph("sheet-corrected.png")

m = said(r"deal 16 entered, totals PerTeam \{ ns: (\d+), ew: (\d+) \}")
shown = (int(m.group(1)), int(m.group(2)))
photograph("sheet-end.png")
deals = list(DEALS)
deals[CORRECTED[0] - 1] = CORRECTED[1]
scored = json.loads(
    subprocess.run([kj, "score", "--rules", "classic", "--json", "--deals", "; ".join(map(kj_line, deals))],
                   check=True, capture_output=True, text=True).stdout
)
expected = (scored["totals"]["NS"], scored["totals"]["EW"])
print(f"the sheet's totals: We {shown[0]}, They {shown[1]}; kj score's: NS {expected[0]}, EW {expected[1]}")
if shown != expected:
    sys.exit("the sheet does not add up as kj score does")
with open(os.path.join(data, "profile.ron")) as f:
    profile = f.read()
if "real_cards" not in profile:
    sys.exit("the finished match is not in the statistics")
print("in the statistics: " + re.sub(r"\s+", " ", profile[profile.index("real_cards"):])[:160])
# The finished sheet as a picture (a desktop's: written where the log says).
tap("sheet.picture")
m = said(r"the score sheet.s picture: (\S+\.png)")
for _ in range(100):
    if os.path.exists(m.group(1)) and os.path.getsize(m.group(1)) > 0:
        break
    time.sleep(0.1)
else:
    sys.exit(f"no picture at {m.group(1)}")
picture = Image.open(m.group(1))
print(f"the sheet's picture: {m.group(1)}, {picture.size[0]}x{picture.size[1]}")
picture.save(os.path.join(out, "sheet-picture.png"))
common = [n for deal, n in zip(DEALS, per_deal) if deal[3] == (0, 0) and not deal[4] and not deal[5]]
print(f"taps per deal, with OK: {per_deal}; a made deal with no roem: {sorted(set(common))}")
# The finished sheet kept for the browser check; then New sheet, asked
# first, opens the setup again and the old sheet is gone.
with open(os.path.join(data, "sheet.ron")) as f:
    finished = f.read()
with open(os.path.join(out, "finished-sheet.ron"), "w") as f:
    f.write(finished)
tap("sheet.new")
tap("confirm.go")
wait_for("sheet.start")
if os.path.exists(os.path.join(data, "sheet.ron")):
    sys.exit("New sheet left the old sheet on disk")
print("New sheet: asked, then the setup; the finished sheet gone from disk, still in the statistics")
proc.terminate()
proc.wait()

# South African Klawerjas on a fresh sheet: hands of a boem, two of them
# ended early when a side went on (both teams' points typed), one won
# outright by roem; the strokes against kj score's.
data = os.path.join(out, "data-boem")
os.makedirs(data, exist_ok=True)
with open(os.path.join(data, "settings.ron"), "w") as f:
    f.write("(format: 1, skin: French, speed: Fast, bot_level: Heuristic, language: English, home_rules: Some(Klawerjas))")
start()
tap("sheet.preset.klawerjas")
tap("sheet.start")
HANDS = [
    # the team whose points are typed, trump, its points, the others'
    # (None: the rest of the deal's), roem, who went on and how
    ("NS", "C", 70, None, (0, 0), None),
    ("EW", "H", 30, 10, (0, 0), ("out", "EW")),
    ("NS", "D", 100, 20, (0, 0), ("out", "NS")),
    ("EW", "S", 0, 0, (0, 100), ("outright", "EW")),
]
for number, (team, suit, points, others, roem, went) in enumerate(HANDS, start=1):
    tap(f"sheet.played.{team}.{suit}")
    for digit in str(points):
        tap(f"sheet.key.{digit}")
    if others is not None:
        tap(f"sheet.points.{'EW' if team == 'NS' else 'NS'}")
        for digit in str(others):
            tap(f"sheet.key.{digit}")
    for who, value in zip(("NS", "EW"), roem):
        if value:
            tap(f"sheet.roem.{who}")
            for digit in str(value):
                tap(f"sheet.key.{digit}")
    if went:
        # One button a team: out, a second tap outright (two strokes).
        tap(f"sheet.out.{went[1]}")
        if went[0] == "outright":
            tap(f"sheet.out.{went[1]}")
    tap("sheet.key.OK")
    said(rf"deal {number} entered, totals")
m = said(r"deal 4 entered, totals PerTeam \{ ns: (\d+), ew: (\d+) \}, strokes PerTeam \{ ns: (\d+), ew: (\d+) \}")
photograph("sheet-boem.png")
shown = tuple(int(g) for g in m.groups())


def boem_line(hand):
    team, suit, points, others, roem, went = hand
    words = [("S" if team == "NS" else "W"), suit, str(points), f"roem {roem[0]}/{roem[1]}"]
    if others is not None:
        words.append(f"others {others}")
    if went:
        words.append(f"{went[0]} {went[1]}")
    return " ".join(words)


scored = json.loads(
    subprocess.run([kj, "score", "--rules", "klawerjas", "--json", "--deals", "; ".join(map(boem_line, HANDS))],
                   check=True, capture_output=True, text=True).stdout
)
expected = (scored["totals"]["NS"], scored["totals"]["EW"], scored["strokes"]["NS"], scored["strokes"]["EW"])
print(f"the boem's sheet: points {shown[:2]}, strokes {shown[2:]}; kj score's: points {expected[:2]}, strokes {expected[2:]}")
if shown != expected:
    sys.exit("the boem's sheet does not add up as kj score does")
proc.terminate()
proc.wait()
