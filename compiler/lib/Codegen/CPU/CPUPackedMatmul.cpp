//===- CPUPackedMatmul.cpp - tessel-cpu-packed-matmul ----------*- C++ -*-===//
//
// The packed-panel contraction of the CPU backend, in the manner of Goto's
// and BLIS's matrix products. A workgroup owns a block of C (rows x at most
// NC, from the packed_matmul strategy, CPUStrategyTable.h: as many rows as
// the balance of workgroups over threads allows, so that B is packed as few
// times as possible). For each block of KC along K:
//   - B's KC x NC block is copied into panels NR wide, Bp[NC/NR][KC][NR]
//     (columns past N zero), so that one panel (KC x NR, in L1) is read
//     contiguously by every register tile of its column; once per K block
//     for all of the workgroup's rows;
//   - for each block of MC rows (the workgroup's rows in steps of MC):
//     - A's MC x KC block is copied into rows of KC, Ap[MC][KC] (rows past
//       M repeat the last row; their results are never stored), so that the
//       MR rows a register tile broadcasts from are MR short, contiguous
//       streams that do not alias in L1 (rows of A itself are often 4 KiB
//       multiples apart);
//     - for each NR panel, for each group of MR rows: MR x NR/lanes vector
//       accumulators are loaded from C, updated with one broadcast and
//       NR/lanes FMAs per row and k over the K block, and stored back
//       (masked at N's edge, rows past M skipped).
// Operands may be transposed or batched (any projected-permutation maps):
// the copies read them through vector transfers with the operand's layout.
// Convolutions run as implicit GEMMs: a row of the packed A is one output
// pixel's window at one filter tap (kh, kw), KC input channels long, read
// from the input where it lies (im2col is never materialized); the filter
// taps are walked around the K blocks of input channels.
// Blocks packed once per dispatch: a matmul's operand read from a kernel
// binding (a workgroup's view of it) is packed into the dispatch scratch
// (the binding table's entry after the kernel's bindings, sized here and
// recorded on the kernel as tessel.scratch_bytes) instead of a buffer of
// the workgroup. A block of B is keyed by (batch, the workgroup's column of
// N tiles, K block), one of A by (batch, row of M tiles, MC block, K
// block): every workgroup that reads a block reads the one copy. Each block
// is packed in 8 chunks (rows of K for B, rows of A), each with a ready
// flag in the scratch's zeroed prefix: a workgroup that needs the block
// claims the chunks nobody has claimed (0 -> 1, an atomic compare and
// swap), packs them, marks them packed (2), then waits until every chunk is
// 2. The claimer of a chunk waits for nothing while it packs, so no
// workgroup waits forever. (Each workgroup re-packing its blocks cost
// 11-16% at 16 threads, issue 15.) Other operands (computed in the kernel,
// convolution windows) are packed per workgroup into heap buffers
// (~400 KiB), freed at its end.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/Common/WorkgroupCount.h"
#include "tessel/Passes.h"

#include "tessel/Codegen/CPU/CPUStrategyTable.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_CPUPACKEDMATMUL
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// The loops of a marked op, by role. A matmul has one M and one K loop; a
/// convolution's M loops are its batch and output-image loops (one row of
/// the packed A per output pixel, delinearized) and its K loops the filter
/// loops (walked whole) around the input channels (blocked by KC).
struct PackedLoops {
  std::optional<unsigned> batch;
  SmallVector<unsigned> m;
  unsigned n = 0;
  SmallVector<unsigned> kOuter;
  unsigned k = 0;
};

/// The roles of `op`'s loops, or failure if it is neither a contraction with
/// one M, N, K (and at most one batch) loop nor a convolution with one input
/// and one output channel loop.
FailureOr<PackedLoops> classifyLoops(linalg::LinalgOp op) {
  PackedLoops loops;
  if (linalg::isaContractionOpInterface(op)) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
        dims->k.size() != 1 || dims->batch.size() > 1)
      return failure();
    if (!dims->batch.empty())
      loops.batch = dims->batch[0];
    loops.m = {dims->m[0]};
    loops.n = dims->n[0];
    loops.k = dims->k[0];
    return loops;
  }
  if (!linalg::isaConvolutionOpInterface(op))
    return failure();
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (failed(dims) || !dims->depth.empty() ||
      dims->outputChannel.size() != 1 || dims->inputChannel.size() != 1 ||
      dims->outputImage.empty())
    return failure();
  llvm::append_range(loops.m, dims->batch);
  llvm::append_range(loops.m, dims->outputImage);
  loops.n = dims->outputChannel[0];
  loops.kOuter.assign(dims->filterLoop.begin(), dims->filterLoop.end());
  loops.k = dims->inputChannel[0];
  return loops;
}

