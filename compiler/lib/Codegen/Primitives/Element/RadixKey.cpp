//===- RadixKey.cpp - radix order of a sort's keys --------------*- C++ -*-===//
//
// See RadixKey.h.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/Primitives/RadixKey.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tessel;

Value mlir::tessel::emitRadixDigit(OpBuilder &b, Location loc, Value key,
                                   const RadixKey &order, int64_t pass) {
  unsigned w = order.bits;
  auto intType = b.getIntegerType(w);
  auto cst = [&](APInt v) {
    return arith::ConstantOp::create(b, loc, intType, b.getIntegerAttr(intType, v))
        .getResult();
  };
  Value bits = key;
  if (order.kind == RadixKey::Kind::Float)
    bits = arith::BitcastOp::create(b, loc, intType, key);
  Value sign = cst(APInt::getSignMask(w));
  if (order.kind == RadixKey::Kind::Signed) {
    bits = arith::XOrIOp::create(b, loc, bits, sign);
  } else if (order.kind == RadixKey::Kind::Float) {
    // -0.0 compares equal to +0.0: the same digits, so that the sort
    // stays stable across them.
    Value negZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          bits, sign);
    bits = arith::SelectOp::create(b, loc, negZero, cst(APInt(w, 0)), bits);
    // Negative: every bit flips (sign >> w-1 arithmetic is all ones);
    // positive: only the sign bit.
    Value all = arith::ShRSIOp::create(b, loc, bits, cst(APInt(w, w - 1)));
    Value mask = arith::OrIOp::create(b, loc, all, sign);
    bits = arith::XOrIOp::create(b, loc, bits, mask);
  }
  if (order.descending)
    bits = arith::XOrIOp::create(b, loc, bits, cst(APInt::getAllOnes(w)));
  int64_t shift = pass * kRadixBits;
  if (shift > 0)
    bits = arith::ShRUIOp::create(b, loc, bits, cst(APInt(w, shift)));
  Value digit = bits;
  if (w > 32)
    digit = arith::TruncIOp::create(b, loc, b.getI32Type(), bits);
  else if (w < 32)
    digit = arith::ExtUIOp::create(b, loc, b.getI32Type(), bits);
  return arith::AndIOp::create(
      b, loc, digit,
      arith::ConstantIntOp::create(b, loc, kRadixBuckets - 1, 32));
}
