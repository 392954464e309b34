//===- GPUWgmmaMatmul.cpp - Hopper matmuls: wgmma + TMA (sm_90a) -*- C++ -*-===//
//
// The sm_90a strategy for the contractions GPUMatmulPlan qualifies (f16,
// bf16 in any layout; s8/u8 k-contiguous), built from warpgroup MMA fed by
// the Tensor Memory Accelerator:
// - block tile 128 x BN (BN = 256, 192 or 128: the fewest waves of tiles
//   times the tile's cost), K in 128-byte slices (64 f16/bf16, 128 i8);
// - 384 threads: warpgroup 0 is the producer (setmaxnreg.dec 40; one
//   thread issues everything), warpgroups 1 and 2 the consumers
//   (setmaxnreg.inc 232), each owning 64 rows of the tile;
// - a ring of `stages` shared-memory stages (as many as fit in the
//   target's shared memory per block; on sm_90's 227 KiB:
//   4 of 48 KiB for 128x256, 5 of 40 KiB for 128x192, 7 of 32 KiB for
//   128x128), each holding A's
//   and B's slice as TMA boxes with the 128-byte swizzle; per stage a
//   `full` mbarrier (TMA transaction bytes) and an `empty` one (one
//   arrival per consumer warp, after the warp's wgmma.wait_group, which
//   the PTX ISA defines for the groups the executing threads committed);
// - the producer waits for an empty stage, arms `full` with the stage's
//   bytes and issues cp.async.bulk.tensor loads (out-of-bounds parts are
//   zero-filled, so any M, N, K works); k-contiguous operands are one box
//   per stage, mn-contiguous ones 64-wide boxes (wgmma's transposed
//   layout, 16-bit types only);
// - each consumer waits for a full stage, issues 4 wgmma.mma_async
//   m64nBNk16 (k32 for i8) reading both operands from shared memory
//   through descriptors, commits, waits until the previous stage's group
//   is done and releases that stage; accumulators stay in registers (an
//   !llvm.struct of BN/2 f32 or i32); the first k-slice of a tile starts
//   with scale-d = 0 (no zero-filled accumulators);
// - persistent: grid = min(tiles, the target's SMs) at most, and at run time
//   at most one block per SM of the GPU that runs it (the kernel strides by
//   gridDim.x; tessel.resident_blocks_per_sm), tiles taken in a grouped
//   raster order (8 tile rows at a time) for L2 reuse, batch outermost;
//   the producer runs ahead into the next tile while the consumers store;
// - epilogue: the initial C value, the fused elementwise ops
//   (GPUMatmulEpilogue.h) and masked stores of two values per lane,
//   straight from registers (wgmma's accumulator layout is mma.sync's
//   16x8 C layout repeated: warp w owns rows 16w..16w+15).
// f16 results are accumulated in f32 and rounded once (mma.sync uses f16
// accumulators when the program accumulates in f16).
//
// TMA tensor maps are encoded by the runtime when it records a dispatch
// (cuTensorMapEncodeTiled) from the specs in tessel.tensor_maps, and
// reach the kernel as 128-byte grid-constant parameters after the binding
// pointers (tessel-gpu-mark-grid-constants).
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/GPU/GPUWgmmaMatmul.h"

#include "tessel/Codegen/Common/DynamicExtents.h"
#include "tessel/Codegen/Common/WorkgroupCount.h"
#include "tessel/Codegen/GPU/GPUIndexMath.h"
#include "tessel/Codegen/GPU/GPUMatmulPlan.h"
#include "tessel/Dialect/Tessel/TesselDialect.h"
#include "tessel/Target/Executable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr int64_t kWarpgroup = 128;
constexpr int64_t kConsumers = 2;
constexpr int64_t kThreads = (1 + kConsumers) * kWarpgroup;
/// Rows of C per consumer warpgroup (wgmma's M) and per block.
constexpr int64_t kWgmmaM = 64;
constexpr int64_t kBlockM = kWgmmaM * kConsumers;
/// The 128-byte swizzle span: bytes of K per stage (k-contiguous operands)
/// or of MN per box row (mn-contiguous ones).
constexpr int64_t kSwizzleBytes = 128;
/// Bytes of K per wgmma (k16 for 16-bit types, k32 for 8-bit).
constexpr int64_t kWgmmaKBytes = 32;
/// Shared-memory rows per 1024-byte swizzle atom (8 rows of 128 bytes).
constexpr int64_t kAtomBytes = 1024;
constexpr int64_t kMaxStages = 8;
/// Fixed cost of a tile in columns of work (chooseBlockN).
constexpr int64_t kTileOverhead = 32;
constexpr unsigned kProducerRegisters = 40, kConsumerRegisters = 232;
/// mbarrier.try_wait suspend-time hint (ns).
constexpr int64_t kWaitTicks = 10000000;
/// CUtensorMap enum values (cuda.h).
constexpr int64_t kTmaUint8 = 0, kTmaFloat16 = 6, kTmaBFloat16 = 9;
constexpr int64_t kTmaSwizzle128B = 3, kTmaL2Promotion256B = 3;

