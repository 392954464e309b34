//===- WarpTopk.h - GPU strategy for tessel.topk ----------------*- C++ -*-===//
//
// The subgroup level of a top-k along the innermost dimension: a warp per
// row (8 warps a block). Each lane walks the row's elements lane, lane +
// 32, ... (coalesced, 4 loads in flight) and keeps its own k best in
// registers, sorted, by a branch-free insertion network (the comparator
// cloned once per slot; equal elements keep their order). Then k rounds
// merge the 32 lists: a butterfly of shuffles finds the best head (ties:
// the smaller position, so equal values keep input order), its lane drops
// it, and lane 0 stores the k winners with their positions. For k <= 16,
// 32-bit values read from a binding, positions (no index input), both
// results stored to bindings.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_PRIMITIVES_WARPTOPK_H
#define TESSEL_CODEGEN_PRIMITIVES_WARPTOPK_H

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tessel {

inline constexpr int64_t kWarpTopkMaxK = 16;

bool canUseWarpTopk(func::FuncOp kernel, TopkOp topk, std::string &why);
std::string describeWarpTopk(TopkOp topk);
LogicalResult emitWarpTopk(func::FuncOp kernel, TopkOp topk);

} // namespace mlir::tessel

#endif