/// Chunks of a block packed once per dispatch, each with its ready flag:
/// the workgroups that need the block at the same time pack it together.
constexpr int64_t kChunksPerBlock = 8;
/// The most dispatch scratch one kernel takes; beyond it, blocks are
/// packed per workgroup.
constexpr int64_t kMaxScratchBytes = int64_t(1) << 30;

/// Block sizes of the pack buffers of `p` (rows of A, panels of B).
int64_t packedRows(const CPUPackedMatmulParams &p) {
  return llvm::divideCeil(p.mc, p.mr) * p.mr;
}
int64_t packedPanels(const CPUPackedMatmulParams &p) {
  return llvm::divideCeil(p.nc, p.nr);
}

/// A matmul operand (A or B) packed once per dispatch into the scratch.
struct SharedOperand {
  /// Operand number (0: A, 1: B).
  unsigned operand = 0;
  /// The workgroup's view of its binding: offsets per operand dimension.
  SmallVector<OpFoldResult> offsets;
  /// The binding's shape: the whole operand.
  SmallVector<int64_t> shape;
  /// Its blocks, bytes per block, first flag and first byte in the scratch.
  int64_t blocks = 0, blockBytes = 0, firstFlag = 0, firstByte = 0;
};

/// The workgroup's offsets into the binding that `v` views (zeros for the
/// binding itself), if `v` is a unit-stride view of a kernel binding.
std::optional<SmallVector<OpFoldResult>> bindingOffsets(Value v,
                                                        BindingOp &binding) {
  OpBuilder b(v.getContext());
  SmallVector<OpFoldResult> offsets;
  if (auto view = v.getDefiningOp<memref::SubViewOp>()) {
    if (!view.hasUnitStride() ||
        view.getSourceType().getRank() != view.getType().getRank())
      return std::nullopt;
    offsets = view.getMixedOffsets();
    v = view.getSource();
  }
  if (auto aligned = v.getDefiningOp<memref::AssumeAlignmentOp>())
    v = aligned.getMemref();
  binding = v.getDefiningOp<BindingOp>();
  if (!binding)
    return std::nullopt;
  if (offsets.empty())
    offsets.assign(binding.getType().getRank(), b.getIndexAttr(0));
  return offsets;
}

/// Plans operand `operand` (0: A, 1: B) of matmul `op` to be packed once
/// per dispatch, or nullopt if its blocks stay per workgroup: it must be a
/// view of a kernel binding whole along K, and the workgroup tiles of M and
/// N must be known.
std::optional<SharedOperand> planShared(linalg::LinalgOp op,
                                        const PackedLoops &loops,
                                        const CPUPackedMatmulParams &p,
                                        unsigned operand) {
  if (!loops.kOuter.empty() || loops.m.size() != 1 || p.mTile < 0 ||
      p.nTile < 0)
    return std::nullopt;
  OpOperand &use = op->getOpOperand(operand);
  SharedOperand shared;
  shared.operand = operand;
  BindingOp binding;
  std::optional<SmallVector<OpFoldResult>> offsets =
      bindingOffsets(use.get(), binding);
  if (!offsets)
    return std::nullopt;
  shared.offsets = *offsets;
  shared.shape = llvm::to_vector(binding.getType().getShape());
  AffineMap map = op.getMatchingIndexingMap(&use);
  auto position = [&](unsigned loop) {
    return map.getResultPosition(getAffineDimExpr(loop, op->getContext()));
  };
  // K whole: at offset 0 and as long as the binding.
  std::optional<unsigned> k = position(loops.k);
  auto view = use.get().getDefiningOp<memref::SubViewOp>();
  if (!k || !isConstantIntValue(shared.offsets[*k], 0) ||
      (view && getConstantIntValue(view.getMixedSizes()[*k]) !=
                   std::optional<int64_t>(shared.shape[*k])))
    return std::nullopt;
  int64_t kBlocks = llvm::divideCeil(shared.shape[*k], p.kc);
  std::optional<unsigned> batch =
      loops.batch ? position(*loops.batch) : std::nullopt;
  int64_t batches = batch ? shared.shape[*batch] : 1;
  int64_t elementBytes =
      getElementTypeOrSelf(op.getDpsInits()[0].getType())
          .getIntOrFloatBitWidth() /
      8;
  if (operand == 0) {
    int64_t m = shared.shape[*position(loops.m[0])];
    int64_t rows = p.mTile ? std::min(p.mTile, m) : m;
    int64_t rowBlocks = p.mTile ? llvm::divideCeil(m, p.mTile) : 1;
    shared.blocks =
        batches * rowBlocks * llvm::divideCeil(rows, p.mc) * kBlocks;
    shared.blockBytes = packedRows(p) * p.kc * elementBytes;
  } else {
    int64_t n = shared.shape[*position(loops.n)];
    int64_t colBlocks = p.nTile ? llvm::divideCeil(n, p.nTile) : 1;
    shared.blocks = batches * colBlocks * kBlocks;
    shared.blockBytes = packedPanels(p) * p.kc * p.nr * elementBytes;
  }
  shared.blockBytes = llvm::alignTo(shared.blockBytes, 64);
  return shared;
}

