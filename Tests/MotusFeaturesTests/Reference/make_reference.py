#!/usr/bin/env python3
"""Writes Fixtures/reference.json: MotusFeatures' features computed independently with NumPy/SciPy.

Run from the repository root (needs numpy and scipy, and ../shared/datasets beside the repo):

    python3 Tests/MotusFeaturesTests/Reference/make_reference.py

The fixture holds window locations (file, session, start row within the session) and the
expected feature values, never raw samples: the Swift test reads the same rows itself.
Definitions follow Sources/MotusFeatures/FeatureExtractor.swift; the spectrum uses SciPy's
periodic Hann window (scipy.signal.get_window("hann", n)), not the symmetric np.hanning.
Samples are rounded to float32 first, as the Swift side stores them, then computed in float64.
"""

import csv
import json
import math
import os
import sys

import numpy as np
import scipy.signal
import scipy.stats

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
SHARED = os.path.join(os.path.dirname(REPO), "shared", "datasets")
OUTPUT = os.path.join(HERE, "..", "Fixtures", "reference.json")

STATISTICS = ["mean", "std", "min", "max", "p10", "p25", "median", "p75", "p90", "iqr", "rms",
              "mad", "skewness", "kurtosis", "mean_crossing_rate", "acf_peak", "acf_lag"]
DEFAULT_EDGES = [0, 0.5, 1, 2, 3, 5, 8, 12, 16, 20, 25]

CASES = [
    {
        "file": "motionsense/motionsense.csv",
        "sampleRateHz": 50.0,
        "windowLength": 128,
        "hopLength": 64,
        "raw": [f"{v}.{a}" for v in ("userAcceleration", "gravity", "rotationRate") for a in "xyz"]
        + ["attitude.roll", "attitude.pitch", "attitude.yaw"],
        "scale": 1.0,
        "magnitudes": ["userAcceleration", "rotationRate"],
        "windows": [("dws_11_sub1", 0), ("jog_16_sub3", 320), ("sit_13_sub7", 128),
                    ("ups_3_sub12", 448), ("wlk_7_sub20", 1000), ("std_6_sub5", 64)],
    },
    {
        # Android sign: the recipes negate acceleration to Core Motion's convention.
        "file": "qrowd_tr/qrowd_tr.csv",
        "sampleRateHz": 15.0,
        "windowLength": 38,  # 2.56 s at 15 Hz, rounded: exercises the non-power-of-two FFT.
        "hopLength": 19,
        "raw": ["acceleration.x", "acceleration.y", "acceleration.z"],
        "scale": -1.0,
        "magnitudes": ["acceleration"],
        "windows": [("bike_user1", 0), ("walk_user2", 570), ("still_user3", 1900),
                    ("run_user1", 95)],
    },
]


def format_hz(value):
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def recipes_for(case):
    recipes = [{"name": c, "operation": "copy", "inputs": [c], "scale": case["scale"]}
               for c in case["raw"]]
    for v in case["magnitudes"]:
        recipes.append({"name": f"|{v}|", "operation": "magnitude",
                        "inputs": [f"{v}.{a}" for a in "xyz"], "scale": 1.0})
    return recipes


def band_edges(rate):
    nyquist = rate / 2
    return [e for e in DEFAULT_EDGES if e < nyquist] + [nyquist]


def vectors_of(channels):
    out = []
    for c in channels:
        if c.endswith(".x"):
            axes = [c[:-2] + "." + a for a in "xyz"]
            if all(a in channels for a in axes):
                out.append(axes)
    return out


def feature_names(channels, vectors, gravity, edges):
    names = []
    for c in channels:
        names += [f"{c}:{s}" for s in STATISTICS]
        names += [f"{c}:band_{format_hz(lo)}-{format_hz(hi)}Hz" for lo, hi in zip(edges, edges[1:])]
        names += [f"{c}:dominant_hz", f"{c}:dominant_share", f"{c}:centroid_hz", f"{c}:entropy"]
    for axes in vectors:
        name = axes[0][:-2]
        names += [f"{name}:corr_xy", f"{name}:corr_xz", f"{name}:corr_yz"]
        if gravity is not None and axes != gravity:
            names.append(f"{name}:gravity_angle")
    return names


def read_sessions(path, columns, sessions):
    """Rows of the wanted sessions only, as float32 arrays per column."""
    rows = {s: [] for s in sessions}
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        session_col = header.index("session")
        idx = [header.index(c) for c in columns]
        for row in reader:
            if row[session_col] in rows:
                rows[row[session_col]].append([row[i] for i in idx])
    return {s: np.array(r, dtype=np.float64).astype(np.float32) for s, r in rows.items()}


