//===- PrefetchNextBlock.cpp - the next block's tile, prefetched ----------===//
//
// tessel-prefetch-next-block: a CUDA block typically opens by copying a
// tile of global memory into __shared__ arrays, then computes on it. On
// the GPU other warps hide the copy's latency; on the CPU one thread runs
// the block's threads one after another, and the copy waits for memory
// (nw's column of 16 rows: 16 lines on 16 pages, then the compute cannot
// start). The pool runs a thread's blocks in order (the ranges schedule:
// a contiguous range of blockIdx.x + X * blockIdx.y per thread), so while
// block b computes, the tile of block b + 1 can be on its way:
//
//   scf.parallel (bx, by, bz) {tessel.cuda_blocks} {
//     staging loops:  tile[...] = global[f(bx, by, tx, ...)]
//     prefetches:     prefetch global[f(next(bx, by), tx, ...)]
//     the rest of the block
//   }
//
// next(bx, by) = (bx + 1, by), or (0, by + 1) after the last block of a
// row. The staging loops are the barrier-free thread loops the block body
// starts with (after fission; only side-effect-free ops, ifs included, and
// the block's allocas before or between them) that
//   - load only from memory outside the block (kernel arguments), not
//     volatile or atomic,
//   - store only into the block's own arrays (allocas of the block loop),
//   - use loaded values only to compute stored values or store addresses
//     (no address, condition, bound or carried value depends on a load),
// and some work with memory effects must follow them. Their copies keep
// the loops, ifs and address arithmetic, with the block ids (and the
// values of the block body computed from them) replaced by the next
// block's, each load a prefetch and the stores removed. A prefetch never
// faults, so the last block's prefetch past the grid is harmless. Blocks
// that do not start with a staging loop are left alone.
//
//===----------------------------------------------------------------------===//

#include "tessel/Transpile/PrefetchNextBlock.h"
#include "tessel/Transpile/ThreadLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Whether `ptr` points into an array of the block (an alloca of the block
/// loop: a __shared__ array or per-thread storage).
bool isBlockLocal(Value ptr, scf::ParallelOp blocks) {
  while (auto gep = ptr.getDefiningOp<LLVM::GEPOp>())
    ptr = gep.getBase();
  auto slot = ptr.getDefiningOp<LLVM::AllocaOp>();
  return slot && blocks->isProperAncestor(slot);
}

/// Whether `loop` copies memory from outside the block into the block's
/// arrays, with addresses and control flow independent of what it loads.
bool isStagingLoop(scf::ParallelOp loop, scf::ParallelOp blocks) {
  bool loads = false, stores = false;
  llvm::DenseSet<Value> loaded; // loaded values and values computed from them
  auto fromLoad = [&](Value v) { return loaded.contains(v); };
  WalkResult walk = loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
      if (load.getVolatile_() || load.getOrdering() != LLVM::AtomicOrdering::not_atomic ||
          isBlockLocal(load.getAddr(), blocks) || fromLoad(load.getAddr()))
        return WalkResult::interrupt();
      loads = true;
      loaded.insert(load.getResult());
      return WalkResult::advance();
    }
    if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
      if (!isBlockLocal(store.getAddr(), blocks))
        return WalkResult::interrupt();
      stores = true;
      return WalkResult::advance();
    }
    bool usesLoaded = llvm::any_of(op->getOperands(), fromLoad);
    if (op->getNumRegions() == 0 && isMemoryEffectFree(op)) {
      if (usesLoaded)
        loaded.insert(op->result_begin(), op->result_end());
      return WalkResult::advance();
    }
    // Control flow, whose conditions, bounds and carried values must not
    // come from loads; anything else with effects ends the match.
    if (usesLoaded || !isa<scf::IfOp, scf::ForOp, scf::WhileOp, scf::YieldOp, scf::ConditionOp,
                           scf::ReduceOp>(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted() && loads && stores;
}

/// The values `op` reads: its operands and the values its regions use
/// from above.
SmallVector<Value> inputsOf(Operation *op) {
  llvm::SetVector<Value> values(op->operand_begin(), op->operand_end());
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, values);
  return values.takeVector();
}

