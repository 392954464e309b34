//===- RowGroups.cpp - row-wise ops that may share one dispatch -*- C++ -*-===//

#include "tessel/Dispatch/RowGroups.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

bool isF32Shaped(Type t) {
  auto shaped = dyn_cast<RankedTensorType>(t);
  return shaped && shaped.getElementType().isF32();
}

/// f32, or a 16-bit float an elementwise op of the chain reads or writes
/// (a row loaded as f16 and extended, a result rounded to f16); reductions
/// and per-row values stay f32.
bool isFloatShaped(Type t) {
  auto shaped = dyn_cast<RankedTensorType>(t);
  return shaped &&
         isa<Float32Type, Float16Type, BFloat16Type>(shaped.getElementType());
}

/// Maps of the loops 0..p-1 (rows), loop p (the row) or none.
AffineMap rowsMap(unsigned n, unsigned p, MLIRContext *ctx) {
  SmallVector<AffineExpr> dims;
  for (unsigned d = 0; d < p; ++d)
    dims.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(n, 0, dims, ctx);
}

bool isSupportedCombiner(Operation *op) {
  return isa<arith::AddFOp, arith::MulFOp, arith::MaxNumFOp, arith::MinNumFOp,
             arith::MaximumFOp, arith::MinimumFOp>(op);
}

} // namespace

Operation *mlir::tessel::rowReductionCombiner(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  BlockArgument acc = body.getArguments().back();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Operation *combiner = yield.getOperand(0).getDefiningOp();
  if (!combiner || combiner->getBlock() != &body || !acc.hasOneUse() ||
      *acc.getUsers().begin() != combiner || combiner->getNumOperands() != 2 ||
      !isSupportedCombiner(combiner))
    return nullptr;
  return combiner;
}

std::optional<RowOpKind> mlir::tessel::classifyRowOp(linalg::GenericOp op,
                                                     const RowSpace &space) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1)
    return std::nullopt;
  for (Value v : op->getOperands())
    if (!isFloatShaped(v.getType()))
      return std::nullopt;
  // Body: pure arith/math ops only, cloned once per element.
  for (Operation &inner : op.getRegion().front().without_terminator())
    if (!isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()) ||
        inner.getNumRegions() != 0 || !isPure(&inner))
      return std::nullopt;

  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  unsigned n = ranges.size(), p = space.rows.size();
  MLIRContext *ctx = op.getContext();
  std::optional<RowOpKind> kind;
  SmallVector<int64_t> withRow(space.rows);
  withRow.push_back(space.length);
  if (ranges == space.rows) {
    if (llvm::any_of(iters, [](utils::IteratorType t) {
          return t != utils::IteratorType::parallel;
        }))
      return std::nullopt;
    kind = RowOpKind::RowScalar;
  } else if (ranges == withRow) {
    for (unsigned d = 0; d < p; ++d)
      if (iters[d] != utils::IteratorType::parallel)
        return std::nullopt;
    kind = iters[p] == utils::IteratorType::reduction ? RowOpKind::Reduction
                                                      : RowOpKind::Elementwise;
  } else {
    return std::nullopt;
  }

  // Inputs: identity, rows, the row loop alone, or nothing.
  AffineMap identity = AffineMap::getMultiDimIdentityMap(n, ctx);
  AffineMap rows = rowsMap(n, p, ctx);
  AffineMap column =
      n > p ? AffineMap::get(n, 0, getAffineDimExpr(p, ctx)) : AffineMap();
  AffineMap none = AffineMap::get(n, 0, ctx);
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(in);
    if (map != identity && map != rows && map != none &&
        (!column || map != column))
      return std::nullopt;
  }
  AffineMap out = op.getIndexingMapsArray().back();
  Block &body = op.getRegion().front();
  if (*kind != RowOpKind::Elementwise && !isF32Shaped(op->getResult(0).getType()))
    return std::nullopt;
  if (*kind == RowOpKind::Reduction) {
    if (out != rows || !rowReductionCombiner(op))
      return std::nullopt;
  } else {
    // The output is written, never read.
    if (out != identity || !body.getArguments().back().use_empty())
      return std::nullopt;
  }
  return kind;
}

bool mlir::tessel::readsOwnRow(linalg::GenericOp op, OpOperand *operand) {
  AffineMap map = op.getMatchingIndexingMap(operand);
  for (auto [i, e] : llvm::enumerate(map.getResults())) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d || d.getPosition() != i)
      return false;
  }
  return true;
}

std::optional<RowSpace> mlir::tessel::rowReductionSpace(linalg::GenericOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.size() < 2 || ShapedType::isDynamic(ranges.back()))
    return std::nullopt;
  RowSpace space;
  space.rows.assign(ranges.begin(), ranges.end() - 1);
  space.length = ranges.back();
  if (space.length > kMaxFusedRowLength ||
      classifyRowOp(op, space) != RowOpKind::Reduction)
    return std::nullopt;
  return space;
}
