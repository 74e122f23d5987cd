#!/bin/sh
# rule: tool.wddm-command-line-h-help-prints (`tests/tool/cli_usage.sh`: 60 cases, each also checks nothing was printed on stdout, i.e. no work started; mutation-checked: accepting trailing junk, or not checking bench group names, fails it)
# rule: tool.wddm-stats-device-json-also-device (the option in the help, an extra argument refused)
# rule: common.wddm-version-prints-library-version (the `--version` line and the trace/stats usage errors)
# rule: tool.wddm-info-json-every-dxgk-drivercaps (a one-line caps file: exactly that cap is named, with its default)
# rule: tool.wddm-soak-wddm-bench-show-progress (script(1) gives it a terminal; mutation-checked: a progress that ignores `--quiet` fails it)
# rule: tool.every-check-names-id-rule-results
# Issue 14 §4, the `wddm` command line (docs/rules/tool.md): -h/--help (top level and per command)
# prints the usage on stdout and exits 0; a usage error (unknown command, option or benchmark
# group; a number that is negative, garbage, too large, has trailing junk, or is zero where zero
# means nothing; a missing or extra argument) exits 2 with exactly one line on stderr, and
# nothing on stdout: the work never started. Every run has a time limit, so a check made after
# the work started (a benchmark, a soak) fails instead of running on. Soak's progress shows on a
# terminal only (script(1) gives it one).
# usage: cli_usage.sh path/to/wddm
W=$1
tmp=${TMPDIR:-/tmp}/wddm-cli-$$
fail=0

# usage_error "text the line must hold" args...
usage_error() {
    want=$1
    shift
    timeout 30 "$W" "$@" >"$tmp.out" 2>"$tmp.err"
    rc=$?
    if [ $rc -ne 2 ]; then echo "FAIL: wddm $*: exit $rc, want 2"; fail=1; fi
    if [ "$(wc -l <"$tmp.err")" -ne 1 ]; then echo "FAIL: wddm $*: stderr is not one line:"; cat "$tmp.err"; fail=1; fi
    if ! grep -q -- "$want" "$tmp.err"; then echo "FAIL: wddm $*: stderr does not say '$want':"; cat "$tmp.err"; fail=1; fi
    if [ -s "$tmp.out" ]; then echo "FAIL: wddm $*: wrote on stdout (the work started):"; head -3 "$tmp.out"; fail=1; fi
}

# help "text stdout must hold" args...
help() {
    want=$1
    shift
    timeout 30 "$W" "$@" >"$tmp.out" 2>"$tmp.err"
    rc=$?
    if [ $rc -ne 0 ]; then echo "FAIL: wddm $*: exit $rc, want 0"; fail=1; fi
    if [ -s "$tmp.err" ]; then echo "FAIL: wddm $*: wrote on stderr:"; cat "$tmp.err"; fail=1; fi
    if ! grep -q -- "$want" "$tmp.out"; then echo "FAIL: wddm $*: stdout has no '$want'"; fail=1; fi
}

help "usage: wddm <command>" --help
help "usage: wddm <command>" -h
help "wddm (libwddm) [0-9]*\.[0-9]*\.[0-9]*" --version
for c in demo info bench soak trace stats check; do
    help "usage: wddm $c" $c --help
    help "usage: wddm $c" $c -h
done

usage_error "no command" 
usage_error "unknown command 'frobnicate'" frobnicate
usage_error "unknown option '--bogus'" --bogus
usage_error "--umd needs a module path" --umd
usage_error "--kmd needs a module path" --kmd ""
usage_error "no command given" --kmd /some/kmd.so
for c in demo info bench soak check; do
    usage_error "unknown option '--bogus'" $c --bogus
    usage_error "unknown option '-q'" $c -q
done

