//===- GPUTensorCoreMatmul.cpp - matmuls on tensor cores (sm_80+) -*- C++ -*-===//
//
// The GPU strategy for f16, bf16, i8 and (opt-in) tf32 contractions
// (matmul, batch matmul, any operand layout, the batch loop anywhere) and
// NHWC convolutions as implicit GEMMs (the input read as im2col rows, never
// materialized): mma.sync with f32 accumulators (f16 ones when the program
// accumulates in f16, i32 for i8).
//
// Each block computes a BMxBN tile of C with 4 warps (2x2), each warp a
// (BM/2)x(BN/2) tile as 16x8 mma tiles. BM and BN are each 64 or 128, the
// stages 2 to 8, as the kernel's #tessel.strategy says; the cost model
// (chooseMmaSyncTiles) picks 128x128 (64 along a side of at most 64), or
// 64x64 when that gives fewer blocks than the target has SMs, and 4
// stages. K advances 64 bytes at a time (32 f16, 64 i8, 16 tf32 values: two
// mma steps) through a ring of shared-memory stages per operand:
// - copies: each stage of A and B is copied with 16-byte cp.async (L2
//   only) in the operand's own layout (k-contiguous rows of 64 bytes, or
//   mn-contiguous rows of BM/BN values); the ring keeps all stages but
//   one in flight while the warps compute on the last. One barrier per stage.
//   Edges are zero-filled by cp.async's source size, so any M, N, K works;
//   an operand whose rows are not 16-byte aligned is copied through
//   registers with masked loads instead (correct, slower);
// - shared-memory layout: the 16-byte chunks of a row are XOR-swizzled with
//   the row index, so that the 8 rows an ldmatrix phase reads (and
//   ldmatrix.trans for mn-contiguous operands) hit 8 distinct bank groups;
// - ldmatrix.x4 loads a 16x16 fragment of A (or two 16x8 of B) per warp,
//   transposed (.trans) when a 16-bit operand is mn-contiguous (32-bit
//   ones are read with scalar shared loads then); mma.sync multiplies them
//   into the accumulators, which stay in registers (scf.for iter_args)
//   across the K loop. The fragments of a k-tile's first step are loaded
//   right after the barrier, behind the previous tile's second step.
// Blocks are numbered in a grouped raster order (8 rows of blocks along M
// at a time) for L2 reuse of A and B panels on large grids.
// The epilogue (GPUMatmulEpilogue.h) runs on each accumulator element;
// stores are masked at the edges, two values per lane (a quad of lanes
// writes 8 consecutive values of a row).
//
// Like the other hand-built strategies, the kernel is emitted directly on
// the binding memrefs. Shared memory is a memref.global per operand in the
// workgroup address space, or dynamic shared memory when the ring needs
// more than the 48 KiB static limit (128x128 blocks: 64 KiB; its size is
// recorded with the kernel for the runtime).
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/GPU/GPUTensorCoreMatmul.h"

#include "tessel/Codegen/Common/DynamicExtents.h"
#include "tessel/Codegen/Common/WorkgroupCount.h"

#include "tessel/Codegen/GPU/GPUIndexMath.h"
#include "tessel/Codegen/GPU/GPUMatmulEpilogue.h"
#include "tessel/Codegen/GPU/GPUMatmulPlan.h"
#include "tessel/Codegen/GPU/GPUMmaSync.h"
#include "tessel/Codegen/GPU/GPUWarpReduction.h"
#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Bytes of K per k-tile (32 f16/bf16, 64 i8, 16 tf32 values) and per mma
/// step (m16n8k16, m16n8k32, m16n8k8), and of a cp.async / ldmatrix row.
constexpr int64_t kBlockKBytes = 64;
constexpr int64_t kMmaKBytes = 32;
constexpr int64_t kChunkBytes = kMatmulChunkBytes;
/// 4 stages measured 3-5% faster than 3 at 4096^3 on an H200, 5 no
/// better than 4 (bench/RESULTS.md); 128x128 blocks then need 64 KiB of
/// dynamic shared memory.
constexpr int64_t kDefaultStages = 4;
/// Static shared memory per block (more needs dynamic shared memory).
constexpr int64_t kStaticSharedLimit = 48 * 1024;
constexpr int64_t kLargeBlock = 128;
constexpr int64_t kSmallBlock = 64;
/// Warps of a block along M and N.
constexpr int64_t kWarpsM = 2, kWarpsN = 2;
constexpr int64_t kThreads = kWarpsM * kWarpsN * kGPUWarpSize;
/// mma.sync tile of C.
constexpr int64_t kMmaM = kMmaSyncM, kMmaN = kMmaSyncN;

