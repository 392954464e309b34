//===- CloneGenericBody.cpp - a linalg body at one point -------*- C++ -*-===//
//
// See CloneGenericBody.h.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/Common/CloneGenericBody.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;

SmallVector<Value> mlir::tessel::cloneGenericBody(OpBuilder &b, Block &body,
                                                  IRMapping &mapping,
                                                  ArrayRef<Value> indices) {
  for (Operation &op : body.without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(op)) {
      mapping.map(index.getResult(), indices[index.getDim()]);
      continue;
    }
    b.clone(op, mapping);
  }
  return llvm::to_vector(
      llvm::map_range(body.getTerminator()->getOperands(),
                      [&](Value v) { return mapping.lookupOrDefault(v); }));
}