def statistics(x, rate):
    n = len(x)
    d = x - x.mean()
    assert np.var(x) > 0, "constant window: pick another"
    p = {q: np.percentile(x, q) for q in (10, 25, 50, 75, 90)}
    # Normalised autocorrelation, r[k] = sum d[t] d[t+k] / sum d^2.
    acf = np.correlate(d, d, mode="full")[n - 1:] / np.dot(d, d)
    min_lag, max_lag = max(1, int(round(0.2 * rate))), n // 2
    peak, lag = 0.0, 0
    ks = np.arange(min_lag, max_lag + 1)
    is_max = (acf[ks] > acf[ks - 1]) & (acf[ks] >= acf[ks + 1])
    if is_max.any():
        candidates = ks[is_max]
        best = candidates[np.argmax(acf[candidates])]
        peak, lag = acf[best], best
    crossings = np.count_nonzero((d[:-1] >= 0) != (d[1:] >= 0))
    return {
        "mean": np.mean(x), "std": np.std(x), "min": np.min(x), "max": np.max(x),
        "p10": p[10], "p25": p[25], "median": p[50], "p75": p[75], "p90": p[90],
        "iqr": scipy.stats.iqr(x), "rms": np.sqrt(np.mean(x * x)),
        "mad": scipy.stats.median_abs_deviation(x),
        "skewness": scipy.stats.skew(x, bias=True),
        "kurtosis": scipy.stats.kurtosis(x, fisher=True, bias=True),
        "mean_crossing_rate": crossings * rate / n,
        "acf_peak": peak, "acf_lag": lag / rate,
    }


def spectral(x, rate, edges):
    n = len(x)
    window = scipy.signal.get_window("hann", n)  # periodic
    spectrum = np.fft.rfft((x - x.mean()) * window)
    power = np.abs(spectrum) ** 2 / n
    freqs = np.arange(len(power)) * rate / n
    bands = []
    for b, (lo, hi) in enumerate(zip(edges, edges[1:])):
        last = b == len(edges) - 2
        mask = (freqs >= lo) & ((freqs < hi) | (last & (freqs == hi)))
        bands.append(power[mask].sum())
    total = power.sum()
    dominant = 1 + int(np.argmax(power[1:]))
    return bands + [
        freqs[dominant], power[dominant] / total, np.sum(freqs * power) / total,
        scipy.stats.entropy(power) / math.log(len(power)),
    ]


def features(columns, channels, vectors, gravity, rate, edges):
    out = []
    for c in channels:
        x = columns[c]
        s = statistics(x, rate)
        out += [s[k] for k in STATISTICS]
        out += spectral(x, rate, edges)
    for axes in vectors:
        x, y, z = (columns[a] for a in axes)
        r = np.corrcoef(np.vstack([x, y, z]))
        out += [r[0, 1], r[0, 2], r[1, 2]]
        if gravity is not None and axes != gravity:
            v = np.vstack([x, y, z])
            g = np.vstack([columns[a] for a in gravity])
            cosine = (v * g).sum(0) / (np.linalg.norm(v, axis=0) * np.linalg.norm(g, axis=0))
            out.append(np.mean(np.arccos(np.clip(cosine, -1, 1))))
    return [float(v) for v in out]


def make_case(case):
    rate, n = case["sampleRateHz"], case["windowLength"]
    recipes = recipes_for(case)
    channels = [r["name"] for r in recipes]
    vectors = vectors_of(channels)
    gravity = ["gravity.x", "gravity.y", "gravity.z"]
    gravity = gravity if all(g in channels for g in gravity) else None
    edges = band_edges(rate)
    names = feature_names(channels, vectors, gravity, edges)
    sessions = read_sessions(os.path.join(SHARED, case["file"]), case["raw"],
                             {s for s, _ in case["windows"]})
    windows = []
    for session, start in case["windows"]:
        data = sessions[session]
        assert start + n <= len(data), f"{session} has {len(data)} rows"
        raw = data[start:start + n].astype(np.float32)
        columns = {}
        for i, c in enumerate(case["raw"]):
            columns[c] = (raw[:, i] * np.float32(case["scale"])).astype(np.float32)
        for v in case["magnitudes"]:
            x, y, z = (columns[f"{v}.{a}"] for a in "xyz")
            columns[f"|{v}|"] = np.sqrt(x * x + y * y + z * z).astype(np.float32)
        columns = {k: c.astype(np.float64) for k, c in columns.items()}
        values = features(columns, channels, vectors, gravity, rate, edges)
        assert len(values) == len(names)
        windows.append({"session": session, "start": start, "features": values})
    return {
        "file": case["file"], "sampleRateHz": rate, "windowLength": n,
        "hopLength": case["hopLength"], "recipes": recipes, "channels": channels,
        "bandEdgesHz": edges, "featureNames": names, "windows": windows,
    }


def fft_signal(n):
    """The synthetic signal the Swift test rebuilds: a few tones plus a ramp."""
    t = np.arange(n)
    return np.sin(2 * np.pi * 3 * t / n) + 0.5 * np.cos(2 * np.pi * 5 * t / n + 0.3) + 0.1 * t / n


def main():
    if not os.path.isdir(SHARED):
        sys.exit(f"{SHARED} not found: the shared datasets must sit beside the repository")
    fft_cases = []
    for n in (16, 12, 38, 128):
        spectrum = np.fft.fft(fft_signal(n).astype(np.float32).astype(np.float64))
        fft_cases.append({"length": n, "real": spectrum.real.tolist(),
                          "imag": spectrum.imag.tolist()})
    reference = {
        "version": 1,
        "generator": "Tests/MotusFeaturesTests/Reference/make_reference.py",
        "numpy": np.__version__, "scipy": scipy.__version__,
        "fft": fft_cases,
        "cases": [make_case(c) for c in CASES],
    }
    with open(OUTPUT, "w") as f:
        json.dump(reference, f, indent=1)
        f.write("\n")
    print(f"wrote {os.path.relpath(OUTPUT, REPO)}")


if __name__ == "__main__":
    main()
