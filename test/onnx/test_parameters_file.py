#!/usr/bin/python3
"""tessel-import-onnx --parameters-file: the command line around it (what
run_onnx_tests.py's parameters mode does not reach: usage errors, a file
that cannot be written, initializers whose external data is missing,
symbol names that need quoting).

  test_parameters_file.py [--importer=PATH] [unittest options]

The importer defaults to the one in this source tree.
"""

import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "frontends", "onnx"))

import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from tessel_onnx import safetensors  # noqa: E402

IMPORTER = os.path.join(ROOT, "frontends", "onnx", "tessel-import-onnx")
MLIR_OPT = os.environ.get("TESSEL_MLIR_OPT") or "/usr/lib/llvm-22/bin/mlir-opt"


def linear_model(w_name, w, b):
    """y = x @ W + b for x [3, K]."""
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", w_name], ["xw"]), helper.make_node("Add", ["xw", "b"], ["y"])],
        "linear",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, w.shape[0]])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, w.shape[1]])],
        [numpy_helper.from_array(w, w_name), numpy_helper.from_array(b, "b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


class ParametersFile(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="tessel-params-")
        self.dir = self.tmp.name
        rng = np.random.default_rng(5)
        self.w = rng.standard_normal((24, 16)).astype(np.float32)  # 1536 bytes: a parameter
        self.b = rng.standard_normal((16,)).astype(np.float32)  # 64 bytes: a constant

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def save(self, model, name="m.onnx", **kwargs):
        onnx.save_model(model, self.path(name), **kwargs)
        return self.path(name)

    def run_importer(self, *args):
        return subprocess.run([IMPORTER] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)

    def read(self, name):
        with open(self.path(name)) as f:
            return f.read()

    def test_weights_as_inputs_excludes_it(self):
        model = self.save(linear_model("W", self.w, self.b))
        p = self.run_importer(model, "-o", self.path("m.mlir"), "--parameters-file", self.path("W.st"),
                              "--weights-as-inputs", "--weights-dir", self.path("w"))
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertRegex(p.stderr, r"\ntessel-import-onnx: error: argument --weights-as-inputs: not "
                                   r"allowed with argument --parameters-file\n$")
        self.assertFalse(os.path.exists(self.path("m.mlir")) or os.path.exists(self.path("W.st")))

    def test_unwritable_file(self):
        model = self.save(linear_model("W", self.w, self.b))
        p = self.run_importer(model, "-o", self.path("m.mlir"),
                              "--parameters-file", self.path("no/such/dir/W.st"))
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertRegex(p.stderr, r"^tessel-import-onnx: error: cannot write '.*no/such/dir/W\.st.*': "
                                   r"No such file or directory\n$")
        self.assertFalse(os.path.exists(self.path("m.mlir")))

    def test_quoted_symbol(self):
        name = 'enc "layer"\\0\t.W'
        model = self.save(linear_model(name, self.w, self.b))
        p = self.run_importer(model, "-o", self.path("m.mlir"), "--parameters-file", self.path("W.st"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, "")
        ref = '@"enc \\"layer\\"\\\\0\\09.W"'
        text = self.read("m.mlir")
        self.assertIn("ml_program.global private %s(#ml_program.extern<tensor<24x16xf32>>) : "
                      "tensor<24x16xf32>\n" % ref, text)
        self.assertIn("= ml_program.global_load_const %s : tensor<24x16xf32>\n" % ref, text)
        tensors, _ = safetensors.read(self.path("W.st"))
        self.assertEqual(list(tensors), [name])
        self.assertEqual(tensors[name][1].tobytes(), self.w.tobytes())
        if os.path.exists(MLIR_OPT):
            p = subprocess.run([MLIR_OPT, self.path("m.mlir"), "-o", os.devnull],
                               stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(p.returncode, 0, p.stderr)

    def test_missing_external_data(self):
        # W (>= 1024 bytes) goes to the external file, b stays inline.
        model = self.save(linear_model("W", self.w, self.b), save_as_external_data=True,
                          all_tensors_to_one_file=True, location="m.data", size_threshold=1024)
        p = self.run_importer(model, "-o", self.path("m.mlir"), "--parameters-file", self.path("W.st"))
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        tensors, _ = safetensors.read(self.path("W.st"))
        self.assertEqual(tensors["W"][1].tobytes(), self.w.tobytes())
        with_data = self.read("m.mlir")

        os.remove(self.path("m.data"))
        p = self.run_importer(model, "-o", self.path("m.mlir"), "--parameters-file", self.path("W.st"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, "tessel-import-onnx: warning: parameters missing from '%s' (supply "
                                   "them from elsewhere): 'W' not written: data in external 'm.data'\n"
                         % self.path("W.st"))
        tensors, metadata = safetensors.read(self.path("W.st"))
        self.assertEqual((tensors, metadata), ({}, {"format": "tessel", "source": "m.onnx"}))
        # The same MLIR, the global now loaded where W is first read.
        self.assertEqual(self.read("m.mlir"), with_data)

        # Without the option, the data is needed.
        p = self.run_importer(model, "-o", self.path("c.mlir"))
        self.assertEqual(p.returncode, 1)
        self.assertIn("initializer 'W' has its data in the external file 'm.data'", p.stderr)

    def test_missing_external_constant(self):
        # b too is external: too small to be a parameter, it is an error.
        model = self.save(linear_model("W", self.w, self.b), save_as_external_data=True,
                          all_tensors_to_one_file=True, location="m.data", size_threshold=0)
        os.remove(self.path("m.data"))
        p = self.run_importer(model, "-o", self.path("m.mlir"), "--parameters-file", self.path("W.st"))
        self.assertEqual(p.returncode, 1)
        self.assertIn("initializer 'b' has its data in the external file 'm.data'", p.stderr)
        self.assertFalse(os.path.exists(self.path("m.mlir")) or os.path.exists(self.path("W.st")))


if __name__ == "__main__":
    for arg in list(sys.argv[1:]):
        if arg.startswith("--importer="):
            IMPORTER = os.path.abspath(arg.split("=", 1)[1])
            sys.argv.remove(arg)
    unittest.main()