/// mma.sync block shapes on top of the shared plan.
struct TensorCorePlan : MatmulPlan {
  /// Values per k-tile and per mma step.
  int64_t blockK() const { return kBlockKBytes / elemBytes(); }
  int64_t mmaK() const { return kMmaKBytes / elemBytes(); }
  int64_t blockM = kLargeBlock, blockN = kLargeBlock;
  int64_t stages = kDefaultStages;
  int64_t warpM() const { return blockM / kWarpsM; }
  int64_t warpN() const { return blockN / kWarpsN; }
  int64_t stageBytes(int64_t blockExtent) const {
    return blockExtent * kBlockKBytes;
  }
  /// Shared memory of both rings.
  int64_t sharedBytes() const {
    return stages * (stageBytes(blockM) + stageBytes(blockN));
  }
};

FailureOr<TensorCorePlan> planMmaSyncMatmul(Operation *root, bool allowTF32,
                                            std::string &why) {
  FailureOr<MatmulPlan> shared = planTensorCoreMatmul(root, allowTF32, why);
  if (failed(shared))
    return failure();
  TensorCorePlan plan;
  static_cast<MatmulPlan &>(plan) = std::move(*shared);
  return plan;
}

void applyTiles(TensorCorePlan &plan, const MatmulTiles &tiles) {
  plan.blockM = tiles.blockM;
  plan.blockN = tiles.blockN;
  plan.stages = tiles.stages;
}

/// Builds the kernel body; `b` is set before the result's store.
class TensorCoreEmitter : GPUIndexMath {
public:
  TensorCoreEmitter(OpBuilder &b, Location loc, const TensorCorePlan &plan)
      : GPUIndexMath(b, loc), plan(plan) {}

  void emit(func::FuncOp kernel);

private:
  /// Indices into a buffer indexed through `map` at the given loop values.
  SmallVector<Value> indicesFor(AffineMap map,
                                const DenseMap<unsigned, Value> &loops) {
    SmallVector<Value> indices;
    for (AffineExpr e : map.getResults())
      indices.push_back(loops.lookup(cast<AffineDimExpr>(e).getPosition()));
    return indices;
  }

  /// One operand's shared-memory ring and this thread's share of a copy.
  struct Operand {
    const OperandPlan *plan;
    /// The binding, or the global holding the constant operand.
    Value mem;
    Value shared;
    int64_t rows = 0, cols = 0; // of one stage
    int64_t blockExtent = 0;    // BM or BN
    Value blockStart;           // m0 or n0
    bool inBounds = false;      // no copy needs a mask
  };
  void setUpOperand(Operand &op, func::FuncOp kernel, StringRef suffix,
                    const OperandPlan &plan, int64_t blockExtent,
                    Value blockStart);
  /// The XOR-swizzled column of chunk `chunk` of shared row `row`.
  Value swizzledCol(const Operand &op, Value row, Value chunk);
  /// Issues this thread's copies of k-tile `kTile` into stage `stage`;
  /// returns the cp.async tokens.
  SmallVector<Value> copyTile(const Operand &op, Value kTile, Value stage);
  /// ldmatrix.x4 of the 16x16 (mn x k) fragment at (mn, k) of a stage;
  /// `isB` selects B's matrix order (two 8-wide n tiles).
  Value loadFragment(const Operand &op, Value stage, Value mn, int64_t k,
                     bool isB);
  Value loadFragmentScalar(const Operand &op, Value stage, Value mn,
                           int64_t k, bool isB, VectorType type);
  /// Rows of a vector<4x2xT> or vector<2x2xT> fragment as mma operands.
  SmallVector<Value> mmaOperands(Value fragment, int64_t firstRow,
                                 int64_t rows);
  Value mma(ArrayRef<Value> aRegs, ArrayRef<Value> bRegs, Value acc);
  SmallVector<Value> loadFragments(Value stage, int64_t k);
  SmallVector<Value> mmaStep(ValueRange fragments, ValueRange acc);
  SmallVector<Value> initialAccumulators();
  void storeResults(ValueRange acc);
  /// Indices into an operand's buffer of its element (mn, k).
  SmallVector<Value> operandIndices(const OperandPlan &p, Value mn, Value k) {
    if (p.indexing == Indexing::Map) {
      DenseMap<unsigned, Value> loops{{p.mnLoop, mn}, {p.kLoop, k}};
      if (plan.batchLoop)
        loops[*plan.batchLoop] = batchId;
      return indicesFor(p.map, loops);
    }
    const ConvGeometry &g = *plan.conv;
    // k = (kh, kw, c), c fastest.
    Value tap = div(k, g.channels), c = rem(k, g.channels);
    Value kh = div(tap, g.kernelW), kw = rem(tap, g.kernelW);
    if (p.indexing == Indexing::ConvFilter)
      return {kh, kw, c, mn};
    // m = (n, oh, ow): input[n, oh * sh + kh * dh, ow * sw + kw * dw, c].
    Value pixel = rem(mn, g.outH * g.outW);
    Value oh = div(pixel, g.outW), ow = rem(pixel, g.outW);
    return {div(mn, g.outH * g.outW),
            add(mul(oh, g.strideH), mul(kh, g.dilationH)),
            add(mul(ow, g.strideW), mul(kw, g.dilationW)), c};
  }
  /// Output element (row, col) of this thread's accumulator `h` half.
  Value accRow(int64_t mi, int64_t h) {
    return add(add(m0, warpRow), mi * kMmaM + h * 8);
  }
  Value accCol(int64_t ni) { return add(add(n0, warpCol), ni * kMmaN); }
  int64_t tilesM() const { return plan.warpM() / kMmaM; }
  int64_t tilesN() const { return plan.warpN() / kMmaN; }
  /// C's indices at (row, col), for the buffer of `map`.
  SmallVector<Value> outIndices(Value row, Value col) {
    if (plan.conv) {
      // [N*OH*OW, F] -> (n, oh, ow, f).
      Value pixel = rem(row, plan.conv->outH * plan.conv->outW);
      return {div(row, plan.conv->outH * plan.conv->outW),
              div(pixel, plan.conv->outW), rem(pixel, plan.conv->outW), col};
    }
    DenseMap<unsigned, Value> loops{{plan.mLoop, row}, {plan.nLoop, col}};
    if (plan.batchLoop)
      loops[*plan.batchLoop] = batchId;
    return indicesFor(plan.cMap, loops);
  }