/// The binding number of a kernel argument memref (through
/// memref.assume_alignment and, for a dynamic binding, the view of its
/// extents), or nullopt.
std::optional<unsigned> bindingNumber(Value mem) {
  while (Operation *def = mem.getDefiningOp()) {
    if (auto assume = dyn_cast<memref::AssumeAlignmentOp>(def))
      mem = assume.getMemref();
    else if (auto cast = dyn_cast<memref::CastOp>(def))
      mem = cast.getSource();
    else if (auto view = dyn_cast<memref::ReinterpretCastOp>(def))
      mem = view.getSource();
    else
      return std::nullopt;
  }
  if (auto arg = dyn_cast<BlockArgument>(mem))
    return arg.getArgNumber();
  return std::nullopt;
}

struct WgmmaPlan : MatmulPlan {
  int64_t blockN = 256;
  int64_t stages = 4;
  /// Tiles along M (of the assumed M when M is dynamic: the emitter
  /// computes them from M), N and K, all of them and the grid.
  int64_t tilesM = 0, tilesN = 0, tilesK = 0, tiles = 0, grid = 0;
  unsigned aBinding = 0, bBinding = 0;
  /// Values of K per stage and per wgmma.
  int64_t blockK() const { return kSwizzleBytes / elemBytes(); }
  int64_t wgmmaK() const { return kWgmmaKBytes / elemBytes(); }
  int64_t aBytes() const { return kBlockM * kSwizzleBytes; }
  int64_t bBytes() const { return blockN * kSwizzleBytes; }
  int64_t stageBytes() const { return aBytes() + bBytes(); }
  /// Stages, then a full and an empty mbarrier per stage, plus slack to
  /// align the ring to 1024 bytes (the swizzle atom).
  int64_t sharedBytes() const {
    return kAtomBytes + stages * stageBytes() + 2 * stages * 8;
  }
};

/// As many stages as fit in `sharedPerBlock` bytes of dynamic shared
/// memory (4 of 48 KiB for 128x256 in sm_90's 227 KiB).
int64_t stagesFor(int64_t stageBytes, int64_t sharedPerBlock) {
  return std::min(kMaxStages,
                  (sharedPerBlock - kAtomBytes - 2 * kMaxStages * 8) /
                      stageBytes);
}

/// The tile width: the fewest waves of tiles over the persistent grid
/// (`sms` blocks), each wave costing its tile width plus a fixed overhead
/// (prologue, epilogue; 32 columns' worth, a guess). 128x256 for large
/// problems; 128x192 or 128x128 when that avoids a partial last wave
/// (4096x768 on 132 SMs: 128 tiles of 128x192 are one wave, 192 of
/// 128x128 are 1.45).
int64_t chooseBlockN(int64_t rowTiles, int64_t n, int64_t sms) {
  int64_t best = 0, bestCost = 0;
  for (int64_t blockN : {256, 192, 128}) {
    if (blockN > 128 && n <= blockN - 64)
      continue;
    int64_t tiles = rowTiles * llvm::divideCeil(n, blockN);
    int64_t cost = llvm::divideCeil(tiles, sms) * (blockN + kTileOverhead);
    if (!best || cost < bestCost) {
      best = blockN;
      bestCost = cost;
    }
  }
  return best;
}

/// What qualifies `root` for wgmma (GPUMatmulPlan's rules plus TMA's), with
/// the tile-independent part of the plan.
/// f32 operands pass the shared plan (as TF32) and are refused here.
FailureOr<WgmmaPlan> planWgmmaMatmul(Operation *root, std::string &why) {
  FailureOr<MatmulPlan> shared =
      planTensorCoreMatmul(root, /*allowTF32=*/true, why);
  if (failed(shared))
    return failure();
  auto fail = [&](const Twine &reason) {
    why = reason.str();
    return failure();
  };
  WgmmaPlan plan;
  static_cast<MatmulPlan &>(plan) = std::move(*shared);
  if (plan.conv)
    return fail("a convolution (implicit GEMM stays on mma.sync: TMA "
                "im2col mode is not implemented)");
  if (plan.inType.isF32())
    return fail("f32 operands (tf32 on wgmma is not implemented)");
  for (auto [op, name] :
       {std::pair<OperandPlan *, StringRef>{&plan.a, "A"}, {&plan.b, "B"}}) {
    if (!op->mem)
      return fail("operand " + name +
                  " is a constant (TMA needs a buffer the runtime binds)");
    if (plan.inType.isInteger(8) && !op->kContiguous)
      return fail("i8 operand " + name +
                  " is not k-contiguous (wgmma transposes 16-bit operands "
                  "only)");
    std::optional<unsigned> binding = bindingNumber(op->mem);
    if (!binding)
      return fail("operand " + name + " is not a kernel argument");
    (op == &plan.a ? plan.aBinding : plan.bBinding) = *binding;
    // TMA: every stride but the innermost a multiple of 16 bytes.
    auto type = cast<MemRefType>(op->mem.getType());
    int64_t rowBytes = type.getShape().back() * plan.elemBytes();
    if (type.getRank() > 1 && rowBytes % kMatmulChunkBytes != 0)
      return fail("operand " + name + "'s rows are " + Twine(rowBytes) +
                  " bytes, not a multiple of 16 (TMA needs 16-byte strides)");
  }
  plan.tilesM = llvm::divideCeil(plan.assumedM, kBlockM);
  plan.tilesK = llvm::divideCeil(plan.k, plan.blockK());
  return plan;
}

