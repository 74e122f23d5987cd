#!/usr/bin/env python3
"""Writes the man pages of the `wddm` tool from its own --help text (issue 18: man pages from
the same text as --help, so the two cannot drift apart).

usage: gen_man.py WDDM_BINARY OUT_DIR

Runs `wddm --help` and `wddm --version`, finds the commands in the help (the lines "  NAME ..."),
runs `wddm NAME --help` for each, and writes OUT_DIR/wddm.1 (the overview and every command's
help) and OUT_DIR/wddm-NAME.1 (one command). The help text is kept as written, line by line, in
no-fill blocks: the pages say exactly what --help says. Nothing in them depends on the date, so
two builds of one version write the same pages. CMake runs this after building `wddm`
(target wddm_man); `cmake --install` puts the pages in share/man/man1 (docs/install.md).
"""
import os
import re
import subprocess
import sys


def run(wddm, *args):
    out = subprocess.run([wddm, *args], check=True, capture_output=True, text=True)
    return out.stdout


def roff_text(line):
    """One line of help text as roff: backslashes escaped, hyphens as minus signs (what a
    reader types), a line that starts with a control character made safe."""
    line = line.replace("\\", "\\e").replace("-", "\\-")
    if line.startswith((".", "'")):
        line = "\\&" + line
    return line


def block(text):
    lines = text.rstrip("\n").split("\n")
    return [".nf"] + [roff_text(line) for line in lines] + [".fi"]


def page(name, version, summary, body):
    out = [f'.TH {name.upper()} 1 "" "libwddm {version}" "libwddm"',
           ".SH NAME", f"{roff_text(name)} \\- {roff_text(summary)}"]
    out += body
    return "\n".join(out) + "\n"


def top_summaries(top, commands):
    """Each command's one-line description in `wddm --help`: after its arguments (two or more
    spaces apart) or on the lines below it, which are indented deeper than a command's line."""
    lines = top.split("\n")
    out = {}
    for i, line in enumerate(lines):
        m = re.match(r"^  ([a-z][a-z0-9-]*)\b.*?(?: {2,}(\S.*))?$", line)
        if not m or m.group(1) not in commands:
            continue
        words = [m.group(2)] if m.group(2) else []
        for nxt in lines[i + 1:]:
            if not nxt.startswith("      "):
                break
            words.append(nxt.strip())
        out[m.group(1)] = " ".join(words)
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen_man.py WDDM_BINARY OUT_DIR")
    wddm, out_dir = sys.argv[1], sys.argv[2]
    top = run(wddm, "--help")
    version = run(wddm, "--version").split()[-1]
    # A command's line: two spaces, its name, then its arguments or description.
    commands = re.findall(r"^  ([a-z][a-z0-9-]*)\b", top, re.M)
    if not commands:
        sys.exit("gen_man.py: no command found in 'wddm --help'")
    helps = {c: run(wddm, c, "--help") for c in commands}
    summaries = top_summaries(top, commands)

    os.makedirs(out_dir, exist_ok=True)
    body = [".SH SYNOPSIS"] + block(top.split("\n")[0]) + [".SH DESCRIPTION"]
    body += block("\n".join(top.split("\n")[1:])) + [".SH COMMANDS"]
    for c in commands:
        body += [f".SS {roff_text(c)}"] + block(helps[c])
    body += [".SH SEE ALSO", ",\n".join(f".BR wddm\\-{roff_text(c)} (1)" for c in commands)]
    pages = {"wddm.1": page("wddm", version, "the libwddm command-line tool", body)}
    for c in commands:
        lines = helps[c].rstrip("\n").split("\n")
        cbody = [".SH SYNOPSIS"] + block(lines[0]) + [".SH DESCRIPTION"] + block("\n".join(lines[1:]))
        cbody += [".SH SEE ALSO", ".BR wddm (1)"]
        pages[f"wddm-{c}.1"] = page(f"wddm-{c}", version, summaries[c], cbody)
    for fname, text in pages.items():
        path = os.path.join(out_dir, fname)
        # Rewrite only what changed, so the install step sees unchanged pages as up to date.
        if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)


if __name__ == "__main__":
    main()
