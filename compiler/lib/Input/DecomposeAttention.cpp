//===- DecomposeAttention.cpp - tessel-decompose-attention -----*- C++ -*-===//
//
// Rewrites each tessel.attention as the linalg ops it means, on every
// target:
//   S  = Q K^T                 a contraction generic, f32 accumulators;
//   S' = region(S * scale + mask)   elementwise, f32;
//   P  = softmax over K2       linalg.softmax (tessel-legalize-input makes it
//                              a fused row chain);
//   O  = P V                   P rounded to V's type first (f16/bf16: the
//                              operands of a tensor-core contraction, as
//                              flash attention rounds P), f32 accumulators;
//   out = O in the output's layout and type.
// The intermediates are [batch..., M, K2] and [batch..., M, N] tensors in
// that loop order; dispatch formation then fuses what it can (the scale and
// mask into the first contraction's epilogue, the softmax rows).
// With keep-for-targets, the ops that a kernel of every listed target takes
// (cuda: the flash-attention kernel; cpu: the attention loop nest) stay
// whole. Dynamic loops get their extents from the operands (tensor.dim).
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"
#include "tessel/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_DECOMPOSEATTENTION
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

using utils::IteratorType;

/// `map` (over the attention's loops) over a new domain of `numDims` loops
/// where attention loop d is loop `position[d]` (every loop `map` uses must
/// have one).
AffineMap remap(AffineMap map, ArrayRef<int64_t> position, unsigned numDims) {
  SmallVector<AffineExpr> results;
  for (AffineExpr e : map.getResults())
    results.push_back(getAffineDimExpr(
        position[cast<AffineDimExpr>(e).getPosition()], map.getContext()));
  return AffineMap::get(numDims, 0, results, map.getContext());
}

Value extendToF32(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isF32())
    return v;
  if (v.getType().getIntOrFloatBitWidth() < 32)
    return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
  return arith::TruncFOp::create(b, loc, b.getF32Type(), v);
}

Value convertFloat(OpBuilder &b, Location loc, Value v, Type to) {
  if (v.getType() == to)
    return v;
  if (v.getType().getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, loc, to, v);
  return arith::TruncFOp::create(b, loc, to, v);
}

