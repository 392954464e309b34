//===- GPUMatmulEpilogue.h - what follows a matmul in its kernel -*- C++ -*-===//
//
// Shared by the GPU matmul strategies (GPUSharedMemoryMatmul,
// GPUTensorCoreMatmul), which compute a contraction in registers and then
// apply the elementwise ops that tessel-form-dispatches{fuse-epilogues}
// joined to its dispatch before storing each element once.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_GPU_GPUMATMULEPILOGUE_H
#define TESSEL_CODEGEN_GPU_GPUMATMULEPILOGUE_H

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::tessel {

/// An elementwise op applied to the matmul's result before it is stored.
struct MatmulEpilogueOp {
  linalg::GenericOp op;
  /// Per DPS input: the binding it reads, or null for the matmul's value
  /// or a constant.
  SmallVector<Value> mems;
  /// Per DPS input: the constant tensor it reads (a bias compiled into the
  /// module), else null.
  SmallVector<Value> constants;
};

/// Where a matmul's result goes: the epilogue ops, in order, and the store
/// of the last value into the output binding `c` (row-major, identity
/// layout).
struct MatmulOutput {
  SmallVector<MatmulEpilogueOp> epilogue;
  bufferization::MaterializeInDestinationOp store;
  Value c;
};

/// Follows the single-use chain from `matmul`'s result through elementwise
/// generics (all loops parallel, identity output, reading the chain's value
/// element for element and other inputs from bindings or constants through
/// any projection of the loops: bias, per-row, scalar; the output's initial
/// value unused) to its store. With `sameElementType`, every op of the
/// chain must keep the matmul's element type (the f32 SIMT matmul);
/// otherwise an op may convert it (f32 accumulators stored as f16).
/// Failure says why.
FailureOr<MatmulOutput> planMatmulOutput(linalg::LinalgOp matmul,
                                         bool sameElementType,
                                         std::string &why);

/// The epilogue ops applied to one element `v` of the matmul's result at
/// output indices `indices` (batch, row, column). Other inputs are loaded
/// at the matching indices, so the caller clamps indices of elements that
/// lie outside C.
Value applyMatmulEpilogue(OpBuilder &b, Location loc,
                          ArrayRef<MatmulEpilogueOp> epilogue, Value v,
                          ArrayRef<Value> indices);

/// `v` (an epilogue result) converted to the stored element type `elem`
/// (truncf or extf between float types).
Value castForStore(OpBuilder &b, Location loc, Value v, Type elem);

/// Stores `pair`, C's values at (row, col) and (row, col + 1), at C's
/// `indices` for (row, col): a vector store when the tile lies inside the
/// m x n result (`inBounds`), else masked so that nothing outside it is
/// written. A quad of lanes writes 8 consecutive values of a row.
/// `m` is a constant or an index value (a dynamic M).
void storeMatmulPair(OpBuilder &b, Location loc, Value c,
                     ArrayRef<Value> pair, ArrayRef<Value> indices, Value row,
                     Value col, OpFoldResult m, int64_t n, bool inBounds);

} // namespace mlir::tessel

#endif
