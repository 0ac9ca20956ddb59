#!/usr/bin/env bash
# Builds the app-sized example (Examples/ActivityMonitor, MotusInference only) and replays two
# real recordings through it with the shipped six-class model: a MotionSense person walking,
# jogging and sitting (Core Motion device motion), and a set of push-ups from gains_pushup
# (a bare accelerometer). Both are recordings the model was trained on: this shows the API at
# work and fails if it stops answering, it is not an accuracy figure (README has those).
# Then it adapts the model on the device (Personalisation) to 60 other labelled push-up clips
# and replays the push-ups through the adapted model: the on-device adaptation at work.
# Skips the replay, after building, when ../shared/datasets is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
data=../shared/datasets
swift build -c release --package-path Examples/ActivityMonitor
bin=$(swift build -c release --package-path Examples/ActivityMonitor --show-bin-path)/activity-monitor
if [ ! -d "$data/motionsense" ] || [ ! -d "$data/gains_pushup" ]; then
  echo "example: ok (built; replay skipped, $data absent)"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Three sessions of MotionSense subject 17 back to back on one clock (50 Hz).
awk -F, -v OFS=, '
  NR == 1 { $2 = ""; $3 = ""; print "timestamp,label,userAcceleration.x,userAcceleration.y,userAcceleration.z,gravity.x,gravity.y,gravity.z,rotationRate.x,rotationRate.y,rotationRate.z,attitude.roll,attitude.pitch,attitude.yaw"; next }
  $2 == "wlk_7_sub17" || $2 == "jog_9_sub17" || $2 == "sit_5_sub17" {
    n++; $1 = sprintf("%.2f", n / 50); out = $1 "," $4
    for (i = 5; i <= NF; i++) out = out "," $i
    print out
  }' "$data/motionsense/motionsense.csv" > "$work/walk-jog-sit.csv"
# The first 60 good-form push-up clips, one after another on one 40 Hz clock.
awk -F, -v OFS=, '
  NR == 1 { print "timestamp,label,acceleration.x,acceleration.y,acceleration.z"; next }
  $4 == "pushup_good-form" {
    if ($2 != last) { clips++; last = $2 }
    if (clips > 60) exit
    n++; print sprintf("%.3f", n / 40), $4, $5, $6, $7
  }' "$data/gains_pushup/gains_pushup.csv" > "$work/push-ups.csv"

# Clips 61-120, labelled with the model's class: minutes a user would label to adapt on.
awk -F, -v OFS=, '
  NR == 1 { print "timestamp,label,acceleration.x,acceleration.y,acceleration.z"; next }
  $4 == "pushup_good-form" {
    if ($2 != last) { clips++; last = $2 }
    if (clips <= 60) next
    if (clips > 120) exit
    n++; print sprintf("%.3f", n / 40), "push-up", $5, $6, $7
  }' "$data/gains_pushup/gains_pushup.csv" > "$work/labelled-push-ups.csv"

status=0
for recording in walk-jog-sit push-ups; do
  echo "== example: models/six-class.motus on $recording (real recording, seen in training)"
  "$bin" "$root/models/six-class.motus" "$work/$recording.csv" | tee "$work/$recording.out"
done
for activity in walking running stationary; do
  grep -q "  $activity (" "$work/walk-jog-sit.out" || { echo "example: FAILED, never answered $activity"; status=1; }
done
pushups=$(grep -c "push-up [0-9]" "$work/push-ups.out" || true)
[ "$pushups" -ge 20 ] || { echo "example: FAILED, $pushups push-ups counted in 60 clips"; status=1; }
echo "== example: the same model adapted on the device to 60 other labelled clips, then push-ups"
"$bin" "$root/models/six-class.motus" "$work/push-ups.csv" "$work/labelled-push-ups.csv" \
  | tee "$work/adapted.out"
grep -q "^adapted on push-up [0-9]* windows" "$work/adapted.out" \
  || { echo "example: FAILED, did not adapt"; status=1; }
adapted=$(grep -c "push-up [0-9]" "$work/adapted.out" || true)
[ "$adapted" -ge 20 ] || { echo "example: FAILED, adapted: $adapted push-ups counted"; status=1; }
[ "$status" -eq 0 ] && echo "example: ok ($pushups push-ups counted in 60 clips; $adapted adapted)"
exit "$status"
