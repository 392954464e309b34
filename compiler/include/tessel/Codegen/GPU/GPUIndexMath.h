//===- GPUIndexMath.h - index arithmetic for hand-built kernels -*- C++ -*-===//
//
// The few index operations the hand-built GPU strategies (matmuls) write
// over and over, as one-liners on a builder and a location.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_GPU_GPUINDEXMATH_H
#define TESSEL_CODEGEN_GPU_GPUINDEXMATH_H

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::tessel {

/// Index-typed arithmetic at `loc` (unsigned division, remainder, min and
/// comparison: kernel indices are never negative).
class GPUIndexMath {
protected:
  GPUIndexMath(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value cIndex(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t y) { return y ? add(x, cIndex(y)) : x; }
  Value mul(Value x, int64_t y) {
    return arith::MulIOp::create(b, loc, x, cIndex(y));
  }
  Value div(Value x, int64_t y) {
    return arith::DivUIOp::create(b, loc, x, cIndex(y));
  }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, cIndex(y));
  }
  Value minU(Value x, Value y) {
    return arith::MinUIOp::create(b, loc, x, y);
  }
  Value minU(Value x, int64_t y) { return minU(x, cIndex(y)); }
  Value ult(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  Value ult(Value x, int64_t y) { return ult(x, cIndex(y)); }

  OpBuilder &b;
  Location loc;
};

} // namespace mlir::tessel

#endif
