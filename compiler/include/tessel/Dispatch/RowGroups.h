//===- RowGroups.h - row-wise ops that may share one dispatch --*- C++ -*-===//
//
// A "row op" walks a row space: rows P (leading parallel loops) times a row
// of length N (the last loop). Softmax and layernorm are chains of such
// ops: reductions along the row ([P, N] -> [P]), elementwise ops on the
// rows ([P, N] -> [P, N], also reading per-row values [P], per-column
// values [N] and scalars), and per-row scalar ops ([P] -> [P]). When a
// row fits a target's registers, one kernel can run the whole chain with
// each row read from memory once (tessel-form-dispatches{fuse-rows},
// GPURowFusion.cpp). This header is the one definition of what may be
// grouped, shared by dispatch formation and codegen.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DISPATCH_ROWGROUPS_H
#define TESSEL_DISPATCH_ROWGROUPS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::tessel {

enum class RowOpKind { Reduction, Elementwise, RowScalar };

/// Rows P (static or dynamic extents) and row length N (static). Ops of a
/// group are tied by the values they pass, so two dynamic row extents of
/// a group are the same host value.
struct RowSpace {
  SmallVector<int64_t> rows;
  int64_t length = 0;
  bool operator==(const RowSpace &o) const {
    return rows == o.rows && length == o.length;
  }
};

/// Longest row that a fused row kernel holds (in registers on the GPU:
/// 4096 f32 are 128 per lane of a warp).
inline constexpr int64_t kMaxFusedRowLength = 4096;

/// The kind of `op` as a row op of `space`, if it is one: f32 operands,
/// a static row length, a body of pure arith/math ops (no linalg.index), input
/// maps that are the identity, (P), (N) or (); a reduction reduces only the
/// last loop with one supported combiner applied once to the accumulator.
std::optional<RowOpKind> classifyRowOp(linalg::GenericOp op,
                                       const RowSpace &space);

/// Whether `op` reads `operand` (a value of the chain: a row-wide [P, N] or
/// per-row [P] tensor) at the row it computes, i.e. with the indexing map
/// (d0, ..., d(rank-1)). A chain value read along another dimension (a
/// per-row value broadcast along the row dimension, say) needs other rows
/// and cannot be fused.
bool readsOwnRow(linalg::GenericOp op, OpOperand *operand);

/// The space `op` starts when it is a row reduction whose row fits a
/// fused kernel (N <= kMaxFusedRowLength).
std::optional<RowSpace> rowReductionSpace(linalg::GenericOp op);

/// For a row reduction: the combiner op in its body (its result is
/// yielded, one operand is the accumulator).
Operation *rowReductionCombiner(linalg::GenericOp op);

} // namespace mlir::tessel

#endif
