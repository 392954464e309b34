//===- GPUFlashAttention.cpp - tessel.attention as one kernel ---*- C++ -*-===//
//
// Flash attention (FlashAttention-2's forward pass) on mma.sync, f16 or
// bf16 operands with f32 scores and accumulators:
// - a block of 4 warps owns 64 or 128 query rows of one batch element
//   (16 or 32 per warp: 32 when the head sizes are at most 64 and the grid
//   still has enough blocks); grid (query blocks, batch);
// - each warp keeps its Q rows in registers as mma A operands, loaded once
//   from global memory (a lane reads the 4-byte pairs its fragment needs);
// - keys and values stream through shared memory 64 keys at a time, in a
//   ring of 2 stages filled by 16-byte cp.async (zero-filled past the last
//   key) and XOR-swizzled for ldmatrix; the copy of tile j + 1 is in flight
//   while the warps compute on tile j;
// - per tile: S = Q K^T (K through ldmatrix), then per score: * scale,
//   + mask (read through its indexing map), the op's region, -inf for keys
//   past the end, times log2(e); the online softmax keeps a running max and
//   sum per row (quad shuffles), rescales the O accumulators, and
//   P = exp2(S - max) is
//   rounded to the operand type in registers, where the S accumulators'
//   layout is already that of mma A operands (no shared-memory round trip);
//   O += P V (V through ldmatrix.trans);
// - at the end O is divided by the row sums and stored in the output's
//   layout and type, masked past the last query row.
// A row whose keys are all masked with -inf gives NaN, as the decomposed
// form (softmax) does: its sum is 0.
// M, K2 and the batch loops may be dynamic (push constants; the host
// computes the grid): their edges are masked as for sizes that are not
// multiples of the tiles.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/GPU/GPUFlashAttention.h"

#include "tessel/Codegen/Common/AttentionKernel.h"
#include "tessel/Codegen/Common/WorkgroupCount.h"
#include "tessel/Codegen/GPU/GPUIndexMath.h"
#include "tessel/Codegen/GPU/GPUMatmulEpilogue.h"
#include "tessel/Codegen/GPU/GPUMmaSync.h"
#include "tessel/Codegen/GPU/GPUWarpReduction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr int64_t kWarps = 4;
constexpr int64_t kThreads = kWarps * kGPUWarpSize;
/// Keys per K/V tile, and tiles in the shared-memory ring.
constexpr int64_t kBlockKeys = kFlashAttentionKeyTile;
constexpr int64_t kStages = 2;
constexpr int64_t kMaxHeadSize = 128;
constexpr int64_t kChunkBytes = 16;
constexpr int64_t kStaticSharedLimit = 48 * 1024;
/// 32 query rows per warp only while the grid keeps at least this many
/// blocks (about 4 per SM of an H100/H200).
constexpr int64_t kMinBlocksForTallWarps = 512;

struct FlashPlan : AttentionLoops {
  Type inType;
  /// A divisor of K2: its size, or what the variant knows of a dynamic K2.
  int64_t k2Divisor = 1;
  /// 16-row mma tiles per warp.
  int64_t mTiles = 1;

  int64_t elemBytes() const { return inType.getIntOrFloatBitWidth() / 8; }
  /// Values per 16-byte chunk.
  int64_t chunk() const { return kChunkBytes / elemBytes(); }
  int64_t warpRows() const { return kMmaSyncM * mTiles; }
  int64_t blockM() const { return kWarps * warpRows(); }
  /// Whether the last query block and key tile are full (a dynamic M: no;
  /// a dynamic K2: when the variant knows it divides into key tiles).
  bool rowsInBounds() const {
    return !ShapedType::isDynamic(m) && m % blockM() == 0;
  }
  bool keysInBounds() const { return k2Divisor % kBlockKeys == 0; }
  int64_t sharedBytes() const {
    return kStages * kBlockKeys * (k1 + n) * elemBytes();
  }
};

