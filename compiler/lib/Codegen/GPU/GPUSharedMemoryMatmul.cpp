//===- GPUSharedMemoryMatmul.cpp - f32 matmul through smem -----*- C++ -*-===//
//
// The GPU strategy for f32 matmuls (and batch matmuls) with row-major C and
// A, B each either row-major or transposed (A[m,k] or A[k,m], B[k,n] or
// B[n,k]: x @ W^T of a linear layer too): each block computes a 128x128
// tile of C with 256 threads (64x64 with 64 threads when 128x128 blocks
// would not fill the GPU), and each thread an 8x8 register tile, split
// into 2x2 sub-tiles of 4x4 at a stride of half the block along M and N
// (so that the shared-memory reads of a warp are broadcasts or
// contiguous). K advances 8 at a time through two shared-memory stages:
// - A^T and B, both K-major (k rows of 128 m or n values), one or two
//   128-bit global loads of each per thread and stage. An operand whose k
//   index is the contiguous one (A[m,k], B[n,k]) is transposed on its way
//   into shared memory (4-byte stores; its rows padded by 4 floats so that
//   they hit 32 distinct banks); the other is stored as is;
// - the loads of stage k+1 are issued before the 8x64 FMAs of stage k and
//   stored to the other buffer after them (halfway through them for
//   128x128 blocks; register prefetch), so their latency hides behind the
//   FMAs; one barrier per stage.
// Accumulators stay in registers (scf.for iter_args) across the K loop.
// Edges: loads outside A or B read as 0 (masked; one predicate per thread,
// so full tiles keep their 128-bit loads) and stores outside C are masked;
// shapes that are multiples of the tiles get no masks at all. Barriers are
// only in block-uniform control flow.
//
// Like GPUWarpReduction.cpp, the kernel is emitted directly on the binding
// memrefs, so it needs no tiling or bufferization of its own. Shared
// memory is a memref.global in the workgroup address space per kernel,
// moved into the gpu.module with the kernel.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/GPU/GPUSharedMemoryMatmul.h"

#include "tessel/Codegen/GPU/GPUIndexMath.h"
#include "tessel/Codegen/GPU/GPUMatmulEpilogue.h"
#include "tessel/Codegen/GPU/GPUWarpReduction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Block tile of M and N (square): kLargeBlock, or kSmallBlock when the
/// large one would leave fewer blocks than the target has SMs (a grid that
/// does not fill the GPU: 1024^3 has 64 blocks of 128x128 for 132 SMs).
constexpr int64_t kLargeBlock = 128;
constexpr int64_t kSmallBlock = 64;
constexpr int64_t kBlockK = 8;
/// Side of a thread's sub-tiles; each thread owns 2x2 of them (8x8), at a
/// stride of half the block along M and along N.
constexpr int64_t kSub = 4;
constexpr int64_t kThreadTile = 2 * kSub;
/// Floats of padding per row of a transposed operand in shared memory (16
/// bytes: rows stay 16-byte aligned).
constexpr int64_t kTransposedPad = 4;
constexpr int64_t kStages = 2;
/// With 128x128 blocks, the prefetched stage is stored to shared memory
/// after this many of the current stage's k steps rather than after all of
/// them: under the 128-register cap ptxas otherwise issues the prefetch
/// loads only halfway through the stage (to shorten their live range);
/// storing them midway lets it issue them first. Measured 8-9% faster at
/// 2048^3 and 4096^3; 64x64 blocks measured 7% slower with it, so they
/// store at the end (bench/RESULTS.md item 15).
constexpr int64_t kLargeBlockStoreAfterK = 4;
/// ptxas caps registers so that this many blocks fit on an SM.
constexpr int32_t kMinBlocksPerSM = 2;

struct SimtPlan {
  Value a, b, c;      // binding memrefs
  SmallVector<MatmulEpilogueOp> epilogue;
  /// Whether k is the contiguous (last) index of A, of B.
  bool aKContiguous = true, bKContiguous = false;
  ReductionInit init; // C's initial value
  bufferization::MaterializeInDestinationOp store;
  bool batched = false;
  /// Where the batch index goes among A's, B's indices (C's: first).
  unsigned aBatchPos = 0, bBatchPos = 0;
  int64_t batch = 1, m = 0, n = 0, k = 0;
  /// Side of the square block tile of C.
  int64_t block = kLargeBlock;
  /// k steps of a stage computed before the prefetched stage is stored.
  int64_t storeAfterK() const {
    return block == kLargeBlock ? kLargeBlockStoreAfterK : kBlockK;
  }
  int64_t threadsPerSide() const { return block / kThreadTile; }
};

