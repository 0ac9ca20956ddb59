"""The Spark job: a cohort of recordings scored (`score`) or turned into a window table
(`features`) by the `motus` binary, one process per recording, on every executor.

    python -m motus_spark score MODEL COHORT -o OUT [--master local[2]] [-- MOTUS FLAGS]
    python -m motus_spark features COHORT -o OUT [-- MOTUS FLAGS]
    spark-submit --master spark://host:7077 --py-files motus_spark.zip \\
        -m motus_spark ...   (or a two-line driver script; see README.md)

`score` writes OUT/predictions (one row per window) and OUT/recordings (one row per
recording); `features` writes OUT/features, OUT/spec.json and OUT/recordings, which `motus
train --windows OUT/features --spec OUT/spec.json` trains on. A recording motus refuses
(exit code != 0) is a `failed` row of OUT/recordings with motus's error text; the rest goes on.
"""

from __future__ import annotations

import argparse
import atexit
import itertools
import json
import math
import os
import shutil
import stat
import struct
import sys
import tempfile
from collections import Counter
from dataclasses import asdict
from fractions import Fraction
from typing import Any, Iterable, Iterator, Optional, Sequence

from .cohort import CohortError, Recording, list_recordings, pack, partition_count
from .kernel import (
    FeatureTable,
    RecordingSummary,
    features_recording,
    score_recording,
    write_long_layout,
)
from .outputs import MARKER, HadoopFiles, check_output, write_marker

FEATURE_META_COLUMNS = ("session", "subject", "label")  # text columns of `motus features`
# Numbers of `motus features` that are not features: kept as doubles. The features are float32
# in motus and go to Parquet as FloatType, so `motus train --windows` reads the very values.
PLACE_COLUMNS = ("purity", "start_s")


# ---- Output schemas (Spark types are imported late: the kernel runs without Spark) ----


def prediction_schema() -> Any:
    from pyspark.sql import types as T

    return T.StructType(
        [
            T.StructField("recording", T.StringType(), False),
            T.StructField("session", T.StringType(), True),
            T.StructField("start", T.DoubleType(), False),
            T.StructField("end", T.DoubleType(), False),
            T.StructField("label", T.StringType(), False),
            T.StructField("probability", T.DoubleType(), False),
            T.StructField("confidence", T.StringType(), False),
            T.StructField("unknown_reason", T.StringType(), True),
            T.StructField("probabilities", T.MapType(T.StringType(), T.DoubleType()), False),
        ]
    )


def summary_schema() -> Any:
    from pyspark.sql import types as T

    long, text = T.LongType(), T.StringType()
    return T.StructType(
        [
            T.StructField("recording", text, False),
            T.StructField("path", text, False),
            T.StructField("bytes", long, False),
            T.StructField("status", text, False),
            T.StructField("exit_code", T.IntegerType(), False),
            T.StructField("error", text, True),
            T.StructField("samples", long, True),
            T.StructField("windows", long, True),
            T.StructField("gaps", long, True),
            T.StructField("samples_skipped_nan", long, True),
            T.StructField("samples_skipped_out_of_order", long, True),
            T.StructField("rows_skipped_unreadable", long, True),
            T.StructField("windows_not_finite", long, True),
            T.StructField("seconds_by_activity", T.MapType(text, T.DoubleType()), False),
            T.StructField("steps", long, True),
            T.StructField("push_ups", long, True),
            T.StructField("messages", T.ArrayType(text), False),
            T.StructField("motus_seconds", T.DoubleType(), False),
            T.StructField("motus_cpu_seconds", T.DoubleType(), False),
            T.StructField("host", text, False),
        ]
    )


def summary_row(summary: RecordingSummary) -> tuple:
    return tuple(asdict(summary).values())


# ---- Executor side ----


class Executable:
    """Where motus and the model are on an executor: shipped with the job (SparkFiles, as
    `spark-submit --files` does) or at a path every executor already has."""

    def __init__(self, motus: str, model: Optional[str], shipped: bool) -> None:
        self.motus, self.model, self.shipped = motus, model, shipped

    def resolve(self) -> tuple[str, Optional[str]]:
        from pyspark import SparkFiles

        motus = SparkFiles.get(os.path.basename(self.motus)) if self.shipped else self.motus
        if self.shipped and not os.access(motus, os.X_OK):  # a copy of our own: make it runnable
            os.chmod(motus, os.stat(motus).st_mode | stat.S_IXUSR)
        model = SparkFiles.get(os.path.basename(self.model)) if self.model else None
        return motus, model


