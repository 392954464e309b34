//===- ThreadScan.cpp - the element level of a scan ------------*- C++ -*-===//
//
// What one thread does with values in its registers: combine two (the scan
// op's region, cloned), combine two that may be absent, and scan its own
// items in order.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/Primitives/ScanLevels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tessel;

Value mlir::tessel::emitCombine(OpBuilder &b, Location loc, Region &combiner,
                                Value lhs, Value rhs) {
  Block &block = combiner.front();
  IRMapping map;
  map.map(block.getArgument(0), lhs);
  map.map(block.getArgument(1), rhs);
  for (Operation &op : block.without_terminator())
    b.clone(op, map);
  return map.lookupOrDefault(block.getTerminator()->getOperand(0));
}

MaybeValue mlir::tessel::emitCombineMaybe(OpBuilder &b, Location loc,
                                          Region &combiner, MaybeValue lhs,
                                          MaybeValue rhs) {
  Value both = arith::AndIOp::create(b, loc, lhs.present, rhs.present);
  Value combined = emitCombine(b, loc, combiner, lhs.value, rhs.value);
  Value one = arith::SelectOp::create(b, loc, lhs.present, lhs.value, rhs.value);
  return {arith::SelectOp::create(b, loc, both, combined, one),
          arith::OrIOp::create(b, loc, lhs.present, rhs.present)};
}

SmallVector<Value> mlir::tessel::emitThreadInclusiveScan(OpBuilder &b,
                                                         Location loc,
                                                         Region &combiner,
                                                         ArrayRef<Value> items) {
  SmallVector<Value> out;
  for (Value x : items)
    out.push_back(out.empty() ? x : emitCombine(b, loc, combiner, out.back(), x));
  return out;
}
