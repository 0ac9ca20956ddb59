"""Which recordings a cohort holds, and how they are spread over Spark tasks.

Listing goes through Spark's Hadoop file system (globs, sizes), the same call whatever the
store. motus itself reads a recording by path, so the executors must see the files at the path
the driver lists: a local folder (local mode), a shared file system (NFS, Lustre), or an
object store mounted as one (mountpoint-s3, gcsfuse). A cohort kept only in an object store
goes in as a Parquet dataset instead (`--input parquet`), which Spark reads from any store.
"""

from __future__ import annotations

import heapq
import posixpath
from dataclasses import dataclass
from typing import Any, Sequence

GLOB_CHARACTERS = set("*?[{")


@dataclass(frozen=True)
class Recording:
    """One recording: a file (long-layout CSV, an app's CSV, a `.csv.gz`) or an app-export
    folder, named by its path under the cohort root."""

    name: str
    path: str
    bytes: int


class CohortError(ValueError):
    """A cohort that cannot be listed or read by the executors; the message says what to do."""


def _hidden(name: str) -> bool:
    # Spark's own convention for data folders: _SUCCESS, _temporary, .crc files.
    return name.startswith((".", "_"))


def cohort_root(cohort: str) -> str:
    """The folder a cohort's listing starts in: the folder itself, or for a glob the folder
    before its first glob character (`/data/*/day-*.csv`: `/data`)."""
    root = cohort.rstrip("/")
    if not any(c in GLOB_CHARACTERS for c in root):
        return root or "/"
    head = root[: min(root.index(c) for c in GLOB_CHARACTERS if c in root)]
    return (head.rsplit("/", 1)[0] or "/") if "/" in head else "."


def list_recordings(spark: Any, cohort: str) -> list[Recording]:
    """Every entry matched by `cohort`: a folder means its entries (`cohort/*`), a glob its
    matches; each match is one recording. Sizes of folders are the sum of their files."""
    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    is_glob = any(c in GLOB_CHARACTERS for c in cohort)
    pattern = cohort.rstrip("/") if is_glob else cohort.rstrip("/") + "/*"
    root = cohort_root(cohort)  # the names are relative to the folder the listing starts in
    path = jvm.org.apache.hadoop.fs.Path(pattern)
    fs = path.getFileSystem(conf)
    scheme = fs.getUri().getScheme()
    if scheme != "file":
        raise CohortError(
            f"{cohort}: the executors run motus on local paths, and this cohort is on "
            f"'{scheme}'. HINT: mount the store on every executor (mountpoint-s3, gcsfuse) and "
            "give the mounted path, or write the samples as Parquet with a recording column "
            "and use --input parquet."
        )
    if not is_glob and not fs.exists(jvm.org.apache.hadoop.fs.Path(root)):
        raise CohortError(
            f"{cohort}: no such folder. HINT: give the folder that holds the recordings."
        )
    statuses = fs.globStatus(path) or []
    prefix = (
        fs.makeQualified(jvm.org.apache.hadoop.fs.Path(root)).toUri().getPath().rstrip("/") + "/"
    )
    recordings = []
    for status in statuses:
        local = status.getPath().toUri().getPath()
        if _hidden(posixpath.basename(local)):
            continue
        size = (
            fs.getContentSummary(status.getPath()).getLength()
            if status.isDirectory()
            else status.getLen()
        )
        name = local[len(prefix) :] if local.startswith(prefix) else posixpath.basename(local)
        recordings.append(Recording(name=name, path=local, bytes=size))
    if not recordings:
        raise CohortError(
            f"{cohort}: no recording found (hidden entries and names starting with _ are left "
            "out). HINT: give a folder of recordings or a glob such as 'cohort/*/day-*.csv'."
        )
    return sorted(recordings, key=lambda r: r.name)


def pack(recordings: Sequence[Recording], partitions: int) -> list[list[Recording]]:
    """Spreads recordings over `partitions` tasks by size, largest first, each to the task with
    the fewest bytes so far (LPT scheduling: the longest task is within 4/3 of the best). One
    motus process still runs per recording; a task only saves Spark's per-task cost."""
    partitions = max(1, min(partitions, len(recordings)))
    heap = [(0, i) for i in range(partitions)]
    bins: list[list[Recording]] = [[] for _ in range(partitions)]
    for recording in sorted(recordings, key=lambda r: (-r.bytes, r.name)):
        total, i = heapq.heappop(heap)
        bins[i].append(recording)
        heapq.heappush(heap, (total + recording.bytes, i))
    return [b for b in bins if b]


def partition_count(recordings: Sequence[Recording], parallelism: int, target_bytes: int) -> int:
    """Enough tasks to keep every core busy to the end (four per core, so a large recording
    late in the run does not leave the others idle), more when the cohort is large, so no task
    reads much more than `target_bytes`; never more tasks than recordings."""
    total = sum(r.bytes for r in recordings)
    by_size = -(-total // max(1, target_bytes))
    return max(1, min(len(recordings), max(4 * parallelism, by_size)))
