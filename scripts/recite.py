#!/usr/bin/env python3
"""recite.py - the tree cites only reference texts it ships (issue 16 §5).

Usage: scripts/recite.py            rewrite the citations in place (idempotent)
       scripts/recite.py --check    change nothing; exit 1 listing every dead citation

Code comments and docs once cited two documents that lived outside the repository: the WDDM
semantics notes (`wddm-semantics §3.3`, `../shared/docs/wddm-semantics.md`) and the design guide
(`DESIGN.md "Errors and bad input"`). Their content now lives in docs/semantics.md (same section
numbering, same numbered rules and invariants) and docs/architecture.md (the house rules, under
the titles in DESIGN_TITLES below). This script is the one place that knows how an old citation
maps to a new one, so it can be run again after merging a branch that still cites the old texts.

Rewrites, in every tracked text file except docs/semantics.md and this script:
* `wddm-semantics §3.3`, `wddm-semantics 3.3` (no §), `wddm-semantics.md`,
  `../shared/docs/wddm-semantics.md`  ->  `docs/semantics.md §3.3` / `docs/semantics.md`;
  `wddm-semantics invariant N` (the notes' final summary) -> `docs/semantics.md "Final summary"
  invariant N`;
* `DESIGN.md "X"` and `DESIGN "X"` -> `docs/architecture.md "Y"`, Y the title DESIGN_TITLES maps
  X to (the quoted text is kept when it already is Y, so a title broken over two comment lines
  stays as it is); a bare `DESIGN.md` -> `docs/architecture.md` (two known phrasings get a title);
* `docs/architecture.md "X"` / `arch "X"` whose section was renamed (ARCH_RENAMED) -> the new title.
Seed citations ("seed 001 §8", `../shared/seeds/`) are the contract and are never touched.

--check reports, as `<file>:<line>: <problem>`:
* any remaining citation of a document the repository lacks: `wddm-semantics`, `DESIGN.md` /
  `DESIGN "..."`, a path into `../shared/docs/`;
* every `docs/semantics.md` citation whose section (§N or §N.N, ranges `§4.2-4.4` included),
  numbered item (`§1.2 invariant 3`, `§3.2 rules 6, 11`, `§10 #4`, `§8.1 step 4`; "model
  decision #5" is row 5 of §10's table of decisions) or quoted title (`"Conventions"`) does not
  exist in docs/semantics.md;
* every `docs/architecture.md "X"` the script itself writes (DESIGN_TITLES, ARCH_RENAMED) that is
  not the start of a heading of docs/architecture.md. Other quoted titles of docs/architecture.md
  that match neither a heading nor a bold lead are printed as warnings only.
Python 3 standard library only. scripts/check_rules.py runs --check (CI).
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEMANTICS = "docs/semantics.md"
ARCHITECTURE = "docs/architecture.md"
SELF = "scripts/recite.py"
SKIP = {SEMANTICS, SELF}

# DESIGN.md section (or rule) titles, lower case, -> the docs/architecture.md title that holds it.
DESIGN_TITLES = {
    "the house": "The house",
    "the house: layers and who may talk to whom": "The house",
    "rules of the house": "Rules of the house",
    "the umd and the kmd are replaceable": "The UMD and the KMD are replaceable",
    "headers": "Headers use the WDK's and the D3D SDK's names",
    "headers use the wdk's and the d3d sdk's names": "Headers use the WDK's and the D3D SDK's names",
    "one folder per layer": "Rules of the house",
    "what we are building": "The house",
    "threads and waiting": "Threads and waiting",
    "memory": "Memory and addresses",
    "errors": "Errors and bad input",
    "errors and bad input": "Errors and bad input",
    "bad input never crashes": "Errors and bad input",
    "handles carry a type and a generation": "Errors and bad input",
    "seeing what happens": "Seeing what happens",
    "style": "Style",
    "speed is measured by benchmarks": "Speed is measured by benchmarks",
}
# Bare DESIGN.md citations whose wording says which section they mean.
DESIGN_PHRASES = [
    (re.compile(r"\bDESIGN\.md: the only hidden global"), 'docs/architecture.md "Style": the only hidden global'),
    (re.compile(r"\(issue 2; DESIGN\.md\)"), '(issue 2; docs/architecture.md "Errors and bad input")'),
]
# docs/architecture.md sections renamed when the house rules moved in: old title -> new title.
ARCH_RENAMED = {
    "fences and waiting": "Threads and waiting",
    "errors and the debug switch": "Errors and bad input",
    "seeing inside": "Seeing what happens",
}

PATH = r"(?<![\w./-])/?(?:[\w.-]+/)*"  # an optional directory part before a file name
SEM_FILE = re.compile(PATH + r"wddm-semantics\.md")
SEM_INVARIANT = re.compile(r"\bwddm-semantics,? (?:final summary,? )?(?=invariants? \d)", re.I)
SEM_NUMBER = re.compile(r"\bwddm-semantics (?=\d)")
SEM_WORD = re.compile(r"\bwddm-semantics\b(?!\.md)")
# DESIGN.md "Title" / DESIGN "Title"; the title may run over a line break inside a comment.
DESIGN_TITLED = re.compile(PATH + r'DESIGN(?:\.md)?(?P<colon>:?)(?P<sep>[ \t]+)"(?P<title>[^"]{1,100})"')
DESIGN_FILE = re.compile(PATH + r"DESIGN\.md\b")
ARCH_TITLED = re.compile(r'(?P<doc>\bdocs/architecture\.md|\barch)(?P<sep>:?[ \t]+)"(?P<title>[^"]{1,100})"')
CONTINUATION = re.compile(r"[ \t]*\n[ \t]*(?:\*(?!/)|//|#(?!\d)|--)?[ \t]*")

MISSING = [
    (re.compile(r"wddm-semantics"), "cites wddm-semantics, which the repository does not ship (docs/semantics.md)"),
    (re.compile(r'\bDESIGN(?:\.md\b|[ \t]+")'), "cites DESIGN.md, which the repository does not ship (docs/architecture.md)"),
    (re.compile(r"(?:\.\./)+shared/docs/|/work/shared/docs/"), "cites a file under ../shared/docs/, outside the repository"),
]


def norm_title(text):
    """A quoted title as one line: comment continuations folded into single spaces."""
    return re.sub(r"\s+", " ", CONTINUATION.sub(" ", text)).strip()


def tracked_files():
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for rel in out.decode().split("\0"):
        if not rel or rel in SKIP:
            continue
        path = os.path.join(ROOT, rel)
        if not os.path.isfile(path) or os.path.islink(path):
            continue
        with open(path, "rb") as f:
            data = f.read()
        if b"\0" in data:
            continue
        try:
            yield rel, data.decode("utf-8")
        except UnicodeDecodeError:
            continue


def design_title(title):
    key = norm_title(title).lower().rstrip(".")
    if key in DESIGN_TITLES:
        return DESIGN_TITLES[key]
    starts = {v for k, v in DESIGN_TITLES.items() if len(key) >= 6 and k.startswith(key)}
    return starts.pop() if len(starts) == 1 else None


def replace_title(old, new):
    """The quoted text to write: the old one when it already says the new title (its line
    breaks kept), else the new title."""
    return old if norm_title(old) == new else new


def rewrite(text, counts):
    def sub(regex, repl, kind, s):
        s, n = regex.subn(repl, s)
        counts[kind] = counts.get(kind, 0) + n
        return s

    text = sub(SEM_FILE, "docs/semantics.md", "wddm-semantics.md path", text)
    text = sub(SEM_INVARIANT, 'docs/semantics.md "Final summary" ', "wddm-semantics invariant N", text)
    text = sub(SEM_NUMBER, "docs/semantics.md §", "wddm-semantics N.N (no §)", text)
    text = sub(SEM_WORD, "docs/semantics.md", "wddm-semantics §N.N", text)

    def titled(m):
        new = design_title(m.group("title"))
        if new is None:
            return m.group(0)  # unknown title: left for --check to report
        counts['DESIGN.md "X"'] = counts.get('DESIGN.md "X"', 0) + 1
        return 'docs/architecture.md%s%s"%s"' % (m.group("colon"), m.group("sep"), replace_title(m.group("title"), new))

    text = DESIGN_TITLED.sub(titled, text)
    for regex, repl in DESIGN_PHRASES:
        text = sub(regex, repl, "DESIGN.md (bare, titled by its wording)", text)
    text = sub(DESIGN_FILE, "docs/architecture.md", "DESIGN.md (bare)", text)

    def renamed(m):
        key = norm_title(m.group("title")).lower()
        new = next((v for k, v in ARCH_RENAMED.items() if key == k or key.startswith(k + ":")), None)
        if new is None:
            return m.group(0)
        counts["architecture.md renamed section"] = counts.get("architecture.md renamed section", 0) + 1
        return '%s%s"%s"' % (m.group("doc"), m.group("sep"), replace_title(m.group("title"), new))

    return ARCH_TITLED.sub(renamed, text)


# ---- docs/semantics.md: its sections, their numbered items, its titles ----

def semantics_index():
    """{section id or title (lower case): set of item numbers}, from the headings of
    docs/semantics.md: `## 3. ...`, `### 3.3 ...`, `## Conventions`. An item is a numbered list
    line (`4. ...`) or a table row whose first cell is a number (`| 4 | ...`)."""
    index, current = {}, None
    with open(os.path.join(ROOT, SEMANTICS), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"#{2,4} +(?:(\d+(?:\.\d+)?)\.?\s|(.+))", line)
            if m:
                current = m.group(1) or m.group(2).strip().lower()
                index.setdefault(current, set())
                continue
            m = re.match(r"\s*(\d+)\. ", line) or re.match(r"\|\s*(\d+)\s*\|", line)
            if m and current is not None:
                index[current].add(int(m.group(1)))
    return index


SECTION = re.compile(r"\s*§\s?(\d+(?:\.\d+)?)")
RANGE_END = re.compile(r"\s*[-–]\s*§?\s?(\d+(?:\.\d+)?)")
ITEMS = re.compile(r"[,:]?\s*(?P<word>rules?|invariants?|inv\.|#|(?:model )?decisions?|steps?|items?)\s*"
                   r"(?P<nums>#?\d+(?:\s*(?:,|and|or|-|–)\s*#?\d+)*)")
NEXT = re.compile(r"\s*(?:,|;|/|and)\s*(?=§)")
TITLE = re.compile(r'\s*"([^"]{1,80})"')


def parse_refs(tail):
    """The sections, items and titles a citation names, from the text after `docs/semantics.md`:
    [(section or title, [item numbers])]."""
    refs, pos = [], 0
    m = TITLE.match(tail)
    if m:
        refs.append((norm_title(m.group(1)).lower(), []))
        pos = m.end()
        mi = ITEMS.match(tail, pos)
        if mi:
            refs[-1][1].extend(int(n) for n in re.findall(r"\d+", mi.group("nums")))
        return refs
    while True:
        m = SECTION.match(tail, pos)
        if not m:
            return refs
        refs.append((m.group(1), []))
        pos = m.end()
        r = RANGE_END.match(tail, pos)
        if r:
            refs.append((r.group(1), []))
            pos = r.end()
        mi = ITEMS.match(tail, pos)
        if mi:
            nums = [int(n) for n in re.findall(r"\d+", mi.group("nums"))]
            if re.search(r"[-–]", mi.group("nums")) and len(nums) == 2:
                nums = list(range(nums[0], nums[1] + 1))
            if "decision" in mi.group("word") and mi.group("nums").startswith("#"):
                refs.append(("10", nums))  # "model decision #5": a row of §10's table of decisions
            else:
                refs[-1][1].extend(nums)
            pos = mi.end()
        n = NEXT.match(tail, pos)
        if not n:
            return refs
        pos = n.end()


def architecture_titles():
    heads, bold = [], []
    with open(os.path.join(ROOT, ARCHITECTURE), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"#{1,4} +(.+)", line)
            if m:
                heads.append(m.group(1).strip().lower())
            bold += [b.strip().lower() for b in re.findall(r"\*\*([^*]+)\*\*", line)]
    return heads, bold


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def check(files):
    problems, warnings = [], []
    sem = semantics_index()
    heads, bold = architecture_titles()
    ours = {t.lower() for t in list(DESIGN_TITLES.values()) + list(ARCH_RENAMED.values())}
    for title in sorted(ours):
        if not any(h.startswith(title) for h in heads):
            problems.append('%s: recite.py maps to "%s", which is no heading there' % (ARCHITECTURE, title))
    for rel, text in files:
        for regex, what in MISSING:
            for m in regex.finditer(text):
                problems.append("%s:%d: %s: %s" % (rel, line_of(text, m.start()), what,
                                                     text[m.start():m.start() + 50].split("\n")[0]))
        for m in re.finditer(r"docs/semantics\.md", text):
            tail = CONTINUATION.sub(" ", text[m.end():m.end() + 300])
            for ref, items in parse_refs(tail):
                key = ref if ref in sem else next((k for k in sem if not k[0].isdigit() and k.startswith(ref)), None)
                where = "%s:%d" % (rel, line_of(text, m.start()))
                if key is None:
                    problems.append("%s: docs/semantics.md has no %s" % (where, "§" + ref if ref[0].isdigit() else '"%s"' % ref))
                    continue
                for n in items:
                    if n not in sem[key]:
                        problems.append("%s: docs/semantics.md %s has no item %d"
                                        % (where, "§" + key if key[0].isdigit() else '"%s"' % key, n))
        for m in ARCH_TITLED.finditer(text):
            if m.group("doc") != "docs/architecture.md":
                continue
            title = norm_title(m.group("title")).lower()
            if any(h.startswith(title) for h in heads):
                continue
            where = "%s:%d" % (rel, line_of(text, m.start()))
            if title in ours:
                problems.append('%s: docs/architecture.md has no heading "%s"' % (where, title))
            elif not any(b.startswith(title) or title.startswith(b) for b in bold):
                warnings.append('%s: warning: docs/architecture.md has no heading or bold lead "%s"' % (where, title))
    return problems, warnings


def main(argv):
    if argv[1:] not in ([], ["--check"]):
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    files = list(tracked_files())
    if argv[1:] == ["--check"]:
        problems, warnings = check(files)
        for line in warnings + problems:
            print(line)
        print("recite.py --check: %d files, %d dead citations" % (len(files), len(problems)))
        return 1 if problems else 0
    counts, changed = {}, 0
    for rel, text in files:
        new = rewrite(text, counts)
        if new != text:
            changed += 1
            with open(os.path.join(ROOT, rel), "w", encoding="utf-8", newline="") as f:
                f.write(new)
    for kind in sorted(counts):
        if counts[kind]:
            print("%6d  %s" % (counts[kind], kind))
    print("recite.py: %d files rewritten" % changed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
