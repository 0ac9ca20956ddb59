#!/usr/bin/env python3
"""The Python side of scripts/bench-peers.sh: one timed task per process, seconds on stdout.

Each task times only its own work (imports and interpreter start excluded, which favours the
peers), so a fresh process per measurement keeps every run alike. Tasks:
  read pandas|polars FILE        read_csv of the whole file
  features FILE OUT              pandas + NumPy window features, written as CSV (see below)
  fit TABLE                      scikit-learn MLPClassifier(64) on a `motus features` table
  predict TABLE                  scikit-learn predict_proba on one window, median of 2,000 calls

The features are a similar set to `motus features`' default, computed per session on
256-sample windows with hop 85: per channel (the 12 Core Motion columns plus |userAcceleration|
and |rotationRate|) mean, std, min, max, 10/25/50/75/90th percentiles, IQR, RMS, MAD,
skewness, kurtosis, mean-crossing rate, and FFT power in 11 bands with the dominant frequency,
its share, the spectral centroid and entropy: 420 features, vectorised over windows.
"""

import os
import sys
import time

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
  os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402

META = ["timestamp", "session", "subject", "label"]
BANDS = [(0, 0.5), (0.5, 1), (1, 2), (2, 3), (3, 5), (5, 8), (8, 12), (12, 16), (16, 20), (20, 25.01)]


def read(engine, path):
  if engine == "pandas":
    import pandas as reader
  else:
    import polars as reader
  started = time.perf_counter()
  frame = reader.read_csv(path)
  seconds = time.perf_counter() - started
  assert len(frame) > 0
  return seconds


def window_features(x, rate=50.0):
  """x: [windows, samples] of one channel -> [windows, 31] features."""
  mean = x.mean(axis=1)
  centred = x - mean[:, None]
  std = x.std(axis=1)
  q = np.percentile(x, [10, 25, 50, 75, 90], axis=1)
  safe = np.where(std > 0, std, 1)
  skew = (centred ** 3).mean(axis=1) / safe ** 3
  kurt = (centred ** 4).mean(axis=1) / safe ** 4 - 3
  signs = np.signbit(centred)
  crossing = (signs[:, 1:] != signs[:, :-1]).mean(axis=1)
  power = np.abs(np.fft.rfft(centred, axis=1)) ** 2
  freqs = np.fft.rfftfreq(x.shape[1], 1 / rate)
  total = power.sum(axis=1) + 1e-12
  bands = [power[:, (freqs >= lo) & (freqs < hi)].sum(axis=1) / total for lo, hi in BANDS]
  dominant = power[:, 1:].argmax(axis=1) + 1
  share = power[np.arange(len(x)), dominant] / total
  centroid = (power * freqs).sum(axis=1) / total
  p = power / total[:, None]
  entropy = -(p * np.log(p + 1e-12)).sum(axis=1)
  return np.column_stack([
    mean, std, x.min(axis=1), x.max(axis=1), *q, q[3] - q[1], np.sqrt((x ** 2).mean(axis=1)),
    np.abs(centred).mean(axis=1), skew, kurt, crossing, *bands, freqs[dominant], share, centroid,
    entropy])


def features(path, out, window=256, hop=85):
  import pandas as pd
  started = time.perf_counter()
  frame = pd.read_csv(path)
  channels = [c for c in frame.columns if c not in META]
  for group in ("userAcceleration", "rotationRate"):
    axes = [f"{group}.{a}" for a in "xyz"]
    if all(a in frame.columns for a in axes):
      frame[f"|{group}|"] = np.sqrt((frame[axes] ** 2).sum(axis=1))
      channels.append(f"|{group}|")
  names = ["mean", "std", "min", "max", "p10", "p25", "median", "p75", "p90", "iqr", "rms", "mad",
           "skewness", "kurtosis", "mean_crossing_rate"] + \
    [f"band_{lo}-{hi}Hz" for lo, hi in BANDS] + ["dominant_hz", "dominant_share", "centroid_hz", "entropy"]
  tables = []
  for session, rows in frame.groupby("session", sort=False):
    values = rows[channels].to_numpy(dtype=np.float64)
    if len(values) < window:
      continue
    views = np.lib.stride_tricks.sliding_window_view(values, window, axis=0)[::hop]
    columns = [window_features(views[:, c, :]) for c in range(len(channels))]
    table = pd.DataFrame(np.hstack(columns), columns=[f"{c}:{n}" for c in channels for n in names])
    starts = rows["timestamp"].to_numpy()[::hop][:len(table)]
    labels = rows["label"].to_numpy()
    table.insert(0, "start_s", starts)
    table.insert(0, "label", [labels[i * hop + window // 2] for i in range(len(table))])
    table.insert(0, "subject", rows["subject"].iloc[0])
    table.insert(0, "session", session)
    tables.append(table)
  pd.concat(tables).to_csv(out, index=False)
  return time.perf_counter() - started


def table_arrays(path):
  import pandas as pd
  frame = pd.read_csv(path)
  x = frame.iloc[:, 5:].to_numpy(dtype=np.float64)
  x = (x - x.mean(axis=0)) / np.where(x.std(axis=0) > 0, x.std(axis=0), 1)
  return np.nan_to_num(x), frame["label"].to_numpy()


def mlp():
  from sklearn.neural_network import MLPClassifier
  return MLPClassifier(hidden_layer_sizes=(64,), alpha=1e-4, batch_size=64, learning_rate_init=1e-3,
                       max_iter=60, early_stopping=True, n_iter_no_change=10, random_state=1)


def fit(path):
  import warnings
  x, y = table_arrays(path)
  model = mlp()
  started = time.perf_counter()
  with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    model.fit(x, y)
  return time.perf_counter() - started


def predict(path):
  import warnings
  x, y = table_arrays(path)
  model = mlp()
  with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    model.set_params(max_iter=5).fit(x, y)
  times = []
  for i in range(2000):
    row = x[i % len(x):i % len(x) + 1]
    started = time.perf_counter()
    model.predict_proba(row)
    times.append(time.perf_counter() - started)
  return float(np.median(times))


def main(argv):
  task = argv[1]
  if task == "read":
    seconds = read(argv[2], argv[3])
  elif task == "features":
    seconds = features(argv[2], argv[3])
  elif task == "fit":
    seconds = fit(argv[2])
  elif task == "predict":
    seconds = predict(argv[2])
  else:
    raise SystemExit(f"unknown task {task}: read, features, fit or predict")
  print(f"{seconds:.6f}")


if __name__ == "__main__":
  main(sys.argv)
