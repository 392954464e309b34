//===- FloatDivision.cpp - i32 divisions of thread loops as f64 -----------===//
//
// x86 has no vector integer division: in a vectorized thread loop, LLVM
// scalarizes `a / b` and `a % b` into one idiv per lane, unless b is a
// constant (then it multiplies by a magic number). CUDA kernels divide by
// kernel arguments to turn a linear index into a row and a column
// (srad's `(ei + 1) / d_Nr`, `(ei + 1) % d_Nr`), once per thread.
//
// For operands of at most 32 bits the f64 quotient, truncated toward
// zero, is the integer quotient: both operands are exact in f64; an integer
// a / b is representable, so the division returns it exactly; otherwise
// a / b lies at least 1 / |b| from the nearest integers, and the rounded
// quotient within |a / b| * 2^-53 of it, less than 1 / |b| since
// |a| < 2^53, so truncation cannot reach a neighbouring integer. So
//
//   q = fptosi(sitofp(a) / sitofp(b))      (unsigned: uitofp / fptoui)
//   r = a - q * b
//
// which vectorizes (vcvtdq2pd, vdivpd, vcvttpd2dq). Division by zero and
// INT_MIN / -1 stay undefined (poison), as in C and CUDA.
//
// Only in thread loops with no loop inside (the ones LLVM vectorizes):
// scalar, an f64 division has a longer latency than idiv.
//
//===----------------------------------------------------------------------===//

#include "tessel/Transpile/FloatDivision.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;

namespace {

bool narrowInteger(Type t) { return t.isSignlessInteger() && t.getIntOrFloatBitWidth() <= 32; }

/// fptosi/fptoui(a / b) in f64, of a's type.
Value floatQuotient(OpBuilder &b, Location loc, Value a, Value d, bool isSigned) {
  Type f64 = b.getF64Type();
  auto toF = [&](Value v) -> Value {
    if (isSigned)
      return arith::SIToFPOp::create(b, loc, f64, v);
    return arith::UIToFPOp::create(b, loc, f64, v);
  };
  Value q = arith::DivFOp::create(b, loc, toF(a), toF(d));
  if (isSigned)
    return arith::FPToSIOp::create(b, loc, a.getType(), q);
  return arith::FPToUIOp::create(b, loc, a.getType(), q);
}

} // namespace

void mlir::tessel::divideInFloat(scf::ParallelOp threads) {
  bool innermost = true;
  threads.getBody()->walk([&](LoopLikeOpInterface) { innermost = false; });
  if (!innermost)
    return;
  SmallVector<Operation *> divisions;
  threads.getBody()->walk([&](Operation *op) {
    if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp>(op) &&
        narrowInteger(op->getResult(0).getType()) &&
        !matchPattern(op->getOperand(1), m_Constant()))
      divisions.push_back(op);
  });
  for (Operation *op : divisions) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value a = op->getOperand(0), d = op->getOperand(1);
    bool isSigned = isa<arith::DivSIOp, arith::RemSIOp>(op);
    Value q = floatQuotient(b, loc, a, d, isSigned);
    Value result = q;
    if (isa<arith::RemSIOp, arith::RemUIOp>(op))
      result = arith::SubIOp::create(b, loc, a, arith::MulIOp::create(b, loc, q, d));
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }
}
