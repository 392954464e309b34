//===- GPUTensorCoreMatmul.h - matmuls on tensor cores (sm_80+) -*- C++ -*-===//

#ifndef TESSEL_CODEGEN_GPU_GPUTENSORCOREMATMUL_H
#define TESSEL_CODEGEN_GPU_GPUTENSORCOREMATMUL_H

#include "tessel/Codegen/GPU/GPUMatmulPlan.h"
#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir::tessel {

/// The cost model's tiles when `root` (a kernel's contraction) runs on
/// tensor cores with mma.sync on `target`: a matmul or batch matmul (one M,
/// N and K loop, at most one batch loop anywhere) with static shapes, A and
/// B read from bindings, its result (after fused elementwise epilogue ops)
/// stored into a binding, of
/// - f16 or bf16 operands (f32 accumulators; f16 ones for an f16 result),
///   any of the layouts NN, NT, TN, TT;
/// - s8 or u8 operands with an i32 result, both k-contiguous (A[m,k],
///   B[n,k]: ldmatrix cannot transpose 8-bit values);
/// - with `allowTF32`, f32 operands and result, on TF32 tensor cores;
/// or a linalg.conv_2d_nhwc_hwcf of those types whose input channels fill
/// 16-byte chunks, as an implicit GEMM (M = N*OH*OW, N = F, K = KH*KW*C).
/// If not, `why` says what disqualifies it.
FailureOr<MatmulTiles> chooseMmaSyncTiles(Operation *root,
                                          CUDATargetAttr target,
                                          bool allowTF32, std::string &why);

/// Whether `root` runs with mma.sync on `target` with `tiles` (given by
/// the user or a tuner); if not, `why` says what does not fit.
LogicalResult checkMmaSyncTiles(Operation *root, const MatmulTiles &tiles,
                                CUDATargetAttr target, bool allowTF32,
                                std::string &why);

/// A short description of the kernel (types, block tile, stages), for
/// --tessel-print-strategy.
std::string describeTensorCoreMatmul(Operation *root,
                                     const MatmulTiles &tiles);

/// Replaces the computation of `kernel` by a tensor-core matmul with
/// `tiles` (checked by checkMmaSyncTiles): cp.async copies of A and B
/// tiles into a swizzled shared-memory ring, ldmatrix into registers,
/// mma.sync (m16n8k16, m16n8k32 for i8, m16n8k8 for tf32) into f32, f16 or
/// i32 accumulators, then the epilogue and masked stores. Sets the grid
/// and block size (and the dynamic shared memory size when the ring needs
/// more than 48 KiB). The tensor ops left behind are dead.
LogicalResult emitTensorCoreMatmul(func::FuncOp kernel, Operation *root,
                                   const MatmulTiles &tiles);

} // namespace mlir::tessel

#endif
