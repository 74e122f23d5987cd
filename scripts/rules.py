#!/usr/bin/env python3
"""The rules matrix (issue 16 §5): rules are data, tests carry their tags, the matrix is written.

Usage: scripts/rules.py            writes docs/rules.md
       scripts/rules.py --check    fails if a tag or a table is wrong or docs/rules.md is stale

Three sources, one output:
* docs/rules/<subsystem>.md: the rules, one table row each: | id | rule | source | implemented in |
  notes |, under `## <topic>` headings, with any prose around them. The id is
  `<subsystem>.<words>` (the file's name, then lower-case words joined by '-'); it never changes
  once given, so tests can name it. "notes" says what a rule's proof leaves out (a benchmark, a
  check by hand); it may be empty.
* Tags in the tests: a comment `rule: <id>` (C: `/* rule: <id> */`, elsewhere `# rule: <id>`),
  optionally followed by a note in parentheses. The tag belongs to the test of its file (a file
  tests/<layer>/test_<x>.c is CTest test <layer>.test_<x>; a script CMakeLists.txt runs for one
  test is that test; fuzz/fuzz_<x>.c is fuzz.<x>). In a C file a tag inside a function, or just
  above one, names that test function; anywhere else it stands for the whole test. A tag in
  CMakeLists.txt names its test: `# rule: <id> in <test>`.
* docs/rules.md: written from the two, subsystem by subsystem; a rule no tag names is shown as
  **no test yet**, and counted.
Python 3 standard library only. scripts/check_rules.py runs `--check` (and checks the files and
functions the tables cite).
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES_DIR = os.path.join(ROOT, "docs", "rules")
OUT = os.path.join(ROOT, "docs", "rules.md")
# The order of the matrix: from the API down to the software GPU, then what spans the layers.
ORDER = ["runtime", "dxgi", "d3d10", "debug", "umd", "kernel", "vidmm", "sched", "kmd", "gpu", "wdk",
         "common", "e2e", "tool", "build"]
ID = re.compile(r"[a-z0-9]+\.[a-z0-9][a-z0-9-]*$")
C_TAG = re.compile(r"/\*\s*rule:\s*([^\s()*]+)(?:\s+in\s+([\w.]+))?(?:\s+\((.*)\))?\s*\*/")
HASH_TAG = re.compile(r"#\s*rule:\s*([^\s()]+)(?:\s+in\s+([\w.]+))?(?:\s+\((.*)\))?\s*$")
C_FUNC = re.compile(r"(?:static\s+|inline\s+)*[A-Za-z_][\w]*(?:\s+\**|\s*\*+\s*)\s*(\w+)\s*\([^;]*$")


def split_row(line):
    """Cells of a table row: split on | outside backticks (\\| is a literal bar)."""
    cells, cur, tick, i = [], "", False, 0
    body = line.strip()[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    while i < len(body):
        c = body[i]
        if c == "\\" and body[i + 1:i + 2] == "|":
            cur += "\\|"
            i += 2
            continue
        if c == "`":
            tick = not tick
        if c == "|" and not tick:
            cells.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    cells.append(cur.strip())
    return cells


class Problems(list):
    def add(self, where, what):
        self.append("%s: %s" % (where, what))


def read_rules(problems):
    """[(subsystem, title, [(topic or None, [items])])]; an item is ("text", line) or ("rule", dict)."""
    files = sorted(f[:-3] for f in os.listdir(RULES_DIR) if f.endswith(".md"))
    for name in files:
        if name not in ORDER:
            problems.add("docs/rules/%s.md" % name, "not in scripts/rules.py ORDER")
    subsystems, seen = [], {}
    for name in [n for n in ORDER if n in files]:
        rel = "docs/rules/%s.md" % name
        with open(os.path.join(RULES_DIR, name + ".md"), encoding="utf-8") as f:
            lines = f.read().rstrip("\n").split("\n")
        title, topics, header = None, [(None, [])], None
        for no, line in enumerate(lines, 1):
            if line.startswith("# "):
                title = line[2:].strip()
                continue
            if line.startswith("## "):
                topics.append((line[3:].strip(), []))
                header = None
                continue
            if not line.startswith("|"):
                header = None
                topics[-1][1].append(("text", line))
                continue
            cells = split_row(line)
            if header is None:
                header = [c.lower() for c in cells]
                if header != ["id", "rule", "source", "implemented in", "notes"]:
                    problems.add("%s:%d" % (rel, no), "a rules table's header is | id | rule | source | implemented in | notes |")
                continue
            if re.match(r"\|\s*-", line):
                continue
            if len(cells) != 5:
                problems.add("%s:%d" % (rel, no), "a rule row has 5 cells, this one %d" % len(cells))
                continue
            rule = dict(zip(["id", "rule", "source", "impl", "notes"], cells), file=rel, line=no)
            rid = rule["id"].strip("`")
            rule["id"] = rid
            if not ID.match(rid) or not rid.startswith(name + "."):
                problems.add("%s:%d" % (rel, no), "id `%s` is not `%s.<lower-case-words>`" % (rid, name))
            if rid in seen:
                problems.add("%s:%d" % (rel, no), "id `%s` given twice (also %s)" % (rid, seen[rid]))
            seen[rid] = "%s:%d" % (rel, no)
            topics[-1][1].append(("rule", rule))
        if not title:
            problems.add(rel, "no '# <title>' line")
        subsystems.append((name, title or name, topics))
    return subsystems


def cmake_tests():
    """(names of add_test(NAME literal), {script path under tests/: [test names]})."""
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        text = f.read()
    names, scripts = set(), {}
    starts = [m for m in re.finditer(r"add_test\(NAME\s+([^\s)]+)", text)]
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        block = text[m.end():end]
        block = block[:min([block.find(k) for k in ("set_tests_properties", "endif", "endforeach") if k in block] or [len(block)])]
        names.add(m.group(1))
        for path in re.findall(r"\$\{CMAKE_SOURCE_DIR\}/(tests/[\w/.-]+\.(?:sh|py))", block):
            scripts.setdefault(path, []).append(m.group(1))
    return names, scripts


def test_of_file(rel, scripts):
    """The CTest test a file's tags belong to, or None."""
    m = re.match(r"tests/(\w+)/(test_\w+)\.(?:c|cpp)$", rel)
    if m:
        return "%s.%s" % m.groups()
    m = re.match(r"fuzz/fuzz_(\w+)\.c$", rel)
    if m:
        return "fuzz." + m.group(1)
    if len(scripts.get(rel, [])) == 1:
        return scripts[rel][0]
    return None


