"""scripts/function-lengths.py run on small repositories made in a temporary folder.

    python3 -m unittest discover -s scripts/tests
"""

import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "function-lengths.py"


def python_function(name: str, lines: int, indent: str = "") -> str:
    """A Python function of exactly `lines` lines, `def` line included."""
    body = [f"{indent}    x = {k}" for k in range(lines - 2)]
    return "\n".join([f"{indent}def {name}():", *body, f"{indent}    return x"]) + "\n"


def swift_function(name: str, lines: int) -> str:
    """A Swift function of exactly `lines` lines, from `func` to its closing brace."""
    body = [f"    _ = {k}" for k in range(lines - 2)]
    return "\n".join([f"func {name}() {{", *body, "}"]) + "\n"


class FunctionLengthsTests(unittest.TestCase):
    def setUp(self):
        self.root = pathlib.Path(tempfile.mkdtemp(prefix="function-lengths-"))
        self.addCleanup(shutil.rmtree, self.root)
        self.write("Sources/Module/Short.swift", swift_function("short", 10))

    def write(self, relative: str, text: str) -> None:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def run_script(self, *flags: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, str(SCRIPT), "--root", str(self.root), *flags],
            capture_output=True, text=True)

    def test_a_61_line_python_function_is_reported_and_a_60_line_one_is_not(self):
        self.write("tools/job.py", python_function("long_one", 61) + "\n\n"
                   + python_function("just_under", 60))
        out = self.run_script().stdout
        self.assertIn("1 of 2 functions over 60 lines", out)
        self.assertIn("   61  long_one  tools/job.py:1\n", out)
        self.assertNotIn("just_under", out)

    def test_check_holds_each_language_apart_and_names_the_one_that_fails(self):
        self.write("tools/job.py", python_function("long_one", 61))
        failed = self.run_script("--check", "0", "120")
        self.assertEqual(failed.returncode, 1)
        self.assertIn("function lengths: FAILED in Python (Swift 0 over 60, longest 10; "
                      "Python 1 over 60, longest 61;", failed.stdout)
        passed = self.run_script("--check", "1", "120")
        self.assertEqual(passed.returncode, 0)
        self.assertIn("\nfunction lengths: ok (Swift 0 over 60, longest 10; Python 1 over 60, "
                      "longest 61)\n", passed.stdout)

    def test_a_long_swift_function_fails_swift_only(self):
        self.write("Sources/Module/Long.swift", swift_function("long", 121))
        self.write("tools/job.py", python_function("short", 5))
        result = self.run_script("--check", "5", "120")
        self.assertEqual(result.returncode, 1)
        self.assertIn("function lengths: FAILED in Swift (Swift 1 over 60, longest 121;",
                      result.stdout)

    def test_decorators_are_not_counted(self):
        self.write("tools/job.py", "@staticmethod\n@property\n" + python_function("decorated", 60))
        out = self.run_script().stdout
        self.assertIn("0 of 1 functions over 60 lines", out.split("Python")[1])

    def test_a_nested_function_counts_on_its_own_and_inside_its_parent(self):
        nested = python_function("inner", 61, indent="    ")
        self.write("tools/job.py", "def outer():\n" + nested + "    return inner\n")
        out = self.run_script().stdout
        self.assertIn("   63  outer  tools/job.py:1\n", out)
        self.assertIn("   61  inner  tools/job.py:2\n", out)

    def test_swift_counts_a_nested_function_the_same_way(self):
        inner = swift_function("inner", 61).replace("\n", "\n    ").rstrip()
        self.write("Sources/Module/Nested.swift", "func outer() {\n    " + inner + "\n}\n")
        out = self.run_script().stdout
        self.assertIn("   63  outer  Sources/Module/Nested.swift:1\n", out)
        self.assertIn("   61  inner  Sources/Module/Nested.swift:2\n", out)

    def test_methods_and_async_functions_count(self):
        method = python_function("method", 70, indent="    ")
        self.write("tools/job.py", "class Job:\n" + method + "\n\nasync "
                   + python_function("fetch", 65))
        out = self.run_script().stdout
        self.assertIn("   70  method  tools/job.py:2\n", out)
        self.assertIn("   65  fetch  tools/job.py:74\n", out)

    def test_in_a_git_checkout_ignored_files_stay_out(self):
        if shutil.which("git") is None:
            self.skipTest("git is not installed")
        subprocess.run(["git", "init", "-q", str(self.root)], check=True)
        self.write(".gitignore", "build/\n")
        self.write("build/generated.py", python_function("generated", 200))
        self.write("tools/job.py", python_function("kept", 61))
        out = self.run_script().stdout
        self.assertIn("Python, 1 .py files:", out)
        self.assertIn("kept", out)
        self.assertNotIn("generated", out)

    def test_outside_git_hidden_folders_stay_out(self):
        self.write(".venv/lib/site.py", python_function("installed", 200))
        self.write("tools/job.py", python_function("kept", 61))
        out = self.run_script().stdout
        self.assertIn("Python, 1 .py files:", out)
        self.assertNotIn("installed", out)

    def test_a_file_python_cannot_parse_is_named_with_its_line(self):
        self.write("tools/broken.py", "def fine():\n    return 1\n\ndef broken(:\n    pass\n")
        result = self.run_script("--check", "5", "120")
        self.assertEqual(result.returncode, 2)
        self.assertIn("function-lengths: tools/broken.py:4:", result.stderr)
        self.assertIn("HINT:", result.stderr)
        self.assertNotIn("Traceback", result.stderr)


if __name__ == "__main__":
    unittest.main()
