#!/bin/sh
# rule: kernel.wddm-verifier-1-prints-every-violation (mutation-checked: no abort, or no summary, fails it)
# rule: sched.dma-completed-interrupt-naming-fence (`tests/drivers/kmd_bogus_fence.c`: the demo runs, one violation counted; mutation-checked: without the report it fails)
# rule: sched.fence-isr-reports-never-submitted (`tests/drivers/kmd_bogus_fence.c`: every readback of the demo stays right after the completion naming a fence never submitted; mutation-checked: retiring up to that fence makes the demo exit 1)
# The verifier's modes (issue 19 §3, docs/drivers.md "The verifier"), against a KMD module that
# lacks two mandatory DDIs; and a check over time, against one whose first completion names a
# fence it never was given. Usage: verifier.sh WDDM_TOOL BROKEN_KMD_MODULE BOGUS_FENCE_MODULE
set -u
wddm=$1
kmd=$2
bogus=$3
err=$(mktemp)
trap 'rm -f "$err"' EXIT
fail() { echo "FAIL: $*"; cat "$err"; exit 1; }

# 1: each violation on stderr with its id, DDI and missing names, the adapter refused (exit 1),
# and the summary at exit names the rule, its count and the module.
WDDM_VERIFIER=1 "$wddm" --kmd "$kmd" info >/dev/null 2>"$err"
rc=$?
test $rc -eq 1 || fail "WDDM_VERIFIER=1: exit $rc, not 1"
grep -q "verifier Init.MandatoryDdi: DxgkInitialize: DRIVER_INITIALIZATION_DATA lacks DxgkDdiPatch, DxgkDdiBuildPagingBuffer" "$err" ||
  fail "WDDM_VERIFIER=1: the violation line does not name the rule and both DDIs"
grep -q "^wddm verifier: 1 violation, 0 unsupported features" "$err" || fail "WDDM_VERIFIER=1: no summary at exit"
grep -Eq "^  Init.MandatoryDdi +1  $kmd\$" "$err" || fail "WDDM_VERIFIER=1: the summary row lacks rule, count or module"

# break: the first violation stops the process (abort, SIGABRT) after a backtrace.
WDDM_VERIFIER=break "$wddm" --kmd "$kmd" info >/dev/null 2>"$err"
rc=$?
test $rc -eq 134 || fail "WDDM_VERIFIER=break: exit $rc, not 134 (SIGABRT)"
grep -q "WDDM_VERIFIER=break: stopping at the first violation (Init.MandatoryDdi, $kmd); backtrace:" "$err" ||
  fail "WDDM_VERIFIER=break: no stop line naming rule and driver"
frames=$(sed -n '/backtrace:$/,$p' "$err" | grep -c '\[0x')
test "$frames" -ge 3 || fail "WDDM_VERIFIER=break: $frames backtrace frames"

# Off (unset): refused all the same, nothing printed without WDDM_DEBUG, no summary.
env -u WDDM_VERIFIER -u WDDM_DEBUG "$wddm" --kmd "$kmd" info >/dev/null 2>"$err"
rc=$?
test $rc -eq 1 || fail "verifier off: exit $rc, not 1"
grep -q "^wddm verifier:" "$err" && fail "verifier off: a summary was printed"

# A value that is not 0, 1 or break is named and reported as 1.
WDDM_VERIFIER=yes "$wddm" --kmd "$kmd" info >/dev/null 2>"$err"
grep -q 'WDDM_VERIFIER="yes" is not 0, 1 or break' "$err" || fail "a bad WDDM_VERIFIER value is not named"
# Over time: the work runs (the module then reports the true fence), and the one bogus
# completion is a violation of Interrupt.FenceNotSubmitted, counted once (DXGKARGCB_NOTIFY_INTERRUPT_DATA
# reference: DmaCompleted names the fence of a submitted DMA buffer).
WDDM_VERIFIER=1 "$wddm" --kmd "$bogus" demo 8 >/dev/null 2>"$err"
rc=$?
test $rc -eq 0 || fail "bogus fence: demo exit $rc"
grep -q "verifier Interrupt.FenceNotSubmitted: DxgkCbNotifyInterrupt: DMA_COMPLETED on node [0-9]* names fence [0-9]*, [0-9]* past the last one submitted" "$err" ||
  fail "bogus fence: no violation line naming the rule and the fence"
grep -Eq "^  Interrupt.FenceNotSubmitted +1  $bogus\$" "$err" || fail "bogus fence: the summary row lacks rule, count 1 or module"
echo "verifier: report, summary, break and off all behave; a fence never submitted is caught"