def _tagged(kind: str, rows: Iterable[tuple]) -> Iterator[tuple[str, tuple]]:
    return ((kind, row) for row in rows)


def _prediction_rows(predictions: Iterable[Any]) -> Iterator[tuple]:
    for p in predictions:
        yield (
            p.recording,
            p.session,
            p.start,
            p.end,
            p.label,
            p.probability,
            p.confidence,
            p.unknown_reason,
            p.probabilities,
        )


def _feature_result(
    summary: RecordingSummary, table: Optional[FeatureTable]
) -> Iterator[tuple[str, tuple]]:
    yield "s", (summary_row(summary), (table.header, table.spec) if table else None)
    if table:
        # The window's place in its recording: motus orders a table's rows by it, whatever
        # order the parts come back in.
        for index, row in enumerate(table.rows):
            yield "f", (summary.recording, index, row)


def process_files(mode: str, where: Executable, extra: Sequence[str]):
    """The task of a file cohort: its recordings, one motus process each."""

    def task(bins: Iterator[list[Recording]]) -> Iterator[tuple[str, tuple]]:
        motus, model = where.resolve()
        scratch = tempfile.mkdtemp(prefix="motus-spark-")
        try:
            for recordings in bins:
                for r in recordings:
                    if mode == "score":
                        result = score_recording(
                            motus, model, r.name, r.path, r.bytes, scratch, extra
                        )
                        yield "s", summary_row(result.summary)
                        yield from _tagged("p", _prediction_rows(result.predictions))
                    else:
                        yield from _feature_result(
                            *features_recording(motus, r.name, r.path, r.bytes, scratch, extra)
                        )
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    return task


def process_parquet(
    mode: str, where: Executable, extra: Sequence[str], header: list[str], source: str
):
    """The task of a Parquet cohort: rows arrive sorted by recording; each recording's rows
    become a temporary long-layout CSV on the executor, handed to motus, then deleted."""

    def task(rows: Iterator[Any]) -> Iterator[tuple[str, tuple]]:
        motus, model = where.resolve()
        scratch = tempfile.mkdtemp(prefix="motus-spark-")
        path = os.path.join(scratch, "recording.csv")
        try:
            # Rows are (header..., recording): the recording column was selected last.
            for name, group in itertools.groupby(rows, key=lambda row: row[-1]):
                write_long_layout(header, (row[:-1] for row in group), path)
                size = os.path.getsize(path)
                shown = f"{source} (recording '{name}')"
                if mode == "score":
                    result = score_recording(
                        motus, model, str(name), path, size, scratch, extra, shown
                    )
                    yield "s", summary_row(result.summary)
                    yield from _tagged("p", _prediction_rows(result.predictions))
                else:
                    yield from _feature_result(
                        *features_recording(motus, str(name), path, size, scratch, extra, shown)
                    )
                os.remove(path)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    return task


