"""The job's output rule (motus_spark/outputs.py) and argument checks, without a Spark session:
the rule takes its file system as a parameter, here the local one the job's Hadoop file system
reads for a local path."""

from __future__ import annotations

from pathlib import Path

import pytest

from motus_spark import job
from motus_spark.outputs import (
    MARKER,
    LocalFiles,
    OutputError,
    check_output,
    marker_kind,
    marker_text,
    relation,
)


def checked(place: Path, *argv: str) -> None:
    """parse_arguments then check_output, with the place's model and motus stand-in."""
    argv = [a.replace("P/", f"{place}/") if a != "P" else str(place) for a in argv]
    argv = [a.replace("MODEL", str(place / "model.motus")) for a in argv]
    check_output(job.parse_arguments([*argv, "--motus", str(place / "motus")]), LocalFiles())


def refused(place: Path, *argv: str) -> str:
    with pytest.raises(OutputError) as caught:
        checked(place, *argv)
    message = str(caught.value)
    assert message.startswith("-o ") and "HINT: " in message and "nothing was run" in message
    return message


def test_output_that_holds_the_cohort_is_refused(place: Path) -> None:
    (place / "cohort").rename(place / "recordings")
    message = refused(place, "score", "MODEL", "P/recordings", "-o", "P", "--overwrite")
    assert f"it holds the cohort, {place}/recordings" in message
    message = refused(place, "features", "P/recordings", "-o", "P", "--overwrite")
    assert "it holds the cohort" in message


def test_output_that_is_the_cohort_is_refused_with_or_without_overwrite(place: Path) -> None:
    for extra in ([], ["--overwrite"]):
        for mode in (["score", "MODEL"], ["features"]):
            message = refused(place, *mode, "P/cohort", "-o", "P/cohort/", *extra)
            assert f"it is the cohort, {place}/cohort" in message


def test_output_inside_the_cohort_or_the_folder_a_glob_lists_is_refused(place: Path) -> None:
    message = refused(place, "score", "MODEL", "P/cohort", "-o", "P/cohort/scored")
    assert "lies inside the cohort" in message and "read them as recordings" in message
    message = refused(place, "features", "P/cohort/*.csv", "-o", "P/cohort/windows")
    assert f"lies inside the cohort, {place}/cohort;" in message


def test_output_through_a_link_to_the_cohort_is_refused(place: Path) -> None:
    (place / "link").symlink_to(place / "cohort")
    assert "it is the cohort" in refused(place, "score", "MODEL", "P/cohort", "-o", "P/link")


def test_output_holding_the_model_or_the_binary_is_refused(place: Path) -> None:
    (place / "out").mkdir()
    (place / "model.motus").rename(place / "out" / "model.motus")
    message = refused(place, "score", "P/out/model.motus", "P/cohort", "-o", "P/out")
    assert f"it holds the model, {place}/out/model.motus" in message
    message = refused(place, "features", "P/cohort", "-o", "P")
    assert f"it holds the cohort, {place}/cohort" in message
    with pytest.raises(OutputError, match="it holds the motus binary"):
        args = job.parse_arguments(
            ["features", str(place / "cohort"), "-o", str(place), "--motus", str(place / "motus")]
        )
        args.cohort = "/elsewhere"
        check_output(args, LocalFiles())


def test_existing_file_or_file_above_the_output_is_refused(place: Path) -> None:
    (place / "scored").write_text("a file of the user's")
    message = refused(place, "score", "MODEL", "P/cohort", "-o", "P/scored")
    assert "it is a file, and the job writes a folder of tables" in message
    message = refused(place, "score", "MODEL", "P/cohort", "-o", "P/scored/x/y", "--overwrite")
    assert f"{place}/scored is a file, so no folder can be made inside it" in message
    message = refused(place, "score", "MODEL", "P/cohort", "-o", "P/model.motus/x")
    assert "model.motus is a file" in message
    assert (place / "scored").read_text() == "a file of the user's"


def test_folder_without_the_marker_is_never_replaced(place: Path) -> None:
    (place / "results").mkdir()
    (place / "results" / "recordings").mkdir()
    (place / "results" / "notes.txt").write_text("mine")
    for extra in ([], ["--overwrite"]):
        message = refused(place, "score", "MODEL", "P/cohort", "-o", "P/results", *extra)
        assert f"holds no {MARKER}; it holds notes.txt, recordings)" in message
        assert "--overwrite replaces only an earlier output of the job" in message
    (place / "results" / MARKER).write_text("[" * 5000)
    message = refused(place, "score", "MODEL", "P/cohort", "-o", "P/results", "--overwrite")
    assert f"holds an unreadable {MARKER}" in message


def test_earlier_output_is_replaced_only_with_overwrite_and_by_the_same_job(place: Path) -> None:
    (place / "scored").mkdir()
    checked(place, "score", "MODEL", "P/cohort", "-o", "P/scored")  # an empty folder is new
    (place / "scored" / MARKER).write_text(marker_text("score"))
    (place / "scored" / "predictions").mkdir()
    message = refused(place, "score", "MODEL", "P/cohort", "-o", "P/scored")
    assert "it holds an earlier output of the job (motus_spark score)" in message
    assert "--overwrite to replace it" in message
    checked(place, "score", "MODEL", "P/cohort", "-o", "P/scored", "--overwrite")
    message = refused(place, "features", "P/cohort", "-o", "P/scored", "--overwrite")
    assert "it holds the output of motus_spark score, and this is motus_spark features" in message


def test_marker_names_the_job_and_its_kind() -> None:
    assert marker_kind(marker_text("features")) == "features"
    for text in ("", "{}", '{"job": "motus_spark", "kind": "train"}', "[" * 5000, "\udcff"):
        assert marker_kind(text) is None


def test_relation_compares_whole_components_and_schemes() -> None:
    assert relation("file:/a/b", "file:/a/b/") == "is"
    assert relation("file:/a/b/c", "file:/a/b") == "lies inside"
    assert relation("file:/a", "file:/a/b") == "holds"
    assert relation("file:/a/bc", "file:/a/b") is None
    assert relation("s3a://bucket/a", "file:/a") is None
    assert relation("s3a://bucket/a/x", "s3a://bucket/a") == "lies inside"


@pytest.mark.parametrize(
    "argv, said",
    [
        (["-o", ""], "-o '': an empty path"),
        (["-o", "a\0b"], "a path cannot hold a NUL character"),
        (["-o", "x", "--target-partition-mb", "nan"], "--target-partition-mb must be a positive"),
        (["-o", "x", "--target-partition-mb", "-1"], "--target-partition-mb must be a positive"),
    ],
)
def test_arguments_the_job_cannot_run_with_are_usage_errors(
    place: Path, capsys: pytest.CaptureFixture, argv: list[str], said: str
) -> None:
    with pytest.raises(SystemExit) as caught:
        job.parse_arguments(["features", str(place / "cohort"), *argv])
    assert caught.value.code == 2
    assert said in capsys.readouterr().err


def test_a_refusal_is_one_line_whatever_the_paths_hold() -> None:
    # Found by the spark-args fuzzer: a cohort named by a newline split the message in two.
    message = str(OutputError("-o score: cannot write there (it lies inside the cohort, \n)"))
    assert "\n" not in message and "\\n" in message
    assert str(OutputError("a\tb\x1bc")) == "a\\tb\\x1bc"
