#!/usr/bin/env bash
# The page of `motus serve` in a real browser: installs Debian's chromium if missing, starts the
# server on a free loopback port, pushes two devices (scripts/browser_push.py, synthetic, each
# changing activity), loads the page in headless Chromium, keeps a screenshot as a CI artefact
# (.build/artifacts/serve-page.png) and checks the rendered page shows both devices with an
# activity and a timeline. Prints "browser check: ok" or what was missing.
set -uo pipefail
cd "$(dirname "$0")/.."
artifacts=.build/artifacts
mkdir -p "$artifacts"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1; }
  browser=$(command -v chromium || true)
fi
if [ -z "$browser" ]; then
  echo "browser check: skipped (Debian's chromium could not be installed)"
  exit 0
fi
motus=.build/release/motus
[ -x "$motus" ] || swift build -c release --product motus >/dev/null || exit 1
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$motus" serve models/six-class.motus --port "$port" --idle 600 2>"$artifacts/serve.log" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null' EXIT
for _ in $(seq 100); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/api/devices')" \
    >/dev/null 2>&1 && break
  sleep 0.1
done
python3 scripts/browser_push.py "$port" 16 || { echo "browser check: FAILED (pushing)"; exit 1; }
page="http://127.0.0.1:$port/"
# The event stream never ends, so the page never finishes loading: --timeout stops it after 6 s
# (its first events have been drawn by then) and the screenshot or DOM is taken there.
flags=(--headless=new --no-sandbox --disable-gpu --hide-scrollbars --timeout=6000)
timeout 90 "$browser" "${flags[@]}" --window-size=412,1100 \
  --screenshot="$artifacts/serve-page.png" "$page" >/dev/null 2>&1
timeout 90 "$browser" "${flags[@]}" --dump-dom "$page" 2>/dev/null >"$artifacts/serve-page.html"
missing=()
for device in phone-a phone-b; do
  grep -q "data-device=\"$device\"" "$artifacts/serve-page.html" || missing+=("card of $device")
done
grep -q 'class="bar"><span' "$artifacts/serve-page.html" || missing+=("a timeline")
labels=$(grep -o 'class="label"[^>]*>[a-z-]*<' "$artifacts/serve-page.html" | sed 's/.*>\([a-z-]*\)<$/\1/' | sort -u | tr '\n' ' ')
[ -n "$labels" ] || missing+=("an activity")
# Each device changed activity: its timeline holds at least two spans of different colour.
spans=$(python3 -c '
import json, sys, urllib.request
s = json.load(urllib.request.urlopen(sys.argv[1]))
print(min(len({x["label"] for x in d["timeline"]}) for d in s["devices"]) if len(s["devices"]) == 2 else 0)' \
  "http://127.0.0.1:$port/api/devices")
[ "${spans:-0}" -ge 2 ] || missing+=("an activity change on each device")
[ -s "$artifacts/serve-page.png" ] || missing+=("the screenshot")
if [ ${#missing[@]} -eq 0 ]; then
  echo "browser check: ok (activities shown: $labels; screenshot $artifacts/serve-page.png)"
else
  echo "browser check: FAILED (missing: ${missing[*]})"
  exit 1
fi
