//===- TargetUtils.h - steps every target backend shares -------*- C++ -*-===//

#ifndef TESSEL_TARGET_TARGETUTILS_H
#define TESSEL_TARGET_TARGETUTILS_H

#include "tessel/Target/Executable.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir::tessel {

/// A copy of `module` holding only its dispatch functions, in dispatch
/// ordinal order, and one export per dispatch (name and binding count; the
/// backend fills in the launch shape).
OwningOpRef<ModuleOp> cloneDispatchFunctions(ModuleOp module,
                                             std::vector<KernelExport> &exports);

/// Writes `bytes` to `path`, reporting failures at `loc`.
/// The CudaC exports of the kernels tessel-cc imported into `module` (every
/// function marked tessel.cuda_kernel, with its parameter sizes), in module
/// order; every target builds one kernel of the same name per export.
FailureOr<std::vector<KernelExport>> cudaCKernelExports(ModuleOp module);

LogicalResult writeFile(Location loc, StringRef path, StringRef bytes);

/// Reads the workgroup count of kernel `fn` (kWorkgroupCountAttr, and
/// kWorkgroupCountMapAttr when it depends on the push constants) and its
/// push constant count into `e`; errors at `loc`.
LogicalResult readWorkgroupCount(Location loc, Operation *fn, KernelExport &e);

} // namespace mlir::tessel

#endif
