//===- WorkgroupCount.cpp - a kernel's workgroup count ---------*- C++ -*-===//

#include "tessel/Codegen/Common/WorkgroupCount.h"
#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// `v` as an affine expression over the push constants (symbols). On
/// failure `blocker` is the op the expression cannot go through.
FailureOr<AffineExpr> asExpr(OpFoldResult v, MLIRContext *ctx,
                             Operation *&blocker) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return getAffineConstantExpr(*c, ctx);
  Value value = cast<Value>(v);
  Operation *def = value.getDefiningOp();
  if (!def)
    return failure();
  blocker = def;
  if (auto pc = dyn_cast<PushConstantOp>(def))
    return getAffineSymbolExpr(pc.getIndex(), ctx);
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    AffineMap map = apply.getAffineMap();
    SmallVector<AffineExpr> dims, syms;
    for (auto [i, operand] : llvm::enumerate(apply.getMapOperands())) {
      FailureOr<AffineExpr> e = asExpr(operand, ctx, blocker);
      if (failed(e))
        return failure();
      (i < map.getNumDims() ? dims : syms).push_back(*e);
    }
    return map.getResult(0).replaceDimsAndSymbols(dims, syms);
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return asExpr(def->getOperand(0), ctx, blocker);
  // An extent of a binding: the size its view was built with
  // (tessel-materialize-kernel-abi: a push constant).
  if (isa<memref::DimOp, tensor::DimOp>(def)) {
    std::optional<int64_t> index = getConstantIntValue(def->getOperand(1));
    Value source = def->getOperand(0);
    while (index) {
      Operation *producer = source.getDefiningOp();
      if (auto toTensor = dyn_cast_or_null<bufferization::ToTensorOp>(producer))
        source = toTensor.getBuffer();
      else if (auto cast = dyn_cast_or_null<memref::CastOp>(producer))
        source = cast.getSource();
      else if (auto view =
                   dyn_cast_or_null<memref::ReinterpretCastOp>(producer))
        return asExpr(view.getMixedSizes()[*index], ctx, blocker);
      else
        break;
    }
    return failure();
  }
  if (def->getNumOperands() != 2)
    return failure();
  FailureOr<AffineExpr> a = asExpr(def->getOperand(0), ctx, blocker);
  if (failed(a))
    return failure();
  FailureOr<AffineExpr> b = asExpr(def->getOperand(1), ctx, blocker);
  if (failed(a) || failed(b))
    return failure();
  if (isa<arith::AddIOp>(def)) return *a + *b;
  if (isa<arith::SubIOp>(def)) return *a - *b;
  if (isa<arith::MulIOp>(def)) return *a * *b;
  if (isa<arith::CeilDivSIOp>(def)) return a->ceilDiv(*b);
  if (isa<arith::FloorDivSIOp>(def)) return a->floorDiv(*b);
  blocker = def;
  return failure();
}

} // namespace

int64_t mlir::tessel::pushConstantCount(Operation *kernel) {
  auto attr = kernel->getAttrOfType<IntegerAttr>(kPushConstantCountAttr);
  return attr ? attr.getInt() : 0;
}

FailureOr<AffineExpr> mlir::tessel::tripCountExpr(Operation *loop,
                                                  OpFoldResult lb,
                                                  OpFoldResult ub,
                                                  OpFoldResult step) {
  MLIRContext *ctx = loop->getContext();
  Operation *blocker = nullptr;
  FailureOr<AffineExpr> l = asExpr(lb, ctx, blocker);
  FailureOr<AffineExpr> u =
      succeeded(l) ? asExpr(ub, ctx, blocker) : FailureOr<AffineExpr>();
  FailureOr<AffineExpr> s =
      succeeded(u) ? asExpr(step, ctx, blocker) : FailureOr<AffineExpr>();
  if (succeeded(s))
    return (*u - *l).ceilDiv(*s);
  InFlightDiagnostic diag = loop->emitError(
      "the workgroup count depends on dynamic extents through ");
  if (blocker)
    diag << "'" << blocker->getName() << "'";
  else
    diag << "a value";
  diag << ", which a workgroup-count program cannot express (it takes "
          "affine functions of the kernel's dynamic dimensions)";
  return failure();
}

void mlir::tessel::setWorkgroupCount(func::FuncOp kernel,
                                     ArrayRef<AffineExpr> counts) {
  MLIRContext *ctx = kernel.getContext();
  SmallVector<int64_t> fixed;
  for (AffineExpr e : counts)
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      fixed.push_back(c.getValue());
  if (fixed.size() == counts.size()) {
    kernel->setAttr(kWorkgroupCountAttr, DenseI64ArrayAttr::get(ctx, fixed));
    return;
  }
  kernel->setAttr(kWorkgroupCountAttr, DenseI64ArrayAttr::get(ctx, {1, 1, 1}));
  AffineMap map = AffineMap::get(0, pushConstantCount(kernel), counts, ctx);
  kernel->setAttr(kWorkgroupCountMapAttr, AffineMapAttr::get(map));
}
