//===- NarrowThreadLoops.cpp - thread-loop bounds from a guarding if ------===//
//
// tessel-narrow-thread-loops: after fission, a thread loop whose work is
// one `if` on the thread index against values uniform over the block,
//
//   scf.parallel (tx, ty, tz) = (0, 0, 0) to (X, Y, Z) {
//     c = tx_i32 + o <= m          // o, m defined outside the loop
//     scf.if c { body }
//   }
//
// runs only the threads the condition admits:
//
//   scf.parallel (tx, ty, tz) = (0, 0, 0) to (min(X, m - o + 1), Y, Z) {
//     body
//   }
//
// CUDA writes such guards everywhere: bounds checks of partial blocks
// (`if (i < n)` with i = blockIdx.x * blockDim.x + threadIdx.x), leader
// code (`if (threadIdx.x == 0)`), and wavefronts (nw's `if (tx <= m)`, 31
// steps per tile of which half the lanes are idle on average). The CPU then
// runs no idle iterations and LLVM vectorizes the body without masks.
//
// The condition is split into its `andi` conjuncts; each conjunct
//   cmpi pred, e, u   (or u, e)
// where u is defined outside the loop and e is the loop index of one
// dimension plus uniform offsets (index_cast(ui), extsi, addi/subi with
// `nsw`: no wrap, so e's integer value is the index plus the offsets),
// narrows that dimension: slt/sle/sgt/sge/eq for compares of at most 32
// bits (and slt, sge, eq on i64 without offsets), ult/ule/ugt/uge without
// offsets for at most 32 bits. The bound u - offsets is computed in i64,
// exact for those widths. Conjuncts of other forms stay in the `if`.
//
// The other ops of the body must be free of memory effects (executing
// them for fewer threads changes nothing) and the loop's steps 1.
//
// Split guards (option split-guards, on by default): such an `if` among
// other accesses,
//
//   scf.parallel (tx, ...) { A; scf.if (tx == 0) { B }; C }
//
// first gets a thread loop of its own,
//
//   scf.parallel (tx, ...) { A }
//   scf.parallel (tx, ...) { scf.if (tx == 0) { B } }   // then narrowed
//   scf.parallel (tx, ...) { C }
//
// Leader code between copies (nw's `if (tx == 0) temp[0][0] = ...` after
// its tile copy) otherwise keeps the whole loop scalar: LLVM does not
// vectorize A and C around the branch. The thread loop is barrier-free, so
// its iterations are unordered (CUDA threads between two barriers): running
// every thread's A before any thread's B keeps each thread's order, and
// any access that the reordering could change conflicts between threads
// without a barrier, a race in the CUDA program. The split happens only
// when every value crossing a cut is recomputed from thread indices and
// uniform values by side-effect-free ops (nothing stored per thread).
//
//===----------------------------------------------------------------------===//

#include "tessel/Transpile/NarrowThreadLoops.h"
#include "tessel/Transpile/ThreadLoops.h"

#include "tessel/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_NARROWTHREADLOOPSPASS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

using Pred = arith::CmpIPredicate;

/// A thread index plus uniform offsets: the value of the expression is the
/// loop index of `dim` plus each offset (minus, for `subtract`).
struct ThreadExpr {
  int dim = -1;
  SmallVector<std::pair<Value, bool>> offsets; // (value, subtract)
};

bool definedOutside(Value v, scf::ParallelOp loop) {
  return !loop.getRegion().isAncestor(v.getParentRegion());
}

unsigned widthOf(Type t) { return t.isIndex() ? 64 : t.getIntOrFloatBitWidth(); }

