//===- CPUKernelConfig.h - per-kernel CPU strategy -------------*- C++ -*-===//
//
// The one place that decides how a CPU kernel is tiled: from the root op's
// kind, its loop ranges and the target's vector width. Passes apply the
// decision; they never make one.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_CPU_CPUKERNELCONFIG_H
#define TESSEL_CODEGEN_CPU_CPUKERNELCONFIG_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::tessel {

/// Marks a workgroup's contraction for tessel-cpu-packed-matmul:
/// array<i64: MR, NR, KC, MC, NC, lanes> (register tile, K block, rows of A
/// packed at a time, largest N block, elements per vector).
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
};

/// Tiles of a contraction computed whole inside each workgroup of a matmul
/// epilogue kernel, per loop of the contraction (see CPUKernelConfig's
/// fields of the same names).
struct CPUContractionTiles {
  SmallVector<int64_t> cache, vector, reduction;
};

struct CPUKernelConfig {
  /// The op whose tiles define the workgroups; null for a serial kernel,
  /// which runs as one workgroup without tiling (e.g. insert_slice chains).
  linalg::LinalgOp root;
  /// A primitive op (scan, sort, ...) split into `workgroupTiles` only
  /// (PrimitiveTiling.h); null otherwise.
  Operation *primitive = nullptr;
  /// Why the kernel is serial, for -debug and lit tests.
  std::string serialReason;
  /// Per loop of `root`: workgroup tile (0 = whole loop in each workgroup).
  SmallVector<int64_t> workgroupTiles;
  /// Per loop: cache block of the reduction loops inside a workgroup tile,
  /// walked outside the register tiles (0 = whole loop).
  SmallVector<int64_t> cacheTiles;
  /// Per loop: register tile of the parallel loops (0 for reductions).
  SmallVector<int64_t> vectorTiles;
  /// Per loop: tile of the reduction loops inside a register tile.
  SmallVector<int64_t> reductionTiles;
  /// Set when the contraction runs as packed panels: only `workgroupTiles`
  /// is applied on tensors, then the workgroup's op is marked with
  /// kCPUPackedMatmulAttr for tessel-cpu-packed-matmul.
  std::optional<CPUPackedMatmulParams> packed;
  /// The contraction whose elementwise epilogue is `root` (a fuse-epilogues
  /// dispatch), or null. Each workgroup computes its C block whole, packed
  /// (`packed`) or with `contractionTiles`, then the epilogue on it with
  /// `vectorTiles` (the root's loops).
  linalg::LinalgOp epilogueOf;
  std::optional<CPUContractionTiles> contractionTiles;
  /// The root ends a fused row chain (softmax, layernorm): register tiles
  /// are whole rows, and the row reductions fused into them are split into
  /// `rowReductionLanes` partial sums along the row.
  bool rowChain = false;
  int64_t rowReductionLanes = 0;
  /// Why a contraction did not get the packed strategy (for remarks/tests).
  std::string packedReason;
};

/// Chooses the strategy of kernel `kernel` for vectors of `vectorBits` bits.
CPUKernelConfig getCPUKernelConfig(func::FuncOp kernel, int64_t vectorBits);

} // namespace mlir::tessel

#endif
