"""The reported reproductions of data loss, through the whole job (`job.run`) in a local Spark
session, with a stand-in for motus that records each run and fails every recording: each
refused output leaves every file as it was and runs no recording."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import snapshot
from motus_spark import job

pytest.importorskip("pyspark")


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[1]")
        .appName("motus_spark output tests")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The model and the motus stand-in, one path each for the session (Spark ships a file
    name from one path only); the stand-in appends each run to motus-runs.log."""
    folder = tmp_path_factory.mktemp("shipped")
    (folder / "model.motus").write_bytes(b"a stand-in model")
    log = folder / "motus-runs.log"
    log.write_text("")
    motus = folder / "motus"
    motus.write_text(f'#!/bin/sh\necho "$@" >> "{log}"\necho "Error: a stand-in" >&2\nexit 1\n')
    motus.chmod(0o755)
    return folder


def cohort(folder: Path, names: tuple[str, ...] = ("a.csv", "b.csv")) -> Path:
    folder.mkdir(parents=True)
    for name in names:
        (folder / name).write_text("timestamp,acceleration.x\n0,1\n")
    return folder


def run(spark: Any, shipped: Path, mode: str, *argv: str) -> int:
    model = [str(shipped / "model.motus")] if mode == "score" else []
    return job.run([mode, *model, *argv, "--motus", str(shipped / "motus")], spark)


def runs(shipped: Path) -> int:
    return len((shipped / "motus-runs.log").read_text().splitlines())


def assert_refused(spark: Any, shipped: Path, capsys: Any, keep: Path, *argv: str) -> str:
    """The job exits 2 before running a recording, every file under `keep` as it was."""
    before, ran = snapshot(keep), runs(shipped)
    assert run(spark, shipped, *argv) == 2
    assert snapshot(keep) == before
    assert runs(shipped) == ran
    said = capsys.readouterr().err
    assert "cannot write there" in said and "HINT: " in said
    return said


@pytest.mark.parametrize("mode", ["score", "features"])
def test_output_holding_the_cohort_keeps_it(spark, shipped, capsys, tmp_path, mode) -> None:
    """`score MODEL P/recordings -o P --overwrite` replaced the cohort with the summary table."""
    cohort(tmp_path / "recordings")
    argv = [mode, str(tmp_path / "recordings"), "-o", str(tmp_path), "--overwrite"]
    said = assert_refused(spark, shipped, capsys, tmp_path, *argv)
    assert f"it holds the cohort, {tmp_path}/recordings" in said


@pytest.mark.parametrize("mode", ["score", "features"])
def test_recordings_named_like_the_tables_are_kept(spark, shipped, capsys, tmp_path, mode) -> None:
    """`-o COHORT --overwrite` deleted a recording named recordings, predictions, features or
    spec.json; without --overwrite it wrote the tables among the recordings."""
    names = ("recordings", "predictions", "features", "spec.json", "a.csv")
    folder = cohort(tmp_path / "c", names)
    for extra in (["--overwrite"], []):
        argv = [mode, str(folder), "-o", str(folder), *extra]
        said = assert_refused(spark, shipped, capsys, tmp_path, *argv)
        assert f"it is the cohort, {folder}" in said


def test_existing_file_as_output_is_refused_before_any_run(spark, shipped, capsys, tmp_path):
    """An existing file as -o ran the whole cohort, then failed with a Java stack trace."""
    folder = cohort(tmp_path / "c")
    (tmp_path / "scored").write_text("a file of the user's")
    argv = ["score", str(folder), "-o", str(tmp_path / "scored")]
    said = assert_refused(spark, shipped, capsys, tmp_path, *argv)
    assert "it is a file, and the job writes a folder of tables" in said


def test_overwrite_replaces_only_an_earlier_output_of_the_job(spark, shipped, capsys, tmp_path):
    folder, out = cohort(tmp_path / "c"), tmp_path / "out"
    score, overwrite = ["score", str(folder), "-o", str(out)], "--overwrite"
    assert run(spark, shipped, *score) == 0
    shown = sorted(n for n in os.listdir(out) if not n.startswith("."))  # Hadoop's .crc files
    assert shown == ["_MOTUS_JOB", "predictions", "recordings"]
    assert spark.read.parquet(str(out / "recordings")).count() == 2
    said = assert_refused(spark, shipped, capsys, tmp_path, *score)
    assert "it holds an earlier output of the job (motus_spark score)" in said
    assert run(spark, shipped, *score, overwrite) == 0
    features = ["features", str(folder), "-o", str(out), overwrite]
    said = assert_refused(spark, shipped, capsys, tmp_path, *features)
    assert "this is motus_spark features" in said
    for name in ("_MOTUS_JOB", "._MOTUS_JOB.crc"):  # as an output of the job before the marker
        (out / name).unlink()
    said = assert_refused(spark, shipped, capsys, tmp_path, *score, overwrite)
    assert "(it holds no _MOTUS_JOB; it holds predictions, recordings)" in said


def test_overwritten_features_output_keeps_no_table_of_the_earlier_run(spark, shipped, tmp_path):
    """A features run whose recordings all fail makes no table: the earlier run's window table
    and spec must not stay beside the new recordings table, as if they were its."""
    from motus_spark.outputs import marker_text

    folder, out = cohort(tmp_path / "c"), tmp_path / "out"
    (out / "features").mkdir(parents=True)
    (out / "spec.json").write_text("{}")
    (out / "_MOTUS_JOB").write_text(marker_text("features"))
    assert run(spark, shipped, "features", str(folder), "-o", str(out), "--overwrite") == 0
    assert not (out / "features").exists() and not (out / "spec.json").exists()
    assert spark.read.parquet(str(out / "recordings")).count() == 2


def test_symbolic_link_to_nothing_as_output_is_refused(spark, shipped, capsys, tmp_path):
    """Hadoop's file system does not see the link: the job's local rule does."""
    folder = cohort(tmp_path / "c")
    (tmp_path / "scored").symlink_to(tmp_path / "nowhere")
    argv = ["score", str(folder), "-o", str(tmp_path / "scored")]
    said = assert_refused(spark, shipped, capsys, tmp_path, *argv)
    assert "it is a symbolic link to nothing" in said
