//===- SubgroupScan.cpp - the subgroup level of a scan ---------*- C++ -*-===//
//
// A scan across the 32 lanes of a warp with shuffles: five steps of
// Kogge-Stone (lane i combines the value of lane i - 2^k), no shared
// memory and no barrier.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/Primitives/ScanLevels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::tessel;

static constexpr int32_t kWarpSize = 32;

Value mlir::tessel::emitSubgroupInclusiveScan(OpBuilder &b, Location loc,
                                              Region &combiner, Value x,
                                              Value lane) {
  for (int32_t offset = 1; offset < kWarpSize; offset *= 2) {
    auto up = gpu::ShuffleOp::create(b, loc, x, offset, kWarpSize,
                                     gpu::ShuffleMode::UP);
    Value has = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::uge, lane,
        arith::ConstantIndexOp::create(b, loc, offset));
    Value combined =
        emitCombine(b, loc, combiner, up.getShuffleResult(), x);
    x = arith::SelectOp::create(b, loc, has, combined, x);
  }
  return x;
}

MaybeValue mlir::tessel::emitSubgroupExclusive(OpBuilder &b, Location loc,
                                               Value inclusive, Value lane) {
  auto up = gpu::ShuffleOp::create(b, loc, inclusive, 1, kWarpSize,
                                   gpu::ShuffleMode::UP);
  Value has = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, lane,
                                    arith::ConstantIndexOp::create(b, loc, 1));
  return {up.getShuffleResult(), has};
}
