#!/usr/bin/env python3
"""Summarises `motus evaluate --format json` (stdin) for the held-out-device table.

Prints: stationary/walking/running accuracy (windows of those classes named correctly among
all classes), recall of cycling, automotive and push-up, automotive recall against stationary
(automotive windows named automotive, among those named automotive or stationary), macro-F1.
A class absent from the data prints '-'.

With --by-session-kind it prints instead the accuracy per kind of session, the part of the
session name between the source prefix and the first '_' (MotionSense: sit, std, wlk, ...),
then the share of stationary windows called automotive.

With --coverage it prints instead the share of windows named a class at the report's unknown
threshold (`motus evaluate --unknown-below`) and the accuracy on those.

With --median it reads lines `key<TAB>label<TAB>cells` (the rows above, one per seed and key,
where the key starts with the recipe and a '|') and prints each key once, under its recipe,
every cell as the median over seeds and its range.
"""
import json
import statistics
import sys

if sys.argv[1:] == ["--median"]:
    rows = {}
    for line in sys.stdin:
        key, label, cells = line.rstrip("\n").split("\t")
        rows.setdefault(key, (label, []))[1].append(cells.split())
    recipe = None
    for key, (label, runs) in rows.items():
        name = key.split("|", 1)[0]
        if name != recipe:
            recipe = name
            print(recipe)
        out = []
        for column in zip(*runs):
            values = [float(c) for c in column if c != "-"]
            out.append("%.3f (%.3f-%.3f)" % (statistics.median(values), min(values), max(values))
                       if values else "-")
        print("%-34s%s" % (label, "  ".join("%21s" % c for c in out)))
    sys.exit(0)
text = sys.stdin.read()
if not text.strip():
    sys.exit(1)  # the command that should have written the report has said why
d = json.loads(text)
if sys.argv[1:] == ["--coverage"]:
    accuracy = d["covered_accuracy"]
    print("  ".join("%8s" % c for c in
                    ("%.3f" % d["coverage"], "-" if accuracy is None else "%.3f" % accuracy)))
    sys.exit(0)
if sys.argv[1:] == ["--by-session-kind"]:
    kinds = {}
    for name, s in d["per_session"].items():
        kind = name.split(":", 1)[-1].split("_")[0]
        n, right = kinds.get(kind, (0, 0.0))
        kinds[kind] = (n + s["windows"], right + s["accuracy"] * s["windows"])
    cells = ["%s %.3f" % (k, right / n) for k, (n, right) in sorted(kinds.items())]
    labels, counts = d["classes"], d["confusion_matrix"]["counts"]
    if "stationary" in labels and "automotive" in labels:
        row = counts[labels.index("stationary")]
        if sum(row):
            cells.append("stationary->automotive %.3f" % (row[labels.index("automotive")] / sum(row)))
    print("  ".join(cells))
    sys.exit(0)
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
