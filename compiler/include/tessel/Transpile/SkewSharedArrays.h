//===- SkewSharedArrays.h - diagonal layouts for __shared__ arrays --------===//
//
// See lib/Transpile/SkewSharedArrays.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TRANSPILE_SKEWSHAREDARRAYS_H
#define TESSEL_TRANSPILE_SKEWSHAREDARRAYS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::tessel {

/// Stores the 2-D shared array `slot` (a block-level alloca of [H x [W x
/// T]]) skewed, a[r][c] at a'[r + c][c] (or a'[r - c + W - 1][c]), when
/// every use is an element load or store and the thread loops' accesses
/// then walk fewer strided addresses (anti-diagonal wavefronts). Returns
/// whether it did.
bool skewSharedArray(LLVM::AllocaOp slot);

} // namespace mlir::tessel

#endif