/// Builds the loops replacing one marked op (on memrefs).
class PackedMatmulBuilder {
public:
  /// `packFirstKBlockOnly`: a timing experiment, not a mode: the copies
  /// into the pack buffers run in the first K block only, so later K
  /// blocks multiply stale panels and the RESULT IS WRONG. The difference
  /// in time against the default is what re-packing A and B costs (issue
  /// 15's 16-thread analysis).
  /// `sharedA`, `sharedB`: operands packed once per dispatch into
  /// `scratch` (bytes, i8) with ready flags in `flags` (i32), if planned.
  PackedMatmulBuilder(linalg::LinalgOp op, const PackedLoops &loops,
                      const CPUPackedMatmulParams &p, bool packFirstKBlockOnly,
                      std::optional<SharedOperand> sharedA,
                      std::optional<SharedOperand> sharedB, Value scratch,
                      Value flags)
      : b(op.getLoc(), op.getOperation()), op(op), p(p), loops(loops),
        packFirstKBlockOnly(packFirstKBlockOnly), sharedA(std::move(sharedA)),
        sharedB(std::move(sharedB)), scratch(scratch), flags(flags) {
    elt = getElementTypeOrSelf(op.getDpsInits()[0].getType());
    lanes = p.lanes;
    vecTy = VectorType::get({lanes}, elt);
    nrVectors = p.nr / lanes;
  }

  void build();

private:
  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value mul(Value x, int64_t y) { return arith::MulIOp::create(b, x, cst(y)); }
  Value min(Value x, Value y) { return arith::MinSIOp::create(b, x, y); }

