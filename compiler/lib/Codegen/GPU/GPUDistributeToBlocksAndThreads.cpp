//===- GPUDistributeToBlocksAndThreads.cpp ---------------------*- C++ -*-===//
//
// tessel-gpu-distribute-to-blocks-and-threads: the block scf.forall becomes
// gpu.block_id arithmetic, each thread scf.forall inside it becomes
// gpu.thread_id arithmetic with a guard for partial tiles. The block size
// is the largest trip count a thread forall can have, so every thread runs
// at most one iteration. Sibling thread foralls are separated by barriers.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/Common/WorkgroupCount.h"
#include "tessel/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_GPUDISTRIBUTETOBLOCKSANDTHREADS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr int64_t kMaxBlockThreads = 1024;

/// scf.forall ops directly nested in `region` (not inside another forall).
SmallVector<scf::ForallOp> outermostForalls(Region &region) {
  SmallVector<scf::ForallOp> foralls;
  region.walk<WalkOrder::PreOrder>([&](scf::ForallOp forall) {
    foralls.push_back(forall);
    return WalkResult::skip();
  });
  return foralls;
}

/// Largest trip count of each dimension of `forall`.
FailureOr<SmallVector<int64_t>> maxTripCounts(scf::ForallOp forall) {
  SmallVector<int64_t> counts;
  for (auto [lb, ub, step] :
       llvm::zip(forall.getMixedLowerBound(), forall.getMixedUpperBound(),
                 forall.getMixedStep())) {
    std::optional<int64_t> lbC = getConstantIntValue(lb);
    std::optional<int64_t> stepC = getConstantIntValue(step);
    if (!lbC || !stepC)
      return failure();
    std::optional<int64_t> ubC = getConstantIntValue(ub);
    if (!ubC) {
      FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(ub),
          nullptr, /*closedUB=*/true);
      if (failed(bound))
        return failure();
      ubC = *bound;
    }
    counts.push_back(std::max<int64_t>(0, llvm::divideCeil(*ubC - *lbC, *stepC)));
  }
  return counts;
}

/// Replaces `forall` by its body with induction variables lb + id * step,
/// where ids[d] is the id of forall dimension d. With `guard`, iterations
/// beyond the upper bound are skipped.
void inlineForall(RewriterBase &rewriter, scf::ForallOp forall,
                  ArrayRef<Value> ids, bool guard) {
  Location loc = forall.getLoc();
  rewriter.setInsertionPoint(forall);
  SmallVector<Value> ivs;
  Value inRange;
  for (auto [d, id] : llvm::enumerate(ids)) {
    Value lb = getValueOrCreateConstantIndexOp(rewriter, loc,
                                               forall.getMixedLowerBound()[d]);
    Value step = getValueOrCreateConstantIndexOp(rewriter, loc,
                                                 forall.getMixedStep()[d]);
    Value ub = getValueOrCreateConstantIndexOp(rewriter, loc,
                                               forall.getMixedUpperBound()[d]);
    Value iv = arith::AddIOp::create(
        rewriter, loc, lb, arith::MulIOp::create(rewriter, loc, id, step));
    ivs.push_back(iv);
    Value lt = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                     iv, ub);
    inRange = inRange ? arith::AndIOp::create(rewriter, loc, inRange, lt)
                            .getResult()
                      : lt;
  }
  Block *body = forall.getBody();
  rewriter.eraseOp(body->getTerminator());
  if (guard && inRange) {
    auto ifOp = scf::IfOp::create(rewriter, loc, inRange, /*else=*/false);
    rewriter.inlineBlockBefore(body, ifOp.thenBlock()->getTerminator(), ivs);
  } else {
    rewriter.inlineBlockBefore(body, forall, ivs);
  }
  rewriter.eraseOp(forall);
}

/// gpu.block_id / gpu.thread_id for each dimension of a rank-`rank` forall;
/// the last forall dimension maps to x.
template <typename IdOp>
SmallVector<Value> idsFor(RewriterBase &rewriter, Location loc,
                          unsigned rank) {
  SmallVector<Value> ids;
  for (unsigned d = 0; d < rank; ++d) {
    auto dim = static_cast<gpu::Dimension>(rank - 1 - d);
    ids.push_back(IdOp::create(rewriter, loc, dim));
  }
  return ids;
}

bool writesMemory(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return op->getNumRegions() == 0 &&
           !op->hasTrait<OpTrait::IsTerminator>() &&
           !op->hasTrait<OpTrait::ConstantLike>();
  return effects.hasEffect<MemoryEffects::Write>();
}

} // namespace

