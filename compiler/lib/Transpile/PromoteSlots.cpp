//===- PromoteSlots.cpp - stack slots of imported kernels to SSA values ---===//
//
// tessel-promote-slots: the CUDA importer gives every local variable a
// stack slot (clang's alloca / load / store) inside structured control flow
// (scf.if, scf.while, scf.for). Upstream mem2reg only promotes slots of
// unstructured control flow, and LLVM's, much later, can no longer promote
// them: fission has made them per-thread arrays by then, and the thread
// loops stay scalar. This pass promotes them before the transpilation:
// a load becomes the value last stored on its path; a slot stored inside an
// scf.if, scf.while or scf.for whose value is still needed after it (or in
// the loop's next iteration) is carried as a result / loop-carried value.
//
// A slot is promoted when
//   - it is an llvm.alloca of one element whose enclosing ops, up to the
//     kernel, are scf.if, scf.while or scf.for (the entry block, or a
//     device function's slot inlined into a branch or a loop body),
//   - every use is a non-volatile, non-atomic llvm.load or llvm.store of
//     the element type with the slot as the address,
//   - every op around a use, up to the kernel, is an scf.if, scf.while or
//     scf.for, and
//   - it is not carried through an scf.if or scf.for holding a barrier
//     (such a slot stays memory and becomes a per-thread array at
//     fission); through an scf.while holding one it is, and the thread-loop
//     interchange keeps it a value if it is uniform, else puts it back into
//     a slot (UniformLoops.h).
// A load with no store before it (an uninitialized local) reads zero.
//
// Before that, a load through a select of two slots (what clang emits for
// `c ? a : b` on two locals read as an lvalue, e.g. a MIN macro) becomes a
// select of two loads, as LLVM's SROA does: both slots are always readable,
// and the slots can then be promoted.
//
// Liveness is computed on the structured program, conservatively: a store
// inside a conditional or a loop body does not kill the value before it.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"
#include "tessel/Transpile/ThreadLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_PROMOTESLOTSPASS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

bool isStructuredControlFlow(Operation *op) {
  return isa<scf::IfOp, scf::WhileOp, scf::ForOp>(op);
}

/// How a block (or op) treats a slot's incoming value: reads it before any
/// store (exposed), overwrites it on every path first (killed), or neither.
enum class Access { Transparent, Exposed, Killed };

class SlotLiveness {
public:
  explicit SlotLiveness(Value slot) : slot(slot) {}

  Access scanBlock(Block &block) {
    for (Operation &op : block) {
      Access a = scanOp(&op);
      if (a != Access::Transparent)
        return a;
    }
    return Access::Transparent;
  }

  /// Whether the value held in the slot just after `op` may be read later.
  bool liveAfter(Operation *op) {
    for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
      Access a = scanOp(next);
      if (a == Access::Exposed)
        return true;
      if (a == Access::Killed)
        return false;
    }
    // A slot declared in this block is gone at its end.
    if (slot.getDefiningOp()->getBlock() == op->getBlock())
      return false;
    Operation *parent = op->getParentOp();
    if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
      if (op->getParentRegion() == &loop.getBefore())
        // On to the body or out of the loop.
        return scanBlock(loop.getAfter().front()) == Access::Exposed ||
               liveAtHead(loop) || liveAfter(loop);
      // Back to the condition.
      return liveAtHead(loop) || liveAfter(loop);
    }
    if (auto loop = dyn_cast<scf::ForOp>(parent))
      return liveAtHead(loop) || liveAfter(loop);
    if (isa<scf::IfOp>(parent))
      return liveAfter(parent);
    return false; // the kernel's end
  }

  /// Whether the slot's value on entry to an iteration may be read in it.
  bool liveAtHead(scf::WhileOp loop) {
    Access before = scanBlock(loop.getBefore().front());
    if (before != Access::Transparent)
      return before == Access::Exposed;
    return scanBlock(loop.getAfter().front()) == Access::Exposed;
  }
  bool liveAtHead(scf::ForOp loop) {
    return scanBlock(*loop.getBody()) == Access::Exposed;
  }

  /// Whether `op` must carry the slot's value: it stores the slot and the
  /// value is needed after it or across its iterations (never when the slot
  /// itself lives inside `op`: each execution of its body has a fresh one).
  bool carries(Operation *op) {
    if (op->isAncestor(slot.getDefiningOp()) || !storesInside(op))
      return false;
    if (auto loop = dyn_cast<scf::WhileOp>(op))
      return liveAtHead(loop) || liveAfter(op);
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return liveAtHead(loop) || liveAfter(op);
    return liveAfter(op);
  }

  bool storesInside(Operation *op) {
    return op
        ->walk([&](LLVM::StoreOp s) {
          return s.getAddr() == slot ? WalkResult::interrupt()
                                     : WalkResult::advance();
        })
        .wasInterrupted();
  }