/// `plan` with the strategy's tiles, which checkWgmmaTiles accepted.
void applyTiles(WgmmaPlan &plan, const MatmulTiles &tiles) {
  plan.blockN = tiles.blockN;
  plan.stages = tiles.stages;
  plan.tilesN = llvm::divideCeil(plan.n, plan.blockN);
  plan.tiles = plan.batch * plan.tilesM * plan.tilesN;
  plan.grid = std::min(plan.tiles, tiles.grid);
}

/// Builds the kernel body; `b` is set before the result's store.
class WgmmaEmitter : GPUIndexMath {
public:
  WgmmaEmitter(OpBuilder &b, Location loc, const WgmmaPlan &plan)
      : GPUIndexMath(b, loc), plan(plan), ctx(b.getContext()) {}

  void emit(func::FuncOp kernel);

private:
  /// One operand: its TMA map argument and where its boxes go.
  struct Operand {
    const OperandPlan *plan;
    Value map;
    int64_t blockExtent = 0; // BM or BN
    /// Memref dims of the mn, k and batch loops.
    unsigned mnDim = 0, kDim = 0;
    std::optional<unsigned> batchDim;
    int64_t rank = 0;
    /// Offset of the operand's part of a stage.
    int64_t stageOffset = 0;
  };
  void setUpOperand(Operand &op, const OperandPlan &p, int64_t blockExtent,
                    unsigned binding, int64_t stageOffset,
                    SmallVectorImpl<Attribute> &maps);
  /// TMA loads of k-slice `kTile` of the tile at (`mnStart`, `batch`) into
  /// the stage at shared address `stage` (i64), completing on `bar`.
  void loadStage(const Operand &op, Value stage, Value bar, Value mnStart,
                 Value kTile, Value batch);
  /// The wgmma shared-memory descriptor (128B swizzle) of the operand at
  /// shared address `addr` (i64), for wgmma step `kk` of a stage.
  Value descriptor(const Operand &op, Value addr, int64_t kk);

  Value i32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  }
  Value i64(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  }
  Value toI32(Value index) {
    return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), index);
  }
  Value toI64(Value index) {
    return arith::IndexCastUIOp::create(b, loc, b.getI64Type(), index);
  }
  Value sharedPtr(Value addr) {
    return LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(ctx, 3), addr);
  }
  Value addI64(Value x, int64_t y) {
    return y ? arith::AddIOp::create(b, loc, x, i64(y)).getResult() : x;
  }
  /// Shared address (i64) of stage `stage` (index) and of its barriers.
  Value stageAddr(Value stage) {
    return arith::AddIOp::create(b, loc, ring,
                                 toI64(mul(stage, plan.stageBytes())));
  }
  Value fullBar(Value stage) {
    return sharedPtr(arith::AddIOp::create(b, loc, bars, toI64(mul(stage, 8))));
  }
  Value emptyBar(Value stage) {
    return sharedPtr(arith::AddIOp::create(
        b, loc, bars, toI64(mul(add(stage, plan.stages), 8))));
  }
  /// Stage and phase parity of the `it`-th k-slice of this block.
  std::pair<Value, Value> stageAndPhase(Value it) {
    return {rem(it, plan.stages), toI32(rem(div(it, plan.stages), 2))};
  }
  void waitParity(Value bar, Value parity) {
    NVVM::MBarrierTryWaitParityOp::create(b, loc, bar, parity,
                                          i32(kWaitTicks));
  }
  /// Tile `t`'s (batch, row-of-tiles, column-of-tiles), grouped raster.
  std::tuple<Value, Value, Value> tileCoords(Value t);
  /// Runs `body(t, base)` for each tile of this block, `base` being the
  /// index of the tile's first k-slice in this block's sequence.
  void forEachTile(function_ref<void(Value t, Value base)> body);
  void emitProducer();
  void emitConsumer(Value consumer, Value localTid);
  /// One stage of wgmma: waits for k-slice `it`, multiplies it into `acc`.
  Value consumeStage(Value it, Value acc, Value consumer, bool first);
  Value waitForAccumulator(Value acc);
  void storeTile(Value acc, Value row, Value col, Value batch);
  /// The stores of storeTile, masked at the matrix edges or not.
  void storeTileAs(Value acc, Value row, Value col, Value batch,
                   bool inBounds);
  SmallVector<Value> outIndices(Value row, Value col, Value batch) {
    SmallVector<Value> indices;
    for (AffineExpr e : plan.cMap.getResults()) {
      unsigned d = cast<AffineDimExpr>(e).getPosition();
      indices.push_back(d == plan.mLoop ? row : d == plan.nLoop ? col : batch);
    }
    return indices;
  }

  const WgmmaPlan &plan;
  MLIRContext *ctx;
  Operand a, bOp;
  /// M (a constant, or the extent of C) and, for a dynamic M, its tiles
  /// along M and in all.
  Value mSize, tilesMValue, tilesValue;
  /// Shared addresses (i64) of the aligned ring and of the barriers.
  Value ring, bars;
  Type accElem;
  LLVM::LLVMStructType accType;
};

