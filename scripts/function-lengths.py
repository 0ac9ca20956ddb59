#!/usr/bin/env python3
"""Functions over a length limit, longest first, in the Swift of Sources/ and in Python.

    python3 scripts/function-lengths.py                  # over 60 lines, and how many
    python3 scripts/function-lengths.py --over 40        # another limit
    python3 scripts/function-lengths.py --check 5 120    # exit 1 if, in either language, more
                                                         # than 5 are over 60 or any is over 120
    python3 scripts/function-lengths.py --root DIR       # another checkout (the tests use it)

Swift: every `func`, `init` and `deinit` under Sources/, counted from its declaration line to
its closing brace (both included). Strings (single-line, multiline and raw) and comments are
skipped when matching braces, so a brace in a message or a doc comment does not end a function
early.

Python: every `def` and `async def` (methods too; not lambdas) of the .py files git tracks or
would track, in every folder (`git ls-files --cached --others --exclude-standard`: the Spark
job and its tools, scripts/, the fixture generators under Tests/, the notebooks' helpers; the
ignored .build and virtual environments stay out), or, outside a git checkout, every .py file
below the root except in hidden folders and __pycache__. Counted with Python's `ast` from the
`def` line, decorators excluded, to the function's last line (`end_lineno`: its last
statement, so comments and blank lines after it do not count).

In both languages a nested function counts on its own and inside its parent: the Swift
declaration matches at any indentation and its braces lie within the parent's.
--check holds each language to the rule separately and names the language that breaks it.
"""

import argparse
import ast
import os
import pathlib
import re
import subprocess
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


def swift_functions(root: pathlib.Path):
    """(length, place, name) of every Swift function under root/Sources."""
    for path in sorted((root / "Sources").rglob("*.swift")):
        for name, line, length in functions(path):
            yield length, f"{path.relative_to(root)}:{line}", name


def python_files(root: pathlib.Path) -> list[pathlib.Path]:
    """The .py files git tracks or would track; every .py file outside hidden folders and
    __pycache__ when root is not a git checkout (or git is missing)."""
    try:
        listed = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
             "--exclude-standard", "--", "*.py"],
            capture_output=True, check=True).stdout
        # A file deleted from the work tree but not yet from the index is gone.
        paths = {root / os.fsdecode(name) for name in listed.split(b"\0") if name}
        return sorted(path for path in paths if path.is_file())
    except (OSError, subprocess.CalledProcessError):
        return sorted(
            path for path in root.rglob("*.py")
            if not any(part.startswith(".") or part == "__pycache__"
                       for part in path.relative_to(root).parts[:-1]))


def python_functions(root: pathlib.Path, paths: list[pathlib.Path]):
    """(length, place, name) of every Python function and method in paths; a file Python
    cannot parse raises SyntaxError with its path."""
    for path in paths:
        place = path.relative_to(root)
        tree = ast.parse(path.read_bytes(), filename=str(place))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                # lineno is the `def` line: decorators sit on lines of their own before it.
                yield node.end_lineno - node.lineno + 1, f"{place}:{node.lineno}", node.name


def report(language: str, where: str, found: list, over: int) -> None:
    """The language's heading, how many are over the limit and which, longest first."""
    long = sorted((f for f in found if f[0] > over), reverse=True)
    print(f"{language}, {where}:")
    print(f"{len(long)} of {len(found)} functions over {over} lines")
    for length, place, name in long:
        print(f"{length:5}  {name}  {place}")


def check(found_by_language: dict, over: int, count: int, maximum: int) -> int:
    """The one-line verdict CI greps (`function lengths: ok`), each language held apart."""
    figures, failed = [], []
    for language, found in found_by_language.items():
        long = sum(1 for length, _, _ in found if length > over)
        longest = max((length for length, _, _ in found), default=0)
        figures.append(f"{language} {long} over {over}, longest {longest}")
        if long > count or longest > maximum:
            failed.append(language)
    if failed:
        print(f"function lengths: FAILED in {' and '.join(failed)} ({'; '.join(figures)}; at "
              f"most {count} over {over} and none over {maximum} lines allowed in each language)")
        return 1
    print(f"function lengths: ok ({'; '.join(figures)})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--over", type=int, default=60, help="list functions longer than this")
    parser.add_argument(
        "--check", nargs=2, type=int, metavar=("COUNT", "MAXIMUM"),
        help="exit 1 if, in either language, more than COUNT are over --over lines or any is "
             "over MAXIMUM")
    parser.add_argument("--root", type=pathlib.Path, default=ROOT,
                        help="the repository to read (default: the one holding this script)")
    args = parser.parse_args()
    root = args.root.resolve()
    if not (root / "Sources").is_dir():
        parser.error(f"--root {args.root}: no Sources/ folder there. HINT: give the "
                     "repository's root folder")
    python = python_files(root)
    try:
        found = {"Swift": list(swift_functions(root)),
                 "Python": list(python_functions(root, python))}
    except SyntaxError as error:
        print(f"function-lengths: {error.filename}:{error.lineno}:{error.offset or 0}: "
              f"{error.msg}. HINT: the file must parse with this Python "
              f"({sys.version.split()[0]}) to be counted", file=sys.stderr)
        return 2
    report("Swift", "Sources/", found["Swift"], args.over)
    report("Python", f"{len(python)} .py files", found["Python"], args.over)
    if args.check:
        return check(found, args.over, *args.check)
    return 0


if __name__ == "__main__":
    sys.exit(main())