/// Whether `v` is a thread index of `loop` plus uniform offsets, each add
/// free of signed wrap (so the value is exact as an integer) and each
/// offset of at most 32 bits.
bool matchThreadExpr(Value v, scf::ParallelOp loop, ThreadExpr &e) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != loop.getBody() || arg.getArgNumber() >= loop.getNumLoops())
      return false;
    e.dim = static_cast<int>(arg.getArgNumber());
    return true;
  }
  Operation *op = v.getDefiningOp();
  if (!op)
    return false;
  // Thread indices are below 1024: casts and sign extensions keep them.
  if (isa<arith::IndexCastUIOp, arith::IndexCastOp>(op) && widthOf(v.getType()) >= 32)
    return matchThreadExpr(op->getOperand(0), loop, e);
  if (isa<arith::ExtSIOp>(op))
    return matchThreadExpr(op->getOperand(0), loop, e);
  auto offset = [&](Value u, bool subtract) {
    if (!definedOutside(u, loop) || widthOf(u.getType()) > 32)
      return false;
    e.offsets.push_back({u, subtract});
    return true;
  };
  if (auto add = dyn_cast<arith::AddIOp>(op)) {
    if (!bitEnumContainsAll(add.getOverflowFlags(), arith::IntegerOverflowFlags::nsw))
      return false;
    if (definedOutside(add.getRhs(), loop))
      return offset(add.getRhs(), false) && matchThreadExpr(add.getLhs(), loop, e);
    return offset(add.getLhs(), false) && matchThreadExpr(add.getRhs(), loop, e);
  }
  if (auto sub = dyn_cast<arith::SubIOp>(op)) {
    if (!bitEnumContainsAll(sub.getOverflowFlags(), arith::IntegerOverflowFlags::nsw))
      return false;
    return offset(sub.getRhs(), true) && matchThreadExpr(sub.getLhs(), loop, e);
  }
  return false;
}

/// One conjunct that narrows a dimension: e pred u (e on the left).
struct Narrowing {
  int dim;
  Pred pred;
  Value uniform;
  SmallVector<std::pair<Value, bool>> offsets;
};

/// The predicate p' with (a p b) == (b p' a).
Pred swapped(Pred p) {
  switch (p) {
  case Pred::slt: return Pred::sgt;
  case Pred::sle: return Pred::sge;
  case Pred::sgt: return Pred::slt;
  case Pred::sge: return Pred::sle;
  case Pred::ult: return Pred::ugt;
  case Pred::ule: return Pred::uge;
  case Pred::ugt: return Pred::ult;
  case Pred::uge: return Pred::ule;
  default: return p; // eq, ne
  }
}

std::optional<Narrowing> matchNarrowing(Value cond, scf::ParallelOp loop) {
  auto cmp = cond.getDefiningOp<arith::CmpIOp>();
  if (!cmp || !loop.getRegion().isAncestor(cmp->getParentRegion()))
    return std::nullopt;
  Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
  Pred pred = cmp.getPredicate();
  if (definedOutside(lhs, loop)) {
    std::swap(lhs, rhs);
    pred = swapped(pred);
  }
  ThreadExpr e;
  if (!definedOutside(rhs, loop) || !matchThreadExpr(lhs, loop, e))
    return std::nullopt;
  unsigned width = widthOf(rhs.getType());
  bool narrow = width <= 32;
  switch (pred) {
  case Pred::slt:
  case Pred::sge:
  case Pred::eq:
    if (!narrow && !(width == 64 && e.offsets.empty()))
      return std::nullopt;
    break;
  case Pred::sle:
  case Pred::sgt:
    if (!narrow)
      return std::nullopt;
    break;
  case Pred::ult:
  case Pred::ule:
  case Pred::ugt:
  case Pred::uge:
    if (!narrow || !e.offsets.empty())
      return std::nullopt;
    break;
  default:
    return std::nullopt;
  }
  return Narrowing{e.dim, pred, rhs, e.offsets};
}

/// matchNarrowing for a dimension the loop steps by 1 (the only kind that
/// is narrowed).
std::optional<Narrowing> matchUsableNarrowing(Value cond, scf::ParallelOp loop) {
  std::optional<Narrowing> n = matchNarrowing(cond, loop);
  if (n && !matchPattern(loop.getStep()[n->dim], m_One()))
    return std::nullopt;
  return n;
}

void collectConjuncts(Value cond, SmallVectorImpl<Value> &out) {
  if (auto a = cond.getDefiningOp<arith::AndIOp>()) {
    collectConjuncts(a.getLhs(), out);
    collectConjuncts(a.getRhs(), out);
    return;
  }
  out.push_back(cond);
}

bool isUnsigned(Pred p) {
  return p == Pred::ult || p == Pred::ule || p == Pred::ugt || p == Pred::uge;
}