# ---- Driver side ----


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="motus_spark",
        description="Score a cohort of recordings, or make its window table, with motus on Spark.",
        epilog="Flags after -- go to every motus run unchanged, e.g. -- --smoothing hmm.",
    )
    parser.add_argument("mode", choices=["score", "features"])
    parser.add_argument(
        "inputs",
        nargs="+",
        metavar="MODEL COHORT",
        help="score: the model file and the cohort; features: the cohort",
    )
    parser.add_argument(
        "-o", "--output", required=True, help="folder for the Parquet tables (new or empty)"
    )
    parser.add_argument("--master", help="Spark master, e.g. local[2] (default: spark-submit's)")
    parser.add_argument(
        "--input",
        choices=["files", "parquet"],
        default="files",
        help="files: a folder or glob, each match a recording; parquet: a "
        "dataset of samples with a recording column",
    )
    parser.add_argument("--recording-column", default="recording")
    parser.add_argument(
        "--time-column",
        default="timestamp",
        help="Parquet input: the time column rows are sorted by",
    )
    repository = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
    parser.add_argument(
        "--motus",
        default=os.environ.get(
            "MOTUS", os.path.normpath(os.path.join(repository, ".build/release/motus"))
        ),
        help="the binary on the driver, shipped to the executors (SparkFiles); "
        "default $MOTUS, else this checkout's .build/release/motus",
    )
    parser.add_argument(
        "--motus-on-executors",
        metavar="PATH",
        help="use this path on every executor instead of shipping --motus",
    )
    parser.add_argument("--partitions", type=int, help="tasks (default: by cores and size)")
    parser.add_argument(
        "--target-partition-mb",
        type=float,
        default=256.0,
        help="file cohorts: at most about this much data per task",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help=f"replace an earlier output of the same job (a folder holding its {MARKER})",
    )
    return parser


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    """The job's arguments; a usage error (exit 2) for anything the job cannot run with."""
    parser = argument_parser()
    own, extra = (
        (argv, []) if "--" not in argv else (argv[: argv.index("--")], argv[argv.index("--") + 1 :])
    )
    args = parser.parse_args(own)
    args.extra = extra
    wanted = 2 if args.mode == "score" else 1
    if len(args.inputs) != wanted:
        parser.error(
            f"{args.mode} takes {'MODEL COHORT' if wanted == 2 else 'COHORT'}, got {len(args.inputs)} paths"
        )
    args.model, args.cohort = args.inputs if wanted == 2 else (None, args.inputs[0])
    check_arguments(parser, args)
    return args


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    # The job reads motus's JSON lines and standard output: flags that change them are its own.
    owned = {"score": ("--format", "--segments", "--realtime"), "features": ("-o", "--output", "--spec-output")}[
        args.mode
    ]
    for flag in args.extra:
        if flag.split("=")[0] in owned:
            parser.error(
                f"{flag} after -- would change the output the job reads; "
                f"the job sets {', '.join(owned)} itself"
            )
    if args.partitions is not None and args.partitions < 1:
        parser.error(f"--partitions must be positive, got {args.partitions}")
    if not (0 < args.target_partition_mb < math.inf):
        parser.error(
            f"--target-partition-mb must be a positive number, got {args.target_partition_mb}"
        )
    paths = {"-o": args.output, "--motus": args.motus, "MODEL": args.model, "COHORT": args.cohort}
    paths["--motus-on-executors"] = args.motus_on_executors
    for name, path in paths.items():
        if path is not None and (not path or "\0" in path):
            problem = "an empty path" if not path else "a path cannot hold a NUL character"
            parser.error(f"{name} {path!r}: {problem}")
    for name, path in (
        ("--motus", None if args.motus_on_executors else args.motus),
        ("MODEL", args.model),
    ):
        if path and not os.path.isfile(path):
            parser.error(
                f"{name} {path}: no such file"
                + (
                    ". HINT: build it with `swift build -c release --product motus`"
                    if name == "--motus"
                    else ""
                )
            )


_archive: Optional[str] = None


def package_archive() -> str:
    """This package as a zip, made once per driver process (Spark refuses one name added from
    two paths) and removed when the driver exits: executors fetch it while the session lives."""
    global _archive
    if _archive is None:
        package = os.path.dirname(os.path.abspath(__file__))
        folder = tempfile.mkdtemp(prefix="motus_spark-")
        atexit.register(shutil.rmtree, folder, True)
        _archive = shutil.make_archive(
            os.path.join(folder, "motus_spark"), "zip", os.path.dirname(package), "motus_spark"
        )
    return _archive


def start_spark(master: Optional[str], where: Executable, name: str, spark: Any = None) -> Any:
    """A session (the caller's, when given), with motus and the model added as job files."""
    if spark is None:
        from pyspark.sql import SparkSession

        # No progress bar: its carriage returns would hide the job's own lines.
        builder = SparkSession.builder.appName(name).config("spark.ui.showConsoleProgress", "false")
        if master:
            builder = builder.master(master)
        spark = builder.getOrCreate()
        spark.sparkContext.setLogLevel("ERROR")
    # The executors' Python workers import this package too: it travels with the job, so
    # neither --py-files nor an install on the executors is needed.
    spark.sparkContext.addPyFile(package_archive())
    if where.shipped:
        spark.sparkContext.addFile(os.path.abspath(where.motus))
    if where.model:
        spark.sparkContext.addFile(os.path.abspath(where.model))
    return spark


