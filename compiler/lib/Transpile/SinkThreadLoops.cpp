//===- SinkThreadLoops.cpp - thread loops into uniform loops --------------===//
//
// tessel-sink-thread-loops: after fission, a thread loop may hold a loop
// that every thread runs alike (uniform: UniformLoops.h) and that walks
// memory across the threads, as CUDA code is written for coalescing:
//
//   parallel tx { for (ty = 0; ty < 16; ty++) ref[ty][tx] = g[base + tx + ty * cols] }
//
// On the CPU each thread then walks a column: strided scalar accesses in
// the inner loop. With the thread loop inside,
//
//   for (ty = 0; ty < 16; ty++) parallel tx { ref[ty][tx] = g[base + tx + ty * cols] }
//
// the innermost loop is the thread loop, whose accesses are contiguous and
// which LLVM vectorizes (nw's tile loads and stores, the staging loops of
// shared-memory kernels). Reordering the threads' iterations is allowed:
// without a barrier between them, threads of a block run in any order
// (the new order is the lockstep schedule).
//
// A uniform scf.while `loop` of a barrier-free thread loop moves outside it
// (interchangeUniformWhile) when
//   - it holds no other loop (the thread loop becomes innermost),
//   - more of its loads and stores are contiguous across threads (the last
//     GEP index over a scalar element type moves by exactly 1 with the x
//     thread index) than along the loop (moves by 1 with a carried value,
//     0 with the thread index): a thread that walks its own row keeps its
//     loop inside,
//   - the ops before it that it or the ops after it use are free of
//     effects and regions (they are recomputed in each new thread loop).
//     Other ops before it stay in a thread loop of their own (split first,
//     splitThreadLoopBefore, which then recomputes the values used).
//
// A loop that also carries per-thread values (option carriedValues) is
// tried on a copy of the thread loop, kept only if the sink then applies:
//   - inductions go to closed form (closeInductions): a value advanced by
//     a loop-invariant step each iteration, next to a counter advanced by
//     1, is init + (counter - counter's init) * step inside and after the
//     loop, and is no longer carried (hotspot3D's c, W, E, N, S += xy);
//   - pure `?:` ifs before the loop become selects (speculateIfs), so that
//     they are recomputed like other arithmetic rather than stored;
//   - the other per-thread values (hotspot3D's rotation of loaded
//     temperatures) go to per-thread slots (demoteLoopValues,
//     privatizeSlots), contiguous across threads;
//   - the loop must then be uniform (its condition reads only uniform
//     values) and contiguous across threads, judged before the slots.
// On the CPU each thread's code was one scalar loop over z (LLVM vectorizes
// innermost loops only); now each z step is a vector loop over the threads:
// hotspot3D 4x faster on one thread of the AMD build machine.
//
//===----------------------------------------------------------------------===//

#include "tessel/Transpile/SinkThreadLoops.h"
#include "tessel/Transpile/ThreadLoops.h"
#include "tessel/Transpile/UniformLoops.h"

#include "tessel/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_SINKTHREADLOOPSPASS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// How `v` moves with `target` (an index or counter): the constant
/// coefficient when `v` is linear in it (0: independent), else nullopt.
std::optional<int64_t> coefficient(Value v, Value target, int depth = 0) {
  if (v == target)
    return 1;
  Operation *def = v.getDefiningOp();
  if (!def)
    return 0; // another block argument
  if (depth > 24)
    return std::nullopt;
  if (matchPattern(v, m_Constant()))
    return 0;
  auto of = [&](Value x) { return coefficient(x, target, depth + 1); };
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
          arith::TruncIOp>(def))
    return of(def->getOperand(0));
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    std::optional<int64_t> a = of(def->getOperand(0)), b = of(def->getOperand(1));
    if (!a || !b)
      return std::nullopt;
    return isa<arith::AddIOp>(def) ? *a + *b : *a - *b;
  }
  if (isa<arith::MulIOp>(def)) {
    std::optional<int64_t> a = of(def->getOperand(0)), b = of(def->getOperand(1));
    if (!a || !b)
      return std::nullopt;
    if (*a == 0 && *b == 0)
      return 0;
    llvm::APInt k;
    if (*a == 0 && matchPattern(def->getOperand(0), m_ConstantInt(&k)))
      return k.getSExtValue() * *b;
    if (*b == 0 && matchPattern(def->getOperand(1), m_ConstantInt(&k)))
      return k.getSExtValue() * *a;
    return std::nullopt; // scaled by a value: not unit stride
  }
  // Anything else (a load, a division): independent only if its operands are.
  for (Value operand : def->getOperands()) {
    std::optional<int64_t> c = of(operand);
    if (!c || *c != 0)
      return std::nullopt;
  }
  for (Region &r : def->getRegions())
    if (!r.empty())
      return std::nullopt;
  return 0;
}

