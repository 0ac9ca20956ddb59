#!/usr/bin/env python3
"""Cross-checks `motus train` against scikit-learn on the same window table.

Runs `motus features` for the training subjects (default 1-16) and the test subjects (17-20),
fits scikit-learn's LogisticRegression and MLPClassifier on those tables (standardised on the
training rows, as motus does), trains motus on the same subjects, evaluates every model on the
test table and prints one table: test accuracy, macro-F1, log loss and the median fit time of a
few repetitions, measured side by side in this one run.

Fairness:
- One thread everywhere: OPENBLAS/OMP/MKL threads are set to 1 before NumPy loads, for
  scikit-learn as for motus (whose OpenBLAS always runs on one thread); the BLAS thread counts
  NumPy really uses are read back (threadpoolctl) and printed. `--cpus 0` pins this process and
  the motus runs it starts to the same core(s); the load average is printed before and after,
  since timings on a busy machine are noisy (the CPU-seconds column is less affected).
- Times are fit times only: motus prints its fit time (`timing:` line of `motus train`) apart
  from loading, features and calibration; scikit-learn's is the `fit` call on the ready table.
- motus holds out validation subjects (early stopping, temperature scaling) and by default fits
  the final model again on every training subject. The like-for-like rows use `--no-refit`:
  scikit-learn's LogisticRegression is fitted on exactly motus's training part (the training
  subjects minus the validation subjects named in the model file), with the same penalty
  (C = 1/alpha), balanced class weights and tolerance, and compared with the motus model's
  uncalibrated (T = 1) test log loss. MLPClassifier holds out 20 % itself (early_stopping) with
  the same alpha, batch, step and patience; it has no class weights.
- The default `motus train` (with refit) fits twice; its rows are compared with scikit-learn
  doing the same two fits (`+refit` rows): the fit above, then a refit on every training row
  standardised on them, warm-started from the first fit's coefficients carried over to the new
  standardisation (logistic, as motus does), or for the best validation epoch count (MLP).
- The `CPU ms each` column divides CPU time by epochs (MLP) or iterations (L-BFGS), so the cost
  of one pass can be compared apart from how many passes each stopping rule asks for.
- Test metrics of motus models come from `motus evaluate --format json` when it exists, checked
  against a NumPy re-implementation of inference (scripts/reference/motus_model.py).

Usage (from the repository root, after `swift build -c release`; about 5-8 minutes each):
  python3 scripts/compare-sklearn.py                       # six MotionSense labels
  python3 scripts/compare-sklearn.py --map sitting=stationary,standing=stationary,\\
      upstairs=walking,downstairs=walking,jogging=running  # three classes
  # the features chosen on validation subjects: 5.12 s windows, with magnitude channels
  CH='userAcceleration.*,rotationRate.*,gravity.*,attitude.*,|userAcceleration|,|rotationRate|'
  python3 scripts/compare-sklearn.py --window 5.12s --channels "$CH"
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

# One thread for every BLAS before NumPy is imported (the comparison is single-threaded).
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
  os.environ[_name] = "1"


def ensure_sklearn():
  try:
    import sklearn  # noqa: F401
  except ImportError:
    print("scikit-learn is missing: pip install scikit-learn", file=sys.stderr)
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", "scikit-learn"])


ensure_sklearn()

import numpy as np  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import accuracy_score, f1_score, log_loss  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.utils.class_weight import compute_sample_weight  # noqa: E402

META_COLUMNS = 5  # session, subject, label, purity, start_s


def run(command, capture=True):
  print("$ " + " ".join(command), file=sys.stderr)
  result = subprocess.run(command, capture_output=capture, text=True)
  if result.returncode != 0:
    sys.exit(f"failed ({result.returncode}): {' '.join(command)}\n{result.stderr}")
  return result.stdout


def read_table(path):
  """A `motus features` CSV: features [N, F], labels [N], subjects [N]."""
  with open(path) as f:
    header = f.readline().rstrip("\n").split(",")
  meta = np.loadtxt(path, delimiter=",", skiprows=1, usecols=(1, 2), dtype=str, ndmin=2)
  x = np.loadtxt(
    path, delimiter=",", skiprows=1, dtype=np.float64,
    usecols=range(META_COLUMNS, len(header)))
  return x, meta[:, 1], meta[:, 0]


def fit_seconds(summary):
  """(wall, thread CPU) seconds of the fit, from `motus train`'s timing line."""
  match = re.search(r"timing: fit ([0-9.]+) s \(thread CPU ([0-9.]+) s\)", summary)
  if not match:
    sys.exit("`motus train` printed no `timing: fit X s (thread CPU Y s)` line:\n" + summary)
  return float(match.group(1)), float(match.group(2))