def c_code_lines(text):
    """Per line: (brace depth at its start, the line without comments and literals)."""
    out, depth, in_comment, wrappers = [], 0, False, []
    for line in text.split("\n"):
        code, i = "", 0
        while i < len(line):
            if in_comment:
                j = line.find("*/", i)
                if j < 0:
                    i = len(line)
                    continue
                in_comment, i = False, j + 2
                continue
            two = line[i:i + 2]
            if two == "/*":
                in_comment, i = True, i + 2
                continue
            if two == "//":
                break
            if line[i] in "\"'":
                q, j = line[i], i + 1
                while j < len(line) and line[j] != q:
                    j += 2 if line[j] == "\\" else 1
                code += q + q
                i = j + 1
                continue
            code += line[i]
            i += 1
        out.append((depth - len(wrappers), code))
        if re.match(r"\s*(namespace\b[^{;]*|extern\s*\"\"\s*)\{\s*$", code):
            wrappers.append(depth)  # a C++ namespace or extern "C" block: its contents are at file scope
        depth += code.count("{") - code.count("}")
        while wrappers and depth <= wrappers[-1]:
            wrappers.pop()
    return out


def c_tag_functions(text):
    """{line index: function name or None (whole test)} for each line of a C/C++ file."""
    lines = c_code_lines(text)
    funcs, current = {}, None
    for i, (depth, code) in enumerate(lines):
        if depth == 0:
            m = C_FUNC.match(code)
            current = m.group(1) if m and not code.startswith(("#", "typedef", "struct", "enum")) else None
        funcs[i] = current
    result = {}
    for i, (depth, code) in enumerate(lines):
        if depth > 0:
            result[i] = funcs[i]  # inside a body: the function that holds it
            continue
        j = i + 1  # at file scope: the function the next code line starts, if any
        while j < len(lines) and not lines[j][1].strip():
            j += 1
        m = C_FUNC.match(lines[j][1]) if j < len(lines) else None
        result[i] = m.group(1) if m and depth == 0 and lines[j][0] == 0 else None
    return result


