"""One recording through the `motus` binary: the per-partition kernel of the Spark job.

Nothing here imports Spark, so the same functions run on an executor, in the check script
and in the benchmark. Every number comes from motus's own output: the JSON lines of
`motus stream` (predictions, step, repetition and gap events) and the summary lines it writes
to standard error. No feature, window or model arithmetic is done in Python.
"""

from __future__ import annotations

import csv
import json
import os
import re
import resource
import socket
import subprocess
import time
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

# Standard error beyond this is cut (motus bounds its own warnings; this bounds a crash dump).
ERROR_TEXT_LIMIT = 8000

# `motus stream`'s summary on standard error (Sources/MotusCLI/Stream.swift, StreamMeter).
_STREAM_LINE = re.compile(
    r"^stream: (?P<samples>\d+) samples, (?P<windows>\d+) predictions, (?P<gaps>\d+) gaps, "
    r"(?P<nan>\d+) NaN and (?P<out_of_order>\d+) out-of-order samples skipped"
    r"(?:, (?P<not_finite>\d+) windows without a finite prediction)?"
)
_ROWS_SKIPPED_LINE = re.compile(r"^rows skipped \(unreadable or out of range\): (?P<rows>\d+)")


@dataclass
class Prediction:
    """One `"event":"prediction"` line of `motus stream`, as the job writes it to Parquet."""

    recording: str
    session: Optional[str]
    start: float
    end: float
    label: str
    probability: float
    confidence: str
    unknown_reason: Optional[str]
    probabilities: dict[str, float]


@dataclass
class RecordingSummary:
    """What one motus run said about one recording; `status` is "ok" or "failed"."""

    recording: str
    path: str
    bytes: int
    status: str
    exit_code: int
    error: Optional[str] = None
    samples: Optional[int] = None
    windows: Optional[int] = None
    gaps: Optional[int] = None
    samples_skipped_nan: Optional[int] = None
    samples_skipped_out_of_order: Optional[int] = None
    rows_skipped_unreadable: Optional[int] = None
    windows_not_finite: Optional[int] = None
    seconds_by_activity: dict[str, float] = field(default_factory=dict)
    steps: Optional[int] = None
    push_ups: Optional[int] = None
    # motus's `warning:` and `note:` lines: which rows were skipped and why, conversions.
    messages: list[str] = field(default_factory=list)
    motus_seconds: float = 0.0
    motus_cpu_seconds: float = 0.0
    host: str = field(default_factory=socket.gethostname)


@dataclass
class RecordingResult:
    summary: RecordingSummary
    predictions: list[Prediction]


class MotusUnavailable(RuntimeError):
    """The binary cannot be started at all: a set-up fault of the executor, not of a recording,
    so the task fails (and Spark says where) instead of marking every recording failed."""


def stream_command(motus: str, model: str, path: str, extra: Sequence[str] = ()) -> list[str]:
    """The command a user would type; `--steps` so the summary can count steps."""
    return [motus, "stream", model, path, "--format", "json", "--steps", *extra]


def run_motus(command: Sequence[str], stdout_path: str) -> tuple[int, str, float, float]:
    """Runs `command` with standard output to a file (read after the exit code is known, so a
    failed recording leaves no half-read rows); returns exit code, standard error, wall
    seconds and the process's CPU seconds (which, unlike wall time, other load does not
    stretch: the figure to size a cluster with)."""
    started = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        with open(stdout_path, "wb") as out:
            done = subprocess.run(
                command, stdout=out, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL
            )
    except OSError as error:
        raise MotusUnavailable(
            f"cannot start {command[0]!r} on {socket.gethostname()}: {error}. HINT: give a path "
            "that exists on every executor (--motus-on-executors) or let the job ship it "
            "(the default), and check that its shared libraries are there (ldd)."
        ) from error
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    stderr = done.stderr.decode("utf-8", "replace")
    return done.returncode, stderr, time.perf_counter() - started, cpu


