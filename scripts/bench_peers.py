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
import shutil
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


def motus_commands(binaries, make):
  """{label: command} for every motus binary (`motus`, and `before` with --baseline)."""
  return {label: make(binary) for label, binary in binaries.items()}


def peer_rows(args, binaries, python, work):
  """Rows (what, {label: Series} of motus binaries, peer Series or None, unit)."""
  data, model = args.data, args.model
  rows = []
  ingest = alternate(args.repeats, {
    **motus_commands(binaries, lambda m: lambda: timed([m, "inspect", data])[:2]),
    "polars": lambda: peer(python, "read", "polars", data),
    "pandas": lambda: peer(python, "read", "pandas", data)})
  for name in ("polars", "pandas"):
    rows.append((f"ingest: `motus inspect DATA` vs {name} `read_csv`", ingest, ingest[name], "s"))
  table = os.path.join(work, "windows.csv")
  feats = alternate(args.repeats, {
    **motus_commands(binaries, lambda m: lambda: timed([m, "features", data, "-o", table])[:2]),
    "pandas": lambda: peer(python, "features", data, os.path.join(work, "peer-windows.csv"))})
  rows.append(("features end to end: `motus features DATA -o w.csv` vs pandas + NumPy "
               "(scripts/reference/peers.py)", feats, feats["pandas"], "s"))

  def fit_time(m):
    def run():
      _, rss, out, _ = timed([m, "train", data, "--model", "mlp", "--hidden", "64", "--seed", "1",
                              "--no-refit", "-o", os.path.join(work, "m.motus")])
      return float(re.search(r"timing: fit ([0-9.]+) s", out).group(1)), rss
    return run
  fit = alternate(args.repeats, {
    **motus_commands(binaries, fit_time), "sklearn": lambda: peer(python, "fit", table)})
  rows.append(("training MLP(64), fit only: `motus train DATA --model mlp --hidden 64 --no-refit` "
               "timing line vs scikit-learn MLPClassifier on the same window table", fit,
               fit["sklearn"], "s"))
  stream_input = os.path.join(work, "stream.csv")
  head_rows(data, args.stream_rows, stream_input)

  def window_cost(m):
    def run():
      _, rss, out, _ = timed([m, "bench", "stream", "--model", model, stream_input,
                              "--repetitions", "3"])
      ns = float(re.search(r"streaming: ([0-9.]+) ns per sample", out).group(1))
      hop = int(re.search(r"hop (\d+)", out).group(1))
      return ns * hop / 1e3, rss
    return run
  predict = alternate(args.repeats, {
    **motus_commands(binaries, window_cost),
    "sklearn": lambda: (lambda s, r: (s * 1e6, r))(*peer(python, "predict", table))})
  rows.append(("single-window predict: motus stream engine per window (features + MLP, "
               "`motus bench stream --model MODEL`) vs scikit-learn `predict_proba` of one "
               "feature row (MLP only)", predict, predict["sklearn"], "µs"))
  stream = alternate(args.repeats, motus_commands(
    binaries, lambda m: lambda: timed([m, "stream", model, stream_input])[:2]))
  rows.append((f"stream end to end: `motus stream MODEL FILE` ({args.stream_rows:,} rows of DATA, "
               f"{os.path.basename(model)}), rows/s = rows / median", stream, None, "s"))
  return rows


def scaling_rows(args, binaries, work):
  """(copies, size MB, samples, command, {label: Series}) at each size."""
  samples_1x = sum(1 for _ in open(args.data, "rb")) - 1
  out = []
  for copies in args.sizes:
    path = os.path.join(work, f"x{copies}.csv")
    scaled_copy(args.data, copies, path)
    size_mb = os.path.getsize(path) / 1e6
    commands = {
      "inspect": lambda m: lambda: timed([m, "inspect", path])[:2],
      "features": lambda m: lambda: timed([m, "features", path, "-o", os.path.join(work, "w.csv")])[:2],
      "train": lambda m: lambda: timed([m, "train", path, "--seed", "1", "-o",
                                        os.path.join(work, "s.motus")])[:2],
      "evaluate": lambda m: lambda: timed([m, "evaluate", args.model, path])[:2]}
    for name, make in commands.items():
      series = alternate(args.scale_repeats, motus_commands(binaries, make))
      out.append((copies, size_mb, samples_1x * copies, name, series))
    os.remove(path)
  return out