void WgmmaEmitter::setUpOperand(Operand &op, const OperandPlan &p,
                                int64_t blockExtent, unsigned binding,
                                int64_t stageOffset,
                                SmallVectorImpl<Attribute> &maps) {
  op.plan = &p;
  op.blockExtent = blockExtent;
  op.stageOffset = stageOffset;
  auto type = cast<MemRefType>(p.mem.getType());
  op.rank = type.getRank();
  for (auto [i, e] : llvm::enumerate(p.map.getResults())) {
    unsigned loop = cast<AffineDimExpr>(e).getPosition();
    if (loop == p.mnLoop)
      op.mnDim = i;
    else if (loop == p.kLoop)
      op.kDim = i;
    else
      op.batchDim = i;
  }
  // The map: dims innermost first, byte strides of the outer dims, box of
  // one 128-byte row along the contiguous dim and the tile along the other.
  int64_t eb = plan.elemBytes();
  // A dynamic extent (only the outermost, so no stride depends on it) is
  // the push constant the runtime puts in its place.
  SmallVector<int64_t> dims, strides, box, elementStrides, dimPushConstants;
  int64_t stride = eb;
  for (int64_t d = op.rank - 1; d >= 0; --d) {
    std::optional<int64_t> pc = pushConstantOfDim(p.mem, d);
    assert((!type.isDynamicDim(d) || (pc && d == 0)) &&
           "planDynamicM allows a dynamic outermost extent only");
    dims.push_back(pc ? 1 : type.getDimSize(d));
    dimPushConstants.push_back(pc ? *pc : -1);
    if (d != op.rank - 1)
      strides.push_back(stride);
    stride *= type.getDimSize(d);
    int64_t extent = 1;
    if (d == op.mnDim)
      extent = p.kContiguous ? blockExtent : kSwizzleBytes / eb;
    else if (d == op.kDim)
      extent = plan.blockK();
    box.push_back(extent);
    elementStrides.push_back(1);
  }
  int64_t dataType = plan.inType.isF16()    ? kTmaFloat16
                     : plan.inType.isBF16() ? kTmaBFloat16
                                            : kTmaUint8;
  Builder attrs(ctx);
  SmallVector<NamedAttribute> fields = {
      attrs.getNamedAttr("binding", attrs.getI64IntegerAttr(binding)),
      attrs.getNamedAttr("data_type", attrs.getI64IntegerAttr(dataType)),
      attrs.getNamedAttr("global_dims", attrs.getDenseI64ArrayAttr(dims)),
      attrs.getNamedAttr("global_strides",
                         attrs.getDenseI64ArrayAttr(strides)),
      attrs.getNamedAttr("box_dims", attrs.getDenseI64ArrayAttr(box)),
      attrs.getNamedAttr("element_strides",
                         attrs.getDenseI64ArrayAttr(elementStrides)),
      attrs.getNamedAttr("swizzle", attrs.getI64IntegerAttr(kTmaSwizzle128B)),
      attrs.getNamedAttr("l2_promotion",
                         attrs.getI64IntegerAttr(kTmaL2Promotion256B)),
  };
  if (llvm::any_of(dimPushConstants, [](int64_t pc) { return pc >= 0; }))
    fields.push_back(
        attrs.getNamedAttr("global_dim_push_constants",
                           attrs.getDenseI64ArrayAttr(dimPushConstants)));
  maps.push_back(attrs.getDictionaryAttr(fields));
}

void WgmmaEmitter::loadStage(const Operand &op, Value stage, Value bar,
                             Value mnStart, Value kTile, Value batch) {
  // k-contiguous: one box of blockExtent rows x 128 bytes; mn-contiguous:
  // 64-wide boxes of blockK rows x 128 bytes, one after another.
  int64_t boxes =
      op.plan->kContiguous ? 1 : op.blockExtent / (kSwizzleBytes /
                                                   plan.elemBytes());
  int64_t boxBytes = (op.blockExtent * kSwizzleBytes) / boxes;
  Value k = toI32(mul(kTile, plan.blockK()));
  for (int64_t j = 0; j < boxes; ++j) {
    Value mn = toI32(add(mnStart, j * (kSwizzleBytes / plan.elemBytes())));
    SmallVector<Value> coords;
    for (int64_t d = op.rank - 1; d >= 0; --d)
      coords.push_back(d == op.mnDim  ? mn
                       : d == op.kDim ? k
                                      : toI32(batch));
    Value dst = LLVM::AddrSpaceCastOp::create(
        b, loc, LLVM::LLVMPointerType::get(ctx, 7),
        sharedPtr(addI64(stage, op.stageOffset + j * boxBytes)));
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, loc, dst, op.map, coords, bar, ValueRange{}, Value(), Value(),
        NVVM::TMALoadMode::TILE, false, nullptr, Value());
  }
}

Value WgmmaEmitter::descriptor(const Operand &op, Value addr, int64_t kk) {
  // Fields: start address >> 4 (bits 0-13), leading byte offset >> 4
  // (16-29), stride byte offset >> 4 (32-45), swizzle mode (62-63, 1 =
  // 128B). K-major: 8-row groups 1024 bytes apart, a k step moves 32
  // bytes along the swizzled row. MN-major: 64-wide MN chunks (boxes) are
  // `leading` bytes apart, 8 k-rows 1024; a k step moves 16 rows.
  int64_t boxRows = plan.blockK();
  int64_t leading = op.plan->kContiguous ? 16 : boxRows * kSwizzleBytes;
  int64_t offset = op.plan->kContiguous
                       ? kk * kWgmmaKBytes
                       : kk * (kWgmmaKBytes / plan.elemBytes()) *
                             kSwizzleBytes;
  uint64_t bits = (uint64_t(leading >> 4) << 16) |
                  (uint64_t(kAtomBytes >> 4) << 32) | (uint64_t(1) << 62);
  Value start = arith::ShRUIOp::create(
      b, loc,
      arith::AndIOp::create(b, loc, addI64(addr, offset), i64(0x3FFFF)),
      i64(4));
  return arith::OrIOp::create(b, loc, start, i64(static_cast<int64_t>(bits)));
}