  const TensorCorePlan &plan;
  /// M as an index value: a constant, or the extent of C (dynamic M).
  Value mSize;
  Value tid, lane, m0, n0, batchId, warpRow, warpCol;
  /// Lane offsets inside the accumulator tile: row lane/4, column
  /// 2 * (lane % 4).
  Value laneRow, laneCol;
  Operand a, bOp;
  Value dynamicShared;
  bool cInBounds = false;
};

void TensorCoreEmitter::setUpOperand(Operand &op, func::FuncOp kernel,
                                     StringRef suffix,
                                     const OperandPlan &operandPlan,
                                     int64_t blockExtent, Value blockStart) {
  op.plan = &operandPlan;
  op.mem = operandPlan.mem;
  if (!op.mem) {
    // A constant operand: a global in the kernel module (global memory),
    // 16-byte aligned for cp.async.
    auto type = MemRefType::get(operandPlan.constant.getType().getShape(),
                                plan.inType);
    std::string name =
        ("__tessel_const_" + kernel.getSymName() + suffix).str();
    OpBuilder moduleBuilder(kernel);
    memref::GlobalOp::create(moduleBuilder, loc, name,
                             moduleBuilder.getStringAttr("private"), type,
                             operandPlan.constant, /*constant=*/true,
                             moduleBuilder.getI64IntegerAttr(16));
    op.mem = memref::GetGlobalOp::create(b, loc, type, name);
  }
  op.blockExtent = blockExtent;
  op.blockStart = blockStart;
  op.rows = operandPlan.kContiguous ? blockExtent : plan.blockK();
  op.cols = operandPlan.kContiguous ? plan.blockK() : blockExtent;
  SmallVector<int64_t> shape = {plan.stages, op.rows, op.cols};
  if (plan.sharedBytes() <= kStaticSharedLimit) {
    op.shared = workgroupBuffer(b, loc, kernel, suffix, shape, plan.inType);
  } else {
    // Both rings in dynamic shared memory: A first, then B.
    auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                            gpu::AddressSpace::Workgroup);
    if (!dynamicShared)
      dynamicShared = gpu::DynamicSharedMemoryOp::create(
          b, loc,
          MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                          MemRefLayoutAttrInterface(), space));
    int64_t offset =
        suffix == "_a" ? 0 : plan.stages * plan.stageBytes(plan.blockM);
    op.shared = memref::ViewOp::create(
        b, loc,
        MemRefType::get(shape, plan.inType, MemRefLayoutAttrInterface(),
                        space),
        dynamicShared, cIndex(offset), ValueRange{});
  }
  op.inBounds = !ShapedType::isDynamic(operandPlan.mnExtent) &&
                operandPlan.mnExtent % blockExtent == 0 &&
                operandPlan.kExtent % plan.blockK() == 0;
}