def tagged_results(spark: Any, args: argparse.Namespace, where: Executable) -> Any:
    """The RDD of ("s", summary), ("p", prediction) and ("f", feature row) records."""
    sc = spark.sparkContext
    if args.input == "files":
        recordings = list_recordings(spark, args.cohort)
        target = int(args.target_partition_mb * 1e6)
        count = args.partitions or partition_count(recordings, sc.defaultParallelism, target)
        bins = pack(recordings, count)
        print(
            f"motus_spark: {len(recordings)} recordings, {sum(r.bytes for r in recordings) / 1e6:.1f} MB, "
            f"{len(bins)} tasks",
            file=sys.stderr,
        )
        return sc.parallelize(bins, len(bins)).mapPartitions(
            process_files(args.mode, where, args.extra)
        )
    frame = spark.read.parquet(args.cohort)
    for column in (args.recording_column, args.time_column):
        if column not in frame.columns:
            raise CohortError(
                f"{args.cohort}: no column '{column}' (columns: {', '.join(frame.columns)}). "
                "HINT: name it with --recording-column or --time-column."
            )
    header = [c for c in frame.columns if c != args.recording_column]
    names = frame.select(args.recording_column).distinct().count()
    count = args.partitions or max(1, min(names, 4 * sc.defaultParallelism))
    order = (
        [args.recording_column] + (["session"] if "session" in header else []) + [args.time_column]
    )
    quoted = [f"`{c}`" for c in header + [args.recording_column]]  # names hold dots: acceleration.x
    rows = (
        frame.select(*quoted)
        .repartition(count, quoted[-1])
        .sortWithinPartitions(*(f"`{c}`" for c in order))
    )
    print(f"motus_spark: {names} recordings in {args.cohort}, {count} tasks", file=sys.stderr)
    # motus reads the time column by name; the CSV keeps the dataset's names.
    time_flag = [] if args.time_column == "timestamp" else ["--time-column", args.time_column]
    task = process_parquet(args.mode, where, time_flag + args.extra, header, args.cohort)
    return rows.rdd.mapPartitions(task)


def _float32_bits(value: float) -> int:
    return struct.unpack("<I", struct.pack("<f", value))[0]


