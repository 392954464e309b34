//===- GPUMatmulPlan.h - what a tensor-core matmul reads and writes -*- C++ -*-===//
//
// The plan shared by the tensor-core strategies (mma.sync in
// GPUTensorCoreMatmul, wgmma + TMA in GPUWgmmaMatmul): which contraction
// or convolution qualifies, where A, B and the initial C come from, in
// which layouts, and which epilogue follows. Block shapes are each
// strategy's own.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_GPU_GPUMATMULPLAN_H
#define TESSEL_CODEGEN_GPU_GPUMATMULPLAN_H

#include "tessel/Codegen/GPU/GPUMatmulEpilogue.h"
#include "tessel/Codegen/GPU/GPUWarpReduction.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineMap.h"

#include <optional>
#include <string>

namespace mlir::tessel {

/// Bytes of a 16-byte copy chunk (cp.async, ldmatrix row, TMA alignment).
constexpr int64_t kMatmulChunkBytes = 16;

/// Geometry of a conv_2d_nhwc_hwcf run as an implicit GEMM: M = (n, oh,
/// ow), N = f, K = (kh, kw, c).
struct ConvGeometry {
  int64_t outH = 0, outW = 0, kernelW = 0, channels = 0;
  int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
};

/// How an operand's buffer is indexed: through the contraction's indexing
/// map, or as a convolution's input (im2col), filter ([KH*KW*C, F]) or
/// output ([N*OH*OW, F]).
enum class Indexing { Map, ConvInput, ConvFilter, ConvOutput };

/// How a loop of the contraction indexes one operand.
struct OperandPlan {
  /// The binding the operand is read from, or null for a constant (weights
  /// compiled into the module), which the kernel reads from a global.
  Value mem;
  DenseElementsAttr constant;
  Indexing indexing = Indexing::Map;
  AffineMap map;
  /// Loop positions of the operand's row loop (m for A, n for B) and k.
  unsigned mnLoop = 0, kLoop = 0;
  /// mnExtent is ShapedType::kDynamic for A of a dynamic M.
  int64_t mnExtent = 0, kExtent = 0;
  /// Whether k is the contiguous (last) index; else m or n is.
  bool kContiguous = true;
  /// Rows are 16-byte aligned: cp.async; else copies through registers.
  bool async = true;
};

struct MatmulPlan {
  OperandPlan a, b;
  MatmulOutput out;
  AffineMap cMap;
  /// Set for a convolution (implicit GEMM).
  std::optional<ConvGeometry> conv;
  ReductionInit init;
  std::optional<unsigned> batchLoop;
  unsigned mLoop = 0, nLoop = 0;
  /// M is ShapedType::kDynamic for a dynamic M (planDynamicM's rules);
  /// `assumedM` is what tile choices plan for (M itself when static).
  int64_t batch = 1, m = 0, n = 0, k = 0, assumedM = 0;
  bool dynamicM() const { return ShapedType::isDynamic(m); }
  Type inType, accType;
  /// i8 operands zero-extended (u8) rather than sign-extended (s8).
  bool unsignedInt = false;
  int64_t elemBytes() const { return inType.getIntOrFloatBitWidth() / 8; }
  /// Values per 16-byte chunk.
  int64_t chunk() const { return kMatmulChunkBytes / elemBytes(); }
};

/// A matmul strategy's parameters (#tessel.strategy's tile, stages and
/// grid): the block tile of C (blockM x blockN), the values of K per stage,
/// the shared-memory ring's stages and, for a persistent kernel, its
/// blocks; 0 where the strategy has no such parameter.
struct MatmulTiles {
  int64_t blockM = 0, blockN = 0, blockK = 0, stages = 0, grid = 0;
};

/// Whether `root` (a contraction or conv_2d_nhwc_hwcf with an elementwise
/// epilogue chain to its store) can run on tensor cores, and from where:
/// see GPUTensorCoreMatmul.h for the rules. Failure sets `why`.
FailureOr<MatmulPlan> planTensorCoreMatmul(Operation *root, bool allowTF32,
                                           std::string &why);

/// M as an index value in the kernel being emitted: a constant, or C's
/// extent for a dynamic M.
Value matmulRows(OpBuilder &b, Location loc, const MatmulPlan &plan);

/// ceildiv(M, blockM) over the kernel's push constants for a dynamic M (the
/// push constant of A's rows); an error at `root` if A's rows are not one.
FailureOr<AffineExpr> dynamicRowTiles(const MatmulPlan &plan, Operation *root,
                                      int64_t blockM);

/// Grouped raster order of the tiles of a gridM x gridN output: consecutive
/// tile ids sweep 8 rows of tiles along M before moving along N, so that
/// the tiles in flight share their A and B panels in L2. Worth it (and
/// used) only when the grid has more than 8 rows and several columns.
bool usesGroupedRaster(int64_t gridM, int64_t gridN);
/// The (row, column) of tile `id` (index) in that order.
std::pair<Value, Value> groupedRasterTile(OpBuilder &b, Location loc,
                                          Value id, int64_t gridM,
                                          int64_t gridN);
/// The same for a dynamic gridM (an index value): the last, partial group
/// is taken row by row, so that every division is by a constant.
std::pair<Value, Value> groupedRasterTile(OpBuilder &b, Location loc,
                                          Value id, Value gridM,
                                          int64_t gridN);

} // namespace mlir::tessel

#endif
