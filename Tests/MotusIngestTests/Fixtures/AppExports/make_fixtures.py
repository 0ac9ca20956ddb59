#!/usr/bin/env python3
"""Writes the SYNTHETIC phone-app fixtures beside this script (no real recording is used).

Every file imitates one app's export layout with made-up values chosen so a test can tell
units, sign and axis order apart: a phone lying still and face up, with a small distinct
user acceleration on each axis (x 0.1 g, y 0.2 g, z 0.3 g) and rotation (x 0.01, y 0.02,
z 0.03 rad/s). Android-style files write +9.80665 m/s^2 (or +1 g) on z; Core Motion style
ones -1 g. Run: python3 make_fixtures.py
"""
import math, os

G = 9.80665
HERE = os.path.dirname(os.path.abspath(__file__))
UA = (0.1, 0.2, 0.3)      # user acceleration, g, Core Motion sign
ROT = (0.01, 0.02, 0.03)  # rad/s
LOCATION_NOTE = 0.0       # synthetic location columns hold zeros only


def path(*parts):
    p = os.path.join(HERE, *parts)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    return p


def write(name, lines, newline="\n", final=True):
    with open(path(*name.split("/")), "w", newline="") as f:
        f.write(newline.join(lines) + (newline if final else ""))


def wobble(i):  # a small deterministic variation, so the signal is not constant
    return 0.001 * math.sin(i * 0.7)


def sensor_logger_ios():
    base, epoch_ms, n = "synthetic-sensor-logger-ios", 1700000000000, 600  # 50 Hz, 12 s
    write(f"{base}/Metadata.csv", [
        "version,device name,recording epoch time,recording time,recording timezone,platform,appVersion,sensors,sampleRateMs,standardisation",
        f"3,Synthetic Phone,{epoch_ms},2023-11-14_22-13-20,UTC,ios,1.43.2,Accelerometer|Gravity|Gyroscope|Pedometer|Location,20|20|20|0|0,false"], final=False)
    write(f"{base}/Annotation.csv", [], final=False)
    rows = {k: ["time,seconds_elapsed,z,y,x"] for k in ["Accelerometer", "Gravity", "Gyroscope", "AccelerometerUncalibrated"]}
    for i in range(n):
        t = 0.005 + i * 0.02
        ns = epoch_ms * 1_000_000 + int(round(t * 1e9))
        w = wobble(i)
        rows["Accelerometer"].append(f"{ns},{t},{(UA[2]+w)*G},{UA[1]*G},{UA[0]*G}")
        rows["Gravity"].append(f"{ns},{t},{-G},0,0")
        rows["Gyroscope"].append(f"{ns},{t},{ROT[2]},{ROT[1]},{ROT[0]}")
        rows["AccelerometerUncalibrated"].append(f"{ns},{t},{-1+UA[2]+w},{UA[1]},{UA[0]}")
    for k, v in rows.items():
        write(f"{base}/{k}.csv", v)
    steps = ["time,seconds_elapsed,steps"]
    for k, t in enumerate([2.5, 5.0, 7.5, 10.0]):
        steps.append(f"{epoch_ms * 1_000_000 + int(t * 1e9)},{t},{5 * (k + 1)}")
    write(f"{base}/Pedometer.csv", steps)
    write(f"{base}/Location.csv", ["time,seconds_elapsed,altitude,latitude,longitude",
                                   f"{epoch_ms * 1_000_000},0,0,{LOCATION_NOTE},{LOCATION_NOTE}"])


