//===- BarrierElimination.cpp - remove barriers that order nothing --------===//
//
// tessel-eliminate-barriers: a barrier is needed only if some access
// before it (up to the previous barrier) and some access after it (up to
// the next) may touch the same memory, one of them writing. Accesses to a
// thread's own stack slots never conflict across threads; distinct
// `__shared__` variables (block-level slots) never alias each other or
// kernel pointers. Anything not understood (calls, pointers loaded from
// memory) conflicts with everything. Only barriers that are ops of a
// thread loop's body are considered (the others stay).
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/TesselDialect.h"
#include "tessel/Passes.h"
#include "tessel/Transpile/ThreadLoops.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_ELIMINATEBARRIERSPASS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {
struct Access {
  Value object; ///< null: unknown
  bool write;
};

/// The object `ptr` points into: an alloca, a global, a function argument,
/// or null when it cannot be told.
Value underlyingObject(Value ptr, int depth = 0) {
  while (true) {
    // A pointer kept in a stack slot (a parameter, a local pointer): the
    // object of what every store to the slot put there.
    if (auto load = ptr.getDefiningOp<LLVM::LoadOp>()) {
      auto slot = load.getAddr().getDefiningOp<LLVM::AllocaOp>();
      if (!slot || depth > 4)
        return nullptr;
      Value common;
      for (Operation *user : slot->getUsers()) {
        auto store = dyn_cast<LLVM::StoreOp>(user);
        if (!store) {
          if (isa<LLVM::LoadOp>(user))
            continue;
          return nullptr; // the slot's address escapes
        }
        if (store.getAddr() != slot.getResult())
          return nullptr;
        Value object = underlyingObject(store.getValue(), depth + 1);
        if (!object || (common && common != object))
          return nullptr;
        common = object;
      }
      return common;
    }
    if (auto gep = ptr.getDefiningOp<LLVM::GEPOp>()) {
      ptr = gep.getBase();
      continue;
    }
    if (auto cast = ptr.getDefiningOp<LLVM::AddrSpaceCastOp>()) {
      ptr = cast.getArg();
      continue;
    }
    break;
  }
  if (ptr.getDefiningOp<LLVM::AllocaOp>() || ptr.getDefiningOp<LLVM::AddressOfOp>())
    return ptr;
  if (auto arg = dyn_cast<BlockArgument>(ptr))
    if (isa<FunctionOpInterface>(arg.getOwner()->getParentOp()))
      return ptr;
  return nullptr;
}

/// Collects the accesses of `op` (nested ops too) that other threads may
/// see; false if something is not understood.
bool collect(Operation *op, scf::ParallelOp threads, SmallVectorImpl<Access> &out) {
  bool ok = true;
  op->walk([&](Operation *inner) {
    if (inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>() || isa<BarrierOp>(inner))
      return;
    auto iface = dyn_cast<MemoryEffectOpInterface>(inner);
    if (!iface) {
      ok = false;
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (auto &e : effects) {
      if (isa<MemoryEffects::Allocate, MemoryEffects::Free>(e.getEffect()))
        continue;
      bool write = isa<MemoryEffects::Write>(e.getEffect());
      Value v = e.getValue();
      Value object = v && isa<LLVM::LLVMPointerType>(v.getType()) ? underlyingObject(v) : Value();
      // A slot of this thread (inside the thread loop) is private.
      if (object && object.getDefiningOp<LLVM::AllocaOp>() &&
          threads->isProperAncestor(object.getDefiningOp()))
        continue;
      out.push_back({object, write});
    }
  });
  return ok;
}

bool mayAlias(Value a, Value b) {
  if (!a || !b)
    return true;
  if (a == b)
    return true;
  bool aLocal = a.getDefiningOp<LLVM::AllocaOp>() != nullptr;
  bool bLocal = b.getDefiningOp<LLVM::AllocaOp>() != nullptr;
  if (aLocal || bLocal)
    return false; // distinct slots; kernel pointers never point at slots
  auto ga = a.getDefiningOp<LLVM::AddressOfOp>();
  auto gb = b.getDefiningOp<LLVM::AddressOfOp>();
  if (ga && gb)
    return ga.getGlobalName() == gb.getGlobalName();
  return true;
}

bool conflict(ArrayRef<Access> x, ArrayRef<Access> y) {
  for (const Access &a : x)
    for (const Access &b : y)
      if ((a.write || b.write) && mayAlias(a.object, b.object))
        return true;
  return false;
}

struct EliminateBarriersPass
    : public tessel::impl::EliminateBarriersPassBase<EliminateBarriersPass> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation().walk([&](scf::ParallelOp p) {
      if (isThreadLoop(p))
        loops.push_back(p);
    });
    for (scf::ParallelOp threads : loops) {
      // The body's ops in segments between top-level barriers.
      SmallVector<SmallVector<Operation *>> segments(1);
      SmallVector<BarrierOp> barriers;
      for (Operation &op : threads.getBody()->without_terminator()) {
        if (auto b = dyn_cast<BarrierOp>(op)) {
          barriers.push_back(b);
          segments.emplace_back();
        } else {
          segments.back().push_back(&op);
        }
      }
      // Greedily, left to right: a removed barrier merges its segments.
      SmallVector<Access> before;
      bool beforeOk = true;
      for (Operation *op : segments[0])
        beforeOk &= collect(op, threads, before);
      for (auto [i, barrier] : llvm::enumerate(barriers)) {
        SmallVector<Access> after;
        bool afterOk = true;
        for (Operation *op : segments[i + 1])
          afterOk &= collect(op, threads, after);
        bool nested = llvm::any_of(segments[i + 1], containsBarrier) ||
                      llvm::any_of(segments[i], containsBarrier);
        if (beforeOk && afterOk && !nested && !conflict(before, after)) {
          barrier.erase();
          before.append(after);
        } else {
          before = std::move(after);
          beforeOk = afterOk;
        }
      }
    }
  }
};
} // namespace
