//===- AttentionKernel.h - what attention kernels share ---------*- C++ -*-===//
//
// The shape analysis and indexing shared by the targets' attention kernels
// (GPUFlashAttention, CPUFlashAttention): loop sizes by role, the layouts
// they need (rows contiguous along the head), binding indices at loop
// values, and the op a kernel computes.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_COMMON_ATTENTIONKERNEL_H
#define TESSEL_CODEGEN_COMMON_ATTENTIONKERNEL_H

#include "tessel/Codegen/Common/DynamicExtents.h"
#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir::tessel {

/// An attention op's loops by role and their sizes (ShapedType::kDynamic
/// for a dynamic M, K2 or batch loop; `batch` is then dynamic when any
/// batch loop is).
struct AttentionLoops {
  AttentionOp op;
  AttentionOp::Dims dims;
  /// Sizes of the batch loops, in `dims.batch` order.
  SmallVector<int64_t> batchShape;
  int64_t batch = 1, m = 0, k1 = 0, k2 = 0, n = 0;
};

/// The loops of `op`: one M, K1, K2 and N loop, static (with
/// `dynamicExtents`: M, K2 and the batch loops may be dynamic; the head
/// sizes K1 and N may not), none empty, fewer batch elements than 2^31; and
/// the layout the kernels read: the query's and key's last (contiguous)
/// index K1, the value's and output's N. Failure sets `why`.
FailureOr<AttentionLoops> getAttentionLoops(AttentionOp op, std::string &why,
                                            bool dynamicExtents = false);

/// The extents of an attention kernel's M, K2 and batch loops: sizes in
/// the kernel (constants or push constants) and, for the grid, M and the
/// product of the batch loops over the push constants. Fails when a
/// dynamic extent is not traced to a push constant.
struct AttentionExtents {
  LoopExtent m, k2;
  SmallVector<OpFoldResult> batchShape;
  AffineExpr batch;
};
FailureOr<AttentionExtents> getAttentionExtents(const AttentionLoops &loops);

/// The loop of `map`'s last (contiguous) result.
unsigned contiguousLoop(AffineMap map);

/// Indices into an operand read through `map` at the loop values (M `row`,
/// K2 `key`, K1 or N `col`, the batch loops `batchIds`).
SmallVector<Value> attentionIndices(const AttentionLoops &loops, AffineMap map,
                                    ArrayRef<Value> batchIds, Value row,
                                    Value key, Value col);

/// The tessel.attention a kernel computes (its only one), if any.
AttentionOp findAttentionRoot(func::FuncOp kernel);

/// Where an attention kernel reads and writes: the row-major bindings of
/// its operands (mask null when absent) and the store of its result.
struct AttentionBindings {
  Value q, k, v, mask, out;
  bufferization::MaterializeInDestinationOp store;
};

/// The bindings of `op`, or an error on it naming the operand that is not
/// read from (or the result not stored into) a row-major binding; `what`
/// names the kernel in the message.
FailureOr<AttentionBindings> getAttentionBindings(AttentionOp op,
                                                  StringRef what);

} // namespace mlir::tessel

#endif