def _float32_from_bits(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def _float32_toward(value: float, upward: bool) -> float:
    """The float32 next to the float32 `value`, up or down."""
    if value == 0:
        return _float32_from_bits(1) if upward else -_float32_from_bits(1)
    return _float32_from_bits(_float32_bits(value) + (1 if (value > 0) == upward else -1))


def float32_of(text: str) -> float:
    """The float32 nearest to the decimal `text` (motus prints each feature, a float32, as the
    shortest decimal that reads back to it), as a Python float holding that float32 exactly.
    Reading the decimal as a double and then narrowing it can round twice and land on the
    neighbouring float32 when the double falls on or next to the midpoint between two; there
    the decimal itself is compared with the midpoint, exactly."""
    wide = float(text)
    try:
        near = struct.unpack("<f", struct.pack("<f", wide))[0]
    except OverflowError:  # beyond float32: motus never prints one
        return wide
    if near == wide or not math.isfinite(near):
        return near
    other = _float32_toward(near, upward=wide > near)
    middle = (near + other) / 2  # exact: two float32s' mean fits a double
    if abs(wide - middle) > abs(wide) * 2.0**-50:
        return near  # the decimal is on the double's side of the midpoint
    exact, half = Fraction(text), Fraction(middle)
    if exact == half:  # a tie goes to the even float32, as a direct parse does
        return near if _float32_bits(near) % 2 == 0 else other
    return near if abs(exact - Fraction(near)) < abs(exact - Fraction(other)) else other


def spec_key(spec: str) -> str:
    """A recording's spec without its row count, which differs between recordings."""
    fields = json.loads(spec)
    fields.pop("windowCount", None)
    return json.dumps(fields, sort_keys=True)


def cohort_columns_and_spec(tables: dict[str, tuple[list[str], str]]) -> tuple[tuple, str]:
    """The feature columns and spec (without its row count) most recordings share."""
    return Counter((tuple(h), spec_key(s)) for h, s in tables.values()).most_common(1)[0][0]


def table_mismatch(
    recording: str, table: tuple[list[str], str], cohort_header: tuple, cohort_spec: str
) -> Optional[str]:
    """Why a recording's window table cannot join the cohort's, or None when it can."""
    header, spec = table
    if tuple(header) != cohort_header:
        missing = sorted(set(cohort_header) - set(header))[:3]
        extra = sorted(set(header) - set(cohort_header))[:3]
        return (
            f"{recording}: its feature columns are not the cohort's ({len(header)} against "
            f"{len(cohort_header)}; missing {missing}, extra {extra}). HINT: give every "
            "recording the same channels (motus flag --channels) and rate (--sample-rate)."
        )
    if spec_key(spec) != cohort_spec:
        theirs, ours = json.loads(spec)["featureSpec"], json.loads(cohort_spec)["featureSpec"]
        differing = sorted(k for k in set(theirs) | set(ours) if theirs.get(k) != ours.get(k))
        return (
            f"{recording}: its windows are not the cohort's (the spec differs in "
            f"{', '.join(differing[:3])}). HINT: give every recording one rate with the "
            "motus flag --sample-rate."
        )
    return None


def mark_mismatched(
    summaries: list[tuple], tables: dict[str, tuple[list[str], str]], cohort: tuple[tuple, str]
) -> tuple[list[tuple], set[str], int, Optional[str]]:
    """The summaries with every recording whose table is not the cohort's marked failed (its
    reason as the error), the recordings kept, their window count and the first kept spec."""
    kept, marked, windows, spec_text = set(), [], 0, None
    for row in summaries:
        table = tables.get(row[0])
        reason = None if table is None else table_mismatch(row[0], table, *cohort)
        if reason is not None:
            fields = list(row)
            fields[3], fields[5] = "failed", reason
            row = tuple(fields)
        elif table is not None:
            kept.add(row[0])
            windows += row[7] or 0
            spec_text = spec_text or table[1]
        marked.append(row)
    return marked, kept, windows, spec_text


def cohort_spec_file(spec_text: Optional[str], windows: int) -> Optional[str]:
    """The spec file of the whole table: a recording's spec with the cohort's row count."""
    if not spec_text:
        return None
    spec = json.loads(spec_text)
    spec["windowCount"] = windows
    return json.dumps(spec, indent=2, sort_keys=True) + "\n"


def feature_schema(cohort_header: tuple) -> Any:
    """recording and window, then the text columns as strings, the place columns as doubles
    and the features as floats."""
    from pyspark.sql import types as T

    text = set(FEATURE_META_COLUMNS)
    return T.StructType(
        [
            T.StructField("recording", T.StringType(), False),
            T.StructField("window", T.LongType(), False),
        ]
        + [
            T.StructField(
                c,
                T.StringType()
                if c in text
                else T.DoubleType() if c in PLACE_COLUMNS else T.FloatType(),
                True,
            )
            for c in cohort_header
        ]
    )


def typed_feature_row(cohort_header: tuple, record: tuple) -> tuple:
    """A ("f") record's text cells as the values feature_schema gives their columns."""
    text = set(FEATURE_META_COLUMNS)
    recording, index, values = record
    return (
        recording,
        index,
        *[
            (
                v
                if c in text
                else None if v == "" else float(v) if c in PLACE_COLUMNS else float32_of(v)
            )
            for c, v in zip(cohort_header, values)
        ],
    )


def feature_frame(
    spark: Any, tagged: Any, summaries: list[tuple], tables: dict[str, tuple[list[str], str]]
) -> tuple[Any, list[tuple], Optional[str]]:
    """The window table of every recording whose columns and spec are the cohort's (those of
    most recordings), and the cohort's spec file with its row count; a recording with other
    columns or another spec (its rate, say) is marked failed, saying what differs."""
    if not tables:
        return None, summaries, None
    cohort = cohort_columns_and_spec(tables)
    marked, kept, windows, spec_text = mark_mismatched(summaries, tables, cohort)
    cohort_header = cohort[0]
    wanted = spark.sparkContext.broadcast(kept)
    rows = tagged.filter(lambda t: t[0] == "f" and t[1][0] in wanted.value).map(
        lambda t: typed_feature_row(cohort_header, t[1])
    )
    schema = feature_schema(cohort_header)
    return spark.createDataFrame(rows, schema), marked, cohort_spec_file(spec_text, windows)


def write_text(spark: Any, path: str, text: str, overwrite: bool) -> None:
    """One small file through Spark's Hadoop file system, so any store the job writes to
    (a local folder, HDFS, s3a://) takes it."""
    jvm = spark.sparkContext._jvm
    target = jvm.org.apache.hadoop.fs.Path(path)
    fs = target.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
    out = fs.create(target, overwrite)
    try:
        out.write(bytearray(text.encode("utf-8")))
    finally:
        out.close()


def remove(spark: Any, path: str) -> None:
    """Deletes a table of an earlier run of the job (its marker checked), if it is there."""
    target = spark.sparkContext._jvm.org.apache.hadoop.fs.Path(path)
    target.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()).delete(target, True)


