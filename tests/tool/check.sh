#!/bin/sh
# `wddm check` (issue 19 §4, docs/drivers.md "Checking a driver"): the reference drivers pass it
# built in and loaded by path, in both driver models; a KMD that lacks mandatory DDIs fails
# Adapter.Start naming the verifier's rule, and one whose evictions lose their bytes fails
# Paging.Oversubscribe and nothing else. Small segments keep the oversubscription quick.
# Usage: check.sh WDDM_TOOL SWUMD SWKMD KMD_MISSING_DDIS KMD_LOST_PAGING GPUMMU_CAPS
set -u
wddm=$1 umd=$2 kmd=$3 missing=$4 lossy=$5 gpummu=$6
export WDDM_SEGMENT_LOCAL_MB=32 WDDM_SEGMENT_VISIBLE_MB=16
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail() { echo "FAIL: $*"; cat "$out"; exit 1; }

# results FILE: "id=result" for every check of a --json output, one line each.
results() {
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); [print(c["id"]+"="+c["result"]) for c in d["checks"]]; assert d["passed"]+d["failed"]+d["skipped"]==len(d["checks"])' "$1"
}

"$wddm" check >"$out" 2>&1; rc=$?
test $rc -eq 0 || fail "built-in drivers: exit $rc"
grep -q "^wddm check: 12 passed, 0 failed, 0 skipped$" "$out" || fail "built-in drivers: not every check passed"

for caps in "" "$gpummu"; do
  WDDM_KMD_CAPS=$caps "$wddm" --umd "$umd" --kmd "$kmd" check --json >"$out" 2>&1; rc=$?
  test $rc -eq 0 || fail "modules (caps '$caps'): exit $rc"
  r=$(results "$out") || fail "modules: the JSON does not parse"
  test "$(echo "$r" | grep -vc '=pass$')" -eq 0 || fail "modules (caps '$caps'): $r"
done

"$wddm" --kmd "$missing" check >"$out" 2>&1; rc=$?
test $rc -eq 1 || fail "missing DDIs: exit $rc, not 1"
grep -q "^FAIL  Adapter.Start" "$out" || fail "missing DDIs: Adapter.Start did not fail"
grep -q "verifier Init.MandatoryDdi: DxgkInitialize: DRIVER_INITIALIZATION_DATA lacks DxgkDdiPatch, DxgkDdiBuildPagingBuffer" "$out" ||
  fail "missing DDIs: the failure does not name the rule and the DDIs"
grep -q "^wddm check: 0 passed, 1 failed, 11 skipped$" "$out" || fail "missing DDIs: the other checks were not skipped"

"$wddm" --kmd "$lossy" check --json >"$out" 2>&1; rc=$?
test $rc -eq 1 || fail "lossy paging: exit $rc, not 1"
r=$(results "$out") || fail "lossy paging: the JSON does not parse"
test "$(echo "$r" | grep -v '=pass$')" = "Paging.Oversubscribe=fail" || fail "lossy paging: $r"
grep -q '"ok":false' "$out" || fail "lossy paging: ok is not false"
echo "check: the reference drivers pass in both models, the broken ones fail the rule they break"