def failure_text(exit_code: int, stderr: str, display: str, path: str) -> str:
    """motus's own error, the executor's temporary path replaced by the recording's name."""
    text = stderr.strip().replace(path, display) if path else stderr.strip()
    if len(text) > ERROR_TEXT_LIMIT:
        text = "..." + text[-ERROR_TEXT_LIMIT:]
    if exit_code < 0:
        return f"motus was killed by signal {-exit_code}. {text}".strip()
    return text or f"motus exited with status {exit_code} and wrote no error text"


def parse_stream_summary(stderr: str, summary: RecordingSummary) -> None:
    """Fills the counts from motus's summary lines, and keeps its warnings and notes."""
    for line in stderr.splitlines():
        if match := _STREAM_LINE.match(line):
            summary.samples = int(match["samples"])
            summary.windows = int(match["windows"])
            summary.gaps = int(match["gaps"])
            summary.samples_skipped_nan = int(match["nan"])
            summary.samples_skipped_out_of_order = int(match["out_of_order"])
            summary.windows_not_finite = int(match["not_finite"] or 0)
        elif match := _ROWS_SKIPPED_LINE.match(line):
            summary.rows_skipped_unreadable = int(match["rows"])
        elif line.startswith(("warning: ", "note: ")):
            summary.messages.append(line)
    if summary.samples is not None and summary.rows_skipped_unreadable is None:
        summary.rows_skipped_unreadable = 0


class ActivityClock:
    """Seconds per activity by motus's segment rule (`ActivitySegmenter`): consecutive
    predictions of one label are one segment from the first window's start to the last one's
    end; a new segment starts where the previous one ended; a gap or a new session closes it.
    Kept in whole milliseconds, the precision motus prints, so the sums are exact and equal
    those of `motus stream --segments` (the check script compares them)."""

    def __init__(self) -> None:
        self.milliseconds: dict[str, int] = {}
        self._open: Optional[tuple[str, int, int]] = None  # label, start, end
        self._session: Optional[str] = None

    def prediction(self, session: Optional[str], label: str, start: float, end: float) -> None:
        start_ms, end_ms = round(start * 1000), round(end * 1000)
        if session != self._session:
            self.close()
            self._session = session
        if self._open and self._open[0] == label:
            self._open = (label, self._open[1], end_ms)
            return
        if self._open:
            start_ms = max(start_ms, self._open[2])
            self.close()
        self._open = (label, start_ms, end_ms)

    def close(self) -> None:
        if self._open:
            label, start_ms, end_ms = self._open
            self.milliseconds[label] = self.milliseconds.get(label, 0) + end_ms - start_ms
        self._open = None

    def seconds(self) -> dict[str, float]:
        self.close()
        return {label: ms / 1000 for label, ms in sorted(self.milliseconds.items())}


def parse_stream_lines(
    lines: Iterable[str], recording: str
) -> tuple[list[Prediction], RecordingSummary]:
    """Predictions and the event counts of one recording's JSON lines (summary counts empty)."""
    predictions: list[Prediction] = []
    clock = ActivityClock()
    steps = 0
    counts_steps = False
    push_ups = 0
    for line in lines:
        event = json.loads(line)
        kind = event.get("event")
        if kind == "prediction":
            session = event.get("session") or None
            counts_steps = counts_steps or "steps" in event
            predictions.append(
                Prediction(
                    recording=recording,
                    session=session,
                    start=event["start"],
                    end=event["end"],
                    label=event["label"],
                    probability=event["probability"],
                    confidence=event["confidence"],
                    unknown_reason=event.get("unknown_reason"),
                    probabilities=event["probabilities"],
                )
            )
            clock.prediction(session, event["label"], event["start"], event["end"])
        elif kind == "gap":
            clock.close()
        elif kind == "step":
            steps += 1
        elif kind == "repetition":
            push_ups += 1
    summary = RecordingSummary(recording=recording, path="", bytes=0, status="ok", exit_code=0)
    summary.seconds_by_activity = clock.seconds()
    summary.steps = steps if counts_steps else None
    summary.push_ups = push_ups
    return predictions, summary