Value TensorCoreEmitter::swizzledCol(const Operand &op, Value row,
                                     Value chunk) {
  return swizzledChunkColumn(b, loc, row, chunk, op.cols / plan.chunk(),
                             plan.chunk());
}

SmallVector<Value> TensorCoreEmitter::copyTile(const Operand &op, Value kTile,
                                               Value stage) {
  const OperandPlan &p = *op.plan;
  SmallVector<Value> tokens;
  int64_t kChunk = plan.chunk();
  int64_t chunksPerRow = op.cols / kChunk;
  int64_t chunks = op.rows * chunksPerRow;
  Value k0 = mul(kTile, plan.blockK());
  Type elem = plan.inType;
  auto chunkType = VectorType::get({kChunk}, elem);
  for (int64_t c = 0; c < chunks; c += kThreads) {
    Value index = add(tid, c);
    Value row = div(index, chunksPerRow);
    Value chunk = rem(index, chunksPerRow);
    Value col = mul(chunk, kChunk);
    // Global coordinates of the chunk's first value.
    Value mn = p.kContiguous ? add(op.blockStart, row)
                             : add(op.blockStart, col);
    Value k = p.kContiguous ? add(k0, col) : add(k0, row);
    SmallVector<Value> dst = {stage, row, swizzledCol(op, row, chunk)};
    // Values of the chunk inside the operand: 0 or 8, or fewer at the
    // contiguous edge.
    Value valid;
    if (!op.inBounds) {
      // A of a dynamic M is k-contiguous (planDynamicM): its rows end at M.
      Value rowIn = !p.kContiguous ? ult(k, p.kExtent)
                    : ShapedType::isDynamic(p.mnExtent) ? ult(mn, mSize)
                                                        : ult(mn, p.mnExtent);
      Value left = arith::SubIOp::create(
          b, loc, cIndex(p.kContiguous ? p.kExtent : p.mnExtent),
          p.kContiguous ? k : mn);
      Value leftPos = arith::MaxSIOp::create(b, loc, left, cIndex(0));
      Value count = minU(leftPos, kChunk);
      valid = arith::SelectOp::create(b, loc, rowIn, count, cIndex(0));
      // A chunk with nothing to read still needs an address inside.
      Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                        valid, cIndex(0));
      mn = arith::SelectOp::create(b, loc, any, mn, cIndex(0));
      k = arith::SelectOp::create(b, loc, any, k, cIndex(0));
    }
    SmallVector<Value> src = operandIndices(p, mn, k);
    if (p.async) {
      tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
          b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), op.shared,
          dst, op.mem, src, b.getIndexAttr(kChunk), valid, b.getUnitAttr()));
      continue;
    }
    Value zero = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(chunkType, b.getZeroAttr(elem)));
    Value mask = vector::CreateMaskOp::create(
        b, loc, VectorType::get({kChunk}, b.getI1Type()),
        ValueRange{valid ? valid : cIndex(kChunk)});
    Value values =
        vector::MaskedLoadOp::create(b, loc, chunkType, op.mem, src, mask, zero);
    vector::StoreOp::create(b, loc, values, op.shared, dst,
                            /*nontemporal=*/false, llvm::MaybeAlign(16));
  }
  return tokens;
}

Value TensorCoreEmitter::loadFragment(const Operand &op, Value stage,
                                      Value mn, int64_t k, bool isB) {
  // ldmatrix.x4: lanes 8i..8i+7 address the rows of matrix i. A's matrices
  // are (mn 0-7, k 0-7), (mn 8-15, k 0-7), (mn 0-7, k 8-15), (mn 8-15,
  // k 8-15), its a0..a7 registers; B's are (n 0-7, k 0-7), (n 0-7,
  // k 8-15), (n 8-15, k 0-7), (n 8-15, k 8-15): b0,b1 of two n tiles.
  // In bytes the same holds for 8- and 32-bit values (k 0-7 is the first
  // 16-byte chunk of a row).
  int64_t perWord = 4 / plan.elemBytes();
  auto type = VectorType::get({4, perWord}, plan.inType);
  if (!op.plan->kContiguous && plan.elemBytes() == 4)
    return loadFragmentScalar(op, stage, mn, k, isB, type);
  Value matrix = div(lane, 8), r = rem(lane, 8);
  Value mnOff = mul(isB ? div(matrix, 2) : rem(matrix, 2), 8);
  Value kOff = mul(isB ? rem(matrix, 2) : div(matrix, 2), plan.chunk());
  Value row, chunk;
  if (op.plan->kContiguous) {
    row = add(add(mn, mnOff), r);
    chunk = div(add(kOff, k), plan.chunk());
  } else {
    row = add(add(kOff, k), r);
    chunk = div(add(mn, mnOff), plan.chunk());
  }
  return nvgpu::LdMatrixOp::create(b, loc, type, op.shared,
                                   ValueRange{stage, row,
                                              swizzledCol(op, row, chunk)},
                                   /*transpose=*/!op.plan->kContiguous,
                                   /*numTiles=*/4);
}