std::tuple<Value, Value, Value> WgmmaEmitter::tileCoords(Value t) {
  if (plan.dynamicM()) {
    // No batch loop (planDynamicM).
    if (!usesGroupedRaster(plan.tilesM, plan.tilesN))
      return {cIndex(0), div(t, plan.tilesN), rem(t, plan.tilesN)};
    auto [tm, tn] = groupedRasterTile(b, loc, t, tilesMValue, plan.tilesN);
    return {cIndex(0), tm, tn};
  }
  int64_t perBatch = plan.tilesM * plan.tilesN;
  Value batch = div(t, perBatch);
  Value id = rem(t, perBatch);
  if (!usesGroupedRaster(plan.tilesM, plan.tilesN))
    return {batch, div(id, plan.tilesN), rem(id, plan.tilesN)};
  auto [tm, tn] = groupedRasterTile(b, loc, id, plan.tilesM, plan.tilesN);
  return {batch, tm, tn};
}

void WgmmaEmitter::forEachTile(function_ref<void(Value, Value)> body) {
  // The grid is at most plan.grid blocks; the runtime launches fewer on a
  // GPU with fewer SMs (kResidentBlocksPerSmAttr), so the stride is the
  // launched grid.
  // The block's tile count is carried, not divided out of t: a division by
  // gridDim.x is a subroutine call, across which ptxas (CUDA 13) moved
  // epilogue reads of the accumulator above the wgmma wait (2026-11-28).
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value blocks = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  auto loop = scf::ForOp::create(
      b, loc, bid, plan.dynamicM() ? tilesValue : cIndex(plan.tiles), blocks,
      ValueRange{cIndex(0)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value t = loop.getInductionVar();
  Value iteration = loop.getRegionIterArgs()[0];
  body(t, mul(iteration, plan.tilesK));
  b.setInsertionPointToEnd(loop.getBody());
  scf::YieldOp::create(b, loc, add(iteration, 1));
}

void WgmmaEmitter::emitProducer() {
  forEachTile([&](Value t, Value base) {
    auto [batch, tm, tn] = tileCoords(t);
    Value m0 = mul(tm, kBlockM), n0 = mul(tn, plan.blockN);
    auto loop = scf::ForOp::create(b, loc, cIndex(0), cIndex(plan.tilesK),
                                   cIndex(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kTile = loop.getInductionVar();
    auto [stage, phase] = stageAndPhase(add(base, kTile));
    // A fresh barrier counts as having completed the phase before its
    // first, so the first pass over the ring does not wait.
    waitParity(emptyBar(stage),
               arith::XOrIOp::create(b, loc, phase, i32(1)));
    Value full = fullBar(stage);
    NVVM::MBarrierArriveExpectTxOp::create(b, loc, Type(), full,
                                           i32(plan.stageBytes()),
                                           NVVM::MemScopeKind::CTA, false,
                                           Value());
    Value addr = stageAddr(stage);
    loadStage(a, addr, full, m0, kTile, batch);
    loadStage(bOp, addr, full, n0, kTile, batch);
  });
}

Value WgmmaEmitter::consumeStage(Value it, Value acc, Value consumer,
                                 bool first) {
  auto [stage, phase] = stageAndPhase(it);
  waitParity(fullBar(stage), phase);
  Value addr = stageAddr(stage);
  // This consumer's 64 rows of A: 64 rows of 128 bytes (k-contiguous) or
  // the consumer's 64-wide box (mn-contiguous), 8 KiB either way.
  Value aAddr = arith::AddIOp::create(
      b, loc, addI64(addr, a.stageOffset),
      toI64(mul(consumer, kWgmmaM * kSwizzleBytes)));
  Value bAddr = addI64(addr, bOp.stageOffset);
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  NVVM::WGMMATypes in = plan.inType.isF16()    ? NVVM::WGMMATypes::f16
                        : plan.inType.isBF16() ? NVVM::WGMMATypes::bf16
                        : plan.unsignedInt     ? NVVM::WGMMATypes::u8
                                               : NVVM::WGMMATypes::s8;
  NVVM::WGMMATypes out = plan.inType.isInteger(8) ? NVVM::WGMMATypes::s32
                                                  : NVVM::WGMMATypes::f32;
  // Layout row = K-major for A; col = K-major for B (PTX imm-trans 0).
  NVVM::MMALayout layoutA = plan.a.kContiguous ? NVVM::MMALayout::row
                                               : NVVM::MMALayout::col;
  NVVM::MMALayout layoutB = plan.b.kContiguous ? NVVM::MMALayout::col
                                               : NVVM::MMALayout::row;
  auto shape = NVVM::MMAShapeAttr::get(ctx, kWgmmaM, plan.blockN,
                                       plan.wgmmaK());
  for (int64_t kk = 0; kk < plan.blockK() / plan.wgmmaK(); ++kk) {
    auto scaleD = first && kk == 0 ? NVVM::WGMMAScaleOut::zero
                                   : NVVM::WGMMAScaleOut::one;
    acc = NVVM::WgmmaMmaAsyncOp::create(
        b, loc, accType, acc, descriptor(a, aAddr, kk),
        descriptor(bOp, bAddr, kk), shape, in, in, out, scaleD,
        NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, layoutA, layoutB,
        nullptr);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  return acc;
}

/// wgmma.wait_group 0 as inline assembly that takes every accumulator
/// register and gives it back ("+f"/"+r", Triton's form), so that LLVM
/// keeps the epilogue's reads of the accumulator behind the wait (NVVM's
/// wait_group op has no operands: nothing else orders them).
Value WgmmaEmitter::waitForAccumulator(Value acc) {
  int64_t n = plan.blockN / 2;
  SmallVector<Value> regs;
  std::string constraints;
  for (int64_t i = 0; i < n; ++i) {
    regs.push_back(LLVM::ExtractValueOp::create(b, loc, acc, i));
    constraints += (isa<FloatType>(accElem) ? "=f," : "=r,");
  }
  for (int64_t i = 0; i < n; ++i)
    constraints += std::to_string(i) + ",";
  constraints += "~{memory}";
  return LLVM::InlineAsmOp::create(
             b, loc, accType, regs, "wgmma.wait_group.sync.aligned 0;",
             constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}

void WgmmaEmitter::emitConsumer(Value consumer, Value localTid) {
  // Lane 0 of each warp releases once the warp's wait_group returned.
  Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       rem(localTid, kGPUWarpSize), cIndex(0));
  auto release = [&](Value it) {
    auto ifLeader = scf::IfOp::create(b, loc, leader);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifLeader.thenBlock());
    NVVM::MBarrierArriveOp::create(b, loc, Type(),
                                   emptyBar(rem(it, plan.stages)), Value());
  };
  Value warp = div(localTid, kGPUWarpSize);
  Value lane = rem(localTid, kGPUWarpSize);
  forEachTile([&](Value t, Value base) {
    auto [batch, tm, tn] = tileCoords(t);
    Value poison = LLVM::PoisonOp::create(b, loc, accType);
    Value acc = consumeStage(base, poison, consumer, /*first=*/true);
    // Slices 1 .. tilesK - 2 in a loop (each releasing the one before once
    // its group is done), the last one waited for to the end: the
    // epilogue's reads follow a wait for every group with no other wait
    // between the last wgmma and them.
    if (plan.tilesK > 2) {
      auto loop = scf::ForOp::create(b, loc, cIndex(1),
                                     cIndex(plan.tilesK - 1), cIndex(1),
                                     ValueRange{acc});
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value it = add(base, loop.getInductionVar());
      Value next =
          consumeStage(it, loop.getRegionIterArgs()[0], consumer, false);
      // The previous slice's wgmma group is done: release its stage.
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1);
      release(arith::SubIOp::create(b, loc, it, cIndex(1)));
      scf::YieldOp::create(b, loc, next);
      b.setInsertionPointAfter(loop);
      acc = loop.getResult(0);
    }
    if (plan.tilesK > 1)
      acc = consumeStage(add(base, plan.tilesK - 1), acc, consumer, false);
    acc = waitForAccumulator(acc);
    if (plan.tilesK > 1)
      release(add(base, plan.tilesK - 2));
    release(add(base, plan.tilesK - 1));
    // Accumulator (row lane/4 [+8], column 2 * (lane % 4) [+1]) of each
    // 8-column block, in warp `warp`'s 16 rows.
    Value row = add(add(mul(tm, kBlockM), mul(consumer, kWgmmaM)),
                    add(mul(warp, 16), div(lane, 4)));
    Value col = add(mul(tn, plan.blockN), mul(rem(lane, 4), 2));
    storeTile(acc, row, col, batch);
  });
}

void WgmmaEmitter::storeTile(Value acc, Value rowBase, Value colBase,
                             Value batch) {
  if (!plan.dynamicM() && plan.m % kBlockM == 0 && plan.n % plan.blockN == 0)
    return storeTileAs(acc, rowBase, colBase, batch, /*inBounds=*/true);
  // Only the threads of tiles on the bottom or right edge store with
  // masks: a masked pair is two predicated scalar stores and clamped
  // indices, which cost 3000x5000x2000 f16 15% of its time when every tile
  // took that path (bench/RESULTS.md, issue 38).
  Value inside = arith::AndIOp::create(
      b, loc, ult(add(rowBase, 8), mSize),
      ult(add(colBase, plan.blockN - 7), plan.n));
  auto branch = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(branch.thenBlock());
  storeTileAs(acc, rowBase, colBase, batch, /*inBounds=*/true);
  b.setInsertionPointToStart(branch.elseBlock());
  storeTileAs(acc, rowBase, colBase, batch, /*inBounds=*/false);
}

void WgmmaEmitter::storeTileAs(Value acc, Value rowBase, Value colBase,
                               Value batch, bool inBounds) {
  Value c = plan.out.c;
  Type outElem = getElementTypeOrSelf(c.getType());
  auto clamp = [&](Value v, Value size) -> Value {
    return inBounds ? v : minU(v, arith::SubIOp::create(b, loc, size, cIndex(1)));
  };
  Value m = mSize, n = cIndex(plan.n);
  // The matmul's own result type (f16 when the program accumulates in f16:
  // the f32 sum is rounded once).
  Type matmulElem = plan.accType;
  Type initElem =
      plan.init.memRef ? getElementTypeOrSelf(plan.init.memRef.getType())
                       : Type();
  Value initConstant;
  if (plan.init.constant) {
    Attribute value;
    if (auto f = dyn_cast<FloatAttr>(plan.init.constant))
      value = f.getValueAsDouble() == 0.0
                  ? Attribute()
                  : b.getFloatAttr(accElem, f.getValueAsDouble());
    else if (auto i = dyn_cast<IntegerAttr>(plan.init.constant))
      value = i.getValue().isZero()
                  ? Attribute()
                  : b.getIntegerAttr(accElem, i.getValue().sextOrTrunc(32));
    if (value)
      initConstant = arith::ConstantOp::create(b, loc, cast<TypedAttr>(value));
  }
  auto combine = [&](Value x, Value y) -> Value {
    if (isa<FloatType>(accElem))
      return arith::AddFOp::create(b, loc, x, y);
    return arith::AddIOp::create(b, loc, x, y);
  };
  for (int64_t j = 0; j < plan.blockN / 8; ++j)
    for (int64_t h = 0; h < 2; ++h) {
      Value row = add(rowBase, 8 * h);
      Value col = add(colBase, 8 * j);
      SmallVector<Value> pair;
      for (int64_t e = 0; e < 2; ++e) {
        Value v = LLVM::ExtractValueOp::create(b, loc, acc, 4 * j + 2 * h + e);
        SmallVector<Value> at =
            outIndices(clamp(row, m), clamp(add(col, e), n), batch);
        if (initConstant)
          v = combine(v, initConstant);
        if (plan.init.memRef) {
          Value init = memref::LoadOp::create(b, loc, plan.init.memRef, at);
          if (initElem != accElem)
            init = arith::ExtFOp::create(b, loc, accElem, init);
          v = combine(v, init);
        }
        if (matmulElem != accElem)
          v = arith::TruncFOp::create(b, loc, matmulElem, v);
        v = applyMatmulEpilogue(b, loc, plan.out.epilogue, v, at);
        pair.push_back(castForStore(b, loc, v, outElem));
      }
      storeMatmulPair(b, loc, c, pair, outIndices(row, col, batch), row, col,
                      m, plan.n, inBounds);
    }
}

void WgmmaEmitter::emit(func::FuncOp kernel) {
  accElem = plan.inType.isInteger(8) ? Type(b.getI32Type())
                                     : Type(b.getF32Type());
  accType = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(plan.blockN / 2, accElem));
  // Tensor maps: two kernel arguments after the bindings.
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  SmallVector<Attribute> maps;
  setUpOperand(a, plan.a, kBlockM, plan.aBinding, 0, maps);
  setUpOperand(bOp, plan.b, plan.blockN, plan.bBinding, plan.aBytes(), maps);
  for (Operand *op : {&a, &bOp}) {
    unsigned index = kernel.getNumArguments();
    (void)kernel.insertArgument(index, ptrType, DictionaryAttr(), loc);
    op->map = kernel.getArgument(index);
  }
  kernel->setAttr(kTensorMapsAttr, b.getArrayAttr(maps));
  mSize = matmulRows(b, loc, plan);
  if (plan.dynamicM()) {
    tilesMValue = arith::CeilDivUIOp::create(b, loc, mSize, cIndex(kBlockM));
    tilesValue = arith::MulIOp::create(b, loc, tilesMValue,
                                       cIndex(plan.tilesN));
  }

  // The ring, 1024-byte aligned in dynamic shared memory, then barriers.
  auto space =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  Value dynamicShared = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                      MemRefLayoutAttrInterface(), space));
  Value base =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, dynamicShared);
  Value aligned = mul(div(add(base, kAtomBytes - 1), kAtomBytes), kAtomBytes);
  ring = toI64(aligned);
  bars = addI64(ring, plan.stages * plan.stageBytes());

  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                      cIndex(0));
  {
    auto ifFirst = scf::IfOp::create(b, loc, first);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    for (int64_t s = 0; s < plan.stages; ++s) {
      NVVM::MBarrierInitOp::create(b, loc, fullBar(cIndex(s)), i32(1),
                                   Value());
      NVVM::MBarrierInitOp::create(b, loc, emptyBar(cIndex(s)),
                                   i32(kConsumers * kWarpgroup / kGPUWarpSize),
                                   Value());
    }
    NVVM::FenceMbarrierInitOp::create(b, loc);
  }
  gpu::BarrierOp::create(b, loc);

  Value warpgroup = div(tid, kWarpgroup);
  Value isProducer = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           warpgroup, cIndex(0));
  auto roles = scf::IfOp::create(b, loc, isProducer, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(roles.thenBlock());
    NVVM::SetMaxRegisterOp::create(b, loc, kProducerRegisters,
                                   NVVM::SetMaxRegisterAction::decrease);
    auto ifFirst = scf::IfOp::create(b, loc, first);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    emitProducer();
    b.setInsertionPointToStart(roles.elseBlock());
    NVVM::SetMaxRegisterOp::create(b, loc, kConsumerRegisters,
                                   NVVM::SetMaxRegisterAction::increase);
    emitConsumer(arith::SubIOp::create(b, loc, warpgroup, cIndex(1)),
                 rem(tid, kWarpgroup));
  }
}

} // namespace

