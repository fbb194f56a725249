#!/usr/bin/env bash
# Xcode's build phase: builds the game's iOS binary (crates/klaverjas-mobile)
# for each architecture Xcode asks for, device or simulator, and puts the
# combined executable where Xcode bundles and signs it.
set -euo pipefail

# Xcode runs phases with a PATH of its own: add cargo's, and the system's
# ahead of Xcode's toolchain, whose `ld` cannot find libSystem for rustc.
export PATH="/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin:$HOME/.cargo/bin:/opt/homebrew/bin:$PATH"

workspace="$(cd "$(dirname "$0")/.." && pwd)"
# A plain word, not an array: macOS's bash 3.2 calls an empty array unbound
# under `set -u`.
profile=debug
release_flag=
if [[ "${CONFIGURATION:-Debug}" != "Debug" ]]; then
  profile=release
  release_flag=--release
fi
# Cargo's output under Xcode's derived data, apart from the desktop build.
export CARGO_TARGET_DIR="${DERIVED_FILE_DIR:-$workspace/target}/cargo"
simulator=0
if [[ "${LLVM_TARGET_TRIPLE_SUFFIX:-}" == "-simulator" ]]; then
  simulator=1
fi

executables=()
for arch in ${ARCHS:-arm64}; do
  case "$arch:$simulator" in
    arm64:0) target=aarch64-apple-ios ;;
    arm64:1) target=aarch64-apple-ios-sim ;;
    x86_64:1) target=x86_64-apple-ios ;;
    *) echo "build_rust.sh: no Rust target for $arch (simulator: $simulator)" >&2; exit 2 ;;
  esac
  (cd "$workspace" && cargo build $release_flag --target "$target" -p klaverjas-mobile --bin klaverjas-mobile)
  executables+=("$CARGO_TARGET_DIR/$target/$profile/klaverjas-mobile")
done

mkdir -p "$(dirname "$TARGET_BUILD_DIR/$EXECUTABLE_PATH")"
lipo -create -output "$TARGET_BUILD_DIR/$EXECUTABLE_PATH" "${executables[@]}"
