//===- PrimitiveContract.cpp - see PrimitiveContract.h ---------*- C++ -*-===//

#include "tessel/Dialect/Tessel/PrimitiveContract.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

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

int64_t mlir::tessel::gridRadixSortBlocks(int64_t n) {
  int64_t tiles = std::max<int64_t>(1, llvm::divideCeil(n, kRadixTileElements));
  int64_t blocks = std::min(kRadixMaxBlocks, tiles);
  int64_t perBlock = llvm::divideCeil(tiles, blocks);
  return llvm::divideCeil(tiles, perBlock);
}

bool mlir::tessel::isScalarCombiner(Region &combiner, std::string &why) {
  for (Operation &op : combiner.front().without_terminator()) {
    StringRef ns = op.getDialect() ? op.getDialect()->getNamespace() : "";
    if ((ns != "arith" && ns != "math") || op.getNumRegions() != 0) {
      why = ("the combiner has '" + op.getName().getStringRef() +
             "', not only scalar arith/math")
                .str();
      return false;
    }
  }
  return true;
}