FailureOr<FlashPlan> planFlashAttention(AttentionOp op, std::string &why) {
  auto fail = [&](const Twine &reason) {
    why = reason.str();
    return failure();
  };
  FailureOr<AttentionLoops> loops =
      getAttentionLoops(op, why, /*dynamicExtents=*/true);
  if (failed(loops))
    return failure();
  FlashPlan plan;
  static_cast<AttentionLoops &>(plan) = std::move(*loops);
  plan.inType = getElementTypeOrSelf(op.getQuery().getType());
  plan.k2Divisor = knownDivisor(
      op.getKey(), *op.getKeyMap().getResultPosition(getAffineDimExpr(
                       plan.dims.k2[0], op.getContext())));
  if (!plan.inType.isF16() && !plan.inType.isBF16())
    return fail("query, key and value are not f16 or bf16");
  if (plan.k1 % 16 || plan.k1 > kMaxHeadSize || plan.n % 16 ||
      plan.n > kMaxHeadSize)
    return fail(llvm::formatv("head sizes K1 = {0}, N = {1} (the kernel "
                              "takes multiples of 16 up to {2})",
                              plan.k1, plan.n, kMaxHeadSize));
  Type outType = getElementTypeOrSelf(op.getOutput().getType());
  if (!outType.isF16() && !outType.isBF16() && !outType.isF32())
    return fail("the output is not f16, bf16 or f32");
  // 32 rows per warp halves the K/V traffic through shared memory, but
  // needs twice the registers (head sizes up to 64) and blocks. With a
  // dynamic M or batch the grid may be small: 16 rows.
  plan.mTiles = 2;
  if (plan.k1 > 64 || plan.n > 64 || ShapedType::isDynamic(plan.m) ||
      ShapedType::isDynamic(plan.batch) || plan.m <= 64 ||
      plan.batch * llvm::divideCeil(plan.m, plan.blockM()) <
          kMinBlocksForTallWarps)
    plan.mTiles = 1;
  return plan;
}

class FlashEmitter : GPUIndexMath {
public:
  FlashEmitter(OpBuilder &b, Location loc, const FlashPlan &plan,
               const AttentionExtents &extents)
      : GPUIndexMath(b, loc), plan(plan), extents(extents) {}

