"""Benchmark of the Spark job (not a test): throughput on one and two cores, the cost of one
recording beyond its samples, and the work of a one-hour recording; medians of several runs.

- the hour: `motus stream` on a one-hour 100 Hz recording as the job runs it, wall and CPU
  seconds, and motus's own split of engine time (its summary line) from the rest (parsing,
  process start, output);
- throughput: the job on `--hours` copies of that hour (hard links: no extra disk), `local[1]`
  against `local[2]`, alternating; each run in a fresh process whose Spark session is started
  and warmed up (one job on one recording, then one on the cohort) before the timed job, so
  Spark's start, which a cluster pays once per job, is measured apart;
- per-recording overhead: warm `local[1]` sessions running the job on `--tiny` recordings of
  one window each, or on one of them: what each more recording costs (listing, task share,
  process start, model load, rows to Parquet), in wall and in CPU seconds;
- CPU seconds of each job's whole process tree (driver, JVM, Python workers, motus, from
  /proc): the cost per hour of recording, which other load on a shared machine does not
  stretch as it stretches wall time;
- two `motus stream` runs side by side against one: what a second core gives at the moment
  (on a machine shared with other work it can be far from 2).

    python tools/bench.py MOTUS MODEL LONG_HOUR TINY WORK [--runs 5] [--hours 16]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from motus_spark import job  # noqa: E402


def linked_cohort(folder: str, source: str, count: int) -> str:
    os.makedirs(folder, exist_ok=True)
    for i in range(count):
        target = os.path.join(folder, f"r{i:04d}.csv")
        if not os.path.exists(target):
            os.link(source, target)
    return folder


def motus_alone(motus: str, model: str, path: str) -> dict[str, float]:
    """`motus stream` as the job runs it: wall and CPU seconds, engine µs per sample."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [motus, "stream", model, path, "--format", "json", "--steps"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "wall_s": wall,
        "cpu_s": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
        "engine_us": float(
            re.search(r"engine time per sample: mean ([0-9.]+) µs", done.stderr).group(1)
        ),
        "samples": int(re.search(r"stream: (\d+) samples", done.stderr).group(1)),
    }


def tree_cpu_seconds() -> float:
    """CPU seconds of this process and every live descendant (the JVM, Python workers),
    including those of descendants they have reaped (motus runs): /proc's utime, stime,
    cutime and cstime, Linux only."""
    tick = os.sysconf("SC_CLK_TCK")
    parent, times = {}, {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(pid)] = int(fields[1])
        times[int(pid)] = sum(int(x) for x in fields[11:15]) / tick
    tree, frontier = {os.getpid()}, [os.getpid()]
    while frontier:
        children = [p for p, pp in parent.items() if pp in frontier and p not in tree]
        tree.update(children)
        frontier = children
    return sum(times[p] for p in tree)


