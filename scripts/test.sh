#!/usr/bin/env bash
# The whole test suite (the README's second command, and what .ci/run runs):
#   0. first, the rules matrix and its citations (scripts/check_rules.py, issue 16 §5): one test,
#      failed by a docs/rules.md that scripts/rules.py would write differently from docs/rules/ and
#      the tests' `rule:` tags, a tag that names no rule, any cited test, test function, file or
#      function that does not exist, or a citation anywhere in the tree of a document the
#      repository does not ship (scripts/recite.py --check);
#   1. a plain build, every test;
#   2. AddressSanitizer + UndefinedBehaviorSanitizer (leaks included), every test;
#   3. ThreadSanitizer, every test (the stack is threaded end to end: GPU engines, scheduler);
# and after each, the end-to-end, UMD and conformance tests once more with the WDDM 2.x GpuMmu
# model (WDDM_KMD_CAPS=configs/gpummu.caps; issue 6: both models pass the same suite), once
# more with the IoMmu model (configs/iommu.caps), but for the tests
# tests/iommu_not_applicable.txt lists with the reason (local video memory, which it has none of),
# and once more with IOMMU-based GPU isolation (configs/isolation.caps: the GPU's physical
# accesses reach only the pages the kernel handed out for devices);
#   4. fuzz: clang, ASan+UBSan+libFuzzer (build-fuzz, -DWDDM_FUZZ=ON), every fuzz.<name> test:
# each harness fuzz/fuzz_<name>.c fuzzes a copy of fuzz/corpus/<name>/ for WDDM_FUZZ_SECONDS
# (README "Fuzzing").
# Prints one closing line "N passed, N failed" over all runs.
set -uo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh --test || exit 1

root=$(pwd)
passed=0
failed=0
count() { # log file: adds its ctest totals
  local log=$1 total fails
  total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
  fails=$(sed -n 's/.*, \([0-9]*\) tests failed out of.*/\1/p' "$log" | tail -1)
  [ -n "$total" ] || { failed=$((failed + 1)); return 1; }
  passed=$((passed + total - fails))
  failed=$((failed + fails))
}

run_model() { # build dir, name, caps file, what it is [, file of tests that do not apply]:
  # the e2e, umd and conformance tests with that caps file
  local dir=$1 name=$2 caps=$3 what=$4 skip='' log
  if [ $# -ge 5 ]; then skip=$(sed -n 's/^\([a-z0-9_.]*\) .*/\1/p' "$root/$5" | paste -sd'|'); fi
  echo "== tests: $name, $what ($caps${skip:+; not: $skip})"
  log=$(mktemp)
  (cd "$dir" && WDDM_KMD_CAPS="$root/$caps" ctest --output-on-failure -j2 -R '^(e2e|umd|conformance)\.' \
    ${skip:+-E "^($skip)\$"} 2>&1) | tee "$log"
  count "$log"
  rm -f "$log"
}

run_suite() { # name, extra cmake args...
  local name=$1; shift
  local dir=build-$name
  if [ "$name" = plain ]; then dir=build; else
    # A build that fails counts as one failure (and its tests do not run).
    { cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug "$@" >/dev/null &&
      cmake --build "$dir" -j"$(nproc)"; } || { failed=$((failed + 1)); return 1; }
  fi
  echo "== tests: $name"
  local log
  log=$(mktemp)
  (cd "$dir" && ctest --output-on-failure -j2 2>&1) | tee "$log"
  count "$log"
  rm -f "$log"
  run_model "$dir" "$name" configs/gpummu.caps "GpuMmu model"
  run_model "$dir" "$name" configs/iommu.caps "IoMmu model" tests/iommu_not_applicable.txt
  run_model "$dir" "$name" configs/isolation.caps "IOMMU-based GPU isolation"
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

run_fuzz() { # the fuzz.* tests, in their own clang build
  local dir=build-fuzz log
  # A build that fails counts as one failure.
  { CC=clang cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DWDDM_FUZZ=ON >/dev/null &&
    cmake --build "$dir" -j"$(nproc)" --target fuzzers; } || { failed=$((failed + 1)); return; }
  echo "== tests: fuzz"
  log=$(mktemp)
  (cd "$dir" && ctest --output-on-failure -j2 -R '^fuzz\.' 2>&1) | tee "$log"
  count "$log"
  rm -f "$log"
}

echo "== the rules matrix and its citations"
if python3 scripts/check_rules.py; then passed=$((passed + 1)); else failed=$((failed + 1)); fi

run_suite plain
run_suite asan -DWDDM_SANITIZE=address
run_suite tsan -DWDDM_SANITIZE=thread
run_fuzz

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
