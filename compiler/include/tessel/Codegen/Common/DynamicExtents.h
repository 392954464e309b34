//===- DynamicExtents.h - what a kernel knows of its dynamic extents -*- C++ -*-===//
//
// A dynamic extent of a kernel operand is one of the kernel's push
// constants (tessel-materialize-kernel-abi). Strategies size tiles for an
// assumed extent: the variant's (kAssumedExtentsAttr, written by
// tessel-specialize-dispatches) or a large default.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_COMMON_DYNAMICEXTENTS_H
#define TESSEL_CODEGEN_COMMON_DYNAMICEXTENTS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::tessel {

/// The extent strategies assume for a dynamic loop that no variant bounds:
/// large, so that tiles are sized as for a big problem (masked edges take
/// the rest).
inline constexpr int64_t kAssumedDynamicExtent = 1 << 16;

/// The push constant that dimension `dim` of the tensor or memref `shaped`
/// (in a kernel) was built from, traced through bufferization, casts,
/// tensor.empty and destination-passing ops; nullopt when it is static or
/// not traced to one.
std::optional<int64_t> pushConstantOfDim(Value shaped, unsigned dim);

/// The extent of dimension `dim` of `shaped`: its static size, else the
/// assumed extent of its push constant (kAssumedExtentsAttr of the enclosing
/// kernel), else kAssumedDynamicExtent.
int64_t assumedExtent(Value shaped, unsigned dim);

/// The extent of a loop of a kernel op, as a size (a constant or the push
/// constant's value) and as an affine expression over the kernel's push
/// constants (symbol k: push constant k), for grids sized by the host.
struct LoopExtent {
  OpFoldResult size;
  AffineExpr expr;
};

/// The extent of loop `loop` of `op`: its static size, else the push
/// constant of an operand dimension the loop indexes; nullopt when that
/// dimension is not traced to a push constant.
std::optional<LoopExtent> loopExtent(linalg::LinalgOp op, unsigned loop);
/// The same for an op given as its operands and their indexing maps, the
/// loop's static range (or ShapedType::kDynamic) known.
std::optional<LoopExtent> loopExtent(ValueRange operands,
                                     ArrayRef<AffineMap> maps, unsigned loop,
                                     int64_t range);

/// A divisor of dimension `dim` of `shaped`: its static size, else the
/// divisor its push constant has in the enclosing kernel's variant
/// (kAssumedDivisorsAttr), else 1.
int64_t knownDivisor(Value shaped, unsigned dim);

/// The loop ranges of `op`, each dynamic one as the assumed extent of an
/// operand dimension it indexes.
SmallVector<int64_t> assumedLoopRanges(linalg::LinalgOp op);

} // namespace mlir::tessel

#endif