/// The index of an access whose neighbours are adjacent elements: the one
/// dynamic index of a GEP over a scalar element type.
Value elementIndex(Value address) {
  auto gep = address.getDefiningOp<LLVM::GEPOp>();
  if (!gep || gep.getDynamicIndices().size() != 1 || gep.getIndices().size() != 1)
    return {};
  Type elem = gep.getElemType();
  if (!elem.isIntOrFloat())
    return {};
  return gep.getDynamicIndices()[0];
}

/// Whether moving `threads` inside `loop` makes more accesses contiguous
/// than it makes strided (see the file comment).
bool contiguousAcrossThreads(scf::WhileOp loop, scf::ParallelOp threads) {
  Value tx = threads.getInductionVars()[0];
  Block &after = loop.getAfter().front();
  int across = 0, along = 0;
  bool nestedLoop = false;
  loop.getAfter().walk([&](Operation *op) {
    if (isa<LoopLikeOpInterface>(op)) {
      nestedLoop = true;
      return;
    }
    Value address;
    if (auto load = dyn_cast<LLVM::LoadOp>(op))
      address = load.getAddr();
    else if (auto store = dyn_cast<LLVM::StoreOp>(op))
      address = store.getAddr();
    Value index = address ? elementIndex(address) : Value();
    if (!index)
      return;
    std::optional<int64_t> t = coefficient(index, tx);
    if (t && *t == 1) {
      ++across;
      return;
    }
    if (t && *t == 0)
      for (BlockArgument arg : after.getArguments())
        if (std::optional<int64_t> c = coefficient(index, arg); c && *c == 1) {
          ++along;
          return;
        }
  });
  return !nestedLoop && across > 0 && across > along;
}

/// The ops of `threads`' body before `loop` whose values `loop` or the ops
/// after it use, transitively.
SetVector<Operation *> neededHeader(scf::ParallelOp threads, scf::WhileOp loop) {
  SetVector<Operation *> needed;
  SmallVector<Value> work;
  for (Operation *op = loop; op != threads.getBody()->getTerminator(); op = op->getNextNode())
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        work.push_back(v);
    });
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != threads.getBody() || !def->isBeforeInBlock(loop) ||
        !needed.insert(def))
      continue;
    def->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        work.push_back(v);
    });
  }
  return needed;
}

/// Whether every op of `threads`' body before `loop` is recomputable.
bool headerRecomputable(scf::ParallelOp threads, scf::WhileOp loop) {
  for (Operation *h = &threads.getBody()->front(); h != loop.getOperation(); h = h->getNextNode())
    if (!isRecomputableOp(h))
      return false;
  return true;
}

