#!/usr/bin/python3
"""A deal played as a blind player plays it: by the keyboard alone, each
card chosen by what a screen reader reads.

    .ci/xvfb 1280x720 dbus-run-session -- \\
        .ci/screen_reader_check.py GAME OUT

The game runs in a D-Bus session with the AT-SPI registry (at-spi2-core),
which is what Orca reads; this script reads the same tree through pyatspi.
It turns the screen reader on (org.a11y.Status.ScreenReaderEnabled, as
Orca does), starts a classic match at the table and, without a pixel
coordinate:

- at the first dealt hand, finds eight card buttons named as a player says
  them, and at each turn the ones the rules forbid marked with the rule as
  their description;
- bids with the bidding's keys (P pass, Y play), answers the last trick's
  word on roem with N;
- at each of its turns chooses a card the tree says is allowed, moves the
  keyboard's focus to it with the arrow keys (reading the focused button
  after each key) and plays it with Enter (xdotool: real key presses into
  the X server);
- reads what the table says from the tree (the live region's lines, kept
  in "What happened"), and checks that every trick was told: four cards
  played and who won it, with its points.

Writes OUT/told.txt (everything the table said) and OUT/screen-reader.png.
"""
import os
import re
import signal
import subprocess
import sys
import time

import pyatspi

sys.path.insert(0, os.path.dirname(__file__))
from a11y import data_folder, game_window, screen_reader_on  # noqa: E402
from xshot import photograph  # noqa: E402

game, out = sys.argv[1:3]
os.makedirs(out, exist_ok=True)
data = data_folder(out, ", practice: false")
log_path = os.path.join(out, "game.log")


def fail(why):
    print(f"FAILED: {why}")
    if game_proc.poll() is None:
        game_proc.send_signal(signal.SIGTERM)
    else:
        # CI keeps only what is printed.
        with open(log_path) as log:
            print("the end of the game's log:", *log.readlines()[-15:], sep="\n  ")
    sys.exit(1)


screen_reader_on()

env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(out, "config"), HOME=out)
game_proc = subprocess.Popen([game, "--play", "--seed", "1", "--window", "1280x720", "--data-dir", data],
                             stdout=open(log_path, "w"), stderr=subprocess.STDOUT, env=env)


def the_app(seconds=90):
    until = time.time() + seconds
    while time.time() < until:
        window = game_window()
        if window is not None:
            return window
        if game_proc.poll() is not None:
            fail(f"the game ended before its window was in the tree; see {log_path}")
        time.sleep(0.3)
    fail("no window named Klaverjas in the accessibility tree")


def nodes(root):
    """Every node under root, depth first: (role, name, description,
    enabled, focused)."""
    found = []

    def walk(acc):
        try:
            states = acc.getState()
            found.append((acc.getRoleName(), acc.name or "", acc.description or "",
                          states.contains(pyatspi.STATE_ENABLED), states.contains(pyatspi.STATE_FOCUSED)))
            for i in range(acc.childCount):
                walk(acc.getChildAtIndex(i))
        except Exception:
            pass  # a node gone between two reads: the next read has the tree again

    walk(root)
    return found


CARD = re.compile(r"^(7|8|9|10|jack|queen|king|ace) of (clubs|diamonds|hearts|spades)(, trump)?$")


def hand(tree):
    return [n for n in tree if n[0] == "push button" and CARD.match(n[1])]


def focused(tree):
    return next((n[1] for n in tree if n[4]), None)


told = []


def read_told(tree):
    """The lines the table has said, from the tree's "What happened", added
    to `told` past where the two overlap."""
    log = next((n[1] for n in tree if n[0] == "label" and n[1].startswith("What happened:")), None)
    if log is None:
        return
    lines = [line for line in log.split("\n")[1:] if line]
    for k in range(min(len(lines), len(told)), -1, -1):
        if told[len(told) - k:] == lines[:k]:
            told.extend(lines[k:])
            return


def key(name):
    subprocess.run(["xdotool", "key", name], check=True)
    time.sleep(0.15)


