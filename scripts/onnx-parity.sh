#!/usr/bin/env bash
# ONNX Runtime against motus on real windows, for both shipped models: exports each with
# `motus export --parity-output` (2,000 windows spread over the data it was trained and
# tested on), then runs scripts/onnx_parity.py, which fails when a calibrated probability
# differs by more than 1e-4. Installs onnxruntime, onnx and NumPy from PyPI into .venv-onnx/
# (git-ignored). Prints "onnx parity: ok" when both pass; skips (and says so) when
# ../shared/datasets or PyPI is out of reach.
#
#   scripts/onnx-parity.sh            MOTUS=path/to/motus scripts/onnx-parity.sh
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/datasets
if [ ! -d "$data/motionsense" ]; then
  echo "onnx parity: skipped ($data absent)"
  exit 0
fi
VENV=.venv-onnx
if ! "$VENV/bin/python" -c "import onnxruntime, onnx, numpy" 2>/dev/null; then
  if ! python3 -m venv "$VENV" || ! "$VENV/bin/pip" install --quiet onnxruntime onnx numpy; then
    echo "onnx parity: skipped (could not install onnxruntime from PyPI)"
    exit 0
  fi
fi
MOTUS=${MOTUS:-.build/release/motus}
[ -x "$MOTUS" ] || swift build -c release --product motus >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$MOTUS" export models/six-class.motus -o "$work/six-class.onnx" \
  --manifest datasets/six-class.json --parity-output "$work/six-class"
"$MOTUS" export models/motionsense-device-motion.motus -o "$work/motionsense.onnx" \
  "$data/motionsense/motionsense.csv" --parity-output "$work/motionsense"
"$VENV/bin/python" scripts/onnx_parity.py "$work/six-class.onnx" "$work/six-class"
"$VENV/bin/python" scripts/onnx_parity.py "$work/motionsense.onnx" "$work/motionsense"
echo "onnx parity: ok"