/// `loop` with its carried inductions in closed form: a value that each
/// iteration advances by a step defined outside the loop (`c += xy`),
/// alongside a counter advanced by 1, is init + (counter - counter's init)
/// * step wherever it is read (inside the loop and after it), and the loop
/// no longer carries it. Integer wrap-around makes the closed form equal to
/// the repeated additions, so no flags are needed. Only values the
/// condition merely forwards qualify. Returns the loop (a new op when
/// values were dropped).
scf::WhileOp closeInductions(scf::WhileOp loop) {
  if (!isPairedLoop(loop))
    return loop;
  unsigned n = loop.getInits().size();
  Block &before = loop.getBefore().front(), &after = loop.getAfter().front();
  auto cond = cast<scf::ConditionOp>(before.getTerminator());
  auto yield = cast<scf::YieldOp>(after.getTerminator());
  // d when value k is advanced by d (defined outside the loop) each time.
  auto stepOf = [&](unsigned k) -> Value {
    auto add = yield.getOperand(k).getDefiningOp<arith::AddIOp>();
    if (!add)
      return {};
    Value arg = after.getArgument(k);
    Value d = add.getLhs() == arg ? add.getRhs() : add.getRhs() == arg ? add.getLhs() : Value();
    if (!d || loop->isAncestor(d.getParentBlock()->getParentOp()))
      return {};
    return d;
  };
  std::optional<unsigned> counter;
  for (unsigned k = 0; k < n && !counter; ++k)
    if (Value d = stepOf(k); d && matchPattern(d, m_One()) && cond.getArgs()[k] == before.getArgument(k))
      counter = k;
  if (!counter)
    return loop;
  Type counterType = loop.getInits()[*counter].getType();
  llvm::BitVector drop(n);
  SmallVector<Value> steps(n);
  for (unsigned k = 0; k < n; ++k) {
    Value beforeArg = before.getArgument(k);
    if (k == *counter || loop.getInits()[k].getType() != counterType ||
        cond.getArgs()[k] != beforeArg || !beforeArg.hasOneUse())
      continue;
    if ((steps[k] = stepOf(k)))
      drop.set(k);
  }
  if (drop.none())
    return loop;

  Location loc = loop.getLoc();
  Value first = loop.getInits()[*counter];
  auto closed = [&](OpBuilder &b, Value count, unsigned k) -> Value {
    Value iterations = arith::SubIOp::create(b, loc, count, first);
    Value advance = arith::MulIOp::create(b, loc, iterations, steps[k]);
    return arith::AddIOp::create(b, loc, loop.getInits()[k], advance);
  };
  OpBuilder inside = OpBuilder::atBlockBegin(&after);
  OpBuilder outside(loop->getContext());
  outside.setInsertionPointAfter(loop);
  for (unsigned k : drop.set_bits()) {
    after.getArgument(k).replaceAllUsesWith(closed(inside, after.getArgument(*counter), k));
    loop.getResult(k).replaceAllUsesWith(closed(outside, loop.getResult(*counter), k));
  }
  return dropLoopValues(loop, drop);
}

/// Turns each `scf.if` with results among `threads`' body ops before
/// `end` whose branches hold only speculatable ops without regions
/// (`W = i == 0 ? c : c - 1`) into both branches and selects, so that its
/// values can be recomputed on either side of a cut like other arithmetic.
void speculateIfs(scf::ParallelOp threads, Operation *end) {
  SmallVector<scf::IfOp> ifs;
  for (Operation *op = &threads.getBody()->front(); op != end; op = op->getNextNode())
    if (auto ifOp = dyn_cast<scf::IfOp>(op); ifOp && ifOp.getNumResults() > 0 &&
                                              ifOp.elseBlock())
      ifs.push_back(ifOp);
  for (scf::IfOp ifOp : ifs) {
    auto speculatable = [](Block *b) {
      return llvm::all_of(b->without_terminator(), [](Operation &op) {
        return op.getNumRegions() == 0 && isSpeculatable(&op);
      });
    };
    if (!speculatable(ifOp.thenBlock()) || !speculatable(ifOp.elseBlock()))
      continue;
    SmallVector<Value> thenValues(ifOp.thenYield().getOperands());
    SmallVector<Value> elseValues(ifOp.elseYield().getOperands());
    for (Block *b : {ifOp.thenBlock(), ifOp.elseBlock()})
      for (Operation &op : llvm::make_early_inc_range(b->without_terminator()))
        op.moveBefore(ifOp);
    OpBuilder b(ifOp);
    for (auto [result, t, e] : llvm::zip(ifOp.getResults(), thenValues, elseValues))
      result.replaceAllUsesWith(
          arith::SelectOp::create(b, ifOp.getLoc(), ifOp.getCondition(), t, e).getResult());
    ifOp.erase();
  }
}