/// The thread loops of the form in the file comment, narrowed.
struct NarrowThreadLoop : OpRewritePattern<scf::ParallelOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ParallelOp loop,
                                PatternRewriter &rewriter) const override {
    if (!isThreadLoop(loop) || !loop.getInitVals().empty())
      return failure();
    scf::IfOp guard;
    for (Operation &op : loop.getBody()->without_terminator()) {
      if (auto i = dyn_cast<scf::IfOp>(op); i && !guard && i.getNumResults() == 0 &&
                                             i.getElseRegion().empty())
        guard = i;
      else if (!isMemoryEffectFree(&op))
        return failure();
    }
    if (!guard)
      return failure();
    SmallVector<Value> conjuncts, rest;
    collectConjuncts(guard.getCondition(), conjuncts);
    SmallVector<Narrowing> narrowings;
    for (Value c : conjuncts) {
      if (std::optional<Narrowing> n = matchUsableNarrowing(c, loop))
        narrowings.push_back(*n);
      else
        rest.push_back(c);
    }
    if (narrowings.empty())
      return failure();

    Location loc = guard.getLoc();
    rewriter.setInsertionPoint(loop);
    Type i64 = rewriter.getI64Type();
    auto constant = [&](int64_t v) {
      return arith::ConstantOp::create(rewriter, loc, rewriter.getI64IntegerAttr(v));
    };
    auto toI64 = [&](Value v, bool zeroExtend) -> Value {
      if (v.getType().isIndex())
        return arith::IndexCastOp::create(rewriter, loc, i64, v);
      if (widthOf(v.getType()) == 64)
        return v;
      if (zeroExtend)
        return arith::ExtUIOp::create(rewriter, loc, i64, v);
      return arith::ExtSIOp::create(rewriter, loc, i64, v);
    };
    SmallVector<Value> lower(loop.getLowerBound()), upper(loop.getUpperBound());
    for (const Narrowing &n : narrowings) {
      // The bound b with (index + offsets) pred u <=> index pred' b.
      Value b = toI64(n.uniform, isUnsigned(n.pred));
      for (auto [off, subtract] : n.offsets) {
        Value o = toI64(off, false);
        b = subtract ? Value(arith::AddIOp::create(rewriter, loc, b, o))
                     : Value(arith::SubIOp::create(rewriter, loc, b, o));
      }
      auto bPlus1 = [&]() -> Value {
        return arith::AddIOp::create(rewriter, loc, b, constant(1));
      };
      auto index = [&](Value v) {
        return arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(), v);
      };
      auto lowerTo = [&](Value v) {
        lower[n.dim] = arith::MaxSIOp::create(rewriter, loc, lower[n.dim], index(v));
      };
      auto upperTo = [&](Value v) {
        upper[n.dim] = arith::MinSIOp::create(rewriter, loc, upper[n.dim], index(v));
      };
      switch (n.pred) {
      case Pred::slt:
      case Pred::ult:
        upperTo(b);
        break;
      case Pred::sle:
      case Pred::ule:
        upperTo(bPlus1());
        break;
      case Pred::sgt:
      case Pred::ugt:
        lowerTo(bPlus1());
        break;
      case Pred::sge:
      case Pred::uge:
        lowerTo(b);
        break;
      case Pred::eq:
        lowerTo(b);
        upperTo(bPlus1());
        break;
      default:
        llvm_unreachable("matchNarrowing admits no other predicate");
      }
    }
    rewriter.modifyOpInPlace(loop, [&] {
      loop.getLowerBoundMutable().assign(lower);
      loop.getUpperBoundMutable().assign(upper);
    });
    // What is left of the condition; the if's canonicalization inlines a
    // true one.
    rewriter.setInsertionPoint(guard);
    Value cond;
    for (Value c : rest)
      cond = cond ? Value(arith::AndIOp::create(rewriter, loc, cond, c)) : c;
    if (!cond)
      cond = arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true));
    rewriter.modifyOpInPlace(guard, [&] { guard->setOperand(0, cond); });
    return success();
  }
};

