"""The X screen (Xvfb) photographed with xwd and saved as a PNG: the
game's window as a player sees it, whatever draws it."""
import subprocess

from PIL import Image


def photograph(path):
    raw = subprocess.run(["xwd", "-root", "-silent"], check=True, capture_output=True).stdout
    head = [int.from_bytes(raw[i * 4 : i * 4 + 4], "big") for i in range(25)]
    size, width, height, byte_order, bpp, line, ncolors = head[0], head[4], head[5], head[7], head[11], head[12], head[19]
    assert bpp == 32, f"xwd: {bpp} bits a pixel"
    pixels = raw[size + 12 * ncolors :]
    image = Image.frombytes("RGB", (width, height), pixels, "raw", "BGRX" if byte_order == 0 else "XRGB", line)
    image.save(path)
    print(f"photographed: {path}")
