//===- GPUKernelConfig.h - per-kernel GPU strategy -------------*- C++ -*-===//
//
// The one place that decides how a GPU kernel is split into blocks and
// threads, from the root op's kind, its loop ranges and element width.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_GPU_GPUKERNELCONFIG_H
#define TESSEL_CODEGEN_GPU_GPUKERNELCONFIG_H

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::tessel {

struct GPUKernelConfig {
  /// The op whose tiles define blocks and threads; null for a kernel that
  /// runs as one thread of one block.
  linalg::LinalgOp root;
  /// A primitive op (scan, sort, ...) tiled like `root` with blockTiles and
  /// threadTiles (PrimitiveTiling.h) instead; null otherwise.
  Operation *primitive = nullptr;
  /// Run `primitive`, a tessel.scan, as a grid scan (GridScan.h).
  bool gridScan = false;
  /// Run `primitive`, a tessel.scatter, as a grid scatter (GridScatter.h).
  bool gridScatter = false;
  /// Run `primitive`, a tessel.gather, as a grid gather (GridGather.h).
  bool gridGather = false;
  /// Run `primitive`, a tessel.sort with radix workspaces, as a grid radix
  /// sort (GridRadixSort.h).
  bool gridRadixSort = false;
  /// Run `primitive`, a tessel.topk, as a warp per row (WarpTopk.h).
  bool warpTopk = false;
  std::string serialReason;
  /// Reduce `root` with one warp per output element (GPUWarpReduction.h)
  /// instead of tiling it.
  bool warpReduction = false;
  /// Compute `root`, an f32 matmul, through shared memory
  /// (GPUSharedMemoryMatmul.h) instead of tiling it.
  bool sharedMemoryMatmul = false;
  /// Compute `root`, an f16/bf16 contraction, on tensor cores
  /// (GPUTensorCoreMatmul.h).
  bool tensorCoreMatmul = false;
  /// Compute `root` with wgmma and TMA on sm_90a (GPUWgmmaMatmul.h).
  bool wgmmaMatmul = false;
  /// Run `attention` as one flash-attention kernel (GPUFlashAttention.h).
  AttentionOp attention;
  /// The strategy chosen and, for a contraction that did not get tensor
  /// cores, why (tessel-gpu-tile-and-vectorize{print-strategy}).
  std::string strategy;
  /// Run a fused chain of row ops with a warp or block per row
  /// (GPURowFusion.h).
  bool rowFusion = false;
  /// Per loop of `root`: block tile (0 = whole loop in each block).
  SmallVector<int64_t> blockTiles;
  /// Per loop: tile of one thread inside a block tile (0 = not split).
  SmallVector<int64_t> threadTiles;
  /// Per loop: sequential step of the reduction loops inside a thread.
  SmallVector<int64_t> reductionTiles;
};

/// Largest per-thread tile (in elements) that gets vectorized.
inline constexpr int64_t kGPUMaxVectorElements = 64;

struct GPUStrategyOptions {
  /// Tensor cores (mma.sync) may be used: every target architecture is
  /// sm_80 or newer. Otherwise `noTensorCoresReason` says why not.
  bool tensorCores = true;
  std::string noTensorCoresReason;
  /// f32 contractions may run on TF32 tensor cores (--cuda-tf32).
  bool tf32 = false;
  /// Every target architecture is sm_90a: wgmma + TMA may be used, for
  /// contractions with at least `wgmmaMinTiles` 128x128 output tiles.
  bool wgmma = false;
  int64_t wgmmaMinTiles = 66;
};

/// Chooses the strategy of `kernel`.
GPUKernelConfig getGPUKernelConfig(func::FuncOp kernel,
                                   const GPUStrategyOptions &options = {});

} // namespace mlir::tessel

#endif
