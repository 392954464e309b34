//===- GridGather.h - GPU strategy for tessel.gather ------------*- C++ -*-===//
//
// The grid level of a gather whose indices select leading source
// dimensions, so that each batch element copies a contiguous slice (an
// embedding row): threads take 16-byte vectors of the output grid-stride,
// each reading its batch element's indices (clamped into range) and
// copying one vector of the slice. Loads and stores are coalesced 128-bit
// accesses when the slice's last dimension is a multiple of 16 bytes.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_PRIMITIVES_GRIDGATHER_H
#define TESSEL_CODEGEN_PRIMITIVES_GRIDGATHER_H

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tessel {

bool canUseGridGather(func::FuncOp kernel, GatherOp gather, std::string &why);
std::string describeGridGather(GatherOp gather);
LogicalResult emitGridGather(func::FuncOp kernel, GatherOp gather);

} // namespace mlir::tessel

#endif