  /// Emits the kernel before `store`; the memrefs are the bindings.
  void emit(func::FuncOp kernel, Value q, Value k, Value v, Value mask,
            Value out);

private:
  SmallVector<Value> indicesFor(AffineMap map, Value row, Value key,
                                Value col) {
    return attentionIndices(plan, map, batchIds, row, key, col);
  }
  Value f32(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value toF32(Value v) {
    if (v.getType().isF32())
      return v;
    if (v.getType().getIntOrFloatBitWidth() < 32)
      return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
    return arith::TruncFOp::create(b, loc, b.getF32Type(), v);
  }
  Value shuffleXor(Value v, int32_t offset) {
    return gpu::ShuffleOp::create(b, loc, v, offset, kGPUWarpSize,
                                  gpu::ShuffleMode::XOR)
        .getShuffleResult();
  }
  /// Issues this thread's cp.async copies of key tile `tile` of `mem`
  /// (K or V, `width` values per key) into `stage` of `shared`.
  SmallVector<Value> copyKeyTile(Value mem, AffineMap map, Value shared,
                                 int64_t width, Value tile, Value stage);
  /// ldmatrix.x4 of keys `key0`..+15 and columns `c0`..+15 of a K or V
  /// stage (`width` columns) as B operands: for K (S = Q K^T: n = keys)
  /// rows 0-1 are keys key0..+7 and rows 2-3 key0+8..+15; for V,
  /// `transpose`d (O = P V: n = columns), rows 0-1 are columns c0..+7 and
  /// rows 2-3 c0+8..+15.
  Value loadFragment(Value shared, int64_t width, Value stage, int64_t key0,
                     int64_t c0, bool transpose);
  /// acc[mi * stride + first] += A(mi) x the first n tile of `fragment`
  /// (a loadFragment), acc[mi * stride + first + 1] += A(mi) x the second,
  /// for each of this warp's mma tiles mi.
  void mmaTwoTiles(Value fragment,
                   function_ref<ArrayRef<Value>(int64_t)> aOperands,
                   SmallVector<Value> &acc, int64_t stride, int64_t first) {
    SmallVector<Value> lo =
        mmaSyncOperands(b, loc, plan.inType, fragment, 0, 2);
    SmallVector<Value> hi =
        mmaSyncOperands(b, loc, plan.inType, fragment, 2, 2);
    Type f32Type = b.getF32Type();
    for (int64_t mi = 0; mi < plan.mTiles; ++mi) {
      ArrayRef<Value> a = aOperands(mi);
      Value &c0 = acc[mi * stride + first];
      Value &c1 = acc[mi * stride + first + 1];
      c0 = mmaSyncM16N8(b, loc, plan.inType, f32Type, false, a, lo, c0);
      c1 = mmaSyncM16N8(b, loc, plan.inType, f32Type, false, a, hi, c1);
    }
  }
  /// A vector<4x2xT> fragment from four pairs of values.
  Value fragmentOf(ArrayRef<std::pair<Value, Value>> pairs);
  /// The first query row of this warp's mma tile `mi`, plus this lane's
  /// offset and half `h` (rows g and g + 8 of the tile).
  Value accRow(int64_t mi, int64_t h) {
    return add(add(warpRow0, mi * kMmaSyncM + h * 8), laneRow);
  }

  const FlashPlan &plan;
  const AttentionExtents &extents;
  Value tid, lane, laneRow, laneCol, warpRow0;
  /// M and K2 (constants or push constants), their last indices, the key
  /// tiles and the last key tile.
  Value mSize, mLast, k2Size, k2Last, keyTiles, lastKeyTile;
  SmallVector<Value> batchIds;
  Value kShared, vShared;
};

SmallVector<Value> FlashEmitter::copyKeyTile(Value mem, AffineMap map,
                                             Value shared, int64_t width,
                                             Value tile, Value stage) {
  SmallVector<Value> tokens;
  int64_t chunksPerRow = width / plan.chunk();
  int64_t chunks = kBlockKeys * chunksPerRow;
  Value key0 = mul(tile, kBlockKeys);
  bool inBounds = plan.keysInBounds();
  for (int64_t c = 0; c < chunks; c += kThreads) {
    // 64 keys of 2-16 chunks: a multiple of the block's threads.
    Value index = add(tid, c);
    Value row = div(index, chunksPerRow);
    Value chunk = rem(index, chunksPerRow);
    Value key = add(key0, row);
    Value valid;
    if (!inBounds) {
      // Keys past the end are zero-filled; their address stays inside.
      valid = arith::SelectOp::create(b, loc, ult(key, k2Size),
                                      cIndex(plan.chunk()), cIndex(0));
      key = minU(key, k2Last);
    }
    SmallVector<Value> dst = {
        stage, row,
        swizzledChunkColumn(b, loc, row, chunk, chunksPerRow, plan.chunk())};
    SmallVector<Value> src =
        indicesFor(map, Value(), key, mul(chunk, plan.chunk()));
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), shared, dst,
        mem, src, b.getIndexAttr(plan.chunk()), valid, b.getUnitAttr()));
  }
  return tokens;
}

Value FlashEmitter::loadFragment(Value shared, int64_t width, Value stage,
                                 int64_t key0, int64_t c0, bool transpose) {
  // ldmatrix.x4, lanes 8i..8i+7 addressing the rows of matrix i: for K
  // (key 0-7, c 0-7), (key 0-7, c 8-15), (key 8-15, c 0-7), (key 8-15,
  // c 8-15); for V, transposed, (key 0-7, c 0-7), (key 8-15, c 0-7),
  // (key 0-7, c 8-15), (key 8-15, c 8-15). Either way registers 0-1 are
  // the B operand of the first 8-wide n tile, 2-3 of the second.
  Value matrix = div(lane, 8);
  Value keyHalf = transpose ? rem(matrix, 2) : div(matrix, 2);
  Value colHalf = transpose ? div(matrix, 2) : rem(matrix, 2);
  Value row = add(add(mul(keyHalf, 8), rem(lane, 8)), key0);
  Value chunk = add(colHalf, c0 / plan.chunk());
  Value col = swizzledChunkColumn(b, loc, row, chunk, width / plan.chunk(),
                                  plan.chunk());
  auto type = VectorType::get({4, 2}, plan.inType);
  return nvgpu::LdMatrixOp::create(b, loc, type, shared,
                                   ValueRange{stage, row, col}, transpose,
                                   /*numTiles=*/4);
}

