//===- ParametersFile.h - write safetensors parameter files ----*- C++ -*-===//
//
// The parameters of a module kept outside it (tessel-compile
// --parameters-file) go into a safetensors file, the format the runtime's
// ParameterFile reads (runtime/include/tessel/runtime/parameters.h) and
// torch, Hugging Face and numpy users already have tools for.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TARGET_PARAMETERSFILE_H
#define TESSEL_TARGET_PARAMETERSFILE_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::tessel {

/// One tensor of a parameters file: `data` holds type's elements,
/// little-endian, row-major (i1 one byte each).
struct NamedTensor {
  std::string name;
  RankedTensorType type;
  ArrayRef<uint8_t> data;
};

/// Writes `tensors` to `path` as safetensors (a temporary file renamed into
/// place: all or nothing), in order, each right after the one before.
/// Errors go to `error`.
LogicalResult writeParametersFile(StringRef path, ArrayRef<NamedTensor> tensors,
                                  std::string &error);

} // namespace mlir::tessel

#endif
