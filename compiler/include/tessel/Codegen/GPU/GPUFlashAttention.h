//===- GPUFlashAttention.h - tessel.attention as one kernel -----*- C++ -*-===//
//
// The GPU strategy for tessel.attention: a flash-attention kernel on
// tensor cores (mma.sync), see GPUFlashAttention.cpp. The same check
// decides, in the input pipeline, which attention ops stay whole
// (tessel-decompose-attention{keep-for-targets}) and, in the kernel, whether the
// strategy applies.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_GPU_GPUFLASHATTENTION_H
#define TESSEL_CODEGEN_GPU_GPUFLASHATTENTION_H

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir::tessel {

/// Keys per step of the flash-attention kernel: a key length that is a
/// multiple of it needs no key masks.
inline constexpr int64_t kFlashAttentionKeyTile = 64;

/// Whether `op` fits the flash-attention kernel: static head sizes (M, K2
/// and the batch loops may be dynamic); f16 or bf16
/// query, key and value; head sizes (K1, N) multiples of 16 up to 128;
/// the query's and key's contiguous (last) index K1, the value's and the
/// output's N; a float output. Failure sets `why`.
bool canUseFlashAttention(AttentionOp op, std::string &why);

/// The kernel `kernel` would get for `op`, for --print-strategy.
std::string describeFlashAttention(AttentionOp op);

/// Replaces the computation of `kernel` (its attention root) by the flash-
/// attention kernel written on the binding memrefs, and sets its grid and
/// block. Fails with an error on `op` when an operand is not read from a
/// binding or the result is not stored into one.
LogicalResult emitFlashAttention(func::FuncOp kernel, AttentionOp op);

} // namespace mlir::tessel

#endif
