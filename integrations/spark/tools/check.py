"""Checks the Spark job against `motus stream` run recording by recording on one machine.

Runs the job in local mode on a cohort (a folder of recordings, and a Parquet dataset made
from some of them), then motus itself on every recording, and requires:
- the same predictions: the same rows with the same values (every field of every window);
- for a recording motus refuses, a `failed` row with motus's own error text, and nothing
  else of it;
- the summary's seconds per activity, steps and push-ups equal to what `motus stream
  --segments --steps` says (the sums of its segments), its samples and windows to motus's
  summary line;
- the cluster's window table (`features` on the MotionSense recordings) trains, with `motus
  train --windows OUT/features --spec OUT/spec.json`, the model file that `motus train` on
  the folder of those recordings writes, byte for byte.
Prints what differs and exits 1, or exits 0.

    python tools/check.py MOTUS MODEL COHORT WORK [--master local[2]]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Optional

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from motus_spark import job  # noqa: E402
from motus_spark.kernel import _STREAM_LINE  # noqa: E402

PARQUET_RECORDINGS = 8  # MotionSense files also checked through --input parquet
TABLE_RECORDINGS = 24  # MotionSense files whose cluster-made table trains a model


def check_table_training(
    spark: Any, motus: str, cohort: str, names: list[str], work: str, problems: list[str]
) -> None:
    """`features` on the cluster, then training from its table and from the recordings: the
    two model files must be the same bytes. The recordings are hard links in a folder of
    their own, so motus reads that folder as the job listed it."""
    folder = os.path.join(work, "table-cohort")
    os.mkdir(folder)
    for name in names:
        os.link(os.path.join(cohort, name), os.path.join(folder, name))
    out = os.path.join(work, "table")
    if job.run(["features", folder, "-o", out, "--motus", motus], spark) != 0:
        problems.append("table: the features job failed")
        return
    from_table, from_files = (os.path.join(work, n) for n in ("table.motus", "files.motus"))
    for argv in (
        [
            "--windows",
            os.path.join(out, "features"),
            "--spec",
            os.path.join(out, "spec.json"),
            "-o",
            from_table,
        ],
        [folder, "--augment", "0", "-o", from_files],
    ):
        run = subprocess.run(
            [motus, "train", *argv, "--seed", "1"], capture_output=True, text=True, check=False
        )
        if run.returncode != 0:
            problems.append(f"table: motus train {' '.join(argv[:2])} failed: {run.stderr[-400:]}")
            return
    with open(from_table, "rb") as a, open(from_files, "rb") as b:
        if a.read() != b.read():
            problems.append(
                "table: the model trained from the cluster's window table differs from the one "
                "trained from the recordings"
            )


def prediction_key(p: dict[str, Any], recording: str) -> tuple:
    return (
        recording,
        p.get("session") or None,
        p["start"],
        p["end"],
        p["label"],
        p["probability"],
        p["confidence"],
        p.get("unknown_reason"),
        tuple(sorted(p["probabilities"].items())),
    )


def reference(motus: str, model: str, path: str, recording: str) -> dict[str, Any]:
    """motus on one machine, as a user runs it: predictions, then segments."""
    stream = subprocess.run(
        [motus, "stream", model, path, "--format", "json", "--steps"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    result: dict[str, Any] = {"code": stream.returncode, "stderr": stream.stderr.strip()}
    if stream.returncode != 0:
        return result
    lines = [json.loads(line) for line in stream.stdout.splitlines() if line]
    result["predictions"] = [
        prediction_key(p, recording) for p in lines if p["event"] == "prediction"
    ]
    match = next(m for m in map(_STREAM_LINE.match, stream.stderr.splitlines()) if m)
    result["samples"], result["windows"] = int(match["samples"]), int(match["windows"])
    segments = subprocess.run(
        [motus, "stream", model, path, "--segments", "--steps"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=True,
    )
    milliseconds: dict[str, int] = {}
    steps: Optional[int] = None
    push_ups = 0
    for line in segments.stdout.splitlines():
        s = json.loads(line)
        milliseconds[s["label"]] = (
            milliseconds.get(s["label"], 0) + round(s["end"] * 1000) - round(s["start"] * 1000)
        )
        if "steps" in s:
            steps = (steps or 0) + s["steps"]
        push_ups += s["repetitions"]
    result["seconds"] = {label: ms / 1000 for label, ms in milliseconds.items()}
    result["steps"], result["push_ups"] = steps, push_ups
    return result


def compare(
    spark: Any, out: str, expected: dict[str, dict[str, Any]], problems: list[str], what: str
) -> None:
    got = [tuple(r) for r in spark.read.parquet(os.path.join(out, "predictions")).collect()]
    got = [(*r[:8], tuple(sorted(r[8].items()))) for r in got]
    summaries = {
        r["recording"]: r.asDict()
        for r in spark.read.parquet(os.path.join(out, "recordings")).collect()
    }
    if set(summaries) != set(expected):
        problems.append(
            f"{what}: recordings {sorted(set(summaries) ^ set(expected))[:5]} are in one side only"
        )
    by_recording: dict[str, list[tuple]] = {}
    for row in got:
        by_recording.setdefault(row[0], []).append(row)
    for name, ref in sorted(expected.items()):
        s = summaries.get(name)
        rows = sorted(by_recording.get(name, []), key=repr)
        if s is None:
            continue
        if ref["code"] != 0:
            ok = s["status"] == "failed" and s["exit_code"] == ref["code"] and not rows
            if not ok or (ref["stderr"] not in (s["error"] or "") and what == "files"):
                problems.append(
                    f"{what}: {name}: motus exits {ref['code']} ({ref['stderr'][:120]!r}); "
                    f"the job says {s['status']} {s['exit_code']} {(s['error'] or '')[:120]!r}, {len(rows)} rows"
                )
            continue
        if s["status"] != "ok":
            problems.append(
                f"{what}: {name}: motus reads it; the job says {s['status']}: {s['error']}"
            )
            continue
        want = sorted(ref["predictions"], key=repr)
        if rows != want:
            first = next((a, b) for a, b in itertools.zip_longest(rows, want) if a != b)
            problems.append(
                f"{what}: {name}: {len(rows)} rows against motus's {len(want)}, "
                f"first difference (job, motus): {first}"
            )
        for field, want in (
            ("seconds_by_activity", ref["seconds"]),
            ("steps", ref["steps"]),
            ("push_ups", ref["push_ups"]),
            ("samples", ref["samples"]),
            ("windows", ref["windows"]),
        ):
            if s[field] != want:
                problems.append(f"{what}: {name}: {field} {s[field]} against motus's {want}")


def write_parquet_cohort(spark: Any, cohort: str, names: list[str], path: str) -> None:
    """Some long-layout files as one Parquet dataset of samples with a recording column; the
    time column is named `t`, so the job must pass its name on to motus."""
    from pyspark.sql import types as T

    header = open(os.path.join(cohort, names[0])).readline().strip().split(",")
    text = {"session", "subject", "label"}
    schema = T.StructType(
        [T.StructField("recording", T.StringType())]
        + [
            T.StructField(
                "t" if c == "timestamp" else c, T.StringType() if c in text else T.DoubleType()
            )
            for c in header
        ]
    )
    rows = []
    for name in names:
        with open(os.path.join(cohort, name)) as f:
            next(f)
            for line in f:
                cells = line.rstrip("\n").split(",")
                rows.append((name, *[v if c in text else float(v) for c, v in zip(header, cells)]))
    spark.createDataFrame(rows, schema).repartition(3).write.parquet(path)


def references(motus: str, model: str, cohort: str, names: list[str]) -> dict[str, dict]:
    """motus on one machine for every recording, two at a time, and what it made of them."""
    with ThreadPoolExecutor(2) as pool:
        expected = dict(
            zip(
                names,
                pool.map(
                    lambda n: reference(motus, model, os.path.join(cohort, n), n),
                    names,
                ),
            )
        )
    failing = sum(1 for r in expected.values() if r["code"] != 0)
    print(
        f"check: motus on one machine: {len(names)} recordings, {failing} refused, "
        f"{sum(len(r.get('predictions', [])) for r in expected.values())} windows"
    )
    return expected


def local_session(master: str) -> Any:
    """One JVM for every job and read: Spark's start is most of a small cohort's time."""
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master(master)
        .appName("motus spark check")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def check_parquet_input(
    spark: Any, args: argparse.Namespace, chosen: list[str], expected: dict, problems: list[str]
) -> bool:
    """The chosen recordings as one Parquet dataset of samples through `--input parquet`;
    False when the job fails."""
    parquet_in, parquet_out = (os.path.join(args.work, n) for n in ("samples.parquet", "parquet"))
    write_parquet_cohort(spark, args.cohort, chosen, parquet_in)
    argv = [
        "score",
        args.model,
        parquet_in,
        "-o",
        parquet_out,
        "--input",
        "parquet",
        "--time-column",
        "t",
        "--motus",
        args.motus,
    ]
    if job.run(argv, spark) != 0:
        return False
    compare(spark, parquet_out, {n: expected[n] for n in chosen}, problems, "parquet")
    return True


def check_jobs(
    spark: Any, args: argparse.Namespace, names: list[str], expected: dict, problems: list[str]
) -> Optional[tuple[list[str], list[str]]]:
    """The cohort as files, some of it through Parquet, and a window table trained on; the
    recordings that went through Parquet and those trained on, or None when a job fails."""
    files_out = os.path.join(args.work, "files")
    argv = ["score", args.model, args.cohort, "-o", files_out, "--motus", args.motus]
    if job.run(argv, spark) != 0:
        return None
    compare(spark, files_out, expected, problems, "files")
    chosen = [n for n in names if n.startswith("motionsense-")][:PARQUET_RECORDINGS]
    if not check_parquet_input(spark, args, chosen, expected, problems):
        return None
    trained = [n for n in names if n.startswith("motionsense-")][:TABLE_RECORDINGS]
    check_table_training(spark, args.motus, args.cohort, trained, args.work, problems)
    return chosen, trained


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("motus")
    parser.add_argument("model")
    parser.add_argument("cohort")
    parser.add_argument("work", help="an empty folder for the outputs")
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args()

    names = sorted(n for n in os.listdir(args.cohort) if not n.startswith((".", "_")))
    expected = references(args.motus, args.model, args.cohort, names)
    spark = local_session(args.master)
    problems: list[str] = []
    try:
        checked = check_jobs(spark, args, names, expected, problems)
    finally:
        spark.stop()
    if checked is None:
        return 1
    chosen, trained = checked
    for problem in problems[:20]:
        print("check: " + problem, file=sys.stderr)
    if problems:
        print(f"check: {len(problems)} differences", file=sys.stderr)
        return 1
    print(
        f"check: the Spark job's predictions and summaries equal motus's ({len(names)} recordings "
        f"as files, {len(chosen)} through Parquet); the model trained from the cluster's "
        f"window table of {len(trained)} recordings is the one trained from them"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
