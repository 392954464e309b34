//===- ModuleWriter.h - serialize a .tmod file -----------------*- C++ -*-===//

#ifndef TESSEL_TARGET_MODULEWRITER_H
#define TESSEL_TARGET_MODULEWRITER_H

#include "tessel/Target/Executable.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessel {

/// Schema version written into every module (schema/module.fbs). Version 4
/// added KernelExport::abi and parameterSizes (CUDA C kernels).
inline constexpr uint32_t kSchemaVersion = 8;

/// Serializes the host programs of `module` (after dispatch formation) and
/// `executables` into the FlatBuffers module format. A module without public
/// functions (only CUDA C kernels, launched by the CUDA runtime library) is
/// valid: its exports need no dispatch.
FailureOr<std::vector<uint8_t>>
writeModule(ModuleOp module, const std::vector<ExecutableImage> &executables);

} // namespace mlir::tessel

#endif