/// Moves `threads` inside `loop` (uniform, an op of its body) when its
/// accesses are contiguous across threads and what it needs from before it
/// can be recomputed. Returns whether it did.
bool sinkIntoUniformLoop(scf::ParallelOp threads, scf::WhileOp loop,
                         bool minCut) {
  if (!contiguousAcrossThreads(loop, threads) ||
      !llvm::all_of(neededHeader(threads, loop), isRecomputableOp))
    return false;
  scf::ParallelOp inner = threads;
  if (!headerRecomputable(threads, loop)) {
    inner = splitThreadLoopBefore(threads, loop, minCut);
    // The values `loop` and its followers use were recomputed (all are
    // free of effects); check, as the split may store what it likes.
    if (!headerRecomputable(inner, loop))
      return true;
  }
  (void)interchangeUniformWhile(inner, loop); // uniform: checked by the caller
  return true;
}

/// The loop that carries per-thread values, tried on a copy of `threads`:
/// inductions in closed form, the other per-thread values in per-thread
/// slots; if the loop is then uniform and the sink applies, the copy
/// replaces `threads`, else it goes. Returns whether it replaced it.
bool sinkIntoCarryingLoop(scf::ParallelOp threads, scf::WhileOp loop,
                          bool minCut) {
  auto position = std::distance(threads.getBody()->begin(), loop->getIterator());
  OpBuilder b(threads);
  auto copy = cast<scf::ParallelOp>(b.clone(*threads));
  auto discard = [&] {
    copy.erase();
    return false;
  };
  auto copied = dyn_cast<scf::WhileOp>(*std::next(copy.getBody()->begin(), position));
  if (!copied)
    return discard();
  copied = closeInductions(copied);
  // Decided before anything goes to memory: slots would hide the addresses.
  if (!contiguousAcrossThreads(copied, copy))
    return discard();
  FailureOr<scf::WhileOp> plain = demoteLoopValues(copied, copy, /*keepUniform=*/true);
  // Uniform before the slots leave the thread loop, so that a loop with a
  // per-thread trip count leaves nothing behind.
  if (failed(plain) || !isUniformLoop(*plain, copy))
    return discard();
  privatizeSlots(copy);
  speculateIfs(copy, *plain);
  if (!sinkIntoUniformLoop(copy, *plain, minCut))
    return discard();
  threads.erase();
  return true;
}

} // namespace

bool mlir::tessel::sinkThreadLoop(scf::ParallelOp threads, const SinkThreadLoopsOptions &options) {
  if (!threads.getInitVals().empty() || containsBarrier(threads))
    return false;
  for (Operation &op : threads.getBody()->without_terminator()) {
    auto loop = dyn_cast<scf::WhileOp>(op);
    if (!loop)
      continue;
    if (isUniformLoop(loop, threads)) {
      if (options.uniformLoops && sinkIntoUniformLoop(threads, loop, options.minCut))
        return true;
      continue;
    }
    if (options.carriedValues && isPairedLoop(loop) &&
        sinkIntoCarryingLoop(threads, loop, options.minCut))
      return true;
  }
  return false;
}

namespace {

struct SinkThreadLoopsPass : public tessel::impl::SinkThreadLoopsPassBase<SinkThreadLoopsPass> {
  SinkThreadLoopsPass() = default;
  explicit SinkThreadLoopsPass(const SinkThreadLoopsOptions &options) : options(options) {}
  void runOnOperation() override {
    // Each sink replaces the thread loop; start over until none applies.
    for (int round = 0; round < 1000; ++round) {
      SmallVector<scf::ParallelOp> loops;
      getOperation().walk([&](scf::ParallelOp p) {
        if (isThreadLoop(p))
          loops.push_back(p);
      });
      bool changed = false;
      for (scf::ParallelOp p : loops)
        if (sinkThreadLoop(p, options)) {
          changed = true;
          break;
        }
      if (!changed)
        return;
    }
  }
  SinkThreadLoopsOptions options;
};

} // namespace

std::unique_ptr<Pass>
mlir::tessel::createSinkThreadLoopsPass(const SinkThreadLoopsOptions &options) {
  return std::make_unique<SinkThreadLoopsPass>(options);
}