/// Whether `v` is computed from values defined outside `loop` and its
/// indices by ops of its body that can be recomputed (isRecomputableOp).
bool recomputableIn(Value v, scf::ParallelOp loop, llvm::DenseSet<Value> &seen) {
  if (definedOutside(v, loop) || !seen.insert(v).second)
    return true;
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() == loop.getBody();
  Operation *def = v.getDefiningOp();
  if (def->getBlock() != loop.getBody() || !isRecomputableOp(def))
    return false;
  return llvm::all_of(def->getOperands(),
                      [&](Value o) { return recomputableIn(o, loop, seen); });
}

/// Whether cutting `loop`'s body before `cut` stores nothing per thread:
/// every value of the body before the cut used at or after it is
/// recomputable.
bool cutStoresNothing(scf::ParallelOp loop, Operation *cut) {
  llvm::DenseSet<Value> seen;
  bool ok = true;
  for (Operation *op = cut; op && ok; op = op->getNextNode())
    op->walk([&](Operation *user) {
      for (Value v : user->getOperands()) {
        Operation *def = v.getDefiningOp(); // null for block arguments
        bool before = def && def->getBlock() == loop.getBody() && def->isBeforeInBlock(cut);
        if (before && !recomputableIn(v, loop, seen))
          ok = false;
      }
    });
  return ok;
}

/// Whether some op of `loop`'s body in [begin, end) has memory effects.
bool hasEffectsIn(Block::iterator begin, Block::iterator end) {
  return llvm::any_of(llvm::make_range(begin, end),
                      [](Operation &op) { return !isMemoryEffectFree(&op); });
}

bool narrowsSomeDimension(scf::IfOp guard, scf::ParallelOp loop) {
  SmallVector<Value> conjuncts;
  collectConjuncts(guard.getCondition(), conjuncts);
  return llvm::any_of(conjuncts,
                      [&](Value c) { return matchUsableNarrowing(c, loop).has_value(); });
}

/// The split of the file comment for the first guard of `loop` that
/// narrows a dimension, shares the loop with other ops with memory effects
/// and needs no value stored across a cut. Returns the new thread loop of
/// what followed the guard (more guards may be in it), else null.
scf::ParallelOp splitGuardedCode(scf::ParallelOp loop) {
  if (!isThreadLoop(loop) || !loop.getInitVals().empty() || containsBarrier(loop))
    return nullptr;
  Block *body = loop.getBody();
  Block::iterator end = body->getTerminator()->getIterator();
  for (Operation &op : body->without_terminator()) {
    auto guard = dyn_cast<scf::IfOp>(op);
    if (!guard || guard.getNumResults() != 0 || !guard.getElseRegion().empty() ||
        !narrowsSomeDimension(guard, loop))
      continue;
    Block::iterator at = guard->getIterator(), after = std::next(at);
    bool effectsBefore = hasEffectsIn(body->begin(), at);
    bool effectsAfter = hasEffectsIn(after, end);
    if (!effectsBefore && !effectsAfter)
      return nullptr; // NarrowThreadLoop's form already
    if ((effectsBefore && !cutStoresNothing(loop, guard)) ||
        (effectsAfter && !cutStoresNothing(loop, &*after)))
      continue;
    // Nothing that crosses these cuts is stored (cutStoresNothing), by
    // either rule.
    scf::ParallelOp guarded =
        effectsBefore ? splitThreadLoopBefore(loop, guard, /*minCut=*/true) : loop;
    return effectsAfter ? splitThreadLoopBefore(guarded, guard->getNextNode(), /*minCut=*/true)
                        : nullptr;
  }
  return nullptr;
}

struct NarrowThreadLoopsPass
    : public tessel::impl::NarrowThreadLoopsPassBase<NarrowThreadLoopsPass> {
  using NarrowThreadLoopsPassBase::NarrowThreadLoopsPassBase;
  void runOnOperation() override {
    if (splitGuards) {
      SmallVector<scf::ParallelOp> loops;
      getOperation()->walk([&](scf::ParallelOp loop) {
        if (isThreadLoop(loop))
          loops.push_back(loop);
      });
      for (scf::ParallelOp loop : loops)
        while ((loop = splitGuardedCode(loop)))
          ;
    }
    RewritePatternSet patterns(&getContext());
    populateNarrowThreadLoopsPatterns(patterns);
    scf::IfOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::tessel::populateNarrowThreadLoopsPatterns(RewritePatternSet &patterns) {
  patterns.add<NarrowThreadLoop>(patterns.getContext());
}
