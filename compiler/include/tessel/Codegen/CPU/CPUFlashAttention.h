//===- CPUFlashAttention.h - tessel.attention as one cpu loop nest -*- C++ -*-===//
//
// The cpu strategy for tessel.attention (CPUFlashAttention.cpp): one
// workgroup per batch element, query rows in blocks, keys a vector at a
// time with an online softmax. The same check decides, in the input
// pipeline, whether a module whose targets include the cpu keeps the op
// whole (tessel-decompose-attention{keep-cpu}).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_CPU_CPUFLASHATTENTION_H
#define TESSEL_CODEGEN_CPU_CPUFLASHATTENTION_H

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include <string>

namespace mlir::tessel {

/// Whether `op` fits the cpu loop nest: static shapes; float operands; the
/// query's and key's contiguous (last) index K1, the value's and the
/// output's N, a multiple of 16; a region that yields its score unchanged;
/// K^T of one batch element (K1 x K2 f32) within 256 KiB of stack. Failure
/// sets `why`.
bool canUseCPUFlashAttention(AttentionOp op, std::string &why);

/// Replaces `op` (the root of its kernel) by the loop nest on the binding
/// memrefs (a workgroup scf.forall over the batch), vectors of
/// `vectorBits`. Fails with an error on `op` when an operand is not read
/// from a binding or the result is not stored into one.
LogicalResult emitCPUFlashAttention(AttentionOp op, int64_t vectorBits);

} // namespace mlir::tessel

#endif
