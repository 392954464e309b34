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
//===----------------------------------------------------------------------===//

#include "tessel/Transpile/SinkThreadLoops.h"
#include "tessel/Transpile/ThreadLoops.h"
#include "tessel/Transpile/UniformLoops.h"

#include "tessel/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
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

} // namespace

bool mlir::tessel::sinkThreadLoop(scf::ParallelOp threads) {
  if (!threads.getInitVals().empty() || containsBarrier(threads))
    return false;
  for (Operation &op : threads.getBody()->without_terminator()) {
    auto loop = dyn_cast<scf::WhileOp>(op);
    if (!loop || !isUniformLoop(loop, threads) || !contiguousAcrossThreads(loop, threads))
      continue;
    if (!llvm::all_of(neededHeader(threads, loop), isRecomputableOp))
      continue;
    scf::ParallelOp inner = threads;
    if (!headerRecomputable(threads, loop)) {
      inner = splitThreadLoopBefore(threads, loop);
      // The values `loop` and its followers use were recomputed (all are
      // free of effects); check, as the split may store what it likes.
      if (!headerRecomputable(inner, loop))
        return true;
    }
    (void)interchangeUniformWhile(inner, loop); // uniform: checked above
    return true;
  }
  return false;
}

namespace {

struct SinkThreadLoopsPass : public tessel::impl::SinkThreadLoopsPassBase<SinkThreadLoopsPass> {
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
        if (sinkThreadLoop(p)) {
          changed = true;
          break;
        }
      if (!changed)
        return;
    }
  }
};

} // namespace
