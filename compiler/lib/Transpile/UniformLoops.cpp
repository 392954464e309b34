//===- UniformLoops.cpp - loops with barriers that every thread runs alike ===//

#include "tessel/Transpile/UniformLoops.h"

#include "tessel/Transpile/ThreadLoops.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"

#include <optional>

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Which values of a thread loop (and of a loop in it) are the same for
/// every thread, given the loop's carried values in `assumed` are.
class Uniformity {
public:
  Uniformity(scf::ParallelOp threads, scf::WhileOp loop,
             const llvm::BitVector &assumed)
      : threads(threads), loop(loop), assumed(assumed) {}
  /// For the thread loop's own body only.
  explicit Uniformity(scf::ParallelOp threads)
      : threads(threads), loop(nullptr), assumed(none) {}

  bool uniform(Value v) {
    if (auto it = memo.find(v); it != memo.end())
      return it->second;
    bool result = compute(v);
    memo[v] = result;
    return result;
  }

  /// Whether `op` computes only uniform values (an op without results
  /// runs for its effects: not uniform).
  bool uniformOp(Operation &op) {
    return op.getNumResults() > 0 &&
           llvm::all_of(op.getResults(), [&](Value r) { return uniform(r); });
  }

  /// Every op of the before block is uniform (it will run once for all
  /// threads), and so is the condition.
  bool uniformCondition() {
    Block &before = loop.getBefore().front();
    if (!llvm::all_of(before.without_terminator(),
                      [&](Operation &op) { return uniformOp(op); }))
      return false;
    auto cond = cast<scf::ConditionOp>(before.getTerminator());
    return uniform(cond.getCondition());
  }

private:
  bool compute(Value v) {
    if (!threads.getRegion().isAncestor(v.getParentRegion()))
      return true; // from outside the thread loop
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Block *owner = arg.getOwner();
      if (loop && (owner == &loop.getBefore().front() ||
                   owner == &loop.getAfter().front()))
        return assumed.test(arg.getArgNumber());
      return false; // thread ids and the arguments of nested regions
    }
    Operation *def = v.getDefiningOp();
    // Inside the branches of conditionals (an `if (!done) i++` of a loop
    // with a break), the conditional decides.
    Block *block = def->getBlock();
    while (isa<scf::IfOp>(block->getParentOp()))
      block = block->getParentOp()->getBlock();
    if (block != threads.getBody() &&
        !(loop && (block == &loop.getBefore().front() ||
                   block == &loop.getAfter().front())))
      return false;
    if (!isMemoryEffectFree(def))
      return false;
    memo[v] = false; // no cycles in SSA; guards deep recursion on repeats
    if (auto ifOp = dyn_cast<scf::IfOp>(def))
      return uniform(ifOp.getCondition()) &&
             uniformYields(ifOp.thenYield()) &&
             (!ifOp.elseBlock() || uniformYields(ifOp.elseYield()));
    // Any other op without effects (a loop without barriers computing a
    // bound) computes the same for every thread when everything it reads
    // is the same.
    if (!llvm::all_of(def->getOperands(), [&](Value o) { return uniform(o); }))
      return false;
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(def->getRegions(), captured);
    return llvm::all_of(captured, [&](Value o) { return uniform(o); });
  }

  bool uniformYields(scf::YieldOp yield) {
    return llvm::all_of(yield.getOperands(),
                        [&](Value o) { return uniform(o); });
  }

  scf::ParallelOp threads;
  scf::WhileOp loop;
  llvm::BitVector none;
  const llvm::BitVector &assumed;
  llvm::DenseMap<Value, bool> memo;
};

/// The carried values of `loop` (an op of `threads`' body, paired) that are
/// uniform, by a fixpoint from "all of them"; none if the loop as a whole
/// (its condition) is not uniform even so.
std::optional<llvm::BitVector> uniformValues(scf::WhileOp loop,
                                             scf::ParallelOp threads) {
  unsigned n = loop.getInits().size();
  llvm::BitVector assumed(n, true);
  auto cond = cast<scf::ConditionOp>(loop.getBefore().front().getTerminator());
  auto yield = cast<scf::YieldOp>(loop.getAfter().front().getTerminator());
  for (bool changed = true; changed;) {
    changed = false;
    Uniformity u(threads, loop, assumed);
    for (unsigned k : assumed.set_bits())
      if (!u.uniform(loop.getInits()[k]) || !u.uniform(cond.getArgs()[k]) ||
          !u.uniform(yield.getOperand(k))) {
        assumed.reset(k);
        changed = true;
        break;
      }
  }
  if (!Uniformity(threads, loop, assumed).uniformCondition())
    return std::nullopt;
  return assumed;
}

/// The start of the thread loop's body, where its stack slots go.
Value slotIn(scf::ParallelOp threads, Type type, Location loc) {
  OpBuilder b = OpBuilder::atBlockBegin(threads.getBody());
  Value one = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                       b.getI64IntegerAttr(1));
  return LLVM::AllocaOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), storageType(type),
      one);
}

} // namespace

