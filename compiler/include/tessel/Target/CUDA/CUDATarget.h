//===- CUDATarget.h - CUDA target backend ----------------------*- C++ -*-===//
//
// Compiles the dispatch functions of a module into PTX (always) and one
// cubin per requested architecture (when ptxas is found), for the CUDA
// runtime driver. Needs no GPU and no driver.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TARGET_CUDA_CUDATARGET_H
#define TESSEL_TARGET_CUDA_CUDATARGET_H

#include "tessel/Target/Executable.h"

#include "tessel/Codegen/Common/SelectStrategy.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <functional>

namespace mlir::tessel {

struct CUDATargetOptions {
  /// Architectures to build cubins for; the PTX targets the first (lowest)
  /// one so that the driver can JIT it for any later GPU. sm_90a gets an
  /// executable of its own.
  std::vector<std::string> archs = {"sm_80", "sm_90"};
  /// CUDA toolkit root ("" = $CUDA_HOME, $CUDA_PATH, then /usr/local/cuda).
  std::string toolkit;
  std::string dumpDir;
  /// f32 contractions may use TF32 tensor cores (--cuda-tf32).
  bool tf32 = false;
  /// sm_90a: fewer 128x128 output tiles than this keep mma.sync
  /// (--tessel-wgmma-min-tiles).
  int64_t wgmmaMinTiles = 66;
  /// --tessel-strategy-file, --tuning-db, --tessel-print-strategy, and
  /// the strategy report's prefix: each executable's goes to
  /// PREFIX.ARCH.json, ARCH the first of its architectures.
  StrategySources strategies;
  /// The sm_90a and the other executable compile on two threads (when the
  /// context has threads); off where IR is printed after passes, which
  /// would interleave.
  bool parallelBuilds = true;
  std::function<LogicalResult(PassManager &)> configurePassManager;
};

/// Compiles the dispatch functions of `module` (left unchanged): one
/// executable for sm_90a when requested (wgmma + TMA kernels, runnable on
/// compute capability 9.0 only), first, and one for the other
/// architectures.
FailureOr<std::vector<ExecutableImage>>
buildCUDAExecutables(ModuleOp module, const CUDATargetOptions &options);

/// Compiles the CUDA C kernels tessel-cc imported (`module`, left
/// unchanged) for the GPU: one CudaC export per kernel.
FailureOr<std::vector<ExecutableImage>>
buildCUDACCUDAExecutables(ModuleOp module, const CUDATargetOptions &options);

} // namespace mlir::tessel

#endif
