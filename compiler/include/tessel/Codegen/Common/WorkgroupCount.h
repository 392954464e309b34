//===- WorkgroupCount.h - a kernel's workgroup count -----------*- C++ -*-===//
//
// A kernel's workgroup count is static (kWorkgroupCountAttr) or, when its
// extents are dynamic, an affine map from its push constants (symbols) to
// the x, y and z counts (kWorkgroupCountMapAttr), which the targets turn
// into the schema's WorkgroupCountProgram.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_COMMON_WORKGROUPCOUNT_H
#define TESSEL_CODEGEN_COMMON_WORKGROUPCOUNT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::tessel {

/// Push constants of `kernel` (kPushConstantCountAttr; 0 when absent).
int64_t pushConstantCount(Operation *kernel);

/// The workgroup count of a loop from `lb` to `ub` by `step`:
/// ceildiv(ub - lb, step), as an affine expression over the push constants
/// of the kernel (symbol k: tessel.push_constant k) or a constant. Fails,
/// with an error at `loop` naming the op in the way, when a bound is not an
/// affine function of the push constants.
FailureOr<AffineExpr> tripCountExpr(Operation *loop, OpFoldResult lb,
                                    OpFoldResult ub, OpFoldResult step);

/// Records `counts` (x, y, z) on `kernel`: kWorkgroupCountAttr when all are
/// constants, else kWorkgroupCountMapAttr (an affine map over the push
/// constants) and kWorkgroupCountAttr {1, 1, 1}.
void setWorkgroupCount(func::FuncOp kernel, ArrayRef<AffineExpr> counts);

} // namespace mlir::tessel

#endif