/// The fragment ldmatrix.x4 would give, for 32-bit values of an
/// mn-contiguous operand (ldmatrix.trans moves 16-bit values): register i
/// of lane (g = lane/4, t = lane%4) holds (mn, k) = ((i%2)*8 + g,
/// (i/2)*4 + t) of A, or ((i/2)*8 + g, (i%2)*4 + t) of B.
Value TensorCoreEmitter::loadFragmentScalar(const Operand &op, Value stage,
                                            Value mn, int64_t k, bool isB,
                                            VectorType type) {
  Value g = div(lane, 4), t = rem(lane, 4);
  SmallVector<Value> values;
  for (int64_t i = 0; i < 4; ++i) {
    int64_t mnOff = (isB ? i / 2 : i % 2) * 8;
    int64_t kOff = (isB ? i % 2 : i / 2) * plan.chunk();
    Value row = add(t, k + kOff);
    Value col = add(add(mn, g), mnOff);
    Value chunk = div(col, plan.chunk());
    Value physical = add(swizzledCol(op, row, chunk), rem(col, plan.chunk()));
    values.push_back(memref::LoadOp::create(
        b, loc, op.shared, ValueRange{stage, row, physical}));
  }
  return vector::FromElementsOp::create(b, loc, type, values);
}

SmallVector<Value> TensorCoreEmitter::mmaOperands(Value fragment,
                                                  int64_t firstRow,
                                                  int64_t rows) {
  return mmaSyncOperands(b, loc, plan.inType, fragment, firstRow, rows);
}

/// acc (vector<4 x acc>: c0..c3) += A (16x16) * B (16x8).
Value TensorCoreEmitter::mma(ArrayRef<Value> aRegs, ArrayRef<Value> bRegs,
                             Value acc) {
  return mmaSyncM16N8(b, loc, plan.inType, plan.accType, plan.unsignedInt,
                      aRegs, bRegs, acc);
}

/// This warp's fragments of one mma step (K offset `k` in stage `stage`):
/// tilesM of A (16x16 each), then tilesN / 2 of B (two 16x8 each).
SmallVector<Value> TensorCoreEmitter::loadFragments(Value stage, int64_t k) {
  SmallVector<Value> fragments;
  for (int64_t mi = 0; mi < tilesM(); ++mi)
    fragments.push_back(
        loadFragment(a, stage, add(warpRow, mi * kMmaM), k, false));
  for (int64_t nj = 0; nj < tilesN() / 2; ++nj)
    fragments.push_back(
        loadFragment(bOp, stage, add(warpCol, nj * 2 * kMmaN), k, true));
  return fragments;
}

/// One mma step on `fragments` (loadFragments). Accumulator (mi, ni) is
/// acc[mi * tilesN + ni].
SmallVector<Value> TensorCoreEmitter::mmaStep(ValueRange fragments,
                                              ValueRange acc) {
  SmallVector<Value> next(acc.begin(), acc.end());
  SmallVector<SmallVector<Value>> aRegs, bRegs;
  for (int64_t mi = 0; mi < tilesM(); ++mi)
    aRegs.push_back(mmaOperands(fragments[mi], 0, 4));
  for (int64_t nj = 0; nj < tilesN() / 2; ++nj) {
    Value fragment = fragments[tilesM() + nj];
    bRegs.push_back(mmaOperands(fragment, 0, 2));
    bRegs.push_back(mmaOperands(fragment, 2, 2));
  }
  for (int64_t mi = 0; mi < tilesM(); ++mi)
    for (int64_t ni = 0; ni < tilesN(); ++ni) {
      // Serpentine over n: consecutive mma reuse a B fragment.
      int64_t n = mi % 2 ? tilesN() - 1 - ni : ni;
      Value &c = next[mi * tilesN() + n];
      c = mma(aRegs[mi], bRegs[n], c);
    }
  return next;
}