FailureOr<SimtPlan> planMatmul(Operation *rootOp) {
  auto root = dyn_cast_or_null<linalg::LinalgOp>(rootOp);
  if (!root || !root.hasPureTensorSemantics() ||
      root.getNumDpsInputs() != 2 || root.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(root))
    return failure();
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(root);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() > 1)
    return failure();
  for (Value v : root->getOperands())
    if (!getElementTypeOrSelf(v.getType()).isF32())
      return failure();
  SmallVector<int64_t> ranges = root.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return failure();

  // C(b, m, n); A(m, k) or A(k, m); B(k, n) or B(n, k), with the batch
  // loop before either index of A and B (split-K's partials: A(m, b, k)).
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  std::optional<unsigned> batchLoop;
  if (!dims->batch.empty())
    batchLoop = dims->batch[0];
  // The batch index's position in `map` if it reads (row, col) as rows and
  // columns of a row-major matrix.
  auto batchPosition = [&](AffineMap map, unsigned row,
                           unsigned col) -> std::optional<unsigned> {
    SmallVector<unsigned> loopsRead;
    for (AffineExpr e : map.getResults()) {
      auto d = dyn_cast<AffineDimExpr>(e);
      if (!d)
        return std::nullopt;
      loopsRead.push_back(d.getPosition());
    }
    unsigned pos = 0;
    if (batchLoop) {
      auto at = llvm::find(loopsRead, *batchLoop);
      if (at == loopsRead.end() || at + 1 == loopsRead.end())
        return std::nullopt;
      pos = at - loopsRead.begin();
      loopsRead.erase(at);
    }
    if (loopsRead != SmallVector<unsigned>{row, col})
      return std::nullopt;
    return pos;
  };
  SmallVector<AffineMap> maps = root.getIndexingMapsArray();
  SimtPlan plan;
  std::optional<unsigned> aPos = batchPosition(maps[0], m, k);
  plan.aKContiguous = aPos.has_value();
  if (!aPos)
    aPos = batchPosition(maps[0], k, m);
  std::optional<unsigned> bPos = batchPosition(maps[1], n, k);
  plan.bKContiguous = bPos.has_value();
  if (!bPos)
    bPos = batchPosition(maps[1], k, n);
  std::optional<unsigned> cPos = batchPosition(maps[2], m, n);
  if (!aPos || !bPos || cPos != 0u)
    return failure();
  plan.aBatchPos = *aPos;
  plan.bBatchPos = *bPos;

  plan.a = bindingMemRef(root.getDpsInputs()[0]);
  plan.b = bindingMemRef(root.getDpsInputs()[1]);
  if (!plan.a || !plan.b)
    return failure();
  std::string why;
  FailureOr<MatmulOutput> out =
      planMatmulOutput(root, /*sameElementType=*/true, why);
  if (failed(out))
    return failure();
  plan.epilogue = std::move(out->epilogue);
  plan.store = out->store;
  plan.c = out->c;
  for (Value mem : {plan.a, plan.b, plan.c}) {
    auto type = dyn_cast<MemRefType>(mem.getType());
    if (!type || !type.getLayout().isIdentity())
      return failure();
  }
  FailureOr<ReductionInit> init = getReductionInit(root);
  if (failed(init))
    return failure();
  plan.init = *init;
  plan.batched = !dims->batch.empty();
  if (plan.batched)
    plan.batch = ranges[dims->batch[0]];
  plan.m = ranges[m];
  plan.n = ranges[n];
  plan.k = ranges[k];
  return plan;
}

/// Builds the kernel body; `b` is set before the result's store.
class MatmulEmitter : GPUIndexMath {
public:
  MatmulEmitter(OpBuilder &b, Location loc, const SimtPlan &plan)
      : GPUIndexMath(b, loc), plan(plan), f32(b.getF32Type()),
        vec4(VectorType::get({kSub}, f32)),
        tile(VectorType::get({kSub, kSub}, f32)) {}

