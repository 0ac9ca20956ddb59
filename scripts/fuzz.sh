#!/usr/bin/env bash
# Fuzzes the parsers a user's file reaches: the CSV reader, the model-file loader, the manifest
# loader, the stream's line parser, the phone-app readers, a file or a folder at a time, the
# Parquet reader, the window-table spec reader (Fuzz/Targets/FuzzTargets.swift), export's graph
# builder (Fuzz/Targets/ExportFuzzTarget.swift), the live push parser and hub (push:
# Fuzz/Targets/PushFuzzTarget.swift), and the Spark job's argument handling and output
# rule (spark-args: integrations/spark/tools/fuzz_arguments.py, Python and hypothesis, no libFuzzer;
# its findings go to .build/fuzz/artifacts/spark-args-crash-*.json). Builds MotusFuzz with
# libFuzzer and AddressSanitizer (-sanitize=fuzzer,address, Linux), then runs each target for
# SECONDS from its committed seeds in Fuzz/Corpus/<target>; inputs it finds go to
# .build/fuzz/corpus/<target>, never into the repository. A crash, a hang (over 10 s on one
# input) or an allocation over 2 GB stops that target with the input saved as
# .build/fuzz/artifacts/<target>-crash-*; copy it to Fuzz/Regressions/<target>/ and pin the
# error it should give in Tests/MotusFuzzTests.
#
#   bash scripts/fuzz.sh              # 60 s per target (.ci/run gives each 45 s)
#   bash scripts/fuzz.sh 600 model    # one target for ten minutes
#   bash scripts/fuzz.sh 30 spark-args  # the Spark job's arguments only (no Swift build)
#
# Prints one line per target and exits non-zero when any target found something.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(csv model manifest stream export app-file app-folder parquet window-spec push spark-args)
scratch=.build/fuzz
mkdir -p "$scratch/artifacts"
failed=0

# A Python with hypothesis: this one's, else .venv-spark's, installed there from PyPI if need be.
hypothesis_python() {
  local python
  for python in python3 .venv-spark/bin/python; do
    if "$python" -c "import hypothesis" 2>/dev/null; then
      echo "$python"
      return 0
    fi
  done
  { [ -x .venv-spark/bin/python ] || python3 -m venv .venv-spark; } >&2 \
    && .venv-spark/bin/pip install --quiet hypothesis >&2 && echo .venv-spark/bin/python
}

swift_targets=()
for target in "${targets[@]}"; do
  if [ "$target" != spark-args ]; then
    swift_targets+=("$target")
  elif python=$(hypothesis_python); then
    "$python" integrations/spark/tools/fuzz_arguments.py "$seconds" \
      --artifacts "$scratch/artifacts" || failed=$((failed + 1))
  else
    echo "fuzz spark-args: skipped (hypothesis could not be installed)" >&2
  fi
done
((${#swift_targets[@]})) || exit $((failed > 0))

if [ "$(uname -s)" != Linux ]; then
  echo "fuzz: libFuzzer (-sanitize=fuzzer) needs Linux; skipped" >&2
  exit $((failed > 0))
fi
swift build -c release --scratch-path "$scratch" --product MotusFuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING >&2
binary="$scratch/release/MotusFuzz"

for target in "${swift_targets[@]}"; do
  mkdir -p "$scratch/corpus/$target"
  log="$scratch/$target.log"
  # Swift's own crash reporter would take the signal libFuzzer needs to save the input.
  if MOTUS_FUZZ_TARGET="$target" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 \
    "$binary" "$scratch/corpus/$target" "Fuzz/Corpus/$target" \
    -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$scratch/artifacts/$target-" -print_final_stats=1 >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    cover=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo "?")
    echo "fuzz $target: ${seconds} s, $runs inputs, coverage $cover, no crash"
  else
    failed=$((failed + 1))
    echo "fuzz $target: FOUND A CRASH, HANG OR HUGE ALLOCATION (log: $log)"
    grep -E "ERROR|Fatal error|SUMMARY|Test unit written" "$log" | head -5 || true
  fi
done
exit $((failed > 0))