FailureOr<MatmulTiles>
mlir::tessel::chooseWgmmaTiles(Operation *root, CUDATargetAttr target,
                               int64_t minTiles, std::string &why) {
  FailureOr<WgmmaPlan> plan = planWgmmaMatmul(root, why);
  if (failed(plan))
    return failure();
  int64_t tiles128 =
      plan->batch * plan->tilesM * llvm::divideCeil(plan->n, 128);
  if (tiles128 < minTiles) {
    why = llvm::formatv("{0} output tiles of 128x128, fewer than {1} "
                        "(--tessel-wgmma-min-tiles): mma.sync's 64x64 "
                        "blocks fill the GPU better",
                        tiles128, minTiles)
              .str();
    return failure();
  }
  MatmulTiles tiles;
  tiles.blockM = kBlockM;
  tiles.blockN =
      chooseBlockN(plan->batch * plan->tilesM, plan->n, target.getSms());
  tiles.blockK = plan->blockK();
  plan->blockN = tiles.blockN;
  tiles.stages = stagesFor(plan->stageBytes(), target.getSharedPerBlock());
  tiles.grid = target.getSms();
  if (failed(checkWgmmaTiles(root, tiles, target, why)))
    return failure();
  return tiles;
}

LogicalResult mlir::tessel::checkWgmmaTiles(Operation *root,
                                            const MatmulTiles &tiles,
                                            CUDATargetAttr target,
                                            std::string &why) {
  FailureOr<WgmmaPlan> plan = planWgmmaMatmul(root, why);
  if (failed(plan))
    return failure();
  if (!target.hasMma("wgmma") || !target.getTma().getValue()) {
    why = ("the target (" + target.getArch().getValue() +
           ") has no wgmma and TMA")
              .str();
    return failure();
  }
  if (tiles.blockM != kBlockM || tiles.blockK != plan->blockK()) {
    why = llvm::formatv("tile {0}x{1}x{2}: the kernel's block is {3} rows "
                        "and {4} values of K (128 bytes) per stage",
                        tiles.blockM, tiles.blockN, tiles.blockK, kBlockM,
                        plan->blockK())
              .str();
    return failure();
  }
  if (tiles.grid < 1) {
    why = "a persistent grid needs at least one block";
    return failure();
  }
  applyTiles(*plan, tiles);
  if (plan->sharedBytes() > target.getSharedPerBlock()) {
    why = llvm::formatv("{0} stages of 128x{1} need {2} bytes of shared "
                        "memory, more than the {3} a block has on {4}",
                        tiles.stages, tiles.blockN, plan->sharedBytes(),
                        target.getSharedPerBlock(),
                        target.getArch().getValue())
              .str();
    return failure();
  }
  return success();
}

