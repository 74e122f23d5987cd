#!/usr/bin/env python3
# rule: build.every-interface-d3d11-h-d3d11-1 (`tests/api/check_slots.py`: text, C `offsetof`/`sizeof` static assertions, IID values, C++ abstract classes and `__uuidof`; mutation-checked: two `ID3D11Device` slots swapped fail it, one IID digit fails it)
# rule: build.every-struct-enum-sdk-headers-ours (mutation-checked: a renamed `D3D11_BUFFER_DESC` field fails it; it found `D3D11_FEATURE_DATA_D3D9_OPTIONS1`'s misspelt field, four missing `D3D11_FORMAT_SUPPORT` values and six `D3D11_FEATURE` values, now fixed)
# rule: build.dxgi-error-dxgi-status-codes-winerror
# rule: d3d10.id3d10debug-id3d10infoqueue-exist-only
# rule: debug.id3d10infoqueue-device-one-queue-through (mutation-checked: a D3D10 ID off by one fails it twice)
# rule: build.dxgidebug-h-sdk-types-guids-idxgidebug (mutation-checked: 41 slots, or `DXGI_DEBUG_APP` with mingw's 0x90, fail it)
"""check_slots.py - libwddm's application headers against the SDK's (issue 15 §2, docs/api.md).

A program built for Windows calls an interface method by its slot, so every interface of the
SDK headers listed below must exist in ours with every slot in the SDK's place, of the SDK's
type, under the SDK's IID. The SDK's answer is read from the headers Debian's mingw-w64-common
package ships (generated from IDL kept in step with Microsoft's SDK). Three checks:
  1. text: each vtable of ours against the SDK's: same interfaces, same slot names in the same
     order, same return and parameter types (parameter names may differ); and every struct both
     declare has the SDK's fields in order, every enum both declare the SDK's values (ours may
     add values of newer SDKs);
  2. C compiler: offsetof(I##Vtbl, Method) == slot * sizeof(void *) and sizeof(I##Vtbl), as
     the compiler lays our headers out, and every IID_I the library defines equals the SDK's;
  3. C++ compiler: every interface is an abstract class of one pointer with every method, and
     __uuidof(I) is IID_I.
Usage: check_slots.py SDK_INCLUDE_DIR OUR_INCLUDE_DIR LIBWDDM_A WORK_DIR CC CXX
"""
import os
import re
import subprocess
import sys

HEADERS = ["unknwn.h", "dxgi.h", "dxgi1_2.h", "dxgi1_3.h", "dxgi1_4.h", "d3d10.h", "d3d10_1.h",
           "d3d10sdklayers.h", "d3d11.h", "d3d11_1.h", "d3d11_2.h", "d3d11_3.h", "d3d11_4.h",
           "d3d11sdklayers.h", "dxgidebug.h"]
# Debian 12's mingw-w64 dxgidebug.h has IDXGIDebug, DXGI_DEBUG_RLO_FLAGS and the four DXGI GUIDs
# only: those are checked here; IDXGIInfoQueue and IDXGIDebug1 follow the SDK order recorded in
# api/dxgidebug.api (docs/api.md "The DXGI info queue"); their slot counts are SDK_SLOTS below.
SDK_SLOTS = {"IDXGIInfoQueue": 40, "IDXGIDebug1": 7}
# The producer GUIDs both sides declare are compared too, except where mingw-w64 differs from the
# "DXGI_DEBUG_ID" reference page: it spells DXGI_DEBUG_APP's fifth byte 0x90, the page 0x09.
GUID_FROM_DOCS = {"DXGI_DEBUG_APP": [0x06cd6e01, 0x4219, 0x4ebd, 0x87, 0x09, 0x27, 0xed, 0x23, 0x36, 0x0c, 0x62]}
# Enumerators whose value the current SDK changed after the version mingw-w64 follows: the first
# Windows 10 SDK's d3d11_3.h said D3D11_FENCE_FLAG_NONE = 0x1, later ones (and ours) say 0.
SDK_ENUM_VALUES = {"D3D11_FENCE_FLAG": {"D3D11_FENCE_FLAG_NONE": 0}}
OURS_FOR = {"unknwn.h": "d3dcommon.h"}       # the SDK keeps IUnknown in unknwn.h, we in d3dcommon.h
ONLY = {"unknwn.h": {"IUnknown"}}             # unknwn.h's other interfaces are COM's, not D3D's


