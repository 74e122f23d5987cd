#!/bin/sh
# rule: tool.every-check-names-id-rule-results
# rule: tool.reference-drivers-pass-every-check-built (mutation-checked: a readback that compares nothing lets the lossy KMD pass, and fails it)
# rule: kernel.d3dkmtescape-d3dkmt-escape-tdrdbgctrl (`Tdr.Recovery`)
# rule: tool.seed-002-backing-store-shared-kmd (passes in both models; skipped with `WDDM_FEATURES=SHARE_BACKING_STORE_WITH_KMD=0`; mutation-checked: the reference KMD's escape reading one byte off fails it on byte 0)
# rule: tool.kmd-claims-supportperenginetdr-recovers (mutation-checked: the reference KMD's `DxgkDdiResetEngine` failing fails Tdr.Engine naming the adapter reset)
# rule: tool.kmd-whose-caps-claim-preemptionaware (mutation-checked: a kernel that never preempts fails Sched.Preemption)
# rule: tool.kmd-lacking-mandatory-ddis-fails-adapter
# rule: tool.kmd-whose-caps-claim-preemption-finer (mutation-checked: a kernel that never counts a mid-buffer stop fails Sched.MidBuffer with 4 preemptions seen)
# rule: vidmm.dxgkddibuildpagingbuffer-may-offered (the reference KMD passes Paging.Multipass; `tests/drivers/kmd_ignores_dmasize.c` fails it naming `Paging.DmaSize` and nothing else; mutation-checked: without the check it no longer names the rule)
# rule: tool.kmd-whose-caps-claim-gpummu-given (GpuMmu caps: passes; 1.x caps: skipped)
# rule: tool.kmd-whose-caps-claim-iommu-translations (IoMmu caps: passes, Paging.Oversubscribe skipped; other caps: skipped)
# rule: tool.two-adapters-second-serves-device-like (`WDDM_ADAPTER_COUNT=2`)
# rule: vidmm.kmd-context-allocations-may-move-while (mutation-checked: the reference KMD keeping a save area's first address fails Context.Allocations on a STAGING buffer's bytes)
# rule: tool.check-left-device-removed-hands-next (after the DmaSize KMD's Paging.Multipass, Tdr.Recovery passes)
# `wddm check` (issue 19 §4, docs/drivers.md "Checking a driver"): the reference drivers pass it
# built in and loaded by path, in both driver models; a KMD that lacks mandatory DDIs fails
# Adapter.Start naming the verifier's rule, one whose evictions lose their bytes fails
# Paging.Oversubscribe and nothing else, and one that writes past the paging room it is offered
# fails Paging.Multipass naming Paging.DmaSize and nothing else. Each model runs the checks of
# what its caps claim (GpuMmu.PageTables in the GpuMmu one, IoMmu.Translations in the IoMmu one,
# which has no local memory to oversubscribe), two adapters run Adapter.Second.
# Small segments keep the oversubscription quick.
# Usage: check.sh WDDM_TOOL SWUMD SWKMD KMD_MISSING_DDIS KMD_LOST_PAGING GPUMMU_CAPS KMD_IGNORES_DMASIZE
set -u
wddm=$1 umd=$2 kmd=$3 missing=$4 lossy=$5 gpummu=$6 greedy=$7
iommu=$(dirname "$gpummu")/iommu.caps
export WDDM_SEGMENT_LOCAL_MB=32 WDDM_SEGMENT_VISIBLE_MB=16
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail() { echo "FAIL: $*"; cat "$out"; exit 1; }

# results FILE: "id=result" for every check of a --json output, one line each.
results() {
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); [print(c["id"]+"="+c["result"]) for c in d["checks"]]; assert d["passed"]+d["failed"]+d["skipped"]==len(d["checks"])' "$1"
}

