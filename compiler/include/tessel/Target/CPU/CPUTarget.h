//===- CPUTarget.h - CPU target backend ------------------------*- C++ -*-===//
//
// Compiles the dispatch functions of a module into one native shared object
// (one exported symbol per dispatch) for the CPU runtime driver.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TARGET_CPU_CPUTARGET_H
#define TESSEL_TARGET_CPU_CPUTARGET_H

#include "tessel/Target/Executable.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <functional>

namespace mlir::tessel {

struct CPUTargetOptions {
  /// "host" (the compiling machine's CPU and features) or an LLVM CPU name
  /// such as "x86-64-v3" or "generic".
  std::string cpu = "host";
  /// Where to write intermediate files ("" = nowhere).
  std::string dumpDir;
  /// Applies the MLIR debugging flags (--mlir-print-ir-after-all, ...).
  std::function<LogicalResult(PassManager &)> configurePassManager;
};

/// Compiles the dispatch functions of `module` (left unchanged).
FailureOr<ExecutableImage> buildCPUExecutable(ModuleOp module,
                                              const CPUTargetOptions &options);

/// Compiles the CUDA C kernels tessel-cc imported (`module`, left
/// unchanged; functions marked tessel.cuda_kernel) into CPU block functions
/// through the GPU->CPU transpilation: one CudaC export per kernel.
FailureOr<ExecutableImage>
buildCUDACCPUExecutable(ModuleOp module, const CPUTargetOptions &options);

} // namespace mlir::tessel

#endif
