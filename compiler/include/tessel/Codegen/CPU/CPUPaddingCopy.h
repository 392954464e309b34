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
#include "mlir/IR/PatternMatch.h"

namespace mlir::tessel {

/// Rewrites `kernel` (on tensors, after tessel-materialize-kernel-abi) into
/// a `tessel.workgroups` scf.forall of padding copies if its one stored
/// value is a static, unit-stride insert_slice of a kernel input into a
/// fill of tensor.empty; fails (changing nothing) otherwise.
LogicalResult tilePaddingCopy(RewriterBase &rewriter, func::FuncOp kernel);

} // namespace mlir::tessel

#endif
