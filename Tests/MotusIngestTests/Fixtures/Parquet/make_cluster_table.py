"""Writes the cluster-table fixture of ClusterWindowTableTests: six SYNTHETIC recordings (sine
waves with seeded noise; three made-up subjects, stationary and walking), gzipped as a cohort
may arrive, and the window table the Spark job's `features` mode made of them
(integrations/spark), so a test can train from the Parquet parts without Spark.

    .venv-spark/bin/python Tests/MotusIngestTests/Fixtures/Parquet/make_cluster_table.py .build/release/motus

(scripts/spark-setup.sh makes .venv-spark.) Spark's part files keep their layout; their names
are fixed, and `.crc` files and `_SUCCESS` are kept as Spark leaves them.
"""

import glob
import gzip
import math
import os
import random
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "cluster-table")
REPO = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(REPO, "integrations", "spark"))

from motus_spark import job  # noqa: E402


def recording(subject: int, label: str, seed: int) -> str:
    """20 s at 25 Hz of a made-up accelerometer: still with noise, or a 1.8 Hz gait."""
    noise = random.Random(seed)
    lines = ["timestamp,session,subject,label,acceleration.x,acceleration.y,acceleration.z"]
    for i in range(500):
        t = i / 25
        swing = math.sin(2 * math.pi * 1.8 * t) * (0.4 if label == "walking" else 0.0)
        x, y = swing + noise.gauss(0, 0.02), 0.3 * swing + noise.gauss(0, 0.02)
        z = -1 + 0.5 * swing + noise.gauss(0, 0.02)
        lines.append(f"{t:.2f},s{seed},p{subject},{label},{x:.5f},{y:.5f},{z:.5f}")
    return "\n".join(lines) + "\n"


def main() -> None:
    motus = os.path.abspath(sys.argv[1])
    shutil.rmtree(OUT, ignore_errors=True)
    cohort = os.path.join(OUT, "recordings")
    os.makedirs(cohort)
    for n, (subject, label) in enumerate(
        [(s, a) for s in (1, 2, 3) for a in ("stationary", "walking")], start=1
    ):
        with gzip.GzipFile(os.path.join(cohort, f"rec-{n}.csv.gz"), "wb", mtime=0) as out:
            out.write(recording(subject, label, n).encode())
    with tempfile.TemporaryDirectory() as work:
        table = os.path.join(work, "table")
        if job.run(["features", cohort, "-o", table, "--master", "local[1]", "--motus", motus]):
            sys.exit("the features job failed")
        os.makedirs(os.path.join(OUT, "features"))
        parts = sorted(glob.glob(os.path.join(table, "features", "part-*.parquet")))
        for k, part in enumerate(parts):
            shutil.copy(part, os.path.join(OUT, "features", f"part-{k:05d}.snappy.parquet"))
        shutil.copy(os.path.join(table, "features", "_SUCCESS"), os.path.join(OUT, "features"))
        shutil.copy(os.path.join(table, "spec.json"), os.path.join(OUT, "spec.json"))


if __name__ == "__main__":
    main()
