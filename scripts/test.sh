#!/usr/bin/env bash
# Runs the whole test suite. Tests that need ../shared/datasets skip themselves when it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
swift build --build-tests
swift test --skip-build "$@"