def normalise_type(param):
    """A parameter's type without its name: 'const D3D11_BOX *pBox' -> 'const D3D11_BOX *'."""
    p = " ".join(param.replace("WINBOOL", "BOOL").split())
    p = re.sub(r"\[[^\]]*\]$", "[]", p)
    m = re.match(r"^(.*?[\s*&])(\w+)(\[\])?$", p)
    if m and m.group(1).strip():
        p = m.group(1) + (m.group(3) or "")
    return re.sub(r"\s*\*\s*", "*", p).replace(" []", "[]").strip()


def vtables(text):
    """{interface: [(slot name, return type, [parameter types])]} from C vtable definitions."""
    out = {}
    for m in re.finditer(r"struct (\w+)Vtbl \{(.*?)\n\}", text, re.S):
        slots = []
        body = re.sub(r"/\*.*?\*/", "", m.group(2), flags=re.S)
        for s in re.finditer(r"([\w ]+?)\s*\(STDMETHODCALLTYPE \*(\w+)\)\((.*?)\);", body, re.S):
            params = [x.strip() for x in " ".join(s.group(3).split()).split(",")][1:]   # drop This
            slots.append((s.group(2), s.group(1).strip().replace("WINBOOL", "BOOL"),
                          [normalise_type(p) for p in params]))
        out[m.group(1)] = slots
    return out


def clean(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"__C89_NAMELESS(UNION|STRUCT)NAME\d*|__C89_NAMELESS", "", text)
    return text.replace("WINBOOL", "BOOL")