SmallVector<Value> TensorCoreEmitter::initialAccumulators() {
  auto accVec = VectorType::get({4}, plan.accType);
  SmallVector<Value> acc;
  if (plan.init.constant) {
    TypedAttr value = plan.init.constant;
    Attribute element;
    if (auto f = dyn_cast<FloatAttr>(value))
      element = b.getFloatAttr(plan.accType, f.getValueAsDouble());
    else if (auto i = dyn_cast<IntegerAttr>(value))
      element = b.getIntegerAttr(plan.accType, i.getValue().sextOrTrunc(32));
    else
      element = b.getZeroAttr(plan.accType);
    Value splat = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(accVec, element));
    return SmallVector<Value>(tilesM() * tilesN(), splat);
  }
  // C's initial values, at each accumulator's element (0 outside C).
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(plan.accType));
  Type memElem = getElementTypeOrSelf(plan.init.memRef.getType());
  for (int64_t mi = 0; mi < tilesM(); ++mi)
    for (int64_t ni = 0; ni < tilesN(); ++ni) {
      SmallVector<Value> elements;
      for (int64_t e = 0; e < 4; ++e) {
        Value row = add(accRow(mi, e / 2), laneRow);
        Value col = add(add(accCol(ni), laneCol), e % 2);
        Value inside = arith::AndIOp::create(b, loc, ult(row, mSize),
                                             ult(col, plan.n));
        auto ifInside = scf::IfOp::create(b, loc, TypeRange{plan.accType},
                                          inside, /*withElseRegion=*/true);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifInside.thenBlock());
        Value v = memref::LoadOp::create(b, loc, plan.init.memRef,
                                         outIndices(row, col));
        if (memElem != plan.accType)
          v = arith::ExtFOp::create(b, loc, plan.accType, v);
        scf::YieldOp::create(b, loc, v);
        b.setInsertionPointToStart(ifInside.elseBlock());
        scf::YieldOp::create(b, loc, zero);
        elements.push_back(ifInside.getResult(0));
      }
      acc.push_back(
          vector::FromElementsOp::create(b, loc, accVec, elements));
    }
  return acc;
}

void TensorCoreEmitter::storeResults(ValueRange acc) {
  Value c = plan.out.c;
  Type outElem = getElementTypeOrSelf(c.getType());
  auto clamp = [&](Value v, Value size) -> Value {
    return cInBounds ? v : minU(v, arith::SubIOp::create(b, loc, size, cIndex(1)));
  };
  Value n = cIndex(plan.n);
  for (int64_t mi = 0; mi < tilesM(); ++mi)
    for (int64_t ni = 0; ni < tilesN(); ++ni)
      for (int64_t h = 0; h < 2; ++h) {
        Value row = add(accRow(mi, h), laneRow);
        Value col = add(accCol(ni), laneCol);
        SmallVector<Value> pair;
        for (int64_t e = 0; e < 2; ++e) {
          Value v = vector::ExtractOp::create(b, loc, acc[mi * tilesN() + ni],
                                              2 * h + e);
          // Epilogue inputs outside C are read at the nearest index inside:
          // those results are never stored.
          v = applyMatmulEpilogue(
              b, loc, plan.out.epilogue, v,
              outIndices(clamp(row, mSize), clamp(add(col, e), n)));
          pair.push_back(castForStore(b, loc, v, outElem));
        }
        storeMatmulPair(b, loc, c, pair, outIndices(row, col), row, col,
                        mSize, plan.n, cInBounds);
      }
}

