#!/usr/bin/env python3
"""Issue 16 §5 ("docs that stay true"): fails on a stale rules matrix and on every dead citation.

Usage: scripts/check_rules.py [path/to/rules.md]   (default: docs/rules.md of this tree)
Python 3 standard library only; run first by scripts/test.sh (CI). Three checks, each printing
its problems and a summary line; exits 1 if any found one, 0 otherwise:
1. `scripts/rules.py --check`: the rules (docs/rules/<subsystem>.md) are well formed, every
   `rule:` tag in the tests names one, and docs/rules.md is what the script writes from them.
2. The citations of docs/rules.md (below): one line per dead one,
    docs/rules.md:<line>: `<citation>`: <what is missing>
   with a summary (citations checked, dead ones, rows that say "no test yet").
3. `scripts/recite.py --check`: every citation in the tree names a document the repository
   ships, and every `docs/semantics.md §N` exists.

A citation is text in backticks, or, outside backticks, a bare test name (`e2e.test_x`) or
source file name (`gpuva.c`). What is checked:

* Test citations `<layer>.<name>`, anywhere in the file (tables, lists, prose): the CTest test
  must exist. `<layer>.test_<x>` is the test CMakeLists.txt globs from tests/<layer>/test_<x>.c
  (or .cpp); any other name must be an add_test(NAME ...) of CMakeLists.txt (literal names, and
  names built from literal `foreach` lists or the fuzz/fuzz_<name>.c glob). A trailing `*`
  (`umd.test_*`) must match at least one test.
* Tables (a header row, then `|---|`), "proved by" column: an identifier that follows a test with a
  source file is one of its test functions and must occur as a whole word (identifier or
  string) in that file, as `name` or `test_name`. Inside parentheses it is an annotation (a
  case name, a table row, a hook): the test's file or anywhere in the tree will do. A `;` outside
  parentheses, or "no test yet", ends the test's list: after it, a `test_...` name with no test
  cited before it is reported, and any other identifier must occur anywhere in the tree. After a
  test with no source of its own (tool.*, api.*, fuzz.*), identifiers must occur in the tree.
  A file or folder cited there must exist (as below).
* Tables, "implemented in" column: every cited file
  (`device.c`, `vidmm/evict.c`, `src/kmd/paging.c`) or folder (`src/kmd/`) must exist. A path
  is the tree's file of that path, else the files ending with /<path>; when several end so, the
  one under the folder named last in the same cell wins, then those under the section's folders
  (paths in backticks in the `##` / `###` headings), else all of them count. Every identifier must occur in a file (or folder) the row cites, or
  anywhere in src/ and include/ when the row cites none; ALL-CAPS names (constants, flags, WDK
  types, environment variables), `struct.field` (checked as its field) and identifiers inside
  parentheses may instead occur anywhere in the tree.
* A row whose "proved by" cell says "no test yet" is allowed, and counted.

"Anywhere in the tree" is src/, include/, tools/, tests/, scripts/, fuzz/, cmake/, examples/
and CMakeLists.txt. `name(...)` is checked as `name`, `prefix*` as a prefix and `_suffix` as the end
of an identifier.

Skipped (not something this script can hold to the code): backticked text with spaces or
other punctuation (`E_INVALIDARG` is checked, `WDDM_FEATURES=NAME=0`, `rt_context_Begin/End`
and `hResource->pDrvPrivate` are not), numbers, text ending in `…`, dotted names that start
with a capital (an SDK / WDK structure's field, `Flags.Paging`), file names with other
extensions (`libwddm.pc`, which the build writes), and, outside test citations, every column
other than the two above (rule, choice, issue) and text outside tables.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEARCH_DIRS = ("src", "include", "tools", "scripts", "tests", "fuzz", "api", "cmake", "configs", "docs", "examples")
FILE_EXTS = (".c", ".h", ".cpp", ".py", ".sh", ".html", ".cmake", ".in", ".md", ".caps", ".json")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
TEST_CITE = re.compile(r"([a-z0-9]+)\.([A-Za-z0-9_]+\*?)$")

_text_cache = {}


def read(rel):
    if rel not in _text_cache:
        try:
            with open(os.path.join(ROOT, rel), encoding="utf-8", errors="replace") as f:
                _text_cache[rel] = f.read()
        except OSError:
            _text_cache[rel] = ""
    return _text_cache[rel]


def tree_files():
    files = []
    for top in SEARCH_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = [d for d in dirnames if not d.startswith(".")]
            for name in filenames:
                files.append(os.path.relpath(os.path.join(dirpath, name), ROOT).replace(os.sep, "/"))
    files.append("CMakeLists.txt")
    return sorted(files)


FILES = tree_files()
DIRS = sorted({f.rsplit("/", 1)[0] for f in FILES if "/" in f} |
              {d.rsplit("/", i)[0] for d in {f.rsplit("/", 1)[0] for f in FILES if "/" in f}
               for i in range(1, 6)})


def files_under(prefixes):
    return [f for f in FILES if any(f.startswith(p.rstrip("/") + "/") for p in prefixes)]


CODE_FILES = files_under(["src", "include"])
WIDE_FILES = files_under(["src", "include", "tools", "tests", "scripts", "fuzz", "cmake"]) + ["CMakeLists.txt"]


def has_ident(rel, name, prefix=False):
    """name occurs as a whole identifier (prefix: begins one; a name that begins with _: ends one)."""
    start = "" if name.startswith("_") else r"(?<![A-Za-z0-9_])"
    pat = start + re.escape(name) + ("" if prefix else r"(?![A-Za-z0-9_])")
    return re.search(pat, read(rel)) is not None


def anywhere(files, name, prefix=False):
    return any(has_ident(f, name, prefix) for f in files)


def ctest_names():
    """Test names CMakeLists.txt registers besides the globbed tests/<layer>/test_<x>.c."""
    cm = read("CMakeLists.txt")
    lists = {}
    for var, values in re.findall(r"foreach\((\w+)((?:\s+[A-Za-z0-9_]+)+)\s*\)", cm):
        lists[var] = values.split()
    fuzz = sorted(f[len("fuzz/fuzz_"):-2] for f in FILES if re.match(r"fuzz/fuzz_\w+\.c$", f))
    names = set()
    for name in re.findall(r"add_test\(NAME\s+([^\s)]+)", cm):
        if name == "${layer}.${name}":
            continue  # the glob, handled by test_file()
        if name == "fuzz.${name}":
            names.update("fuzz." + n for n in fuzz)
            continue
        expanded = [name]
        for var in re.findall(r"\$\{(\w+)\}", name):
            expanded = [e.replace("${%s}" % var, v) for e in expanded for v in lists.get(var, [])]
        names.update(e for e in expanded if "${" not in e)
    return names


CTEST_NAMES = ctest_names()


def test_file(layer, name):
    for ext in (".c", ".cpp"):
        rel = "tests/%s/%s%s" % (layer, name, ext)
        if rel in FILES:
            return rel
    return None


def check_test_citation(layer, name):
    """None if the test exists, else what is missing."""
    if name.endswith("*"):
        prefix = "%s.%s" % (layer, name[:-1])
        globbed = [f for f in FILES if f.startswith("tests/%s/%s" % (layer, name[:-1]))
                   and re.match(r"tests/[^/]+/test_\w+\.(c|cpp)$", f)]
        if globbed or any(n.startswith(prefix) for n in CTEST_NAMES):
            return None
        return "no CTest test matches"
    if name.startswith("test_"):
        if test_file(layer, name):
            return None
        return "no test file tests/%s/%s.c (CTest test does not exist)" % (layer, name)
    if "%s.%s" % (layer, name) in CTEST_NAMES:
        return None
    return "no such CTest test in CMakeLists.txt"


def is_test_citation(tok):
    m = TEST_CITE.match(tok)
    if not m or is_file_token(tok):
        return None
    layer = m.group(1)
    if not os.path.isdir(os.path.join(ROOT, "tests", layer)) and layer != "fuzz":
        return None
    return m.group(1), m.group(2)


def split_row(line):
    """Cells of a table row: split on | outside backticks (and not escaped)."""
    cells, cur, tick, i = [], "", False, 0
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body) and body[i + 1] == "|":
            cur += "|"
            i += 2
            continue
        if c == "`":
            tick = not tick
        if c == "|" and not tick:
            cells.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    cells.append(cur)
    return [c.strip() for c in cells]


BARE = re.compile(r"(?<![\w./`-])((?:[a-z0-9]+\.test_\w+)|(?:[\w./-]*\w\.(?:c|h|cpp|py|sh)))(?![\w`])")


def events(cell):
    """The cell as ("tok", text, parenthesis depth) for each cited token (in backticks, or a bare
    test citation / source file name outside them), ("sep",) for each ';' and ("notest",) for
    each "no test yet", in order."""
    out, depth, pos = [], 0, 0

    def plain(text):
        nonlocal depth
        marks = [(m.start(), ("tok", m.group(1))) for m in BARE.finditer(text)]
        marks += [(m.start(), ("sep",)) for m in re.finditer(";", text)]
        marks += [(m.start(), ("notest",)) for m in re.finditer("no test yet", text, re.I)]
        last = 0
        for at, ev in sorted(marks, key=lambda x: x[0]):
            chunk = text[last:at]
            depth = max(0, depth + chunk.count("(") - chunk.count(")"))
            last = at
            if ev[0] == "tok":
                out.append(ev + (depth,))
            elif ev[0] == "notest" or depth == 0:  # a ';' inside parentheses separates no tests
                out.append(ev)
        chunk = text[last:]
        depth = max(0, depth + chunk.count("(") - chunk.count(")"))

    for m in re.finditer(r"`([^`]+)`", cell):
        plain(cell[pos:m.start()])
        out.append(("tok", m.group(1).strip(), depth))
        pos = m.end()
    plain(cell[pos:])
    return out


def tokens(cell):
    """(token, parenthesis depth) for each cited token of a cell."""
    return [(e[1], e[2]) for e in events(cell) if e[0] == "tok"]


def is_file_token(tok):
    return (re.match(r"[\w./-]+$", tok) is not None and
            (tok.endswith(FILE_EXTS) or tok == "CMakeLists.txt" or
             tok.endswith("/") or ("/" in tok and tok.rstrip("/") in DIRS)))


def resolve(tok, cell_dirs, section_dirs):
    """Files (or a directory) a file citation names; [] if none."""
    if tok.endswith("/") or tok in DIRS:
        d = tok.rstrip("/")
        return [d + "/"] if d in DIRS or any(x.endswith("/" + d) for x in DIRS) else []
    if tok in FILES:
        return [tok]  # the path from the top of the tree (`CMakeLists.txt`, `src/kmd/paging.c`)
    cands = [f for f in FILES if f.endswith("/" + tok)]
    if len(cands) <= 1:
        return cands
    for dirs in (cell_dirs[-1:], section_dirs):
        pick = [f for f in cands if any(f.startswith(d + "/") for d in dirs)]
        if pick:
            return pick
    return cands


def ident_form(tok):
    """(name, prefix?) to look for, or None to skip the token."""
    tok = re.sub(r"\(.*\)$", "", tok)
    prefix = False
    if tok.endswith("*"):
        tok, prefix = tok[:-1], True
    if tok.endswith("…"):
        return None
    if not IDENT.match(tok) or tok.isdigit():
        return None
    return tok, prefix


def is_caps(name):
    return name.upper() == name


class Checker:
    def __init__(self, path):
        self.path = path
        self.rel = os.path.relpath(path, ROOT) if path.startswith(ROOT) else path
        self.problems = []
        self.checked = 0
        self.no_test_rows = 0

    def bad(self, lineno, tok, what):
        self.problems.append("%s:%d: `%s`: %s" % (self.rel, lineno, tok, what))

    def check_tests_anywhere(self, lineno, line):
        for tok, _ in tokens(line):
            t = is_test_citation(tok)
            if t:
                self.checked += 1
                why = check_test_citation(*t)
                if why:
                    self.bad(lineno, tok, why)

    def check_proof_cell(self, lineno, cell):
        current = None  # test source of the test cited last in the cell ("" if it has none)
        for ev in events(cell):
            if ev[0] != "tok":
                current = None  # a ';' or "no test yet" ends the test's function list
                continue
            tok, depth = ev[1], ev[2]
            t = is_test_citation(tok)
            if t:
                current = (test_file(*t) or "") if not t[1].endswith("*") else ""
                continue  # existence checked by check_tests_anywhere
            if is_file_token(tok):
                self.checked += 1
                if not resolve(tok, [], []):
                    self.bad(lineno, tok, "no such file in the tree")
                continue
            form = ident_form(tok)
            if not form:
                continue
            name, prefix = form
            self.checked += 1
            if current is None:
                if depth == 0 and name.startswith("test_"):
                    self.bad(lineno, tok, "test function cited without its test (`<layer>.test_<file>`) before it")
                elif not anywhere(WIDE_FILES, name, prefix):
                    self.bad(lineno, tok, "not found in src/, include/, tools/, tests/ or scripts/")
                continue
            if current == "":
                if not anywhere(WIDE_FILES, name, prefix):  # a test with no source of its own
                    self.bad(lineno, tok, "not found in src/, include/, tools/, tests/ or scripts/")
                continue
            if has_ident(current, name, prefix) or (not name.startswith(("test_", "_")) and
                                                    has_ident(current, "test_" + name, prefix)):
                continue
            if depth > 0 and anywhere(WIDE_FILES, name, prefix):
                continue
            self.bad(lineno, tok, "not in %s" % current)

    def check_impl_cell(self, lineno, cell, section_dirs):
        cited, cell_dirs, idents = [], [], []
        for tok, depth in tokens(cell):
            if is_file_token(tok):
                self.checked += 1
                found = resolve(tok, cell_dirs, section_dirs)
                if not found:
                    self.bad(lineno, tok, "no such file in the tree")
                    continue
                cited.extend(found)
                if len(found) == 1:
                    cell_dirs.append(found[0].rstrip("/") if found[0].endswith("/")
                                     else found[0].rsplit("/", 1)[0])
                continue
            if re.match(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$", tok):
                if re.match(r"[A-Z]", tok):
                    continue  # an SDK / WDK structure's field (`Flags.Paging`): documentation
                idents.append((tok, tok.rsplit(".", 1)[1], False, True))
                continue
            form = ident_form(tok)
            if form:
                idents.append((tok, form[0], form[1], depth > 0))
        files = []
        for f in cited:
            files.extend(files_under([f]) if f.endswith("/") else [f])
        for tok, name, prefix, loose in idents:
            self.checked += 1
            if files and anywhere(files, name, prefix):
                continue
            if not files and anywhere(CODE_FILES, name, prefix):
                continue
            if (loose or is_caps(name)) and anywhere(WIDE_FILES, name, prefix):
                continue  # a constant, a field or a parenthesised note: anywhere in the tree
            if files:
                shown = sorted(set(files))
                self.bad(lineno, tok, "not in %s%s" % (", ".join(shown[:4]), ", ..." if len(shown) > 4 else ""))
            else:
                self.bad(lineno, tok, "not found in src/ or include/")

    def run(self):
        with open(self.path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        section_dirs, sub_dirs = [], []
        roles = None
        for i, line in enumerate(lines, 1):
            self.check_tests_anywhere(i, line)
            if line.startswith("#"):
                dirs = []
                for tok, _ in tokens(line):
                    if is_file_token(tok):
                        d = tok.rstrip("/") if tok.endswith("/") else tok.rsplit("/", 1)[0]
                        full = [x for x in DIRS if x == d or x.endswith("/" + d)]
                        dirs.extend(full)
                if line.startswith("### "):
                    sub_dirs = dirs
                else:
                    section_dirs, sub_dirs = dirs, []
                roles = None
                continue
            if not line.startswith("|"):
                roles = None
                continue
            cells = split_row(line)
            if i < len(lines) and re.match(r"\|\s*-", lines[i]) and roles is None:
                roles = [c.lower() for c in cells]
                continue
            if roles is None or re.match(r"\|\s*-", line):
                continue
            no_test = False
            for role, cell in zip(roles, cells):
                if role == "implemented in":
                    self.check_impl_cell(i, cell, sub_dirs + section_dirs)
                elif role == "proved by":
                    self.check_proof_cell(i, cell)
                    if "no test yet" in cell.lower():
                        no_test = True
            self.no_test_rows += no_test
        for p in self.problems:
            print(p)
        print("%s: %d citations checked, %d dead; %d rows with **no test yet**"
              % (self.rel, self.checked, len(self.problems), self.no_test_rows))
        return 1 if self.problems else 0


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "rules.md")
    # The matrix is written from the rules and the tests' tags: a stale one is the first problem.
    matrix = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "rules.py"), "--check"])
    status = Checker(os.path.abspath(path)).run()
    # The tree cites only the reference texts it ships: docs/semantics.md, docs/architecture.md.
    recite = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "recite.py"), "--check"])
    return matrix.returncode or status or recite.returncode


if __name__ == "__main__":
    sys.exit(main())