  /// Indices of operand `operand` at the loop values `ivs` (one per loop).
  SmallVector<Value> indices(OpOperand &operand, ArrayRef<Value> ivs) {
    SmallVector<Value> result;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (AffineExpr e : map.getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(e)) {
        result.push_back(ivs[dim.getPosition()]);
        continue;
      }
      result.push_back(
          affine::expandAffineExpr(b, b.getLoc(), e, ivs, ValueRange{}));
    }
    return result;
  }

  /// The permutation map of a 1-D transfer of `operand` along loop `loop`.
  AffineMap alongLoop(OpOperand &operand, unsigned loop) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    std::optional<unsigned> pos =
        map.getResultPosition(b.getAffineDimExpr(loop));
    return AffineMap::get(map.getNumResults(), 0,
                          b.getAffineDimExpr(*pos), b.getContext());
  }

  /// One vector of `operand` along loop `loop` from the loop values `ivs`;
  /// elements past the operand's end read as zero.
  Value read(OpOperand &operand, unsigned loop, ArrayRef<Value> ivs) {
    Value zero = arith::ConstantOp::create(b, b.getZeroAttr(elt));
    return vector::TransferReadOp::create(
        b, vecTy, operand.get(), indices(operand, ivs), zero,
        alongLoop(operand, loop), ArrayRef<bool>{false});
  }

  void write(Value v, OpOperand &operand, unsigned loop, ArrayRef<Value> ivs) {
    vector::TransferWriteOp::create(
        b, v, operand.get(), indices(operand, ivs),
        AffineMapAttr::get(alongLoop(operand, loop)),
        b.getBoolArrayAttr({false}));
  }

  /// Values of the M loops at packed row `row`: the row delinearized over
  /// their sizes, last fastest.
  SmallVector<Value> rowIVs(Value row) {
    SmallVector<Value> ivs(loops.m.size());
    for (unsigned i = loops.m.size(); i-- > 1;) {
      Value size = sizes[loops.m[i]];
      ivs[i] = arith::RemUIOp::create(b, row, size);
      row = arith::DivUIOp::create(b, row, size);
    }
    ivs[0] = row;
    return ivs;
  }

  /// Values of all loops: the batch, the M loops at `mIVs` (empty: zeros),
  /// N at `col`, the outer K loops at `kOuterIVs`, K at `kIV`.
  SmallVector<Value> loopIVs(ArrayRef<Value> mIVs, Value col, Value kIV) {
    Value zero = cst(0);
    SmallVector<Value> ivs(op.getNumLoops(), zero);
    if (loops.batch)
      ivs[*loops.batch] = batchIV;
    for (auto [loop, iv] : llvm::zip(loops.m, mIVs))
      ivs[loop] = iv;
    ivs[loops.n] = col;
    for (auto [loop, iv] : llvm::zip(loops.kOuter, kOuterIVs))
      ivs[loop] = iv;
    ivs[loops.k] = kIV;
    return ivs;
  }

  void packB(Value bp, Value kc, Value kBegin, Value kEnd, Value panels);
  void packA(Value ap, Value kc, Value kcs, Value ic, Value rowBegin,
             Value rowEnd);
  /// The key of the block of `shared` at K block `kc` (and for A the MC
  /// block at row `ic`): the block's index in the scratch.
  Value blockKey(const SharedOperand &shared, Value kc, Value ic);
  /// Block `key` of `shared`, viewed as `type`, packed by the workgroups
  /// that need it: this one packs the chunks nobody has claimed
  /// (`packChunk(block, begin, end)` with the chunk's part of `extent`),
  /// then waits until every chunk is packed.
  Value sharedBlock(const SharedOperand &shared, Value key, MemRefType type,
                    int64_t extentMax, Value extent,
                    llvm::function_ref<void(Value, Value, Value)> packChunk);
  void microTiles(Value ap, Value bp, Value kcs, Value panels, Value ic,
                  Value rowGroups);

  ImplicitLocOpBuilder b;
  linalg::LinalgOp op;
  CPUPackedMatmulParams p;
  PackedLoops loops;
  bool packFirstKBlockOnly;
  std::optional<SharedOperand> sharedA, sharedB;
  Value scratch, flags;
  Type elt;
  int64_t lanes = 0, nrVectors = 0;
  VectorType vecTy;
  /// Loop extents of the op (sizes of its operands), per loop.
  SmallVector<Value> sizes;
  /// Rows of C in this workgroup (product of the M loops' sizes).
  Value mSize;
  /// Induction variables of the loops around the K block.
  Value batchIV;
  SmallVector<Value> kOuterIVs;
};

void PackedMatmulBuilder::packB(Value bp, Value kc, Value kBegin, Value kEnd,
                                Value panels) {
  OpOperand &operandB = op->getOpOperand(1);
  Value zero = cst(0), one = cst(1);
  // When N is B's contiguous dimension, walk a row of B (all panels) per k:
  // NC contiguous elements, which the hardware prefetchers follow. Walking
  // a panel's KC rows first reads NR elements from each of KC rows (one
  // page each for wide B), a miss per row at L3 latency.
  AffineMap mapB = op.getMatchingIndexingMap(&operandB);
  bool rowsOfB = mapB.getNumResults() > 0 &&
                 mapB.getResults().back() == b.getAffineDimExpr(loops.n);
  auto outer = rowsOfB ? scf::ForOp::create(b, kBegin, kEnd, one)
                       : scf::ForOp::create(b, zero, panels, one);
  b.setInsertionPointToStart(outer.getBody());
  auto inner = rowsOfB ? scf::ForOp::create(b, zero, panels, one)
                       : scf::ForOp::create(b, kBegin, kEnd, one);
  b.setInsertionPointToStart(inner.getBody());
  Value panel = rowsOfB ? inner.getInductionVar() : outer.getInductionVar();
  Value kk = rowsOfB ? outer.getInductionVar() : inner.getInductionVar();
  Value col0 = mul(panel, p.nr);
  Value kIV = add(kc, kk);
  for (int64_t v = 0; v < nrVectors; ++v) {
    Value col = add(col0, cst(v * lanes));
    Value vec = read(operandB, loops.n, loopIVs({}, col, kIV));
    vector::StoreOp::create(b, vec, bp, ValueRange{panel, kk, cst(v * lanes)});
  }
  b.setInsertionPointAfter(outer);
}