  void emit(func::FuncOp kernel);

private:
  /// Where `mem`'s batch index goes (A and B may hold it after the row).
  unsigned batchPos(Value mem) const {
    return mem == plan.a ? plan.aBatchPos
                         : mem == plan.b ? plan.bBatchPos : 0;
  }
  /// mem[row, col] with the batch index in its place.
  SmallVector<Value> at(Value mem, Value row, Value col) {
    SmallVector<Value> indices{row, col};
    if (plan.batched)
      indices.insert(indices.begin() + batchPos(mem), batchId);
    return indices;
  }
  /// mem's number of rows.
  int64_t rowsOf(Value mem) const {
    ArrayRef<int64_t> shape = cast<MemRefType>(mem.getType()).getShape();
    return shape[plan.batched && batchPos(mem) == 0 ? 1 : 0];
  }

  struct EdgeTest {
    Value full, mask;
  };
  EdgeTest edgeTest(Value mem, Value row, Value col);
  Value loadVec4(Value mem, Value row, Value col, bool inBounds);
  void storeVec4(Value value, Value mem, Value row, Value col, bool inBounds);
  /// A or B: where it is, its layout, its shared buffer, this thread's
  /// copy coordinates.
  struct Operand {
    Value mem, shared, blockStart; // blockStart: m0 or n0
    bool kContiguous = false, inBounds = false;
    /// This thread's vectors in the (mn, k) or (k, mn) tile of a stage.
    SmallVector<Value> tileRows, tileCols;
  };
  void setUpOperand(Operand &op, func::FuncOp kernel, StringRef suffix,
                    Value mem, bool kContiguous, int64_t extent,
                    Value blockStart, Value thread);
  SmallVector<Value> loadOperand(const Operand &op, Value kBase);
  void storeOperand(const Operand &op, Value stage, ArrayRef<Value> vecs);
  /// This thread's vectors of A, then of B, at K offset `kBase`.
  SmallVector<Value> loadStage(Value kBase) {
    SmallVector<Value> vecs = loadOperand(a, kBase);
    llvm::append_range(vecs, loadOperand(bOp, kBase));
    return vecs;
  }
  void storeStage(Value stage, ArrayRef<Value> vecs) {
    size_t na = a.tileRows.size();
    storeOperand(a, stage, vecs.take_front(na));
    storeOperand(bOp, stage, vecs.drop_front(na));
  }
  SmallVector<Value> computeStage(Value stage, ValueRange acc,
                                  int64_t kBegin = 0,
                                  int64_t kEnd = kBlockK);
  SmallVector<Value> initialAccumulators();
  Value applyEpilogue(Value vec, Value row, Value col);
  /// Rows and columns of C of a thread's sub-tile `s` (0..3), row `r`.
  Value subTileRow(int s, int64_t r) {
    return add(add(m0, mul(ty, kSub)), (s / 2) * (plan.block / 2) + r);
  }
  Value subTileCol(int s) {
    return add(add(n0, mul(tx, kSub)), (s % 2) * (plan.block / 2));
  }

  const SimtPlan &plan;
  Type f32;
  VectorType vec4, tile;
  Value tx, ty, m0, n0, batchId;
  Operand a, bOp;
  // Shapes that are multiples of the tiles need no masks.
  bool cInBounds = false;
};

/// Whether the 4-vector at mem[..., row, col] lies inside the row-major
/// matrix, and the mask of its elements that do.
MatmulEmitter::EdgeTest MatmulEmitter::edgeTest(Value mem, Value row,
                                                Value col) {
  int64_t rows = rowsOf(mem),
          cols = cast<MemRefType>(mem.getType()).getShape().back();
  Value rowInside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          row, cIndex(rows));
  Value colsLeft = arith::SubIOp::create(b, loc, cIndex(cols), col);
  Value full = arith::AndIOp::create(
      b, loc, rowInside,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, colsLeft,
                            cIndex(kSub)));
  // create_mask clamps a negative count to 0.
  Value count =
      arith::SelectOp::create(b, loc, rowInside, colsLeft, cIndex(0));
  Value mask = vector::CreateMaskOp::create(
      b, loc, VectorType::get({kSub}, b.getI1Type()), ValueRange{count});
  return {full, mask};
}

