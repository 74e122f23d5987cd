#!/bin/sh
# rule: vidmm.mdls-kernel-hands (`tests/drivers/kmd_irql.c` maps the first `MAP_APERTURE_SEGMENT` MDL and compares; mutation-checked: without the flags it reads "not mapped")
# rule: wdk.kernel-runs-kmd-module-interrupt-routine (`tests/drivers/kmd_irql.c`; mutation-checked: without the DPC's IRQL it reads 0 and paged pool is given)
# The IRQL a KMD module's code runs at (issue 19 §2, docs/drivers.md "WDK services for driver
# code"): the kernel hands the module's WDK services the IRQL Windows runs DxgkDdiInterruptRoutine
# at (a device IRQL, above DISPATCH_LEVEL) and DxgkDdiDpcRoutine at (DISPATCH_LEVEL), so the
# module's KeGetCurrentIrql says it and paged pool is refused in its DPC (the DxgkDdiInterruptRoutine
# and DxgkDdiDpcRoutine reference pages: DIRQL, DISPATCH_LEVEL; ExAllocatePool2: paged pool at
# IRQL <= APC_LEVEL). The paging MDLs the kernel hands DxgkDdiBuildPagingBuffer are mapped:
# MmGetSystemAddressForMdlSafe gives the memory the MDL's page frames name.
# Usage: kmd_irql.sh WDDM_TOOL KMD_IRQL
set -u
wddm=$1 kmd=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$wddm" --kmd "$kmd" demo 8 >"$out" 2>&1 || { echo "FAIL: demo with the module: exit $?"; cat "$out"; exit 1; }
line=$(grep '^wddm: kmd: kmd_irql: interrupt' "$out" | head -1)
test "$line" = "wddm: kmd: kmd_irql: interrupt routine at IRQL 5, DPC routine at IRQL 2, paged pool in the DPC refused" ||
  { echo "FAIL: '$line'"; cat "$out"; exit 1; }
grep -q '^wddm: kmd: kmd_irql: paging MDL mapped at its pages$' "$out" ||
  { echo "FAIL: paging MDL: $(grep 'kmd_irql: paging MDL' "$out")"; cat "$out"; exit 1; }
grep -q "paged pool may only be allocated at IRQL <= APC_LEVEL" "$out" || { echo "FAIL: the refusal was not reported"; cat "$out"; exit 1; }
echo "kmd_irql: $line"