def read_tags(problems):
    """[(rule id, test, function or None, note, "file:line")]."""
    names, scripts = cmake_tests()
    files = ["CMakeLists.txt"]
    for top in ("tests", "fuzz"):
        for dirpath, _, filenames in os.walk(os.path.join(ROOT, top)):
            for fn in filenames:
                if fn.endswith((".c", ".cpp", ".h", ".py", ".sh")):
                    files.append(os.path.relpath(os.path.join(dirpath, fn), ROOT).replace(os.sep, "/"))
    tags = []
    for rel in sorted(files):
        with open(os.path.join(ROOT, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        if "rule:" not in text:
            continue
        is_c = rel.endswith((".c", ".cpp", ".h"))
        where_fn = c_tag_functions(text) if is_c else {}
        implied = test_of_file(rel, scripts)
        for i, line in enumerate(text.split("\n")):
            m = (C_TAG if is_c else HASH_TAG).search(line)
            if not m:
                continue
            rid, test, note = m.group(1), m.group(2), m.group(3) or ""
            where = "%s:%d" % (rel, i + 1)
            test = test or implied
            if not test:
                problems.add(where, "rule tag `%s` names no test: this file is no test of its own, write `rule: %s in <test>`" % (rid, rid))
                continue
            if rel == "CMakeLists.txt" and test not in names and not any(
                    re.fullmatch(re.sub(r"\\\$\\\{\w+\\\}", r"\\w+", re.escape(n)), test) for n in names):
                problems.add(where, "rule tag `%s`: no CTest test `%s` in CMakeLists.txt" % (rid, test))
            tags.append((rid, test, where_fn.get(i), note, where))
    return tags


def proof_cell(tags, notes):
    """The "proved by" cell: tests in order, their functions, the tags' notes, then the notes."""
    by_test = {}
    for _, test, fn, note, _ in tags:
        entry = by_test.setdefault(test, [])
        if (fn, note) not in entry:
            entry.append((fn, note))
    parts = []
    for test, entries in by_test.items():
        whole = [note for fn, note in entries if fn is None]
        items = []
        for fn, note in entries:
            if fn is not None:
                items.append("`%s`%s" % (fn, " (%s)" % note if note else ""))
        text = "`%s`" % test + (" (%s)" % "; ".join(n for n in whole if n) if any(whole) else "")
        parts.append(text + (" " + ", ".join(items) if items else ""))
    cell = "; ".join(parts) if parts else "**no test yet**"
    if notes:
        cell += ("; " if parts else " ") + notes
    return cell


def render(subsystems, tags):
    by_rule = {}
    for t in tags:
        by_rule.setdefault(t[0], []).append(t)
    counts, untested = [], []
    for name, title, topics in subsystems:
        rules = [item[1] for _, items in topics for item in items if item[0] == "rule"]
        no = [r["id"] for r in rules if r["id"] not in by_rule]
        counts.append((name, title, len(rules), len(no)))
        untested.extend(no)
    out = [
        "# libwddm rules: what we follow, where, and which test proves it",
        "",
        "Written by `scripts/rules.py` from the rules in `docs/rules/<subsystem>.md` and the `rule:` tags",
        "in the tests; do not edit this file, edit those and run the script (`scripts/check_rules.py`, run",
        "by CI, fails when this file is stale, a tag names no rule, or a cited file or function is gone).",
        "Each row: the rule, its source, the code that implements it, and the tests whose tags name it",
        "(`<layer>.test_<file>` and the test functions). **no test yet** means no test asserts the rule:",
        "the rule is not done. Sources: the seeds (seed 00N §n: the five specification documents, stated",
        "row by row here), docs/semantics.md (our summary of Microsoft's WDDM documentation),",
        "docs/architecture.md, docs/api.md, docs/drivers.md, the D3D11 / D3D10 / DXGI SDK and WDK",
        "reference pages, the Wine tests that run on Windows, the issues, and \"choice\" where the",
        "documentation is silent (the row says why).",
        "",
        "| subsystem | rules | no test yet |",
        "|---|---|---|",
    ]
    for name, title, n, no in counts:
        out.append("| [%s](#%s) | %d | %d |" % (title, anchor(title), n, no))
    out.append("| all | %d | %d |" % (sum(c[2] for c in counts), sum(c[3] for c in counts)))
    for name, title, topics in subsystems:
        out += ["", "## " + title]
        for topic, items in topics:
            if topic:
                out += ["", "### " + topic]
            in_table = False
            for kind, item in items:
                if kind == "text":
                    if in_table:
                        in_table = False
                        if item.strip():
                            out.append("")
                    out.append(item)
                    continue
                if not in_table:
                    if out[-1].strip():
                        out.append("")
                    out += ["| id | rule | source | implemented in | proved by |", "|---|---|---|---|---|"]
                    in_table = True
                out.append("| %s | %s | %s | %s | %s |" % (item["id"], item["rule"], item["source"], item["impl"],
                                                      proof_cell(by_rule.get(item["id"], []), item["notes"])))
    while out and not out[-1].strip():
        out.pop()
    out = collapse_blank(out)
    return "\n".join(out) + "\n", len(untested)


def collapse_blank(lines):
    out = []
    for line in lines:
        if not line.strip() and out and not out[-1].strip():
            continue
        out.append(line)
    return out


def anchor(title):
    a = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
    return a


def main():
    check = "--check" in sys.argv[1:]
    problems = Problems()
    subsystems = read_rules(problems)
    tags = read_tags(problems)
    ids = {item[1]["id"] for _, _, topics in subsystems for _, items in topics for item in items if item[0] == "rule"}
    for rid, test, fn, note, where in tags:
        if rid not in ids:
            problems.add(where, "rule tag `%s`: no such rule in docs/rules/" % rid)
    text, untested = render(subsystems, tags)
    if check:
        try:
            with open(OUT, encoding="utf-8") as f:
                current = f.read()
        except OSError:
            current = ""
        if current != text:
            problems.add("docs/rules.md", "out of date: run scripts/rules.py and commit the result")
    else:
        with open(OUT, "w", encoding="utf-8") as f:
            f.write(text)
    for p in problems:
        print(p)
    print("rules: %d rules, %d tags, %d with no test yet, %d problems" % (len(ids), len(tags), untested, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