/// 16-byte alignment of mem[..., row, 4j] when its rows allow it.
static llvm::MaybeAlign rowVectorAlign(Value mem) {
  return llvm::MaybeAlign(
      cast<MemRefType>(mem.getType()).getShape().back() % kSub == 0 ? 16 : 4);
}

/// mem[..., row, col .. col+3] of a row-major matrix; elements outside it
/// read as 0. Unless `inBounds`, a thread whose vector is not entirely
/// inside takes a masked load.
Value MatmulEmitter::loadVec4(Value mem, Value row, Value col,
                              bool inBounds) {
  llvm::MaybeAlign align = rowVectorAlign(mem);
  SmallVector<Value> indices = at(mem, row, col);
  if (inBounds)
    return vector::LoadOp::create(b, loc, vec4, mem, indices,
                                  /*nontemporal=*/false, align);
  EdgeTest edge = edgeTest(mem, row, col);
  auto ifFull = scf::IfOp::create(b, loc, TypeRange{vec4}, edge.full,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifFull.thenBlock());
  Value v = vector::LoadOp::create(b, loc, vec4, mem, indices,
                                   /*nontemporal=*/false, align);
  scf::YieldOp::create(b, loc, v);
  b.setInsertionPointToStart(ifFull.elseBlock());
  Value zero = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(vec4, b.getF32FloatAttr(0.0f)));
  Value masked = vector::MaskedLoadOp::create(b, loc, vec4, mem, indices,
                                              edge.mask, zero);
  scf::YieldOp::create(b, loc, masked);
  return ifFull.getResult(0);
}

/// Stores `value` to mem[..., row, col .. col+3], dropping the elements
/// outside the matrix.
void MatmulEmitter::storeVec4(Value value, Value mem, Value row, Value col,
                              bool inBounds) {
  llvm::MaybeAlign align = rowVectorAlign(mem);
  SmallVector<Value> indices = at(mem, row, col);
  if (inBounds) {
    vector::StoreOp::create(b, loc, value, mem, indices,
                            /*nontemporal=*/false, align);
    return;
  }
  EdgeTest edge = edgeTest(mem, row, col);
  auto ifFull = scf::IfOp::create(b, loc, TypeRange{}, edge.full,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifFull.thenBlock());
  vector::StoreOp::create(b, loc, value, mem, indices, /*nontemporal=*/false,
                          align);
  b.setInsertionPointToStart(ifFull.elseBlock());
  vector::MaskedStoreOp::create(b, loc, mem, indices, edge.mask, value);
}

void MatmulEmitter::setUpOperand(Operand &op, func::FuncOp kernel,
                                 StringRef suffix, Value mem,
                                 bool kContiguous, int64_t extent,
                                 Value blockStart, Value thread) {
  op.mem = mem;
  op.kContiguous = kContiguous;
  op.blockStart = blockStart;
  op.shared = workgroupBuffer(
      b, loc, kernel, suffix,
      {kStages, kBlockK, plan.block + (kContiguous ? kTransposedPad : 0)}, f32);
  // The tile of a stage is block x 8 (k contiguous: 2 vectors per row) or
  // 8 x block (block / 4 vectors per row); thread t copies vectors t,
  // t + threads, ...
  int64_t perRow = (kContiguous ? kBlockK : plan.block) / kSub;
  int64_t threads = plan.threadsPerSide() * plan.threadsPerSide();
  int64_t vectors = plan.block * kBlockK / kSub;
  for (int64_t v = 0; v < vectors; v += threads) {
    Value vector = add(thread, v);
    op.tileRows.push_back(div(vector, perRow));
    op.tileCols.push_back(mul(rem(vector, perRow), kSub));
  }
  op.inBounds = plan.k % kBlockK == 0 && extent % plan.block == 0;
}

/// This thread's vectors of an operand's tile at K offset `kBase`.
SmallVector<Value> MatmulEmitter::loadOperand(const Operand &op,
                                              Value kBase) {
  SmallVector<Value> vecs;
  for (auto [row, col] : llvm::zip(op.tileRows, op.tileCols))
    vecs.push_back(op.kContiguous
                       ? loadVec4(op.mem, add(op.blockStart, row),
                                  add(kBase, col), op.inBounds)
                       : loadVec4(op.mem, add(kBase, row),
                                  add(op.blockStart, col), op.inBounds));
  return vecs;
}