def core_rows(args, work):
  """(command, {"1 core", "all cores": Series}): `inspect` and `features` of this build pinned
  to one core with taskset, alternating with the same command on every core."""
  if shutil.which("taskset") is None or (os.cpu_count() or 1) < 2:
    return []
  table = os.path.join(work, "cores-windows.csv")
  out = []
  for name, argv in (("inspect", [args.motus, "inspect", args.data]),
                     ("features", [args.motus, "features", args.data, "-o", table])):
    out.append((name, alternate(args.repeats, {
      "1 core": lambda argv=argv: timed(["taskset", "-c", "0", *argv])[:2],
      "all cores": lambda argv=argv: timed(argv)[:2]})))
  return out


def print_cores(args, cores):
  if not cores:
    return
  n = os.cpu_count()
  print(f"\n## cores ({args.repeats} alternating runs, medians): `taskset -c 0` against all {n}\n")
  print(f"| command | 1 core s | {n} cores s | speed-up |")
  print("|---|---|---|---|")
  for name, series in cores:
    one, every = series["1 core"].median, series["all cores"].median
    print(f"| {name} | {fmt(one, 3)} | {fmt(every, 3)} | {fmt(one / every)}x |")


def print_tables(args, peers, scaling, labels):
  print(f"\n## motus and its peers, same files, one run ({args.repeats} alternating runs, medians)")
  print(f"data: {args.data}; machine: {os.cpu_count()} cores; load average at the end: "
        f"{' '.join(fmt(x) for x in os.getloadavg())}")
  if "before" in labels:
    print(f"`before` is {args.baseline}, run alternately with the current build.")
  print()
  extra = " | motus before | before / now" if "before" in labels else ""
  print(f"| what | motus | peer | peer / motus{extra} | peak RSS MB (motus / peer) |")
  print("|---|---|---|---|" + ("---|---|" if extra else "") + "---|")
  for what, motus, peer_series, unit in peers:
    m = motus["motus"]
    value = f"{fmt(m.median, 3)} {unit}"
    if what.startswith("stream"):
      value += f" = {args.stream_rows / m.median / 1e6:.2f} M rows/s"
    peer_text = f"{fmt(peer_series.median, 3)} {unit}" if peer_series else "-"
    ratio = f"{fmt(peer_series.median / m.median)}x" if peer_series and m.median > 0 else "-"
    cells = f"| {what} | {value} | {peer_text} | {ratio}"
    if extra:
      b = motus["before"]
      cells += f" | {fmt(b.median, 3)} {unit} | " + (f"{fmt(b.median / m.median)}x" if m.median > 0 else "-")
    peer_rss = f"{peer_series.peak:.0f}" if peer_series else "-"
    print(f"{cells} | {m.peak:.0f} / {peer_rss} |")
  if not scaling:
    return
  print(f"\n## scaling ({args.scale_repeats} run(s) each, medians; copy k renames sessions to NAME~k)\n")
  print("| data | command | build | wall s | ns per sample | vs 1x | peak RSS MB | RSS / file size |")
  print("|---|---|---|---|---|---|---|---|")
  base = {}
  for copies, size_mb, samples, name, series in scaling:
    for label, s in series.items():
      per = s.median / samples * 1e9
      first = base.setdefault((name, label), per)
      growth = fmt(per / first) if first > 0 else "-"
      print(f"| {copies}x ({size_mb:.0f} MB) | {name} | {label} | {fmt(s.median)} | {per:.0f} | "
            f"{growth} | {s.peak:.0f} | {fmt(s.peak / size_mb)} |")


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
  parser.add_argument("--skip", default="", help="comma-separated: peers, scaling, cores")
  parser.add_argument("--baseline", default=None,
                      help="another motus binary, run alternately with --motus (`before` columns)")
  parser.add_argument("--work", default=None, help="folder for temporary files (default: TMPDIR)")
  args = parser.parse_args()
  args.sizes = [int(s) for s in args.sizes.split(",") if s]
  skip = set(args.skip.split(","))
  binaries = {"motus": args.motus}
  if args.baseline:
    binaries["before"] = args.baseline
  with tempfile.TemporaryDirectory(prefix="motus-bench-peers-", dir=args.work) as work:
    peers = peer_rows(args, binaries, args.python, work) if "peers" not in skip else []
    scaling = scaling_rows(args, binaries, work) if "scaling" not in skip else []
    cores = core_rows(args, work) if "cores" not in skip else []
    print_tables(args, peers, scaling, binaries)
    print_cores(args, cores)


if __name__ == "__main__":
  main()
