#!/usr/bin/env bash
# Java 17 (Debian's openjdk-17-jre-headless, through apt) and pyspark (PyPI, into .venv-spark/,
# git-ignored) for integrations/spark, each installed only when missing. Exits 0 when both are
# there; otherwise prints "spark setup: skipped (<why>)" and exits 3, so a caller can skip.
#
#   scripts/spark-setup.sh
set -uo pipefail
cd "$(dirname "$0")/.."
VENV=.venv-spark

# Spark 4 runs on Java 17 or later; `java -version` prints e.g. openjdk version "17.0.15".
major=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
if [ "${major:-0}" -lt 17 ]; then
  echo "spark setup: installing openjdk-17-jre-headless" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends openjdk-17-jre-headless; } >&2; then
    echo "spark setup: skipped (could not install openjdk-17-jre-headless with apt-get)"
    exit 3
  fi
fi
if ! "$VENV/bin/python" -c "import pyspark" 2>/dev/null; then
  echo "spark setup: installing pyspark into $VENV" >&2
  if ! python3 -m venv "$VENV" || ! "$VENV/bin/pip" install --quiet pyspark; then
    echo "spark setup: skipped (could not install pyspark from PyPI)"
    exit 3
  fi
fi
exit 0
