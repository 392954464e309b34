//===- SpecializeDispatches.cpp - tessel-specialize-dispatches -*- C++ -*-===//
//
// One kernel for every M of a dynamic matmul must pick its tiles before M
// is known: large tiles starve the GPU at M = 16, small ones waste it at
// M = 8192. The host knows M, so a matmul dispatch gets a variant per bucket
// of M, each planned for its bucket's upper end (tessel.assumed_extents),
// and the host program branches to the one that holds M.
// An attention with a dynamic key length masks every key of its last key
// tile; most lengths (BERT's 128, 384, 512) fill whole tiles, so the
// dispatch gets a variant that knows K2 divides into them
// (tessel.assumed_divisors), taken when the host finds that it does.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"

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

/// The single host value all the dynamic extents of `dispatch`'s results
/// are (a linear layer's rows, M), or null. Its operands may bring other
/// extents (of inputs whose size the kernel measures).
Value resultDim(DispatchOp dispatch) {
  Value dim;
  for (Value d : dispatch.getResultDims()) {
    if (dim && d != dim)
      return {};
    dim = d;
  }
  return dim;
}

/// A copy of `fn` next to it, named `fn``suffix`, carrying `facts` (one
/// i64 per push constant) as attribute `attr`.
func::FuncOp cloneVariant(func::FuncOp fn, const Twine &suffix,
                          StringRef attr, ArrayRef<int64_t> facts,
                          SymbolTable &symbols) {
  OpBuilder b(fn);
  b.setInsertionPointAfter(fn);
  auto variant = cast<func::FuncOp>(b.clone(*fn));
  variant.setSymName((fn.getSymName() + suffix).str());
  symbols.insert(variant);
  variant->setAttr(attr, b.getDenseI64ArrayAttr(facts));
  return variant;
}

/// A variant of `fn` named `fn`_m<bucket>, planned for `bucket` in the
/// push constants that `dispatch` passes `m` to (nothing assumed of the
/// others).
func::FuncOp cloneForBucket(func::FuncOp fn, int64_t bucket,
                            DispatchOp dispatch, Value m,
                            SymbolTable &symbols) {
  SmallVector<int64_t> facts;
  for (Value d : dispatch.getDims())
    facts.push_back(d == m ? bucket : 0);
  return cloneVariant(fn, "_m" + Twine(bucket), kAssumedExtentsAttr, facts,
                      symbols);
}

/// The position among the dispatch dims of `fn`'s single attention's
/// dynamic key length (the key operand's K2 dimension), if it has one.
std::optional<unsigned> keyLengthDim(func::FuncOp fn) {
  SmallVector<AttentionOp> ops;
  fn.walk([&](AttentionOp op) { ops.push_back(op); });
  if (ops.size() != 1)
    return std::nullopt;
  AttentionOp op = ops.front();
  FailureOr<AttentionOp::Dims> dims = op.getDims();
  auto key = dyn_cast<BlockArgument>(op.getKey());
  if (failed(dims) || dims->k2.size() != 1 || !key ||
      key.getOwner() != &fn.getBody().front())
    return std::nullopt;
  unsigned keyDim = *op.getKeyMap().getResultPosition(
      getAffineDimExpr(dims->k2[0], op.getContext()));
  auto keyType = cast<RankedTensorType>(key.getType());
  if (!keyType.isDynamicDim(keyDim))
    return std::nullopt;
  // Dims list the operands' dynamic dimensions in order.
  unsigned position = 0;
  for (BlockArgument arg : fn.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      continue;
    if (arg == key)
      return position + llvm::count_if(
                            type.getShape().take_front(keyDim),
                            ShapedType::isDynamic);
    position += type.getNumDynamicDims();
  }
  return std::nullopt;
}

/// A variant of `fn` named `fn`_k<divisor>, whose push constant `position`
/// (of `pushConstants`) is a multiple of `divisor`.
func::FuncOp cloneForDivisor(func::FuncOp fn, int64_t divisor,
                             unsigned position, int64_t pushConstants,
                             SymbolTable &symbols) {
  SmallVector<int64_t> divisors(pushConstants, 0);
  divisors[position] = divisor;
  return cloneVariant(fn, "_k" + Twine(divisor), kAssumedDivisorsAttr,
                      divisors, symbols);
}

/// `dispatch` of `variant` when `value` is a multiple of `divisor`, else of
/// its own function.
void specializeForDivisor(DispatchOp dispatch, Value value, int64_t divisor,
                          func::FuncOp variant) {
  OpBuilder b(dispatch);
  Location loc = dispatch.getLoc();
  Value remainder = arith::RemSIOp::create(
      b, loc, value, arith::ConstantIndexOp::create(b, loc, divisor));
  Value divides = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, remainder,
      arith::ConstantIndexOp::create(b, loc, 0));
  auto branch = scf::IfOp::create(b, loc, dispatch.getResultTypes(), divides,
                                  /*withElse=*/true);
  b.setInsertionPointToStart(branch.thenBlock());
  auto whole = cast<DispatchOp>(b.clone(*dispatch));
  whole.setCallee(variant.getSymName());
  scf::YieldOp::create(b, loc, whole->getResults());
  b.setInsertionPointToStart(branch.elseBlock());
  scf::YieldOp::create(b, loc, b.clone(*dispatch)->getResults());
  dispatch->replaceAllUsesWith(branch.getResults());
  dispatch.erase();
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
    if (keyDivisor < 0) {
      module.emitError("tessel-specialize-dispatches: key-divisor must not "
                       "be negative");
      return signalPassFailure();
    }
    SymbolTable symbols(module);
    SmallVector<DispatchOp> dispatches;
    module.walk([&](DispatchOp d) { dispatches.push_back(d); });
    // Variants per function: one function may be dispatched more than once.
    DenseMap<Operation *, SmallVector<func::FuncOp>> variantsOf;
    for (DispatchOp dispatch : dispatches) {
      auto fn = symbols.lookup<func::FuncOp>(dispatch.getCallee());
      if (!fn)
        continue;
      if (std::optional<unsigned> key = keyLengthDim(fn);
          keyDivisor > 0 && key) {
        SmallVector<func::FuncOp> &variants = variantsOf[fn];
        if (variants.empty())
          variants.push_back(cloneForDivisor(
              fn, keyDivisor, *key, dispatch.getDims().size(), symbols));
        specializeForDivisor(dispatch, dispatch.getDims()[*key], keyDivisor,
                             variants.front());
        continue;
      }
      Value m = resultDim(dispatch);
      if (buckets.empty() || !m || !hasContraction(fn))
        continue;
      SmallVector<func::FuncOp> &variants = variantsOf[fn];
      if (variants.empty())
        for (int64_t bucket : buckets)
          variants.push_back(
              cloneForBucket(fn, bucket, dispatch, m, symbols));
      specialize(dispatch, m, variants, buckets, fn);
    }
  }
};

} // namespace
