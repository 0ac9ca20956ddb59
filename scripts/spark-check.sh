#!/usr/bin/env bash
# The Spark job (integrations/spark) against `motus stream` run recording by recording on one
# machine: makes a cohort of 110 recordings from ../shared/datasets in a temporary folder
# (sessions of MotionSense, QROWD, DSADS and fitness_learning as long-layout files, phone-app
# export folders, a .csv.gz and two files motus refuses), scores it in local mode, and requires
# identical predictions and summaries (integrations/spark/tools/check.py), after the job's
# unit tests (integrations/spark/tests, pytest). Prints
# "spark check: ok" when they are; skips (and says so) when ../shared/datasets, Java 17 or
# pyspark is out of reach.
#
#   scripts/spark-check.sh            MOTUS=path/to/motus scripts/spark-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/datasets
if [ ! -d "$data/motionsense" ]; then
  echo "spark check: skipped ($data absent)"
  exit 0
fi
setup=0
setup_started=$SECONDS
bash scripts/spark-setup.sh || setup=$?
echo "spark check: Java 17 and pyspark ready in $((SECONDS - setup_started)) s" >&2
if [ "$setup" -eq 3 ]; then
  echo "spark check: skipped (Java 17 or pyspark could not be installed)"
  exit 0
elif [ "$setup" -ne 0 ]; then
  exit "$setup"
fi
MOTUS=${MOTUS:-.build/release/motus}
[ -x "$MOTUS" ] || swift build -c release --product motus >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

PY=.venv-spark/bin/python
# The job's own tests first (integrations/spark/tests: the output rule and argument checks,
# then the reported reproductions through the job in a local session): pytest from PyPI.
$PY -c "import pytest" 2>/dev/null || $PY -m pip install --quiet pytest >&2
$PY -m pytest -q -p no:cacheprovider integrations/spark/tests
$PY integrations/spark/tools/make_cohort.py "$work/cohort" --datasets "$data"
mkdir "$work/out"
$PY integrations/spark/tools/check.py "$(realpath "$MOTUS")" models/six-class.motus \
  "$work/cohort" "$work/out" --master 'local[2]'
echo "spark check: ok ($((SECONDS - setup_started)) s with the set-up)"
