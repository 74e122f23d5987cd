#!/usr/bin/env python3
# rule: kernel.no-function-src-longer-120-lines (mutation-checked: a limit of 100 lists ten functions and fails)
"""Issue 16 §2: no function in src/ is longer than the limit, so each long operation stays a
set of phases a reader can hold in view. A function is counted from its opening brace to its
closing brace, both in column 0 (the project's style). Prints every function over the limit
and fails if there is one."""
import pathlib
import re
import sys

LIMIT = 120


def long_functions(root, limit):
    found = []
    for path in sorted(pathlib.Path(root, "src").rglob("*.c")):
        lines = path.read_text(encoding="utf-8").split("\n")
        start = name = None
        for i, line in enumerate(lines):
            if line == "{":
                j = i - 1
                while j > 0 and not re.match(r"[A-Za-z_]", lines[j]):
                    j -= 1
                start, name = i, lines[j].strip()
            elif line.startswith("}") and start is not None:
                if i - start - 1 > limit:
                    found.append((i - start - 1, path.relative_to(root), name))
                start = None
    return found


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[2])
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else LIMIT
    found = long_functions(root, limit)
    for n, path, name in found:
        print(f"{path}: {n} lines (limit {limit}): {name}")
    if not any(pathlib.Path(root, "src").rglob("*.c")):
        print("no sources under", root)
        return 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
