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

/// `v` as an affine expression over the push constants (symbols).
FailureOr<AffineExpr> asExpr(OpFoldResult v, MLIRContext *ctx) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return getAffineConstantExpr(*c, ctx);
  Value value = cast<Value>(v);
  Operation *def = value.getDefiningOp();
  if (!def)
    return failure();
  if (auto pc = dyn_cast<PushConstantOp>(def))
    return getAffineSymbolExpr(pc.getIndex(), ctx);
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    AffineMap map = apply.getAffineMap();
    SmallVector<AffineExpr> dims, syms;
    for (auto [i, operand] : llvm::enumerate(apply.getMapOperands())) {
      FailureOr<AffineExpr> e = asExpr(operand, ctx);
      if (failed(e))
        return failure();
      (i < map.getNumDims() ? dims : syms).push_back(*e);
    }
    return map.getResult(0).replaceDimsAndSymbols(dims, syms);
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return asExpr(def->getOperand(0), ctx);
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
        return asExpr(view.getMixedSizes()[*index], ctx);
      else
        break;
    }
    return failure();
  }
  if (def->getNumOperands() != 2)
    return failure();
  FailureOr<AffineExpr> a = asExpr(def->getOperand(0), ctx);
  FailureOr<AffineExpr> b = asExpr(def->getOperand(1), ctx);
  if (failed(a) || failed(b))
    return failure();
  if (isa<arith::AddIOp>(def)) return *a + *b;
  if (isa<arith::SubIOp>(def)) return *a - *b;
  if (isa<arith::MulIOp>(def)) return *a * *b;
  if (isa<arith::CeilDivSIOp>(def)) return a->ceilDiv(*b);
  if (isa<arith::FloorDivSIOp>(def)) return a->floorDiv(*b);
  return failure();
}

} // namespace

int64_t mlir::tessel::pushConstantCount(Operation *kernel) {
  auto attr = kernel->getAttrOfType<IntegerAttr>(kPushConstantCountAttr);
  return attr ? attr.getInt() : 0;
}

FailureOr<AffineExpr> mlir::tessel::tripCountExpr(OpFoldResult lb,
                                                  OpFoldResult ub,
                                                  OpFoldResult step) {
  MLIRContext *ctx = isa<Value>(ub) ? cast<Value>(ub).getContext()
                                    : cast<Attribute>(ub).getContext();
  FailureOr<AffineExpr> l = asExpr(lb, ctx), u = asExpr(ub, ctx),
                        s = asExpr(step, ctx);
  if (failed(l) || failed(u) || failed(s))
    return failure();
  return (*u - *l).ceilDiv(*s);
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