/// Writes this thread's vectors into shared-memory stage `stage`, K-major:
/// transposed (four 4-byte stores each) when k was contiguous, else as
/// 16-byte stores.
void MatmulEmitter::storeOperand(const Operand &op, Value stage,
                                 ArrayRef<Value> vecs) {
  for (auto [v, row, col] : llvm::zip(vecs, op.tileRows, op.tileCols)) {
    if (!op.kContiguous) {
      vector::StoreOp::create(b, loc, v, op.shared,
                              ValueRange{stage, row, col},
                              /*nontemporal=*/false, llvm::MaybeAlign(16));
      continue;
    }
    for (int64_t i = 0; i < kSub; ++i) {
      Value element = vector::ExtractOp::create(b, loc, v, i);
      memref::StoreOp::create(b, loc, element, op.shared,
                              ValueRange{stage, add(col, i), row});
    }
  }
}

/// The kBlockK rank-1 updates of one stage, k in order: per k, two
/// 4-vectors of A^T and two of B make the four 4x4 outer products.
SmallVector<Value> MatmulEmitter::computeStage(Value stage, ValueRange acc,
                                               int64_t kBegin, int64_t kEnd) {
  SmallVector<Value> next(acc.begin(), acc.end());
  Value aBase = mul(ty, kSub), bBase = mul(tx, kSub);
  for (int64_t kk = kBegin; kk < kEnd; ++kk) {
    Value kIdx = cIndex(kk);
    auto sharedLoad = [&](Value mem, Value col) {
      return vector::LoadOp::create(b, loc, vec4, mem,
                                    ValueRange{stage, kIdx, col},
                                    /*nontemporal=*/false,
                                    llvm::MaybeAlign(16))
          .getResult();
    };
    Value av[2] = {sharedLoad(a.shared, aBase),
                   sharedLoad(a.shared, add(aBase, plan.block / 2))};
    Value bv[2] = {sharedLoad(bOp.shared, bBase),
                   sharedLoad(bOp.shared, add(bBase, plan.block / 2))};
    for (int s = 0; s < 4; ++s)
      next[s] = vector::OuterProductOp::create(b, loc, tile, av[s / 2],
                                               bv[s % 2], next[s]);
  }
  return next;
}

SmallVector<Value> MatmulEmitter::initialAccumulators() {
  if (plan.init.constant) {
    auto attr = DenseElementsAttr::get(
        tile, cast<FloatAttr>(plan.init.constant).getValue());
    Value splat = arith::ConstantOp::create(b, loc, attr);
    return SmallVector<Value>(4, splat);
  }
  SmallVector<Value> acc;
  for (int s = 0; s < 4; ++s) {
    Value t = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(tile, b.getF32FloatAttr(0.0f)));
    for (int64_t r = 0; r < kSub; ++r) {
      Value row = loadVec4(plan.init.memRef, subTileRow(s, r), subTileCol(s),
                           cInBounds);
      t = vector::InsertOp::create(b, loc, row, t, r);
    }
    acc.push_back(t);
  }
  return acc;
}

void MatmulEmitter::emit(func::FuncOp kernel) {
  tx = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  ty = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
  n0 = mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), plan.block);
  m0 = mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::y), plan.block);
  if (plan.batched)
    batchId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  Value t = add(mul(ty, plan.threadsPerSide()), tx);
  setUpOperand(a, kernel, "_a", plan.a, plan.aKContiguous, plan.m, m0, t);
  setUpOperand(bOp, kernel, "_b", plan.b, plan.bKContiguous, plan.n, n0, t);
  cInBounds = plan.m % plan.block == 0 && plan.n % plan.block == 0;

  SmallVector<Value> acc = initialAccumulators();
  int64_t stagesK = llvm::divideCeil(plan.k, kBlockK);
  storeStage(cIndex(0), loadStage(cIndex(0)));
  gpu::BarrierOp::create(b, loc);

  // Stage s computes from buffer s % 2 while stage s+1's loads are in
  // flight. The last iteration reloads the last stage (in bounds, unused)
  // rather than being peeled: a peeled copy of the stage measured 300 bytes
  // of spills per thread under the 128-register cap in the masked variant.
  if (stagesK == 1) {
    acc = computeStage(cIndex(0), acc);
  } else {
    Value lastK = cIndex((stagesK - 1) * kBlockK);
    auto loop = scf::ForOp::create(b, loc, cIndex(0), cIndex(stagesK),
                                   cIndex(1), acc);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value s = loop.getInductionVar();
    Value stage = rem(s, kStages);
    Value nextStage = arith::SubIOp::create(b, loc, cIndex(1), stage);
    Value kNext =
        arith::MinUIOp::create(b, loc, mul(add(s, 1), kBlockK), lastK);
    SmallVector<Value> next = loadStage(kNext);
    SmallVector<Value> updated =
        computeStage(stage, loop.getRegionIterArgs(), 0, plan.storeAfterK());
    storeStage(nextStage, next);
    updated = computeStage(stage, updated, plan.storeAfterK(), kBlockK);
    gpu::BarrierOp::create(b, loc);
    scf::YieldOp::create(b, loc, updated);
    acc = loop.getResults();
  }
  for (int s = 0; s < 4; ++s)
    for (int64_t r = 0; r < kSub; ++r) {
      Value vec = vector::ExtractOp::create(b, loc, acc[s], r);
      Value row = subTileRow(s, r), col = subTileCol(s);
      if (!plan.epilogue.empty())
        vec = applyEpilogue(vec, row, col);
      storeVec4(vec, plan.c, row, col, cInBounds);
    }
}

