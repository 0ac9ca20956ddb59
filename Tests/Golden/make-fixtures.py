#!/usr/bin/env python3
"""Writes the synthetic recordings the golden-output tests read (deterministic, no NumPy).

synthetic.csv: 4 sessions of 2 subjects at 50 Hz with MotionSense's 12 Core Motion columns;
each label is a sine of its own frequency and amplitude plus pseudo-random noise.
synthetic-quirks.csv: the same layout with CRLF line ends, a quoted session name holding a
comma, empty cells and a time gap, so the parser's slower paths are pinned too.
"""

import math
import os

COLUMNS = [f"userAcceleration.{a}" for a in "xyz"] + [f"gravity.{a}" for a in "xyz"] + \
  [f"rotationRate.{a}" for a in "xyz"] + [f"attitude.{a}" for a in ("roll", "pitch", "yaw")]
LABELS = {"walking": (2.0, 0.4), "jogging": (2.8, 1.1), "sitting": (0.3, 0.02), "standing": (0.5, 0.05)}


class Noise:
  def __init__(self, seed):
    self.state = seed

  def next(self):
    self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    return ((self.state >> 11) / float(1 << 53)) - 0.5


def rows(session, subject, label, count, noise, gap_at=None):
  freq, amp = LABELS[label]
  t = 0.0
  for i in range(count):
    t = i * 0.02 + (1.0 if gap_at is not None and i >= gap_at else 0.0)
    values = []
    for c in range(12):
      phase = c * 0.7
      v = amp * math.sin(2 * math.pi * freq * t + phase) * (1 + 0.1 * c) + 0.05 * noise.next()
      if 3 <= c < 6:
        v = v * 0.1 + (0.9 if c == 4 else 0.1)
      values.append(f"{v:.5f}")
    yield f"{t:.2f}", session, str(subject), label, values


def write(path, sessions, line_end="\n", quirks=False):
  noise = Noise(7)
  with open(path, "w", newline="") as f:
    f.write("timestamp,session,subject,label," + ",".join(COLUMNS) + line_end)
    for session, subject, label, count, gap_at in sessions:
      for i, (t, s, sub, lab, values) in enumerate(rows(session, subject, label, count, noise, gap_at)):
        if quirks and i % 97 == 5:
          values[i % 12] = ""
        name = f'"{s}"' if "," in s or '"' in s else s
        f.write(",".join([t, name, sub, lab] + values) + line_end)


here = os.path.dirname(os.path.abspath(__file__))
write(os.path.join(here, "synthetic.csv"), [
  ("wlk_1", 1, "walking", 700, None), ("sit_1", 1, "sitting", 650, None),
  ("jog_2", 2, "jogging", 700, None), ("std_2", 2, "standing", 600, None)])
write(os.path.join(here, "synthetic-quirks.csv"), [
  ("walk, outdoors", 1, "walking", 600, 300), ("sit_2", 2, "sitting", 500, None)],
  line_end="\r\n", quirks=True)