def write_tables(spark: Any, args: argparse.Namespace, tagged: Any) -> list[tuple]:
    """One pass of motus over the cohort: the summaries are collected (small), the window
    rows then come from the persisted results, not from a second run. Returns the summaries."""
    mode = "overwrite" if args.overwrite else "errorifexists"
    records = tagged.filter(lambda t: t[0] == "s").map(lambda t: t[1]).collect()
    if args.mode == "score":
        summaries = records
        spark.createDataFrame(
            tagged.filter(lambda t: t[0] == "p").map(lambda t: t[1]), prediction_schema()
        ).write.mode(mode).parquet(os.path.join(args.output, "predictions"))
    else:
        tables = {row[0]: table for row, table in records if table is not None}
        frame, summaries, spec = feature_frame(spark, tagged, [row for row, _ in records], tables)
        if frame is not None:
            frame.write.mode(mode).parquet(os.path.join(args.output, "features"))
            write_text(spark, os.path.join(args.output, "spec.json"), spec, args.overwrite)
        elif args.overwrite:  # no recording made a table: the earlier run's must not stay
            for name in ("features", "spec.json"):
                remove(spark, os.path.join(args.output, name))
    spark.createDataFrame(sorted(summaries), summary_schema()).coalesce(1).write.mode(
        mode
    ).parquet(os.path.join(args.output, "recordings"))
    return summaries


def run(argv: Sequence[str], spark: Any = None) -> int:
    """The job; with `spark`, in that running session (the check and the benchmark start one
    JVM for several jobs), which is left running."""
    args = parse_arguments(argv)
    shipped = args.motus_on_executors is None
    where = Executable(args.motus if shipped else args.motus_on_executors, args.model, shipped)
    owned = spark is None
    spark = start_spark(args.master, where, f"motus {args.mode}", spark)
    try:
        from pyspark import StorageLevel

        # Before any work, through the file system the tables go to (see outputs.py).
        check_output(args, HadoopFiles(spark))
        tagged = tagged_results(spark, args, where).persist(StorageLevel.MEMORY_AND_DISK)
        write_marker(spark, args)
        summaries = write_tables(spark, args, tagged)
        tagged.unpersist()
    except CohortError as error:
        print(f"motus_spark: {error}", file=sys.stderr)
        return 2
    finally:
        if owned:
            spark.stop()
    failed = [row for row in summaries if row[3] == "failed"]
    windows = sum(row[7] or 0 for row in summaries)
    print(
        f"motus_spark: {len(summaries)} recordings, {len(failed)} failed, {windows} windows -> {args.output}"
    )
    for row in failed:
        first = (row[5] or "").splitlines()[0] if row[5] else ""
        print(f"  failed: {row[0]}: {first}", file=sys.stderr)
    return 0


def main() -> None:
    sys.exit(run(sys.argv[1:]))


if __name__ == "__main__":
    main()