def main():
  here = os.path.dirname(os.path.abspath(__file__))
  root = os.path.dirname(here)
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--motus", default=os.path.join(root, ".build/release/motus"))
  parser.add_argument(
    "--data", default=os.path.join(root, "../shared/datasets/motionsense/motionsense.csv"))
  parser.add_argument("--train-subjects", default="1-16")
  parser.add_argument("--test-subjects", default="17-20")
  parser.add_argument("--map", help="forwarded to motus (--map)")
  parser.add_argument("--channels", help="forwarded to motus (--channels)")
  parser.add_argument("--window", default="2.56s", help="forwarded to motus (--window)")
  parser.add_argument("--l2-logistic", type=float, default=1.0, help="alpha; sklearn C = 1/alpha")
  parser.add_argument("--hidden", default="64")
  parser.add_argument("--l2-mlp", type=float, default=30, help="MLP alpha (both sides)")
  parser.add_argument("--patience", type=int, default=20, help="early-stopping patience (both)")
  parser.add_argument("--seed", type=int, default=1)
  parser.add_argument("--repeats", type=int, default=3, help="fits per model (median time)")
  parser.add_argument("--keep", help="folder to keep the tables and models in")
  parser.add_argument("--cpus", help="pin both tools to these CPUs, e.g. 0 or 0,1")
  args = parser.parse_args()
  if args.cpus:
    os.sched_setaffinity(0, {int(c) for c in args.cpus.split(",")})

  if not os.path.exists(args.motus):
    sys.exit(f"{args.motus} not found. HINT: swift build -c release (or pass --motus).")
  work = args.keep or tempfile.mkdtemp(prefix="motus-compare-")
  os.makedirs(work, exist_ok=True)
  try:
    report(args, work)
  finally:
    if not args.keep:
      shutil.rmtree(work, ignore_errors=True)