private:
  Access scanOp(Operation *op) {
    if (auto load = dyn_cast<LLVM::LoadOp>(op))
      return load.getAddr() == slot ? Access::Exposed : Access::Transparent;
    if (auto store = dyn_cast<LLVM::StoreOp>(op))
      return store.getAddr() == slot ? Access::Killed : Access::Transparent;
    if (op->getNumRegions() == 0)
      return Access::Transparent;
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      Access t = scanBlock(ifOp.getThenRegion().front());
      Access e = ifOp.getElseRegion().empty()
                     ? Access::Transparent
                     : scanBlock(ifOp.getElseRegion().front());
      if (t == Access::Exposed || e == Access::Exposed)
        return Access::Exposed;
      return t == Access::Killed && e == Access::Killed ? Access::Killed
                                                        : Access::Transparent;
    }
    if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      Access before = scanBlock(loop.getBefore().front());
      if (before != Access::Transparent)
        return before;
      return scanBlock(loop.getAfter().front()) == Access::Exposed
                 ? Access::Exposed
                 : Access::Transparent;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return scanBlock(*loop.getBody()) == Access::Exposed
                 ? Access::Exposed
                 : Access::Transparent;
    // Not reached for promoted slots (all uses under structured control
    // flow); conservative otherwise.
    bool uses = op->walk([&](Operation *inner) {
                    for (Value v : inner->getOperands())
                      if (v == slot)
                        return WalkResult::interrupt();
                    return WalkResult::advance();
                  })
                    .wasInterrupted();
    return uses ? Access::Exposed : Access::Transparent;
  }

  Value slot;
};

/// Whether `op`'s enclosing ops up to `kernel` are all structured control
/// flow the promotion rewrites.
bool underStructuredControlFlow(Operation *op, func::FuncOp kernel) {
  for (Operation *p = op->getParentOp(); p != kernel; p = p->getParentOp())
    if (!isStructuredControlFlow(p))
      return false;
  return true;
}

/// Whether `alloca` (in `kernel`) can be promoted, by the rules above.
bool isPromotable(LLVM::AllocaOp alloca, func::FuncOp kernel) {
  if (!matchPattern(alloca.getArraySize(), m_One()) ||
      !underStructuredControlFlow(alloca, kernel))
    return false;
  Type elt = alloca.getElemType();
  for (Operation *user : alloca->getUsers()) {
    if (auto load = dyn_cast<LLVM::LoadOp>(user)) {
      if (load.getVolatile_() || load.getOrdering() != LLVM::AtomicOrdering::not_atomic ||
          load.getType() != elt)
        return false;
    } else if (auto store = dyn_cast<LLVM::StoreOp>(user)) {
      if (store.getValue() == alloca.getResult() || store.getVolatile_() ||
          store.getOrdering() != LLVM::AtomicOrdering::not_atomic ||
          store.getValue().getType() != elt)
        return false;
    } else {
      return false;
    }
    if (!underStructuredControlFlow(user, kernel))
      return false;
  }
  // Not carried through an scf.if or scf.for holding a barrier (loops
  // holding barriers are scf.while: the interchange keeps their uniform
  // carried values and gives the rest back to memory, UniformLoops.h).
  SlotLiveness live(alloca.getResult());
  bool blocked = false;
  kernel.walk([&](Operation *op) {
    if (isa<scf::IfOp, scf::ForOp>(op) && containsBarrier(op) &&
        live.carries(op))
      blocked = true;
  });
  return !blocked;
}

/// Whether `v` is a one-element stack slot.
bool isSlot(Value v) {
  auto alloca = v.getDefiningOp<LLVM::AllocaOp>();
  return alloca && matchPattern(alloca.getArraySize(), m_One());
}

/// load(select(c, slot1, slot2)) -> select(c, load slot1, load slot2), for
/// selects whose every user is such a load.
void speculateLoadsThroughSelects(func::FuncOp kernel) {
  SmallVector<arith::SelectOp> selects;
  kernel.walk([&](arith::SelectOp sel) {
    if (!isa<LLVM::LLVMPointerType>(sel.getType()) ||
        !isSlot(sel.getTrueValue()) || !isSlot(sel.getFalseValue()))
      return;
    for (Operation *user : sel->getUsers()) {
      auto load = dyn_cast<LLVM::LoadOp>(user);
      if (!load || load.getAddr() != sel.getResult() || load.getVolatile_() ||
          load.getOrdering() != LLVM::AtomicOrdering::not_atomic)
        return;
    }
    selects.push_back(sel);
  });
  for (arith::SelectOp sel : selects) {
    for (Operation *user : llvm::make_early_inc_range(sel->getUsers())) {
      auto load = cast<LLVM::LoadOp>(user);
      OpBuilder b(load);
      auto loadFrom = [&](Value slot) {
        return LLVM::LoadOp::create(b, load.getLoc(), load.getType(), slot,
                                    load.getAlignment().value_or(0));
      };
      Value t = loadFrom(sel.getTrueValue());
      Value f = loadFrom(sel.getFalseValue());
      load.replaceAllUsesWith(
          arith::SelectOp::create(b, load.getLoc(), sel.getCondition(), t, f)
              .getResult());
      load.erase();
    }
    sel.erase();
  }
}