void TensorCoreEmitter::emit(func::FuncOp kernel) {
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  lane = rem(tid, kGPUWarpSize);
  Value warp = div(tid, kGPUWarpSize);
  warpRow = mul(div(warp, kWarpsN), plan.warpM());
  warpCol = mul(rem(warp, kWarpsN), plan.warpN());
  laneRow = div(lane, 4);
  laneCol = mul(rem(lane, 4), 2);
  // Blocks run in order of their linear id (x fastest), in the grouped
  // raster order (GPUMatmulPlan.h) on large grids.
  mSize = matmulRows(b, loc, plan);
  int64_t gridN = llvm::divideCeil(plan.n, plan.blockN);
  int64_t gridM = llvm::divideCeil(plan.assumedM, plan.blockM);
  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value by = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value blockM = by, blockN = bx;
  if (usesGroupedRaster(gridM, gridN))
    std::tie(blockM, blockN) =
        plan.dynamicM()
            ? groupedRasterTile(
                  b, loc, add(mul(by, gridN), bx),
                  arith::CeilDivUIOp::create(b, loc, mSize,
                                             cIndex(plan.blockM)),
                  gridN)
            : groupedRasterTile(b, loc, add(mul(by, gridN), bx), gridM,
                                gridN);
  n0 = mul(blockN, plan.blockN);
  m0 = mul(blockM, plan.blockM);
  batchId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  setUpOperand(a, kernel, "_a", plan.a, plan.blockM, m0);
  setUpOperand(bOp, kernel, "_b", plan.b, plan.blockN, n0);
  cInBounds = !plan.dynamicM() && plan.m % plan.blockM == 0 &&
              plan.n % plan.blockN == 0;
  bool async = plan.a.async || plan.b.async;
  auto commit = [&](ArrayRef<Value> tokens) -> Value {
    if (!async)
      return Value();
    return nvgpu::DeviceAsyncCreateGroupOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), tokens);
  };
  /// Waits until at most `pending` groups are in flight.
  auto wait = [&](Value group, int64_t pending) {
    if (group)
      nvgpu::DeviceAsyncWaitOp::create(b, loc, group,
                                       b.getI32IntegerAttr(pending));
  };
  auto copyStage = [&](Value kTile, Value stage) {
    SmallVector<Value> tokens = copyTile(a, kTile, stage);
    llvm::append_range(tokens, copyTile(bOp, kTile, stage));
    return tokens;
  };

  SmallVector<Value> acc = initialAccumulators();
  int64_t tilesK = llvm::divideCeil(plan.k, plan.blockK());
  // Prologue: k-tiles 0 .. stages-2 in flight (a tile past K is a
  // repeated last tile, never computed).
  Value group;
  for (int64_t s = 0; s + 1 < plan.stages; ++s)
    group = commit(
        copyStage(cIndex(std::min<int64_t>(s, tilesK - 1)), cIndex(s)));
  wait(group, plan.stages - 2);
  gpu::BarrierOp::create(b, loc);

  // A k-tile is two mma steps (64 bytes of K). Iteration t starts with the
  // fragments of tile t's first step in registers:
  // - start copying tile t + stages - 1 into the stage that tile t - 1
  //   used (every warp finished reading it before the last barrier);
  // - load the second step's fragments, multiply the first step;
  // - wait until tile t + 1 has landed, barrier (no warp reads stage t
  //   after it: its fragments are in registers);
  // - load the first step's fragments of tile t + 1, multiply the second
  //   step of tile t, so those loads are in flight behind 2x tilesM x
  //   tilesN mma rather than after the barrier.
  SmallVector<Value> iterArgs = acc;
  llvm::append_range(iterArgs, loadFragments(cIndex(0), 0));
  size_t numAcc = acc.size();
  auto loop = scf::ForOp::create(b, loc, cIndex(0), cIndex(tilesK), cIndex(1),
                                 iterArgs);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value t = loop.getInductionVar();
    ValueRange args = loop.getRegionIterArgs();
    Value ahead = add(t, plan.stages - 1);
    Value kTile = minU(ahead, tilesK - 1);
    Value group = commit(copyStage(kTile, rem(ahead, plan.stages)));
    SmallVector<Value> second = loadFragments(rem(t, plan.stages), plan.mmaK());
    SmallVector<Value> next = mmaStep(args.drop_front(numAcc),
                                      args.take_front(numAcc));
    wait(group, plan.stages - 2);
    gpu::BarrierOp::create(b, loc);
    // Past the last tile this reads a stage nobody uses (never multiplied).
    SmallVector<Value> first = loadFragments(rem(add(t, 1), plan.stages), 0);
    next = mmaStep(second, next);
    llvm::append_range(next, first);
    scf::YieldOp::create(b, loc, next);
  }
  // The last iterations copied repeated tiles nobody reads: let them land
  // before the kernel ends.
  wait(commit({}), 0);
  storeResults(loop.getResults().take_front(numAcc));
}

} // namespace

FailureOr<MatmulTiles>
mlir::tessel::chooseMmaSyncTiles(Operation *root, CUDATargetAttr target,
                                 bool allowTF32, std::string &why) {
  FailureOr<TensorCorePlan> plan = planMmaSyncMatmul(root, allowTF32, why);
  if (failed(plan))
    return failure();
  // 128 along M and N, but 64 along a side of at most 64 (a 128-wide
  // block would compute half a tile of zeros); 64x64 when that gives
  // fewer blocks than the target has SMs.
  MatmulTiles tiles;
  tiles.blockM = plan->assumedM <= kSmallBlock ? kSmallBlock : kLargeBlock;
  tiles.blockN = plan->n <= kSmallBlock ? kSmallBlock : kLargeBlock;
  int64_t blocks = plan->batch *
                   llvm::divideCeil(plan->assumedM, tiles.blockM) *
                   llvm::divideCeil(plan->n, tiles.blockN);
  if (blocks < target.getSms())
    tiles.blockM = tiles.blockN = kSmallBlock;
  tiles.blockK = plan->blockK();
  tiles.stages = kDefaultStages;
  if (failed(checkMmaSyncTiles(root, tiles, target, allowTF32, why)))
    return failure();
  return tiles;
}