void PackedMatmulBuilder::packA(Value ap, Value kc, Value kcs, Value ic,
                                Value rowBegin, Value rowEnd) {
  OpOperand &operandA = op->getOpOperand(0);
  Value zero = cst(0), one = cst(1);
  Value lastRow = arith::SubIOp::create(b, mSize, one);
  auto i = scf::ForOp::create(b, rowBegin, rowEnd, one);
  b.setInsertionPointToStart(i.getBody());
  // Rows past M copy the last row: defined values, results not stored.
  SmallVector<Value> mIVs =
      rowIVs(min(add(ic, i.getInductionVar()), lastRow));
  auto kk = scf::ForOp::create(b, zero, kcs, cst(lanes));
  b.setInsertionPointToStart(kk.getBody());
  Value kIV = add(kc, kk.getInductionVar());
  Value vec = read(operandA, loops.k, loopIVs(mIVs, zero, kIV));
  vector::StoreOp::create(
      b, vec, ap, ValueRange{i.getInductionVar(), kk.getInductionVar()});
  b.setInsertionPointAfter(i);
}

Value PackedMatmulBuilder::blockKey(const SharedOperand &shared, Value kc,
                                    Value ic) {
  AffineMap map = op.getMatchingIndexingMap(&op->getOpOperand(shared.operand));
  auto position = [&](unsigned loop) {
    return map.getResultPosition(b.getAffineDimExpr(loop));
  };
  auto offsetOf = [&](unsigned loop) {
    return getValueOrCreateConstantIndexOp(b, b.getLoc(),
                                           shared.offsets[*position(loop)]);
  };
  auto extentOf = [&](unsigned loop) { return shared.shape[*position(loop)]; };
  auto div = [&](Value x, int64_t y) {
    return arith::DivUIOp::create(b, x, cst(y)).getResult();
  };
  Value key = cst(0);
  if (loops.batch && position(*loops.batch))
    key = add(offsetOf(*loops.batch), batchIV);
  if (shared.operand == 0) {
    int64_t m = extentOf(loops.m[0]);
    int64_t rowBlocks = p.mTile ? llvm::divideCeil(m, p.mTile) : 1;
    int64_t mcBlocks =
        llvm::divideCeil(p.mTile ? std::min(p.mTile, m) : m, p.mc);
    Value row = p.mTile ? div(offsetOf(loops.m[0]), p.mTile) : cst(0);
    key = add(mul(key, rowBlocks), row);
    key = add(mul(key, mcBlocks), div(ic, p.mc));
  } else {
    int64_t n = extentOf(loops.n);
    int64_t colBlocks = p.nTile ? llvm::divideCeil(n, p.nTile) : 1;
    Value col = p.nTile ? div(offsetOf(loops.n), p.nTile) : cst(0);
    key = add(mul(key, colBlocks), col);
  }
  int64_t kBlocks = llvm::divideCeil(extentOf(loops.k), p.kc);
  return add(mul(key, kBlocks), div(kc, p.kc));
}