window = the_app()
subprocess.run(["sh", "-c", "xdotool search --onlyvisible --name Klaverjas windowfocus --sync"], timeout=30)
first_hand_checked = False
turns = 0
keys_pressed = 0
deadline = time.time() + 600
while time.time() < deadline:
    if game_proc.poll() is not None:
        fail(f"the game ended; see {log_path}")
    tree = nodes(window)
    read_told(tree)
    if any(line.startswith("The deal is over") for line in told):
        break
    names = [n[1] for n in tree if n[0] == "push button"]
    cards = hand(tree)
    if not first_hand_checked and len(cards) == 8:
        print("the first hand, as read:", ", ".join(c[1] for c in cards))
        first_hand_checked = True
    if "Pass" in names and ("Play" in names or any(n.startswith("Play") for n in names)):
        key("p")
        keys_pressed += 1
        time.sleep(0.5)
        continue
    if "No roem" in names:
        key("n")
        keys_pressed += 1
        time.sleep(0.5)
        continue
    if told and told[-1] == "Your turn" and cards:
        # The hand as it stands: read again until two reads agree (a read
        # walks the tree node by node while the game may be updating it,
        # and once took the cards from the frame before their rules).
        for _ in range(10):
            time.sleep(0.3)
            again = hand(nodes(window))
            if again == cards:
                break
            cards = again
        # A forbidden card's description is its rule (AccessKit also marks
        # it disabled, which its AT-SPI adapter does not pass on for a
        # button: Orca reads the description after the name).
        allowed = [c for c in cards if not c[2]]
        forbidden = [c for c in cards if c[2]]
        if not allowed:
            fail(f"no card allowed at a turn: {cards}")
        for c in forbidden:
            if not re.match(r"^(You must |You cannot |Your partner |Trumps were led)", c[2]):
                fail(f"{c[1]} is forbidden for no rule: {c[2]!r}")
        turns += 1
        print(f"turn {turns}: allowed {[c[1] for c in allowed]}; forbidden "
              f"{[(c[1], c[2]) for c in forbidden]}")
        choice = allowed[-1][1]
        for _ in range(10):
            now = focused(nodes(window))
            if now == choice:
                break
            key("Right")
            keys_pressed += 1
        else:
            fail(f"the focus never reached {choice}")
        before = len(told)
        key("Return")
        keys_pressed += 1
        # The card leaves the hand; the next turn is told afresh.
        until = time.time() + 10
        while time.time() < until:
            tree = nodes(window)
            read_told(tree)
            if told and told[-1] != "Your turn":
                break
            time.sleep(0.2)
        answer = next((line for line in told[before:] if line != "Your turn"), None)
        if answer is None or not answer.startswith("You play "):
            fail(f"Enter on {choice} was answered {answer!r}")
        print(f"  played {choice} (focus read on it, then Enter): {answer!r}")
        continue
    time.sleep(0.2)
else:
    fail("the deal did not end within ten minutes")

photograph(os.path.join(out, "screen-reader.png"))
with open(os.path.join(out, "told.txt"), "w") as f:
    f.write("\n".join(told) + "\n")
print("\n".join("  told: " + line for line in told))

if not first_hand_checked:
    fail("the tree never held a hand of eight named cards")
plays = [line for line in told if re.match(r"^(You play|(North|East|West) plays) ", line)]
wins = [line for line in told if re.match(r"^(You win|(North|East|West) wins) the trick, \d+ points?$", line)]
if len(plays) != 32 or len(wins) != 8:
    fail(f"told {len(plays)} cards played and {len(wins)} tricks won; a deal has 32 and 8")
if turns != 8:
    fail(f"played {turns} cards by keyboard; a hand has 8")
print(f"screen reader check: 8 tricks, each told (32 cards played, 8 won), {turns} cards chosen from the tree "
      f"and played with {keys_pressed} keys, no pointer")
game_proc.send_signal(signal.SIGTERM)
game_proc.wait(timeout=30)
