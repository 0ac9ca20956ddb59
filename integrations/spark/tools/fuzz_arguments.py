"""Fuzzes the Spark job's argument handling: random argument lists (the job's flags, paths into
a scratch tree of cohorts, earlier outputs, files and links, numbers and random text, built
fresh or mutated from the seeds in Fuzz/Corpus/spark-args) go to `job.parse_arguments`, then
to the output rule (`outputs.check_output` on the local file system), with a random
`_MOTUS_JOB` in the earlier outputs. Each input must end in a usage error (exit 2), help
(exit 0), an `OutputError`, or arguments the job can run with (a positive finite task size,
non-empty paths); anything else, a traceback included, is a finding, saved as
ARTIFACTS/spark-args-crash-N.json ({"argv": [...], "marker": "..."}, placeholders such as
{cohort} standing for the scratch tree) and replayed with --replay FILE. The scratch tree
must be left as it was: the checks only look.

    python tools/fuzz_arguments.py SECONDS [--corpus DIR] [--artifacts DIR] [--replay FILE]

Prints "fuzz spark-args: S s, N inputs, K distinct outcomes, no crash" (the line
scripts/fuzz.sh prints for its targets) or "fuzz spark-args: FOUND A CRASH ..." and exits 1.
Needs hypothesis, not Spark.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import sys
import tempfile
import time
import traceback
from typing import Any, Optional

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from motus_spark import job  # noqa: E402
from motus_spark.outputs import (  # noqa: E402
    MARKER,
    LocalFiles,
    OutputError,
    check_output,
    marker_text,
)

FLAGS = [
    "score", "features", "-o", "--output", "--overwrite", "--over", "--input", "files",
    "parquet", "--partitions", "--target-partition-mb", "--motus", "--motus-on-executors",
    "--master", "local[2]", "--recording-column", "--time-column", "--", "-h", "--format",
    "--segments", "--spec-output", "--smoothing", "-o=", "--output=", "--partitions=",
]  # fmt: skip
NUMBERS = ["0", "1", "-1", "4", "nan", "inf", "-inf", "1e309", "1e-320", "0x10", "٣", " 7 ", ""]
PLACES = [
    "{cohort}", "{cohort}/", "{cohort}/a.csv", "{cohort}/recordings", "{cohort}/*.csv",
    "{cohort}/*/x", "{scratch}", "{scratch}/new", "{scratch}/new/deeper", "{model}",
    "{model}/x", "{motus}", "{file}", "{file}/x", "{earlier-score}", "{earlier-features}",
    "{garbled}", "{empty}", "{link}", "{dangling}", "{dangling}/x", "{cohort}/../cohort",
    "file://{cohort}", "file:{scratch}/new", "s3a://bucket/out", "hdfs:///x", "/", ".", "..",
    "relative/out", "a:b", "{scratch}/" + "x" * 300, "{scratch}/" + "y/" * 2100,
]  # fmt: skip


def scratch_tree(root: str) -> dict[str, str]:
    """The files the placeholders name."""
    paths = {k: os.path.join(root, k) for k in ("cohort", "empty", "link", "dangling", "file")}
    paths.update(scratch=root, model=os.path.join(root, "model.motus"))
    paths.update(motus=os.path.join(root, "motus"))
    for name in ("earlier-score", "earlier-features", "garbled"):
        paths[name] = os.path.join(root, name)
        os.makedirs(os.path.join(paths[name], "recordings"))
        with open(os.path.join(paths[name], MARKER), "w") as f:
            f.write(marker_text(name.split("-")[1]) if name != "garbled" else "")
    os.makedirs(os.path.join(paths["cohort"], "sub"))
    os.mkdir(paths["empty"])
    for path in ("cohort/a.csv", "cohort/recordings", "cohort/_MOTUS_JOB", "file", "model.motus"):
        with open(os.path.join(root, path), "w") as f:
            f.write("timestamp,acceleration.x\n0,1\n")
    with open(paths["motus"], "w") as f:
        f.write("#!/bin/sh\nexit 1\n")
    os.chmod(paths["motus"], 0o755)
    os.symlink(paths["cohort"], paths["link"])
    os.symlink(os.path.join(root, "nothing"), paths["dangling"])
    return paths


def fill(token: str, paths: dict[str, str]) -> str:
    for name, path in paths.items():
        token = token.replace("{" + name + "}", path)
    return token


def tree_state(root: str) -> list[tuple[str, str]]:
    """Every entry under root with its kind and, for files, its text: what must not change."""
    state = []
    for folder, dirs, files in os.walk(root):
        for name in sorted(dirs + files):
            path = os.path.join(folder, name)
            if os.path.islink(path) or not os.path.isfile(path):
                state.append((path, "link" if os.path.islink(path) else "folder"))
            elif not path.endswith(MARKER) or "garbled" not in path:
                with open(path, errors="replace") as f:
                    state.append((path, f.read()))
    return sorted(state)


def outcome_of(argv: list[str]) -> str:
    """What the job's argument handling makes of argv; raises AssertionError (or whatever the
    code raised) when that is not one of its clean endings."""
    said = io.StringIO()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(said):
            args = job.parse_arguments(argv)
    except SystemExit as done:
        assert done.code in (0, 2), f"exit code {done.code!r}"
        words = said.getvalue().rpartition("error: ")[2].split()
        error = ["PATH" if "/" in w else w for w in words]
        return f"exit {done.code}" + (f": {' '.join(error[:2])}" if error else "")
    assert args.mode in ("score", "features") and args.output and "\0" not in args.output
    assert math.isfinite(args.target_partition_mb) and args.target_partition_mb > 0
    assert args.partitions is None or args.partitions >= 1
    assert (args.model is not None) == (args.mode == "score")
    try:
        check_output(args, LocalFiles())
    except OutputError as refused:
        text = str(refused)
        assert "\n" not in text.strip() and "HINT: " in text, text
        return "refused: " + " ".join(text.split("(", 1)[-1].split()[:2])
    return f"may write ({args.mode}, overwrite {args.overwrite})"


OPTIONS = [
    ["--overwrite"], ["--input", "parquet"], ["--input", "files"], ["--partitions", "{number}"],
    ["--target-partition-mb", "{number}"], ["--motus", "{place}"], ["--motus-on-executors",
    "{place}"], ["--time-column", "{token}"], ["--", "{flag}"], ["--", "--smoothing", "hmm"],
]  # fmt: skip


def well_formed(draw: Any) -> list[str]:
    """A command line of the job's shape (mode, paths, -o, options), most of which parse, so
    the output rule sees many; the tokens are still drawn from everything."""
    place, number = st.sampled_from(PLACES), st.sampled_from(NUMBERS)
    mode = draw(st.sampled_from(["score", "features"]))
    argv = [mode] + (["{model}"] if mode == "score" and draw(st.integers(0, 3)) else [])
    argv += draw(st.lists(place, min_size=1, max_size=1 if draw(st.integers(0, 4)) else 2))
    argv += [draw(st.sampled_from(["-o", "--output"])), draw(place)]
    for option in draw(st.lists(st.sampled_from(OPTIONS), max_size=3)):
        kinds = {"{place}": place, "{number}": number, "{flag}": st.sampled_from(FLAGS)}
        argv += [draw(kinds.get(t, st.just(t))) if t != "{token}" else draw(st.text(max_size=6))
                 for t in option]  # fmt: skip
    return argv


def arguments(seeds: list[list[str]]) -> Any:
    token = st.one_of(
        st.sampled_from(FLAGS + PLACES + NUMBERS),
        st.text(max_size=12),
        st.builds(lambda a, b: a + b, st.sampled_from(PLACES + FLAGS), st.text(max_size=4)),
    )
    edits = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 40), token), max_size=3)

    def mutated(seed: list[str], edits: list[tuple[int, int, str]]) -> list[str]:
        argv = list(seed)
        for kind, at, value in edits:
            at = at % (len(argv) + 1)
            if kind == 0:
                argv.insert(at, value)
            elif kind == 1 and at < len(argv):
                argv[at] = value
            elif at < len(argv):
                del argv[at]
        return argv

    bases = [st.composite(well_formed)()] + ([st.sampled_from(seeds)] if seeds else [])
    return st.one_of(
        st.builds(mutated, st.one_of(bases), edits),
        st.builds(lambda m, rest: [m, *rest], st.sampled_from(["score", "features"]),
                  st.lists(token, max_size=12)),  # fmt: skip
    )


def save(artifacts: str, argv: list[str], marker: str, error: str) -> str:
    os.makedirs(artifacts, exist_ok=True)
    number = len(os.listdir(artifacts))
    path = os.path.join(artifacts, f"spark-args-crash-{number}.json")
    with open(path, "w") as f:
        json.dump({"argv": argv, "marker": marker, "error": error}, f, indent=1)
    return path


def fuzz(seconds: float, seeds: list[list[str]], root: str, artifacts: str) -> int:
    paths = scratch_tree(root)
    os.environ["MOTUS"] = paths["motus"]  # the default --motus: one that is there
    garbled = os.path.join(paths["garbled"], MARKER)
    before = tree_state(root)
    outcomes: set[str] = set()
    count, finding = 0, None

    @settings(
        max_examples=50,  # a batch: the deadline is checked between batches
        deadline=None,
        database=None,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    @given(arguments(seeds), st.text(max_size=64) | st.just("[" * 5000))
    def one(template: list[str], marker: str) -> None:
        nonlocal count, finding
        count += 1
        with open(garbled, "w", errors="surrogateescape") as f:
            f.write(marker)
        try:
            outcomes.add(outcome_of([fill(t, paths) for t in template]))
        except BaseException:
            finding = (template, marker, traceback.format_exc())
            raise

    for seed in seeds:  # the seeds themselves first, as libFuzzer's corpus
        outcomes.add(outcome_of([fill(t, paths) for t in seed]))
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and finding is None:
        try:
            one()
        except Exception:  # noqa: BLE001 - the finding is saved and reported below
            break
    if finding is None and tree_state(root) != before:
        finding = ([], "", "the scratch tree changed: an argument check wrote or deleted a file")
    if finding is not None:
        saved = save(artifacts, *finding)
        print(f"fuzz spark-args: FOUND A CRASH after {count} inputs (input: {saved})")
        print("\n".join(line[:300] for line in finding[2].strip().splitlines()[-3:]))
        return 1
    print(
        f"fuzz spark-args: {seconds:g} s, {count} inputs, {len(outcomes)} distinct outcomes, "
        "no crash"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seconds", type=float, nargs="?", default=60.0)
    here = os.path.dirname(os.path.abspath(__file__))
    repository = os.path.normpath(os.path.join(here, "..", "..", ".."))
    parser.add_argument("--corpus", default=os.path.join(repository, "Fuzz/Corpus/spark-args"))
    parser.add_argument("--artifacts", default=os.path.join(repository, ".build/fuzz/artifacts"))
    parser.add_argument("--replay", help="a saved finding: run it once and print the outcome")
    args = parser.parse_args()
    seeds = []
    for name in sorted(os.listdir(args.corpus)) if os.path.isdir(args.corpus) else []:
        with open(os.path.join(args.corpus, name)) as f:
            seeds.append(json.load(f)["argv"])
    with tempfile.TemporaryDirectory(prefix="motus-spark-fuzz-") as root:
        if args.replay:
            with open(args.replay) as f:
                saved = json.load(f)
            seeds = [saved["argv"]]
            paths = scratch_tree(root)
            with open(os.path.join(paths["garbled"], MARKER), "w", errors="surrogateescape") as f:
                f.write(saved["marker"])
            print(outcome_of([fill(t, paths) for t in saved["argv"]]))
            return 0
        return fuzz(args.seconds, seeds, root, args.artifacts)


if __name__ == "__main__":
    sys.exit(main())