Value PackedMatmulBuilder::sharedBlock(
    const SharedOperand &shared, Value key, MemRefType type, int64_t extentMax,
    Value extent, llvm::function_ref<void(Value, Value, Value)> packChunk) {
  Value zero = cst(0), one = cst(1), chunks = cst(kChunksPerBlock);
  auto i32 = [&](int64_t v) {
    return arith::ConstantOp::create(b, b.getI32IntegerAttr(v)).getResult();
  };
  // Flag states: unclaimed (0, as the runtime zeroes them), claimed, packed.
  Value unclaimed = i32(0), claimed = i32(1), packed = i32(2);
  Value byte = add(cst(shared.firstByte), mul(key, shared.blockBytes));
  Value block = memref::ViewOp::create(b, type, scratch, byte, ValueRange{});
  Value firstFlag = add(cst(shared.firstFlag), mul(key, kChunksPerBlock));
  int64_t chunk = llvm::divideCeil(extentMax, kChunksPerBlock);

  auto claim = scf::ForOp::create(b, zero, chunks, one);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(claim.getBody());
    Value c = claim.getInductionVar();
    Value flag = add(firstFlag, c);
    auto cas = memref::GenericAtomicRMWOp::create(b, flags, ValueRange{flag});
    {
      OpBuilder::InsertionGuard bodyGuard(b);
      b.setInsertionPointToStart(&cas.getRegion().front());
      Value current = cas.getCurrentValue();
      Value free = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, current,
                                         unclaimed);
      memref::AtomicYieldOp::create(
          b, arith::SelectOp::create(b, free, claimed, current));
    }
    Value mine = arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                       cas.getResult(), unclaimed);
    auto ifMine = scf::IfOp::create(b, mine, /*withElseRegion=*/false);
    b.setInsertionPointToStart(ifMine.thenBlock());
    Value begin = mul(c, chunk);
    packChunk(block, begin, min(add(begin, cst(chunk)), extent));
    memref::AtomicRMWOp::create(b, arith::AtomicRMWKind::assign, packed, flags,
                                ValueRange{flag});
  }
  auto wait = scf::ForOp::create(b, zero, chunks, one);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(wait.getBody());
    Value flag = add(firstFlag, wait.getInductionVar());
    scf::WhileOp::create(
        b, TypeRange{}, ValueRange{},
        [&](OpBuilder &nb, Location loc, ValueRange) {
          // An atomic read (or with 0) of the flag.
          Value state = memref::AtomicRMWOp::create(
              nb, loc, arith::AtomicRMWKind::ori, unclaimed, flags,
              ValueRange{flag});
          Value busy = arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::ne,
                                             state, packed);
          scf::ConditionOp::create(nb, loc, busy, ValueRange{});
        },
        [&](OpBuilder &nb, Location loc, ValueRange) {
          scf::YieldOp::create(nb, loc);
        });
  }
  return block;
}

void PackedMatmulBuilder::microTiles(Value ap, Value bp, Value kcs,
                                     Value panels, Value ic,
                                     Value rowGroups) {
  OpOperand &operandC = *op.getDpsInitOperand(0);
  Value zero = cst(0), one = cst(1);
  Value lastRow = arith::SubIOp::create(b, mSize, one);
  auto jr = scf::ForOp::create(b, zero, panels, one);
  b.setInsertionPointToStart(jr.getBody());
  Value col0 = mul(jr.getInductionVar(), p.nr);
  auto ir = scf::ForOp::create(b, zero, rowGroups, one);
  b.setInsertionPointToStart(ir.getBody());
  // Row of the packed A (row0) and of the workgroup's C block (c0).
  Value row0 = mul(ir.getInductionVar(), p.mr);
  Value c0 = add(ic, row0);

  // Accumulators, row-major: acc[r * nrVectors + v].
  SmallVector<Value> acc;
  for (int64_t r = 0; r < p.mr; ++r) {
    SmallVector<Value> mIVs = rowIVs(min(add(c0, cst(r)), lastRow));
    for (int64_t v = 0; v < nrVectors; ++v)
      acc.push_back(read(operandC, loops.n,
                         loopIVs(mIVs, add(col0, cst(v * lanes)), zero)));
  }
  auto kLoop = scf::ForOp::create(b, zero, kcs, one, acc);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value kk = kLoop.getInductionVar();
    SmallVector<Value> bv;
    for (int64_t v = 0; v < nrVectors; ++v)
      bv.push_back(vector::LoadOp::create(
          b, vecTy, bp,
          ValueRange{jr.getInductionVar(), kk, cst(v * lanes)}));
    SmallVector<Value> next;
    for (int64_t r = 0; r < p.mr; ++r) {
      Value a = memref::LoadOp::create(b, ap,
                                       ValueRange{add(row0, cst(r)), kk});
      Value splat = vector::BroadcastOp::create(b, vecTy, a);
      for (int64_t v = 0; v < nrVectors; ++v)
        next.push_back(vector::FMAOp::create(
            b, splat, bv[v], kLoop.getRegionIterArgs()[r * nrVectors + v]));
    }
    scf::YieldOp::create(b, next);
  }
  for (int64_t r = 0; r < p.mr; ++r) {
    Value row = add(c0, cst(r));
    Value inside = arith::CmpIOp::create(b, arith::CmpIPredicate::slt, row,
                                         mSize);
    auto ifOp = scf::IfOp::create(b, inside, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    SmallVector<Value> mIVs = rowIVs(row);
    for (int64_t v = 0; v < nrVectors; ++v)
      write(kLoop.getResult(r * nrVectors + v), operandC, loops.n,
            loopIVs(mIVs, add(col0, cst(v * lanes)), zero));
  }
  b.setInsertionPointAfter(jr);
}

