//===- Interchange.cpp - move thread loops inside control flow with barriers ===//
//
// tessel-interchange-thread-loops: afterwards every barrier is an op of a
// thread loop's body itself, where fission can cut (Fission.cpp).
//
// 1. Out of conditionals (a rewrite of the per-thread program alone):
//      if c { A; barrier; B } else { E }
//        -> if c { A } else { E }; barrier; if c { B }
//    values of A used in B pass as results of the first if; and
//      if c { A; while (w) {..barrier..}; B }
//        -> if c { A }; while (c && w) {..}; if c { B }
//    The same for a barrier in the else branch. A barrier only some threads
//    reach is undefined in CUDA; here such threads pass it (they are
//    masked off), which is also what a GPU does with threads that exited.
// 2. Loops: a thread loop whose body is a while loop with a barrier inside
//    becomes a while loop of thread loops; each thread keeps an "active"
//    flag (its own condition held every time so far), the loop runs while
//    any thread is active, and inactive threads skip the body:
//      parallel t { while (w(t)) { B(t) } }
//        -> parallel t { act[t] = 1 }
//           while ({ parallel t { if act[t]: act[t] = w(t) }; any(act) }) {
//             parallel t { if act[t] { B(t) } } }
//    This holds for trip counts that differ per thread or depend on memory.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/TesselDialect.h"
#include "tessel/Passes.h"
#include "tessel/Transpile/ThreadLoops.h"
#include "tessel/Transpile/UniformLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_INTERCHANGETHREADLOOPSPASS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// The first op of `block` that is a barrier or holds one.
Operation *firstBarrierOp(Block *block) {
  for (Operation &op : block->without_terminator())
    if (containsBarrier(&op))
      return &op;
  return nullptr;
}

/// Splits `op` in two ifs on the same condition: each branch's ops before
/// its cut (null: the whole branch) go to the first, the rest to the
/// second. Values crossing pass as results of the first.
std::pair<scf::IfOp, scf::IfOp> splitIf(scf::IfOp op, Operation *thenCut,
                                        Operation *elseCut) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  struct Branch {
    Block *block;
    Operation *cut;
    SmallVector<Value> live;
  };
  SmallVector<Branch> branches = {{op.thenBlock(), thenCut, {}}};
  if (op.elseBlock())
    branches.push_back({op.elseBlock(), elseCut, {}});
  for (Branch &br : branches) {
    Operation *end = br.cut ? br.cut : br.block->getTerminator();
    llvm::SetVector<Value> live;
    for (Operation &pre : llvm::make_range(br.block->begin(), end->getIterator()))
      for (Value r : pre.getResults())
        for (Operation *user : r.getUsers()) {
          Operation *top = br.block->findAncestorOpInBlock(*user);
          if (top && !top->isBeforeInBlock(end) )
            live.insert(r);
        }
    br.live = live.takeVector();
  }
  SmallVector<Type> types;
  for (Branch &br : branches)
    for (Value v : br.live)
      types.push_back(v.getType());
  auto first = scf::IfOp::create(b, loc, types, op.getCondition(),
                                 /*withElse=*/true);
  auto second = scf::IfOp::create(b, loc, op.getResultTypes(),
                                  op.getCondition(), /*withElse=*/true);
  unsigned offset = 0;
  for (auto [i, br] : llvm::enumerate(branches)) {
    Block *pre = i == 0 ? first.thenBlock() : first.elseBlock();
    Block *post = i == 0 ? second.thenBlock() : second.elseBlock();
    // scf.if builders add yields to result-less ifs; replace them.
    for (Block *blk : {pre, post})
      if (!blk->empty())
        blk->back().erase();
    Operation *end = br.cut ? br.cut : br.block->getTerminator();
    pre->getOperations().splice(pre->end(), br.block->getOperations(),
                                br.block->begin(), end->getIterator());
    post->getOperations().splice(post->end(), br.block->getOperations(),
                                 br.block->begin(), br.block->end());
    OpBuilder yb = OpBuilder::atBlockEnd(pre);
    SmallVector<Value> yields;
    unsigned k = 0;
    for (auto [j, other] : llvm::enumerate(branches))
      for (Value v : other.live) {
        yields.push_back(j == i ? v
                                : Value(ub::PoisonOp::create(yb, loc, v.getType())));
        (void)k;
      }
    scf::YieldOp::create(yb, loc, yields);
    for (auto [j, v] : llvm::enumerate(br.live))
      v.replaceUsesWithIf(first.getResult(offset + j), [&](OpOperand &use) {
        return post->getParentOp()->isAncestor(use.getOwner());
      });
    offset += br.live.size();
  }
  if (!op.elseBlock()) {
    OpBuilder eb = OpBuilder::atBlockEnd(first.elseBlock());
    SmallVector<Value> poison;
    if (!first.elseBlock()->empty() &&
        isa<scf::YieldOp>(first.elseBlock()->back()))
      first.elseBlock()->back().erase();
    eb.setInsertionPointToEnd(first.elseBlock());
    for (Type t : types)
      poison.push_back(ub::PoisonOp::create(eb, loc, t));
    if (!first.elseBlock()->empty() &&
        isa<scf::YieldOp>(first.elseBlock()->back()))
      first.elseBlock()->back().erase();
    scf::YieldOp::create(eb, loc, poison);
  }
  op.replaceAllUsesWith(second.getResults());
  op.erase();
  return {first, second};
}

