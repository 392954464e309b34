//===- ThreadLoops.cpp - splitting thread loops, per-thread storage -------===//

#include "tessel/Transpile/ThreadLoops.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"
#include "tessel/Transpile/MinCut.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tessel;

bool mlir::tessel::isThreadLoop(Operation *op) {
  return isa<scf::ParallelOp>(op) && op->hasAttr(kCUDAThreadsAttr);
}

scf::ParallelOp mlir::tessel::enclosingThreadLoop(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (isThreadLoop(p))
      return cast<scf::ParallelOp>(p);
  return nullptr;
}

bool mlir::tessel::isBlockLoop(Operation *op) {
  return isa<scf::ParallelOp>(op) && op->hasAttr(kCUDABlocksAttr);
}

bool mlir::tessel::containsBarrier(Operation *op) {
  return op
      ->walk([](BarrierOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

Value mlir::tessel::linearThreadId(OpBuilder &b, Location loc,
                                   scf::ParallelOp loop) {
  Value id;
  auto ivs = loop.getInductionVars();
  auto ubs = loop.getUpperBound();
  for (int d = ivs.size() - 1; d >= 0; --d)
    id = id ? Value(arith::AddIOp::create(
                  b, loc, ivs[d], arith::MulIOp::create(b, loc, ubs[d], id)))
            : ivs[d];
  return id;
}

Type mlir::tessel::storageType(Type t) {
  if (t.isIndex())
    return IntegerType::get(t.getContext(), 64);
  // Bytes: LLVM packs vectors of i1 into bits, so the vectorizer would
  // scalarize every store of a per-thread flag.
  if (t.isInteger(1))
    return IntegerType::get(t.getContext(), 8);
  return t;
}

void mlir::tessel::storeToSlot(OpBuilder &b, Location loc, Value v,
                               Value addr) {
  Type t = storageType(v.getType());
  if (v.getType().isIndex())
    v = arith::IndexCastOp::create(b, loc, t, v);
  else if (t != v.getType())
    v = arith::ExtUIOp::create(b, loc, t, v);
  LLVM::StoreOp::create(b, loc, v, addr);
}

Value mlir::tessel::loadFromSlot(OpBuilder &b, Location loc, Type type,
                                 Value addr) {
  Type t = storageType(type);
  Value v = LLVM::LoadOp::create(b, loc, t, addr);
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, type, v);
  if (t != type)
    return arith::TruncIOp::create(b, loc, type, v);
  return v;
}

Value mlir::tessel::perThreadStorage(OpBuilder &b, scf::ParallelOp loop,
                                     Type type) {
  OpBuilder::InsertionGuard g(b);
  Operation *blocks = loop->getParentOp();
  while (blocks && !isBlockLoop(blocks))
    blocks = blocks->getParentOp();
  assert(blocks && "thread loop outside a block loop");
  b.setInsertionPointToStart(&blocks->getRegion(0).front());
  Location loc = loop.getLoc();
  Value n;
  for (Value ub : loop.getUpperBound())
    n = n ? Value(arith::MulIOp::create(b, loc, n, ub)) : ub;
  Value count = arith::IndexCastOp::create(b, loc, b.getI64Type(), n);
  return LLVM::AllocaOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()),
                                storageType(type), count, 16);
}

Value mlir::tessel::perThreadElement(OpBuilder &b, Location loc,
                                     scf::ParallelOp loop, Value storage,
                                     Type type) {
  Value id = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                        linearThreadId(b, loc, loop));
  return LLVM::GEPOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()),
                             storageType(type), storage,
                             ArrayRef<LLVM::GEPArg>{id});
}

void mlir::tessel::privatizeSlots(scf::ParallelOp loop) {
  SmallVector<LLVM::AllocaOp> slots;
  loop.getBody()->walk([&](LLVM::AllocaOp a) {
    // Only the loop's own slots (not those of a nested thread loop).
    if (enclosingThreadLoop(a) == loop)
      slots.push_back(a);
  });
  OpBuilder b(loop.getContext());
  for (LLVM::AllocaOp a : slots) {
    IntegerAttr count;
    if (!matchPattern(a.getArraySize(), m_Constant(&count)))
      continue;
    Type element = a.getElemType();
    if (count.getInt() != 1)
      element = LLVM::LLVMArrayType::get(element, count.getInt());
    Value storage = perThreadStorage(b, loop, element);
    b.setInsertionPoint(a);
    Value mine = perThreadElement(b, a.getLoc(), loop, storage, element);
    a.replaceAllUsesWith(mine);
    a.erase();
  }
}

void mlir::tessel::hoistSlotsToStart(Block *block, Operation *root) {
  SmallVector<LLVM::AllocaOp> nested;
  root->walk([&](LLVM::AllocaOp a) {
    if (a->getBlock() != block && matchPattern(a.getArraySize(), m_Constant()))
      nested.push_back(a);
  });
  for (LLVM::AllocaOp a : nested) {
    Operation *count = a.getArraySize().getDefiningOp()->clone();
    block->push_front(count);
    a->moveAfter(count);
    a->setOperand(0, count->getResult(0));
  }
}

