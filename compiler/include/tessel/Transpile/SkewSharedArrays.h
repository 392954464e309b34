//===- SkewSharedArrays.h - diagonal layouts for __shared__ arrays --------===//
//
// See lib/Transpile/SkewSharedArrays.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TRANSPILE_SKEWSHAREDARRAYS_H
#define TESSEL_TRANSPILE_SKEWSHAREDARRAYS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::tessel {

/// The layout choice's costs: a thread-loop access whose threads' addresses
/// are neither equal nor adjacent costs the trip counts of the loops around
/// it, times `stridedStore` for a store (a scatter).
struct SkewCostModel {
  int64_t stridedStore = 2;
};

/// Stores the 2-D shared array `slot` (a block-level alloca of [H x [W x
/// T]]) skewed, a[r][c] at a'[r + c][c] (or a'[r - c + W - 1][c]), when
/// every use is an element load or store and the thread loops' accesses
/// then walk fewer strided addresses (anti-diagonal wavefronts). Returns
/// whether it did.
bool skewSharedArray(LLVM::AllocaOp slot, const SkewCostModel &costs = {});

/// tessel-skew-shared-arrays with other costs than the default (the
/// benchmark's ablation of the store cost).
std::unique_ptr<Pass> createSkewSharedArraysPass(const SkewCostModel &costs);

} // namespace mlir::tessel

#endif