# Numbers: demo [frames], soak [ops] [local-MiB].
usage_error "frames '-5' is negative" demo -5
usage_error "frames 'abc' is not a number" demo abc
usage_error "frames '12x' is not a number" demo 12x
usage_error "frames ' 12' is not a number" demo " 12"
usage_error "frames '+12' is not a number" demo +12
usage_error "frames '' is not a number" demo ""
usage_error "frames '0x10' is not a number" demo 0x10
usage_error "frames '0' is out of range" demo 0
usage_error "frames '1000001' is out of range" demo 1000001
usage_error "frames '18446744073709551616' is out of range" demo 18446744073709551616
usage_error "unexpected argument '2'" demo 1 2
usage_error "ops '-1' is negative" soak -1
usage_error "ops '0' is out of range" soak 0
usage_error "ops '99999999999999999999999' is out of range" soak 99999999999999999999999
usage_error "ops '10k' is not a number" soak 10k
usage_error "local-MiB '0' is out of range" soak 10 0
usage_error "local-MiB '1025' is out of range" soak 10 1025
usage_error "local-MiB '-4' is negative" soak 10 -4
usage_error "unexpected argument '3'" soak 10 4 3
WDDM_SEGMENT_LOCAL_MB=lots usage_error "WDDM_SEGMENT_LOCAL_MB 'lots' is not a number" soak 10

# info [--caps FILE]; bench [quick] [groups]: checked before any benchmark runs.
usage_error "needs a value" info --caps
usage_error "needs a file name" info --caps=
usage_error "unexpected argument 'extra'" info extra
usage_error "unknown benchmark group 'W9'" bench W9
usage_error "unknown benchmark group 'nosuch'" bench quick S nosuch
usage_error "unknown benchmark group 'w1'" bench w1
usage_error "exclude each other" info --json --summary
usage_error "no command to run" trace
usage_error "no command to run" trace -o x.json
usage_error "-o needs a file name" trace -o ""
usage_error "unknown option" trace --nosuch -- true
usage_error "unexpected argument 'x'" stats x
usage_error "unexpected argument 'x'" stats --device x
help "--device" stats --help
usage_error "unknown option" stats --xml

# Progress (issue 18 §4): on a terminal soak and bench show it on stderr; --quiet, --json or a pipe
# do not.
if command -v script >/dev/null; then
    timeout 60 script -qc "'$W' soak 5000 2>&1 >/dev/null" /dev/null >"$tmp.out"
    grep -q "wddm soak: 0 of 5000 ops" "$tmp.out" || { echo "FAIL: wddm soak on a terminal shows no progress"; fail=1; }
    timeout 60 script -qc "'$W' soak --quiet 5000 2>&1 >/dev/null" /dev/null >"$tmp.out"
    if grep -q " of 5000 ops" "$tmp.out"; then echo "FAIL: wddm soak --quiet shows progress"; fail=1; fi
    timeout 60 script -qc "'$W' bench quick W3 2>&1 >/dev/null" /dev/null >"$tmp.out"
    grep -q "wddm bench: running W3" "$tmp.out" || { echo "FAIL: wddm bench on a terminal shows no progress"; fail=1; }
    timeout 60 script -qc "'$W' bench --quiet quick W3 2>&1 >/dev/null" /dev/null >"$tmp.out"
    if grep -q "running" "$tmp.out"; then echo "FAIL: wddm bench --quiet shows progress"; fail=1; fi
else
    echo "FAIL: script(1) (bsdutils) is missing: the terminal cases cannot run"; fail=1
fi
timeout 60 "$W" soak 5000 2>"$tmp.err" >/dev/null
if grep -q " of 5000 ops" "$tmp.err"; then echo "FAIL: wddm soak shows progress on a pipe"; fail=1; fi

# info --summary names the caps that differ from the KMD's defaults (issue 18 §2), and only those.
"$W" info --summary >"$tmp.out" 2>&1
grep -q "caps: the KMD's defaults" "$tmp.out" || { echo "FAIL: wddm info --summary without a caps file"; fail=1; }
printf 'DXGK_VIDMMCAPS.OutOfOrderLock = 1\n' >"$tmp.caps"
"$W" info --summary --caps "$tmp.caps" >"$tmp.out" 2>&1
grep -q "DXGK_VIDMMCAPS.OutOfOrderLock = 0x1 (default 0x0)" "$tmp.out" ||
    { echo "FAIL: wddm info --summary does not name the changed cap"; fail=1; }
if [ "$(grep -c '(default ' "$tmp.out")" -ne 1 ]; then
    echo "FAIL: wddm info --summary names caps the file did not change"; fail=1
fi

rm -f "$tmp.out" "$tmp.err" "$tmp.caps"
if [ $fail -ne 0 ]; then exit 1; fi
echo "wddm command line: every rule holds"