Value FlashEmitter::fragmentOf(ArrayRef<std::pair<Value, Value>> pairs) {
  auto pairType = VectorType::get({2}, plan.inType);
  auto type = VectorType::get({4, 2}, plan.inType);
  Value fragment = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getZeroAttr(plan.inType)));
  for (auto [i, pair] : llvm::enumerate(pairs)) {
    Value v = vector::FromElementsOp::create(
        b, loc, pairType, ValueRange{pair.first, pair.second});
    fragment = vector::InsertOp::create(b, loc, v, fragment, int64_t(i));
  }
  return fragment;
}

void FlashEmitter::emit(func::FuncOp kernel, Value q, Value k, Value v,
                        Value mask, Value out) {
  AttentionOp op = plan.op;
  Type f32Type = b.getF32Type();
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  lane = rem(tid, kGPUWarpSize);
  laneRow = div(lane, 4);
  laneCol = mul(rem(lane, 4), 2);
  Value warp = div(tid, kGPUWarpSize);
  Value blockM = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  warpRow0 = add(mul(blockM, plan.blockM()), mul(warp, plan.warpRows()));
  if (!plan.batchShape.empty()) {
    Value batchId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
    batchIds = delinearizeRow(b, loc, batchId, extents.batchShape);
  }
  mSize = getValueOrCreateConstantIndexOp(b, loc, extents.m.size);
  k2Size = getValueOrCreateConstantIndexOp(b, loc, extents.k2.size);
  mLast = arith::SubIOp::create(b, loc, mSize, cIndex(1));
  k2Last = arith::SubIOp::create(b, loc, k2Size, cIndex(1));
  keyTiles = arith::CeilDivUIOp::create(b, loc, k2Size, cIndex(kBlockKeys));
  lastKeyTile = arith::SubIOp::create(b, loc, keyTiles, cIndex(1));

  // Shared memory: K's ring, then V's.
  SmallVector<int64_t> kShape = {kStages, kBlockKeys, plan.k1};
  SmallVector<int64_t> vShape = {kStages, kBlockKeys, plan.n};
  if (plan.sharedBytes() <= kStaticSharedLimit) {
    kShared = workgroupBuffer(b, loc, kernel, "_k", kShape, plan.inType);
    vShared = workgroupBuffer(b, loc, kernel, "_v", vShape, plan.inType);
  } else {
    auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                            gpu::AddressSpace::Workgroup);
    Value dynamic = gpu::DynamicSharedMemoryOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                        MemRefLayoutAttrInterface(), space));
    auto view = [&](ArrayRef<int64_t> shape, int64_t offset) {
      return memref::ViewOp::create(
          b, loc,
          MemRefType::get(shape, plan.inType, MemRefLayoutAttrInterface(),
                          space),
          dynamic, cIndex(offset), ValueRange{});
    };
    kShared = view(kShape, 0);
    vShared = view(vShape, kStages * kBlockKeys * plan.k1 * plan.elemBytes());
  }
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  auto copyTile = [&](Value tile, Value stage) {
    SmallVector<Value> tokens =
        copyKeyTile(k, op.getKeyMap(), kShared, plan.k1, tile, stage);
    llvm::append_range(tokens, copyKeyTile(v, op.getValueMap(), vShared,
                                           plan.n, tile, stage));
    return nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType, tokens)
        .getResult();
  };
  // Tile 0 is in flight while Q is read.
  copyTile(cIndex(0), cIndex(0));

  // Q: per mma tile mi and 16 values of K1, the A operand registers. Rows
  // past the end read the last row (never stored).
  int64_t tilesMma = plan.k1 / 16;
  SmallVector<SmallVector<Value>> qRegs;
  auto pairType = VectorType::get({2}, plan.inType);
  for (int64_t mi = 0; mi < plan.mTiles; ++mi)
    for (int64_t kk = 0; kk < tilesMma; ++kk) {
      Value fragment = arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(VectorType::get({4, 2}, plan.inType),
                                 b.getZeroAttr(plan.inType)));
      for (int64_t i = 0; i < 4; ++i) {
        Value row = minU(accRow(mi, i % 2), mLast);
        Value col = add(laneCol, kk * 16 + (i / 2) * 8);
        Value pair = vector::LoadOp::create(
            b, loc, pairType, q, indicesFor(op.getQueryMap(), row, {}, col));
        fragment = vector::InsertOp::create(b, loc, pair, fragment, i);
      }
      qRegs.push_back(mmaSyncOperands(b, loc, plan.inType, fragment, 0, 4));
    }

  // Scores are kept in log2 units (score * log2(e)), so that the softmax
  // uses exp2 (one MUFU instruction; exp is a range reduction around it).
  // Without a mask or region ops the factor joins the scale.
  Block &region = op.getRegion().front();
  bool plainScores = !mask && region.without_terminator().empty();
  Value log2e = f32(1.4426950408889634);
  Value scale = toF32(op.getScale());
  if (plainScores)
    scale = arith::MulFOp::create(b, loc, scale, log2e);
  Value negInf = f32(-std::numeric_limits<double>::infinity());
  Value zero = f32(0.0);
  auto acc4 = VectorType::get({4}, f32Type);
  Value zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(acc4, b.getF32FloatAttr(0)));
  int64_t nTiles = plan.n / kMmaSyncN;
  int64_t keyTilesMma = kBlockKeys / kMmaSyncN;
  // iter_args: O (mTiles x nTiles), row max and row sum (mTiles x 2).
  SmallVector<Value> init(plan.mTiles * nTiles, zeros);
  init.append(plan.mTiles * 2, negInf);
  init.append(plan.mTiles * 2, zero);
  int64_t numO = plan.mTiles * nTiles, numRows = plan.mTiles * 2;
  auto loop = scf::ForOp::create(b, loc, cIndex(0), keyTiles, cIndex(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value j = loop.getInductionVar();
    ValueRange args = loop.getRegionIterArgs();
    SmallVector<Value> o(args.begin(), args.begin() + numO);
    SmallVector<Value> rowMax(args.begin() + numO,
                              args.begin() + numO + numRows);
    SmallVector<Value> rowSum(args.begin() + numO + numRows, args.end());
    // Tile j + 1 (the last one again past the end, never read) into the
    // stage tile j - 1 used; wait for tile j.
    Value next = minU(add(j, 1), lastKeyTile);
    Value group = copyTile(next, rem(add(j, 1), kStages));
    nvgpu::DeviceAsyncWaitOp::create(b, loc, group, b.getI32IntegerAttr(1));
    gpu::BarrierOp::create(b, loc);
    Value stage = rem(j, kStages);

    // S = Q K^T.
    SmallVector<Value> s(plan.mTiles * keyTilesMma, zeros);
    for (int64_t kk = 0; kk < tilesMma; ++kk)
      for (int64_t nk = 0; nk < kBlockKeys / 16; ++nk) {
        Value fragment = loadFragment(kShared, plan.k1, stage, nk * 16,
                                      kk * 16, /*transpose=*/false);
        mmaTwoTiles(
            fragment,
            [&](int64_t mi) -> ArrayRef<Value> {
              return qRegs[mi * tilesMma + kk];
            },
            s, keyTilesMma, 2 * nk);
      }

    // Scores: scale, mask, region, keys past the end. scores[mi][ni][e].
    Value key0 = mul(j, kBlockKeys);
    SmallVector<Value> scores;
    for (int64_t mi = 0; mi < plan.mTiles; ++mi)
      for (int64_t ni = 0; ni < keyTilesMma; ++ni)
        for (int64_t e = 0; e < 4; ++e) {
          Value score = vector::ExtractOp::create(
              b, loc, s[mi * keyTilesMma + ni], e);
          score = arith::MulFOp::create(b, loc, score, scale);
          Value key = add(add(key0, ni * kMmaSyncN + e % 2), laneCol);
          if (mask) {
            Value row = minU(accRow(mi, e / 2), mLast);
            // Keys in whole tiles need no clamp, which leaves the
            // adjacent keys' mask loads contiguous (one 8-byte load).
            Value inside = plan.keysInBounds() ? key : minU(key, k2Last);
            Value m = memref::LoadOp::create(
                b, loc, mask,
                indicesFor(*op.getMaskMap(), row, inside, Value()));
            score = arith::AddFOp::create(b, loc, score, toF32(m));
          }
          IRMapping mapping;
          mapping.map(region.getArgument(0), score);
          for (Operation &inner : region.without_terminator())
            b.clone(inner, mapping);
          score = mapping.lookupOrDefault(
              region.getTerminator()->getOperand(0));
          if (!plainScores)
            score = arith::MulFOp::create(b, loc, score, log2e);
          if (!plan.keysInBounds())
            score = arith::SelectOp::create(b, loc, ult(key, k2Size), score,
                                            negInf);
          scores.push_back(score);
        }
    auto scoreAt = [&](int64_t mi, int64_t ni, int64_t e) -> Value & {
      return scores[(mi * keyTilesMma + ni) * 4 + e];
    };

    // Online softmax per row (mi, h): the new running max (over the quad
    // of lanes holding the row), the correction of what was summed so far,
    // P = exp(S - max). A row with no finite score yet uses 0 as its max,
    // so that its P and correction are 0 rather than NaN.
    for (int64_t mi = 0; mi < plan.mTiles; ++mi) {
      SmallVector<Value> corrections;
      for (int64_t h = 0; h < 2; ++h) {
        Value tileMax = negInf;
        for (int64_t ni = 0; ni < keyTilesMma; ++ni)
          for (int64_t e = 2 * h; e < 2 * h + 2; ++e)
            tileMax = arith::MaximumFOp::create(b, loc, tileMax,
                                                scoreAt(mi, ni, e));
        for (int32_t offset : {1, 2})
          tileMax = arith::MaximumFOp::create(b, loc, tileMax,
                                              shuffleXor(tileMax, offset));
        Value &runningMax = rowMax[mi * 2 + h];
        Value newMax = arith::MaximumFOp::create(b, loc, runningMax, tileMax);
        Value noneYet = arith::CmpFOp::create(
            b, loc, arith::CmpFPredicate::OEQ, newMax, negInf);
        Value safeMax = arith::SelectOp::create(b, loc, noneYet, zero, newMax);
        Value correction = math::Exp2Op::create(
            b, loc, arith::SubFOp::create(b, loc, runningMax, safeMax));
        Value sum = arith::MulFOp::create(b, loc, rowSum[mi * 2 + h],
                                          correction);
        for (int64_t ni = 0; ni < keyTilesMma; ++ni)
          for (int64_t e = 2 * h; e < 2 * h + 2; ++e) {
            Value &p = scoreAt(mi, ni, e);
            p = math::Exp2Op::create(
                b, loc, arith::SubFOp::create(b, loc, p, safeMax));
            sum = arith::AddFOp::create(b, loc, sum, p);
          }
        rowSum[mi * 2 + h] = sum;
        runningMax = newMax;
        corrections.push_back(correction);
      }
      Value scaleO = vector::FromElementsOp::create(
          b, loc, acc4,
          ValueRange{corrections[0], corrections[0], corrections[1],
                     corrections[1]});
      for (int64_t nt = 0; nt < nTiles; ++nt)
        o[mi * nTiles + nt] =
            arith::MulFOp::create(b, loc, o[mi * nTiles + nt], scaleO);
    }

    // O += P V: P's accumulator layout is the A operand's (16 keys = two
    // 8-key tiles: a0a1, a2a3 from the first, a4a5, a6a7 from the second).
    auto round = [&](Value p) {
      return arith::TruncFOp::create(b, loc, plan.inType, p).getResult();
    };
    for (int64_t kk = 0; kk < kBlockKeys / 16; ++kk) {
      SmallVector<SmallVector<Value>> pRegs;
      for (int64_t mi = 0; mi < plan.mTiles; ++mi) {
        SmallVector<std::pair<Value, Value>> pairs;
        for (int64_t half : {0, 1})
          for (int64_t e : {0, 2})
            pairs.push_back({round(scoreAt(mi, 2 * kk + half, e)),
                             round(scoreAt(mi, 2 * kk + half, e + 1))});
        pRegs.push_back(
            mmaSyncOperands(b, loc, plan.inType, fragmentOf(pairs), 0, 4));
      }
      for (int64_t nj = 0; nj < plan.n / 16; ++nj) {
        Value fragment = loadFragment(vShared, plan.n, stage, kk * 16,
                                      nj * 16, /*transpose=*/true);
        mmaTwoTiles(
            fragment, [&](int64_t mi) -> ArrayRef<Value> { return pRegs[mi]; },
            o, nTiles, 2 * nj);
      }
    }
    // Every warp is done with this stage before it is refilled.
    gpu::BarrierOp::create(b, loc);
    SmallVector<Value> yielded = o;
    llvm::append_range(yielded, rowMax);
    llvm::append_range(yielded, rowSum);
    scf::YieldOp::create(b, loc, yielded);
  }
  // The last iteration's copy (a repeated tile) lands before the end.
  Value last = nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType,
                                                       ValueRange{});
  nvgpu::DeviceAsyncWaitOp::create(b, loc, last, b.getI32IntegerAttr(0));

  // O / sum (the sum over the row's quad of lanes), stored.
  ValueRange results = loop.getResults();
  Type outElem = getElementTypeOrSelf(out.getType());
  bool rowsInBounds = plan.rowsInBounds();
  for (int64_t mi = 0; mi < plan.mTiles; ++mi)
    for (int64_t h = 0; h < 2; ++h) {
      Value sum = results[numO + numRows + mi * 2 + h];
      for (int32_t offset : {1, 2})
        sum = arith::AddFOp::create(b, loc, sum, shuffleXor(sum, offset));
      Value inverse = arith::DivFOp::create(b, loc, f32(1.0), sum);
      Value row = accRow(mi, h);
      for (int64_t nt = 0; nt < nTiles; ++nt) {
        Value col = add(laneCol, nt * kMmaSyncN);
        SmallVector<Value> pair;
        for (int64_t e = 0; e < 2; ++e) {
          Value value = vector::ExtractOp::create(
              b, loc, results[mi * nTiles + nt], 2 * h + e);
          value = arith::MulFOp::create(b, loc, value, inverse);
          pair.push_back(castForStore(b, loc, value, outElem));
        }
        storeMatmulPair(b, loc, out, pair,
                        indicesFor(op.getOutputMap(), row, {}, col), row, col,
                        mSize, plan.n, rowsInBounds);
      }
    }
}

} // namespace