/// The epilogue ops on C[row, col .. col+3] = `vec`, element by element.
/// Outside C (partial blocks) the other inputs are read at the nearest
/// index inside: those results are never stored.
Value MatmulEmitter::applyEpilogue(Value vec, Value row, Value col) {
  auto clamp = [&](Value v, int64_t size) -> Value {
    return cInBounds ? v
                     : arith::MinUIOp::create(b, loc, v, cIndex(size - 1))
                           .getResult();
  };
  Value safeRow = clamp(row, plan.m);
  SmallVector<Value> elements;
  for (int64_t e = 0; e < kSub; ++e) {
    SmallVector<Value> ivs;
    if (plan.batched)
      ivs.push_back(batchId);
    ivs.push_back(safeRow);
    ivs.push_back(clamp(add(col, e), plan.n));
    Value v = vector::ExtractOp::create(b, loc, vec, e);
    v = applyMatmulEpilogue(b, loc, plan.epilogue, v, ivs);
    elements.push_back(v);
  }
  return vector::FromElementsOp::create(b, loc, vec4, elements);
}

} // namespace

FailureOr<MatmulTiles>
mlir::tessel::chooseSimtMatmulTiles(Operation *root, CUDATargetAttr target,
                                    std::string &why) {
  FailureOr<SimtPlan> plan = planMatmul(root);
  if (failed(plan)) {
    why = "not an f32 matmul or batch matmul reading row-major or "
          "transposed operands from bindings into a row-major result";
    return failure();
  }
  int64_t largeBlocks = plan->batch * llvm::divideCeil(plan->m, kLargeBlock) *
                        llvm::divideCeil(plan->n, kLargeBlock);
  int64_t side = largeBlocks < target.getSms() ? kSmallBlock : kLargeBlock;
  MatmulTiles tiles;
  tiles.blockM = tiles.blockN = side;
  tiles.blockK = kBlockK;
  return tiles;
}

LogicalResult mlir::tessel::emitSharedMemoryMatmul(func::FuncOp kernel,
                                                   Operation *root,
                                                   const MatmulTiles &tiles) {
  FailureOr<SimtPlan> plan = planMatmul(root);
  if (failed(plan))
    return root->emitError("SIMT matmul: not an f32 matmul reading its "
                           "operands from bindings");
  if (!kernel->getParentOfType<ModuleOp>())
    return kernel.emitError("SIMT matmul: the kernel is not in a module");
  plan->block = tiles.blockM;
  OpBuilder b(plan->store);
  MatmulEmitter(b, root->getLoc(), *plan).emit(kernel);
  plan->store.erase();

  int64_t side = plan->block;
  setKernelLaunch(kernel,
                  {static_cast<int64_t>(llvm::divideCeil(plan->n, side)),
                   static_cast<int64_t>(llvm::divideCeil(plan->m, side)),
                   plan->batch},
                  {plan->threadsPerSide(), plan->threadsPerSide(), 1});
  kernel->setAttr("nvvm.minctasm",
                  Builder(kernel.getContext()).getI32IntegerAttr(kMinBlocksPerSM));
  return success();
}
