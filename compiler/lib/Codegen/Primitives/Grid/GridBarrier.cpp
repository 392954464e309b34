//===- GridBarrier.cpp - a barrier across a persistent grid -----*- C++ -*-===//
//
// See GridBarrier.h.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/Primitives/GridBarrier.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace {
/// Polls of the counter before giving up (seconds of waiting).
constexpr int64_t kBarrierPolls = int64_t(1) << 28;
} // namespace

void mlir::tessel::emitGridBarrier(OpBuilder &b, Location loc, Value counter,
                                   Value at, Value tid,
                                   int64_t generation) {
  MLIRContext *ctx = b.getContext();
  auto gpuScope = NVVM::MemScopeKindAttr::get(ctx, NVVM::MemScopeKind::GPU);
  Type type = cast<MemRefType>(counter.getType()).getElementType();
  auto cst = [&](OpBuilder &b, Location loc, int64_t v) {
    return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, v))
        .getResult();
  };
  gpu::BarrierOp::create(b, loc);
  Value isThread0 = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, tid,
      arith::ConstantIndexOp::create(b, loc, 0));
  auto lead = scf::IfOp::create(b, loc, isThread0, false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(lead.thenBlock()->getTerminator());
    // Release this block's writes, arrive, wait for every block, acquire.
    NVVM::MembarOp::create(b, loc, gpuScope);
    memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                cst(b, loc, 1), counter, ValueRange{at});
    Value blocks = arith::IndexCastOp::create(
        b, loc, type, gpu::GridDimOp::create(b, loc, gpu::Dimension::x));
    Value target =
        arith::MulIOp::create(b, loc, blocks, cst(b, loc, generation));
    Value polls0 = arith::ConstantIntOp::create(b, loc, 0, 64);
    scf::WhileOp::create(
        b, loc, TypeRange{b.getI64Type()}, ValueRange{polls0},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value arrived = memref::AtomicRMWOp::create(
              b, loc, arith::AtomicRMWKind::ori, cst(b, loc, 0), counter,
              ValueRange{at});
          Value waiting = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::slt, arrived, target);
          scf::ConditionOp::create(b, loc, waiting, args);
        },
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value polls = arith::AddIOp::create(
              b, loc, args[0], arith::ConstantIntOp::create(b, loc, 1, 64));
          // Not every block is resident (a GPU with too few SMs): trap
          // rather than hang.
          Value tooLong = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::sgt, polls,
              arith::ConstantIntOp::create(b, loc, kBarrierPolls, 64));
          auto trap = scf::IfOp::create(b, loc, tooLong, false);
          {
            OpBuilder::InsertionGuard g2(b);
            b.setInsertionPoint(trap.thenBlock()->getTerminator());
            LLVM::Trap::create(b, loc);
          }
          scf::YieldOp::create(b, loc, polls);
        });
    NVVM::MembarOp::create(b, loc, gpuScope);
  }
  gpu::BarrierOp::create(b, loc);
}
