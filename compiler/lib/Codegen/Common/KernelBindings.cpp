//===- KernelBindings.cpp - a kernel's bindings, for hand-built code -------===//

#include "tessel/Codegen/Common/KernelBindings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::tessel;

Value mlir::tessel::bindingMemRef(Value tensor) {
  auto toTensor = tensor.getDefiningOp<bufferization::ToTensorOp>();
  return toTensor ? toTensor.getBuffer() : Value();
}

bufferization::MaterializeInDestinationOp
mlir::tessel::bindingStore(Value result) {
  if (!result.hasOneUse())
    return {};
  return dyn_cast<bufferization::MaterializeInDestinationOp>(
      *result.getUsers().begin());
}

SmallVector<Value> mlir::tessel::delinearizeRow(
    OpBuilder &b, Location loc, Value row, ArrayRef<OpFoldResult> rowShape) {
  // The outermost index is what remains: `row` is inside the shape.
  SmallVector<Value> indices(rowShape.size());
  Value rest = row;
  for (int d = static_cast<int>(rowShape.size()) - 1; d > 0; --d) {
    Value size = getValueOrCreateConstantIndexOp(b, loc, rowShape[d]);
    indices[d] = arith::RemUIOp::create(b, loc, rest, size);
    rest = arith::DivUIOp::create(b, loc, rest, size);
  }
  if (!indices.empty())
    indices[0] = rest;
  return indices;
}

SmallVector<Value> mlir::tessel::delinearizeRow(OpBuilder &b, Location loc,
                                                Value row,
                                                ArrayRef<int64_t> rowShape) {
  return delinearizeRow(b, loc, row, getAsIndexOpFoldResult(b.getContext(),
                                                            rowShape));
}
