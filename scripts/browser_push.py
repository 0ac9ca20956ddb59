"""Pushes two devices to a running `motus serve` as Sensor Logger does (1-s batches of Android
total acceleration, 100 Hz), each changing activity halfway: a synthetic signal, still (gravity
and a little noise) then a 2 Hz bounce like walking. Used by scripts/browser-check.sh."""
import json
import math
import random
import sys
import time
import urllib.request

port, seconds = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(1)
start_ns = 1_700_000_000_000_000_000
for second in range(seconds):
    for device, phase in (("phone-a", 0.0), ("phone-b", 1.3)):
        moving = (second >= seconds // 2) != (device == "phone-b")
        payload = []
        for k in range(100):
            t = start_ns + (second * 100 + k) * 10_000_000
            s = (second * 100 + k) / 100
            bounce = 3.0 * math.sin(2 * math.pi * 2.0 * s + phase) if moving else 0.0
            payload.append({"name": "totalacceleration", "time": t, "values": {
                "x": rng.gauss(0, 0.05), "y": 9.81 + bounce + rng.gauss(0, 0.05),
                "z": rng.gauss(0, 0.05)}})
        body = json.dumps({"messageId": second, "sessionId": "browser", "deviceId": device,
                           "payload": payload}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/push", data=body,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as answer:
            assert answer.status == 200, answer.read()
    time.sleep(0.05)
