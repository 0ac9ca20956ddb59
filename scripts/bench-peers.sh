#!/usr/bin/env bash
# motus against pandas, polars, NumPy and scikit-learn on the same files, in one run.
#
#   scripts/bench-peers.sh            # 5 alternating runs per row, scaling 1x 2x 4x 8x (~30 min)
#   scripts/bench-peers.sh --quick    # 3 runs, scaling 1x 2x once (~5 min), for iterating
#   scripts/bench-peers.sh --skip scaling   (or peers, cores; comma-separated)   DATA=other.csv ...
#   scripts/bench-peers.sh --baseline /tmp/motus-old   # also time another build, alternately
#   scripts/bench-peers.sh -- --scale-repeats 1 --sizes 1,4   # options of scripts/bench_peers.py
#
# Times the build users run (`swift build -c release`), kept up to date in .build-bench/ so
# that the test build in .build/ (-enable-testing, a few percent slower) is neither timed nor
# discarded; MOTUS=... times another binary. A baseline should be built the same way:
#   git worktree add /tmp/old REV && swift build -c release --product motus --package-path /tmp/old
# Installs the Python peers into .venv-bench/ (git-ignored), then prints markdown tables:
# each row's medians and the ratio peer / motus (above 1: motus is faster), peak memory of
# each command, how wall time per sample and peak memory grow with 1x..8x copies of the data
# (sessions renamed per copy, written to a temporary folder, needing about 8x the data's
# size of free space there; set TMPDIR to move it), and what the cores give: `inspect` and
# `features` pinned to one core (taskset) against all of them. Timings on a shared machine
# are noisy: compare ratios within one run, and read the load average printed with the table.
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${DATA:-../shared/datasets/motionsense/motionsense.csv}
ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) ARGS+=(--repeats 3 --scale-repeats 1 --sizes 1,2) ;;
    --skip) ARGS+=(--skip "$2"); shift ;;
    --baseline) ARGS+=(--baseline "$2"); shift ;;
    --) shift; ARGS+=("$@"); break ;;  # the rest goes to scripts/bench_peers.py
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (--quick, --skip peers|scaling|cores, --baseline BINARY)" >&2; exit 2 ;;
  esac
  shift
done
[ -f "$DATA" ] || { echo "no data at $DATA (set DATA=...)" >&2; exit 1; }

VENV=.venv-bench
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/python" -c "import pandas, polars, numpy, sklearn" 2>/dev/null \
  || "$VENV/bin/pip" install --quiet pandas polars numpy scikit-learn

if [ -z "${MOTUS:-}" ]; then
  swift build -c release --product motus --scratch-path .build-bench >&2
  MOTUS=.build-bench/release/motus
fi
echo "motus $(git rev-parse --short HEAD 2>/dev/null || echo '?') ($MOTUS); $(nproc) cores; $(uname -m)"
exec "$VENV/bin/python" scripts/bench_peers.py --motus "$MOTUS" \
  --python "$VENV/bin/python" --data "$DATA" "${ARGS[@]}"
