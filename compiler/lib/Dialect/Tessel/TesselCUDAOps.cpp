//===- TesselCUDAOps.cpp - ops of imported CUDA kernels --------*- C++ -*-===//
//
// tessel.barrier's memory effects: the union of the effects of the code
// that runs per thread around it.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tessel;

/// The op whose body is the per-thread code around `barrier`: the nearest
/// thread-parallel scf.parallel, else the enclosing function.
static Operation *perThreadScope(Operation *barrier) {
  for (Operation *p = barrier->getParentOp(); p; p = p->getParentOp()) {
    if (isa<scf::ParallelOp>(p) && p->hasAttr(kCUDAThreadsAttr))
      return p;
    if (isa<FunctionOpInterface>(p))
      return p;
  }
  return nullptr;
}

void BarrierOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  Operation *scope = perThreadScope(getOperation());
  bool reads = false, writes = false;
  auto addAll = [&] { reads = writes = true; };
  if (!scope) {
    addAll();
  } else {
    scope->walk([&](Operation *op) {
      if (op == scope || isa<BarrierOp>(op) || (reads && writes))
        return;
      if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return; // nested ops are visited by the walk
      auto iface = dyn_cast<MemoryEffectOpInterface>(op);
      if (!iface) {
        addAll();
        return;
      }
      SmallVector<MemoryEffects::EffectInstance> opEffects;
      iface.getEffects(opEffects);
      for (auto &e : opEffects) {
        reads |= isa<MemoryEffects::Read>(e.getEffect());
        writes |= isa<MemoryEffects::Write>(e.getEffect());
      }
    });
  }
  if (reads)
    effects.emplace_back(MemoryEffects::Read::get());
  if (writes)
    effects.emplace_back(MemoryEffects::Write::get());
}
