//===- ModuleWriter.h - serialize a .tmod file -----------------*- C++ -*-===//

#ifndef TESSEL_TARGET_MODULEWRITER_H
#define TESSEL_TARGET_MODULEWRITER_H

#include "tessel/Target/Executable.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessel {

/// Schema version written into every module (schema/module.fbs). Version 9
/// added Module.parameters and the Parameter opcode.
inline constexpr uint32_t kSchemaVersion = 9;

/// Whether the module format stores tensors of element type `t` (schema
/// ElementType: f64, f32, f16, bf16, i64, i32, i16, i8, i1).
bool isModuleElementType(Type t);

struct ModuleWriterOptions {
  /// Empty: the data of every parameter with a value (an ml_program.global
  /// read by ml_program.global_load_const) goes into the module. Otherwise
  /// it goes into this safetensors file, and the module names those
  /// parameters as external, as it does #ml_program.extern ones.
  std::string parametersFile;
};

/// Serializes the host programs of `module` (after dispatch formation) and
/// `executables` into the FlatBuffers module format. A module without public
/// functions (only CUDA C kernels, launched by the CUDA runtime library) is
/// valid: its exports need no dispatch. The module's parameters are the
/// globals its functions read, in the order of their first read.
FailureOr<std::vector<uint8_t>>
writeModule(ModuleOp module, const std::vector<ExecutableImage> &executables,
            const ModuleWriterOptions &options = {});

} // namespace mlir::tessel

#endif