/// All of `loop`'s carried values to per-thread slots of `threads` (then
/// given their own arrays); the loop that is left, or failure (reported).
FailureOr<scf::WhileOp> demoteAllLoopValues(scf::WhileOp loop,
                                            scf::ParallelOp threads) {
  FailureOr<scf::WhileOp> plain =
      demoteLoopValues(loop, threads, /*keepUniform=*/false);
  if (failed(plain))
    return loop.emitError("internal: a loop with a barrier carries values "
                          "that cannot go back to memory");
  privatizeSlots(threads);
  return plain;
}

/// Whether `loop`'s condition forwards its before-block arguments as they
/// are (the shape slot promotion gives it), so that a loop whose condition
/// fails at once has its inits as results.
bool forwardsArguments(scf::WhileOp loop) {
  Block &before = loop.getBefore().front();
  auto cond = cast<scf::ConditionOp>(before.getTerminator());
  return llvm::equal(cond.getArgs(), before.getArguments());
}

/// `if c { while }` (the while alone in one branch, nothing in the other):
/// the while alone, its condition guarded by c. A loop carrying values
/// keeps them when its condition forwards its arguments as they are (with
/// c false it runs no iteration and its results are its inits, where the
/// if gave poison); others give them to per-thread slots first.
LogicalResult foldGuardIntoLoop(scf::IfOp guard, scf::ParallelOp threads) {
  bool inThen = !guard.thenBlock()->without_terminator().empty();
  Block *block = inThen ? guard.thenBlock() : guard.elseBlock();
  auto loop = dyn_cast<scf::WhileOp>(&block->front());
  if (!loop)
    return guard.emitError("a barrier inside a loop that is not a plain "
                           "while loop (internal form) is not supported");
  if (!forwardsArguments(loop)) {
    FailureOr<scf::WhileOp> plain = demoteAllLoopValues(loop, threads);
    if (failed(plain))
      return failure();
    loop = *plain;
  }
  OpBuilder b(guard);
  Location loc = guard.getLoc();
  Value c = guard.getCondition();
  if (!inThen)
    c = arith::XOrIOp::create(
        b, loc, c, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
  // The guard yields the loop's results (or values from before it).
  auto yield = cast<scf::YieldOp>(block->getTerminator());
  for (auto [result, yielded] : llvm::zip(guard.getResults(), yield.getOperands())) {
    if (yielded.getParentRegion() == &guard.getThenRegion() ||
        yielded.getParentRegion() == &guard.getElseRegion())
      if (yielded.getDefiningOp() != loop.getOperation())
        return guard.emitError("internal: a guarded loop's if yields a value "
                               "of its own");
    result.replaceAllUsesWith(yielded);
  }
  loop->moveBefore(guard);
  guard.erase();
  Block &before = loop.getBefore().front();
  auto cond = cast<scf::ConditionOp>(before.getTerminator());
  b.setInsertionPointToStart(&before);
  auto check = scf::IfOp::create(b, loc, b.getI1Type(), c, true);
  Block *then = check.thenBlock();
  then->getOperations().splice(then->begin(), before.getOperations(),
                               std::next(check->getIterator()),
                               cond->getIterator());
  b.setInsertionPointToEnd(then);
  scf::YieldOp::create(b, loc, cond.getCondition());
  b.setInsertionPointToStart(check.elseBlock());
  scf::YieldOp::create(b, loc, ValueRange{arith::ConstantOp::create(
                                   b, loc, b.getBoolAttr(false))});
  cond->setOperand(0, check.getResult(0));
  return success();
}

/// One rewrite of step 1 on an if with a barrier-holding op at the top of
/// a branch (and none deeper inside an if); true if it changed something.
FailureOr<bool> hoistOutOfIf(scf::IfOp op, scf::ParallelOp threads) {
  Operation *thenCut = firstBarrierOp(op.thenBlock());
  Operation *elseCut = op.elseBlock() ? firstBarrierOp(op.elseBlock()) : nullptr;
  if (!thenCut && !elseCut)
    return false;
  for (Operation *cut : {thenCut, elseCut})
    if (cut && isa<scf::IfOp>(cut))
      return false; // the inner if first
  bool thenBarrier = thenCut && isa<BarrierOp>(thenCut);
  bool elseBarrier = elseCut && isa<BarrierOp>(elseCut);
  if ((thenCut && !thenBarrier) || (elseCut && !elseBarrier)) {
    // A loop in one branch: isolate `if c { loop }` (the other branch's
    // cut, if any, waits for the next round).
    bool useThen = thenCut && !thenBarrier;
    Operation *loop = useThen ? thenCut : elseCut;
    auto [pre, rest] = splitIf(op, useThen ? loop : nullptr,
                               useThen ? nullptr : loop);
    Block *restBlock = useThen ? rest.thenBlock() : rest.elseBlock();
    Operation *after = restBlock->front().getNextNode();
    auto [mid, post] = splitIf(rest, useThen ? after : nullptr,
                               useThen ? nullptr : after);
    (void)pre;
    (void)post;
    if (failed(foldGuardIntoLoop(mid, threads)))
      return failure();
    return true;
  }
  auto [pre, post] = splitIf(op, thenCut, elseCut);
  for (Block *blk : {post.thenBlock(), post.elseBlock()})
    if (blk && !blk->empty() && isa<BarrierOp>(blk->front()))
      blk->front().erase();
  OpBuilder b(post);
  BarrierOp::create(b, post.getLoc());
  return true;
}

/// parallel t { prefix; while } -> the loop of thread loops (step 2).
LogicalResult interchangeWhile(scf::ParallelOp threads, scf::WhileOp loop) {
  if (loop.getNumResults() || !loop.getInits().empty())
    return loop.emitError("internal: while loop with values");
  auto cond = cast<scf::ConditionOp>(loop.getBefore().front().getTerminator());
  if (!cond.getArgs().empty())
    return loop.emitError("internal: while loop forwarding values");
  for (Operation &op : loop.getBefore().front())
    if (containsBarrier(&op))
      return op.emitError("a barrier in a loop condition is not supported");
  Location loc = loop.getLoc();
  OpBuilder b(threads);
  Type i8 = b.getI8Type();
  Value active = perThreadStorage(b, threads, i8);
  SmallVector<Operation *> prefix;
  for (Operation &op : threads.getBody()->without_terminator())
    if (&op != loop.getOperation())
      prefix.push_back(&op);

  // A thread loop like `threads` whose body `fill` builds, with the prefix
  // cloned first (it recomputes or reloads what the loop body uses).
  auto makeLoop = [&](function_ref<void(OpBuilder &, IRMapping &, Value)> fill) {
    auto p = scf::ParallelOp::create(b, loc, threads.getLowerBound(),
                                     threads.getUpperBound(), threads.getStep());
    p->setAttrs(threads->getDiscardableAttrDictionary());
    OpBuilder pb = OpBuilder::atBlockBegin(p.getBody());
    IRMapping map;
    for (auto [o, n] : llvm::zip(threads.getInductionVars(), p.getInductionVars()))
      map.map(o, n);
    for (Operation *op : prefix)
      pb.clone(*op, map);
    Value flag = perThreadElement(pb, loc, p, active, i8);
    fill(pb, map, flag);
    return p;
  };
  auto isActive = [&](OpBuilder &pb, Value flag) -> Value {
    Value v = LLVM::LoadOp::create(pb, loc, i8, flag);
    return arith::CmpIOp::create(pb, loc, arith::CmpIPredicate::ne, v,
                                 arith::ConstantOp::create(pb, loc, pb.getI8IntegerAttr(0)));
  };
  makeLoop([&](OpBuilder &pb, IRMapping &, Value flag) {
    LLVM::StoreOp::create(pb, loc,
                          arith::ConstantOp::create(pb, loc, pb.getI8IntegerAttr(1)),
                          flag);
  });
  auto outer = scf::WhileOp::create(b, loc, TypeRange(), ValueRange());
  {
    Block *before = b.createBlock(&outer.getBefore());
    b.setInsertionPointToEnd(before);
    makeLoop([&](OpBuilder &pb, IRMapping &map, Value flag) {
      auto guard = scf::IfOp::create(pb, loc, isActive(pb, flag), false);
      OpBuilder gb = OpBuilder::atBlockBegin(guard.thenBlock());
      for (Operation &op : loop.getBefore().front().without_terminator())
        gb.clone(op, map);
      Value c = map.lookupOrDefault(cond.getCondition());
      LLVM::StoreOp::create(gb, loc, arith::ExtUIOp::create(gb, loc, i8, c), flag);
    });
    // any(active), sequentially.
    Value n;
    for (Value ub : threads.getUpperBound())
      n = n ? Value(arith::MulIOp::create(b, loc, n, ub)) : ub;
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
    Value none = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
    auto any = scf::ForOp::create(
        b, loc, c0, n, c1, ValueRange{none},
        [&](OpBuilder &fb, Location l, Value i, ValueRange acc) {
          Value i64 = arith::IndexCastOp::create(fb, l, fb.getI64Type(), i);
          Value at = LLVM::GEPOp::create(fb, l, LLVM::LLVMPointerType::get(fb.getContext()),
                                         i8, active, ArrayRef<LLVM::GEPArg>{i64});
          Value on = isActive(fb, at);
          scf::YieldOp::create(fb, l, ValueRange{arith::OrIOp::create(fb, l, acc[0], on)});
        });
    scf::ConditionOp::create(b, loc, any.getResult(0), ValueRange());
  }
  {
    Block *after = b.createBlock(&outer.getAfter());
    b.setInsertionPointToEnd(after);
    auto yield = scf::YieldOp::create(b, loc);
    b.setInsertionPoint(yield);
    makeLoop([&](OpBuilder &pb, IRMapping &map, Value flag) {
      auto guard = scf::IfOp::create(pb, loc, isActive(pb, flag), false);
      OpBuilder gb(guard.thenBlock()->getTerminator());
      for (Operation &op : loop.getAfter().front().without_terminator())
        gb.clone(op, map);
    });
  }
  threads.erase();
  return success();
}

/// One rewrite anywhere in `fn`; true if something changed. The pass's
/// options: whether uniform loops keep their values as scalars, and the
/// cut rule of splitThreadLoopBefore.
FailureOr<bool> rewriteOnce(func::FuncOp fn, bool uniformLoops, bool minCut) {
  SmallVector<scf::ParallelOp> loops;
  fn.walk([&](scf::ParallelOp p) {
    if (isThreadLoop(p) && containsBarrier(p))
      loops.push_back(p);
  });
  for (scf::ParallelOp threads : loops) {
    // Loops holding barriers keep their carried values (from slot
    // promotion) only while they may still turn out uniform: as ops of the
    // thread loop's body (then only the uniform values) or inside such
    // loops and conditionals only (step 1 moves them out of the
    // conditionals); others give them back to per-thread slots.
    SmallVector<scf::WhileOp> carrying;
    threads.getBody()->walk([&](scf::WhileOp w) {
      if (containsBarrier(w))
        carrying.push_back(w);
    });
    for (scf::WhileOp w : carrying) {
      bool top = w->getParentOp() == threads.getOperation();
      bool insideLoopsOnly = true;
      for (Operation *p = w->getParentOp(); p != threads.getOperation();
           p = p->getParentOp())
        insideLoopsOnly &= isa<scf::WhileOp, scf::IfOp>(p);
      if (!top && insideLoopsOnly)
        continue; // decided once it is an op of the thread loop's body
      if (failed(demoteLoopValues(w, threads, /*keepUniform=*/top)))
        return w.emitError("internal: a loop with a barrier carries values "
                           "that cannot go back to memory");
    }
    privatizeSlots(threads);
    // Step 1, innermost ifs first (post-order walk).
    SmallVector<scf::IfOp> ifs;
    threads.getBody()->walk([&](scf::IfOp op) {
      if (containsBarrier(op))
        ifs.push_back(op);
    });
    for (scf::IfOp op : ifs) {
      FailureOr<bool> changed = hoistOutOfIf(op, threads);
      if (failed(changed) || *changed)
        return changed;
    }
    // Step 2.
    for (Operation &op : threads.getBody()->without_terminator()) {
      if (!containsBarrier(&op) || isa<BarrierOp>(op))
        continue;
      auto loop = dyn_cast<scf::WhileOp>(op);
      if (!loop)
        return op.emitError() << "a barrier inside '" << op.getName()
                              << "' is not supported";
      bool uniform = uniformLoops && isUniformLoop(loop, threads);
      if (!uniform) {
        // Its values to per-thread slots first, while the stores of their
        // initial values still land in the thread loop before it (the
        // general interchange repeats what precedes the loop in every new
        // thread loop, so that part must be free of effects).
        FailureOr<scf::WhileOp> plain = demoteAllLoopValues(loop, threads);
        if (failed(plain))
          return failure();
        loop = *plain;
      }
      if (uniform)
        hoistUniformOps(threads, loop);
      scf::ParallelOp mine = threads;
      if (&threads.getBody()->front() != loop.getOperation())
        mine = splitThreadLoopBefore(threads, loop, minCut);
      if (uniform) {
        // Threads inside the loop; what follows it goes to a thread loop
        // of its own, reading the loop's results as scalars.
        if (failed(interchangeUniformWhile(mine, loop)))
          return failure();
        return true;
      }
      if (Operation *next = loop->getNextNode();
          next && next != mine.getBody()->getTerminator())
        splitThreadLoopBefore(mine, next, minCut);
      if (failed(interchangeWhile(mine, loop)))
        return failure();
      return true;
    }
  }
  return false;
}

struct InterchangeThreadLoopsPass
    : public tessel::impl::InterchangeThreadLoopsPassBase<InterchangeThreadLoopsPass> {
  using InterchangeThreadLoopsPassBase::InterchangeThreadLoopsPassBase;
  void runOnOperation() override {
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      while (true) {
        FailureOr<bool> changed = rewriteOnce(fn, uniformLoops, minCut);
        if (failed(changed))
          return signalPassFailure();
        if (!*changed)
          break;
      }
    }
  }
};

} // namespace
