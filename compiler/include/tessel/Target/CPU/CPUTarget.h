//===- CPUTarget.h - CPU target backend ------------------------*- C++ -*-===//
//
// Compiles the dispatch functions of a module into native shared objects
// (one exported symbol per dispatch) for the CPU runtime driver: one
// executable per requested CPU variant.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TARGET_CPU_CPUTARGET_H
#define TESSEL_TARGET_CPU_CPUTARGET_H

#include "tessel/Target/Executable.h"

#include "mlir/IR/BuiltinOps.h"
#include "tessel/Codegen/Common/SelectStrategy.h"
#include "mlir/Pass/PassManager.h"

#include <functional>

namespace mlir::tessel {

struct CPUTargetOptions {
  /// Comma-separated CPU variants, each "host" (the compiling machine's CPU
  /// and features) or an LLVM CPU name such as "x86-64-v3" or "znver4": one
  /// executable each, ordered most capable first (wider vectors, then more
  /// CPU features). Empty, repeated or unknown entries, and two entries
  /// needing the same recorded features, are errors.
  std::string cpu = "host";
  /// Widest vector (bits) LLVM's loop vectorizer should prefer where the CPU
  /// has wider ones; 0 keeps the CPU's tuning (256 on x86-64-v4 and most
  /// AVX-512 CPUs). Explicit vector code (linalg kernels) is not affected.
  /// tessel-cc sets 512: transpiled thread loops of 16-thread blocks fill a
  /// zmm register per row (Rodinia: lud 1.24x, backprop 1.47x, b+tree
  /// 0.80x, geomean 1.04x; bench/RESULTS.md 2026-11-25 04:36Z).
  unsigned preferVectorWidth = 0;
  /// LLVM's loop vectorizer (off only to measure its share of the
  /// transpiled kernels' speed; linalg kernels are vector code already).
  bool loopVectorize = true;
  /// The GPU-to-CPU transpilation's options (TranspileOptions) as text,
  /// e.g. "min-cut=false loop-hints=false"; malformed text is an error.
  std::string transpile;
  /// Where to write intermediate files ("" = nowhere).
  std::string dumpDir;
  /// --tessel-strategy-file, --tuning-db, --tessel-print-strategy, and
  /// the strategy report's prefix: each executable's goes to
  /// PREFIX.CPU.json, CPU its entry of `cpu`.
  StrategySources strategies;
  /// tessel-cpu-packed-matmul's timing experiment (WRONG RESULTS): pack in
  /// the first K block only.
  bool diagnosticPackFirstKBlockOnly = false;
  /// Applies the MLIR debugging flags (--mlir-print-ir-after-all, ...).
  std::function<LogicalResult(PassManager &)> configurePassManager;
};

/// Compiles the dispatch functions of `module` (left unchanged) for each
/// variant of `options.cpu`: one executable per variant, most capable first.
FailureOr<std::vector<ExecutableImage>>
buildCPUExecutables(ModuleOp module, const CPUTargetOptions &options);

/// Compiles the CUDA C kernels tessel-cc imported (`module`, left
/// unchanged; functions marked tessel.cuda_kernel) into CPU block functions
/// through the GPU->CPU transpilation: one CudaC export per kernel, one
/// executable per variant of `options.cpu`, most capable first.
FailureOr<std::vector<ExecutableImage>>
buildCUDACCPUExecutables(ModuleOp module, const CPUTargetOptions &options);

} // namespace mlir::tessel

#endif
