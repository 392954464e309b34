//===- InsertShapeChecks.cpp - tessel-insert-shape-checks ------*- C++ -*-===//
//
// Kernels trust that the dimensions one loop indexes agree (an add's two
// operands, a matmul's K). With static shapes the verifier proved it; with
// dynamic ones the host checks it before the op runs (tessel.assert, the
// schema's Assert), so that a wrong input is an error naming the argument
// and the dimension, never an out-of-bounds read.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_INSERTSHAPECHECKS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// "argument 1" or "operand 2 of 'linalg.matmul'".
std::string describe(Value v, Operation *user, unsigned operandNumber) {
  if (auto arg = dyn_cast<BlockArgument>(v);
      arg && isa<func::FuncOp>(arg.getOwner()->getParentOp()))
    return "argument " + std::to_string(arg.getArgNumber());
  return "operand " + std::to_string(operandNumber) + " of '" +
         user->getName().getStringRef().str() + "'";
}

/// An operand dimension a loop indexes: (operand number, dimension).
using OperandDim = std::pair<unsigned, int64_t>;

void checkOp(linalg::LinalgOp op,
             DenseSet<std::tuple<Value, int64_t, Value, int64_t>> &checked) {
  SmallVector<SmallVector<OperandDim>> byLoop(op.getNumLoops());
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!type)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [d, expr] : llvm::enumerate(map.getResults()))
      if (auto loop = dyn_cast<AffineDimExpr>(expr))
        byLoop[loop.getPosition()].push_back(
            {operand.getOperandNumber(), static_cast<int64_t>(d)});
  }
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto sizeOf = [&](OperandDim od) {
    return cast<RankedTensorType>(op->getOperand(od.first).getType())
        .getDimSize(od.second);
  };
  for (ArrayRef<OperandDim> dims : byLoop) {
    if (dims.size() < 2)
      continue;
    // The reference: a static extent if there is one.
    OperandDim ref = dims.front();
    for (OperandDim od : dims)
      if (!ShapedType::isDynamic(sizeOf(od)))
        ref = od;
    Value refValue = op->getOperand(ref.first);
    for (OperandDim od : dims) {
      Value value = op->getOperand(od.first);
      if (od == ref || (!ShapedType::isDynamic(sizeOf(od)) &&
                        !ShapedType::isDynamic(sizeOf(ref))))
        continue;
      if ((value == refValue && od.second == ref.second) ||
          !checked.insert({value, od.second, refValue, ref.second}).second)
        continue;
      Value have = tensor::DimOp::create(b, loc, value, od.second);
      Value want = tensor::DimOp::create(b, loc, refValue, ref.second);
      Value eq = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       have, want);
      std::string message =
          describe(value, op, od.first) + " dimension " +
          std::to_string(od.second) + " is {} but " +
          describe(refValue, op, ref.first) + " dimension " +
          std::to_string(ref.second) + " is {} (they must be equal)";
      AssertOp::create(b, loc, eq, message, ValueRange{have, want});
    }
  }
}

} // namespace

namespace mlir::tessel {
namespace {
struct InsertShapeChecksPass
    : impl::InsertShapeChecksBase<InsertShapeChecksPass> {
  void runOnOperation() override {
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (!fn.isPublic())
        continue;
      DenseSet<std::tuple<Value, int64_t, Value, int64_t>> checked;
      fn.walk([&](linalg::LinalgOp op) {
        if (op.hasPureTensorSemantics() && op.hasDynamicShape())
          checkOp(op, checked);
      });
    }
  }
};

} // namespace
} // namespace mlir::tessel