/// The values of the block body for the next block: the block ids mapped
/// to the next block's, and the side-effect-free ops computed from them
/// cloned on demand.
struct NextBlock {
  explicit NextBlock(scf::ParallelOp blocks) : body(blocks.getBody()) {}

  /// Whether `v` depends on the block ids; clears `ok` when it does through
  /// an op that cannot be computed again.
  bool depends(Value v, bool &ok) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return arg.getOwner() == body;
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != body)
      return false;
    if (auto it = dependent.find(v); it != dependent.end())
      return it->second;
    bool d = false;
    for (Value o : inputsOf(def))
      d |= depends(o, ok);
    if (d && !isMemoryEffectFree(def))
      ok = false;
    dependent[v] = d;
    return d;
  }

  /// `v` for the next block, cloned at `b` where it depends on the ids.
  Value remap(OpBuilder &b, Value v) {
    if (Value m = map.lookupOrNull(v))
      return m;
    if (!dependent.lookup(v))
      return v;
    Operation *def = v.getDefiningOp();
    for (Value o : inputsOf(def))
      remap(b, o);
    b.clone(*def, map);
    return map.lookup(v);
  }

  Block *body;
  IRMapping map;
  llvm::DenseMap<Value, bool> dependent;
};

/// In a copy of a staging loop: each load becomes a prefetch, the stores
/// and what only they used go.
void turnIntoPrefetches(scf::ParallelOp copy) {
  SmallVector<Operation *> ops;
  copy.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : ops)
    if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
      OpBuilder b(load);
      // Read, keep in all levels of the cache, data.
      LLVM::Prefetch::create(b, load.getLoc(), load.getAddr(), /*rw=*/0, /*hint=*/3,
                             /*cache=*/1);
    }
  for (Operation *op : llvm::reverse(ops)) {
    if (isa<LLVM::StoreOp>(op))
      op->erase();
    else if ((isa<LLVM::LoadOp>(op) || isRecomputableOp(op)) && op->use_empty() &&
             !op->hasTrait<OpTrait::IsTerminator>())
      op->erase();
  }
}

/// Whether `v` is computed without the value `x` (ops of `region` only;
/// values from outside it are independent). Loop-carried values count as
/// independent when their loop's operands are: a guess, as it only decides
/// how many prefetches are issued.
bool independentOf(Value v, Value x, Region &region, unsigned depth = 0) {
  if (v == x)
    return false;
  if (!region.isAncestor(v.getParentRegion()) || depth > 32)
    return depth <= 32;
  Operation *def = v.getDefiningOp();
  if (!def)
    def = cast<BlockArgument>(v).getOwner()->getParentOp();
  return llvm::all_of(def->getOperands(),
                      [&](Value o) { return independentOf(o, x, region, depth + 1); });
}

/// Whether the integer `v` is `x` plus or minus values independent of `x`:
/// consecutive x address consecutive elements.
bool unitStrideIn(Value v, Value x, Region &region) {
  if (v == x)
    return true;
  Operation *def = v.getDefiningOp();
  if (isa_and_nonnull<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp>(
          def))
    return unitStrideIn(def->getOperand(0), x, region);
  if (isa_and_nonnull<arith::AddIOp>(def))
    return (unitStrideIn(def->getOperand(0), x, region) &&
            independentOf(def->getOperand(1), x, region)) ||
           (unitStrideIn(def->getOperand(1), x, region) &&
            independentOf(def->getOperand(0), x, region));
  if (isa_and_nonnull<arith::SubIOp>(def))
    return unitStrideIn(def->getOperand(0), x, region) &&
           independentOf(def->getOperand(1), x, region);
  return false;
}

