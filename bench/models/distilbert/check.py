#!/usr/bin/env python3
"""On the GPU machine: runs the DistilBERT modules that prepare.sh compiled
(weights inside the module, and outside it in a safetensors file) on cuda
and cpu against torch's output, and reads every safetensors file with the
`safetensors` package (what torch users load weights with), comparing each
tensor with what the ONNX graph holds. Prints a table; exit 1 on a failure.

  python3 check.py --dir DIR --runner BIN/tessel-run
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--runner", required=True)
    a = ap.parse_args()
    d = a.dir
    expected = np.load(os.path.join(d, "expected.npy"))
    rows, ok = [], True
    for mode, extra in (("const", []),
                        ("compile-params", ["--parameters=" + os.path.join(d, "compile.safetensors")]),
                        ("import-params", ["--parameters=" + os.path.join(d, "import.safetensors")])):
        for device in ("cuda", "cpu"):
            out = os.path.join(d, "out_%s_%s.npy" % (mode, device))
            cmd = [a.runner, os.path.join(d, mode + ".tmod"), "--device=" + device,
                   "--input=@" + os.path.join(d, "ids.npy"),
                   "--input=@" + os.path.join(d, "mask.npy"), "--output=@" + out] + extra
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                rows.append((mode, device, "FAIL", r.stderr.strip()[-200:]))
                ok = False
                continue
            got = np.load(out)
            err = float(np.max(np.abs(got - expected) / (1 + np.abs(expected))))
            good = err < 1e-4
            ok &= good
            rows.append((mode, device, "PASS" if good else "FAIL", "max rel err %.2e" % err))
    # The safetensors package against the raw bytes at each header entry's
    # offsets, and the importer's tensors against the graph's initializers.
    try:
        import onnx
        from onnx import numpy_helper
        from safetensors.numpy import load_file
        graph = onnx.load(os.path.join(d, "distilbert.onnx"))
        inits = {t.name: numpy_helper.to_array(t) for t in graph.graph.initializer}
        for name in ("compile.safetensors", "import.safetensors"):
            path = os.path.join(d, name)
            tensors = load_file(path)
            with open(path, "rb") as f:
                n = int.from_bytes(f.read(8), "little")
                header = json.loads(f.read(n))
                data = f.read()
            same, matched = True, 0
            for k, t in tensors.items():
                b, e = header[k]["data_offsets"]
                same &= list(t.shape) == header[k]["shape"] and t.tobytes() == data[b:e]
                if k in inits:
                    same &= np.array_equal(inits[k], t)
                    matched += 1
            rows.append(("safetensors.load_file", name, "PASS" if same else "FAIL",
                         "%d tensors (%d initializers compared), %.2f MB"
                         % (len(tensors), matched, sum(t.nbytes for t in tensors.values()) / 1e6)))
            ok &= same
    except ImportError as e:
        rows.append(("safetensors.load_file", "-", "SKIP", str(e)))
    print("| module | device | result | detail |\n| --- | --- | --- | --- |")
    for r in rows:
        print("| %s | %s | %s | %s |" % r)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