def score_recording(
    motus: str,
    model: str,
    recording: str,
    path: str,
    size: int,
    scratch: str,
    extra: Sequence[str] = (),
    display_path: Optional[str] = None,
) -> RecordingResult:
    """`motus stream MODEL PATH` on one recording. A non-zero exit is a failed recording with
    motus's error text; its partial output is dropped so no table holds half a recording."""
    stdout_path = os.path.join(scratch, f"stream-{os.getpid()}.jsonl")
    try:
        code, stderr, seconds, cpu = run_motus(
            stream_command(motus, model, path, extra), stdout_path
        )
        shown = display_path or path
        if code != 0:
            summary = RecordingSummary(
                recording=recording,
                path=shown,
                bytes=size,
                status="failed",
                exit_code=code,
                error=failure_text(code, stderr, shown, path if display_path else ""),
            )
            parse_stream_summary(stderr, summary)
            summary.motus_seconds, summary.motus_cpu_seconds = seconds, cpu
            return RecordingResult(summary, [])
        with open(stdout_path, encoding="utf-8") as lines:
            predictions, summary = parse_stream_lines(lines, recording)
    finally:
        if os.path.exists(stdout_path):
            os.remove(stdout_path)
    summary.path, summary.bytes, summary.motus_seconds, summary.motus_cpu_seconds = (
        shown,
        size,
        seconds,
        cpu,
    )
    parse_stream_summary(stderr.replace(path, shown) if display_path else stderr, summary)
    return RecordingResult(summary, predictions)


@dataclass
class FeatureTable:
    """`motus features` of one recording: its CSV header and rows (text, as motus wrote them),
    and the spec motus wrote beside them (`--spec-output`, JSON text), which `motus train
    --windows` needs to rebuild the features at inference."""

    header: list[str]
    rows: list[list[str]]
    spec: str


def features_recording(
    motus: str,
    recording: str,
    path: str,
    size: int,
    scratch: str,
    extra: Sequence[str] = (),
    display_path: Optional[str] = None,
) -> tuple[RecordingSummary, Optional[FeatureTable]]:
    """`motus features PATH -o - --spec-output SPEC`: one row per window, every feature motus
    computes, and the table's spec."""
    stdout_path = os.path.join(scratch, f"features-{os.getpid()}.csv")
    spec_path = os.path.join(scratch, f"spec-{os.getpid()}.json")
    shown = display_path or path
    try:
        code, stderr, seconds, cpu = run_motus(
            [motus, "features", path, "-o", "-", "--spec-output", spec_path, *extra], stdout_path
        )
        summary = RecordingSummary(
            recording=recording, path=shown, bytes=size, status="ok", exit_code=code
        )
        summary.motus_seconds, summary.motus_cpu_seconds = seconds, cpu
        stderr_shown = stderr.replace(path, shown) if display_path else stderr
        summary.messages = [
            l for l in stderr_shown.splitlines() if l.startswith(("warning: ", "note: "))
        ]
        if code != 0:
            summary.status = "failed"
            summary.error = failure_text(code, stderr, shown, path if display_path else "")
            return summary, None
        with open(stdout_path, encoding="utf-8", newline="") as text:
            reader = csv.reader(text)
            header = next(reader, [])
            rows = list(reader)
        with open(spec_path, encoding="utf-8") as text:
            spec = text.read()
    finally:
        for scratch_file in (stdout_path, spec_path):
            if os.path.exists(scratch_file):
                os.remove(scratch_file)
    summary.windows = len(rows)
    return summary, FeatureTable(header, rows, spec)


def write_long_layout(header: Sequence[str], rows: Iterable[Sequence[object]], path: str) -> None:
    """Writes rows of a Parquet recording as the long-layout CSV motus reads. The csv module
    writes a float as its repr, Python's shortest round-trip form, so motus reads the very
    numbers Parquet held; a null is an empty cell, which motus skips and counts."""
    with open(path, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
