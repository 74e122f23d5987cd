#!/bin/sh
# rule: build.cmake-install-installs-headers-under (`tests/install/check.sh`: the four builds of `tests/install/hello.c` each copy a buffer on the GPU and check every byte; mutation-checked: without `-lm` in `Libs.private` the static link fails)
# rule: build.tool-man-pages-written-build-time (`tests/install/check.sh`; mutation-checked: without the install rule, with a page left out, and with an unknown roff macro it fails)
# rule: build.pc-file-names-folders-relative-own (installs into a temporary prefix that the configure step never saw)
# The package test (CTest `tool.install`): install the build into a temporary prefix, then build
# an outside program against it with pkg-config (shared and static) and with
# find_package(libwddm) (shared and static), and run each; the tool's man pages are there and render. Usage: check.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null

for f in include/libwddm/d3d11.h include/libwddm/wddm/d3dkmthk.h bin/wddm; do
  test -e "$prefix/$f" || { echo "install: $f missing"; exit 1; }
done
lib=$(dirname "$(find "$prefix" -name libwddm.pc)")/..
test -e "$lib/libwddm.a" || { echo "install: libwddm.a missing"; exit 1; }
# The versioned soname: the library records it and the link name points at it.
soname=$(objdump -p "$lib/libwddm.so" | sed -n 's/^ *SONAME *//p')
case $soname in libwddm.so.[0-9]*) ;; *) echo "install: soname '$soname' is not versioned"; exit 1;; esac
test -e "$lib/$soname" || { echo "install: $soname missing"; exit 1; }

# Man pages (issue 18), written from the tool's --help: wddm.1 and one page per command that
# `wddm --help` lists, each naming its command's usage line; man(1) renders them without a
# warning (man-db is installed by scripts/setup.sh --test).
man1=$prefix/share/man/man1
test -e "$man1/wddm.1" || { echo "install: share/man/man1/wddm.1 missing"; exit 1; }
for c in $("$prefix/bin/wddm" --help | sed -n 's/^  \([a-z][a-z0-9-]*\).*/\1/p'); do
  test -e "$man1/wddm-$c.1" || { echo "install: man page wddm-$c.1 missing"; exit 1; }
  grep -q "^usage: wddm $c" "$man1/wddm-$c.1" || { echo "install: wddm-$c.1 has not the usage of 'wddm $c --help'"; exit 1; }
done
command -v man >/dev/null || { echo "install: man is not installed: run scripts/setup.sh --test"; exit 1; }
for p in "$man1"/wddm*.1; do
  MANWIDTH=100 man --warnings -l "$p" >"$tmp/man.txt" 2>"$tmp/man.err" || { echo "install: man -l $p failed"; cat "$tmp/man.err"; exit 1; }
  if [ -s "$tmp/man.err" ]; then echo "install: man -l $p warns:"; cat "$tmp/man.err"; exit 1; fi
  grep -q "usage: wddm" "$tmp/man.txt" || { echo "install: man -l $p shows no usage line"; exit 1; }
done

export PKG_CONFIG_PATH=$lib/pkgconfig
pkg-config --exists libwddm
cc -std=c17 -o "$tmp/hello_pc_shared" "$src/tests/install/hello.c" $(pkg-config --cflags --libs libwddm)
LD_LIBRARY_PATH=$lib "$tmp/hello_pc_shared"
# Static: the archive alone, with the libraries pkg-config lists as private.
cc -std=c17 -o "$tmp/hello_pc_static" "$src/tests/install/hello.c" $(pkg-config --cflags libwddm) \
  "$lib/libwddm.a" $(pkg-config --static --libs-only-other --libs-only-l libwddm | sed 's/-lwddm//')
"$tmp/hello_pc_static"

cmake -S "$src/tests/install" -B "$tmp/fp" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/fp" >/dev/null
LD_LIBRARY_PATH=$lib "$tmp/fp/hello_shared"
"$tmp/fp/hello_static"
# The reference drivers as modules, loaded by path by the installed tool (docs/drivers.md).
test -e "$lib/libwddm_displib.a" || { echo "install: libwddm_displib.a missing"; exit 1; }
LD_LIBRARY_PATH=$lib "$prefix/bin/wddm" --umd "$lib/libwddm/swumd.so" --kmd "$lib/libwddm/swkmd.so" demo 5 >/dev/null
echo "install: headers, libraries, driver modules, tool, man pages, pkg-config and find_package all work"