def worker(args: argparse.Namespace) -> int:
    """One warm session: jobs named by --jobs (cohort folders), timed in the order given."""
    from pyspark.sql import SparkSession

    started = time.perf_counter()
    spark = (
        SparkSession.builder.master(args.master)
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    common = ["--motus", args.motus, "--overwrite"]
    out = os.path.join(args.work, f"out-{os.getpid()}")
    job.run(["score", args.model, args.warmup, "-o", out, *common], spark)
    times, cpu, tree = [], [], []
    for cohort in args.jobs:
        t, c = time.perf_counter(), tree_cpu_seconds()
        job.run(["score", args.model, cohort, "-o", out, *common], spark)
        times.append(time.perf_counter() - t)
        tree.append(tree_cpu_seconds() - c)
        cpu.append(
            spark.read.parquet(os.path.join(out, "recordings"))
            .groupBy()
            .sum("motus_cpu_seconds")
            .first()[0]
        )
    spark.stop()
    print(
        json.dumps(
            {
                "session_start_s": time.perf_counter() - started - sum(times),
                "job_s": times,
                "motus_cpu_s": cpu,
                "job_cpu_s": tree,
            }
        )
    )
    return 0


def in_worker(args: argparse.Namespace, master: str, jobs: list[str], warmup: str) -> dict:
    """A fresh driver process running `jobs` in one warm session."""
    command = [
        sys.executable,
        __file__,
        args.motus,
        args.model,
        args.long_hour,
        args.tiny,
        args.work,
        "--worker",
        "--master",
        master,
        "--warmup",
        warmup,
        "--jobs",
        *jobs,
    ]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def two_at_once(motus: str, model: str, path: str) -> float:
    """Wall seconds of two `motus stream` runs side by side: what two cores give right now."""
    started = time.perf_counter()
    command = [motus, "stream", model, path, "--format", "json", "--steps"]
    runs = [
        subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(2)
    ]
    for run in runs:
        run.wait()
    return time.perf_counter() - started


def log(text: str) -> None:
    print(f"bench: {text}", file=sys.stderr, flush=True)


def median_of(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def hour_results(args: argparse.Namespace) -> dict[str, object]:
    """`motus stream` alone on the hour and on the tiny recording: its wall and CPU seconds,
    and how much of the CPU is the engine's."""
    hour = [motus_alone(args.motus, args.model, args.long_hour) for _ in range(args.runs)]
    tiny = [motus_alone(args.motus, args.model, args.tiny) for _ in range(args.runs)]
    return {
        "samples": hour[0]["samples"],
        "bytes": os.path.getsize(args.long_hour),
        "motus_wall_s": median_of(hour, "wall_s"),
        "motus_cpu_s": median_of(hour, "cpu_s"),
        "engine_us_per_sample": median_of(hour, "engine_us"),
        "engine_share_of_cpu": median_of(hour, "engine_us")
        * hour[0]["samples"]
        / 1e6
        / median_of(hour, "cpu_s"),
        "tiny_motus_wall_s": median_of(tiny, "wall_s"),
        "tiny_motus_cpu_s": median_of(tiny, "cpu_s"),
    }


def two_processes_results(args: argparse.Namespace) -> dict[str, object]:
    """What the machine gives a second process now: motus alone, one run against two at once."""
    one_run, two_runs = [], []
    for _ in range(args.runs):
        one_run.append(motus_alone(args.motus, args.model, args.long_hour)["wall_s"])
        two_runs.append(two_at_once(args.motus, args.model, args.long_hour))
    return {
        "one_s": one_run,
        "two_at_once_s": two_runs,
        "ratio": 2 * statistics.median(one_run) / statistics.median(two_runs),
    }


def throughput_runs(
    args: argparse.Namespace, hours: str, one: str, load: list[float]
) -> tuple[dict[str, list[dict]], list[float]]:
    """The job on the cohort of hours, local[1] against local[2] alternating, each run in a
    warm session, and beside each pair what two motus processes at once give."""
    runs: dict[str, list[dict]] = {"local[1]": [], "local[2]": []}
    ceiling = []
    for i in range(args.runs):
        # The job twice per session, the second timed: a cluster job of a large cohort runs
        # with its JVM warm (compiled code, loaded classes) after its first minutes.
        for master in runs:
            run = in_worker(args, master, [hours, hours], one)
            run.update({k: run[k][1:] for k in ("job_s", "motus_cpu_s", "job_cpu_s")})
            runs[master].append(run)
            load.append(os.getloadavg()[0])
            log(f"run {i + 1} {master}: {run}")
        alone = motus_alone(args.motus, args.model, args.long_hour)["wall_s"]
        ceiling.append(2 * alone / two_at_once(args.motus, args.model, args.long_hour))
        log(f"run {i + 1}: two motus processes at once, {ceiling[-1]:.2f}x one")
    return runs, ceiling


def throughput_results(
    args: argparse.Namespace, samples_per_hour: int, runs: dict[str, list[dict]], ceiling: list
) -> dict[str, object]:
    """Medians of the throughput runs: job seconds, samples per second and CPU per hour."""
    samples = samples_per_hour * args.hours
    throughput: dict[str, object] = {"recordings": args.hours, "samples": samples}
    for master, key in (("local[1]", "local1"), ("local[2]", "local2")):
        wall = [r["job_s"][0] for r in runs[master]]
        throughput[f"{key}_job_s"] = statistics.median(wall)
        throughput[f"{key}_runs_s"] = wall
        throughput[f"{key}_samples_per_s"] = samples / statistics.median(wall)
        cpu = statistics.median(r["job_cpu_s"][0] for r in runs[master])
        throughput[f"{key}_cpu_s_per_hour"] = cpu / args.hours
        throughput[f"{key}_motus_cpu_s_per_hour"] = (
            statistics.median(r["motus_cpu_s"][0] for r in runs[master]) / args.hours
        )
    throughput["ratio"] = throughput["local1_job_s"] / throughput["local2_job_s"]
    throughput["two_processes_ratio_beside_runs"] = ceiling
    throughput["session_start_s"] = statistics.median(
        r["session_start_s"] for r in runs["local[1]"] + runs["local[2]"]
    )
    return throughput


def overhead_results(
    args: argparse.Namespace, one: str, many: str, hour: dict, load: list[float]
) -> dict[str, object]:
    """Per-recording overhead: one warm local[1] session of many tiny recordings against one
    of a single one."""
    single = in_worker(args, "local[1]", [one] * args.runs, one)
    multiple = in_worker(args, "local[1]", [many] * args.runs, one)
    load.append(os.getloadavg()[0])
    extra = args.tiny_count - 1
    per_recording = (
        statistics.median(multiple["job_s"]) - statistics.median(single["job_s"])
    ) / extra
    per_recording_cpu = (
        statistics.median(multiple["job_cpu_s"]) - statistics.median(single["job_cpu_s"])
    ) / extra
    return {
        "tiny_recordings": args.tiny_count,
        "job_one_s": single["job_s"],
        "job_many_s": multiple["job_s"],
        "per_recording_wall_s": per_recording,
        "per_recording_cpu_s": per_recording_cpu,
        "motus_cpu_s_per_tiny_recording": statistics.median(multiple["motus_cpu_s"])
        / args.tiny_count,
        "share_of_hour_wall": per_recording / hour["motus_wall_s"],
        "share_of_hour_cpu": per_recording_cpu / hour["motus_cpu_s"],
    }


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name in ("motus", "model", "long_hour", "tiny", "work"):
        parser.add_argument(name)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--hours", type=int, default=16, help="one-hour recordings in the cohort")
    parser.add_argument("--tiny-count", type=int, default=100)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--master", help=argparse.SUPPRESS)
    parser.add_argument("--warmup", help=argparse.SUPPRESS)
    parser.add_argument("--jobs", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.motus, args.model, args.work = (
        os.path.abspath(p) for p in (args.motus, args.model, args.work)
    )
    return args


def main() -> int:
    args = parse_arguments()
    if args.worker:
        return worker(args)
    os.makedirs(args.work, exist_ok=True)
    load = [os.getloadavg()[0]]
    results: dict[str, object] = {"runs": args.runs, "cores": os.cpu_count()}
    results["hour"] = hour_results(args)
    log(f"the hour: {results['hour']}")
    results["two_processes"] = two_processes_results(args)
    log(f"two processes: {results['two_processes']}")

    hours = linked_cohort(os.path.join(args.work, "hours"), args.long_hour, args.hours)
    one = linked_cohort(os.path.join(args.work, "tiny1"), args.tiny, 1)
    many = linked_cohort(os.path.join(args.work, "tiny"), args.tiny, args.tiny_count)
    runs, ceiling = throughput_runs(args, hours, one, load)
    results["throughput"] = throughput_results(
        args, results["hour"]["samples"], runs, ceiling
    )
    results["overhead"] = overhead_results(args, one, many, results["hour"], load)
    results["load_average_1min"] = {
        "min": min(load),
        "median": statistics.median(load),
        "max": max(load),
    }
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
