#!/usr/bin/env python3
"""gen_exports.py - writes cmake/libwddm.map, the linker version script of libwddm.so, from the
public headers (issue 16 §3: the build enforces the layers).

libwddm.so exports exactly the public API: every function and every extern object that a header
under include/ (include/*.h and include/wddm/*.h) declares at file scope - the Direct3D 10/11 and
DXGI entry points, the IIDs and debug GUIDs, the D3DKMT thunks, the kernel's DxgkInitialize and
WddmInterruptLineRaise (d3dkmddi.h), the reference UMD's OpenAdapter10/10_2/11 and the reference
KMD's SwKmdDriverEntry, the wddm_* controls of wddm.h and swgpu.h, the event calls of
winevent.h; not wddm/wdm.h, whose WDK services are libwddm_displib.a's. Everything else
(runtime, UMD, dxgkrnl, VidMm, scheduler, KMD and software GPU internals, helpers named wddm_*
included) is `local: *;` (docs/install.md, "What libwddm.so exports"). Programs that need an internal (the tests, tools/wddm) link wddm_static instead.

How the declarations are found: the C compiler's preprocessor expands every public header in one
translation unit (C, so extern "C++" helpers drop out); the file-scope statements that came from a
file under include/ are then read: a statement that is not a typedef, not static or inline, and
has no body declares a function (the name before its first top-level parenthesis) or, with
`extern`, an object (its last name). tests/structure/exports.py compares the same list with
`nm -D --defined-only libwddm.so`.

Usage: scripts/gen_exports.py [--check | --list]
  --check  exit 1 if cmake/libwddm.map is out of date
  --list   print the exported names, one a line
Environment: CC (default cc) is the preprocessor used.
"""
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE = os.path.join(ROOT, "include")
MAP = os.path.join(ROOT, "cmake", "libwddm.map")

TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|[A-Za-z_]\w*|\d\w*|\S')
SKIP_WORDS = {"typedef", "static", "inline", "__inline", "__inline__", "_Static_assert",
              "static_assert"}


# Public headers whose functions libwddm.so does not define: wddm/wdm.h declares the WDK
# services of libwddm_displib.a, which a KMD module links (docs/drivers.md "WDK services for
# driver code").
NOT_LIBWDDM = {os.path.join("wddm", "wdm.h")}


def public_headers():
    found = []
    for sub in ("", "wddm"):
        folder = os.path.join(INCLUDE, sub)
        found += sorted(os.path.join(sub, f) if sub else f
                        for f in os.listdir(folder) if f.endswith(".h"))
    return [h for h in found if h not in NOT_LIBWDDM]


def preprocess(headers):
    cc = shlex.split(os.environ.get("CC") or "cc")
    source = "".join('#include "%s"\n' % h for h in headers)
    out = subprocess.run(cc + ["-E", "-x", "c", "-std=c17", "-I", INCLUDE, "-"],
                         input=source, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("gen_exports.py: preprocessing the public headers failed:\n" + out.stderr)
    return out.stdout


def public_tokens(text):
    """The tokens that came from a file under include/ (the line markers name each file)."""
    tokens = []
    inside = False
    include = os.path.realpath(INCLUDE) + os.sep
    for line in text.split("\n"):
        m = re.match(r'#\s*(?:line\s+)?\d+\s+"([^"]*)"', line)
        if m:
            inside = os.path.realpath(m.group(1)).startswith(include)
            continue
        if inside and not line.startswith("#"):
            tokens += TOKEN.findall(line)
    return tokens


def strip_attributes(stmt):
    """Drops __attribute__((...)), __declspec(...) and __asm__(...) from a statement."""
    out = []
    i = 0
    while i < len(stmt):
        if stmt[i] in ("__attribute__", "__declspec", "__asm__", "__asm", "asm") and \
                i + 1 < len(stmt) and stmt[i + 1] == "(":
            depth = 0
            i += 1
            while i < len(stmt):
                depth += {"(": 1, ")": -1}.get(stmt[i], 0)
                i += 1
                if depth == 0:
                    break
            continue
        out.append(stmt[i])
        i += 1
    return out


def statements(tokens):
    """File-scope statements: lists of tokens ending before `;`, or a function definition's
    tokens (body included, marked by '{'). `extern "C" {` blocks are transparent."""
    stmt = []
    depth = 0
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if depth == 0 and t == "extern" and i + 2 < len(tokens) and \
                tokens[i + 1].startswith('"') and tokens[i + 2] == "{":
            i += 3
            continue
        if depth == 0 and t == "}" and not stmt:      # end of an extern "C" block
            i += 1
            continue
        if t == "{":
            depth += 1
        stmt.append(t)
        if t == "}":
            depth -= 1
            if depth == 0 and "(" in stmt and stmt[stmt.index("{") - 1] == ")":
                yield stmt                            # a function definition (inline)
                stmt = []
        elif t == ";" and depth == 0:
            yield stmt[:-1]
            stmt = []
        i += 1
    if stmt:
        sys.exit("gen_exports.py: unterminated declaration at the end: %s" % " ".join(stmt))


def declared_name(stmt):
    """(kind, name) a file-scope declaration gives external linkage, or None."""
    stmt = strip_attributes(stmt)
    if not stmt or SKIP_WORDS & set(stmt) or "{" in stmt:
        return None
    if len(stmt) == 2 and stmt[0] in ("struct", "union", "enum"):
        return None                                   # a forward declaration
    if "(" in stmt:
        # A function declaration names itself just before its first parenthesis; a pointer
        # to a function (an object) reads `(` `*` name `)` there instead.
        k = stmt.index("(")
        if k > 0 and re.match(r"[A-Za-z_]\w*$", stmt[k - 1]) and "=" not in stmt[:k]:
            if "," in stmt[:k]:
                sys.exit("gen_exports.py: cannot read %s" % " ".join(stmt))
            return ("function", stmt[k - 1])
        sys.exit("gen_exports.py: cannot read %s" % " ".join(stmt))
    if stmt[0] != "extern":
        sys.exit("gen_exports.py: file-scope object without extern (a definition in a "
                 "header?): %s" % " ".join(stmt))
    head = stmt[:stmt.index("=")] if "=" in stmt else stmt
    head = head[:head.index("[")] if "[" in head else head
    if "," in head:
        sys.exit("gen_exports.py: cannot read %s" % " ".join(stmt))
    return ("object", head[-1])


def exported_names():
    names = set()
    for stmt in statements(public_tokens(preprocess(public_headers()))):
        found = declared_name(stmt)
        if found:
            names.add(found[1])
    return sorted(names)


def version_script(names):
    lines = ["/* Generated by scripts/gen_exports.py from the public headers (include/): do not",
             " * edit. libwddm.so exports exactly these names (docs/install.md, \"What libwddm.so",
             " * exports\"); tests/structure/exports.py checks the built library. */",
             "{", "  global:"]
    lines += ["    %s;" % n for n in names]
    lines += ["  local:", "    *;", "};", ""]
    return "\n".join(lines)


def main():
    args = sys.argv[1:]
    names = exported_names()
    if "--list" in args:
        print("\n".join(names))
        return 0
    text = version_script(names)
    old = open(MAP).read() if os.path.exists(MAP) else None
    if "--check" in args:
        if old != text:
            print("cmake/libwddm.map is out of date: run scripts/gen_exports.py")
            return 1
        return 0
    if old != text:
        with open(MAP, "w") as f:
            f.write(text)
        print("wrote cmake/libwddm.map (%d names)" % len(names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