/// Rewrites the kernel's loads and stores of `slots` into SSA values.
class Promoter {
public:
  /// The slots each structured op carries are decided on the program as
  /// imported, before any rewriting changes what the scans see.
  Promoter(func::FuncOp kernel, ArrayRef<Value> slots)
      : slots(slots.begin(), slots.end()) {
    kernel.walk([&](Operation *op) {
      if (!isStructuredControlFlow(op))
        return;
      SmallVector<Value> &carry = carryMap[op];
      for (Value slot : slots)
        if (SlotLiveness(slot).carries(op))
          carry.push_back(slot);
    });
  }

  void run(Block &entry) {
    DenseMap<Value, Value> current;
    promoteBlock(entry, current);
  }

private:
  using Values = DenseMap<Value, Value>;

  /// The value of `slot` in `current`, or zero for a slot never stored.
  Value valueOf(OpBuilder &b, Location loc, Value slot, Values &current) {
    if (Value v = current.lookup(slot))
      return v;
    Type t = cast<LLVM::AllocaOp>(slot.getDefiningOp()).getElemType();
    return LLVM::ZeroOp::create(b, loc, t);
  }

  /// Slots `op` must carry (stored inside, live after or across).
  SmallVector<Value> carried(Operation *op) { return carryMap.lookup(op); }

