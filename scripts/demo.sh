#!/usr/bin/env bash
# The main job on an embedded default: no user data, no network.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
# Same flags as scripts/test.sh, so the two share one build.
swift build -c release -Xswiftc -enable-testing --product motus >&2
exec .build/release/motus demo "$@"
