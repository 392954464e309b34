"""tessel_onnx: imports ONNX models into MLIR that tessel-compile takes.

`importer.load_model` parses a file, `importer.import_model` returns the
MLIR text and the weights; the op families live in elementwise, matmul,
shape, nn and reduce.
"""