  void promoteBlock(Block &block, Values &current) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
        if (!slots.contains(load.getAddr()))
          continue;
        OpBuilder b(load);
        load.replaceAllUsesWith(
            valueOf(b, load.getLoc(), load.getAddr(), current));
        load.erase();
      } else if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
        if (!slots.contains(store.getAddr()))
          continue;
        current[store.getAddr()] = store.getValue();
        store.erase();
      } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        promoteIf(ifOp, current);
      } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
        promoteWhile(loop, current);
      } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
        promoteFor(loop, current);
      }
    }
  }

  /// Replaces `op` by `replacement`, which has the same results followed by
  /// one per carried slot: the slots' values after it.
  void replaceWithCarrying(Operation *op, Operation *replacement,
                           ArrayRef<Value> carry, Values &current) {
    unsigned n = op->getNumResults();
    op->replaceAllUsesWith(replacement->getResults().take_front(n));
    for (auto [slot, v] : llvm::zip(carry, replacement->getResults().drop_front(n)))
      current[slot] = v;
    op->erase();
  }

  /// Appends the carried slots' values to the terminator of `block`.
  void appendToTerminator(Block &block, ArrayRef<Value> carry,
                          Values &current) {
    Operation *term = block.getTerminator();
    OpBuilder b(term);
    SmallVector<Value> operands(term->getOperands());
    for (Value slot : carry)
      operands.push_back(valueOf(b, term->getLoc(), slot, current));
    term->setOperands(operands);
  }

  void promoteIf(scf::IfOp op, Values &current) {
    SmallVector<Value> carry = carried(op);
    OpBuilder b(op);
    if (carry.empty()) {
      Values inThen = current, inElse = current;
      promoteBlock(op.getThenRegion().front(), inThen);
      if (!op.getElseRegion().empty())
        promoteBlock(op.getElseRegion().front(), inElse);
      return;
    }
    // A new if with the carried values as extra results.
    SmallVector<Type> types(op.getResultTypes());
    for (Value slot : carry)
      types.push_back(cast<LLVM::AllocaOp>(slot.getDefiningOp()).getElemType());
    auto newIf = scf::IfOp::create(b, op.getLoc(), types, op.getCondition(),
                                   /*withElseRegion=*/true);
    newIf.getThenRegion().takeBody(op.getThenRegion());
    if (!op.getElseRegion().empty()) {
      newIf.getElseRegion().takeBody(op.getElseRegion());
    } else {
      // The builder's else block is empty when the if has results.
      b.setInsertionPointToStart(&newIf.getElseRegion().front());
      scf::YieldOp::create(b, op.getLoc());
    }
    Values inThen = current, inElse = current;
    promoteBlock(newIf.getThenRegion().front(), inThen);
    appendToTerminator(newIf.getThenRegion().front(), carry, inThen);
    promoteBlock(newIf.getElseRegion().front(), inElse);
    appendToTerminator(newIf.getElseRegion().front(), carry, inElse);
    replaceWithCarrying(op, newIf, carry, current);
  }

  void promoteWhile(scf::WhileOp op, Values &current) {
    SmallVector<Value> carry = carried(op);
    if (carry.empty()) {
      Values inBefore = current, inAfter = current;
      promoteBlock(op.getBefore().front(), inBefore);
      promoteBlock(op.getAfter().front(), inAfter);
      return;
    }
    OpBuilder b(op);
    Location loc = op.getLoc();
    SmallVector<Value> inits(op.getInits());
    SmallVector<Type> carriedTypes;
    for (Value slot : carry) {
      inits.push_back(valueOf(b, loc, slot, current));
      carriedTypes.push_back(inits.back().getType());
    }
    SmallVector<Type> beforeTypes(op.getBefore().getArgumentTypes());
    llvm::append_range(beforeTypes, carriedTypes);
    SmallVector<Type> resultTypes(op.getResultTypes());
    llvm::append_range(resultTypes, carriedTypes);
    auto newLoop = scf::WhileOp::create(b, loc, resultTypes, inits);
    newLoop.getBefore().takeBody(op.getBefore());
    newLoop.getAfter().takeBody(op.getAfter());
    Block &before = newLoop.getBefore().front();
    Block &after = newLoop.getAfter().front();

    Values inBefore = current;
    for (auto [slot, t] : llvm::zip(carry, carriedTypes))
      inBefore[slot] = before.addArgument(t, loc);
    promoteBlock(before, inBefore);
    // The condition forwards the carried values to the body and the results.
    auto cond = cast<scf::ConditionOp>(before.getTerminator());
    {
      OpBuilder cb(cond);
      SmallVector<Value> args(cond.getArgs());
      for (Value slot : carry)
        args.push_back(valueOf(cb, loc, slot, inBefore));
      cond.getArgsMutable().assign(args);
    }
    Values inAfter = current;
    for (auto [slot, t] : llvm::zip(carry, carriedTypes))
      inAfter[slot] = after.addArgument(t, loc);
    promoteBlock(after, inAfter);
    appendToTerminator(after, carry, inAfter);

    replaceWithCarrying(op, newLoop, carry, current);
  }

  void promoteFor(scf::ForOp op, Values &current) {
    SmallVector<Value> carry = carried(op);
    if (carry.empty()) {
      Values inBody = current;
      promoteBlock(*op.getBody(), inBody);
      return;
    }
    OpBuilder b(op);
    Location loc = op.getLoc();
    SmallVector<Value> inits(op.getInitArgs());
    for (Value slot : carry)
      inits.push_back(valueOf(b, loc, slot, current));
    auto newLoop = scf::ForOp::create(b, loc, op.getLowerBound(),
                                      op.getUpperBound(), op.getStep(), inits);
    // The old body (with its yield: the builder adds none to a loop with
    // iteration arguments), its arguments mapped to the new loop's.
    Block *body = newLoop.getBody();
    body->getOperations().splice(body->end(), op.getBody()->getOperations());
    for (auto [oldArg, newArg] :
         llvm::zip(op.getBody()->getArguments(),
                   body->getArguments().take_front(
                       op.getBody()->getNumArguments())))
      oldArg.replaceAllUsesWith(newArg);
    Values inBody = current;
    for (auto [slot, arg] :
         llvm::zip(carry, body->getArguments().drop_front(
                              op.getBody()->getNumArguments())))
      inBody[slot] = arg;
    promoteBlock(*body, inBody);
    appendToTerminator(*body, carry, inBody);
    replaceWithCarrying(op, newLoop, carry, current);
  }

  llvm::SetVector<Value> slots;
  DenseMap<Operation *, SmallVector<Value>> carryMap;
};

struct PromoteSlotsPass
    : public tessel::impl::PromoteSlotsPassBase<PromoteSlotsPass> {
  void runOnOperation() override {
    getOperation().walk([](func::FuncOp kernel) {
      if (kernel.isExternal())
        return;
      speculateLoadsThroughSelects(kernel);
      SmallVector<Value> slots;
      kernel.walk([&](LLVM::AllocaOp alloca) {
        if (isPromotable(alloca, kernel))
          slots.push_back(alloca.getResult());
      });
      if (slots.empty())
        return;
      Promoter(kernel, slots).run(kernel.getBody().front());
      for (Value slot : slots)
        if (slot.use_empty())
          slot.getDefiningOp()->erase();
    });
  }
};
} // namespace
