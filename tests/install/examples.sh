#!/bin/sh
# rule: tool.seed-002-backing-store-shared-kmd (skipped: the minimal KMD does not share)
# rule: tool.kmd-claims-supportperenginetdr-recovers (skipped: the minimal KMD does not claim it)
# rule: sched.recovery-whose-dxgkddiresetfromtimeout (mutation-checked: the minimal KMD without its two TDR DDIs fails Tdr.Recovery)
# rule: tool.kmd-whose-caps-claim-preemptionaware (skipped: the minimal KMD does not claim it)
# rule: vidmm.kmd-context-allocations-may-move-while (skipped: the minimal KMD creates none)
# rule: build.software-gpu-installed-hardware-out-tree
# rule: tool.wddm-1-x-kmd-built-against
# rule: tool.kmd-render-copies-whole-commands-user
# rule: tool.paging-buffers-move-fill-map-vidmm (Paging.Oversubscribe evicts and pages back)
# rule: tool.umd-module-loads-another-path-forwards (its counts are printed and checked)
# rule: tool.broken-variant-whose-evictions-reported (mutation-checked: the variant keeping its evictions fails it)
# rule: build.examples-built-build-compiler-sanitizer
# rule: build.services-libwddm-displib-kmd-modules
# rule: tool.broken-variant-loses-evictions-every-run (the broken variant fails Paging.Oversubscribe, in every run)
# The example drivers (CTest `tool.examples`, issue 19 §5, README "Bring up your driver"): install
# the build into a temporary prefix, build examples/ against it as an outside project would
# (find_package(libwddm)), then hold them to `wddm check` with the installed tool: the minimal
# KMD behind the forwarding UMD passes every check, and its broken variant fails
# Paging.Oversubscribe and nothing else. Small segments keep the oversubscription quick.
# Usage: examples.sh BUILD_DIR SOURCE_DIR CMAKE C_COMPILER [SANITIZER_FLAGS]
# SANITIZER_FLAGS: the build's -fsanitize flags; the modules are built with them, as the tool
# that loads them was.
set -u
build=$1 src=$2 cmake=$3 cc=$4 sanitize=${5:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
fail() { echo "FAIL: $*"; test -f "$out" && cat "$out"; exit 1; }

# "Well under" the sizes the issue names: the examples stay small enough to read.
kmd_lines=$(wc -l <"$src/examples/minimal_kmd/minimal_kmd.c")
umd_lines=$(wc -l <"$src/examples/forwarding_umd/forwarding_umd.c")
test "$kmd_lines" -lt 1000 || fail "minimal_kmd.c has $kmd_lines lines (the example must stay under 1000)"
test "$umd_lines" -lt 300 || fail "forwarding_umd.c has $umd_lines lines (the example must stay under 300)"

prefix=$tmp/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$out" 2>&1 || fail "cmake --install"
for f in include/libwddm/gpu/swgpu_hw.h include/libwddm/gpu/swgpu_isa.h include/libwddm/drv/swgpu_private.h \
         include/libwddm/wddm/wdm.h; do
  test -e "$prefix/$f" || fail "install: $f missing"
done
"$cmake" -S "$src/examples" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_C_FLAGS="$sanitize" -DCMAKE_MODULE_LINKER_FLAGS="$sanitize" >"$out" 2>&1 || fail "configuring examples/"
"$cmake" --build "$tmp/build" >"$out" 2>&1 || fail "building examples/"
kmd=$tmp/build/minimal_kmd/minimal_kmd.so
broken=$tmp/build/minimal_kmd/minimal_kmd_broken.so
umd=$tmp/build/forwarding_umd/forwarding_umd.so
for m in "$kmd" "$broken" "$umd"; do test -e "$m" || fail "$m was not built"; done
# Each module exports its entry points and nothing else (their version scripts).
test "$(nm -D --defined-only "$kmd" | awk '{print $3}' | sort | tr '\n' ' ')" = "DriverEntry " ||
  fail "minimal_kmd.so exports more than DriverEntry: $(nm -D --defined-only "$kmd")"
test "$(nm -D --defined-only "$umd" | awk '{print $3}' | sort | tr '\n' ' ')" = "OpenAdapter10 OpenAdapter10_2 " ||
  fail "forwarding_umd.so exports more than its entry points: $(nm -D --defined-only "$umd")"

export WDDM_SEGMENT_LOCAL_MB=32 WDDM_SEGMENT_VISIBLE_MB=16
wddm=$prefix/bin/wddm
lib=$(dirname "$(find "$prefix" -name libwddm_swgpu.a)")

# results FILE: "id=result" for every check of a --json output, one line each.
results() {
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); [print(c["id"]+"="+c["result"]) for c in d["checks"]]' "$1"
}

LD_LIBRARY_PATH=$lib FORWARDING_UMD_LOG=1 "$wddm" --umd "$umd" --kmd "$kmd" check >"$out" 2>&1; rc=$?
test $rc -eq 0 || fail "minimal KMD + forwarding UMD: exit $rc"
grep -q "^wddm check: 12 passed, 0 failed, 8 skipped$" "$out" || fail "minimal KMD: not every check passed"
# The forwarding UMD's hooks were on the path, and it forwarded to the installed reference UMD.
grep -q "^forwarding_umd: [1-9][0-9]* devices, [1-9][0-9]* D3D11 resources created through $lib/libwddm/swumd.so$" "$out" ||
  fail "the forwarding UMD's hooks were not reached, or it did not forward to the installed swumd.so"

LD_LIBRARY_PATH=$lib "$wddm" --umd "$umd" --kmd "$broken" check --json >"$out" 2>&1; rc=$?
test $rc -eq 1 || fail "broken minimal KMD: exit $rc, not 1"
r=$(results "$out") || fail "broken minimal KMD: the JSON does not parse"
test "$(echo "$r" | grep -v -e '=pass$' -e '=skip$')" = "Paging.Oversubscribe=fail" || fail "broken minimal KMD: $r"
echo "examples: built against the installed package; minimal_kmd.so ($kmd_lines lines) behind forwarding_umd.so ($umd_lines lines) passes wddm check, minimal_kmd_broken.so fails Paging.Oversubscribe"