LogicalResult mlir::tessel::checkMmaSyncTiles(Operation *root,
                                              const MatmulTiles &tiles,
                                              CUDATargetAttr target,
                                              bool allowTF32,
                                              std::string &why) {
  FailureOr<TensorCorePlan> plan = planMmaSyncMatmul(root, allowTF32, why);
  if (failed(plan))
    return failure();
  if (!target.hasMma("mma_sync")) {
    why = ("the target (" + target.getArch().getValue() +
           ") has no mma.sync tensor cores (sm_80 or newer)")
              .str();
    return failure();
  }
  if (tiles.blockK != plan->blockK()) {
    why = llvm::formatv("tile K {0}: the kernel takes {1} values (64 bytes) "
                        "of K per stage",
                        tiles.blockK, plan->blockK())
              .str();
    return failure();
  }
  applyTiles(*plan, tiles);
  if (plan->sharedBytes() > target.getSharedPerBlock()) {
    why = llvm::formatv("{0} stages of {1}x{2} need {3} bytes of shared "
                        "memory, more than the {4} a block has on {5}",
                        tiles.stages, tiles.blockM, tiles.blockN,
                        plan->sharedBytes(), target.getSharedPerBlock(),
                        target.getArch().getValue())
              .str();
    return failure();
  }
  return success();
}

std::string mlir::tessel::describeTensorCoreMatmul(Operation *root,
                                                   const MatmulTiles &tiles) {
  std::string why;
  FailureOr<TensorCorePlan> plan =
      planMmaSyncMatmul(root, /*allowTF32=*/true, why);
  if (failed(plan))
    return "not a tensor-core matmul: " + why;
  applyTiles(*plan, tiles);
  auto typeName = [&](Type t, bool operand) {
    std::string s;
    llvm::raw_string_ostream os(s);
    if (t.isF32() && operand)
      os << "tf32";
    else if (t.isInteger(8))
      os << (plan->unsignedInt ? "u8" : "s8");
    else
      t.print(os);
    return s;
  };
  auto layout = [](const OperandPlan &op) {
    switch (op.indexing) {
    case Indexing::ConvInput:
      return "NHWC input as im2col (implicit GEMM)";
    case Indexing::ConvFilter:
      return "HWCF filter";
    default:
      return op.kContiguous ? "k-contiguous" : "mn-contiguous";
    }
  };
  std::string copies = plan->a.async && plan->b.async ? "cp.async"
                       : plan->a.async || plan->b.async
                           ? "cp.async + register copies (unaligned rows)"
                           : "register copies (unaligned rows)";
  return llvm::formatv("mma.sync m16n8k{10} {0}x{0}->{1}, A {2}, B {3}, "
                       "{4}x{5}x{6} blocks, {7} stages, {8}, {9} epilogue ops",
                       typeName(plan->inType, true),
                       typeName(plan->accType, false),
                       layout(plan->a), layout(plan->b), plan->blockM,
                       plan->blockN, plan->blockK(), plan->stages, copies,
                       plan->out.epilogue.size(), plan->mmaK())
      .str();
}

LogicalResult mlir::tessel::emitTensorCoreMatmul(func::FuncOp kernel,
                                                 Operation *root,
                                                 const MatmulTiles &tiles) {
  std::string why;
  FailureOr<TensorCorePlan> plan =
      planMmaSyncMatmul(root, /*allowTF32=*/true, why);
  if (failed(plan))
    return root->emitError("tensor-core matmul: ") << why;
  if (!kernel->getParentOfType<ModuleOp>())
    return kernel.emitError("tensor-core matmul: the kernel is not in a "
                            "module");
  applyTiles(*plan, tiles);
  OpBuilder b(plan->out.store);
  TensorCoreEmitter(b, root->getLoc(), *plan).emit(kernel);
  plan->out.store.erase();
  int64_t gridN = llvm::divideCeil(plan->n, plan->blockN);
  setKernelLaunch(kernel,
                  {gridN,
                   static_cast<int64_t>(
                       llvm::divideCeil(plan->assumedM, plan->blockM)),
                   plan->batch},
                  {kThreads, 1, 1});
  if (plan->dynamicM()) {
    FailureOr<AffineExpr> rows = dynamicRowTiles(*plan, root, plan->blockM);
    if (failed(rows))
      return failure();
    MLIRContext *ctx = kernel.getContext();
    setWorkgroupCount(kernel, {getAffineConstantExpr(gridN, ctx), *rows,
                               getAffineConstantExpr(1, ctx)});
  }
  if (plan->sharedBytes() > kStaticSharedLimit)
    kernel->setAttr(kSharedMemoryBytesAttr,
                    Builder(kernel.getContext())
                        .getI64IntegerAttr(plan->sharedBytes()));
  return success();
}
