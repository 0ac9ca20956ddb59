#!/usr/bin/env bash
# Renders a `motus evaluate --report` page in headless Chromium and checks the screenshot is
# not blank. Run by hand (CI has no browser):
#   bash scripts/check-report.sh [report.html] [screenshot.png]
# Without a report it trains a small model on SYNTHETIC data and writes one first, with
# $MOTUS (a built binary) or a release build in ${SCRATCH_PATH:-.build}.
set -euo pipefail

cd "$(dirname "$0")/.."
report="${1:-}"
shot="${2:-/tmp/motus-report.png}"
scratch="${SCRATCH_PATH:-.build}"

browser=""
for name in chromium chromium-browser google-chrome; do
  if command -v "$name" >/dev/null 2>&1; then browser="$name"; break; fi
done
if [ -z "$browser" ]; then
  echo "installing chromium (apt-get)..." >&2
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  browser=chromium
fi

if [ -z "$report" ]; then
  motus="${MOTUS:-}"  # an already built binary, or build one
  if [ -z "$motus" ]; then
    swift build -c release --scratch-path "$scratch" --product motus >/dev/null
    motus="$scratch/release/motus"
  fi
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  python3 - "$work/synthetic.csv" <<'PY'
# A tiny SYNTHETIC two-activity CSV (sines plus noise), so the script needs no dataset.
import math, random, sys
random.seed(1)
rows = ["timestamp,session,subject,label,acceleration.x,acceleration.y,acceleration.z"]
for subject in range(1, 5):
    for label, freq, amp in (("stationary", 0.0, 0.01), ("walking", 1.8, 0.3)):
        session = f"synthetic-{label}-s{subject}"
        for i in range(50 * 20):
            t = i / 50
            a = amp * math.sin(2 * math.pi * freq * t) if freq else 0.0
            rows.append(f"{t:.4f},{session},{subject},{label},"
                        f"{a + random.gauss(0, 0.05):.5f},{random.gauss(0, 0.05):.5f},"
                        f"{-1 + a / 2 + random.gauss(0, 0.05):.5f}")
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY
  "$motus" train "$work/synthetic.csv" --subjects 1-3 --seed 1 -o "$work/m.motus" >/dev/null
  report="$work/report.html"
  "$motus" evaluate "$work/m.motus" "$work/synthetic.csv" --subjects 4 --report "$report" \
    >/dev/null
fi

"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size=1200,2400 --screenshot="$shot" "file://$(realpath "$report")" 2>/dev/null

python3 - "$shot" <<'PY'
# Non-trivial: a real PNG, big enough, many colours (the charts), and mostly not background.
import struct, sys, zlib
path = sys.argv[1]
data = open(path, "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
assert len(data) > 20_000, f"PNG only {len(data)} bytes"
width, height = struct.unpack(">II", data[16:24])
bit_depth, colour_type, interlace = data[24], data[25], data[28]
assert bit_depth == 8 and colour_type in (2, 6) and interlace == 0, "unexpected PNG format"
idat, pos = b"", 8
while pos < len(data):
    length = struct.unpack(">I", data[pos:pos + 4])[0]
    if data[pos + 4:pos + 8] == b"IDAT":
        idat += data[pos + 8:pos + 8 + length]
    pos += 12 + length
raw = zlib.decompress(idat)
bpp = 3 if colour_type == 2 else 4
stride = width * bpp
previous = bytearray(stride)
colours, coloured = set(), 0
for y in range(height):
    kind = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):  # undo the PNG row filter (RFC 2083, section 6)
        a = line[i - bpp] if i >= bpp else 0
        b = previous[i]
        c = previous[i - bpp] if i >= bpp else 0
        if kind == 1: line[i] = (line[i] + a) & 255
        elif kind == 2: line[i] = (line[i] + b) & 255
        elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    previous = line
    if y % 3 == 0:
        for x in range(0, width, 3):
            px = bytes(line[x * bpp:x * bpp + 3])
            colours.add(px)
            if px != b"\xff\xff\xff":
                coloured += 1
sampled = (height // 3 + 1) * (width // 3 + 1)
assert len(colours) > 50, f"only {len(colours)} distinct colours: blank page?"
assert coloured > 0.02 * sampled, f"only {coloured} of {sampled} sampled pixels are not white"
print(f"ok: {path} {width}x{height}, {len(data)} bytes, {len(colours)} colours, "
      f"{100 * coloured / sampled:.1f}% non-white")
PY
