#!/usr/bin/env bash
# The main job on an embedded default: no user data, no network.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
swift build -c release --product motus >&2
exec .build/release/motus demo "$@"
