#!/usr/bin/env bash
# Regenerates notebooks-export/: executes every notebook in notebooks-export/notebooks/ against
# the real data in ../shared/datasets and writes each one as Markdown with PNG figures
# (notebooks-export/NN-name.md and NN-name_files/). Python packages (nbconvert, matplotlib,
# numpy, pandas, pinned in notebooks-export/requirements.txt) go into .venv-notebooks/, never
# into the core build.
#
#   bash scripts/export-notebooks.sh            # every notebook
#   bash scripts/export-notebooks.sh 03 06      # only those whose name starts with 03 or 06
#
# Environment:
#   MOTUS_BIN        reuse this motus binary instead of building one (swift build -c release)
#   MOTUS_DATA_ROOT  the data folder (default: ../shared/datasets beside the repository)
#   PYTHON           interpreter for the venv (default: python3; needs 3.11 or newer)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
started=$SECONDS

data_root=${MOTUS_DATA_ROOT:-$repo/../shared/datasets}
if [ ! -d "$data_root" ] || [ ! -f "$data_root/motionsense/motionsense.csv" ] ||
  [ ! -f "$data_root/dsads/dsads.csv" ]; then
  echo "export-notebooks: no data at $data_root (expected motionsense/, qrowd_tr/," \
    "gains_pushup/, dsads/)." >&2
  echo "HINT: the notebooks need the shared datasets beside the clone (../shared/datasets," \
    "as CI has them), or MOTUS_DATA_ROOT=/path/to/datasets." >&2
  exit 1
fi
data_root=$(cd "$data_root" && pwd)

# 1. The motus binary: reuse MOTUS_BIN, else an incremental release build (same flags as
#    scripts/demo.sh, so the two share one build).
if [ -n "${MOTUS_BIN:-}" ]; then
  [ -x "$MOTUS_BIN" ] || {
    echo "export-notebooks: MOTUS_BIN=$MOTUS_BIN is not an executable." \
      "HINT: unset it to build one." >&2
    exit 1
  }
  motus_bin=$(cd "$(dirname "$MOTUS_BIN")" && pwd)/$(basename "$MOTUS_BIN")
else
  source scripts/ensure-deps.sh
  echo "export-notebooks: building motus (release)" >&2
  swift build -c release -Xswiftc -enable-testing --product motus >&2
  motus_bin=$repo/.build/release/motus
fi

# 2. The Python environment, reinstalled only when requirements.txt changes.
venv=$repo/.venv-notebooks
requirements=$repo/notebooks-export/requirements.txt
python=${PYTHON:-python3}
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || {
  echo "export-notebooks: $python is missing or older than 3.11." \
    "HINT: install python3 (3.11+) with venv and pip, or set PYTHON=/path/to/python3.11." >&2
  exit 1
}
if ! cmp -s "$requirements" "$venv/.requirements.txt" 2>/dev/null; then
  echo "export-notebooks: installing pinned packages into .venv-notebooks/" >&2
  rm -rf "$venv"
  "$python" -m venv "$venv" || {
    echo "export-notebooks: could not create a venv." \
      "HINT: apt-get install python3-venv" >&2
    exit 1
  }
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" >&2
  cp "$requirements" "$venv/.requirements.txt"
fi

# 3. Execute into a staging folder; move the exports into place only when all succeeded.
out=$repo/notebooks-export
stage=$(mktemp -d "$out/.export-tmp.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/scratch"

notebooks=()
for nb in "$out"/notebooks/[0-9]*.ipynb; do
  name=$(basename "$nb" .ipynb)
  if (($#)); then
    wanted=0
    for prefix in "$@"; do [[ $name == "$prefix"* ]] && wanted=1; done
    ((wanted)) || continue
  fi
  notebooks+=("$nb")
done
((${#notebooks[@]})) || { echo "export-notebooks: no notebook matches '$*'." >&2; exit 1; }

# Sources stay small and reviewable: committed without outputs.
"$venv/bin/python" - "${notebooks[@]}" <<'EOF'
import sys, nbformat
dirty = [p for p in sys.argv[1:]
         if any(c.get("outputs") for c in nbformat.read(p, as_version=4).cells)]
if dirty:
    sys.exit("export-notebooks: these sources hold outputs: " + ", ".join(dirty) +
             "\nHINT: .venv-notebooks/bin/jupyter nbconvert --clear-output --inplace FILE")
EOF

export MOTUS_BIN=$motus_bin MOTUS_REPO=$repo MOTUS_DATA_ROOT=$data_root
export MOTUS_NB_TMP=$stage/scratch PYTHONHASHSEED=0 SOURCE_DATE_EPOCH=0
export MPLCONFIGDIR=$stage/mplconfig OPENBLAS_NUM_THREADS=1
for nb in "${notebooks[@]}"; do
  name=$(basename "$nb" .ipynb)
  t0=$SECONDS
  echo "export-notebooks: executing $name" >&2
  # Execute to a notebook, then convert it with consecutive prints merged: how the kernel
  # splits a cell's output into messages depends on timing, the merged text does not.
  # The per-cell timeout is generous: 07's `motus bench transfer` trains 42 models (about
  # 7 minutes on two free cores, much longer on a machine shared with other work).
  if ! "$venv/bin/jupyter" nbconvert --execute --to notebook --output-dir "$stage/executed" \
    --ExecutePreprocessor.timeout=3600 --log-level=WARN "$nb" >&2 ||
    ! "$venv/bin/jupyter" nbconvert --to markdown --output-dir "$stage/export" \
      --CoalesceStreamsPreprocessor.enabled=True --log-level=WARN \
      "$stage/executed/$name.ipynb" >&2; then
    echo "export-notebooks: $name failed; earlier exports are left as they were." \
      "HINT: the cell's traceback is above; open notebooks-export/notebooks/$name.ipynb" \
      "in Jupyter with the same environment variables to debug." >&2
    exit 1
  fi
  echo "export-notebooks: $name done in $((SECONDS - t0)) s" >&2
done

for nb in "${notebooks[@]}"; do
  name=$(basename "$nb" .ipynb)
  rm -rf "$out/$name.md" "$out/${name}_files"
  mv "$stage/export/$name.md" "$out/$name.md"
  [ -d "$stage/export/${name}_files" ] && mv "$stage/export/${name}_files" "$out/${name}_files"
done
echo "export-notebooks: ${#notebooks[@]} notebook(s) exported to notebooks-export/ in" \
  "$((SECONDS - started)) s" >&2