def sensor_logger_android():
    base, epoch_ms = "synthetic-sensor-logger-android", 1700000000000
    write(f"{base}/Metadata.csv", [
        "version,device name,recording epoch time,recording time,recording timezone,platform,appVersion,device id,sensors,sampleRateMs",
        f"3,Synthetic Android,{epoch_ms},2023-11-14_22-13-20,UTC,android,1.28,synthetic,Accelerometer|Gravity|TotalAcceleration,10|10|10"], final=False)
    acc, grav, total = (["time,seconds_elapsed,z,y,x"] for _ in range(3))
    for i in range(800):  # 100 Hz, 8 s
        t = 0.01 + i * 0.01
        ns = epoch_ms * 1_000_000 + int(round(t * 1e9))
        # Android sign: the specific force on the up axis is +g; linear acceleration negated too.
        acc.append(f"{ns},{t},{-UA[2]*G},{-UA[1]*G},{-UA[0]*G}")
        grav.append(f"{ns},{t},{G},0,0")
    t = 0.0
    i = 0
    while t < 8.0:  # ~59 Hz with jitter: a slower sensor joined onto the 100 Hz clock
        step = 1 / 59.4 + (0.002 if i % 3 == 0 else -0.001)
        t += step
        ns = epoch_ms * 1_000_000 + int(round(t * 1e9))
        total.append(f"{ns},{t},{G - UA[2]*G},{-UA[1]*G},{-UA[0]*G}")
        i += 1
    write(f"{base}/Accelerometer.csv", acc)
    write(f"{base}/Gravity.csv", grav)
    write(f"{base}/TotalAcceleration.csv", total)
    # No Gyroscope.csv: a missing sensor file must be tolerated.