void PackedMatmulBuilder::build() {
  for (Range range : op.createLoopRanges(b, b.getLoc()))
    sizes.push_back(
        getValueOrCreateConstantIndexOp(b, b.getLoc(), range.size));
  mSize = sizes[loops.m[0]];
  for (unsigned loop : ArrayRef(loops.m).drop_front())
    mSize = arith::MulIOp::create(b, mSize, sizes[loop]);
  Value zero = cst(0), one = cst(1);

  int64_t rowsMax = packedRows(p);
  auto apType = MemRefType::get({rowsMax, p.kc}, elt);
  auto bpType = MemRefType::get({packedPanels(p), p.kc, p.nr}, elt);
  IntegerAttr align = b.getI64IntegerAttr(64);
  // Buffers of the workgroup for the operands not packed once per dispatch.
  Value ap = sharedA ? Value()
                     : memref::AllocOp::create(b, apType, ValueRange{}, align);
  Value bp = sharedB ? Value()
                     : memref::AllocOp::create(b, bpType, ValueRange{}, align);

  // Panels covering this workgroup's block of C.
  Value panels = arith::CeilDivSIOp::create(b, sizes[loops.n], cst(p.nr));

  Operation *outermost = nullptr;
  batchIV = zero;
  if (loops.batch) {
    auto batchLoop = scf::ForOp::create(b, zero, sizes[*loops.batch], one);
    outermost = batchLoop;
    b.setInsertionPointToStart(batchLoop.getBody());
    batchIV = batchLoop.getInductionVar();
  }
  for (unsigned loop : loops.kOuter) {
    auto outer = scf::ForOp::create(b, zero, sizes[loop], one);
    if (!outermost)
      outermost = outer;
    b.setInsertionPointToStart(outer.getBody());
    kOuterIVs.push_back(outer.getInductionVar());
  }
  Value kSize = sizes[loops.k];
  auto kcLoop = scf::ForOp::create(b, zero, kSize, cst(p.kc));
  if (!outermost)
    outermost = kcLoop;
  b.setInsertionPointToStart(kcLoop.getBody());
  Value kc = kcLoop.getInductionVar();
  Value kcs = min(cst(p.kc), arith::SubIOp::create(b, kSize, kc));
  // Builds `pack` under `kc == 0` for the timing experiment, else as is.
  auto maybeOnce = [&](llvm::function_ref<void()> pack) {
    if (!packFirstKBlockOnly)
      return pack();
    Value first =
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, kc, zero);
    auto ifOp = scf::IfOp::create(b, first, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    pack();
  };
  Value bBlock = bp;
  if (sharedB)
    bBlock = sharedBlock(*sharedB, blockKey(*sharedB, kc, zero), bpType, p.kc,
                         kcs, [&](Value block, Value begin, Value end) {
                           packB(block, kc, begin, end, panels);
                         });
  else
    maybeOnce([&] { packB(bp, kc, zero, kcs, panels); });
  // The workgroup's rows in blocks of MC, each packed and multiplied by
  // the packed B block.
  auto icLoop = scf::ForOp::create(b, zero, mSize, cst(p.mc));
  b.setInsertionPointToStart(icLoop.getBody());
  Value ic = icLoop.getInductionVar();
  Value mcs = min(cst(p.mc), arith::SubIOp::create(b, mSize, ic));
  Value rowGroups = arith::CeilDivSIOp::create(b, mcs, cst(p.mr));
  Value rows = mul(rowGroups, p.mr);
  Value aBlock = ap;
  if (sharedA)
    aBlock = sharedBlock(*sharedA, blockKey(*sharedA, kc, ic), apType, rowsMax,
                         rows, [&](Value block, Value begin, Value end) {
                           packA(block, kc, kcs, ic, begin, end);
                         });
  else
    maybeOnce([&] { packA(ap, kc, kcs, ic, zero, rows); });
  microTiles(aBlock, bBlock, kcs, panels, ic, rowGroups);
  b.setInsertionPointAfter(outermost);
  for (Value buffer : {ap, bp})
    if (buffer)
      memref::DeallocOp::create(b, buffer);
}

} // namespace

