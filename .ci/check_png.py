#!/usr/bin/env python3
"""Checks that PNG screenshots exist and are not blank: each must decode,
have the expected size, and show many colours with no single colour
covering almost all of it. Standard library only."""
import struct, sys, zlib
from collections import Counter


def pixels(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, f"{path}: unsupported PNG layout"
            bpp = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    want = None
    paths = sys.argv[1:]
    if paths and "x" in paths[0] and not paths[0].endswith(".png"):
        want = tuple(int(v) for v in paths[0].split("x"))
        paths = paths[1:]
    assert paths, "no screenshots given"
    for path in paths:
        w, h, bpp, rows = pixels(path)
        if want:
            assert (w, h) == want, f"{path}: {w}x{h}, expected {want[0]}x{want[1]}"
        counts = Counter()
        for row in rows[::7]:
            for x in range(0, len(row), bpp * 5):
                counts[row[x:x + 3]] += 1
        total = sum(counts.values())
        top = counts.most_common(1)[0][1] / total
        assert len(counts) >= 20, f"{path}: only {len(counts)} colours: blank?"
        assert top < 0.97, f"{path}: one colour covers {top:.0%}: blank?"
        print(f"ok {path}: {w}x{h}, {len(counts)} colours, top colour {top:.0%}")


if __name__ == "__main__":
    main()
