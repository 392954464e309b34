//===- SpecializeDispatches.cpp - tessel-specialize-dispatches -*- C++ -*-===//
//
// One kernel for every M of a dynamic matmul must pick its tiles before M
// is known: large tiles starve the GPU at M = 16, small ones waste it at
// M = 8192. The host knows M, so a matmul dispatch gets a variant per bucket
// of M, each planned for its bucket's upper end (tessel.assumed_extents),
// and the host program branches to the one that holds M.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_SPECIALIZEDISPATCHES
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

bool hasContraction(func::FuncOp fn) {
  WalkResult found = fn.walk([](linalg::LinalgOp op) {
    return linalg::isaContractionOpInterface(op) ? WalkResult::interrupt()
                                                 : WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// The single host value all of `dispatch`'s dims are, or null.
Value singleDim(DispatchOp dispatch) {
  Value dim;
  for (Value d : dispatch.getDims()) {
    if (dim && d != dim)
      return {};
    dim = d;
  }
  return dim;
}

/// A copy of `fn` next to it, named `fn`_m<bucket>, planned for `bucket`
/// in each of its `pushConstants` push constants.
func::FuncOp cloneForBucket(func::FuncOp fn, int64_t bucket,
                            int64_t pushConstants, SymbolTable &symbols) {
  OpBuilder b(fn);
  b.setInsertionPointAfter(fn);
  auto variant = cast<func::FuncOp>(b.clone(*fn));
  variant.setSymName((fn.getSymName() + "_m" + Twine(bucket)).str());
  symbols.insert(variant);
  variant->setAttr(kAssumedExtentsAttr,
                   b.getDenseI64ArrayAttr(
                       SmallVector<int64_t>(pushConstants, bucket)));
  return variant;
}

/// `dispatch` as a chain of scf.if over its variants, smallest bucket
/// first; the original function takes what is left.
void specialize(DispatchOp dispatch, Value m, ArrayRef<func::FuncOp> variants,
                ArrayRef<int64_t> buckets, func::FuncOp rest) {
  OpBuilder b(dispatch);
  Location loc = dispatch.getLoc();
  TypeRange types = dispatch.getResultTypes();
  std::function<SmallVector<Value>(size_t)> build =
      [&](size_t i) -> SmallVector<Value> {
    if (i == variants.size()) {
      auto last = cast<DispatchOp>(b.clone(*dispatch));
      last.setCallee(func::FuncOp(rest).getSymName());
      return last->getResults();
    }
    Value fits = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::sle, m,
        arith::ConstantIndexOp::create(b, loc, buckets[i]));
    auto branch = scf::IfOp::create(b, loc, types, fits, /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(branch.thenBlock());
    auto inBucket = cast<DispatchOp>(b.clone(*dispatch));
    inBucket.setCallee(func::FuncOp(variants[i]).getSymName());
    scf::YieldOp::create(b, loc, inBucket->getResults());
    b.setInsertionPointToStart(branch.elseBlock());
    scf::YieldOp::create(b, loc, build(i + 1));
    return branch.getResults();
  };
  SmallVector<Value> results = build(0);
  dispatch->replaceAllUsesWith(results);
  dispatch.erase();
}

struct SpecializeDispatchesPass
    : mlir::tessel::impl::SpecializeDispatchesBase<SpecializeDispatchesPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!llvm::is_sorted(buckets) ||
        llvm::any_of(buckets, [](int64_t v) { return v < 1; })) {
      module.emitError("tessel-specialize-dispatches: buckets must be "
                       "positive and ascending");
      return signalPassFailure();
    }
    if (buckets.empty())
      return;
    SymbolTable symbols(module);
    SmallVector<DispatchOp> dispatches;
    module.walk([&](DispatchOp d) { dispatches.push_back(d); });
    // Variants per function: one function may be dispatched more than once.
    DenseMap<Operation *, SmallVector<func::FuncOp>> variantsOf;
    for (DispatchOp dispatch : dispatches) {
      Value m = singleDim(dispatch);
      auto fn = symbols.lookup<func::FuncOp>(dispatch.getCallee());
      if (!m || !fn || !hasContraction(fn))
        continue;
      SmallVector<func::FuncOp> &variants = variantsOf[fn];
      if (variants.empty())
        for (int64_t bucket : buckets)
          variants.push_back(cloneForBucket(fn, bucket,
                                            dispatch.getDims().size(),
                                            symbols));
      specialize(dispatch, m, variants, buckets, fn);
    }
  }
};

} // namespace
