#!/usr/bin/env python3
"""The stub sysroot the game's Android library links against.

  android/stubs.py OUT [API]

For each of Android's platform symbol lists in android/platform-symbols/
(libc, libm, libdl, liblog, libandroid, libaaudio), OUT/lib<name>.so: a
shared object with every symbol the list gives arm64 at API <= API (31 by
default), with its version node and the platform's soname, as the NDK
makes its own stubs from the same lists. Linked with --no-undefined, a
symbol a phone at that API does not have fails the link. Also empty
crtbegin_so.o / crtend_so.o and libunwind.a: bionic's libc exports the
_Unwind_* functions itself from API 30.

The lists' rules, as the NDK reads them: a version block or a symbol may
name architectures (only those have it), `introduced=N` (or per
architecture) and `var` (data, not code); blocks named *_PRIVATE or
*_PLATFORM, and symbols tagged platform-only, future, llndk, apex or
systemapi, are not the NDK's. Needs clang-16 (Debian's)."""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LISTS = os.path.join(HERE, "platform-symbols")
ARCH = "arm64"
ARCHES = {"arm", "arm64", "x86", "x86_64", "riscv64", "mips", "mips64"}
# The lists name some levels by their codenames.
CODENAMES = {"O": 26, "O-MR1": 27, "P": 28, "Q": 29, "R": 30, "S": 31, "Sv2": 32, "Tiramisu": 33,
             "UpsideDownCake": 34, "VanillaIceCream": 35}
NOT_NDK = {"platform-only", "future", "llndk", "apex", "systemapi"}
CLANG = os.environ.get("CLANG", "clang-16")


def level(value, where):
    if value.isdigit():
        return int(value)
    if value in CODENAMES:
        return CODENAMES[value]
    sys.exit(f"{where}: unknown API level '{value}'")


def included(tags, api, where):
    """Whether tags (a block's, then a symbol's) keep a symbol for arm64 at api."""
    arches = [t for t in tags if t in ARCHES]
    if arches and ARCH not in arches:
        return False
    if any(t in NOT_NDK for t in tags):
        return False
    introduced = None
    for t in tags:
        key, _, value = t.partition("=")
        if key == "introduced" and introduced is None:
            introduced = level(value, where)
        elif key == f"introduced-{ARCH}":
            introduced = level(value, where)
    return introduced is None or introduced <= api


def read(path, api):
    """The list's version blocks: [(name, parent, [(symbol, is_var)])]."""
    blocks, block = [], None
    for n, raw in enumerate(open(path, encoding="utf-8"), 1):
        where = f"{os.path.basename(path)}:{n}"
        code, _, comment = raw.partition("#")
        code, tags = code.strip(), comment.split()
        if not code:
            continue
        opening = re.fullmatch(r"([A-Za-z0-9_]+)\s*\{", code)
        if opening:
            block = {"name": opening.group(1), "tags": tags, "symbols": []}
            continue
        closing = re.fullmatch(r"\}\s*([A-Za-z0-9_]*)\s*;", code)
        if closing:
            if block is None:
                sys.exit(f"{where}: a block closes that never opened")
            private = block["name"].endswith(("_PRIVATE", "_PLATFORM"))
            if not private and included(block["tags"], api, where):
                blocks.append((block["name"], closing.group(1), block["symbols"]))
            block = None
            continue
        if code in ("global:", "local:", "*;"):
            continue
        symbol = re.fullmatch(r"([A-Za-z0-9_]+)\s*;", code)
        if not symbol or block is None:
            sys.exit(f"{where}: not a symbol: '{code}'")
        if included(block["tags"] + tags, api, where):
            block["symbols"].append((symbol.group(1), "var" in tags))
    return blocks


def stub(name, blocks, out):
    """lib<name>.so from its blocks, through clang."""
    source, script = [], []
    seen = set()
    for version, parent, symbols in blocks:
        names = []
        for symbol, is_var in symbols:
            if symbol in seen:
                continue
            seen.add(symbol)
            names.append(symbol)
            source.append(f"int {symbol} = 0;" if is_var else f"void {symbol}(void) {{}}")
        body = "".join(f"    {s};\n" for s in names)
        script.append(f"{version} {{\n  global:\n{body}}}{(' ' + parent) if parent else ''};\n")
    c = os.path.join(out, f"lib{name}.c")
    vs = os.path.join(out, f"lib{name}.map")
    with open(c, "w") as f:
        # The stubs are never run: their signatures do not matter.
        f.write("#pragma clang diagnostic ignored \"-Wbuiltin-requires-header\"\n")
        f.write("#pragma clang diagnostic ignored \"-Wincompatible-library-redeclaration\"\n")
        f.write("\n".join(source) + "\n")
    with open(vs, "w") as f:
        f.write("".join(script))
    so = os.path.join(out, f"lib{name}.so")
    subprocess.run([CLANG, f"--target=aarch64-linux-android{API}", "-shared", "-nostdlib", "-fPIC",
                    "-fno-builtin", "-w", "-fuse-ld=lld", f"-Wl,--version-script={vs}",
                    f"-Wl,-soname,lib{name}.so", "-o", so, c], check=True)
    os.remove(c)
    os.remove(vs)
    return len(seen)


def empty(out, name):
    c = os.path.join(out, "empty.c")
    with open(c, "w") as f:
        f.write("")
    obj = os.path.join(out, name)
    subprocess.run([CLANG, "--target=aarch64-linux-android", "-c", "-o", obj, c], check=True)
    os.remove(c)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    API = int(sys.argv[2]) if len(sys.argv) > 2 else 31
    os.makedirs(out, exist_ok=True)
    for list_file in sorted(os.listdir(LISTS)):
        if not list_file.endswith(".map.txt"):
            continue
        name = list_file[len("lib"):-len(".map.txt")]
        count = stub(name, read(os.path.join(LISTS, list_file), API), out)
        print(f"lib{name}.so: {count} symbols at API {API}")
    empty(out, "crtbegin_so.o")
    empty(out, "crtend_so.o")
    subprocess.run(["llvm-ar-16", "rcs", os.path.join(out, "libunwind.a")], check=True)
