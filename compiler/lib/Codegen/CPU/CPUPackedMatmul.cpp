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
// The pack buffers are heap allocations of the workgroup (~400 KiB), freed
// at its end.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Codegen/CPU/CPUStrategyTable.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
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

/// Builds the loops replacing one marked op (on memrefs).
class PackedMatmulBuilder {
public:
  /// `packFirstKBlockOnly`: a timing experiment, not a mode: the copies
  /// into the pack buffers run in the first K block only, so later K
  /// blocks multiply stale panels and the RESULT IS WRONG. The difference
  /// in time against the default is what re-packing A and B costs (issue
  /// 15's 16-thread analysis).
  PackedMatmulBuilder(linalg::LinalgOp op, const PackedLoops &loops,
                      const CPUPackedMatmulParams &p, bool packFirstKBlockOnly)
      : b(op.getLoc(), op.getOperation()), op(op), p(p), loops(loops),
        packFirstKBlockOnly(packFirstKBlockOnly) {
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

  void packB(Value bp, Value kc, Value kcs, Value panels);
  void packA(Value ap, Value kc, Value kcs, Value ic, Value rows);
  void microTiles(Value ap, Value bp, Value kcs, Value panels, Value ic,
                  Value rowGroups);

  ImplicitLocOpBuilder b;
  linalg::LinalgOp op;
  CPUPackedMatmulParams p;
  PackedLoops loops;
  bool packFirstKBlockOnly;
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

void PackedMatmulBuilder::packB(Value bp, Value kc, Value kcs, Value panels) {
  OpOperand &operandB = op->getOpOperand(1);
  Value zero = cst(0), one = cst(1);
  // When N is B's contiguous dimension, walk a row of B (all panels) per k:
  // NC contiguous elements, which the hardware prefetchers follow. Walking
  // a panel's KC rows first reads NR elements from each of KC rows (one
  // page each for wide B), a miss per row at L3 latency.
  AffineMap mapB = op.getMatchingIndexingMap(&operandB);
  bool rowsOfB = mapB.getNumResults() > 0 &&
                 mapB.getResults().back() == b.getAffineDimExpr(loops.n);
  auto outer = scf::ForOp::create(b, zero, rowsOfB ? kcs : panels, one);
  b.setInsertionPointToStart(outer.getBody());
  auto inner = scf::ForOp::create(b, zero, rowsOfB ? panels : kcs, one);
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
                                Value rows) {
  OpOperand &operandA = op->getOpOperand(0);
  Value zero = cst(0), one = cst(1);
  Value lastRow = arith::SubIOp::create(b, mSize, one);
  auto i = scf::ForOp::create(b, zero, rows, one);
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

  int64_t rowsMax = llvm::divideCeil(p.mc, p.mr) * p.mr;
  int64_t panelsMax = llvm::divideCeil(p.nc, p.nr);
  auto apType = MemRefType::get({rowsMax, p.kc}, elt);
  auto bpType = MemRefType::get({panelsMax, p.kc, p.nr}, elt);
  IntegerAttr align = b.getI64IntegerAttr(64);
  Value ap = memref::AllocOp::create(b, apType, ValueRange{}, align);
  Value bp = memref::AllocOp::create(b, bpType, ValueRange{}, align);

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
  maybeOnce([&] { packB(bp, kc, kcs, panels); });
  // The workgroup's rows in blocks of MC, each packed and multiplied by
  // the packed B block.
  auto icLoop = scf::ForOp::create(b, zero, mSize, cst(p.mc));
  b.setInsertionPointToStart(icLoop.getBody());
  Value ic = icLoop.getInductionVar();
  Value mcs = min(cst(p.mc), arith::SubIOp::create(b, mSize, ic));
  Value rowGroups = arith::CeilDivSIOp::create(b, mcs, cst(p.mr));
  maybeOnce([&] { packA(ap, kc, kcs, ic, mul(rowGroups, p.mr)); });
  microTiles(ap, bp, kcs, panels, ic, rowGroups);
  b.setInsertionPointAfter(outermost);
  memref::DeallocOp::create(b, ap);
  memref::DeallocOp::create(b, bp);
}

} // namespace

namespace mlir::tessel {
namespace {
struct CPUPackedMatmulPass
    : impl::CPUPackedMatmulBase<CPUPackedMatmulPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> marked;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kCPUPackedMatmulAttr))
        marked.push_back(op);
    });
    for (linalg::LinalgOp op : marked) {
      auto attr = op->getAttrOfType<DenseI64ArrayAttr>(kCPUPackedMatmulAttr);
      FailureOr<PackedLoops> loops = classifyLoops(op);
      if (!attr || attr.size() != 6 || failed(loops) ||
          !op.hasPureBufferSemantics()) {
        op.emitOpError("is marked for the packed CPU matmul but is not a "
                       "bufferized contraction or convolution it handles");
        return signalPassFailure();
      }
      CPUPackedMatmulParams p{attr[0], attr[1], attr[2],
                              attr[3], attr[4], attr[5]};
      PackedMatmulBuilder(op, *loops, p, diagnosticPackFirstKBlockOnly).build();
      op->erase();
    }
  }
};

} // namespace
} // namespace mlir::tessel
