//===- ModuleWriter.h - serialize a .tmod file -----------------*- C++ -*-===//

#ifndef TESSEL_TARGET_MODULEWRITER_H
#define TESSEL_TARGET_MODULEWRITER_H

#include "tessel/Target/Executable.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessel {

/// Schema version written into every module (schema/module.fbs).
inline constexpr uint32_t kSchemaVersion = 3;

/// Serializes the host programs of `module` (after dispatch formation) and
/// `executables` into the FlatBuffers module format.
FailureOr<std::vector<uint8_t>>
writeModule(ModuleOp module, const std::vector<ExecutableImage> &executables);

} // namespace mlir::tessel

#endif
