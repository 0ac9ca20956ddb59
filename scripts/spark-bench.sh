#!/usr/bin/env bash
# Benchmark of the Spark job (integrations/spark; not a test, CI does not run it): throughput
# on local[1] against local[2], the per-recording overhead and the work of a one-hour 100 Hz
# recording, medians of several runs, printed as JSON (integrations/spark/tools/bench.py).
# Makes its recordings from ../shared/datasets in a temporary folder. Several minutes.
#
#   scripts/spark-bench.sh [--runs 5] [--hours 16]     MOTUS=path/to/motus scripts/spark-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/datasets
if [ ! -d "$data/motionsense" ]; then
  echo "spark bench: skipped ($data absent)"
  exit 0
fi
setup=0
bash scripts/spark-setup.sh || setup=$?
[ "$setup" -eq 3 ] && { echo "spark bench: skipped (Java 17 or pyspark could not be installed)"; exit 0; }
[ "$setup" -eq 0 ] || exit "$setup"
MOTUS=${MOTUS:-.build/release/motus}
[ -x "$MOTUS" ] || swift build -c release --product motus >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

PY=.venv-spark/bin/python
$PY integrations/spark/tools/make_cohort.py --datasets "$data" \
  --long-hour "$work/long-hour.csv" >&2
head -601 "$work/long-hour.csv" > "$work/tiny.csv"   # 6 s at 100 Hz: one window
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" >&2
$PY integrations/spark/tools/bench.py "$MOTUS" models/six-class.motus "$work/long-hour.csv" \
  "$work/tiny.csv" "$work/bench" "$@"