LogicalResult decompose(RewriterBase &rewriter, AttentionOp op) {
  FailureOr<AttentionOp::Dims> dims = op.getDims();
  if (failed(dims))
    return op.emitOpError("has loops without a role (the verifier checks "
                          "this)");
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  Type f32 = rewriter.getF32Type();
  unsigned numLoops = ranges.size();
  unsigned nb = dims->batch.size();
  unsigned m = dims->m[0], k1 = dims->k1[0], k2 = dims->k2[0],
           n = dims->n[0];
  auto sizesOf = [&](ArrayRef<unsigned> loops) {
    SmallVector<int64_t> shape;
    for (unsigned d : loops)
      shape.push_back(ranges[d]);
    return shape;
  };
  // A dynamic loop's extent: the dimension of an operand it indexes.
  SmallVector<Value> shaped = {op.getQuery(), op.getKey(), op.getValue(),
                               op.getOutput()};
  SmallVector<AffineMap> shapedMaps = {op.getQueryMap(), op.getKeyMap(),
                                       op.getValueMap(), op.getOutputMap()};
  auto extentOf = [&](unsigned loop) -> Value {
    for (auto [value, map] : llvm::zip(shaped, shapedMaps))
      if (std::optional<unsigned> dim =
              map.getResultPosition(getAffineDimExpr(loop, ctx)))
        return tensor::DimOp::create(rewriter, loc, value, *dim);
    llvm_unreachable("every attention loop indexes an operand (verifier)");
  };
  auto emptyOf = [&](ArrayRef<unsigned> loops, Type elt) {
    SmallVector<Value> dynamicSizes;
    for (unsigned d : loops)
      if (ShapedType::isDynamic(ranges[d]))
        dynamicSizes.push_back(extentOf(d));
    return tensor::EmptyOp::create(rewriter, loc, sizesOf(loops), elt,
                                   dynamicSizes)
        .getResult();
  };
  auto zeroFilled = [&](ArrayRef<unsigned> loops) {
    Value zero = arith::ConstantOp::create(rewriter, loc, f32,
                                           rewriter.getF32FloatAttr(0));
    return linalg::FillOp::create(rewriter, loc, zero, emptyOf(loops, f32))
        .getResult(0);
  };
  // Positions of the attention's loops in a new domain listing `loops`.
  auto positionsIn = [&](ArrayRef<unsigned> loops) {
    SmallVector<int64_t> position(numLoops, -1);
    for (auto [i, d] : llvm::enumerate(loops))
      position[d] = i;
    return position;
  };
  auto identity = [&](unsigned rank, ArrayRef<int64_t> drop = {}) {
    SmallVector<AffineExpr> results;
    for (unsigned i = 0; i < rank; ++i)
      if (!llvm::is_contained(drop, i))
        results.push_back(getAffineDimExpr(i, ctx));
    return AffineMap::get(rank, 0, results, ctx);
  };

  // sum over the last of `loops` of lhs * rhs, into f32 accumulators
  // indexed by the other loops in order.
  auto contractF32 = [&](ArrayRef<unsigned> loops, Value lhs, AffineMap lhsMap,
                         Value rhs, AffineMap rhsMap) {
    unsigned rank = loops.size();
    SmallVector<unsigned> resultLoops(loops.drop_back());
    SmallVector<IteratorType> iters(rank - 1, IteratorType::parallel);
    iters.push_back(IteratorType::reduction);
    return linalg::GenericOp::create(
               rewriter, loc,
               TypeRange{RankedTensorType::get(sizesOf(resultLoops), f32)},
               ValueRange{lhs, rhs}, ValueRange{zeroFilled(resultLoops)},
               ArrayRef<AffineMap>{lhsMap, rhsMap,
                                   identity(rank, {int64_t(rank - 1)})},
               iters,
               [&](OpBuilder &b, Location l, ValueRange args) {
                 Value p = arith::MulFOp::create(b, l, extendToF32(b, l, args[0]),
                                                 extendToF32(b, l, args[1]));
                 linalg::YieldOp::create(
                     b, l, ValueRange{arith::AddFOp::create(b, l, args[2], p)});
               })
        .getResult(0);
  };

  // S[batch, m, k2] = sum_k1 Q K (f32).
  SmallVector<unsigned> sLoops(dims->batch);
  sLoops.append({m, k2, k1});
  SmallVector<int64_t> sPos = positionsIn(sLoops);
  unsigned sRank = sLoops.size();
  SmallVector<unsigned> scoreLoops(dims->batch);
  scoreLoops.append({m, k2});
  Value qk = contractF32(sLoops, op.getQuery(),
                         remap(op.getQueryMap(), sPos, sRank), op.getKey(),
                         remap(op.getKeyMap(), sPos, sRank));

  // S' = region(S * scale + mask).
  unsigned scoreRank = scoreLoops.size();
  SmallVector<int64_t> scorePos = positionsIn(scoreLoops);
  SmallVector<Value> scoreIns = {qk};
  SmallVector<AffineMap> scoreMaps = {identity(scoreRank)};
  if (op.getMask()) {
    scoreIns.push_back(op.getMask());
    scoreMaps.push_back(remap(*op.getMaskMap(), scorePos, scoreRank));
  }
  // A constant scale is used in place; another (computed) scale enters as
  // a rank-0 tensor operand, since dispatch bodies take tensors only.
  Value scale = op.getScale();
  bool scaleOperand = !scale.getDefiningOp<arith::ConstantOp>();
  if (scaleOperand) {
    scoreIns.push_back(tensor::FromElementsOp::create(
        rewriter, loc, RankedTensorType::get({}, scale.getType()),
        ValueRange{scale}));
    scoreMaps.push_back(AffineMap::get(scoreRank, 0, ctx));
  }
  scoreMaps.push_back(identity(scoreRank));
  Block &region = op.getRegion().front();
  auto scores = linalg::GenericOp::create(
      rewriter, loc, TypeRange{RankedTensorType::get(sizesOf(scoreLoops), f32)},
      scoreIns, ValueRange{emptyOf(scoreLoops, f32)}, scoreMaps,
      SmallVector<IteratorType>(scoreRank, IteratorType::parallel),
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value scaleValue = scaleOperand ? args[scoreIns.size() - 1] : scale;
        Value s = arith::MulFOp::create(b, l, args[0],
                                        extendToF32(b, l, scaleValue));
        if (op.getMask())
          s = arith::AddFOp::create(b, l, s, extendToF32(b, l, args[1]));
        IRMapping mapping;
        mapping.map(region.getArgument(0), s);
        for (Operation &inner : region.without_terminator())
          b.clone(inner, mapping);
        Value yielded = mapping.lookupOrDefault(
            region.getTerminator()->getOperand(0));
        linalg::YieldOp::create(b, l, ValueRange{yielded});
      });

  // P = softmax over K2 (the last dimension), in V's type.
  Value probs =
      linalg::SoftmaxOp::create(rewriter, loc,
                                RankedTensorType::get(sizesOf(scoreLoops), f32),
                                scores.getResult(0),
                                emptyOf(scoreLoops, f32), scoreRank - 1)
          .getResult()[0];
  Type vElt = getElementTypeOrSelf(op.getValue().getType());
  if (vElt != f32) {
    probs = linalg::GenericOp::create(
                rewriter, loc,
                TypeRange{RankedTensorType::get(sizesOf(scoreLoops), vElt)},
                ValueRange{probs}, ValueRange{emptyOf(scoreLoops, vElt)},
                ArrayRef<AffineMap>{identity(scoreRank), identity(scoreRank)},
                SmallVector<IteratorType>(scoreRank, IteratorType::parallel),
                [&](OpBuilder &b, Location l, ValueRange args) {
                  linalg::YieldOp::create(
                      b, l, ValueRange{convertFloat(b, l, args[0], vElt)});
                })
                .getResult(0);
  }

  // O[batch, m, n] = sum_k2 P V (f32).
  SmallVector<unsigned> oLoops(dims->batch);
  oLoops.append({m, n, k2});
  SmallVector<int64_t> oPos = positionsIn(oLoops);
  unsigned oRank = oLoops.size();
  SmallVector<unsigned> outLoops(dims->batch);
  outLoops.append({m, n});
  // P is [batch..., m, k2]: in the O domain, batch..., m, then k2 (last).
  SmallVector<AffineExpr> pResults;
  for (unsigned i = 0; i < nb + 1; ++i)
    pResults.push_back(getAffineDimExpr(i, ctx));
  pResults.push_back(getAffineDimExpr(oRank - 1, ctx));
  Value pv = contractF32(oLoops, probs, AffineMap::get(oRank, 0, pResults, ctx),
                         op.getValue(), remap(op.getValueMap(), oPos, oRank));

  // out = O in the output's layout and element type.
  unsigned outRank = outLoops.size();
  SmallVector<int64_t> outPos = positionsIn(outLoops);
  Type outElt = getElementTypeOrSelf(op.getOutput().getType());
  auto result = linalg::GenericOp::create(
      rewriter, loc, TypeRange{op.getOutput().getType()},
      ValueRange{pv}, ValueRange{op.getOutput()},
      ArrayRef<AffineMap>{identity(outRank),
                          remap(op.getOutputMap(), outPos, outRank)},
      SmallVector<IteratorType>(outRank, IteratorType::parallel),
      [&](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(b, l,
                                ValueRange{convertFloat(b, l, args[0], outElt)});
      });
  rewriter.replaceOp(op, result.getResults());
  return success();
}

struct DecomposeAttentionPass
    : tessel::impl::DecomposeAttentionBase<DecomposeAttentionPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<AttentionOp> ops;
    SmallVector<StringRef> targets;
    StringRef(keepForTargets).split(targets, ',', -1, false);
    auto kept = [&](AttentionOp op) {
      std::string why;
      return !targets.empty() && llvm::all_of(targets, [&](StringRef t) {
        FailureOr<TargetTraits> traits = getTargetTraits(t.trim());
        return succeeded(traits) && traits->takesAttention(op, why);
      });
    };
    getOperation().walk([&](AttentionOp op) {
      if (!kept(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (AttentionOp op : ops) {
      rewriter.setInsertionPoint(op);
      if (failed(decompose(rewriter, op)))
        return signalPassFailure();
    }
  }
};

} // namespace
