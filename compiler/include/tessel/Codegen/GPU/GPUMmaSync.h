//===- GPUMmaSync.h - mma.sync and ldmatrix building blocks -----*- C++ -*-===//
//
// The pieces the mma.sync strategies share (GPUTensorCoreMatmul,
// GPUFlashAttention): operand registers from ldmatrix fragments, the
// m16n8kK mma itself with its accumulators as a vector<4 x acc>, and the
// XOR swizzle of 16-byte chunks in shared-memory rows.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_GPU_GPUMMASYNC_H
#define TESSEL_CODEGEN_GPU_GPUMMASYNC_H

#include "mlir/IR/Builders.h"

namespace mlir::tessel {

/// mma.sync's tile of C.
inline constexpr int64_t kMmaSyncM = 16, kMmaSyncN = 8;

/// Rows [firstRow, firstRow + rows) of `fragment` (vector<R x (4 / bytes) x
/// inType>, as ldmatrix gives them) as mma.sync operand registers: f16
/// pairs as they are, bf16 and i8 as i32, f32 rounded to tf32.
SmallVector<Value> mmaSyncOperands(OpBuilder &b, Location loc, Type inType,
                                   Value fragment, int64_t firstRow,
                                   int64_t rows);

/// acc (vector<4 x accType>: c0..c3) += A (16 x k) * B (k x 8), A row-major
/// and B column-major, k = 32 bytes of inType (16 f16, 32 i8, 8 tf32).
Value mmaSyncM16N8(OpBuilder &b, Location loc, Type inType, Type accType,
                   bool unsignedInt, ArrayRef<Value> aRegs,
                   ArrayRef<Value> bRegs, Value acc);

/// The first value's column of 16-byte chunk `chunk` of shared-memory row
/// `row` (rows of `chunksPerRow` chunks of `chunkValues` values), XOR-
/// swizzled so that the 8 rows an ldmatrix phase reads hit 8 distinct bank
/// groups: chunk ^ (row % 8) for rows of >= 8 chunks; rows of fewer chunks
/// share a 128-byte line and are swizzled by row group.
Value swizzledChunkColumn(OpBuilder &b, Location loc, Value row, Value chunk,
                          int64_t chunksPerRow, int64_t chunkValues);

} // namespace mlir::tessel

#endif