bool mlir::tessel::canUseFlashAttention(AttentionOp op, std::string &why) {
  return succeeded(planFlashAttention(op, why));
}

std::string mlir::tessel::describeFlashAttention(AttentionOp op) {
  std::string why;
  FailureOr<FlashPlan> plan = planFlashAttention(op, why);
  if (failed(plan))
    return "not a flash attention: " + why;
  std::string type;
  llvm::raw_string_ostream os(type);
  plan->inType.print(os);
  return llvm::formatv("flash attention: mma.sync m16n8k16 {0} -> f32, {1} "
                       "query rows x {2} keys per step ({3} per warp), "
                       "{4} cp.async stages, head {5}/{6}, {7}{8} region "
                       "ops",
                       type, plan->blockM(), kBlockKeys, plan->warpRows(),
                       kStages, plan->k1, plan->n,
                       op.getMask() ? "mask, " : "",
                       op.getRegion().front().getOperations().size() - 1)
      .str();
}

LogicalResult mlir::tessel::emitFlashAttention(func::FuncOp kernel,
                                               AttentionOp op) {
  std::string why;
  FailureOr<FlashPlan> plan = planFlashAttention(op, why);
  if (failed(plan))
    return op.emitOpError("cannot run as a flash-attention kernel: ") << why;
  FailureOr<AttentionBindings> io =
      getAttentionBindings(op, "flash-attention kernel");
  if (failed(io))
    return failure();
  FailureOr<AttentionExtents> extents = getAttentionExtents(*plan);
  if (failed(extents))
    return op.emitOpError("flash-attention kernel: a dynamic extent is not a "
                          "push constant of the kernel");
  OpBuilder b(io->store);
  FlashEmitter(b, op.getLoc(), *plan, *extents)
      .emit(kernel, io->q, io->k, io->v, io->mask, io->out);
  io->store.erase();
  // Nothing bufferizes the op: it goes now (its operands die with it). The
  // grid: query blocks x batch elements, computed by the host when dynamic.
  op.erase();
  MLIRContext *ctx = kernel.getContext();
  setKernelLaunch(kernel, {1, 1, 1}, {kThreads, 1, 1});
  setWorkgroupCount(kernel, {extents->m.expr.ceilDiv(plan->blockM()),
                             extents->batch, getAffineConstantExpr(1, ctx)});
  if (plan->sharedBytes() > kStaticSharedLimit)
    kernel->setAttr(kSharedMemoryBytesAttr,
                    Builder(kernel.getContext())
                        .getI64IntegerAttr(plan->sharedBytes()));
  return success();
}
