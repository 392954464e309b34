//===- CUDAToParallelLoops.cpp - explicit grid and block loops ------------===//
//
// tessel-cuda-to-parallel-loops: a kernel's body (the code of one thread)
// is wrapped in the two loops of the launch, and the kernel takes the
// launch as its first arguments:
//
//   func @k(%gx, %gy, %gz, %bx, %by, %bz: index, %dynamic_shared_bytes: i64,
//           <kernel parameters>) {
//     scf.parallel (%i, %j, %k) to (%gx, %gy, %gz) {tessel.cuda_blocks} {
//       <one slot per __shared__ variable, per block>
//       scf.parallel (%x, %y, %z) to (%bx, %by, %bz) {tessel.cuda_threads} {
//         <the kernel body; gpu ids replaced by the loop variables>
//
// `__shared__` globals (address space 3) become block-level stack slots;
// the dynamic shared memory is one slot of %dynamic_shared_bytes.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/TesselDialect.h"
#include "tessel/Passes.h"
#include "tessel/Transpile/ThreadLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_CUDATOPARALLELLOOPSPASS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

LogicalResult convertKernel(func::FuncOp fn) {
  if (!fn.getBody().hasOneBlock())
    return fn.emitError("kernel body must be one block (structured control "
                        "flow)");
  MLIRContext *ctx = fn.getContext();
  Location loc = fn.getLoc();
  Type index = IndexType::get(ctx);
  SmallVector<unsigned> positions(7, 0);
  SmallVector<Type> types(6, index);
  types.push_back(IntegerType::get(ctx, 64));
  SmallVector<DictionaryAttr> attrs(7, DictionaryAttr::get(ctx));
  SmallVector<Location> locs(7, loc);
  if (failed(fn.insertArguments(positions, types, attrs, locs)))
    return failure();
  Block &entry = fn.front();
  ValueRange launch = entry.getArguments().take_front(7);

  Operation *ret = entry.getTerminator();
  OpBuilder b(ctx);
  b.setInsertionPointToStart(&entry);
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> zeros(3, c0), ones(3, c1);
  auto blocks = scf::ParallelOp::create(b, loc, zeros, launch.take_front(3), ones);
  blocks->setAttr(kCUDABlocksAttr, b.getUnitAttr());
  b.setInsertionPointToStart(blocks.getBody());
  auto threads = scf::ParallelOp::create(b, loc, zeros, launch.slice(3, 3), ones);
  threads->setAttr(kCUDAThreadsAttr, b.getUnitAttr());

  // The body moves into the thread loop.
  Block *body = threads.getBody();
  body->getOperations().splice(body->getTerminator()->getIterator(),
                               entry.getOperations(),
                               std::next(blocks->getIterator()),
                               ret->getIterator());

  // Ids.
  LogicalResult result = success();
  body->walk([&](Operation *op) {
    auto dimOf = [](gpu::Dimension d) { return static_cast<unsigned>(d); };
    Value repl;
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
      repl = threads.getInductionVars()[dimOf(id.getDimension())];
    else if (auto id = dyn_cast<gpu::BlockIdOp>(op))
      repl = blocks.getInductionVars()[dimOf(id.getDimension())];
    else if (auto id = dyn_cast<gpu::BlockDimOp>(op))
      repl = launch[3 + dimOf(id.getDimension())];
    else if (auto id = dyn_cast<gpu::GridDimOp>(op))
      repl = launch[dimOf(id.getDimension())];
    else if (isa<gpu::LaneIdOp>(op)) {
      // Lanes number the threads of a block linearly, x fastest.
      OpBuilder lb(op);
      Location l = op->getLoc();
      ValueRange t = threads.getInductionVars();
      Value linear = arith::AddIOp::create(
          lb, l, t[0],
          arith::MulIOp::create(
              lb, l, launch[3],
              arith::AddIOp::create(
                  lb, l, t[1], arith::MulIOp::create(lb, l, launch[4], t[2]))));
      repl = arith::RemUIOp::create(lb, l, linear,
                                    arith::ConstantIndexOp::create(lb, l, 32));
    } else if (op->getDialect() &&
               op->getDialect()->getNamespace() == "gpu") {
      result = op->emitError() << "'" << op->getName()
                               << "' is not supported on the cpu target yet";
      return;
    }
    if (repl) {
      op->getResult(0).replaceAllUsesWith(repl);
      op->erase();
    }
  });
  if (failed(result))
    return failure();

  // __shared__ variables: one slot per block.
  auto module = fn->getParentOfType<ModuleOp>();
  llvm::DenseMap<Operation *, Value> slots;
  SmallVector<LLVM::AddressOfOp> refs;
  body->walk([&](LLVM::AddressOfOp a) {
    if (auto pt = dyn_cast<LLVM::LLVMPointerType>(a.getType()))
      if (pt.getAddressSpace() == kCUDASharedAddressSpace)
        refs.push_back(a);
  });
  for (LLVM::AddressOfOp a : refs) {
    auto g = module.lookupSymbol<LLVM::GlobalOp>(a.getGlobalName());
    if (!g)
      return a.emitError("unknown shared variable");
    Value &slot = slots[g];
    if (!slot) {
      OpBuilder sb(threads);
      Type ptr = LLVM::LLVMPointerType::get(ctx);
      if (g->hasAttr(kCUDADynamicSharedAttr)) {
        slot = LLVM::AllocaOp::create(sb, g.getLoc(), ptr, sb.getI8Type(),
                                      launch[6], 16);
      } else {
        Value one = LLVM::ConstantOp::create(sb, g.getLoc(), sb.getI64Type(),
                                             sb.getI64IntegerAttr(1));
        slot = LLVM::AllocaOp::create(sb, g.getLoc(), ptr, g.getType(), one,
                                      std::max<uint64_t>(16, g.getAlignment().value_or(16)));
      }
    }
    for (Operation *user : llvm::make_early_inc_range(a->getUsers())) {
      auto cast = dyn_cast<LLVM::AddrSpaceCastOp>(user);
      if (!cast)
        return user->emitError("shared memory used through its address "
                               "space 3 pointer is not supported");
      cast.replaceAllUsesWith(slot);
      cast.erase();
    }
    a.erase();
  }

  // Stack slots of inlined functions: to the start of the thread body, so
  // that loops do not allocate again on every iteration.
  hoistSlotsToStart(body, body->getParentOp());
  return success();
}

struct CUDAToParallelLoopsPass
    : public tessel::impl::CUDAToParallelLoopsPassBase<CUDAToParallelLoopsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto fn : llvm::to_vector(module.getOps<func::FuncOp>()))
      if (fn->hasAttr(kCUDAKernelAttr) && !fn.isExternal())
        if (failed(convertKernel(fn)))
          return signalPassFailure();
    // The shared globals are now unused.
    for (auto g : llvm::to_vector(module.getOps<LLVM::GlobalOp>()))
      if (g.getAddrSpace() == kCUDASharedAddressSpace &&
          SymbolTable::symbolKnownUseEmpty(g, module))
        g.erase();
  }
};

} // namespace
