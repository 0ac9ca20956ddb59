#!/usr/bin/env python3
"""Times motus and its Python peers on the same files in one run; see scripts/bench-peers.sh.

Every measurement is a fresh process; the commands of one row alternate (motus, peer, motus,
peer, ...) so a load that comes and goes on the machine hits both alike, and the table shows
medians. motus figures are whole-command wall times (parsing, work, writing, exit); the Python
peers time only their task inside the process (interpreter start and imports excluded), which
favours them. Peak memory is the process's maximum resident set (getrusage of the child).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PEERS = os.path.join(HERE, "reference", "peers.py")
MODEL = os.path.join(ROOT, "models", "motionsense-device-motion.motus")


TIME = "/usr/bin/time"


def timed(argv):
  """Runs argv to completion: (wall s, peak RSS MB, stdout, stderr); exits on failure.

  Peak RSS comes from /usr/bin/time (GNU time) when present: a child forked from this
  process would otherwise report this process's own peak as its starting high-water mark.
  """
  with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
      tempfile.NamedTemporaryFile(mode="r") as rss_file:
    wrapped = [TIME, "-f", "%M", "-o", rss_file.name, *argv] if os.access(TIME, os.X_OK) else argv
    started = time.perf_counter()
    process = subprocess.Popen(wrapped, stdout=out, stderr=err)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    out.seek(0)
    err.seek(0)
    stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    text = rss_file.read().strip().splitlines()
  if code != 0:
    raise SystemExit(f"failed ({code}): {' '.join(argv)}\n{stderr[-2000:]}")
  rss_kb = float(text[-1]) if wrapped is not argv and text else usage.ru_maxrss
  return wall, rss_kb / 1024, stdout, stderr


class Series:
  """Repeated measurements of one command: values (s or another unit) and peak RSS (MB)."""

  def __init__(self):
    self.values, self.rss = [], []

  def add(self, value, rss):
    self.values.append(value)
    self.rss.append(rss)

  @property
  def median(self):
    return statistics.median(self.values)

  @property
  def peak(self):
    return max(self.rss)


def peer(python, *args):
  """A peers.py task: (seconds it timed itself, peak RSS MB)."""
  _, rss, out, _ = timed([python, PEERS, *args])
  return float(out.strip().splitlines()[-1]), rss


def alternate(repeats, commands):
  """commands: name -> function returning (value, rss); runs them in turn `repeats` times."""
  series = {name: Series() for name in commands}
  for _ in range(repeats):
    for name, command in commands.items():
      series[name].add(*command())
  return series


def head_rows(source, rows, path):
  with open(source, "rb") as src, open(path, "wb") as dst:
    for i, line in enumerate(src):
      if i > rows:
        break
      dst.write(line)


def scaled_copy(source, copies, path):
  """`copies` times the file, read line by line; copy k > 0 renames sessions to `<name>~k`."""
  with open(path, "wb") as dst:
    for k in range(copies):
      with open(source, "rb") as src:
        header = src.readline()
        if k == 0:
          dst.write(header)
          while chunk := src.read(1 << 24):
            dst.write(chunk)
          continue
        column = header.rstrip(b"\r\n").split(b",").index(b"session")
        suffix = b"~%d" % k
        for line in src:
          fields = line.rstrip(b"\r\n").split(b",")
          if len(fields) > column:
            fields[column] += suffix
          dst.write(b",".join(fields) + b"\n")


def fmt(x, digits=2):
  return f"{x:.{digits}f}"


def peer_rows(args, motus, python, work):
  """The side-by-side table: (what, motus, peer, ratio peer / motus)."""
  data, model = args.data, args.model
  rows = []
  ingest = alternate(args.repeats, {
    "motus": lambda: timed([motus, "inspect", data])[:2],
    "polars": lambda: peer(python, "read", "polars", data),
    "pandas": lambda: peer(python, "read", "pandas", data)})
  for name in ("polars", "pandas"):
    rows.append((f"ingest: `motus inspect` vs {name} `read_csv`", ingest["motus"], ingest[name], "s"))
  table = os.path.join(work, "windows.csv")
  feats = alternate(args.repeats, {
    "motus": lambda: timed([motus, "features", data, "-o", table])[:2],
    "pandas": lambda: peer(python, "features", data, os.path.join(work, "peer-windows.csv"))})
  rows.append(("features end to end: `motus features DATA -o w.csv` vs pandas + NumPy",
               feats["motus"], feats["pandas"], "s"))

  def motus_fit():
    _, rss, out, _ = timed([motus, "train", data, "--model", "mlp", "--hidden", "64", "--seed", "1",
                            "--no-refit", "-o", os.path.join(work, "m.motus")])
    return float(re.search(r"timing: fit ([0-9.]+) s", out).group(1)), rss
  fit = alternate(args.repeats, {"motus": motus_fit, "sklearn": lambda: peer(python, "fit", table)})
  rows.append(("training MLP(64), fit only: `motus train --model mlp --hidden 64 --no-refit` vs "
               "scikit-learn MLPClassifier on the same window table", fit["motus"], fit["sklearn"], "s"))

  stream_input = os.path.join(work, "stream.csv")
  head_rows(data, args.stream_rows, stream_input)

  def motus_window():
    _, rss, out, _ = timed([motus, "bench", "stream", "--model", model, stream_input,
                            "--repetitions", "3"])
    ns = float(re.search(r"streaming: ([0-9.]+) ns per sample", out).group(1))
    hop = int(re.search(r"hop (\d+)", out).group(1))
    return ns * hop / 1e3, rss
  predict = alternate(args.repeats, {
    "motus": motus_window,
    "sklearn": lambda: (lambda s, r: (s * 1e6, r))(*peer(python, "predict", table))})
  rows.append(("single-window predict, µs: motus stream engine per window (features + MLP, "
               "`motus bench stream`) vs scikit-learn `predict_proba` of one feature row (MLP only)",
               predict["motus"], predict["sklearn"], "µs"))
  stream = alternate(args.repeats, {
    "motus": lambda: timed([motus, "stream", model, stream_input])[:2]})
  return rows, stream["motus"]


def scaling_rows(args, motus, work):
  """(copies, samples, command, Series) for ingest, features and training at each size."""
  samples_1x = sum(1 for _ in open(args.data, "rb")) - 1
  out = []
  for copies in args.sizes:
    path = os.path.join(work, f"x{copies}.csv")
    scaled_copy(args.data, copies, path)
    size_mb = os.path.getsize(path) / 1e6
    series = alternate(args.scale_repeats, {
      "inspect": lambda: timed([motus, "inspect", path])[:2],
      "features": lambda: timed([motus, "features", path, "-o", os.path.join(work, "w.csv")])[:2],
      "train": lambda: timed([motus, "train", path, "--seed", "1", "-o",
                              os.path.join(work, "s.motus")])[:2]})
    for name, s in series.items():
      out.append((copies, size_mb, samples_1x * copies, name, s))
    os.remove(path)
  return out


def print_tables(args, peers, stream, scaling):
  print(f"\n## motus and its peers, same files, one run ({args.repeats} alternating runs, medians)")
  print(f"data: {args.data}; machine: {os.cpu_count()} cores; load average at the end: "
        f"{' '.join(fmt(x) for x in os.getloadavg())}\n")
  print("| what | motus | peer | peer / motus | peak RSS motus / peer, MB |")
  print("|---|---|---|---|---|")
  for what, m, p, unit in peers:
    print(f"| {what} | {fmt(m.median, 3)} {unit} | {fmt(p.median, 3)} {unit} | "
          f"{fmt(p.median / m.median)}x | {m.peak:.0f} / {p.peak:.0f} |")
  rows_per_s = args.stream_rows / stream.median
  print(f"| `motus stream MODEL FILE` ({args.stream_rows:,} rows, {os.path.basename(args.model)}) "
        f"| {fmt(stream.median, 3)} s = {rows_per_s / 1e6:.2f} M rows/s | - | - | {stream.peak:.0f} / - |")
  if not scaling:
    return
  print(f"\n## scaling ({args.scale_repeats} runs each, medians; copies have renamed sessions)\n")
  print("| data | command | wall s | ns per sample | vs 1x | peak RSS MB | RSS / file size |")
  print("|---|---|---|---|---|---|---|")
  base = {}
  for copies, size_mb, samples, name, s in scaling:
    per = s.median / samples * 1e9
    base.setdefault(name, per)
    print(f"| {copies}x ({size_mb:.0f} MB) | {name} | {fmt(s.median)} | {per:.0f} | "
          f"{fmt(per / base[name])} | {s.peak:.0f} | {fmt(s.peak / size_mb)} |")


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--motus", required=True)
  parser.add_argument("--python", required=True)
  parser.add_argument("--data", required=True)
  parser.add_argument("--model", default=MODEL)
  parser.add_argument("--repeats", type=int, default=5)
  parser.add_argument("--scale-repeats", type=int, default=3)
  parser.add_argument("--sizes", default="1,2,4,8")
  parser.add_argument("--stream-rows", type=int, default=230000)
  parser.add_argument("--skip", default="", help="comma-separated: peers, scaling")
  parser.add_argument("--work", default=None, help="folder for temporary files (default: TMPDIR)")
  args = parser.parse_args()
  args.sizes = [int(s) for s in args.sizes.split(",") if s]
  skip = set(args.skip.split(","))
  with tempfile.TemporaryDirectory(prefix="motus-bench-peers-", dir=args.work) as work:
    peers, stream = peer_rows(args, args.motus, args.python, work) if "peers" not in skip else ([], None)
    scaling = scaling_rows(args, args.motus, work) if "scaling" not in skip else []
    if stream is None:
      stream = Series()
      stream.add(float("nan"), float("nan"))
    print_tables(args, peers, stream, scaling)


if __name__ == "__main__":
  main()
