#!/usr/bin/env python3
"""gen_api.py - writes the application headers (include/), the runtime's not-implemented
answers (src/runtime/api_stubs.h), the IIDs (src/runtime/api_iids.c) and the list of what each
slot does (docs/api_surface.md) from the interface descriptions in api/.

Why generated: every interface of the Direct3D 10/11 and DXGI SDK headers must sit in the SDK's
slot order (a program built for Windows calls slot N, not a name), in C (lpVtbl + call macros)
and in C++ (abstract classes) at once, and every slot the reference stack does not execute must
still answer honestly (docs/api.md). One description per SDK header feeds all four outputs, so
they cannot disagree; tests/api/check_slots.py compares the result with the SDK's headers as
Debian's mingw-w64-common ships them.

The .api format (one file per SDK header):
    header <name>.h <one line that says what the header holds>
    include <other>.h                   an SDK header this one includes
    %{ ... %}                           C declarations copied as they are (types, functions)
    interface I<Name> : <Parent> {<iid>}
        <return type> <Method>(<parameters>);     the interface's own methods, in slot order
    end
A method's parameters are written as in the SDK (C++ form, without `This`).

Usage: scripts/gen_api.py [--check]   (--check: exit 1 if a generated file is out of date)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
API_DIR = os.path.join(ROOT, "api")


class Method:
    def __init__(self, ret, name, params):
        self.ret = ret
        self.name = name
        self.params = params          # list of "type name" strings, SDK spelling

    def arg_names(self):
        names = []
        for p in self.params:
            m = re.search(r"(\w+)\s*(\[[^\]]*\])*$", p)
            if not m:
                raise ValueError("cannot name parameter %r of %s" % (p, self.name))
            names.append(m.group(1))
        return names


class Interface:
    def __init__(self, name, parent, iid, where):
        self.name = name
        self.parent = parent
        self.iid = iid
        self.methods = []
        self.where = where


def split_params(text):
    text = text.strip()
    if not text or text == "void":
        return []
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return out


def parse(path):
    """Returns (header, description, includes, items) with items = [("c", text) | ("i", Interface)]."""
    header = desc = None
    includes, items = [], []
    lines = open(path).read().split("\n")
    i = 0
    iface = None
    while i < len(lines):
        line = lines[i]
        where = "%s:%d" % (os.path.relpath(path, ROOT), i + 1)
        i += 1
        s = line.strip()
        if iface is not None:
            if s == "end":
                items.append(("i", iface))
                iface = None
                continue
            if not s or s.startswith("//"):
                continue
            # A method may span lines: gather to the closing ");".
            while not s.endswith(");"):
                if i >= len(lines):
                    raise SystemExit("%s: method without ');'" % where)
                s += " " + lines[i].strip()
                i += 1
            m = re.match(r"^(.+?)\s*\b(\w+)\((.*)\);$", s)
            if not m:
                raise SystemExit("%s: not a method: %s" % (where, s))
            iface.methods.append(Method(m.group(1).strip(), m.group(2), split_params(m.group(3))))
            continue
        if not s or s.startswith("//"):
            continue
        if s.startswith("header "):
            _, header, desc = s.split(" ", 2)
        elif s.startswith("include "):
            includes.append(s.split()[1])
        elif s == "%{":
            block = []
            while lines[i].strip() != "%}":
                block.append(lines[i])
                i += 1
                if i >= len(lines):
                    raise SystemExit("%s: '%%{' without '%%}'" % where)
            i += 1
            items.append(("c", "\n".join(block)))
        elif s.startswith("interface "):
            m = re.match(r"^interface (\w+)(?: : (\w+))? \{([0-9a-fA-F-]{36})\}$", s)
            if not m:
                raise SystemExit("%s: bad interface line: %s" % (where, s))
            iface = Interface(m.group(1), m.group(2), m.group(3).lower(), where)
        else:
            raise SystemExit("%s: unexpected line: %s" % (where, s))
    if header is None:
        raise SystemExit("%s: no 'header' line" % path)
    return header, desc, includes, items


def load_all():
    files = sorted(f for f in os.listdir(API_DIR) if f.endswith(".api"))
    parsed = [parse(os.path.join(API_DIR, f)) for f in files]
    by_name = {}
    for _, _, _, items in parsed:
        for kind, it in items:
            if kind == "i":
                if it.name in by_name:
                    raise SystemExit("%s: %s described twice" % (it.where, it.name))
                by_name[it.name] = it
    return parsed, by_name


def chain(iface, by_name):
    """The interface and its ancestors, root first."""
    out = []
    while iface is not None:
        out.insert(0, iface)
        iface = by_name[iface.parent] if iface.parent else None
    return out


def iid_initializer(iid):
    p = iid.split("-")
    d4 = p[3] + p[4]
    return "{ 0x%s, 0x%s, 0x%s, { %s } }" % (
        p[0], p[1], p[2], ", ".join("0x" + d4[k:k + 2] for k in range(0, 16, 2)))


def c_slot(m, this_type):
    params = ["%s *This" % this_type] + m.params
    return "    %s (STDMETHODCALLTYPE *%s)(%s);" % (m.ret, m.name, ", ".join(params))


def emit_interface(it, by_name):
    out = []
    slots = [(a, m) for a in chain(it, by_name) for m in a.methods]
    out.append("/* ---- %s%s (%d slots) %s */" % (
        it.name, " : " + it.parent if it.parent else "", len(slots), "-" * max(0, 70 - len(it.name))))
    out.append("extern const IID IID_%s;" % it.name)
    out.append("#if defined(__cplusplus) && !defined(CINTERFACE)")
    out.append("struct %s%s {" % (it.name, " : public " + it.parent if it.parent else ""))
    for m in it.methods:
        out.append("    virtual %s STDMETHODCALLTYPE %s(%s) = 0;" % (m.ret, m.name, ", ".join(m.params)))
    out.append("};")
    out.append("#else")
    out.append("struct %sVtbl {" % it.name)
    owner = None
    for a, m in slots:
        if a is not owner:
            out.append("    /* %s */" % a.name)
            owner = a
        out.append(c_slot(m, it.name))
    out.append("};")
    out.append("struct %s { const struct %sVtbl *lpVtbl; };" % (it.name, it.name))
    for _, m in slots:
        args = ["This"] + m.arg_names()
        out.append("#define %s_%s(%s) ((This)->lpVtbl->%s(%s))" % (
            it.name, m.name, ",".join(args), m.name, ",".join(args)))
    out.append("#endif")
    out.append("")
    return "\n".join(out)


def emit_header(header, desc, includes, items, by_name):
    guard = "LIBWDDM_" + re.sub(r"\W", "_", header.upper())
    ifaces = [it for kind, it in items if kind == "i"]
    out = ["/*",
           " * %s - %s" % (header, desc),
           " *",
           " * Generated by scripts/gen_api.py from api/%s: edit that file, not this one." % header.replace(".h", ".api"),
           " * Names, values and slot order are the SDK's; C (lpVtbl, call macros) and C++ (abstract",
           " * classes, unless CINTERFACE is defined) share one binary layout (docs/api.md).",
           " */",
           "#ifndef %s" % guard, "#define %s" % guard, ""]
    for inc in includes:
        out.append('#include "%s"' % inc)
    out += ["", "#ifdef __cplusplus", 'extern "C" {', "#endif", ""]
    if ifaces:
        for it in ifaces:
            out.append("typedef struct %s %s;" % (it.name, it.name))
        out.append("#if !defined(__cplusplus) || defined(CINTERFACE)")
        for it in ifaces:
            out.append("typedef struct %sVtbl %sVtbl;" % (it.name, it.name))
        out.append("#endif")
        out.append("")
    for kind, it in items:
        if kind == "c":
            out.append(it.strip("\n"))
            out.append("")
        else:
            out.append(emit_interface(it, by_name))
    out += ["#ifdef __cplusplus", "}", "#endif", ""]
    if ifaces:
        # __uuidof(I) names an interface's IID in C++ (the SDK's compilers provide it as a
        # keyword; elsewhere the SDK headers define it over a template, as here).
        out += ["#if defined(__cplusplus) && !defined(CINTERFACE)", 'extern "C++" {']
        for it in ifaces:
            out.append("template<> inline const IID &wddm_uuidof<%s>() { return IID_%s; }" % (it.name, it.name))
        out += ["}", "#endif", ""]
    out += ["#endif /* %s */" % guard, ""]
    return "\n".join(out)


def stub_body(it, m):
    what = '"%s::%s"' % (it.name, m.name)
    if m.ret == "HRESULT":
        return "return rt_api_not_implemented(%s);" % what
    if m.ret == "void":
        return "rt_api_not_implemented(%s);" % what
    return "rt_api_not_implemented(%s); return (%s)0;" % (what, m.ret)


def emit_stubs(parsed, by_name):
    out = ["/*",
           " * api_stubs.h - every interface slot's not-implemented answer (docs/api.md).",
           " *",
           " * Generated by scripts/gen_api.py from the api/ descriptions: do not edit.",
           " * RT_API_STUBS_<I> initialises every slot of I's vtable with a function that answers",
           " * E_NOTIMPL (an HRESULT method), 0 (a value) or nothing (void), and records the call",
           " * through rt_api_not_implemented; a vtable lists it first and then names the methods the",
           " * runtime implements, which override those slots. Unused stubs cost nothing (static inline).",
           " */",
           "#ifndef WDDM_RUNTIME_API_STUBS_H", "#define WDDM_RUNTIME_API_STUBS_H", ""]
    for header, _, _, _ in parsed:
        out.append('#include "%s"' % header)
    out += ["", "HRESULT rt_api_not_implemented(const char *method);", ""]
    for header, _, _, items in parsed:
        for kind, it in items:
            if kind != "i":
                continue
            slots = [(a, m) for a in chain(it, by_name) for m in a.methods]
            inits = []
            for a, m in slots:
                fn = "rt_stub_%s_%s" % (it.name, m.name)
                params = ["%s *This" % it.name] + m.params
                out.append("static inline %s STDMETHODCALLTYPE %s(%s) { %s }" % (
                    m.ret, fn, ", ".join(params), stub_body(a, m)))
                inits.append(".%s = %s" % (m.name, fn))
            out.append("#define RT_API_STUBS_%s \\\n    %s" % (it.name, ", \\\n    ".join(inits)))
            if it.parent and it.methods:
                # An object whose vtable extends its parent's (ID3D11DeviceContext1 over
                # ID3D11DeviceContext) lays the parent's vtable and this "own" part side by side,
                # each slot typed for the interface that declares it.
                out.append("struct rt_own_%s {" % it.name)
                out += [c_slot(m, it.name) for m in it.methods]
                out.append("};")
                out.append("_Static_assert(sizeof(struct %sVtbl) + sizeof(struct rt_own_%s) == sizeof(struct %sVtbl), "
                           "\"%s's own slots follow %s's\");" % (it.parent, it.name, it.name, it.name, it.parent))
                out.append("#define RT_API_OWN_STUBS_%s \\\n    %s" % (
                    it.name, ", \\\n    ".join(".%s = rt_stub_%s_%s" % (m.name, it.name, m.name) for m in it.methods)))
            out.append("")
    out += ["#endif /* WDDM_RUNTIME_API_STUBS_H */", ""]
    return "\n".join(out)


def emit_iids(parsed):
    out = ["/*",
           " * api_iids.c - every interface's identifier (the SDK's values).",
           " *",
           " * Generated by scripts/gen_api.py from the api/ descriptions: do not edit.",
           " */"]
    for header, _, _, _ in parsed:
        out.append('#include "%s"' % header)
    out.append("")
    for _, _, _, items in parsed:
        for kind, it in items:
            if kind == "i":
                out.append("const IID IID_%s = %s;" % (it.name, iid_initializer(it.iid)))
    out.append("")
    return "\n".join(out)


def runtime_vtables():
    """{interface: set of slots a runtime vtable names} from src/runtime/*.c (RT_API_STUBS_<I>
    first, then `.Method = function` for each slot the runtime implements), and the interfaces
    whose own slots extend a parent's vtable in the same object (RT_API_OWN_STUBS_<I>)."""
    found, own = {}, set()
    src = os.path.join(ROOT, "src", "runtime")
    # The slot-naming macros of the runtime's files (RT_PRIVATE_DATA_SLOTS, RT_CONTEXT1_SLOTS ...):
    # the slots each names, with those of the macros it uses, so a vtable that uses one counts them.
    macros, uses = {}, {}
    for f in sorted(os.listdir(src)):
        if f.endswith((".c", ".h")):
            for m in re.finditer(r"#define (RT_\w*_SLOTS)\b(?:\([^)]*\))?((?:[^\n]*\\\n)*[^\n]*)",
                                 open(os.path.join(src, f)).read()):
                macros[m.group(1)] = set(re.findall(r"\.(\w+)\s*=", m.group(2)))
                uses[m.group(1)] = set(re.findall(r"\b(RT_\w*_SLOTS)\b", m.group(2)))
    for name in macros:
        for used in uses[name]:
            macros[name] |= macros.get(used, set())
    for f in sorted(os.listdir(src)):
        if not f.endswith(".c"):
            continue
        text = open(os.path.join(src, f)).read()
        # An initialiser runs from its stubs to its closing brace (no braces nest inside one).
        for m in re.finditer(r"RT_API_(OWN_)?STUBS_(\w+)\s*,?(.*?)\}", text, re.S):
            slots = found.setdefault(m.group(2), set())
            slots.update(re.findall(r"\.(\w+)\s*=", m.group(3)))
            for name in re.findall(r"\b(RT_\w*_SLOTS)\b", m.group(3)):
                slots |= macros.get(name, set())
            if m.group(1):
                own.add(m.group(2))
    return found, own


def emit_surface(parsed, by_name):
    implemented, own = runtime_vtables()

    def inherit(name):   # the parent's slots are the same object's, up the chain of own parts
        parent = by_name[name].parent
        if parent in own:
            inherit(parent)
        implemented[name] |= implemented.get(parent, set())
    for name in sorted(own):
        inherit(name)
    out = ["# The API surface: what each interface slot does",
           "",
           "Generated by scripts/gen_api.py from api/ and the runtime's vtables (src/runtime/): do not",
           "edit; `api.generated` fails when it is out of date. docs/api.md explains the rules.",
           "",
           "Every interface below exists in its header with all of the SDK's slots, in the SDK's order.",
           "A slot is either **implemented** (the runtime names a function for it) or **not implemented**:",
           "an HRESULT method answers `E_NOTIMPL`, a void method does nothing, a value method answers 0;",
           "with `WDDM_DEBUG=1` each call prints one line naming the method. An interface with no runtime",
           "vtable has no object yet: nothing hands one out.",
           ""]
    total = done = 0
    for header, _, _, items in parsed:
        ifaces = [it for kind, it in items if kind == "i"]
        if not ifaces:
            continue
        out += ["## %s" % header, ""]
        for it in ifaces:
            slots = [m.name for a in chain(it, by_name) for m in a.methods]
            total += len(slots)
            if it.name not in implemented:
                out.append("- **%s** (%d slots): no object yet." % (it.name, len(slots)))
                continue
            have = [s for s in slots if s in implemented[it.name]]
            done += len(have)
            missing = [s for s in slots if s not in implemented[it.name]]
            out.append("- **%s** (%d slots, %d implemented): %s." % (it.name, len(slots), len(have), ", ".join(have)))
            if missing:
                out.append("  Not implemented: %s." % ", ".join(missing))
        out.append("")
    out += ["%d slots in all; %d implemented on the objects the runtime creates." % (total, done), ""]
    return "\n".join(out)


def outputs():
    parsed, by_name = load_all()
    files = {}
    for header, desc, includes, items in parsed:
        files[os.path.join("include", header)] = emit_header(header, desc, includes, items, by_name)
    files[os.path.join("src", "runtime", "api_stubs.h")] = emit_stubs(parsed, by_name)
    files[os.path.join("src", "runtime", "api_iids.c")] = emit_iids(parsed)
    files[os.path.join("docs", "api_surface.md")] = emit_surface(parsed, by_name)
    return files


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for rel, text in outputs().items():
        path = os.path.join(ROOT, rel)
        old = open(path).read() if os.path.exists(path) else None
        if old == text:
            continue
        if check:
            stale.append(rel)
        else:
            with open(path, "w") as f:
                f.write(text)
            print("gen_api: wrote", rel)
    if stale:
        print("gen_api: out of date (run scripts/gen_api.py):", " ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