namespace mlir::tessel {

/// Distributes kernel `kernel` over blocks and threads.
LogicalResult distributeToBlocksAndThreads(func::FuncOp kernel) {
  IRRewriter rewriter(kernel.getContext());
  // Bufferizing parallel_insert_slice leaves copies of a tile onto itself.
  kernel.walk([&](memref::CopyOp copy) {
    if (copy.getSource() == copy.getTarget())
      rewriter.eraseOp(copy);
  });
  MLIRContext *ctx = kernel.getContext();
  SmallVector<AffineExpr> grid(3, getAffineConstantExpr(1, ctx));
  SmallVector<int64_t> block = {1, 1, 1};
  SmallVector<scf::ForallOp> blockLoops = outermostForalls(kernel.getBody());
  // A strategy that wrote its own gpu ids (warp reductions) set the sizes.
  if (blockLoops.empty() && kernel->hasAttr(kWorkgroupSizeAttr))
    return success();
  if (blockLoops.size() > 1)
    return kernel.emitError("expected at most one block scf.forall, got ")
           << blockLoops.size();
  if (!blockLoops.empty()) {
    scf::ForallOp blocks = blockLoops.front();
    unsigned rank = blocks.getRank();
    if (rank > 3)
      return blocks.emitError("block scf.forall has more than 3 dimensions");
    // Block counts: constants, or functions of the push constants.
    for (unsigned d = 0; d < rank; ++d) {
      FailureOr<AffineExpr> trips =
          tripCountExpr(blocks, blocks.getMixedLowerBound()[d],
                        blocks.getMixedUpperBound()[d],
                        blocks.getMixedStep()[d]);
      if (failed(trips))
        return failure();
      grid[rank - 1 - d] = *trips;
    }
    // A loop over an empty range (zero-size tensors) has nothing to do.
    if (llvm::any_of(grid, [](AffineExpr e) {
          auto c = dyn_cast<AffineConstantExpr>(e);
          return c && c.getValue() <= 0;
        })) {
      rewriter.eraseOp(blocks);
      blockLoops.clear();
      grid.assign(3, getAffineConstantExpr(1, ctx));
    }
  }
  if (!blockLoops.empty()) {
    scf::ForallOp blocks = blockLoops.front();
    SmallVector<scf::ForallOp> threadLoops =
        outermostForalls(blocks.getRegion());
    // Everything outside the thread loops runs in every thread of a block:
    // only side-effect-free code may live there.
    for (Operation &op : blocks.getBody()->without_terminator()) {
      if (isa<scf::ForallOp>(op))
        continue;
      bool bad = writesMemory(&op);
      op.walk([&](Operation *inner) { bad |= writesMemory(inner); });
      if (bad)
        return op.emitError("internal error: '")
               << op.getName()
               << "' would run in every thread of a block (GPU strategy "
                  "left it outside the thread loop)";
    }
    for (scf::ForallOp threads : threadLoops) {
      FailureOr<SmallVector<int64_t>> tc = maxTripCounts(threads);
      if (failed(tc) || threads.getRank() > 3)
        return threads.emitError("thread scf.forall needs bounded trip "
                                 "counts and at most 3 dimensions");
      for (auto [d, c] : llvm::enumerate(*tc)) {
        int64_t &b = block[tc->size() - 1 - d];
        b = std::max(b, c);
      }
    }
    if (block[0] * block[1] * block[2] > kMaxBlockThreads)
      return kernel.emitError("block of ")
             << block[0] << "x" << block[1] << "x" << block[2]
             << " threads exceeds " << kMaxBlockThreads;
    for (auto [i, threads] : llvm::enumerate(threadLoops)) {
      rewriter.setInsertionPoint(threads);
      if (i > 0)
        gpu::BarrierOp::create(rewriter, threads.getLoc());
      SmallVector<Value> ids = idsFor<gpu::ThreadIdOp>(
          rewriter, threads.getLoc(), threads.getRank());
      inlineForall(rewriter, threads, ids, /*guard=*/true);
    }
    rewriter.setInsertionPoint(blocks);
    SmallVector<Value> ids =
        idsFor<gpu::BlockIdOp>(rewriter, blocks.getLoc(), blocks.getRank());
    inlineForall(rewriter, blocks, ids, /*guard=*/false);
  }
  setWorkgroupCount(kernel, grid);
  kernel->setAttr(kWorkgroupSizeAttr,
                  DenseI64ArrayAttr::get(kernel.getContext(), block));
  return success();
}

namespace {
struct GPUDistributeToBlocksAndThreadsPass
    : impl::GPUDistributeToBlocksAndThreadsBase<
          GPUDistributeToBlocksAndThreadsPass> {
  void runOnOperation() override {
    for (auto fn : getOperation().getOps<func::FuncOp>())
      if (fn->hasAttr(kKernelAttr))
        if (failed(distributeToBlocksAndThreads(fn)))
          return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
