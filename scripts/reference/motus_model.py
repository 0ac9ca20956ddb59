"""Reads a `.motus` model file and classifies rows of a `motus features` table with NumPy.

An independent re-implementation of inference (standardise -> ReLU layers -> softmax(z / T)),
used by scripts/compare-sklearn.py to cross-check `motus evaluate` and to get the
uncalibrated (T = 1) probabilities. File layout (Sources/MotusModels/ModelFile.swift):
"MOTUSMDL" | version UInt32 LE | header length UInt32 LE | JSON header | Float32 LE tensors.
"""

import json
import struct

import numpy as np


class MotusModel:
  def __init__(self, path):
    with open(path, "rb") as f:
      data = f.read()
    if data[:8] != b"MOTUSMDL":
      raise ValueError(f"{path}: not a motus model file")
    _version, length = struct.unpack("<II", data[8:16])
    header = json.loads(data[16:16 + length].decode("utf-8"))
    offset = 16 + length
    tensors = {}
    for entry in header["tensors"]:
      count = int(np.prod(entry["shape"]))
      values = np.frombuffer(data, dtype="<f4", count=count, offset=offset)
      tensors[entry["name"]] = values.reshape(entry["shape"]).astype(np.float64)
      offset += 4 * count
    self.header = header
    self.classes = header["classes"]
    self.temperature = float(header["temperature"])
    self.mean = np.array(header["standardizer"]["mean"], dtype=np.float64)
    self.scale = np.array(header["standardizer"]["scale"], dtype=np.float64)
    self.layers = []
    layer = 0
    while f"layers.{layer}.weight" in tensors:
      self.layers.append((tensors[f"layers.{layer}.weight"], tensors[f"layers.{layer}.bias"]))
      layer += 1

  def logits(self, x):
    """x: [N, F] raw features in the model's feature order."""
    a = (x - self.mean) / self.scale
    for l, (w, b) in enumerate(self.layers):
      a = a @ w.T + b
      if l < len(self.layers) - 1:
        a = np.maximum(a, 0)
    return a

  def probabilities(self, x, calibrated=True):
    z = self.logits(x) / (self.temperature if calibrated else 1.0)
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)