def sensorlog():
    cols = ["loggingTime(txt)", "loggingSample(N)", "locationLatitude(WGS84)", "locationLongitude(WGS84)",
            "accelerometerTimestamp_sinceReboot(s)", "accelerometerAccelerationX(G)", "accelerometerAccelerationY(G)", "accelerometerAccelerationZ(G)",
            "motionTimestamp_sinceReboot(s)", "motionYaw(rad)", "motionRoll(rad)", "motionPitch(rad)",
            "motionRotationRateX(rad/s)", "motionRotationRateY(rad/s)", "motionRotationRateZ(rad/s)",
            "motionUserAccelerationX(G)", "motionUserAccelerationY(G)", "motionUserAccelerationZ(G)",
            "motionGravityX(G)", "motionGravityY(G)", "motionGravityZ(G)",
            "pedometerNumberofSteps(N)", "pedometerCurrentCadence(steps/s)", "pedometerEndDate(txt)", "label(N)"]
    lines = [",".join(cols)]
    for i in range(160):  # 20 Hz, 8 s
        ms = 500 + i * 50
        stamp = f"2024-01-02T10:00:{ms // 1000:02d}.{ms % 1000:03d}-02:00"
        steps = 100 + 2 * (i // 20)  # 2 steps per second, updated once a second
        end = f"2024-01-02T10:00:{(500 + (i // 20) * 1000) // 1000:02d}.500-02:00"
        w = wobble(i)
        rows = [stamp, str(i), "0", "0", f"{1000 + ms / 1000 + 0.002}", f"{UA[0]}", f"{UA[1]}", f"{-1 + UA[2] + w}",
                f"{1000 + ms / 1000}", "0.5", "0", "0", f"{ROT[0]}", f"{ROT[1]}", f"{ROT[2]}",
                f"{UA[0]}", f"{UA[1]}", f"{UA[2] + w}", "0", "0", "-1", str(steps), "2", end, "0"]
        lines.append(",".join(rows))
    write("synthetic-sensorlog/2024-01-02_10_00_00_synthetic_device.csv", lines)


def phyphox_folder():
    base = "synthetic-phyphox-multisensor"
    acc, lin, gyr = (['"Time (s)","X (m/s^2)","Y (m/s^2)","Z (m/s^2)"'],
                     ['"Time (s)","X (m/s^2)","Y (m/s^2)","Z (m/s^2)"'],
                     ['"Time (s)","X (rad/s)","Y (rad/s)","Z (rad/s)"'])
    for i in range(400):  # 50 Hz, 8 s; phyphox uses Android's sign on iOS too
        t = 0.003 + i * 0.02
        acc.append(f"{t:.9E},{-UA[0]*G:.9E},{-UA[1]*G:.9E},{G - UA[2]*G:.9E}")
        lin.append(f"{t:.9E},{-UA[0]*G:.9E},{-UA[1]*G:.9E},{-UA[2]*G:.9E}")
        gyr.append(f"{t:.9E},{ROT[0]:.9E},{ROT[1]:.9E},{ROT[2]:.9E}")
    write(f"{base}/Accelerometer.csv", acc)
    write(f"{base}/Linear Accelerometer.csv", lin)
    write(f"{base}/Gyroscope.csv", gyr)
    write(f"{base}/Barometer.csv", ['"Time (s)","X (hPa)"', "0.000000000E0,1.013000000E3"])
    write(f"{base}/meta/device.csv", ['"property","value"', '"version","1.1.16"', '"deviceModel","Synthetic"', '"deviceRelease","18.5"'])


def phyphox_single():
    lines = ['"Time (s)","Acceleration x (m/s^2)","Acceleration y (m/s^2)","Acceleration z (m/s^2)","Absolute acceleration (m/s^2)"']
    for i in range(700):  # 100 Hz, 7 s, first time negative, no final newline
        t = -1.384e-3 + i * 0.01
        lines.append(f"{t:.9E},{0:.9E},{0:.9E},{G:.9E},{G:.9E}")
    write("synthetic-phyphox-acceleration-with-g/Raw Data.csv", lines, final=False)


def physics_toolbox_french():
    lines = ["time;gFx;gFy;gFz;TgF"]
    t, i = 11 * 3600 + 41 * 60 + 59.305, 0
    def clock(s):
        h, m = int(s // 3600), int(s % 3600 // 60)
        return f"{h:02d}:{m:02d}:{int(s % 60):02d}:{int(round((s % 1) * 10000)) % 10000:04d}"
    def add(s, k):
        z = 1 + 0.01 * math.sin(k * 0.3)
        lines.append(f"{clock(s)};0,0000;0,0000;{z:.4f}".replace(".", ",") + f";{z:.3f}".replace(".", ","))
    # ~230 Hz with hiccups of 5-13 ms (jitter), 6 s, then a 5 s gap, then 6 s more.
    for part in range(2):
        end = t + 6
        while t < end:
            add(t, i)
            t += [0.004, 0.004, 0.003, 0.004, 0.013, 0.004, 0.005, 0.004, 0.004, 0.007][i % 10]
            i += 1
        t += 5
    write("synthetic-physics-toolbox-fr/2024-01-0211.41.59.csv", lines)


def physics_toolbox_linear():
    lines = ["time,ax (m/s^2),ay (m/s^2),az (m/s^2),aT (m/s^2)"]
    for i in range(480):  # 60 Hz, 8 s, CRLF line ends
        t = 0.003 + i / 60
        lines.append(f"{t:.6f},{-UA[0]*G:.4f},{-UA[1]*G:.4f},{-UA[2]*G:.4f},{math.sqrt(sum(a*a for a in UA))*G:.3f}")
    write("synthetic-physics-toolbox-linear/synthetic_walking.csv", lines, newline="\r\n")


def androsensor():
    header = ("ACCELEROMETER X (m/s²);ACCELEROMETER Y (m/s²);ACCELEROMETER Z (m/s²);GRAVITY X (m/s²);GRAVITY Y (m/s²);GRAVITY Z (m/s²);"
              "LINEAR ACCELERATION X (m/s²);LINEAR ACCELERATION Y (m/s²);LINEAR ACCELERATION Z (m/s²);GYROSCOPE X (rad/s);GYROSCOPE Y (rad/s);GYROSCOPE Z (rad/s);"
              "LIGHT (lux);LOCATION Latitude : ;LOCATION Longitude : ;LOCATION Speed ( Kmh);Satellites in range;Time since start in ms ;YYYY-MO-DD HH-MI-SS_SSS")
    lines = ["sep=;", header]
    for i in range(30):  # 2 Hz, 15 s, no final newline
        ms = 16 + i * 500
        acc = f"{-UA[0]*G:.4f};{-UA[1]*G:.4f};{G - UA[2]*G:.4f}"
        lines.append(f"{acc};0.0;0.0;{G:.4f};{-UA[0]*G:.4f};{-UA[1]*G:.4f};{-UA[2]*G:.4f};{ROT[0]};{ROT[1]};{ROT[2]};"
                     f"12.0;0;0;NaN;0 / 16;{ms};2024-01-02 10:00:{ms // 1000:02d}:{ms % 1000:03d}")
    write("synthetic-androsensor/synthetic_walking.csv", lines, final=False)


for make in [sensor_logger_ios, sensor_logger_android, sensorlog, phyphox_folder, phyphox_single,
             physics_toolbox_french, physics_toolbox_linear, androsensor]:
    make()
