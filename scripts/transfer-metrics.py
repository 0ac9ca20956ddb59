#!/usr/bin/env python3
"""Summarises `motus evaluate --format json` (stdin) for the held-out-device table.

Prints: stationary/walking/running accuracy (windows of those classes named correctly among
all classes), recall of cycling, automotive and push-up, automotive recall against stationary
(automotive windows named automotive, among those named automotive or stationary), macro-F1.
A class absent from the data prints '-'.
"""
import json
import sys

d = json.load(sys.stdin)
classes = d["classes"]
counts = d["confusion_matrix"]["counts"]


def recall(name):
    if name not in classes:
        return None
    i = classes.index(name)
    n = sum(counts[i])
    return counts[i][i] / n if n else None


swr = [classes.index(c) for c in ("stationary", "walking", "running") if c in classes]
n = sum(sum(counts[i]) for i in swr)
cells = [sum(counts[i][i] for i in swr) / n if n else None]
cells += [recall(c) for c in ("cycling", "automotive", "push-up")]
against = None
if "automotive" in classes and "stationary" in classes:
    a, s = classes.index("automotive"), classes.index("stationary")
    if counts[a][a] + counts[a][s]:
        against = counts[a][a] / (counts[a][a] + counts[a][s])
cells.append(against)
cells.append(d["macro_f1"] if len(swr) == 3 and all(sum(r) for r in counts) else None)
print("  ".join("%8s" % ("-" if c is None else "%.3f" % c) for c in cells))
