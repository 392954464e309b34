//===- CloneGenericBody.h - a linalg body at one point ---------*- C++ -*-===//
//
// Strategies that compute a linalg op element by element in their own
// loops (warp reduction, matmul epilogues, fused scans) clone its body at
// each point: this is the one place that does it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_COMMON_CLONEGENERICBODY_H
#define TESSEL_CODEGEN_COMMON_CLONEGENERICBODY_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tessel {

/// Clones the ops of `body` (a linalg op's block, whose arguments the
/// caller mapped in `mapping`) at the insertion point, with `linalg.index
/// d` read as `indices[d]`. Returns the values the body yields.
SmallVector<Value> cloneGenericBody(OpBuilder &b, Block &body,
                                    IRMapping &mapping,
                                    ArrayRef<Value> indices);

} // namespace mlir::tessel

#endif
