"""Shared helpers for the notebooks: where things are, running `motus`, tables, plot style.

Environment (set by scripts/export-notebooks.sh; defaults work from a clone with the data
folder beside it):
  MOTUS_BIN        the motus executable (default: <repo>/.build/release/motus)
  MOTUS_REPO       the repository root (default: two folders above this file)
  MOTUS_DATA_ROOT  the shared data folder (default: <repo>/../shared/datasets)
  MOTUS_NB_TMP     a scratch folder for outputs (default: a new temporary folder)
Nothing here writes into the repository: every file motus writes goes to MOTUS_NB_TMP.
"""

import json
import os
import re
import shlex
import subprocess
import tempfile
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

REPO = Path(os.environ.get("MOTUS_REPO", Path(__file__).resolve().parents[2])).resolve()
DATA = Path(os.environ.get("MOTUS_DATA_ROOT", REPO.parent / "shared" / "datasets")).resolve()
MOTUS = Path(os.environ.get("MOTUS_BIN", REPO / ".build" / "release" / "motus")).resolve()
TMP = Path(os.environ.get("MOTUS_NB_TMP") or tempfile.mkdtemp(prefix="motus-nb-"))
TMP.mkdir(parents=True, exist_ok=True)

if not DATA.is_dir():
    raise SystemExit(f"data folder {DATA} is missing. HINT: put the shared datasets beside "
                     "the clone (../shared/datasets) or set MOTUS_DATA_ROOT.")
if not MOTUS.is_file():
    raise SystemExit(f"motus binary {MOTUS} is missing. HINT: run scripts/export-notebooks.sh "
                     "or set MOTUS_BIN.")

MANIFEST = "datasets/six-class.json"
# The held-out people of the six-class split: models/six-class.motus has seen them (it is
# trained on every subject of the manifest), so the notebooks score a model trained by the
# same recipe without them (heldout_model() below). MotionSense 17-20 are also the held-out
# subjects of models/motionsense-device-motion.motus, as its card lists them.
SIX_CLASS_TEST = "motionsense:17-20,qrowd:3,gains_pushup:Eric"
MOTIONSENSE_TEST = "17-20"
SIX_CLASSES = ["stationary", "walking", "running", "cycling", "automotive", "push-up"]
# The manifest's negative labels: activities that are none of the six classes. Never a class
# column: shown apart, or as the share of their windows a model answers `unknown` for.
NEGATIVE_LABELS = ["other"]
SOURCES = ["motionsense", "qrowd", "gains_pushup", "dsads"]
# dsads: the body placement is the session name's text after its last `_` (a01_p1_LL).
DSADS_PLACEMENTS = {"T": "chest (T)", "RA": "right wrist (RA)", "LL": "left knee (LL)"}

# One colour per six-class label, used by every notebook; the negative label is olive.
CLASS_COLORS = dict(zip(SIX_CLASSES, ["#7f7f7f", "#1f77b4", "#d62728", "#2ca02c",
                                      "#9467bd", "#ff7f0e"]))
NEGATIVE_COLOR = "#bcbd22"
LABEL_COLORS = {**CLASS_COLORS, **{label: NEGATIVE_COLOR for label in NEGATIVE_LABELS}}
SOURCE_COLORS = {"motionsense": "#1f77b4", "qrowd": "#2ca02c", "gains_pushup": "#ff7f0e",
                 "dsads": "#8c564b"}
PLACEMENT_COLORS = {"T": "#8c564b", "RA": "#e377c2", "LL": "#17becf"}

matplotlib.rcParams.update({
    "figure.dpi": 90, "savefig.dpi": 90, "figure.figsize": (9, 4.5),
    "axes.grid": True, "grid.alpha": 0.3, "axes.titlesize": 11, "axes.labelsize": 10,
    "legend.fontsize": 8, "xtick.labelsize": 8, "ytick.labelsize": 8,
    "svg.hashsalt": "motus", "image.cmap": "Blues",
})
np.random.seed(0)


def _display_arg(arg):
    """Shortens paths for the printed command line: $DATA, $TMP, repo-relative."""
    text = str(arg)
    for root, name in ((DATA, "$DATA"), (TMP, "$TMP"), (REPO, ".")):
        prefix = str(root)
        if text.startswith(prefix + "/"):
            rest = shlex.quote(text[len(prefix) + 1:])
            return rest if name == "." else f"{name}/{rest}"
    return shlex.quote(text)


def shorten(text):
    """Replaces the data, scratch and repository paths in motus's messages by $DATA, $TMP, ."""
    for root, name in ((DATA, "$DATA"), (TMP, "$TMP"), (REPO, ".")):
        text = text.replace(str(root) + "/", name + "/")
    return text


