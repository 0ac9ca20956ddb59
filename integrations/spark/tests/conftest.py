"""Tests of the Spark job: `motus_spark` from this checkout, a cohort of small files, and a
stand-in for the motus binary that records each run (so a test can say no recording was run)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


@pytest.fixture
def place(tmp_path: Path) -> Path:
    """tmp_path with a model file, a motus stand-in and a cohort of two recordings."""
    (tmp_path / "model.motus").write_bytes(b"not read by the output checks")
    log = tmp_path / "motus-runs.log"
    motus = tmp_path / "motus"
    motus.write_text(f'#!/bin/sh\necho "$@" >> "{log}"\necho "Error: a stand-in" >&2\nexit 1\n')
    motus.chmod(0o755)
    cohort = tmp_path / "cohort"
    cohort.mkdir()
    for name in ("a.csv", "b.csv"):
        (cohort / name).write_text("timestamp,acceleration.x\n0,1\n")
    return tmp_path


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes (folders by their trailing /, links by their
    target)."""
    found: dict[str, bytes] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs:
            found[os.path.relpath(os.path.join(root, name), folder) + "/"] = b""
        for name in files:
            path = os.path.join(root, name)
            if os.path.islink(path):
                found[os.path.relpath(path, folder) + " ->"] = os.readlink(path).encode()
                continue
            with open(path, "rb") as f:
                found[os.path.relpath(path, folder)] = f.read()
    return found