def types(text):
    """({struct: [fields]}, {enum: {name: value}}) of typedef'd structs and enums."""
    text = clean(text)
    structs, enums = {}, {}
    for m in re.finditer(r"typedef (struct|union) \w*\s*\{(.*?)^\}\s*(\w+)\s*;", text, re.S | re.M):
        fields = [" ".join(f.split()) for f in m.group(2).split(";") if f.strip()]
        structs[m.group(3)] = [re.sub(r"\s*([*,:\[\]{}])\s*", r"\1", f) for f in fields]
    for m in re.finditer(r"typedef enum \w*\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
        values = {}
        for item in m.group(1).split(","):
            if "=" in item:
                k, v = item.split("=", 1)
                values[k.strip()] = " ".join(v.split())
        enums[m.group(2)] = values
    return structs, enums


def number(v):
    """An enumerator's value as an integer when it is a literal (a U or L suffix allowed), else its
    text (an expression of other enumerators, compared by neither side)."""
    try:
        return int(re.sub(r"[uUlL]+$", "", v), 0)
    except ValueError:
        return v


def sdk_iids(text):
    iids = {}
    for m in re.finditer(r"DEFINE_GUID\(IID_(\w+),\s*([^)]*)\)", text):
        iids[m.group(1)] = [int(x, 16) for x in m.group(2).replace(" ", "").split(",")]
    return iids


def sdk_guids(text):
    """The non-interface GUIDs the SDK header defines (DXGI_DEBUG_*)."""
    out = {}
    for m in re.finditer(r"DEFINE_GUID\((DXGI_DEBUG_\w+),\s*([^)]*)\)", text):
        out[m.group(1)] = [int(x, 16) for x in m.group(2).replace(" ", "").split(",")]
    return out


def build_and_run(compiler, std, path, lines, our_dir, lib, what):
    """Writes the program, builds it against our headers and the library, runs it: its errors."""
    open(path, "w").write("\n".join(lines) + "\n")
    exe = os.path.splitext(path)[0] + ("_cxx" if path.endswith(".cpp") else "")
    r = subprocess.run([compiler, "-std=" + std, "-Wall", "-Wextra", "-Werror", "-I", our_dir, path, lib,
                        "-lpthread", "-lm", "-o", exe], capture_output=True, text=True)
    if r.returncode:
        return ["%s does not compile:\n%s" % (what, r.stderr[-4000:])]
    r = subprocess.run([exe], capture_output=True, text=True)
    return [r.stdout.strip()] if r.returncode else []


def main():
    sdk_dir, our_dir, lib, work, cc, cxx = sys.argv[1:7]
    os.makedirs(work, exist_ok=True)
    errors = []
    expected, iids, guids = {}, {}, {}
    ours = {}
    for h in HEADERS:
        sdk_text = open(os.path.join(sdk_dir, h)).read()
        tables = vtables(sdk_text)
        keep = ONLY.get(h)
        for name, slots in tables.items():
            if keep is None or name in keep:
                expected[name] = slots
        iids.update(sdk_iids(sdk_text))
        guids.update(sdk_guids(sdk_text))
        ours.update(vtables(open(os.path.join(our_dir, OURS_FOR.get(h, h))).read()))

    # 1. text
    for name, slots in expected.items():
        if name not in ours:
            errors.append("%s: missing (the SDK declares it)" % name)
            continue
        mine = ours[name]
        for i, slot in enumerate(slots):
            if i >= len(mine):
                errors.append("%s: slot %d %s missing" % (name, i, slot[0]))
            elif mine[i][0] != slot[0]:
                errors.append("%s: slot %d is %s, the SDK's is %s" % (name, i, mine[i][0], slot[0]))
            elif mine[i][1:] != slot[1:]:
                errors.append("%s::%s: type %s(%s), the SDK's %s(%s)" % (
                    name, slot[0], mine[i][1], ", ".join(mine[i][2]), slot[1], ", ".join(slot[2])))
        if len(mine) > len(slots):
            errors.append("%s: %d slots, the SDK's has %d" % (name, len(mine), len(slots)))
        if name not in iids:
            errors.append("%s: no IID in the SDK's headers" % name)

    # 1b. the types both sides declare: a struct's fields, an enum's SDK values (ours may add)
    sdk_structs, sdk_enums, our_structs, our_enums = {}, {}, {}, {}
    for h in HEADERS[1:]:
        s, e = types(open(os.path.join(sdk_dir, h)).read())
        sdk_structs.update(s)
        sdk_enums.update(e)
    for h in set(OURS_FOR.get(h, h) for h in HEADERS) | {"dxgiformat.h"}:
        s, e = types(open(os.path.join(our_dir, h)).read())
        our_structs.update(s)
        our_enums.update(e)
    # 1c. the debug layer's enums: every D3D10 value is its D3D11 namesake's, which lets the
    # runtime keep one message store behind ID3D10InfoQueue and ID3D11InfoQueue (docs/api.md)
    for kind in ("CATEGORY", "SEVERITY", "ID"):
        d3d11 = our_enums.get("D3D11_MESSAGE_" + kind, {})
        for k, v in our_enums.get("D3D10_MESSAGE_" + kind, {}).items():
            twin = "D3D11" + k[len("D3D10"):]
            if twin not in d3d11 or number(d3d11[twin]) != number(v):
                errors.append("D3D10_MESSAGE_%s: %s = %s, but %s is %s" % (kind, k, v, twin, d3d11.get(twin)))
    compared = 0
    for name in sorted(set(sdk_structs) & set(our_structs)):
        compared += 1
        if sdk_structs[name] != our_structs[name]:
            errors.append("%s: fields %s, the SDK's %s" % (name, our_structs[name], sdk_structs[name]))
    for name in sorted(set(sdk_enums) & set(our_enums)):
        compared += 1
        for k, v in sdk_enums[name].items():
            v = str(SDK_ENUM_VALUES.get(name, {}).get(k, v))
            mine = our_enums[name].get(k)
            if mine is None:
                errors.append("%s: %s missing" % (name, k))
            elif number(mine) != number(v) and not (isinstance(number(v), str) or isinstance(number(mine), str)):
                errors.append("%s: %s = %s, the SDK's %s" % (name, k, mine, v))

    # 2. the C compiler's layout and the library's IIDs
    includes = "".join('#include "%s"\n' % OURS_FOR.get(h, h) for h in HEADERS)
    c = ["#include <stddef.h>", "#include <stdio.h>", "#include <string.h>", includes]
    c.append("#define SLOT(I, M, N) _Static_assert(offsetof(struct I##Vtbl, M) == (N) * sizeof(void *), "
             "#I \"::\" #M \" is not slot \" #N);")
    c.append("#define SLOTS(I, N) _Static_assert(sizeof(struct I##Vtbl) == (N) * sizeof(void *), "
             "#I \" does not have \" #N \" slots\");")
    for name, slots in sorted(expected.items()):
        if name in ours:
            c.append("SLOTS(%s, %d)" % (name, len(slots)))
            c += ["SLOT(%s, %s, %d)" % (name, s[0], i) for i, s in enumerate(slots)]
    for name, n in sorted(SDK_SLOTS.items()):
        c.append("SLOTS(%s, %d)" % (name, n))
    c.append("static int bad;")
    c.append("static void iid(const IID *got, const char *name, unsigned a, unsigned b, unsigned c_, "
             "const unsigned char d[8])")
    c.append("{ IID want = { a, (UINT16)b, (UINT16)c_, { d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7] } };"
             "  if (memcmp(got, &want, sizeof(want))) { printf(\"IID_%s differs from the SDK's\\n\", name); bad = 1; } }")
    c.append("int main(void)\n{")
    for name in sorted(expected):
        if name in ours and name in iids:
            v = iids[name]
            c.append("    iid(&IID_%s, \"%s\", 0x%x, 0x%x, 0x%x, (const unsigned char[8]){ %s });" % (
                name, name, v[0], v[1], v[2], ", ".join("0x%x" % x for x in v[3:])))
    guids.update(GUID_FROM_DOCS)
    for name in sorted(guids):
        v = guids[name]
        c.append("    iid(&%s, \"%s\", 0x%x, 0x%x, 0x%x, (const unsigned char[8]){ %s });" % (
            name, name, v[0], v[1], v[2],
            ", ".join("0x%x" % x for x in v[3:])))
    c.append("    return bad;\n}")
    errors += build_and_run(cc, "c17", os.path.join(work, "slots.c"), c, our_dir, lib, "C layout check")

    # 3. C++: abstract classes of one vtable pointer, every method, __uuidof
    cpp = ["#include <cstdio>", "#include <cstring>", "#include <type_traits>", includes, "int main()\n{",
           "    int bad = 0;"]
    for name, slots in sorted(expected.items()):
        if name not in ours:
            continue
        cpp.append("    static_assert(std::is_abstract<%s>::value && sizeof(%s) == sizeof(void *), \"%s\");"
                   % (name, name, name))
        cpp += ["    (void)&%s::%s;" % (name, s[0]) for s in slots]
        cpp.append("    if (&__uuidof(%s) != &IID_%s) { std::printf(\"__uuidof(%s) is not IID_%s\\n\"); bad = 1; }"
                   % (name, name, name, name))
    cpp.append("    return bad;\n}")
    errors += build_and_run(cxx, "c++17", os.path.join(work, "slots.cpp"), cpp, our_dir, lib, "C++ check")

    total = sum(len(s) for s in expected.values())
    if errors:
        print("\n".join(errors))
        print("check_slots: %d problem(s) over %d interfaces, %d slots" % (len(errors), len(expected), total))
        return 1
    print("check_slots: %d interfaces, %d slots and their IIDs are the SDK's (C and C++); %d types compared"
          % (len(expected), total, compared))
    return 0


if __name__ == "__main__":
    sys.exit(main())