# The checks not passed, for each model and adapter count, are the skipped ones of what the caps
# do not claim, or of one adapter. Sched.MidBuffer may also skip: whether the high-priority copy
# finds one of the UMD's DMA buffers running is the machine's timing (in the GpuMmu model the
# UMD puts a GPU wait between them); it must never fail.
for run in "||1|GpuMmu.PageTables=skip IoMmu.Translations=skip Adapter.Second=skip" \
           "m||1|GpuMmu.PageTables=skip IoMmu.Translations=skip Adapter.Second=skip" \
           "m|$gpummu|1|IoMmu.Translations=skip Adapter.Second=skip" \
           "m|$iommu|1|Paging.Oversubscribe=skip GpuMmu.PageTables=skip Adapter.Second=skip" \
           "m||2|GpuMmu.PageTables=skip IoMmu.Translations=skip"; do
  how=${run%%|*} rest=${run#*|}
  caps=${rest%%|*} rest=${rest#*|}
  n=${rest%%|*} skipped=${rest#*|}
  if test "$how" = m; then set -- --umd "$umd" --kmd "$kmd"; else set --; fi
  WDDM_KMD_CAPS=$caps WDDM_ADAPTER_COUNT=$n "$wddm" "$@" check --json >"$out" 2>&1; rc=$?
  test $rc -eq 0 || fail "drivers '$how' (caps '$caps', $n adapters): exit $rc"
  r=$(results "$out") || fail "the JSON does not parse"
  test "$(echo "$r" | grep -v '=pass$' | grep -v '^Sched.MidBuffer=skip$' | tr '\n' ' ' | sed 's/ $//')" = "$skipped" ||
    fail "drivers '$how' (caps '$caps', $n adapters): $r"
done

"$wddm" --kmd "$missing" check >"$out" 2>&1; rc=$?
test $rc -eq 1 || fail "missing DDIs: exit $rc, not 1"
grep -q "^FAIL  Adapter.Start" "$out" || fail "missing DDIs: Adapter.Start did not fail"
grep -q "verifier Init.MandatoryDdi: DxgkInitialize: DRIVER_INITIALIZATION_DATA lacks DxgkDdiPatch, DxgkDdiBuildPagingBuffer" "$out" ||
  fail "missing DDIs: the failure does not name the rule and the DDIs"
grep -q "^wddm check: 0 passed, 1 failed, 19 skipped$" "$out" || fail "missing DDIs: the other checks were not skipped"

# Without the feature the reference KMD refuses to share a backing store: Backing.Share skips.
WDDM_FEATURES=SHARE_BACKING_STORE_WITH_KMD=0 "$wddm" check --json >"$out" 2>&1 || fail "feature off: exit $?"
r=$(results "$out") || fail "feature off: the JSON does not parse"
echo "$r" | grep -qx 'Backing.Share=skip' || fail "feature off: Backing.Share did not skip: $r"

"$wddm" --kmd "$lossy" check --json >"$out" 2>&1; rc=$?
test $rc -eq 1 || fail "lossy paging: exit $rc, not 1"
r=$(results "$out") || fail "lossy paging: the JSON does not parse"
# Both checks whose bytes go through evictions catch it, nothing else does.
test "$(echo "$r" | grep '=fail$' | tr '\n' ' ')" = "Paging.Oversubscribe=fail Context.Allocations=fail " ||
  fail "lossy paging: $r"
grep -q '"ok":false' "$out" || fail "lossy paging: ok is not false"

"$wddm" --kmd "$greedy" check >"$out" 2>&1; rc=$?
test $rc -eq 1 || fail "past DmaSize: exit $rc, not 1"
test "$(grep -c '^FAIL' "$out")" -eq 1 && grep -q "^FAIL  Paging.Multipass" "$out" || fail "past DmaSize: not Paging.Multipass alone"
grep -q "wrote past DmaSize (Paging.DmaSize" "$out" || fail "past DmaSize: the failure does not name Paging.DmaSize"
echo "check: the reference drivers pass in the three models and with two adapters, the broken ones fail the rule they break"