scf::WhileOp mlir::tessel::dropLoopValues(scf::WhileOp loop, const llvm::BitVector &drop) {
  unsigned n = loop.getInits().size();
  auto cond = cast<scf::ConditionOp>(loop.getBefore().front().getTerminator());
  auto yield = cast<scf::YieldOp>(loop.getAfter().front().getTerminator());
  SmallVector<Value> inits;
  SmallVector<Type> types;
  for (unsigned k = 0; k < n; ++k)
    if (!drop.test(k)) {
      inits.push_back(loop.getInits()[k]);
      types.push_back(inits.back().getType());
    }
  OpBuilder b(loop);
  auto rebuilt = scf::WhileOp::create(b, loop.getLoc(), types, inits);
  rebuilt.getBefore().takeBody(loop.getBefore());
  rebuilt.getAfter().takeBody(loop.getAfter());
  for (unsigned k = n; k-- > 0;)
    if (drop.test(k)) {
      cond.getArgsMutable().erase(k);
      yield->eraseOperand(k);
    }
  rebuilt.getBefore().front().eraseArguments(drop);
  rebuilt.getAfter().front().eraseArguments(drop);
  unsigned j = 0;
  for (unsigned k = 0; k < n; ++k)
    if (!drop.test(k))
      loop.getResult(k).replaceAllUsesWith(rebuilt.getResult(j++));
  loop.erase();
  return rebuilt;
}

bool mlir::tessel::isPairedLoop(scf::WhileOp loop) {
  unsigned n = loop.getInits().size();
  Block &before = loop.getBefore().front(), &after = loop.getAfter().front();
  auto cond = cast<scf::ConditionOp>(before.getTerminator());
  auto yield = cast<scf::YieldOp>(after.getTerminator());
  if (before.getNumArguments() != n || cond.getArgs().size() != n ||
      after.getNumArguments() != n || yield.getNumOperands() != n ||
      loop.getNumResults() != n)
    return false;
  for (unsigned k = 0; k < n; ++k) {
    Type t = loop.getInits()[k].getType();
    if (before.getArgument(k).getType() != t ||
        cond.getArgs()[k].getType() != t ||
        after.getArgument(k).getType() != t ||
        yield.getOperand(k).getType() != t || loop.getResult(k).getType() != t)
      return false;
  }
  return true;
}

void mlir::tessel::hoistUniformOps(scf::ParallelOp threads, Operation *end) {
  Uniformity u(threads);
  for (Operation &op : llvm::make_early_inc_range(
           llvm::make_range(threads.getBody()->begin(), end->getIterator())))
    if (isMemoryEffectFree(&op) && u.uniformOp(op))
      op.moveBefore(threads);
}

bool mlir::tessel::isUniformLoop(scf::WhileOp loop, scf::ParallelOp threads) {
  if (loop->getParentOp() != threads.getOperation() || !isPairedLoop(loop))
    return false;
  for (Operation &op : loop.getBefore().front())
    if (containsBarrier(&op))
      return false;
  std::optional<llvm::BitVector> uniform = uniformValues(loop, threads);
  return uniform && uniform->all();
}

FailureOr<scf::WhileOp>
mlir::tessel::demoteLoopValues(scf::WhileOp loop, scf::ParallelOp threads,
                               bool keepUniform) {
  unsigned n = loop.getInits().size();
  if (n == 0 && loop.getNumResults() == 0 &&
      cast<scf::ConditionOp>(loop.getBefore().front().getTerminator())
          .getArgs()
          .empty())
    return loop;
  if (!isPairedLoop(loop))
    return failure();
  for (Value init : loop.getInits())
    if (!LLVM::isCompatibleType(init.getType()))
      return failure();
  llvm::BitVector demote(n, true);
  if (keepUniform && loop->getParentOp() == threads.getOperation())
    if (std::optional<llvm::BitVector> uniform = uniformValues(loop, threads))
      demote = uniform->flip();
  if (demote.none())
    return loop;

  Location loc = loop.getLoc();
  Block &before = loop.getBefore().front(), &after = loop.getAfter().front();
  auto cond = cast<scf::ConditionOp>(before.getTerminator());
  auto yield = cast<scf::YieldOp>(after.getTerminator());
  // Loads and stores only where a value is read or changes, so that a
  // value merely passed along adds no memory op to the condition.
  auto loadFor = [&](OpBuilder &b, Value v, Type t, Value slot,
                     function_ref<bool(OpOperand &)> which) {
    if (llvm::none_of(v.getUses(), [&](OpOperand &u) { return which(u); }))
      return;
    Value loaded = loadFromSlot(b, loc, t, slot);
    v.replaceUsesWithIf(loaded, which);
  };
  for (unsigned k : demote.set_bits()) {
    Type t = loop.getInits()[k].getType();
    Value slot = slotIn(threads, t, loc);
    OpBuilder b(loop);
    storeToSlot(b, loc, loop.getInits()[k], slot);
    Value beforeArg = before.getArgument(k), afterArg = after.getArgument(k);
    unsigned forwarded = 1 + k; // operand of the condition op
    b.setInsertionPoint(cond);
    if (cond.getArgs()[k] != beforeArg)
      storeToSlot(b, loc, cond.getArgs()[k], slot);
    b.setInsertionPointToStart(&before);
    loadFor(b, beforeArg, t, slot, [&](OpOperand &u) {
      return !(u.getOwner() == cond && u.getOperandNumber() == forwarded);
    });
    b.setInsertionPoint(yield);
    if (yield.getOperand(k) != afterArg)
      storeToSlot(b, loc, yield.getOperand(k), slot);
    b.setInsertionPointToStart(&after);
    loadFor(b, afterArg, t, slot, [&](OpOperand &u) {
      return !(u.getOwner() == yield && u.getOperandNumber() == k);
    });
    b.setInsertionPointAfter(loop);
    loadFor(b, loop.getResult(k), t, slot, [](OpOperand &) { return true; });
  }
  return dropLoopValues(loop, demote);
}

