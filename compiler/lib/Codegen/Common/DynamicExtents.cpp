//===- DynamicExtents.cpp - what a kernel knows of its dynamic extents -*- C++ -*-===//

#include "tessel/Codegen/Common/DynamicExtents.h"
#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::tessel;

/// The push constant that dimension `dim` of `shaped` was built from (see
/// pushConstantOfDim), or null.
static PushConstantOp pushConstantOpOfDim(Value shaped, unsigned dim) {
  auto type = dyn_cast<ShapedType>(shaped.getType());
  if (!type || !type.hasRank() || dim >= type.getRank() ||
      !type.isDynamicDim(dim))
    return {};
  auto fromSize = [](OpFoldResult size) {
    auto value = dyn_cast<Value>(size);
    return value ? value.getDefiningOp<PushConstantOp>() : PushConstantOp();
  };
  while (Operation *def = shaped.getDefiningOp()) {
    if (auto toTensor = dyn_cast<bufferization::ToTensorOp>(def))
      shaped = toTensor.getBuffer();
    else if (auto toBuffer = dyn_cast<bufferization::ToBufferOp>(def))
      shaped = toBuffer.getTensor();
    else if (auto memrefCast = dyn_cast<memref::CastOp>(def))
      shaped = memrefCast.getSource();
    else if (auto tensorCast = dyn_cast<tensor::CastOp>(def))
      shaped = tensorCast.getSource();
    else if (auto assume = dyn_cast<memref::AssumeAlignmentOp>(def))
      shaped = assume.getMemref();
    else if (auto view = dyn_cast<memref::ReinterpretCastOp>(def))
      return fromSize(view.getMixedSizes()[dim]);
    else if (auto empty = dyn_cast<tensor::EmptyOp>(def))
      return fromSize(empty.getMixedSizes()[dim]);
    else if (auto dps = dyn_cast<DestinationStyleOpInterface>(def))
      shaped = dps.getTiedOpOperand(llvm::cast<OpResult>(shaped))->get();
    else
      return {};
    // A cast may have made the dimension static.
    if (!llvm::cast<ShapedType>(shaped.getType()).isDynamicDim(dim))
      return {};
  }
  return {};
}

std::optional<int64_t> mlir::tessel::pushConstantOfDim(Value shaped,
                                                        unsigned dim) {
  PushConstantOp pc = pushConstantOpOfDim(shaped, dim);
  return pc ? std::optional<int64_t>(pc.getIndex()) : std::nullopt;
}

/// Dimension `dim` of `shaped`: its static size, else what the enclosing
/// kernel's i64 array attribute `name` holds for its push constant (when
/// positive), else `fallback`.
static int64_t sizeOrKernelFact(Value shaped, unsigned dim, StringRef name,
                                int64_t fallback) {
  auto type = cast<ShapedType>(shaped.getType());
  if (!type.isDynamicDim(dim))
    return type.getDimSize(dim);
  std::optional<int64_t> pc = pushConstantOfDim(shaped, dim);
  Region *region = shaped.getParentRegion();
  auto kernel = region ? region->getParentOfType<func::FuncOp>() : nullptr;
  auto facts = kernel ? kernel->getAttrOfType<DenseI64ArrayAttr>(name)
                      : DenseI64ArrayAttr();
  if (pc && facts && *pc < facts.size() && facts[*pc] > 0)
    return facts[*pc];
  return fallback;
}

int64_t mlir::tessel::knownDivisor(Value shaped, unsigned dim) {
  return sizeOrKernelFact(shaped, dim, kAssumedDivisorsAttr, 1);
}

int64_t mlir::tessel::assumedExtent(Value shaped, unsigned dim) {
  return sizeOrKernelFact(shaped, dim, kAssumedExtentsAttr,
                          kAssumedDynamicExtent);
}

/// An operand dimension that loop `loop` of `op` indexes directly, if any.
static std::optional<std::pair<Value, unsigned>>
operandDimOfLoop(linalg::LinalgOp op, unsigned loop) {
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<ShapedType>(operand.get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (std::optional<unsigned> dim =
            map.getResultPosition(getAffineDimExpr(loop, op.getContext())))
      return std::make_pair(operand.get(), *dim);
  }
  return std::nullopt;
}

std::optional<LoopExtent> mlir::tessel::loopExtent(ValueRange operands,
                                                   ArrayRef<AffineMap> maps,
                                                   unsigned loop,
                                                   int64_t range) {
  MLIRContext *ctx = maps.front().getContext();
  if (!ShapedType::isDynamic(range))
    return LoopExtent{IntegerAttr::get(IndexType::get(ctx), range),
                      getAffineConstantExpr(range, ctx)};
  for (auto [operand, map] : llvm::zip(operands, maps)) {
    if (!isa<ShapedType>(operand.getType()))
      continue;
    std::optional<unsigned> dim =
        map.getResultPosition(getAffineDimExpr(loop, ctx));
    if (!dim)
      continue;
    if (PushConstantOp pc = pushConstantOpOfDim(operand, *dim))
      return LoopExtent{pc.getResult(),
                        getAffineSymbolExpr(pc.getIndex(), ctx)};
  }
  return std::nullopt;
}

std::optional<LoopExtent> mlir::tessel::loopExtent(linalg::LinalgOp op,
                                                   unsigned loop) {
  return loopExtent(op->getOperands(), op.getIndexingMapsArray(), loop,
                    op.getStaticLoopRanges()[loop]);
}

SmallVector<int64_t> mlir::tessel::assumedLoopRanges(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [loop, range] : llvm::enumerate(ranges)) {
    if (!ShapedType::isDynamic(range))
      continue;
    auto at = operandDimOfLoop(op, loop);
    range = at ? assumedExtent(at->first, at->second) : kAssumedDynamicExtent;
  }
  return ranges;
}
