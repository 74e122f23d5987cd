#!/usr/bin/env bash
# Installs what libwddm needs on a fresh Debian 12 machine (Debian packages only), configures
# and builds it in ./build. With an argument, runs that `wddm` sub-command afterwards:
#   scripts/setup.sh demo      -> install, build, run `wddm demo` (the README's first command)
#   scripts/setup.sh --test    -> also what only the test suite needs (scripts/test.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(build-essential cmake libcmocka-dev libjson-c-dev pkg-config)
if [ "${1:-}" = "--test" ]; then
  shift
  # What only the test suite needs: headless Chromium opens the timeline's HTML view (CTest
  # tool.timeline_html); clang and libclang-rt-14-dev (libFuzzer's runtime for Debian 12's
  # clang 14, only recommended by clang) build the fuzzers of scripts/test.sh's fourth run
  # (README "Fuzzing"); python3 and mingw-w64-common (the SDK's headers, /usr/share/mingw-w64/
  # include) hold the generated application headers to the SDK's slots (api.generated, api.slots;
  # docs/api.md); python3 also runs scripts/check_rules.py (the rules matrix and its citations) and
  # writes the tool's man pages, which man-db's man renders in CTest tool.install.
  PACKAGES+=(chromium clang libclang-rt-14-dev python3 mingw-w64-common man-db)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
if (($#)); then
  # A `wddm` command to run: build the library and the tool only (the test programs are the
  # test suite's business), then run it.
  cmake --build build -j"$(nproc)" --target wddm
  exec ./build/wddm "$@"
fi
cmake --build build -j"$(nproc)"
