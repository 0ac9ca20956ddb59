#!/usr/bin/env bash
# The held-out-device experiment behind README's "Unseen devices" table. For each recipe it
# trains three six-class models and tests each on data from a device, placement or people
# it never saw:
#   held-out people       datasets/six-class.json without MotionSense 17-20, QROWD 3, Eric;
#                         tested on those subjects as recorded, then with a simulated device
#                         change (random orientation, gain +-10 %, noise up to 0.004 g)
#   without MotionSense   stationary/walking/running only from the QROWD phone; tested on
#                         MotionSense's iPhone (datasets/transfer/swr-motionsense.json), with
#                         accuracy per kind of session (sit, std, wlk, ...) on the next line
#   without QROWD s/w/r   the QROWD phone seen only cycling or in vehicles; tested on its
#                         stationary/walking/running (datasets/transfer/swr-qrowd.json)
# Usage: scripts/transfer-experiment.sh [seed]. Needs ../shared/datasets. About 5 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
seed="${1:-1}"
motus="${MOTUS:-.build/release/motus}"
if [ -z "${MOTUS:-}" ]; then
  source scripts/ensure-deps.sh
  swift build -c release -Xswiftc -enable-testing --product motus >&2
fi
[ -d ../shared/datasets ] || { echo "error: ../shared/datasets is missing. HINT: place the shared data folder beside the repository." >&2; exit 1; }
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
held_out='motionsense:17-20,qrowd:3,gains_pushup:Eric'
device_change='rotation=180,gain=0.1,noise=0.004'

per_axis=(--model mlp --seed "$seed")
# Orientation-free channels plus per-axis ones, rigid device changes only.
with_axes=(--model mlp --seed "$seed" --decompose acceleration --spectral all
  --window 7.68s --hop 2.56s --augment 2 --perturbation rotation=180,gain=0.1,noise=0.002)
# models/six-class.motus: orientation-free channels only, and copies that sway as a
# body-worn phone does.
orientation_free=(--model mlp --seed "$seed" --decompose acceleration
  --feature-channels '|acceleration|' --spectral all --window 7.68s --hop 2.56s
  --augment 2 --perturbation rotation=180,gain=0.1,noise=0.01,sway=6)

evaluate() { "$motus" evaluate "$@" --format json 2>/dev/null | python3 scripts/transfer-metrics.py; }

run() {
  local name="$1"; shift
  echo "== $name: motus train $*"
  "$motus" train --manifest datasets/six-class.json --exclude-subjects "$held_out" \
    -o "$scratch/six.motus" "$@" >/dev/null
  "$motus" train --manifest datasets/transfer/six-class-without-motionsense.json \
    -o "$scratch/no-ms.motus" "$@" >/dev/null
  "$motus" train --manifest datasets/transfer/six-class-without-qrowd-swr.json \
    -o "$scratch/no-qrowd.motus" "$@" >/dev/null
  printf '%-34s%s\n' "test data" "  s/w/r acc  cycling  automot  push-up  auto|stat  macroF1"
  printf '%-34s' "held-out people"
  evaluate "$scratch/six.motus" --manifest datasets/six-class.json --subjects "$held_out"
  printf '%-34s' "held-out people, device change"
  evaluate "$scratch/six.motus" --manifest datasets/six-class.json --subjects "$held_out" \
    --perturb "$device_change"
  printf '%-34s' "MotionSense iPhone, never seen"
  evaluate "$scratch/no-ms.motus" --manifest datasets/transfer/swr-motionsense.json
  printf '%-34s' "  by session kind"
  "$motus" evaluate "$scratch/no-ms.motus" --manifest datasets/transfer/swr-motionsense.json \
    --format json 2>/dev/null | python3 scripts/transfer-metrics.py --by-session-kind
  printf '%-34s' "QROWD phone s/w/r, never seen"
  evaluate "$scratch/no-qrowd.motus" --manifest datasets/transfer/swr-qrowd.json
  echo
}

run "per-axis features (the default)" "${per_axis[@]}"
run "decomposed and per-axis features, rigid device changes" "${with_axes[@]}"
run "orientation-free features, swaying copies (models/six-class.motus)" "${orientation_free[@]}"
