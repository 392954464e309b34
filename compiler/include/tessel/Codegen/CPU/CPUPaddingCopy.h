//===- CPUPaddingCopy.h - parallel padding copies on the CPU ---*- C++ -*-===//
//
// A kernel that stores `tensor.insert_slice %src into (linalg.fill %v)`
// (what a tensor.pad with a constant becomes: a convolution's padded input)
// has no linalg root to tile and would run as one workgroup. This strategy
// splits it into workgroups along its outer dimensions instead: each fills
// its block of the result and copies the part of the source that lands in
// it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_CPU_CPUPADDINGCOPY_H
#define TESSEL_CODEGEN_CPU_CPUPADDINGCOPY_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tessel {

/// The insert_slice that `kernel` (on tensors, after
/// tessel-materialize-kernel-abi) stores if its one stored value is a
/// static, unit-stride insert_slice of a kernel input into a fill of
/// tensor.empty; null otherwise.
tensor::InsertSliceOp findPaddingCopy(func::FuncOp kernel);

/// The cost model's workgroups: 1 (one index per workgroup) on the outer
/// dimensions until there are at least 64 workgroups, 0 (whole) on the
/// rest; none if there would be fewer than 2.
std::optional<SmallVector<int64_t>>
choosePaddingCopyTiles(tensor::InsertSliceOp insert);

/// Rewrites the padding copy `insert` into a `tessel.workgroups` scf.forall
/// with one workgroup per index of each dimension whose `workgroup` entry
/// is 1 (at most three; 0: whole); fails, changing nothing, on other tiles.
LogicalResult tilePaddingCopy(RewriterBase &rewriter,
                              tensor::InsertSliceOp insert,
                              ArrayRef<int64_t> workgroup);

} // namespace mlir::tessel

#endif
