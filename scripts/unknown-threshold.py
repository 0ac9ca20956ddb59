#!/usr/bin/env python3
"""Chooses a model's unknown threshold: in-distribution coverage against out-of-distribution
rejection, at several thresholds.

In distribution: the held-out subjects of datasets/six-class.json, scored by
`motus evaluate --unknown-below T` (share of windows named, accuracy on those). Out of
distribution: the
push-up data's `not-in-pushup` clips (standing up, kneeling, moving about between sets),
joined in time order into one stream that none of the six classes describes, streamed
through `motus stream` with no smoothing.

Usage: python3 scripts/unknown-threshold.py MODEL [--motus PATH]
Standard library only; needs ../shared/datasets.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

HELD_OUT = "motionsense:17-20,qrowd:3,gains_pushup:Eric"
THRESHOLDS = [0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model")
    parser.add_argument("--motus", default=os.environ.get("MOTUS", ".build/release/motus"))
    args = parser.parse_args()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    data = os.path.join(root, "..", "shared", "datasets", "gains_pushup", "gains_pushup.csv")
    if not os.path.exists(data):
        sys.exit("error: %s is missing. HINT: place the shared data folder beside the repository." % data)

    def held_out(threshold):
        report = json.loads(subprocess.run(
            [args.motus, "evaluate", args.model, "--manifest",
             os.path.join(root, "datasets/six-class.json"), "--subjects", HELD_OUT,
             "--unknown-below", str(threshold), "--format", "json"],
            check=True, capture_output=True, text=True).stdout)
        return report["windows"], report["coverage"], report["covered_accuracy"]

    # Out of distribution: the not-in-pushup clips as one stream.
    with open(data, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["label"] == "not-in-pushup"]
    rows.sort(key=lambda r: (r["session"], float(r["timestamp"])))
    with tempfile.TemporaryDirectory() as scratch:
        joined = os.path.join(scratch, "not-in-pushup.csv")
        with open(joined, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["timestamp", "acceleration.x", "acceleration.y", "acceleration.z"])
            t, previous = 0.0, None
            for r in rows:
                if previous is not None:
                    step = float(r["timestamp"]) - float(previous["timestamp"])
                    t += step if r["session"] == previous["session"] else 1 / 40
                w.writerow(["%.6f" % t, r["acceleration.x"], r["acceleration.y"], r["acceleration.z"]])
                previous = r
        out = subprocess.run([args.motus, "stream", args.model, joined], check=True,
                             capture_output=True, text=True).stdout
    top = [max(p["probabilities"].values()) for p in map(json.loads, out.splitlines())
           if p.get("event") == "prediction"]
    windows = held_out(0)[0]
    print("in distribution: %d held-out windows (%s); out of distribution: %d predictions on "
          "%d not-in-pushup samples (%.0f s)" % (windows, HELD_OUT, len(top), len(rows), t))
    print("threshold  held-out named  accuracy when named  not-in-pushup answered unknown")
    for threshold in THRESHOLDS:
        _, coverage, accuracy = held_out(threshold)
        rejected = sum(1 for p in top if p < threshold) / max(len(top), 1)
        print("%9.2f  %14.3f  %19.3f  %30.3f" % (threshold, coverage, accuracy or float("nan"),
                                                 rejected))


if __name__ == "__main__":
    main()