LogicalResult mlir::tessel::interchangeUniformWhile(scf::ParallelOp threads,
                                                    scf::WhileOp loop) {
  if (!isUniformLoop(loop, threads))
    return loop.emitError("internal: the loop is not uniform");
  Location loc = loop.getLoc();
  llvm::BitVector all(loop.getInits().size(), true);
  Uniformity u(threads, loop, all);
  SmallVector<Operation *> header, suffix;
  bool seen = false;
  for (Operation &op : threads.getBody()->without_terminator()) {
    if (&op == loop.getOperation())
      seen = true;
    else
      (seen ? suffix : header).push_back(&op);
  }

  OpBuilder b(threads);
  // The header's uniform values, once, outside.
  IRMapping outside;
  for (Operation *op : header)
    if (u.uniformOp(*op))
      b.clone(*op, outside);
  // A thread loop like `threads` running `body` after the header.
  auto threadLoop = [&](OpBuilder &ob, IRMapping &map,
                        function_ref<void(OpBuilder &, IRMapping &)> body) {
    auto p = scf::ParallelOp::create(ob, loc, threads.getLowerBound(),
                                     threads.getUpperBound(),
                                     threads.getStep());
    p->setAttrs(threads->getDiscardableAttrDictionary());
    OpBuilder pb = OpBuilder::atBlockBegin(p.getBody());
    for (auto [o, nv] :
         llvm::zip(threads.getInductionVars(), p.getInductionVars()))
      map.map(o, nv);
    for (Operation *op : header)
      pb.clone(*op, map);
    body(pb, map);
    return p;
  };

  SmallVector<Value> inits;
  for (Value v : loop.getInits())
    inits.push_back(outside.lookupOrDefault(v));
  auto outer = scf::WhileOp::create(b, loc, loop.getResultTypes(), inits);
  Block &oldBefore = loop.getBefore().front(), &oldAfter = loop.getAfter().front();
  {
    SmallVector<Location> locs(oldBefore.getNumArguments(), loc);
    Block *before = b.createBlock(&outer.getBefore(), {},
                                  oldBefore.getArgumentTypes(), locs);
    IRMapping map = outside;
    map.map(oldBefore.getArguments(), before->getArguments());
    for (Operation &op : oldBefore)
      b.clone(op, map);
  }
  {
    SmallVector<Location> locs(oldAfter.getNumArguments(), loc);
    Block *after = b.createBlock(&outer.getAfter(), {},
                                 oldAfter.getArgumentTypes(), locs);
    IRMapping inner = outside;
    inner.map(oldAfter.getArguments(), after->getArguments());
    threadLoop(b, inner, [&](OpBuilder &pb, IRMapping &map) {
      for (Operation &op : oldAfter.without_terminator())
        pb.clone(op, map);
    });
    // The carried values' next values, computed once after the threads.
    IRMapping next = outside;
    next.map(oldAfter.getArguments(), after->getArguments());
    for (Operation &op : oldAfter.without_terminator())
      if (u.uniformOp(op))
        b.clone(op, next);
    SmallVector<Value> yields;
    for (Value v : oldAfter.getTerminator()->getOperands())
      yields.push_back(next.lookupOrDefault(v));
    scf::YieldOp::create(b, loc, yields);
  }
  b.setInsertionPointAfter(outer);
  if (!suffix.empty()) {
    IRMapping map;
    map.map(loop.getResults(), outer.getResults());
    threadLoop(b, map, [&](OpBuilder &pb, IRMapping &m) {
      for (Operation *op : suffix)
        pb.clone(*op, m);
    });
  }
  threads.erase();
  return success();
}
