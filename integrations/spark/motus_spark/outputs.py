"""The job's output rule, motus's own (`OutputFile`) for a folder of tables, checked before any
recording is run:

- `-o OUT` may not be, hold, or lie inside an input: the cohort (for a glob, the folder its
  listing starts in), the model, the shipped motus binary. Spark's overwrite would delete the
  input, or the next run would score the tables as recordings.
- OUT, and every folder above it that exists, must be a folder (Spark found out only at its
  write, after motus had run on the whole cohort, with a Java stack trace).
- OUT is new or an empty folder; or, with `--overwrite`, a folder an earlier run of the same
  job wrote, which it recognises by the marker file `_MOTUS_JOB` the job writes there before
  its tables. Without the marker nothing is replaced, whatever the folder holds.

Each refusal is an `OutputError` naming the path, what is wrong and the fix. The file system is
a parameter: `LocalFiles` here (tests, the fuzzer), `HadoopFiles` in the job (any store Spark
writes to).
"""

from __future__ import annotations

import errno
import json
import os
import posixpath
import re
import stat
from typing import Any, Optional, Sequence

from .cohort import CohortError, cohort_root

MARKER = "_MOTUS_JOB"
MARKER_VERSION = 1
MARKER_LIMIT = 4096  # bytes: the job writes about 100
TABLES = {
    "score": ("predictions", "recordings"),
    "features": ("features", "spec.json", "recordings"),
}
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*:)(//[^/]*)?(.*)$")


class OutputError(CohortError):
    """An output the job refuses before any work; the message names it, why, and the fix.

    The message is one line: control characters in the paths it quotes (a cohort named
    by a newline) are written as escapes, so they cannot forge or split the message.
    """

    def __init__(self, message: str) -> None:
        super().__init__(_one_line(message))


def _one_line(text: str) -> str:
    return "".join(
        ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text
    )


def refusal(output: str, reason: str, hint: str) -> OutputError:
    return OutputError(
        f"-o {output}: cannot write there ({reason}); nothing was run and nothing was changed. "
        f"HINT: {hint}"
    )


def _unusable(path: str, what: str, reason: str) -> OutputError:
    return OutputError(
        f"{path}: cannot be {what} ({reason}), so the job cannot tell whether it may write "
        "there; nothing was run and nothing was changed. HINT: check the path's spelling, "
        "length and permissions."
    )


def marker_text(kind: str) -> str:
    """What the job writes to OUT/_MOTUS_JOB before its tables."""
    fields = {"job": "motus_spark", "kind": kind, "version": MARKER_VERSION}
    return json.dumps({**fields, "tables": list(TABLES[kind])}, sort_keys=True) + "\n"


def marker_kind(text: str) -> Optional[str]:
    """The job kind an OUT/_MOTUS_JOB names, or None when it is not a marker the job wrote."""
    try:
        fields = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(fields, dict) or fields.get("job") != "motus_spark":
        return None
    kind = fields.get("kind")
    return kind if isinstance(kind, str) and kind in TABLES else None


def _local(path: str) -> str:
    """A local path, without the `file:` scheme Hadoop may spell it with."""
    return _split(path)[1] if path.startswith("file:") else path


class LocalFiles:
    """The local file system, paths as the job's user spells them (symbolic links followed)."""

    def qualify(self, path: str) -> str:
        match = _SCHEME.match(path)
        if match and match.group(1) != "file:":
            return path
        local = match.group(3) if match else path
        return "file:" + os.path.realpath(local)

    def kind(self, path: str) -> Optional[str]:
        """"folder", "file" (anything else that is there), "dangling link", or None."""
        local = _local(path)
        try:
            mode = os.stat(local).st_mode
        except OSError as error:
            if error.errno not in (errno.ENOENT, errno.ENOTDIR):
                raise _unusable(path, "examined", error.strerror)
            return "dangling link" if os.path.islink(local) else None
        return "folder" if stat.S_ISDIR(mode) else "file"

    def names(self, path: str) -> list[str]:
        try:
            return sorted(os.listdir(_local(path)))
        except OSError as error:
            raise _unusable(path, "listed", error.strerror)

    def read(self, path: str) -> str:
        try:
            with open(_local(path), "rb") as f:
                return f.read(MARKER_LIMIT + 1).decode("utf-8", errors="replace")
        except OSError as error:
            raise _unusable(path, "read", error.strerror)


class HadoopFiles:
    """Spark's Hadoop file system: the store the tables are written to, whatever its scheme."""

    def __init__(self, spark: Any) -> None:
        self.jvm = spark.sparkContext._jvm
        self.conf = spark.sparkContext._jsc.hadoopConfiguration()

    def _call(self, path: str, what: str, action: Any) -> Any:
        from py4j.protocol import Py4JError

        try:
            hadoop = self.jvm.org.apache.hadoop.fs.Path(path)
            return action(hadoop.getFileSystem(self.conf), hadoop)
        except Py4JError as error:
            first = (str(error).strip().splitlines() or [""])[-1][:200]
            raise _unusable(path, what, first)

    def qualify(self, path: str) -> str:
        match = _SCHEME.match(path)
        if match and match.group(1) != "file:":
            return path  # its store is named: no file system of it is needed to compare
        qualified = self._call(path, "examined", lambda fs, p: fs.makeQualified(p).toString())
        if qualified.startswith("file:"):
            return LocalFiles().qualify(qualified)
        return qualified

    def kind(self, path: str) -> Optional[str]:
        if self.qualify(path).startswith("file:"):  # the local rule sees symbolic links
            return LocalFiles().kind(path)

        def look(fs: Any, p: Any) -> Optional[str]:
            if not fs.exists(p):
                return None
            return "folder" if fs.getFileStatus(p).isDirectory() else "file"

        return self._call(path, "examined", look)

    def names(self, path: str) -> list[str]:
        listed = self._call(path, "listed", lambda fs, p: fs.listStatus(p))
        return sorted(s.getPath().getName() for s in listed)

    def read(self, path: str) -> str:
        def text(fs: Any, p: Any) -> str:
            if fs.getFileStatus(p).getLen() > MARKER_LIMIT:
                return "(too long)"
            reader = self.jvm.java.io.BufferedReader(
                self.jvm.java.io.InputStreamReader(fs.open(p), "UTF-8")
            )
            try:
                lines = iter(reader.readLine, None)
                return "\n".join(lines)
            finally:
                reader.close()

        return self._call(path, "read", text)


def _split(path: str) -> tuple[str, str]:
    """("scheme://authority", the rest) of a path; ("", path) without a scheme."""
    match = _SCHEME.match(path)
    return (match.group(1) + (match.group(2) or ""), match.group(3)) if match else ("", path)


def _parts(qualified: str) -> tuple[str, tuple[str, ...]]:
    """("scheme://authority", path components) of a qualified path."""
    head, rest = _split(qualified)
    return head, tuple(p for p in posixpath.normpath(rest or "/").split("/") if p not in ("", "."))


def relation(output: str, source: str) -> Optional[str]:
    """How two qualified paths meet: "is", "lies inside", "holds", or None."""
    (a_head, a), (b_head, b) = _parts(output), _parts(source)
    if a_head != b_head:
        return None
    if a == b:
        return "is"
    if a[: len(b)] == b:
        return "lies inside"
    return "holds" if b[: len(a)] == a else None


def job_inputs(args: Any) -> list[tuple[str, str]]:
    """(what, path) of every input the job reads on the driver's side."""
    inputs = [("the cohort", cohort_root(args.cohort))]
    if args.model:
        inputs.append(("the model", args.model))
    if args.motus_on_executors is None and args.motus:
        inputs.append(("the motus binary (--motus)", args.motus))
    return inputs


def refuse_input_overlap(args: Any, files: Any) -> None:
    """OUT may not be, hold, or lie inside an input."""
    out = files.qualify(args.output)
    for what, path in job_inputs(args):
        meeting = relation(out, files.qualify(path))
        if meeting is None or (meeting == "lies inside" and what != "the cohort"):
            continue  # inside a file: refuse_non_folders says so
        reason = {
            "is": f"it is {what}, {path}; the job's tables would replace or join the input",
            "lies inside": f"it lies inside {what}, {path}; the tables would be written among "
            "the input's files, and the next run would read them as recordings",
            "holds": f"it holds {what}, {path}, which a table of the same name or --overwrite "
            "would delete",
        }[meeting]
        raise refusal(args.output, reason, "give -o a folder outside every input of the job.")


def refuse_non_folders(output: str, files: Any) -> None:
    """OUT, and the nearest folder above it that exists, must be folders."""
    kind = files.kind(output)
    if kind in ("file", "dangling link"):
        what = "a file" if kind == "file" else "a symbolic link to nothing"
        raise refusal(
            output,
            f"it is {what}, and the job writes a folder of tables",
            "give a folder that does not exist yet, or an earlier output of the job.",
        )
    head, above = _split(output)
    while kind is None and "/" in above.strip("/"):
        above = above.rstrip("/").rsplit("/", 1)[0] or "/"
        kind = files.kind(head + above)
        if kind in ("file", "dangling link"):
            what = "a file" if kind == "file" else "a symbolic link to nothing"
            raise refusal(
                output,
                f"{head + above} is {what}, so no folder can be made inside it",
                "give -o a path whose folders above it are folders.",
            )


def refuse_earlier_output(args: Any, files: Any) -> None:
    """An existing OUT is replaced only with --overwrite and only when an earlier run of the
    same job wrote it (its OUT/_MOTUS_JOB); an empty folder is taken as it is."""
    if files.kind(args.output) != "folder":
        return
    names = files.names(args.output)
    if not names:
        return
    marker = posixpath.join(args.output, MARKER)
    kind = marker_kind(files.read(marker)) if MARKER in names else None
    if kind is None:
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        state = f"holds an unreadable {MARKER}" if MARKER in names else f"holds no {MARKER}"
        raise refusal(
            args.output,
            f"it is a folder no run of the job wrote (it {state}; it holds {shown}), and "
            "--overwrite replaces only an earlier output of the job",
            "give a new or empty folder as -o, or remove this one yourself if it is to go.",
        )
    if not args.overwrite:
        raise refusal(
            args.output,
            f"it holds an earlier output of the job (motus_spark {kind})",
            "give another -o, or --overwrite to replace it.",
        )
    if kind != args.mode:
        raise refusal(
            args.output,
            f"it holds the output of motus_spark {kind}, and this is motus_spark {args.mode}",
            f"give another -o; --overwrite replaces only an output of motus_spark {args.mode}.",
        )


def write_marker(spark: Any, args: Any) -> None:
    """OUT/_MOTUS_JOB, before the tables: a run stopped half way is still known as the job's."""
    from py4j.protocol import Py4JError

    from .job import write_text

    path = posixpath.join(args.output, MARKER)
    try:
        write_text(spark, path, marker_text(args.mode), True)
    except Py4JError as error:
        reason = (str(error).strip().splitlines() or [""])[-1][:200]
        raise refusal(
            args.output,
            f"{path} cannot be written: {reason}",
            "check that the folder can be written there (permissions, the store's settings).",
        ) from None


def check_output(args: Any, files: Any) -> None:
    """Every rule above, in order; raises OutputError, or returns when OUT may be written."""
    refuse_input_overlap(args, files)
    refuse_non_folders(args.output, files)
    refuse_earlier_output(args, files)
