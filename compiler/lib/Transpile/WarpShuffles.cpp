//===- WarpShuffles.cpp - tessel-lower-warp-shuffles -----------*- C++ -*-===//
//
// Warp shuffles of CUDA C kernels on the CPU, where a block's threads run
// one after another: each nvvm.shfl.sync (what __shfl_*_sync imports as)
// becomes an exchange through block-shared memory,
//
//   scratch[tid] = value; barrier; result = scratch[tid - lane + j]; barrier
//
// with the source lane j computed as PTX defines shfl.sync (c packs the
// segment mask, c[12:8], and the clamp, c[4:0]; an out-of-range source
// yields the thread's own value). The barriers are tessel.barrier, so that
// fission later cuts the thread loop there. The mask operand is not used:
// the threads that reach the shuffle take part (in a block-uniform or
// warp-uniform branch, the threads of the other warps pass the barriers
// masked off, docs/design/cuda-frontend.md), as on a GPU where mask names
// the converged warp.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/TesselDialect.h"
#include "tessel/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_LOWERWARPSHUFFLESPASS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr llvm::StringLiteral kScratchName = "__tessel_warp_shuffle_scratch";
/// CUDA's largest block.
constexpr int64_t kMaxThreadsPerBlock = 1024;

LLVM::GlobalOp scratchGlobal(ModuleOp module) {
  if (auto g = module.lookupSymbol<LLVM::GlobalOp>(kScratchName))
    return g;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  return LLVM::GlobalOp::create(
      b, module.getLoc(),
      LLVM::LLVMArrayType::get(b.getI32Type(), kMaxThreadsPerBlock),
      /*isConstant=*/false, LLVM::Linkage::Internal, kScratchName,
      /*value=*/Attribute(), /*alignment=*/16, kCUDASharedAddressSpace);
}

void lowerShuffle(NVVM::ShflOp op, LLVM::GlobalOp scratch) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i32, v);
  };
  auto toI32 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(b, loc, i32, index);
  };
  // Linear thread id, block size and lane, as i32 (blocks hold at most
  // 1024 threads).
  Value tx = toI32(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  Value ty = toI32(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y));
  Value tz = toI32(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::z));
  Value bx = toI32(gpu::BlockDimOp::create(b, loc, gpu::Dimension::x));
  Value by = toI32(gpu::BlockDimOp::create(b, loc, gpu::Dimension::y));
  Value bz = toI32(gpu::BlockDimOp::create(b, loc, gpu::Dimension::z));
  Value tid = arith::AddIOp::create(
      b, loc, tx,
      arith::MulIOp::create(
          b, loc, bx,
          arith::AddIOp::create(b, loc, ty,
                                arith::MulIOp::create(b, loc, by, tz))));
  Value threads = arith::MulIOp::create(
      b, loc, arith::MulIOp::create(b, loc, bx, by), bz);
  Value lane = arith::AndIOp::create(b, loc, tid, cst(31));

  Value base = LLVM::AddrSpaceCastOp::create(
      b, loc, ptr, LLVM::AddressOfOp::create(b, loc, scratch));
  auto element = [&](Value index) -> Value {
    return LLVM::GEPOp::create(b, loc, ptr, i32, base, ValueRange{index});
  };
  Value value = op.getVal();
  Value bits = value.getType() == i32
                   ? value
                   : Value(LLVM::BitcastOp::create(b, loc, i32, value));
  LLVM::StoreOp::create(b, loc, bits, element(tid));
  BarrierOp::create(b, loc);

  // PTX's shfl.sync: segmask = c[12:8]; maxLane = (lane & segmask) |
  // (c[4:0] & ~segmask); minLane = lane & segmask; j and its validity by
  // mode; an invalid j reads the thread's own value.
  Value c = op.getMaskAndClamp();
  Value offset = op.getOffset();
  Value segmask = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, c, cst(8)), cst(31));
  Value notSeg = arith::XOrIOp::create(b, loc, segmask, cst(-1));
  Value clamp = arith::AndIOp::create(b, loc, c, cst(31));
  Value minLane = arith::AndIOp::create(b, loc, lane, segmask);
  Value maxLane = arith::OrIOp::create(
      b, loc, minLane, arith::AndIOp::create(b, loc, clamp, notSeg));
  Value j, valid;
  switch (op.getKind()) {
  case NVVM::ShflKind::up:
    j = arith::SubIOp::create(b, loc, lane, offset);
    valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, j, maxLane);
    break;
  case NVVM::ShflKind::down:
    j = arith::AddIOp::create(b, loc, lane, offset);
    valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, j, maxLane);
    break;
  case NVVM::ShflKind::bfly:
    j = arith::XOrIOp::create(b, loc, lane, offset);
    valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, j, maxLane);
    break;
  case NVVM::ShflKind::idx:
    j = arith::OrIOp::create(
        b, loc, minLane,
        arith::AndIOp::create(b, loc,
                              arith::AndIOp::create(b, loc, offset, cst(31)),
                              notSeg));
    valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, j, maxLane);
    break;
  }
  j = arith::SelectOp::create(b, loc, valid, j, lane);
  // A source past the end of a partial last warp: the thread's own value.
  Value source = arith::AddIOp::create(
      b, loc, arith::SubIOp::create(b, loc, tid, lane), j);
  Value exists =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, source, threads);
  source = arith::SelectOp::create(b, loc, exists, source, tid);
  Value result = LLVM::LoadOp::create(b, loc, i32, element(source));
  // The next shuffle may overwrite scratch only once everyone has read.
  BarrierOp::create(b, loc);
  if (value.getType() != i32)
    result = LLVM::BitcastOp::create(b, loc, value.getType(), result);
  op.getResult().replaceAllUsesWith(result);
  op.erase();
}

struct LowerWarpShufflesPass
    : tessel::impl::LowerWarpShufflesPassBase<LowerWarpShufflesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<NVVM::ShflOp> shuffles;
    module.walk([&](NVVM::ShflOp op) { shuffles.push_back(op); });
    for (NVVM::ShflOp op : shuffles) {
      if (op.getReturnValueAndIsValid()) {
        op.emitError("a shuffle that also returns its validity is not "
                     "supported on the cpu target");
        return signalPassFailure();
      }
      lowerShuffle(op, scratchGlobal(module));
    }
  }
};

} // namespace
