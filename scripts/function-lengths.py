#!/usr/bin/env python3
"""Functions in Sources/ longer than a limit, counted from the `func`/`init` line to its
closing brace (both included), longest first.

    python3 scripts/function-lengths.py                  # over 60 lines, and how many
    python3 scripts/function-lengths.py --over 40        # another limit
    python3 scripts/function-lengths.py --check 5 120    # exit 1 if more than 5 are over 60
                                                         # or any is over 120

Strings (single-line, multiline and raw) and comments are skipped when matching braces, so a
brace in a message or a doc comment does not end a function early.
"""

import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DECLARATION = re.compile(
    r"^\s*(?:@[\w.()\", ]+\s+)*(?:(?:public|package|internal|private|fileprivate|open|static|"
    r"class|final|override|mutating|nonmutating|nonisolated|convenience|required|dynamic|"
    r"@inlinable|@inline\(__always\)|@usableFromInline|@discardableResult)\s+)*"
    r"(?P<kind>func\s+(?P<name>[^\s(<]+)|init[?!]?(?=\s*[(<])|deinit\b)"
)


def code_only(text: str) -> str:
    """The text with the contents of comments and string literals blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"' or (c == "#" and re.match(r"#+\"", text[i:])):
            hashes = len(re.match(r"#*", text[i:]).group(0))
            start = i + hashes
            multiline = text.startswith('"""', start)
            quote = '"""' if multiline else '"'
            close = quote + "#" * hashes
            j = start + len(quote)
            while j < n and not text.startswith(close, j):
                if text[j] == "\\" and hashes == 0:
                    if text.startswith("\\(", j):
                        # An interpolation: skip to its matching parenthesis.
                        depth, j = 1, j + 2
                        while j < n and depth:
                            depth += {"(": 1, ")": -1}.get(text[j], 0)
                            j += 1
                        continue
                    j += 2
                    continue
                if text[j] == "\n" and not multiline:
                    break
                j += 1
            j = min(n, j + len(close))
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path: pathlib.Path):
    """(name, first line, line count) of every function, initialiser and deinitialiser."""
    lines = code_only(path.read_text()).split("\n")
    for number, line in enumerate(lines):
        match = DECLARATION.match(line)
        if not match:
            continue
        name = match.group("name") or match.group("kind").split("(")[0].strip()
        depth, opened, end = 0, False, None
        for k in range(number, len(lines)):
            for ch in lines[k]:
                if ch == "{":
                    depth, opened = depth + 1, True
                elif ch == "}":
                    depth -= 1
                    if opened and depth == 0:
                        end = k
                        break
            if end is not None:
                break
            # A protocol requirement: the next declaration comes before any body.
            if not opened and k > number and (
                DECLARATION.match(lines[k]) or re.match(r"^\s*(var|let|case|})\b", lines[k])
            ):
                break
        if end is not None:
            yield name, number + 1, end - number + 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--over", type=int, default=60, help="list functions longer than this")
    parser.add_argument(
        "--check", nargs=2, type=int, metavar=("COUNT", "MAXIMUM"),
        help="exit 1 if more than COUNT are over --over lines, or any is over MAXIMUM")
    args = parser.parse_args()
    found = []
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        for name, line, length in functions(path):
            found.append((length, f"{path.relative_to(ROOT)}:{line}", name))
    long = sorted((f for f in found if f[0] > args.over), reverse=True)
    print(f"{len(long)} of {len(found)} functions over {args.over} lines")
    for length, place, name in long:
        print(f"{length:5}  {name}  {place}")
    if args.check:
        count, maximum = args.check
        longest = max((length for length, _, _ in found), default=0)
        if len(long) > count or longest > maximum:
            print(f"function lengths: FAILED (at most {count} over {args.over} and none over "
                  f"{maximum} lines allowed)")
            return 1
        print(f"function lengths: ok ({len(long)} over {args.over}, longest {longest})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
