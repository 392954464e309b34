//===- CPUKernelABI.cpp - transpiled kernels as CPU block functions -------===//
//
// tessel-cuda-cpu-kernel-abi: once no thread loop holds a barrier, each
// kernel becomes the function the CPU runtime calls once per block (the
// module schema's CudaC ABI):
//
//   void name(void **args, int64_t bx, int64_t by, int64_t bz);
//   args[0]: struct { int64_t grid[3], block[3], dynamic_shared_bytes; } *
//   args[1 + i]: the address of kernel parameter i
//
// The thread loops become sequential scf.for nests (x innermost), run in
// order by the block's one CPU thread; the runtime spreads the blocks over
// its thread pool. The kernel itself stays as `name.tessel_impl` with the
// block ids as its last arguments. Innermost thread loops get vectorization
// hints and their i32 divisions are computed in f64 (FloatDivision.h).
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/TesselDialect.h"
#include "tessel/Passes.h"
#include "tessel/Transpile/FloatDivision.h"
#include "tessel/Transpile/ThreadLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_CUDACPUKERNELABIPASS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// What the innermost thread loops get (the pass's options, all on by
/// default; off for ablations).
struct ThreadLoopCode {
  bool loopHints, floatDivision, parallelAccesses;
};

/// The annotation of an innermost thread loop:
///   - vectorize it without interleaving, so that a block row as wide as
///     one vector (16 f32 threads with AVX-512) runs as one vector
///     iteration rather than falling through to the remainder loop of an
///     interleaved one;
///   - its accesses in `group` (when given) do not depend on each other
///     across iterations: between two barriers, a CUDA thread that touches
///     memory another thread writes is a data race, undefined. LLVM then
///     vectorizes without runtime alias checks, which it cannot build
///     for indirect accesses (`a[idx[i]]`).
LLVM::LoopAnnotationAttr threadLoopHint(MLIRContext *ctx,
                                        LLVM::AccessGroupAttr group,
                                        bool loopHints) {
  LLVM::LoopInterleaveAttr interleave;
  if (loopHints)
    interleave = LLVM::LoopInterleaveAttr::get(
        ctx, IntegerAttr::get(IntegerType::get(ctx, 32), 1));
  SmallVector<LLVM::AccessGroupAttr> groups;
  if (group)
    groups.push_back(group);
  return LLVM::LoopAnnotationAttr::get(
      ctx, /*disableNonforced=*/{}, /*vectorize=*/{}, interleave,
      /*unroll=*/{}, /*unrollAndJam=*/{}, /*licm=*/{}, /*distribute=*/{},
      /*pipeline=*/{}, /*peeled=*/{}, /*unswitch=*/{}, /*mustProgress=*/{},
      /*isVectorized=*/{}, /*startLoc=*/{}, /*endLoc=*/{}, groups);
}

/// Puts the plain (not volatile, not atomic) loads and stores under
/// `root` into `group`. Others stay out, and then LLVM does not take the
/// loop as parallel (an access outside the group, a call that may touch
/// memory): it analyses its dependences as without the annotation.
void addToAccessGroup(Operation *root, LLVM::AccessGroupAttr group) {
  auto add = [&](auto op) {
    if (op.getVolatile_() || op.getOrdering() != LLVM::AtomicOrdering::not_atomic)
      return;
    SmallVector<Attribute> groups;
    if (ArrayAttr old = op.getAccessGroupsAttr())
      llvm::append_range(groups, old);
    groups.push_back(group);
    op.setAccessGroupsAttr(ArrayAttr::get(op.getContext(), groups));
  };
  root->walk([&](Operation *op) {
    if (auto load = dyn_cast<LLVM::LoadOp>(op))
      add(load);
    else if (auto store = dyn_cast<LLVM::StoreOp>(op))
      add(store);
  });
}

void threadLoopToFor(scf::ParallelOp p, const ThreadLoopCode &code) {
  OpBuilder b(p);
  Location loc = p.getLoc();
  MLIRContext *ctx = p.getContext();
  IRMapping map;
  scf::ForOp x;
  // z outermost, x innermost.
  for (int d = p.getNumLoops() - 1; d >= 0; --d) {
    auto f = scf::ForOp::create(b, loc, p.getLowerBound()[d],
                                p.getUpperBound()[d], p.getStep()[d]);
    map.map(p.getInductionVars()[d], f.getInductionVar());
    x = f;
    b.setInsertionPoint(f.getBody()->getTerminator());
  }
  for (Operation &op : p.getBody()->without_terminator())
    b.clone(op, map);
  p.erase();
  LLVM::AccessGroupAttr group;
  if (code.parallelAccesses) {
    group = LLVM::AccessGroupAttr::get(ctx);
    addToAccessGroup(x, group);
  }
  if (code.loopHints || group)
    x->setAttr("llvm.loop_annotation",
               threadLoopHint(ctx, group, code.loopHints));
}

