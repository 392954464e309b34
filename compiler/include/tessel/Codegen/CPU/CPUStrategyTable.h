//===- CPUStrategyTable.h - the cpu target's strategies --------*- C++ -*-===//
//
// Every CPU strategy in one ordered table, as GPUStrategyTable.h is for
// cuda: each entry answers, for a kernel, "do you take it, and with what
// parameters?" as a #tessel.strategy plus the op it applies to, or says why
// not. tessel-cpu-select-strategy asks them in order (or only the kind a
// user forced); tessel-cpu-tile-and-vectorize reads nothing but the
// attribute. The cost models read the target description (vector width,
// cores).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_CPU_CPUSTRATEGYTABLE_H
#define TESSEL_CODEGEN_CPU_CPUSTRATEGYTABLE_H

#include "tessel/Codegen/Common/SelectStrategy.h"
#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::tessel {

/// Marks a workgroup's contraction for tessel-cpu-packed-matmul:
/// array<i64: MR, NR, KC, MC, NC, lanes, M tile, N tile> (register tile, K
/// block, rows of A packed at a time, largest N block, elements per vector,
/// the workgroup tiles of the contraction's M and N loops, 0: whole, -1:
/// not known, which keeps each workgroup's blocks its own).
/// Written by tessel-cpu-tile-and-vectorize from a packed_matmul strategy.
inline constexpr llvm::StringLiteral kCPUPackedMatmulAttr =
    "tessel.cpu_packed_matmul";

/// The packed-panel strategy's parameters (CPUPackedMatmul.cpp).
struct CPUPackedMatmulParams {
  int64_t mr = 0, nr = 0, kc = 0;
  /// Rows of A packed at a time (a workgroup's rows are walked in blocks
  /// of MC) and the largest N block of a workgroup; the pack buffers are
  /// sized by them.
  int64_t mc = 0, nc = 0;
  /// Elements per vector register (NR is a multiple).
  int64_t lanes = 0;
  /// Workgroup tiles of a contraction's M and N loops (0: whole, -1: not
  /// known): which
  /// workgroups read the same block of A or B, so that it is packed once
  /// for all of them.
  int64_t mTile = 0, nTile = 0;
};

/// The packed strategy's cost-model inputs; the defaults are the measured
/// choice (bench/RESULTS.md, issue 15). A tuner varies them.
struct CPUPackedKnobs {
  /// K block.
  int64_t kc = 256;
  /// Largest N block of a workgroup.
  int64_t nc = 256;
  /// Rows of A packed at a time, in MR rows.
  int64_t mcGroups = 16;
  /// Register tile: rows (0: 8 with 32 vector registers, 6 with 16) and
  /// columns in vectors.
  int64_t mr = 0, nrVectors = 2;
  /// Blocks are halved until there are this many workgroups.
  int64_t minWorkgroups = 128;
};

/// What the strategies know besides the kernel.
struct CPUStrategyOptions {
  CPUTargetAttr target;
  CPUPackedKnobs packed;
};

/// Asks the strategies in order; the last (serial) takes every kernel.
/// With `forced`, asks only its kind, with its parameters when it has
/// them: failure (an error at the kernel) when that strategy does not take
/// the kernel or the parameters do not fit.
FailureOr<StrategySelection>
selectCPUStrategy(func::FuncOp kernel, const CPUStrategyOptions &options,
                  const ForcedStrategy *forced = nullptr);

/// The strategies a tuner should time for `kernel`: the cost model's
/// choice first, then, for a packed matmul, the cost model's packed
/// strategy for each K block, N block and A block it considers.
SmallVector<StrategyAttr>
enumerateCPUStrategies(func::FuncOp kernel, const CPUStrategyOptions &options);

/// The contraction whose result `root` (an elementwise op, the last of a
/// matmul epilogue: tessel-form-dispatches{fuse-epilogues}) reads element
/// for element, directly or through other elementwise ops of the kernel;
/// null if there is none.
linalg::LinalgOp getEpilogueContraction(linalg::LinalgOp root);

/// Elements of `op`'s widest element type in a vector of `vectorBits`.
int64_t getVectorLanes(Operation *op, int64_t vectorBits);

} // namespace mlir::tessel

#endif