namespace mlir::tessel {
namespace {

/// One marked op of a kernel and how its operands are packed.
struct PlannedMatmul {
  linalg::LinalgOp op;
  PackedLoops loops;
  CPUPackedMatmulParams p;
  std::optional<SharedOperand> a, b;
};

/// Lowers the marked ops of `kernel`, with the scratch their shared blocks
/// need (flags first, zeroed by the runtime, then the blocks) recorded on
/// the kernel.
LogicalResult lowerKernel(func::FuncOp kernel, ArrayRef<linalg::LinalgOp> ops,
                          bool packFirstKBlockOnly) {
  auto bindingCount = kernel->getAttrOfType<IntegerAttr>(kBindingCountAttr);
  bool hasTable = bindingCount && kernel.getNumArguments() > 0 &&
                  isa<LLVM::LLVMPointerType>(kernel.getArgument(0).getType());
  SmallVector<PlannedMatmul, 2> planned;
  for (linalg::LinalgOp op : ops) {
    auto attr = op->getAttrOfType<DenseI64ArrayAttr>(kCPUPackedMatmulAttr);
    FailureOr<PackedLoops> loops = classifyLoops(op);
    if (!attr || attr.size() != 8 || failed(loops) ||
        !op.hasPureBufferSemantics())
      return op.emitOpError("is marked for the packed CPU matmul but is not a "
                            "bufferized contraction or convolution it "
                            "handles");
    CPUPackedMatmulParams p{attr[0], attr[1], attr[2], attr[3],
                            attr[4], attr[5], attr[6], attr[7]};
    PlannedMatmul m{op, *loops, p, std::nullopt, std::nullopt};
    if (hasTable && !packFirstKBlockOnly) {
      m.a = planShared(op, *loops, p, 0);
      m.b = planShared(op, *loops, p, 1);
    }
    planned.push_back(std::move(m));
  }
  // The scratch: every shared block's chunk flags, then the blocks.
  int64_t flagCount = 0;
  for (PlannedMatmul &m : planned)
    for (std::optional<SharedOperand> *s : {&m.a, &m.b})
      if (*s) {
        (*s)->firstFlag = flagCount;
        flagCount += (*s)->blocks * kChunksPerBlock;
      }
  int64_t zeroedBytes = llvm::alignTo(flagCount * 4, 64);
  int64_t bytes = zeroedBytes;
  for (PlannedMatmul &m : planned)
    for (std::optional<SharedOperand> *s : {&m.a, &m.b})
      if (*s) {
        (*s)->firstByte = bytes;
        bytes += (*s)->blocks * (*s)->blockBytes;
      }
  if (bytes > kMaxScratchBytes) {
    for (PlannedMatmul &m : planned)
      m.a = m.b = std::nullopt;
    flagCount = 0;
  }
  Value scratch, flags;
  if (flagCount > 0) {
    auto b = ImplicitLocOpBuilder::atBlockBegin(kernel.getLoc(),
                                                &kernel.front());
    scratch = BindingOp::create(
        b, MemRefType::get({bytes}, b.getI8Type()), kernel.getArgument(0),
        b.getI64IntegerAttr(bindingCount.getInt() + pushConstantCount(kernel)));
    flags = memref::ViewOp::create(
        b, MemRefType::get({flagCount}, b.getI32Type()), scratch,
        arith::ConstantIndexOp::create(b, 0), ValueRange{});
    kernel->setAttr(kScratchBytesAttr, b.getI64IntegerAttr(bytes));
    kernel->setAttr(kScratchZeroedBytesAttr, b.getI64IntegerAttr(zeroedBytes));
  }
  for (PlannedMatmul &m : planned) {
    PackedMatmulBuilder(m.op, m.loops, m.p, packFirstKBlockOnly, m.a, m.b,
                        scratch, flags)
        .build();
    m.op->erase();
  }
  return success();
}

struct CPUPackedMatmulPass
    : impl::CPUPackedMatmulBase<CPUPackedMatmulPass> {
  using Base::Base;
  void runOnOperation() override {
    llvm::MapVector<func::FuncOp, SmallVector<linalg::LinalgOp>> marked;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kCPUPackedMatmulAttr))
        marked[op->getParentOfType<func::FuncOp>()].push_back(op);
    });
    for (auto &[kernel, ops] : marked)
      if (failed(lowerKernel(kernel, ops, diagnosticPackFirstKBlockOnly)))
        return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tessel
