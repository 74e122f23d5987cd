#!/usr/bin/env python3
# rule: runtime.runtime-reaches-kernel-only-through (mutation-checked: a runtime call of the kernel's `dxgk_now_ns` is listed)
# rule: build.every-use-function-object-across-folders (mutation-checked: dropping `umd:api` from the runtime's row lists `OpenAdapter10`; a UMD call of `D3DKMTCloseAdapter` is listed; a debt line removed or made up is listed)
# rule: kernel.scheduler-needs-vidmm-both-need-deferred
# rule: sched.vidmm-asks-only-through-for-vidmm (mutation-checked: `gsched_wait_node_idle` declared in sched.h instead, with sched.h on VidMm's include path, is listed)
"""Issue 16 §3 (CTest `structure.layers`): every use of a function or object across folders goes
the way src/layers.txt allows. Reads the symbols of the built object files (`nm`): a defined
function or object belongs to its file's folder (src/umd, src/dxgkrnl/vidmm, tools/wddm ...);
an undefined name in another folder's file is an edge. An edge between layers must be listed in
the caller's "calls" column, and when listed as "layer:api" the name must be one libwddm.so
exports (the public API, scripts/gen_exports.py). A room listed as "room:header.h" may be used
only through what that header declares (and the public API). An edge between two rooms of the kernel must
follow the rooms' order, or be one of the edges still going the other way that
tests/structure/layer_debt.txt lists; a listed edge that no longer exists fails too, so the list
only shrinks.

Usage: layers.py OBJECT.o...   (the objects of libwddm's layers and of the wddm tool)"""
import collections
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import gen_exports  # noqa: E402

LAYERS = ROOT / "src" / "layers.txt"
DEBT = ROOT / "tests" / "structure" / "layer_debt.txt"


def read_rows():
    rows = {}
    for line in LAYERS.read_text().splitlines():
        if not re.match(r"[a-z]", line):
            continue
        name, _includes, calls = [f.strip() for f in line.split("|")]
        rows[name] = [c for c in calls.split() if c != "-"]
    return rows


def folder_of(obj):
    """src/dxgkrnl/vidmm/lock.c.o -> dxgkrnl/vidmm; src/dxgkrnl/verifier.c.o -> dxgkrnl/base;
    src/umd/map.c.o -> umd; the generated timeline page -> common; tools/wddm/x.c.o ->
    tools/wddm."""
    path = str(obj)
    if "/tools/wddm/" in path:
        return "tools/wddm"
    if "/generated/" in path:
        return "common"
    parts = path.split("/src/", 1)[1].split("/")
    if parts[0] == "dxgkrnl":
        return "dxgkrnl/" + (parts[1] if len(parts) > 2 else "base")
    return parts[0]


def symbols(objects):
    defined, used = {}, collections.defaultdict(set)
    for obj in objects:
        folder = folder_of(obj)
        out = subprocess.run(["nm", obj], capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit("nm failed on %s: %s" % (obj, out.stderr))
        for line in out.stdout.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBRCVW":
                defined[parts[2]] = folder
            elif len(parts) == 2 and parts[0] == "U":
                used[folder].add(parts[1])
    return defined, used


def header_text(folder, entry):
    return (ROOT / "src" / folder / entry.split(":", 1)[1]).read_text()


def layer(folder):
    return folder if folder == "tools/wddm" else folder.split("/")[0]


def allowed(rows, public, caller, callee, name):
    """None if the edge is allowed, else why not."""
    if layer(caller) == layer(callee):
        if callee in rows.get(caller, []):
            return None
        for entry in rows.get(caller, []):
            if entry.startswith(callee + ":") and entry.endswith(".h"):
                # room:header: only what that header declares, or the public API.
                if name in public or re.search(r"\b%s\b" % re.escape(name), header_text(callee, entry)):
                    return None
                return "%s uses of %s only what %s declares" % (caller, callee, entry.split(":", 1)[1])
        return "%s may not use %s (the kernel's rooms, src/layers.txt)" % (caller, callee)
    calls = rows.get(layer(caller), [])
    target = layer(callee)
    if target in calls:
        return None
    if target + ":api" in calls:
        return None if name in public else "%s reaches %s only through its public API" % (
            layer(caller), target)
    return "%s may not use %s (src/layers.txt)" % (layer(caller), target)


def main():
    # CMake hands a generator expression's list over as one argument joined by ';'.
    objects = [o for arg in sys.argv[1:] for o in arg.split(";") if o]
    if not objects:
        print(__doc__)
        return 2
    rows = read_rows()
    public = set(gen_exports.exported_names())
    debt = set()
    for line in DEBT.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            caller, callee, name = line.split()
            debt.add((caller, callee, name))
    defined, used = symbols(objects)
    edges = collections.Counter()
    bad, seen_debt = [], set()
    for caller, names in sorted(used.items()):
        for name in sorted(names):
            callee = defined.get(name)
            if callee is None or callee == caller:
                continue
            edges[(caller, callee)] += 1
            why = allowed(rows, public, caller, callee, name)
            if why is None:
                continue
            if (caller, callee, name) in debt:
                seen_debt.add((caller, callee, name))
                continue
            bad.append("  %s -> %s: %s: %s" % (caller, callee, name, why))
    gone = sorted(debt - seen_debt)
    failed = False
    if bad:
        print("%d uses across folders that src/layers.txt does not allow:" % len(bad))
        print("\n".join(bad))
        failed = True
    if gone:
        print("%d edges of tests/structure/layer_debt.txt no longer exist (delete their lines):"
              % len(gone))
        print("".join("  %s %s %s\n" % g for g in gone), end="")
        failed = True
    if len({folder_of(o) for o in objects}) < 8:
        print("too few folders among the objects given: %s" % sorted({folder_of(o) for o in objects}))
        failed = True
    if not failed:
        print("every use across folders follows src/layers.txt (%d folder pairs, %d edges still "
              "listed in layer_debt.txt)" % (len(edges), len(debt)))
        for (caller, callee), count in sorted(edges.items()):
            print("  %-16s -> %-16s %3d" % (caller, callee, count))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
