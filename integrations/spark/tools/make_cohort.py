"""Makes a test cohort from ../shared/datasets: sessions of MotionSense, QROWD, DSADS and
fitness_learning cut into one long-layout CSV each, a few phone-app exports copied as they
are, a gzip-compressed session and two files motus must refuse. Also, with --long-hour, one
recording of an hour of acceleration at 100 Hz for the benchmark.

The cohort is written where it is asked (a temporary or git-ignored folder), never into the
repository: it is the datasets' data. QROWD and DSADS are Android-sign files; their
acceleration is written negated, in Core Motion sign like every other file, so one set of
motus flags fits the whole cohort.

    python tools/make_cohort.py OUT [--datasets ../shared/datasets] [--long-hour FILE]
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import sys
from typing import Iterator

# (dataset, sessions to take: every k-th session, at most n, Android sign?)
SOURCES = [
    ("motionsense/motionsense.csv", 3, 60, False),
    ("qrowd_tr/qrowd_tr.csv", 1, 15, True),
    ("dsads/dsads.csv", 5, 20, True),
    ("fitness_learning/fitness_learning.csv", 2, 6, False),
]
APP_EXPORTS = [
    "sensor-logger/ios-iphone13-walking",
    "sensor-logger/android-galaxy-s24-car",
    "sensorlog/iphone-walking",
    "phyphox/ios-iphone13mini-running-multisensor",
    "physics-toolbox/gforce-walking",
    # Linear acceleration only: a model of acceleration refuses it, a real failed recording.
    "phyphox/android-galaxy-a36-walking-linear-acceleration",
]


def sessions(path: str) -> Iterator[tuple[str, str, list[str]]]:
    """(header, session, lines) per session of a long-layout file sorted by session."""
    with open(path, encoding="utf-8") as text:
        header = text.readline()
        current, lines = None, []
        for line in text:
            session = line.split(",", 2)[1]
            if session != current and lines:
                yield header, current, lines
                lines = []
            current = session
            lines.append(line)
        if lines:
            yield header, current, lines


def negate_acceleration(header: str, lines: list[str]) -> list[str]:
    """Android sign to Core Motion sign: the raw acceleration columns negated, as text."""
    columns = [
        i for i, name in enumerate(header.strip().split(",")) if name.startswith("acceleration.")
    ]
    out = []
    for line in lines:
        cells = line.rstrip("\n").split(",")
        for i in columns:
            cells[i] = cells[i][1:] if cells[i].startswith("-") else "-" + cells[i]
        out.append(",".join(cells) + "\n")
    return out


def write_sessions(datasets: str, out: str) -> list[str]:
    written = []
    for relative, every, most, android in SOURCES:
        source = relative.split("/")[0]
        taken = 0
        for index, (header, session, lines) in enumerate(
            sessions(os.path.join(datasets, relative))
        ):
            if taken == most:
                break  # the files are sorted by session: the rest need not be read
            if index % every:
                continue
            if android:
                lines = negate_acceleration(header, lines)
            name = os.path.join(out, f"{source}-{session}.csv")
            with open(name, "w", encoding="utf-8") as f:
                f.write(header)
                f.writelines(lines)
            written.append(name)
            taken += 1
    return written


def write_long_hour(
    datasets: str, path: str, rate_hz: float = 100.0, seconds: float = 3600.0
) -> int:
    """An hour of 3-axis acceleration at `rate_hz`, as a wrist or hip accelerometer study
    writes it: DSADS sessions (25 Hz, Core Motion sign here) joined end to end and re-timed
    until the hour is full. It has the cost of a 100 Hz hour (360,000 rows); the motion plays
    four times as fast, so its predictions mean nothing."""
    rows = int(rate_hz * seconds)
    written = 0
    with open(path, "w", encoding="utf-8") as f:
        for header, _, lines in sessions(os.path.join(datasets, "dsads/dsads.csv")):
            names = header.strip().split(",")
            keep = [
                names.index(c)
                for c in ("subject", "label", "acceleration.x", "acceleration.y", "acceleration.z")
            ]
            if written == 0:
                f.write(
                    "timestamp,session,subject,label,acceleration.x,acceleration.y,acceleration.z\n"
                )
            for line in negate_acceleration(header, lines):
                if written == rows:
                    return written
                cells = line.rstrip("\n").split(",")
                f.write(
                    f"{written / rate_hz:.2f},long-hour," + ",".join(cells[i] for i in keep) + "\n"
                )
                written += 1
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", help="the cohort folder to make (must not exist)")
    parser.add_argument(
        "--datasets", default=os.path.join(os.path.dirname(__file__), "../../../../shared/datasets")
    )
    parser.add_argument("--long-hour", metavar="FILE", help="also write a 1-hour 100 Hz recording")
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(args.datasets, "motionsense")):
        print(
            f"make_cohort: {args.datasets}: no datasets there (motionsense missing)",
            file=sys.stderr,
        )
        return 2
    if args.out is None and args.long_hour is None:
        parser.error("give a cohort folder, --long-hour FILE, or both")
    if args.out is not None:
        make_cohort(args.datasets, args.out)
    if args.long_hour:
        print(
            f"make_cohort: {write_long_hour(args.datasets, args.long_hour)} rows in {args.long_hour}"
        )
    return 0


def make_cohort(datasets: str, out: str) -> None:
    os.makedirs(out)
    files = write_sessions(datasets, out)
    for relative in APP_EXPORTS:
        app, name = relative.split("/")
        shutil.copytree(
            os.path.join(datasets, "app-exports", relative), os.path.join(out, f"app-{app}-{name}")
        )
    # A compressed session: passed to motus as it is; motus answers for it.
    with (
        open(files[0], "rb") as plain,
        gzip.open(os.path.join(out, "gz-" + os.path.basename(files[0]) + ".gz"), "wb") as packed,
    ):
        shutil.copyfileobj(plain, packed)
    with open(os.path.join(out, "broken-not-a-recording.csv"), "w") as f:
        f.write("this is not,a recording\n1,2\n")
    with open(os.path.join(out, "broken-empty.csv"), "w"):
        pass
    print(f"make_cohort: {len(os.listdir(out))} recordings in {out}")


if __name__ == "__main__":
    sys.exit(main())
