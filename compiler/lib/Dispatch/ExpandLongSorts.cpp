//===- ExpandLongSorts.cpp - tessel-expand-long-sorts -----------*- C++ -*-===//
//
// The grid level of a comparison sort: a tessel.sort along a dimension of
// at least `min-length` elements becomes ceil(log2 n) merge passes, each a
// data-parallel linalg.generic (one dispatch) that merges sorted runs of
// width w into runs of 2w. Each output element finds its source by a
// binary search on the merge path (Odeh et al.): the number i of elements
// that the left run contributes to the first q outputs of a merged pair is
// the first i where A[i] no longer goes before B[q-i-1]; ties take the left
// run first, so the sort stays stable. Work O(n log^2 n), every pass fully
// parallel on both targets; the comparator region is cloned into the body.
// Shorter sorts keep the element-level insertion sort (one per thread),
// and sorts that are radix sorts (PrimitiveContract.h: one dimension, keys ordered
// by one < or >) stay whole for their own lowering.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Dialect/Tessel/PrimitiveContract.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_EXPANDLONGSORTS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

Value cIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// One merge pass of run width `width` over `operands` (sorted runs of
/// `width` along `dim`); returns the operands sorted in runs of 2 * width.
SmallVector<Value> emitMergePass(OpBuilder &b, Location loc, SortOp sort,
                                 ValueRange operands, int64_t width) {
  int64_t dim = sort.getDimension();
  auto shape = cast<RankedTensorType>(operands[0].getType()).getShape();
  int64_t n = shape[dim], rank = shape.size();
  SmallVector<Value> inits;
  SmallVector<Type> types;
  for (Value v : operands) {
    auto type = cast<RankedTensorType>(v.getType());
    inits.push_back(tensor::EmptyOp::create(b, loc, type.getShape(),
                                            type.getElementType()));
    types.push_back(type);
  }
  AffineMap id = b.getMultiDimIdentityMap(rank);
  SmallVector<AffineMap> maps(operands.size(), id);
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  Region &comparator = sort.getRegion();
  auto generic = linalg::GenericOp::create(
      b, loc, types, ValueRange{}, inits, maps, iters,
      [&](OpBuilder &b, Location loc, ValueRange) {
        SmallVector<Value> idx;
        for (int64_t k = 0; k < rank; ++k)
          idx.push_back(linalg::IndexOp::create(b, loc, k));
        Value p = idx[dim];
        auto add = [&](Value l, Value r) {
          return arith::AddIOp::create(b, loc, l, r).getResult();
        };
        auto sub = [&](Value l, Value r) {
          return arith::SubIOp::create(b, loc, l, r).getResult();
        };
        auto minI = [&](Value l, Value r) {
          return arith::MinSIOp::create(b, loc, l, r).getResult();
        };
        auto maxI = [&](Value l, Value r) {
          return arith::MaxSIOp::create(b, loc, l, r).getResult();
        };
        Value cN = cIndex(b, loc, n), cW = cIndex(b, loc, width);
        Value c0 = cIndex(b, loc, 0);
        Value base = arith::MulIOp::create(
            b, loc,
            arith::DivUIOp::create(b, loc, p, cIndex(b, loc, 2 * width)),
            cIndex(b, loc, 2 * width));
        Value aLen = minI(cW, sub(cN, base));
        Value bStart = add(base, cW);
        Value bLen = maxI(c0, minI(cW, sub(cN, bStart)));
        Value q = sub(p, base);
        // The operands' values at position `at` along `dim` (clamped into
        // range: callers ignore values read out of a run).
        auto valuesAt = [&](Value at) {
          Value safe = minI(at, cIndex(b, loc, n - 1));
          SmallVector<Value> where(idx);
          where[dim] = safe;
          SmallVector<Value> values;
          for (Value v : operands)
            values.push_back(tensor::ExtractOp::create(b, loc, v, where));
          return values;
        };
        // comparator(lhs, rhs): lhs goes strictly before rhs.
        auto before = [&](ArrayRef<Value> lhs, ArrayRef<Value> rhs) {
          Block &block = comparator.front();
          IRMapping map;
          for (size_t k = 0; k < lhs.size(); ++k) {
            map.map(block.getArgument(2 * k), lhs[k]);
            map.map(block.getArgument(2 * k + 1), rhs[k]);
          }
          for (Operation &op : block.without_terminator())
            b.clone(op, map);
          return map.lookupOrDefault(block.getTerminator()->getOperand(0));
        };
        // i = the first i in [lo, hi) where A[i] does not go before
        // B[q - i - 1] (hi if none).
        Value lo = maxI(c0, sub(q, bLen)), hi = minI(q, aLen);
        auto search = scf::WhileOp::create(
            b, loc, TypeRange{b.getIndexType(), b.getIndexType()},
            ValueRange{lo, hi},
            [&](OpBuilder &b, Location loc, ValueRange args) {
              Value more = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::slt, args[0], args[1]);
              scf::ConditionOp::create(b, loc, more, args);
            },
            [&](OpBuilder &b, Location loc, ValueRange args) {
              Value l = args[0], h = args[1];
              Value mid = arith::DivUIOp::create(
                  b, loc, arith::AddIOp::create(b, loc, l, h),
                  cIndex(b, loc, 2));
              SmallVector<Value> a = valuesAt(
                  arith::AddIOp::create(b, loc, base, mid));
              Value bj = arith::SubIOp::create(
                  b, loc, arith::SubIOp::create(b, loc, q, mid),
                  cIndex(b, loc, 1));
              SmallVector<Value> bv =
                  valuesAt(arith::AddIOp::create(b, loc, bStart, bj));
              // A[mid] goes before B[q - mid - 1] (ties: A first).
              Value bFirst = before(bv, a);
              Value aFirst = arith::XOrIOp::create(
                  b, loc, bFirst, arith::ConstantIntOp::create(b, loc, 1, 1));
              Value nextLo = arith::SelectOp::create(
                  b, loc, aFirst,
                  arith::AddIOp::create(b, loc, mid, cIndex(b, loc, 1)), l);
              Value nextHi = arith::SelectOp::create(b, loc, aFirst, h, mid);
              scf::YieldOp::create(b, loc, ValueRange{nextLo, nextHi});
            });
        Value i = search.getResult(0);
        Value j = sub(q, i);
        SmallVector<Value> a = valuesAt(add(base, i));
        SmallVector<Value> bv = valuesAt(add(bStart, j));
        // Output q is A[i] unless B is not exhausted and B[j] goes first.
        Value aLeft = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                            i, aLen);
        Value bLeft = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                            j, bLen);
        Value bFirst = before(bv, a);
        Value takeB = arith::AndIOp::create(
            b, loc, bLeft,
            arith::OrIOp::create(
                b, loc,
                arith::XOrIOp::create(b, loc, aLeft,
                                      arith::ConstantIntOp::create(b, loc, 1, 1)),
                bFirst));
        SmallVector<Value> out;
        for (size_t k = 0; k < a.size(); ++k)
          out.push_back(arith::SelectOp::create(b, loc, takeB, bv[k], a[k]));
        linalg::YieldOp::create(b, loc, out);
      });
  return generic.getResults();
}

