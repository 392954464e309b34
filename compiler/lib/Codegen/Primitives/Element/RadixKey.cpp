//===- RadixKey.cpp - radix order of a sort's keys --------------*- C++ -*-===//
//
// See RadixKey.h.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/Primitives/RadixKey.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tessel;

std::optional<RadixKey> mlir::tessel::matchRadixKey(SortOp sort,
                                                    std::string &why) {
  auto type = dyn_cast<ShapedType>(sort.getOutputs()[0].getType());
  if (!type || !type.hasRank() || !type.hasStaticShape() ||
      type.getRank() != 1) {
    why = "not one static dimension";
    return std::nullopt;
  }
  if (type.getShape()[0] < 2) {
    why = "fewer than 2 elements";
    return std::nullopt;
  }
  if (type.getShape()[0] >= (int64_t(1) << 31)) {
    why = "2^31 or more elements (32-bit counts)";
    return std::nullopt;
  }
  Type e = type.getElementType();
  RadixKey key;
  if (isa<IntegerType>(e)) {
    key.kind = RadixKey::Kind::Unsigned;
  } else if (isa<FloatType>(e)) {
    key.kind = RadixKey::Kind::Float;
  } else {
    why = "keys are neither integers nor floats";
    return std::nullopt;
  }
  key.bits = e.getIntOrFloatBitWidth();
  if (key.bits != 8 && key.bits != 16 && key.bits != 32 && key.bits != 64) {
    why = "keys are not 8, 16, 32 or 64 bits wide";
    return std::nullopt;
  }
  Block &body = sort.getRegion().front();
  Operation *cmp = body.getTerminator()->getOperand(0).getDefiningOp();
  if (!cmp || &body.front() != cmp || cmp->getNumOperands() != 2) {
    why = "the comparator is not one comparison";
    return std::nullopt;
  }
  Value lhs = body.getArgument(0), rhs = body.getArgument(1);
  bool swapped;
  if (cmp->getOperand(0) == lhs && cmp->getOperand(1) == rhs)
    swapped = false;
  else if (cmp->getOperand(0) == rhs && cmp->getOperand(1) == lhs)
    swapped = true;
  else {
    why = "the comparator does not compare the keys (operand 0)";
    return std::nullopt;
  }
  bool less;
  if (auto c = dyn_cast<arith::CmpIOp>(cmp)) {
    using P = arith::CmpIPredicate;
    switch (c.getPredicate()) {
    case P::ult: less = true; break;
    case P::ugt: less = false; break;
    case P::slt: less = true; key.kind = RadixKey::Kind::Signed; break;
    case P::sgt: less = false; key.kind = RadixKey::Kind::Signed; break;
    default:
      why = "the comparison is not a strict < or >";
      return std::nullopt;
    }
  } else if (auto c = dyn_cast<arith::CmpFOp>(cmp)) {
    using P = arith::CmpFPredicate;
    switch (c.getPredicate()) {
    case P::OLT: case P::ULT: less = true; break;
    case P::OGT: case P::UGT: less = false; break;
    default:
      why = "the comparison is not a strict < or >";
      return std::nullopt;
    }
  } else {
    why = "the comparator is not an arith.cmpi or arith.cmpf";
    return std::nullopt;
  }
  key.descending = less == swapped;
  return key;
}

bool mlir::tessel::hasRadixWorkspaces(SortOp sort) {
  return !sort.getInputs().empty();
}

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
