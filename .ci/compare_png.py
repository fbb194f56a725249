#!/usr/bin/env python3
"""Compares CI's screenshots with the reference pictures kept in
.ci/references (the same relative paths under the screenshots' folder).

  compare_png.py SHOTS [OUT]     fail when a picture differs from its
                                 reference beyond the threshold; each
                                 difference image goes to OUT
  compare_png.py --accept SHOTS  take SHOTS' pictures as the new references
                                 (those it has; the rest stay)

A pixel differs when a channel differs by more than TOLERANCE; a picture
differs when more than SHARE of its pixels do. Standard library only."""
import os, shutil, struct, sys, zlib

sys.path.insert(0, os.path.dirname(__file__))
from check_png import pixels  # noqa: E402

REFERENCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "references")
TOLERANCE = 24
SHARE = 0.001


def references():
    for root, _, files in os.walk(REFERENCES):
        for name in sorted(files):
            if name.endswith(".png"):
                yield os.path.relpath(os.path.join(root, name), REFERENCES)


def write_png(path, width, height, rows):
    raw = b"".join(b"\x00" + bytes(r) for r in rows)
    chunk = lambda kind, body: struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 6)))
        f.write(chunk(b"IEND", b""))


def compare(reference, shot, diff_path):
    """The share of pixels that differ; writes the difference image (the
    reference greyed, differing pixels red) when any do."""
    w, h, bpp, want = pixels(reference)
    w2, h2, bpp2, got = pixels(shot)
    if (w, h) != (w2, h2):
        return 1.0, f"{w2}x{h2}, the reference is {w}x{h}"
    differing = 0
    out = []
    for a, b in zip(want, got):
        if a == b and bpp == bpp2:
            out.append(bytes(v // 3 + 150 for v in (a if bpp == 3 else bytes(x for i, x in enumerate(a) if i % 4 != 3))))
            continue
        line = bytearray()
        for x in range(w):
            pa, pb = a[x * bpp:x * bpp + 3], b[x * bpp2:x * bpp2 + 3]
            if max(abs(pa[i] - pb[i]) for i in range(3)) > TOLERANCE:
                differing += 1
                line += b"\xff\x00\x00"
            else:
                line += bytes(v // 3 + 150 for v in pa)
        out.append(bytes(line))
    share = differing / (w * h)
    if differing:
        write_png(diff_path, w, h, out)
    return share, f"{differing} pixels differ ({share:.3%})"


def main():
    args = sys.argv[1:]
    if args and args[0] == "--accept":
        shots = args[1]
        for rel in references():
            # A run of some of the sections keeps the others' references.
            if not os.path.exists(os.path.join(shots, rel)):
                print(f"kept {rel} (not taken)")
                continue
            shutil.copyfile(os.path.join(shots, rel), os.path.join(REFERENCES, rel))
            print(f"accepted {rel}")
        return 0
    shots = args[0]
    out = args[1] if len(args) > 1 else os.path.join(shots, "differences")
    os.makedirs(out, exist_ok=True)
    failed = 0
    for rel in references():
        shot = os.path.join(shots, rel)
        if not os.path.exists(shot):
            print(f"{rel}: not taken")
            failed += 1
            continue
        diff = os.path.join(out, rel.replace(os.sep, "__"))
        share, what = compare(os.path.join(REFERENCES, rel), shot, diff)
        bad = share > SHARE
        failed += bad
        print(f"{rel}: {what}" + (f": DIFFERS, see {diff}" if bad else ""))
    if failed:
        print(f"{failed} pictures differ from their references. If the change is meant:"
              f" python3 .ci/compare_png.py --accept {shots}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
