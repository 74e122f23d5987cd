#!/usr/bin/env python3
# rule: build.libwddm-so-exports-exactly-public-api (mutation-checked: without `local: *;` 681 extra names are listed and it fails; `D3D11CreateDevice` dropped from the map is listed as missing; `gsched_trace` renamed back to sched_trace is listed as reserved)
# rule: build.software-gpu-installed-hardware-out-tree
# rule: build.services-libwddm-displib-kmd-modules
"""Issue 16 §3 (CTest `structure.exports`): libwddm.so exports exactly the public API - the
functions and extern objects the headers under include/ declare (scripts/gen_exports.py reads
them) - and nothing else: no runtime, UMD, dxgkrnl, VidMm, scheduler, KMD or software GPU
internal, no internal wddm_* helper. Compares `nm -D --defined-only` of the built library with
the headers' declarations and prints the extra and the missing names; also fails if
cmake/libwddm.map (the version script the link uses) is out of date.

Given the static archive too, also fails on any function or object the library defines (global
or file-scope, from `nm --defined-only libwddm.a`) whose name takes a prefix C or POSIX reserves
for the implementation: sched_ (<sched.h>; the GPU scheduler's functions are gsched_*), str/mem/
wcs/is/to + a lowercase letter, _ + a capital or a second _, E + a capital or digit, posix_,
pthread_, sem_, shm_, mq_, aio_, lio_, timer_, clock_, atomic_, cnd_, mtx_, thrd_, tss_.

Usage: exports.py path/to/libwddm.so [path/to/libwddm.a]"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import gen_exports  # noqa: E402


def library_exports(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("nm failed on %s: %s" % (lib, out.stderr))
    names = set()
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        kind, name = parts[-2], parts[-1].split("@")[0]
        if kind == "A":           # a version node's own symbol, not code or data
            continue
        names.add(name)
    return names


RESERVED = re.compile(r"(sched_|str[a-z]|mem[a-z]|wcs[a-z]|is[a-z]|to[a-z]|_[A-Z_]|E[A-Z0-9]|"
                      r"posix_|pthread_|sem_|shm_|mq_|aio_|lio_|timer_|clock_|atomic_|cnd_|"
                      r"mtx_|thrd_|tss_)")


def reserved_names(archive):
    out = subprocess.run(["nm", "--defined-only", archive], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("nm failed on %s: %s" % (archive, out.stderr))
    names = set()
    for line in out.stdout.splitlines():
        parts = line.split()
        # Compiler-made names carry a dot (__func__.3); section symbols and the like are not
        # code or data kinds.
        if len(parts) == 3 and parts[1] in "TtDdBbRrVvWw" and "." not in parts[2]:
            if RESERVED.match(parts[2]):
                names.add(parts[2])
    return sorted(names)


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__)
        return 2
    expected = set(gen_exports.exported_names())
    have = library_exports(sys.argv[1])
    extra = sorted(have - expected)
    missing = sorted(expected - have)
    failed = False
    if extra:
        print("%d exported but not declared by a public header (make them static, or local: "
              "the version script cmake/libwddm.map):" % len(extra))
        print("".join("  %s\n" % n for n in extra), end="")
        failed = True
    if missing:
        print("%d declared by a public header but not exported (not defined, or missing from "
              "cmake/libwddm.map: run scripts/gen_exports.py):" % len(missing))
        print("".join("  %s\n" % n for n in missing), end="")
        failed = True
    map_text = gen_exports.version_script(sorted(expected))
    if pathlib.Path(gen_exports.MAP).read_text() != map_text:
        print("cmake/libwddm.map is out of date: run scripts/gen_exports.py")
        failed = True
    if len(sys.argv) == 3:
        reserved = reserved_names(sys.argv[2])
        if reserved:
            print("%d names of the library take a reserved prefix (rename them):" % len(reserved))
            print("".join("  %s\n" % n for n in reserved), end="")
            failed = True
    if not expected:
        print("no declarations found in the public headers")
        failed = True
    if not failed:
        print("libwddm.so exports exactly the %d public names" % len(expected))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