def table_flags(args):
  """The flags of every `motus features` and `motus train` run: the label map and channels
  asked for, and a fixed table, so the figures compare trainers, not feature defaults: every
  channel per axis, the classic spectral set, half-window hops."""
  data_flags = []
  if args.map:
    data_flags += ["--map", args.map]
  if args.channels:
    data_flags += ["--channels", args.channels]
  window = args.window
  hop = f"{float(window[:-1]) / 2}s" if window.endswith("s") else str(int(window) // 2)
  data_flags += ["--window", window, "--hop", hop, "--feature-channels", "all",
                 "--decompose", "none",
                 "--spectral", "band,dominant_hz,dominant_share,centroid_hz,entropy"]
  return data_flags


def median_times(times):
  """(wall, CPU) medians of (wall, CPU) pairs."""
  return (statistics.median(t[0] for t in times), statistics.median(t[1] for t in times))


def epochs_text(summary):
  """Epochs (or iterations) of `motus train`'s summary, and of its refit when it made one."""
  epochs = int(re.search(r"(\d+) epochs in", summary).group(1))
  refit = re.search(r"refit on all \d+ windows for (\d+)", summary)
  return f"{epochs}" + (f" + refit {refit.group(1)}" if refit else "")


def logistic_regression(args, **options):
  """scikit-learn's counterpart of `motus train --model logistic` with the same penalty."""
  return LogisticRegression(
    C=1 / args.l2_logistic, class_weight="balanced", max_iter=1000, tol=1e-6, **options)


def mlp_classifier(args, hidden):
  """scikit-learn's counterpart of `motus train --model mlp`: 20% held out for early
  stopping, the same patience, alpha, batch and step."""
  return MLPClassifier(
    hidden_layer_sizes=hidden, alpha=args.l2_mlp, batch_size=200, learning_rate_init=1e-3,
    max_iter=200, early_stopping=True, validation_fraction=0.2,
    n_iter_no_change=args.patience, random_state=args.seed)


def logistic_refit(args, first, old, new):
  # motus warm-starts its refit from the held-out optimum carried over to the new
  # standardisation (Trainer.restandardized); scikit-learn gets the same start (warm_start).
  model = logistic_regression(args, warm_start=True)
  w = first.coef_ / old.scale_
  model.coef_ = w * new.scale_
  model.intercept_ = first.intercept_ + w @ (new.mean_ - old.mean_)
  return model


def mlp_refit(args, hidden, first, old, new):
  # motus refits for the best validation epoch count, with no early stopping
  best = int(np.argmax(first.validation_scores_)) + 1
  return MLPClassifier(
    hidden_layer_sizes=hidden, alpha=args.l2_mlp, batch_size=200, learning_rate_init=1e-3,
    max_iter=best, n_iter_no_change=best + 1, random_state=args.seed)


class Comparison:
  """The models fitted on the training table and scored on the test table, one row each:
  (name, accuracy, macro-F1, log loss, (wall, CPU) fit seconds, metrics source, epochs)."""

  def __init__(self, args, work, data_flags, x_test, y_test, model_reader):
    self.args, self.work, self.data_flags = args, work, data_flags
    self.model_reader = model_reader  # reads a .motus file (scripts/reference/motus_model.py)
    self.x_test, self.y_test = x_test, y_test
    self.rows = []

  def scores(self, probabilities, classes):
    predicted = np.asarray(classes)[np.argmax(probabilities, axis=1)]
    return (accuracy_score(self.y_test, predicted),
            f1_score(self.y_test, predicted, average="macro"),
            log_loss(self.y_test, probabilities, labels=classes))

  def motus_fits(self, model_path, flags):
    """`motus train` `repeats` times: its last summary and the median fit times."""
    args = self.args
    times = []
    summary = ""
    for _ in range(args.repeats):
      summary = run([args.motus, "train", args.data, *self.data_flags, "--subjects",
                     args.train_subjects, "-o", model_path, "--seed", str(args.seed), *flags])
      times.append(fit_seconds(summary))
    return summary, median_times(times)

  def motus_test_metrics(self, model, model_path):
    """Test metrics: `motus evaluate`, cross-checked by a NumPy re-implementation of
    inference; the NumPy reader's alone when `motus evaluate` fails."""
    args = self.args
    acc, f1, ll = self.scores(model.probabilities(self.x_test), model.classes)
    evaluated = subprocess.run(
      # The model names its channels and window; only the label map is given again.
      [args.motus, "evaluate", model_path, args.data, *(["--map", args.map] if args.map else []),
       "--subjects", args.test_subjects, "--format", "json"], capture_output=True, text=True)
    if evaluated.returncode != 0:
      print("motus evaluate failed or is missing; test metrics from the NumPy reader "
            "(scripts/reference/motus_model.py): " + evaluated.stderr.strip()[-300:],
            file=sys.stderr)
      return acc, f1, ll, "NumPy reader"
    metrics = json.loads(evaluated.stdout)
    for key, mine in (("accuracy", acc), ("macro_f1", f1), ("log_loss", ll)):
      if abs(metrics[key] - mine) > 1e-3:
        print(f"WARNING: motus evaluate {key} {metrics[key]:.4f} != NumPy reader {mine:.4f}",
              file=sys.stderr)
    return metrics["accuracy"], metrics["macro_f1"], metrics["log_loss"], "motus evaluate"

  def train_motus(self, name, flags, uncalibrated_row=False):
    """Trains `repeats` times (median fit time), evaluates on the test subjects."""
    model_path = os.path.join(self.work, re.sub(r"[^a-z0-9]+", "-", name) + ".motus")
    summary, times = self.motus_fits(model_path, flags)
    print(summary, file=sys.stderr)
    model = self.model_reader(model_path)
    acc, f1, ll, source = self.motus_test_metrics(model, model_path)
    epochs = epochs_text(summary)
    self.rows.append((name, acc, f1, ll, times, source, epochs))
    if uncalibrated_row:
      _, _, ll1 = self.scores(model.probabilities(self.x_test, calibrated=False), model.classes)
      self.rows.append((name + ", T=1", acc, f1, ll1, times, "NumPy reader", epochs))
    return model

  def sklearn_row(self, name, make, x, y):
    scaler = StandardScaler().fit(x)  # motus standardises on its training rows too
    xs = scaler.transform(x)
    times = []
    model = None
    for _ in range(self.args.repeats):
      model = make()
      start, cpu_start = time.perf_counter(), time.thread_time()
      model.fit(xs, y)
      times.append((time.perf_counter() - start, time.thread_time() - cpu_start))
    acc, f1, ll = self.scores(model.predict_proba(scaler.transform(self.x_test)), model.classes_)
    self.rows.append((name, acc, f1, ll, median_times(times), "sklearn", f"{model.n_iter_}"
                      .strip("[]")))

  def sklearn_refit_row(self, name, make_first, make_refit, x_part, y_part, x_all, y_all):
    """What `motus train` does by default: a fit on the training part, then a refit on every
    training row (standardised on them), started as motus starts its own refit."""
    times = []
    model = None
    epochs = ""
    for _ in range(self.args.repeats):
      start, cpu_start = time.perf_counter(), time.thread_time()
      part_scaler = StandardScaler().fit(x_part)
      first = make_first()
      first.fit(part_scaler.transform(x_part), y_part)
      scaler = StandardScaler().fit(x_all)
      model = make_refit(first, part_scaler, scaler)
      model.fit(scaler.transform(x_all), y_all)
      times.append((time.perf_counter() - start, time.thread_time() - cpu_start))
      epochs = f"{first.n_iter_} + refit {model.n_iter_}".replace("[", "").replace("]", "")
    acc, f1, ll = self.scores(model.predict_proba(scaler.transform(self.x_test)), model.classes_)
    self.rows.append((name, acc, f1, ll, median_times(times), "sklearn", epochs))


def motus_rows(comparison, args):
  """The four motus models, with refit and without; returns the held-out fit's model."""
  # Like for like: scikit-learn fits the window table as it is, with balanced class weights,
  # so motus trains without its default perturbed copies and with the same weights.
  same_rows = ["--augment", "0", "--class-weights", "balanced"]
  # scikit-learn's tol 1e-6 on the gradient, not motus train's default 1e-4.
  logistic = ["--model", "logistic", "--l2", str(args.l2_logistic), "--tolerance", "1e-6"] + same_rows
  mlp = ["--model", "mlp", "--hidden", args.hidden, "--l2", str(args.l2_mlp),
         "--patience", str(args.patience)] + same_rows
  comparison.train_motus("motus logistic", logistic)
  held_out_fit = comparison.train_motus("motus logistic --no-refit", logistic + ["--no-refit"],
                                        uncalibrated_row=True)
  comparison.train_motus("motus mlp", mlp)
  comparison.train_motus("motus mlp --no-refit", mlp + ["--no-refit"])
  return held_out_fit


def sklearn_rows(comparison, args, x_train, y_train, subjects_train, held_out_fit):
  """scikit-learn's four models: like for like with `--no-refit`, and with a refit."""
  # Like for like with `--no-refit`: the same rows (motus's training part: the training
  # subjects minus its validation subjects), the same objective, no calibration (T=1 row).
  held_out = set(held_out_fit.header["metadata"]["validationGroups"])
  part = np.array([s not in held_out for s in subjects_train])
  print(f"motus validation subjects {sorted(held_out)}: scikit-learn's logistic regression "
        f"fits the other {part.sum()} windows", file=sys.stderr)
  comparison.sklearn_row("sklearn LogisticRegression", lambda: logistic_regression(args),
                         x_train[part], y_train[part])
  # MLPClassifier has no class weights; like `motus train`, it holds out 20% for early stopping
  # (random windows rather than whole subjects) with the same patience, alpha, batch and step.
  hidden = tuple(int(h) for h in args.hidden.split(","))
  comparison.sklearn_row("sklearn MLPClassifier", lambda: mlp_classifier(args, hidden),
                         x_train, y_train)
  comparison.sklearn_refit_row(
    "sklearn LogisticRegression+refit", lambda: logistic_regression(args),
    lambda first, old, new: logistic_refit(args, first, old, new),
    x_train[part], y_train[part], x_train, y_train)
  with warnings.catch_warnings():
    warnings.simplefilter("ignore", ConvergenceWarning)  # the refit stops at max_iter
    comparison.sklearn_refit_row(
      "sklearn MLPClassifier+refit", lambda: mlp_classifier(args, hidden),
      lambda first, old, new: mlp_refit(args, hidden, first, old, new),
      x_train, y_train, x_train, y_train)


def blas_threads():
  """The BLAS libraries NumPy loaded and their thread counts, as threadpoolctl reads them."""
  try:
    from threadpoolctl import threadpool_info
    return ", ".join(f"{i.get('internal_api')} {i.get('num_threads')} thread(s)"
                     for i in threadpool_info()) or "none loaded"
  except ImportError:
    return "threadpoolctl missing: not read back"


def print_table(args, rows, load_before):
  """The conditions of the run (threads, cores, load), then one line per model."""
  print(f"\nthreads: scikit-learn/NumPy BLAS: {blas_threads()} (OPENBLAS/OMP/MKL_NUM_THREADS=1); "
        f"motus: OpenBLAS on 1 thread (set by MotusBLAS, for bit-identical models)")
  print(f"cores: {os.cpu_count()} on the machine, this run on CPUs "
        f"{sorted(os.sched_getaffinity(0))}; load average before {load_before}, after "
        f"{tuple(round(v, 2) for v in os.getloadavg())} (other work on the machine slows both)")
  print(f"fit only, median of {args.repeats} fits: wall seconds and the fitting thread's CPU "
        f"seconds")
  print(f"{'model':34} {'accuracy':>9} {'macro-F1':>9} {'log loss':>9} {'fit s':>8} "
        f"{'CPU s':>8} {'epochs/iterations':>18} {'CPU ms each':>11}  metrics by")
  for name, acc, f1, ll, (wall, cpu), source, epochs in rows:
    # per epoch (MLP) or iteration (L-BFGS), held-out fit and refit together: separates the
    # cost of one pass from how many passes each tool's stopping rule asks for
    each = 1000 * cpu / max(1, sum(int(v) for v in re.findall(r"\d+", epochs)))
    print(f"{name:34} {acc:9.4f} {f1:9.4f} {ll:9.4f} {wall:8.3f} {cpu:8.3f} {epochs:>18} "
          f"{each:11.2f}  {source}")


def print_ratios(rows):
  """motus against scikit-learn: the logistic log-loss ratio and the speed-ups."""
  by_name = {row[0]: row for row in rows}
  ours = by_name["motus logistic --no-refit, T=1"][3]
  theirs = by_name["sklearn LogisticRegression"][3]
  print(f"\nlogistic test log loss, motus (same rows, T=1) / sklearn: {ours / theirs:.4f} "
        f"({'within' if abs(ours / theirs - 1) <= 0.02 else 'NOT within'} 2%)")
  for mine, other in (("motus logistic --no-refit", "sklearn LogisticRegression"),
                      ("motus mlp --no-refit", "sklearn MLPClassifier"),
                      ("motus logistic", "sklearn LogisticRegression+refit"),
                      ("motus mlp", "sklearn MLPClassifier+refit")):
    wall = by_name[other][4][0] / by_name[mine][4][0]
    cpu = by_name[other][4][1] / by_name[mine][4][1]
    print(f"speed-up {mine} vs {other}: wall {wall:.1f}x, CPU {cpu:.1f}x "
          f"({'>=' if min(wall, cpu) >= 3 else '<'} 3x)")


def report(args, work):
  data_flags = table_flags(args)
  load_before = tuple(round(v, 2) for v in os.getloadavg())
  sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference"))
  from motus_model import MotusModel

  train_csv = os.path.join(work, "train.csv")
  test_csv = os.path.join(work, "test.csv")
  run([args.motus, "features", args.data, *data_flags, "--subjects", args.train_subjects,
       "-o", train_csv])
  run([args.motus, "features", args.data, *data_flags, "--subjects", args.test_subjects,
       "-o", test_csv])
  x_train, y_train, subjects_train = read_table(train_csv)
  x_test, y_test, _ = read_table(test_csv)
  print(f"tables: train {x_train.shape}, test {x_test.shape}; classes {sorted(set(y_train))}",
        file=sys.stderr)
  comparison = Comparison(args, work, data_flags, x_test, y_test, MotusModel)
  held_out_fit = motus_rows(comparison, args)
  sklearn_rows(comparison, args, x_train, y_train, subjects_train, held_out_fit)
  print_table(args, comparison.rows, load_before)
  print_ratios(comparison.rows)


if __name__ == "__main__":
  main()
