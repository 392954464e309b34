//===- GPUWarpReduction.h - one warp per reduced row -----------*- C++ -*-===//

#ifndef TESSEL_CODEGEN_GPU_GPUWARPREDUCTION_H
#define TESSEL_CODEGEN_GPU_GPUWARPREDUCTION_H

#include "tessel/Codegen/Common/DynamicExtents.h"
#include "tessel/Codegen/Common/KernelBindings.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::tessel {

/// Lanes of a warp (NVIDIA).
inline constexpr int64_t kGPUWarpSize = 32;
/// Elements of a lane's 128-bit load of 32-bit values.
inline constexpr int64_t kGPUVectorWidth32 = 4;

/// Whether `root` (the root of `kernel`) is a 32-bit reduction along its
/// last, contiguous loop with a combiner that warp shuffles support, reading
/// its inputs straight from bindings.
bool canUseWarpReduction(func::FuncOp kernel, Operation *root);

/// Replaces the computation of `kernel` by a warp-per-row reduction written
/// on the binding memrefs and sets the kernel's grid and block size. The
/// tensor ops left behind are dead.
LogicalResult emitWarpReduction(func::FuncOp kernel, Operation *root);

/// The gpu.subgroup_reduce kind of a reduction body's combiner, if warp
/// shuffles support it.
std::optional<gpu::AllReduceOperation> gpuReductionKind(Operation *combiner);

/// Starts the body of a kernel run as one warp per row, 8 warps per block
/// (threads 32 x 8): computes this warp's row (block * 8 + warp) as indices
/// of `rowShape` (row-major) and opens `if (row < rows)`, leaving `b`
/// inside it.
struct WarpPerRow {
  Value lane;
  SmallVector<Value> rowIndices;
};
WarpPerRow beginWarpPerRow(OpBuilder &b, Location loc,
                           ArrayRef<OpFoldResult> rowShape);

/// The rows of a warp-per-row kernel computing `op`: the extents of its
/// first `rowLoops` loops (sizes in the kernel: constants or push
/// constants) and their product over the push constants, the launch's
/// row count. Nullopt when a dynamic extent is not a push constant.
struct RowExtents {
  SmallVector<OpFoldResult> sizes;
  AffineExpr count;
};
std::optional<RowExtents> rowExtents(linalg::LinalgOp op, unsigned rowLoops);

/// Where a reduction's initial values come from: a linalg.fill of a
/// constant, or a copy of a binding (one value per output element).
struct ReductionInit {
  TypedAttr constant;
  Value memRef;
};
FailureOr<ReductionInit> getReductionInit(linalg::LinalgOp reduction);

/// combiner(total, init) for the output element at `indices`, with the
/// initial value where the body had its accumulator `accArg`.
Value combineWithInit(OpBuilder &b, Location loc, Operation *combiner,
                      Value accArg, Value total, const ReductionInit &init,
                      ValueRange indices);

/// A shared-memory (workgroup address space) buffer of `kernel`: a private,
/// uninitialized, 16-byte aligned memref.global named
/// __tessel_smem_<kernel><suffix>, inserted before the kernel (and moved
/// into the gpu.module with it), and its memref.get_global at `b`.
Value workgroupBuffer(OpBuilder &b, Location loc, func::FuncOp kernel,
                      StringRef suffix, ArrayRef<int64_t> shape,
                      Type elementType);

/// Sets the grid (`tessel.workgroup_count`) and block
/// (`tessel.workgroup_size`) of a kernel whose strategy wrote its own ids.
void setKernelLaunch(func::FuncOp kernel, ArrayRef<int64_t> grid,
                     ArrayRef<int64_t> block);

/// Grid and block size attributes of a warp-per-row kernel of `rows` rows
/// (a constant, or an expression over the push constants: a grid the host
/// computes per dispatch).
void setWarpPerRowLaunch(func::FuncOp kernel, AffineExpr rows);

} // namespace mlir::tessel

#endif
