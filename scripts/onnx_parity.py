"""ONNX Runtime against motus on real windows: `motus export ... --parity-output DIR` wrote
windows.npy (the graph's input), features.npy and probabilities.npy (motus's own results).

    python scripts/onnx_parity.py MODEL.onnx DIR [--tolerance 1e-4]

Prints the largest differences and exits 1 when a probability differs by more than the
tolerance. Features are compared relative to their spread over the sample (a feature's
absolute size varies by orders of magnitude), for diagnosis only."""

import argparse
import sys

import numpy as np
import onnx
import onnxruntime as ort


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("folder")
    parser.add_argument("--tolerance", type=float, default=1e-4)
    parser.add_argument("--batch", type=int, default=256)
    args = parser.parse_args()

    onnx.checker.check_model(onnx.load(args.model), full_check=True)
    windows = np.load(f"{args.folder}/windows.npy")
    expected_p = np.load(f"{args.folder}/probabilities.npy")
    expected_f = np.load(f"{args.folder}/features.npy")
    session = ort.InferenceSession(args.model, providers=["CPUExecutionProvider"])
    meta = session.get_modelmeta().custom_metadata_map
    names = meta["motus.feature_names"].split(",")
    got_p, got_f = [], []
    for start in range(0, len(windows), args.batch):
        p, f = session.run(["probabilities", "features"], {"window": windows[start:start + args.batch]})
        got_p.append(p)
        got_f.append(f)
    got_p, got_f = np.concatenate(got_p), np.concatenate(got_f)

    dp = np.abs(got_p - expected_p)
    spread = expected_f.std(axis=0)
    spread[spread == 0] = 1
    df = np.abs(got_f - expected_f) / spread
    worst = int(np.argmax(df.max(axis=0)))
    agree = float(np.mean(got_p.argmax(axis=1) == expected_p.argmax(axis=1)))
    print(f"{args.model}: {len(windows)} real windows of shape {list(windows.shape[1:])}, "
          f"{got_f.shape[1]} features, {got_p.shape[1]} classes; onnxruntime {ort.__version__}")
    print(f"  probabilities: max |diff| {dp.max():.2e}, mean {dp.mean():.2e}; "
          f"same top class {agree:.4f}")
    print(f"  features: max |diff| / spread {df.max():.2e} ({names[worst]}), "
          f"median {np.median(df):.2e}")
    ok = dp.max() <= args.tolerance
    if "novelty" in [o.name for o in session.get_outputs()]:
        expected_n = np.load(f"{args.folder}/novelty.npy")
        got_n = np.concatenate([session.run(["novelty"], {"window": windows[s:s + args.batch]})[0]
                                for s in range(0, len(windows), args.batch)])
        dn = np.abs(got_n - expected_n) / np.maximum(np.abs(expected_n), 1e-6)
        threshold = float(meta["motus.novelty_threshold"])
        same = float(np.mean((got_n > threshold) == (expected_n > threshold)))
        print(f"  novelty: max relative diff {dn.max():.2e}; same far/near answer {same:.4f}")
    print(f"  {'PASS' if ok else 'FAIL'}: max |diff| of probabilities "
          f"{'<=' if ok else '>'} {args.tolerance:g}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
