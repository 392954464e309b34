//===- BreakLoops.cpp - loops with a break flag, values advanced freely ---===//
//
// tessel-simplify-break-loops: the CUDA importer gives a loop with `break`
// a flag, and slot promotion (PromoteSlots.cpp) makes the flag and the
// loop's variables carried values:
//
//   scf.while (x = 0, brk = 0) {
//     c = brk == 0 ? x < n : false          // the flag gates the condition
//     scf.condition(c) x, brk
//   } do (x, brk) {
//     brk2 = a[x] >= u ? 1 : brk            // break
//     x2 = brk2 == 0 ? x + 1 : x            // the increment skipped on break
//     scf.yield x2, brk2
//   }
//
// Once the flag is set the loop ends at its next condition, and there a
// value such as x is only forwarded to the results. When those results are
// not used after the loop (x was the loop's counter, not read after it),
// the value yielded with the flag set is never read: x2 may be x + 1
// always. Without the select, the next address no longer waits for the
// comparison of the loaded value, and the CPU overlaps the loads of a
// search loop as it does for the `for (...) if (...) break;` that clang
// compiles to an early exit (particlefilter's search: 3.7x).
//
// A carried value k is simplified when
//   - the loop's result k has no use,
//   - in the before block, its argument k is only forwarded by the
//     condition op, or used inside the gate's `then` branch (what runs
//     while the flag is clear),
//   - the yield of k is a select or an scf.if on "the yielded flag is
//     zero" (the gate's test, on the next flag value), whose results only
//     the yield uses and which is pure (no effects, nothing that may trap:
//     its clear-flag branch then runs always): it becomes the clear-flag
//     value.
//
//===----------------------------------------------------------------------===//

#include "tessel/Transpile/BreakLoops.h"
#include "tessel/Transpile/UniformLoops.h"

#include "tessel/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/BitVector.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_SIMPLIFYBREAKLOOPSPASS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// The operand of `op` (a commutative binary op) that is not matched by
/// `constant`, when the other is; else null.
template <typename Op, typename Pattern>
Value otherThan(Op op, Pattern constant) {
  if (matchPattern(op.getRhs(), constant))
    return op.getLhs();
  if (matchPattern(op.getLhs(), constant))
    return op.getRhs();
  return {};
}

/// `flag == 0` (either operand order) or, for an i1 flag, `flag xor true`:
/// the flag tested, else null.
Value zeroTested(Value test) {
  if (auto cmp = test.getDefiningOp<arith::CmpIOp>())
    return cmp.getPredicate() == arith::CmpIPredicate::eq
               ? otherThan(cmp, m_Zero())
               : Value();
  if (auto x = test.getDefiningOp<arith::XOrIOp>())
    return x.getType().isInteger(1) ? otherThan(x, m_One()) : Value();
  return {};
}

/// The gate of `loop`'s condition: `scf.if (flag == 0) {...} else {false}`
/// on a before-block argument; null if the condition is not gated so.
scf::IfOp conditionGate(scf::WhileOp loop, unsigned &flagIndex) {
  auto cond = cast<scf::ConditionOp>(loop.getBefore().front().getTerminator());
  auto gate = cond.getCondition().getDefiningOp<scf::IfOp>();
  if (!gate || gate->getBlock() != &loop.getBefore().front() ||
      gate.getNumResults() != 1 || !gate.elseBlock() ||
      !matchPattern(gate.elseYield().getOperand(0), m_Zero()))
    return {};
  auto flag = dyn_cast_or_null<BlockArgument>(zeroTested(gate.getCondition()));
  if (!flag || flag.getOwner() != &loop.getBefore().front())
    return {};
  flagIndex = flag.getArgNumber();
  return gate;
}

struct SimplifyBreakLoop : OpRewritePattern<scf::WhileOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::WhileOp loop,
                                PatternRewriter &rewriter) const override {
    unsigned flag;
    scf::IfOp gate = conditionGate(loop, flag);
    if (!gate)
      return failure();
    Block &before = loop.getBefore().front();
    Block &after = loop.getAfter().front();
    auto cond = cast<scf::ConditionOp>(before.getTerminator());
    auto yield = cast<scf::YieldOp>(after.getTerminator());
    unsigned n = before.getNumArguments();
    if (!isPairedLoop(loop) || cond.getArgs()[flag] != before.getArgument(flag))
      return failure();
    Value nextFlag = yield.getOperand(flag);

    llvm::BitVector simplifiable(n);
    for (unsigned k = 0; k < n; ++k)
      simplifiable[k] =
          k != flag && loop.getResult(k).use_empty() &&
          cond.getArgs()[k] == before.getArgument(k) &&
          llvm::all_of(before.getArgument(k).getUses(), [&](OpOperand &use) {
            return use.getOwner() == cond.getOperation() ||
                   gate.getThenRegion().isAncestor(
                       use.getOwner()->getParentRegion());
          });
    bool changed = false;
    for (unsigned k : simplifiable.set_bits()) {
      Value y = yield.getOperand(k);
      if (auto sel = y.getDefiningOp<arith::SelectOp>()) {
        if (zeroTested(sel.getCondition()) == nextFlag) {
          rewriter.modifyOpInPlace(yield, [&] { yield->setOperand(k, sel.getTrueValue()); });
          changed = true;
        }
        continue;
      }
      auto choice = y.getDefiningOp<scf::IfOp>();
      if (!choice || zeroTested(choice.getCondition()) != nextFlag)
        continue;
      // Its results are read only through simplifiable yields: its `then`
      // branch gives every value that is read.
      bool onlyYielded = llvm::all_of(choice->getUses(), [&](OpOperand &use) {
        return use.getOwner() == yield.getOperation() &&
               simplifiable.test(use.getOperandNumber());
      });
      // Its `then` branch then runs on every iteration: it must be free of
      // effects and safe to run (no division that the flag guarded).
      if (!onlyYielded || !isPure(choice) ||
          matchPattern(choice.getCondition(), m_One()))
        continue;
      rewriter.setInsertionPoint(choice);
      Value yes = arith::ConstantOp::create(rewriter, choice.getLoc(),
                                            rewriter.getBoolAttr(true));
      rewriter.modifyOpInPlace(choice, [&] { choice->setOperand(0, yes); });
      changed = true;
    }
    return success(changed);
  }
};

struct SimplifyBreakLoopsPass
    : public tessel::impl::SimplifyBreakLoopsPassBase<SimplifyBreakLoopsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateSimplifyBreakLoopsPatterns(patterns);
    scf::IfOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::tessel::populateSimplifyBreakLoopsPatterns(RewritePatternSet &patterns) {
  patterns.add<SimplifyBreakLoop>(patterns.getContext());
}
