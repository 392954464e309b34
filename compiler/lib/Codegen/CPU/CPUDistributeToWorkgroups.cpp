//===- CPUDistributeToWorkgroups.cpp - tessel-cpu-distribute-to-workgroups ===//
//
// The CPU runtime calls a kernel once per workgroup id; this pass turns the
// workgroup scf.forall into straight-line code over that id. The forall's
// last dimension maps to x (the fastest-varying id), as on GPUs.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/Common/WorkgroupCount.h"
#include "tessel/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_CPUDISTRIBUTETOWORKGROUPS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace mlir::tessel {

/// Inlines the workgroup forall of `kernel` (if any) over the workgroup id
/// arguments and records the workgroup count.
LogicalResult distributeToWorkgroups(func::FuncOp kernel) {
  SmallVector<scf::ForallOp> foralls;
  kernel.walk<WalkOrder::PreOrder>([&](scf::ForallOp forall) {
    foralls.push_back(forall);
    return WalkResult::skip();
  });
  MLIRContext *ctx = kernel.getContext();
  SmallVector<AffineExpr> count(3, getAffineConstantExpr(1, ctx));
  if (foralls.size() > 1)
    return kernel.emitError("expected at most one workgroup scf.forall, got ")
           << foralls.size();
  if (!foralls.empty()) {
    scf::ForallOp forall = foralls.front();
    if (forall.getNumResults() != 0)
      return forall.emitError("workgroup scf.forall must be bufferized");
    SmallVector<OpFoldResult> lbs = forall.getMixedLowerBound();
    SmallVector<OpFoldResult> ubs = forall.getMixedUpperBound();
    SmallVector<OpFoldResult> steps = forall.getMixedStep();
    unsigned rank = forall.getRank();
    if (rank > 3)
      return forall.emitError("workgroup scf.forall has more than 3 dims");
    IRRewriter rewriter(ctx);
    for (unsigned d = 0; d < rank; ++d) {
      FailureOr<AffineExpr> trips =
          tripCountExpr(forall, lbs[d], ubs[d], steps[d]);
      if (failed(trips))
        return failure();
      count[rank - 1 - d] = *trips; // last dim -> x
    }
    // A loop over an empty range (zero-size tensors) has nothing to do.
    if (llvm::any_of(count, [](AffineExpr e) {
          auto c = dyn_cast<AffineConstantExpr>(e);
          return c && c.getValue() <= 0;
        })) {
      rewriter.eraseOp(forall);
      setWorkgroupCount(kernel, SmallVector<AffineExpr>(
                                    3, getAffineConstantExpr(1, ctx)));
      return success();
    }
    rewriter.setInsertionPoint(forall);
    Location loc = forall.getLoc();
    Block &entry = kernel.getBody().front();
    SmallVector<Value> ivs;
    for (unsigned d = 0; d < rank; ++d) {
      unsigned axis = rank - 1 - d; // last dim -> x
      Value id = entry.getArgument(1 + axis);
      Value scaled = arith::MulIOp::create(
          rewriter, loc, id,
          getValueOrCreateConstantIndexOp(rewriter, loc, steps[d]));
      ivs.push_back(arith::AddIOp::create(
          rewriter, loc, scaled,
          getValueOrCreateConstantIndexOp(rewriter, loc, lbs[d])));
    }
    Block *body = forall.getBody();
    rewriter.eraseOp(body->getTerminator());
    rewriter.inlineBlockBefore(body, forall, ivs);
    rewriter.eraseOp(forall);
  }
  setWorkgroupCount(kernel, count);
  return success();
}

namespace {
struct CPUDistributeToWorkgroupsPass
    : impl::CPUDistributeToWorkgroupsBase<CPUDistributeToWorkgroupsPass> {
  void runOnOperation() override {
    for (auto fn : getOperation().getOps<func::FuncOp>())
      if (fn->hasAttr(kKernelAttr))
        if (failed(distributeToWorkgroups(fn)))
          return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
