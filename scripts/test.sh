#!/usr/bin/env bash
# Runs the whole test suite, optimised (as an app ships the code; the zero-allocation test
# needs it) with -enable-testing for @testable imports. Preconditions stay on at -O.
# Tests that need ../shared/datasets skip themselves when it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
flags=(-c release -Xswiftc -enable-testing)
swift build "${flags[@]}" --build-tests
swift test "${flags[@]}" --skip-build "$@"