def command_line(args):
    return "motus " + " ".join(_display_arg(a) for a in args)


def run(args, echo=True, stdin=None):
    """Runs motus with these arguments from the repository root; returns stdout as text.

    Prints the command (paths shortened) so the export shows what produced each figure.
    A non-zero exit raises with motus's own error message.
    """
    args = [str(a) for a in args]
    if echo:
        print("$ " + command_line(args))
    proc = subprocess.run([str(MOTUS), *args], cwd=REPO, capture_output=True, text=True,
                          stdin=stdin)
    if proc.returncode != 0:
        raise RuntimeError(f"{command_line(args)} failed ({proc.returncode}):\n{proc.stderr}")
    return proc.stdout


def run_json(args, echo=True):
    return json.loads(run(args, echo=echo))


def run_json_lines(args, echo=True):
    """For `motus stream`: one JSON object per line."""
    return [json.loads(line) for line in run(args, echo=echo).splitlines() if line.strip()]


def _seconds(text):
    parts = [float(p) for p in text.split(":")]
    total = 0.0
    for p in parts:
        total = total * 60 + p
    return total


def parse_inspect(text):
    """Parses `motus inspect` text (it has no JSON format) into DataFrames by section.

    Sections are blocks headed `name (n):` or `name:` followed by an aligned table whose
    columns are separated by two or more spaces. Duration columns (H:MM:SS) gain a
    `<name>_s` column in seconds.
    """
    sections = {}
    blocks = [b for b in text.strip().split("\n\n") if b.strip()]
    for block in blocks:
        lines = block.splitlines()
        match = re.match(r"^([a-z][a-z ]*?)(?: \((\d+)\))?:$", lines[0].strip())
        if not match or len(lines) < 2:
            continue
        header = re.split(r"\s{2,}", lines[1].strip())
        rows = [re.split(r"\s{2,}", line.strip()) for line in lines[2:]]
        rows = [r for r in rows if len(r) == len(header)]
        frame = pd.DataFrame(rows, columns=header)
        for column in frame.columns:
            converted = pd.to_numeric(frame[column].str.rstrip("%"), errors="coerce")
            if converted.notna().all():
                frame[column] = converted
            elif frame[column].str.fullmatch(r"\d+:\d\d:\d\d").all():
                frame[column + "_s"] = frame[column].map(_seconds)
        sections[match.group(1)] = frame
    return sections


def md_table(frame, floatfmt="{:.3f}", index=False):
    """A Markdown table (rendered as Markdown in the export, no extra package)."""
    frame = frame.reset_index() if index else frame
    def cell(v):
        if isinstance(v, (float, np.floating)):
            return floatfmt.format(v)
        return str(v).replace("|", "\\|")  # `|acceleration|` must not split a cell
    head = "| " + " | ".join(cell(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *body])


def show_table(frame, **kwargs):
    from IPython.display import Markdown, display
    display(Markdown(md_table(frame, **kwargs)))


def source_of(name):
    """`qrowd:3` -> `qrowd` (manifest names are source-prefixed)."""
    return str(name).split(":", 1)[0]


def placement_of(session):
    """`dsads:a01_p1_LL` -> `LL` (dsads's placementSeparator `_`); None for other sources."""
    if source_of(session) != "dsads":
        return None
    return str(session).rsplit("_", 1)[-1]


# The shipped recipe (motus train's defaults, seed 1, as models/six-class.motus was trained)
# without the held-out people: the model notebooks 03-06 score on those people.
HELDOUT_MODEL_ARGS = ["train", "--manifest", MANIFEST, "--exclude-subjects", SIX_CLASS_TEST,
                      "--seed", "1"]


def run_once(args, log, products=(), note=""):
    """Runs motus once per export run and prints its command and output either way.

    The scratch folder is new for every run of scripts/export-notebooks.sh, so within one run
    a step several notebooks need (the held-out model, the transfer benchmark) runs in the
    first notebook that asks and is reused by the others. `log` keeps motus's standard output
    (paths shortened); `products` are files it writes. Returns that output.
    """
    print("$ " + command_line(args) + (f"   # {note}" if note else ""))
    if not (log.is_file() and all(Path(p).is_file() for p in products)):
        log.write_text(shorten(run(args, echo=False)))
    text = log.read_text()
    print(text.rstrip())
    return text


def heldout_model():
    """Trains the held-out model into the scratch folder once per run and returns its path.

    Notebooks 03-06 all call this; the first one trains (the same flags and seed give a
    byte-identical file), the others reuse the file.
    """
    path = TMP / "six-class-heldout.motus"
    run_once([*HELDOUT_MODEL_ARGS, "-o", path], TMP / "six-class-heldout.train.txt", [path],
             note="once per export run, shared by notebooks 03-06")
    return path
