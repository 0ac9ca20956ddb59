#!/usr/bin/env bash
# The held-out-device experiment behind README's "Unseen devices" table. For each recipe it
# trains three six-class models and tests each on data from a device, placement or people
# it never saw:
#   held-out people       datasets/six-class.json without MotionSense 17-20, QROWD 3, Eric;
#                         tested on those subjects as recorded, then with a simulated device
#                         change (random orientation, gain +-10 %, noise up to 0.004 g)
#   without MotionSense   stationary/walking/running only from the QROWD phone; tested on
#                         MotionSense's iPhone (datasets/transfer/swr-motionsense.json), with
#                         accuracy per kind of session (sit, std, wlk, ...) on a further line
#   without QROWD s/w/r   the QROWD phone seen only cycling or in vehicles; tested on its
#                         stationary/walking/running (datasets/transfer/swr-qrowd.json)
# Each test prints two rows: single windows, and the answers of a stream smoothed with
# `--smoothing hmm` (`motus evaluate --smoothing hmm`, each recording in time order). The
# never-seen tests add a third: with `--unknown-below 0.7`, the share of windows named a
# class and the accuracy on those (in the first two columns).
# Usage: scripts/transfer-experiment.sh [--shipped-only] [seed ...] (default seed 1). With
# several seeds it ends with the median and range of each cell over the seeds.
# --shipped-only runs only the recipe of models/six-class.motus. MOTUS_TRAIN_EXTRA adds flags
# to every `motus train` (the last value of a flag wins), e.g.
# MOTUS_TRAIN_EXTRA='--augment 4' for a variant of the recipes. Needs ../shared/datasets.
# About 6 minutes per seed for the three recipes, 2 for the shipped one.
set -euo pipefail
cd "$(dirname "$0")/.."
recipes=(per_axis with_axes orientation_free)
if [ "${1:-}" = "--shipped-only" ]; then recipes=(orientation_free); shift; fi
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1)
for seed in "${seeds[@]}"; do
  [[ "$seed" =~ ^[0-9]+$ ]] || { echo "error: seed '$seed' is not a whole number. HINT: scripts/transfer-experiment.sh [--shipped-only] [seed ...], e.g. 1 2 3." >&2; exit 2; }
done
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
unknown_below=0.7

# Recipes, without --seed.
per_axis=(--model mlp)
# Orientation-free channels plus per-axis ones, rigid device changes only.
with_axes=(--model mlp --decompose acceleration --spectral all
  --window 7.68s --hop 2.56s --augment 2 --perturbation rotation=180,gain=0.1,noise=0.002)
# models/six-class.motus: orientation-free channels only, and copies that sway as a
# body-worn phone does.
orientation_free=(--model mlp --decompose acceleration
  --feature-channels '|acceleration|' --spectral all --window 7.68s --hop 2.56s
  --augment 2 --perturbation rotation=180,gain=0.1,noise=0.01,sway=6)
declare -A titles=(
  [per_axis]="per-axis features (the default)"
  [with_axes]="decomposed and per-axis features, rigid device changes"
  [orientation_free]="orientation-free features, swaying copies (models/six-class.motus)")
cells="$scratch/cells.tsv"
: > "$cells"
read -r -a train_extra <<< "${MOTUS_TRAIN_EXTRA:-}"

# report MODEL EVALUATE-ARGS...: `motus evaluate --format json`; its notes are dropped, but a
# failure stops the script with motus's own message.
report() {
  "$motus" evaluate "$@" --format json 2>"$scratch/stderr" || {
    cat "$scratch/stderr" >&2
    echo "error: motus evaluate $* failed (above)." >&2
    exit 1
  }
}

# row RECIPE LABEL MODEL EVALUATE-ARGS...: one row for single windows, one for the stream.
row() {
  local recipe="$1" label="$2"; shift 2
  local smoothing line shown
  for smoothing in none hmm; do
    line="$(report "$@" --smoothing "$smoothing" | python3 scripts/transfer-metrics.py)"
    shown="$label"
    [ "$smoothing" = none ] || shown="  streamed, --smoothing hmm"
    printf '%-34s%s\n' "$shown" "$line"
    printf '%s\t%s\t%s\n' "${titles[$recipe]}|$label|$smoothing" "$shown" "$line" >> "$cells"
  done
}

# unknown_row RECIPE LABEL MODEL EVALUATE-ARGS...: coverage and accuracy when named.
unknown_row() {
  local recipe="$1" label="$2"; shift 2
  local line shown="  unknown below $unknown_below: named, acc"
  line="$(report "$@" --unknown-below "$unknown_below" \
    | python3 scripts/transfer-metrics.py --coverage)"
  printf '%-34s%s\n' "$shown" "$line"
  printf '%s\t%s\t%s\n' "${titles[$recipe]}|$label|unknown" "$shown" "$line" >> "$cells"
}

run() {
  local recipe="$1" seed="$2"; local -n flags="$recipe"
  echo "== ${titles[$recipe]}, seed $seed: motus train ${flags[*]} ${train_extra[*]} --seed $seed"
  "$motus" train --manifest datasets/six-class.json --exclude-subjects "$held_out" \
    -o "$scratch/six.motus" "${flags[@]}" "${train_extra[@]}" --seed "$seed" >/dev/null
  "$motus" train --manifest datasets/transfer/six-class-without-motionsense.json \
    -o "$scratch/no-ms.motus" "${flags[@]}" "${train_extra[@]}" --seed "$seed" >/dev/null
  "$motus" train --manifest datasets/transfer/six-class-without-qrowd-swr.json \
    -o "$scratch/no-qrowd.motus" "${flags[@]}" "${train_extra[@]}" --seed "$seed" >/dev/null
  printf '%-34s%s\n' "test data" "  s/w/r acc  cycling  automot  push-up  auto|stat  macroF1"
  row "$recipe" "held-out people" "$scratch/six.motus" \
    --manifest datasets/six-class.json --subjects "$held_out"
  row "$recipe" "held-out people, device change" "$scratch/six.motus" \
    --manifest datasets/six-class.json --subjects "$held_out" --perturb "$device_change"
  row "$recipe" "MotionSense iPhone, never seen" "$scratch/no-ms.motus" \
    --manifest datasets/transfer/swr-motionsense.json
  unknown_row "$recipe" "MotionSense iPhone, never seen" "$scratch/no-ms.motus" \
    --manifest datasets/transfer/swr-motionsense.json
  printf '%-34s' "  single windows by session kind"
  report "$scratch/no-ms.motus" --manifest datasets/transfer/swr-motionsense.json \
    | python3 scripts/transfer-metrics.py --by-session-kind
  row "$recipe" "QROWD phone s/w/r, never seen" "$scratch/no-qrowd.motus" \
    --manifest datasets/transfer/swr-qrowd.json
  unknown_row "$recipe" "QROWD phone s/w/r, never seen" "$scratch/no-qrowd.motus" \
    --manifest datasets/transfer/swr-qrowd.json
  echo
}

for recipe in "${recipes[@]}"; do
  for seed in "${seeds[@]}"; do run "$recipe" "$seed"; done
done
if [ ${#seeds[@]} -gt 1 ]; then
  echo "== median (min-max) over seeds ${seeds[*]}"
  python3 scripts/transfer-metrics.py --median < "$cells"
fi