LogicalResult convertKernel(func::FuncOp fn, const ThreadLoopCode &code) {
  MLIRContext *ctx = fn.getContext();
  Location loc = fn.getLoc();
  scf::ParallelOp blocks;
  for (Operation &op : fn.front())
    if (isBlockLoop(&op))
      blocks = cast<scf::ParallelOp>(op);
  if (!blocks)
    return fn.emitError("kernel without its block loop (run "
                        "tessel-cuda-to-parallel-loops first)");
  if (containsBarrier(blocks))
    return fn.emitError("kernel still has barriers (run the fission first)");
  SmallVector<scf::ParallelOp> threads;
  blocks.walk([&](scf::ParallelOp p) {
    if (isThreadLoop(p))
      threads.push_back(p);
  });
  for (scf::ParallelOp p : threads) {
    if (code.floatDivision)
      divideInFloat(p);
    threadLoopToFor(p, code);
  }

  // Block ids become the last three arguments.
  Type index = IndexType::get(ctx);
  unsigned n = fn.getNumArguments();
  SmallVector<unsigned> at(3, n);
  SmallVector<Type> types(3, index);
  SmallVector<DictionaryAttr> attrs(3, DictionaryAttr::get(ctx));
  SmallVector<Location> locs(3, loc);
  if (failed(fn.insertArguments(at, types, attrs, locs)))
    return failure();
  for (auto [iv, arg] : llvm::zip(blocks.getInductionVars(),
                                  fn.getArguments().take_back(3)))
    iv.replaceAllUsesWith(arg);
  Block &entry = fn.front();
  entry.getOperations().splice(blocks->getIterator(),
                               blocks.getBody()->getOperations(),
                               blocks.getBody()->begin(),
                               blocks.getBody()->getTerminator()->getIterator());
  blocks.erase();
  // Slots inside the loops now would be allocated again per iteration:
  // one for the whole function (threads run one after the other).
  hoistSlotsToStart(&entry, fn);

  // The entry point with the runtime's signature.
  std::string name = fn.getName().str();
  fn.setName(name + ".tessel_impl");
  fn.setPrivate();
  auto sizes = fn->getAttrOfType<DenseI64ArrayAttr>(kCUDAParameterSizesAttr);
  OpBuilder b(fn);
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = b.getI64Type();
  auto wrapper = func::FuncOp::create(
      b, loc, name, b.getFunctionType({ptr, i64, i64, i64}, {}));
  wrapper->setAttr(kCUDAKernelAttr, b.getUnitAttr());
  if (sizes)
    wrapper->setAttr(kCUDAParameterSizesAttr, sizes);
  Block *body = wrapper.addEntryBlock();
  b.setInsertionPointToStart(body);
  Value args = body->getArgument(0);
  auto entryAt = [&](int64_t i) {
    Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, args, ArrayRef<LLVM::GEPArg>{(int32_t)i});
    return LLVM::LoadOp::create(b, loc, ptr, slot).getResult();
  };
  Value launch = entryAt(0);
  SmallVector<Value> operands;
  for (int i = 0; i < 7; ++i) {
    Value field = LLVM::GEPOp::create(b, loc, ptr, i64, launch, ArrayRef<LLVM::GEPArg>{i});
    Value v = LLVM::LoadOp::create(b, loc, i64, field);
    operands.push_back(i < 6 ? Value(arith::IndexCastOp::create(b, loc, index, v)) : v);
  }
  auto params = fn.getArgumentTypes().drop_front(7).drop_back(3);
  for (auto [i, t] : llvm::enumerate(params)) {
    Value addr = entryAt(1 + i);
    if (t.isInteger(1)) {
      Value byte = LLVM::LoadOp::create(b, loc, b.getI8Type(), addr);
      operands.push_back(arith::TruncIOp::create(b, loc, t, byte));
    } else {
      operands.push_back(LLVM::LoadOp::create(b, loc, t, addr));
    }
  }
  for (int i = 1; i <= 3; ++i)
    operands.push_back(arith::IndexCastOp::create(b, loc, index, body->getArgument(i)));
  func::CallOp::create(b, loc, fn, operands);
  func::ReturnOp::create(b, loc);
  fn->removeAttr(kCUDAKernelAttr);
  return success();
}

struct CUDACPUKernelABIPass
    : public tessel::impl::CUDACPUKernelABIPassBase<CUDACPUKernelABIPass> {
  using CUDACPUKernelABIPassBase::CUDACPUKernelABIPassBase;
  void runOnOperation() override {
    ThreadLoopCode code{loopHints, floatDivision, parallelAccesses};
    for (auto fn : llvm::to_vector(getOperation().getOps<func::FuncOp>()))
      if (fn->hasAttr(kCUDAKernelAttr) && !fn.isExternal())
        if (failed(convertKernel(fn, code)))
          return signalPassFailure();
  }
};

} // namespace
