//===- CPUDistributeToWorkgroups.cpp - tessel-cpu-distribute-to-workgroups ===//
//
// The CPU runtime calls a kernel once per workgroup id; this pass turns the
// workgroup scf.forall into straight-line code over that id. The forall's
// last dimension maps to x (the fastest-varying id), as on GPUs.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

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
  SmallVector<int64_t> count = {1, 1, 1};
  if (foralls.size() > 1)
    return kernel.emitError("expected at most one workgroup scf.forall, got ")
           << foralls.size();
  if (!foralls.empty()) {
    scf::ForallOp forall = foralls.front();
    if (forall.getNumResults() != 0)
      return forall.emitError("workgroup scf.forall must be bufferized");
    ArrayRef<int64_t> lbs = forall.getStaticLowerBound();
    ArrayRef<int64_t> ubs = forall.getStaticUpperBound();
    ArrayRef<int64_t> steps = forall.getStaticStep();
    unsigned rank = forall.getRank();
    auto dynamic = [](ArrayRef<int64_t> v) {
      return llvm::any_of(v, ShapedType::isDynamic);
    };
    if (dynamic(lbs) || dynamic(ubs) || dynamic(steps) || rank > 3)
      return forall.emitError(
          "workgroup scf.forall needs static bounds and at most 3 dims");
    IRRewriter rewriter(kernel.getContext());
    // A loop over an empty range (zero-size tensors) has nothing to do.
    for (unsigned d = 0; d < rank; ++d)
      if (ubs[d] <= lbs[d]) {
        rewriter.eraseOp(forall);
        kernel->setAttr(kWorkgroupCountAttr,
                        DenseI64ArrayAttr::get(kernel.getContext(), count));
        return success();
      }
    rewriter.setInsertionPoint(forall);
    Location loc = forall.getLoc();
    Block &entry = kernel.getBody().front();
    SmallVector<Value> ivs;
    for (unsigned d = 0; d < rank; ++d) {
      unsigned axis = rank - 1 - d; // last dim -> x
      count[axis] = llvm::divideCeil(ubs[d] - lbs[d], steps[d]);
      Value id = entry.getArgument(1 + axis);
      Value scaled = arith::MulIOp::create(
          rewriter, loc, id,
          arith::ConstantIndexOp::create(rewriter, loc, steps[d]));
      ivs.push_back(arith::AddIOp::create(
          rewriter, loc, scaled,
          arith::ConstantIndexOp::create(rewriter, loc, lbs[d])));
    }
    Block *body = forall.getBody();
    rewriter.eraseOp(body->getTerminator());
    rewriter.inlineBlockBefore(body, forall, ivs);
    rewriter.eraseOp(forall);
  }
  kernel->setAttr(kWorkgroupCountAttr,
                  DenseI64ArrayAttr::get(kernel.getContext(), count));
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