struct ExpandLongSort : OpRewritePattern<SortOp> {
  ExpandLongSort(MLIRContext *ctx, int64_t minLength)
      : OpRewritePattern(ctx), minLength(minLength) {}
  LogicalResult matchAndRewrite(SortOp sort,
                                PatternRewriter &rewriter) const override {
    if (sort->getNumResults() == 0)
      return rewriter.notifyMatchFailure(sort, "buffer semantics");
    auto type = dyn_cast<RankedTensorType>(sort.getOutputs()[0].getType());
    if (!type || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(sort, "not a static tensor");
    int64_t n = type.getShape()[sort.getDimension()];
    if (n < minLength)
      return rewriter.notifyMatchFailure(sort, "short: insertion sort");
    std::string notRadix;
    if (matchRadixKey(sort, notRadix))
      return rewriter.notifyMatchFailure(sort, "a radix sort");
    SmallVector<Value> current(sort.getOutputs());
    for (int64_t width = 1; width < n; width *= 2)
      current = emitMergePass(rewriter, sort.getLoc(), sort, current, width);
    rewriter.replaceOp(sort, current);
    return success();
  }
  int64_t minLength;
};

} // namespace

namespace mlir::tessel {
namespace {
struct ExpandLongSortsPass : impl::ExpandLongSortsBase<ExpandLongSortsPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandLongSort>(&getContext(), minLength);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