namespace {
/// Materializes values of the old loop inside the new one.
struct CrossingValues {
  scf::ParallelOp oldLoop, newLoop;
  OpBuilder &b;
  IRMapping map;
  /// Where recomputed ops go (the start of the new body, in order).
  Operation *insertAfter = nullptr;

  bool definedInOld(Value v) {
    Region *r = v.getParentRegion();
    return oldLoop.getRegion().isAncestor(r);
  }

  /// Whether `op` may be cloned into the new loop.
  /// Whether `v` is a thread id of the old loop.
  bool isThreadId(Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == oldLoop.getBody();
  }

  /// Whether `v` can be recomputed from the ids and outer values alone.
  bool recomputable(Value v, int depth) {
    if (!definedInOld(v) || map.contains(v))
      return true;
    if (isa<BlockArgument>(v))
      return isThreadId(v);
    Operation *def = v.getDefiningOp();
    if (depth > 16 || !isRecomputableOp(def))
      return false;
    for (Value operand : def->getOperands())
      if (!recomputable(operand, depth + 1))
        return false;
    return true;
  }

  void setInsertion() {
    if (insertAfter)
      b.setInsertionPointAfter(insertAfter);
    else
      b.setInsertionPointToStart(newLoop.getBody());
  }

  /// `v` in the new loop: loaded if it is in `stored`, else recomputed from
  /// its operands (themselves stored, recomputed or from outside).
  Value materialize(Value v, const llvm::DenseSet<Value> &stored) {
    if (Value m = map.lookupOrNull(v))
      return m;
    if (!definedInOld(v))
      return v;
    if (isThreadId(v)) {
      Value iv = newLoop.getInductionVars()[cast<BlockArgument>(v).getArgNumber()];
      map.map(v, iv);
      return iv;
    }
    if (stored.contains(v))
      return storeAndLoad(v);
    Operation *def = v.getDefiningOp();
    for (Value operand : def->getOperands())
      materialize(operand, stored);
    setInsertion();
    insertAfter = b.clone(*def, map);
    return map.lookup(v);
  }

  Value storeAndLoad(Value v) {
    if (Value m = map.lookupOrNull(v))
      return m;
    Location loc = v.getLoc();
    Type t = v.getType();
    Value storage = perThreadStorage(b, oldLoop, t);
    // Store right after the definition, in the old loop.
    if (auto arg = dyn_cast<BlockArgument>(v))
      b.setInsertionPointToStart(arg.getOwner());
    else
      b.setInsertionPointAfter(v.getDefiningOp());
    storeToSlot(b, loc, v, perThreadElement(b, loc, oldLoop, storage, t));
    setInsertion();
    Value addr = perThreadElement(b, loc, newLoop, storage, t);
    Value loaded = loadFromSlot(b, loc, t, addr);
    insertAfter = loaded.getDefiningOp();
    map.map(v, loaded);
    return loaded;
  }
};
} // namespace

bool mlir::tessel::isRecomputableOp(Operation *op) {
  return op->getNumRegions() == 0 && isMemoryEffectFree(op);
}

scf::ParallelOp mlir::tessel::splitThreadLoopBefore(scf::ParallelOp loop,
                                                    Operation *op,
                                                    bool minCut) {
  OpBuilder b(loop);
  b.setInsertionPointAfter(loop);
  auto next = scf::ParallelOp::create(b, loop.getLoc(), loop.getLowerBound(),
                                      loop.getUpperBound(), loop.getStep());
  next->setAttrs(loop->getDiscardableAttrDictionary());
  Block *from = loop.getBody();
  Block *to = next.getBody();
  to->getOperations().splice(to->getTerminator()->getIterator(),
                             from->getOperations(), op->getIterator(),
                             from->getTerminator()->getIterator());

  CrossingValues cv{loop, next, b, {}, nullptr};
  // Every use inside the new loop of a value of the old one.
  SmallVector<OpOperand *> crossing;
  next.getBody()->walk([&](Operation *user) {
    for (OpOperand &use : user->getOpOperands())
      if (cv.definedInOld(use.get()))
        crossing.push_back(&use);
  });
  SetVector<Value> needed;
  for (OpOperand *use : crossing)
    needed.insert(use->get());
  llvm::DenseSet<Value> stored;
  if (minCut) {
    stored = chooseStoredValues(
        needed.getArrayRef(), [&](Value v) { return cv.definedInOld(v); },
        [&](Value v) { return cv.isThreadId(v); },
        isRecomputableOp);
  } else {
    for (Value v : needed)
      if (!cv.recomputable(v, 0))
        stored.insert(v);
  }
  for (OpOperand *use : crossing)
    use->set(cv.materialize(use->get(), stored));
  return next;
}