std::string mlir::tessel::describeWgmmaMatmul(Operation *root,
                                              const MatmulTiles &tiles) {
  std::string why;
  FailureOr<WgmmaPlan> plan = planWgmmaMatmul(root, why);
  if (failed(plan))
    return "not a wgmma matmul: " + why;
  applyTiles(*plan, tiles);
  std::string type;
  llvm::raw_string_ostream os(type);
  if (plan->inType.isInteger(8))
    os << (plan->unsignedInt ? "u8" : "s8");
  else
    plan->inType.print(os);
  auto layout = [](const OperandPlan &op) {
    return op.kContiguous ? "k-contiguous" : "mn-contiguous";
  };
  return llvm::formatv(
             "wgmma m64n{0}k{1} {2}, A {3}, B {4}, {5}x{0}x{6} tiles, "
             "{7} TMA stages (128B swizzle), warp-specialized (1 producer + "
             "{8} consumer warpgroups), persistent grid of {9}, {10} "
             "epilogue ops",
             plan->blockN, plan->wgmmaK(), type, layout(plan->a),
             layout(plan->b), kBlockM, plan->blockK(), plan->stages,
             kConsumers, plan->grid, plan->out.epilogue.size())
      .str();
}

LogicalResult mlir::tessel::emitWgmmaMatmul(func::FuncOp kernel,
                                            Operation *root,
                                            const MatmulTiles &tiles) {
  std::string why;
  FailureOr<WgmmaPlan> plan = planWgmmaMatmul(root, why);
  if (failed(plan))
    return root->emitError("wgmma matmul: ") << why;
  if (!kernel->getParentOfType<ModuleOp>())
    return kernel.emitError("wgmma matmul: the kernel is not in a module");
  applyTiles(*plan, tiles);
  OpBuilder b(plan->out.store);
  WgmmaEmitter(b, root->getLoc(), *plan).emit(kernel);
  plan->out.store.erase();
  setKernelLaunch(kernel, {plan->grid, 1, 1}, {kThreads, 1, 1});
  // A dynamic M: a block per tile, which the runtime caps at a block per
  // SM (kResidentBlocksPerSmAttr).
  if (plan->dynamicM()) {
    FailureOr<AffineExpr> rows = dynamicRowTiles(*plan, root, kBlockM);
    if (failed(rows))
      return failure();
    setWorkgroupCount(kernel, {*rows * plan->tilesN,
                               getAffineConstantExpr(1, kernel.getContext()),
                               getAffineConstantExpr(1, kernel.getContext())});
  }
  Builder attrs(kernel.getContext());
  kernel->setAttr(kSharedMemoryBytesAttr,
                  attrs.getI64IntegerAttr(plan->sharedBytes()));
  kernel->setAttr(kResidentBlocksPerSmAttr, attrs.getI64IntegerAttr(1));
  // One block per SM with a register cap at entry, so that setmaxnreg
  // can move registers from the producer to the consumers.
  kernel->setAttr("nvvm.minctasm", attrs.getI32IntegerAttr(1));
  return success();
}