/// When every prefetch of `copy` walks consecutive elements of at most
/// kLine bytes along the thread index x (row copies), one prefetch per
/// cache line is enough: x runs over 0 .. ceil(X / E) and is read as
/// min(x * E, X - 1), E elements a line (the last thread too, for a row
/// that does not start on a line).
void onePrefetchPerLine(scf::ParallelOp copy) {
  constexpr int64_t kLine = 64;
  Region &region = copy.getRegion();
  Value x = copy.getInductionVars()[0];
  int64_t perLine = kLine;
  bool any = false;
  WalkResult walk = copy.getBody()->walk([&](LLVM::Prefetch prefetch) {
    auto gep = prefetch.getAddr().getDefiningOp<LLVM::GEPOp>();
    if (!gep || gep.getDynamicIndices().size() != 1 || gep.getIndices().size() != 1 ||
        !independentOf(gep.getBase(), x, region))
      return WalkResult::interrupt();
    Type elem = gep.getElemType();
    if (!elem.isIntOrFloat() || elem.getIntOrFloatBitWidth() % 8 != 0 ||
        !unitStrideIn(gep.getDynamicIndices()[0], x, region))
      return WalkResult::interrupt();
    perLine = std::min<int64_t>(perLine, kLine / (elem.getIntOrFloatBitWidth() / 8));
    any = true;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || !any || perLine < 2)
    return;
  OpBuilder b(copy);
  Location loc = copy.getLoc();
  Value width = copy.getUpperBound()[0];
  Value e = arith::ConstantIndexOp::create(b, loc, perLine);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value lines = arith::CeilDivUIOp::create(b, loc, width, e);
  SmallVector<Value> upper(copy.getUpperBound());
  upper[0] = arith::AddIOp::create(b, loc, lines, one);
  copy.getUpperBoundMutable().assign(upper);
  b.setInsertionPointToStart(copy.getBody());
  Value scaled = arith::MulIOp::create(b, loc, x, e);
  Value last = arith::SubIOp::create(b, loc, width, one);
  Value clamped = arith::MinUIOp::create(b, loc, scaled, last);
  x.replaceAllUsesExcept(clamped, scaled.getDefiningOp());
}

} // namespace

unsigned mlir::tessel::prefetchNextBlock(scf::ParallelOp blocks) {
  Block *body = blocks.getBody();
  for (auto [lb, step] : llvm::zip(blocks.getLowerBound(), blocks.getStep()))
    if (!matchPattern(lb, m_Zero()) || !matchPattern(step, m_One()))
      return 0;
  SmallVector<scf::ParallelOp> staging;
  Operation *op = &body->front();
  for (; op != body->getTerminator(); op = op->getNextNode()) {
    if (isa<LLVM::AllocaOp>(op) || isMemoryEffectFree(op))
      continue;
    auto loop = dyn_cast<scf::ParallelOp>(op);
    if (!loop || !isThreadLoop(loop) || containsBarrier(loop) || !isStagingLoop(loop, blocks))
      break;
    staging.push_back(loop);
  }
  if (staging.empty())
    return 0;
  // Prefetching only pays when the block has work to hide the latency behind.
  bool work = false;
  for (; op != body->getTerminator() && !work; op = op->getNextNode())
    work = !isMemoryEffectFree(op);
  if (!work)
    return 0;

  NextBlock next(blocks);
  bool ok = true;
  for (scf::ParallelOp loop : staging)
    for (Value v : inputsOf(loop))
      next.depends(v, ok);
  if (!ok)
    return 0;

  OpBuilder b(staging.back());
  b.setInsertionPointAfter(staging.back());
  Location loc = blocks.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value bx = body->getArgument(0);
  Value bx1 = arith::AddIOp::create(b, loc, bx, one);
  Value rowEnd =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, bx1, blocks.getUpperBound()[0]);
  next.map.map(bx, arith::SelectOp::create(b, loc, rowEnd, zero, bx1));
  if (blocks.getNumLoops() > 1) {
    Value by = body->getArgument(1);
    Value by1 = arith::AddIOp::create(b, loc, by, one);
    next.map.map(by, arith::SelectOp::create(b, loc, rowEnd, by1, by));
  }
  for (scf::ParallelOp loop : staging) {
    for (Value v : inputsOf(loop))
      next.remap(b, v);
    auto copy = cast<scf::ParallelOp>(b.clone(*loop, next.map));
    turnIntoPrefetches(copy);
    onePrefetchPerLine(copy);
  }
  return staging.size();
}
