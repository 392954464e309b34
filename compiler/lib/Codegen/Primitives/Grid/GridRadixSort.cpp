//===- GridRadixSort.cpp - the grid level of a radix sort (GPU) -*- C++ -*-===//
//
// See GridRadixSort.h. Emitted on the binding memrefs; the tensor sort
// and its producers die afterwards.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/Primitives/GridRadixSort.h"

#include "tessel/Codegen/GPU/GPUWarpReduction.h"
#include "tessel/Codegen/Primitives/GridBarrier.h"
#include "tessel/Codegen/Primitives/RadixKey.h"
#include "tessel/Target/Executable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr int64_t kThreads = 256;
constexpr int64_t kWarps = kThreads / 32;
/// Elements per thread and tile: rows of kThreads consecutive elements.
constexpr int64_t kItems = kRadixTileElements / kThreads;
/// Keys per thread in flight while counting digits.
constexpr int64_t kCountUnroll = 8;
/// Shared memory for a reordered tile of every operand.
constexpr int64_t kStageBytesBudget = 32 * 1024;

struct RadixPlan {
  RadixKey key;
  /// Elements; the compiled grid (the most blocks the runtime launches) and
  /// the tiles of a block's run in it.
  int64_t n, blocks, tilesPerBlock;
  SmallVector<Value> inputs, scratch, outputs;
  SmallVector<bufferization::MaterializeInDestinationOp> stores;
  Value counts;
  /// Whether a tile of every operand fits the shared-memory budget.
  bool stage;
};

/// The binding that operand `v` of the sort starts as: read directly, or
/// through the copy that the kernel ABI makes of a read-only input.
Value sourceBinding(Value v) {
  if (auto copy = v.getDefiningOp<linalg::CopyOp>())
    return bindingMemRef(copy.getInputs()[0]);
  return bindingMemRef(v);
}

FailureOr<RadixPlan> plan(SortOp sort, std::string &why) {
  RadixPlan p;
  if (!hasRadixWorkspaces(sort)) {
    why = "no radix-sort workspaces";
    return failure();
  }
  std::optional<RadixKey> key = matchRadixKey(sort, why);
  if (!key)
    return failure();
  p.key = *key;
  p.n = sort.getOperandType().getShape()[0];
  p.blocks = gridRadixSortBlocks(p.n);
  int64_t tiles = llvm::divideCeil(p.n, kRadixTileElements);
  p.tilesPerBlock = llvm::divideCeil(tiles, p.blocks);
  // The verifier holds the workspaces to one scratch buffer per operand,
  // then the counts.
  for (size_t i = 0, e = sort.getOutputs().size(); i < e; ++i) {
    Value in = sourceBinding(sort.getOutputs()[i]);
    Value ws = bindingMemRef(sort.getInputs()[i]);
    auto store = bindingStore(sort.getResult(i));
    if (!in || !ws || !store) {
      why = "operand " + std::to_string(i) +
            " is not read from and stored to bindings";
      return failure();
    }
    p.inputs.push_back(in);
    p.scratch.push_back(ws);
    p.stores.push_back(store);
    p.outputs.push_back(store.getDest());
  }
  p.counts = bindingMemRef(sort.getInputs().back());
  auto countsType =
      p.counts ? dyn_cast<MemRefType>(p.counts.getType()) : MemRefType();
  if (!countsType || !countsType.getElementType().isInteger(32) ||
      countsType.getRank() != 1 ||
      countsType.getShape()[0] < radixCountWords(p.blocks)) {
    why = "the counts workspace is not " +
          std::to_string(radixCountWords(p.blocks)) + " i32 words";
    return failure();
  }
  // Static shared memory is 48 KiB a block: the counters take 11 KiB.
  int64_t stageBytes = 0;
  for (Value v : p.inputs)
    stageBytes += kRadixTileElements *
                  cast<MemRefType>(v.getType()).getElementTypeBitWidth() / 8;
  p.stage = stageBytes <= kStageBytesBudget;
  return p;
}

struct RadixEmitter {
  OpBuilder &b;
  Location loc;
  const RadixPlan &p;
  Value tid, bid, warp, lane, ltMask;
  /// The launched grid: p.blocks or fewer (kResidentBlocksPerSmAttr).
  Value blocks;
  Value sHist, sWarpCount, sWarp;
  /// Per digit its run's start in the reordered tile, and its next output
  /// position minus that start.
  Value sStart, sBase;
  /// Staging of a reordered tile (p.stage): per operand its elements.
  SmallVector<Value> sStage;
  Value lo, hi;
  int64_t generation = 0;

  Value ci(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value c32(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); }
  Value add(Value l, Value r) { return arith::AddIOp::create(b, loc, l, r); }
  Value mul(Value l, Value r) { return arith::MulIOp::create(b, loc, l, r); }
  Value idx(Value i32) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), i32);
  }
  Value i32(Value index) {
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
  }
  Value cmp(arith::CmpIPredicate pr, Value l, Value r) {
    return arith::CmpIOp::create(b, loc, pr, l, r);
  }
  Value ballot(Value pred) {
    return NVVM::VoteSyncOp::create(b, loc, b.getI32Type(), c32(-1), pred,
                                    NVVM::VoteSyncKind::ballot);
  }
  Value popc(Value v) { return LLVM::CtPopOp::create(b, loc, v); }
  void ifThen(Value cond, function_ref<void()> body) {
    auto op = scf::IfOp::create(b, loc, cond, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(op.thenBlock()->getTerminator());
    body();
  }
  void syncWarp() { NVVM::SyncWarpOp::create(b, loc, c32(-1)); }
  void emit(func::FuncOp kernel) {
    tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
    blocks = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
    warp = arith::DivUIOp::create(b, loc, tid, ci(32));
    lane = arith::RemUIOp::create(b, loc, tid, ci(32));
    ltMask = arith::SubIOp::create(
        b, loc, arith::ShLIOp::create(b, loc, c32(1), i32(lane)), c32(1));
    Type i32Type = b.getI32Type();
    sHist = workgroupBuffer(b, loc, kernel, "_radix_hist", {kRadixBuckets},
                            i32Type);
    sWarpCount = workgroupBuffer(b, loc, kernel, "_radix_warp_count",
                                 {kWarps * kRadixBuckets}, i32Type);
    sWarp = workgroupBuffer(b, loc, kernel, "_radix_warp", {kWarps}, i32Type);
    sStart = workgroupBuffer(b, loc, kernel, "_radix_start", {kRadixBuckets},
                             i32Type);
    sBase = workgroupBuffer(b, loc, kernel, "_radix_base", {kRadixBuckets},
                            i32Type);
    if (p.stage)
      for (auto [i, v] : llvm::enumerate(p.inputs))
        sStage.push_back(workgroupBuffer(
            b, loc, kernel, ("_radix_stage" + std::to_string(i)),
            {kRadixTileElements},
            cast<MemRefType>(v.getType()).getElementType()));
    // Each block's run: ceil(tiles / blocks) tiles; with fewer blocks than
    // compiled, the last ones may be empty (lo clamped to n).
    int64_t tiles = llvm::divideCeil(p.n, kRadixTileElements);
    Value perBlock = arith::DivUIOp::create(
        b, loc, add(blocks, ci(tiles - 1)), blocks);
    Value run = mul(perBlock, ci(kRadixTileElements));
    lo = arith::MinUIOp::create(b, loc, mul(bid, run), ci(p.n));
    hi = arith::MinUIOp::create(b, loc, add(lo, run), ci(p.n));
    // Shared counters start at zero; each thread owns digit tid's column.
    for (int64_t j = 0; j < kWarps; ++j)
      memref::StoreOp::create(b, loc, c32(0), sWarpCount,
                              add(tid, ci(j * kRadixBuckets)));
    memref::StoreOp::create(b, loc, c32(0), sHist, tid);
    gpu::BarrierOp::create(b, loc);

    int64_t passes = p.key.passes();
    SmallVector<Value> src = p.inputs;
    for (int64_t pass = 0; pass < passes; ++pass) {
      const SmallVector<Value> &dst =
          (passes - 1 - pass) % 2 == 0 ? p.outputs : p.scratch;
      countDigits(src[0], pass);
      Value offset = firstPositions();
      scatterTiles(src, dst, pass, offset);
      if (pass + 1 < passes)
        gridBarrier();
      src = dst;
    }
  }

  /// The barrier's counter follows the compiled grid's counts.
  void gridBarrier() {
    emitGridBarrier(b, loc, p.counts, ci(p.blocks * kRadixBuckets), tid,
                    ++generation);
  }

  /// Phase 1: this block's digit counts into counts[bid][*].
  void countDigits(Value keys, int64_t pass) {
    Value last = ci(p.n - 1);
    scf::ForOp::create(
        b, loc, add(lo, tid), hi, ci(kCountUnroll * kThreads), ValueRange{},
        [&](OpBuilder &, Location, Value i, ValueRange) {
          // Clamped loads first (kCountUnroll in flight), then the counts.
          SmallVector<Value> at, digits;
          for (int64_t k = 0; k < kCountUnroll; ++k) {
            at.push_back(add(i, ci(k * kThreads)));
            Value key = memref::LoadOp::create(
                b, loc, keys,
                ValueRange{arith::MinUIOp::create(b, loc, at.back(), last)});
            digits.push_back(emitRadixDigit(b, loc, key, p.key, pass));
          }
          for (int64_t k = 0; k < kCountUnroll; ++k)
            ifThen(cmp(arith::CmpIPredicate::ult, at[k], hi), [&] {
              memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                          c32(1), sHist,
                                          ValueRange{idx(digits[k])});
            });
          scf::YieldOp::create(b, loc);
        });
    gpu::BarrierOp::create(b, loc);
    Value mine = memref::LoadOp::create(b, loc, sHist, tid);
    memref::StoreOp::create(b, loc, mine, p.counts,
                            add(mul(bid, ci(kRadixBuckets)), tid));
    memref::StoreOp::create(b, loc, c32(0), sHist, tid);
    gridBarrier();
  }

  /// Phase 2: the first output position of digit `tid` in this block.
  Value firstPositions() {
    auto sums = scf::ForOp::create(
        b, loc, ci(0), blocks, ci(1), ValueRange{c32(0), c32(0)},
        [&](OpBuilder &, Location, Value blk, ValueRange acc) {
          Value c = memref::LoadOp::create(
              b, loc, p.counts, add(mul(blk, ci(kRadixBuckets)), tid));
          Value before = arith::SelectOp::create(
              b, loc, cmp(arith::CmpIPredicate::ult, blk, bid), c, c32(0));
          scf::YieldOp::create(
              b, loc, ValueRange{add(acc[0], c), add(acc[1], before)});
        });
    Value total = sums.getResult(0), before = sums.getResult(1);
    // Digits before this one, over all blocks.
    return add(blockExclusiveSum(total), before);
  }

  /// Exclusive sum of `x` (i32) over the block's threads, through sWarp;
  /// ends with a barrier after sWarp's writes.
  Value blockExclusiveSum(Value x) {
    Value incl = x;
    for (int64_t off = 1; off < 32; off *= 2) {
      auto up = gpu::ShuffleOp::create(b, loc, incl, off, 32,
                                       gpu::ShuffleMode::UP);
      Value has = cmp(arith::CmpIPredicate::uge, lane, ci(off));
      incl = add(incl, arith::SelectOp::create(b, loc, has,
                                               up.getShuffleResult(), c32(0)));
    }
    ifThen(cmp(arith::CmpIPredicate::eq, lane, ci(31)),
           [&] { memref::StoreOp::create(b, loc, incl, sWarp, warp); });
    gpu::BarrierOp::create(b, loc);
    Value prior = c32(0);
    for (int64_t w = 0; w < kWarps; ++w) {
      Value t = memref::LoadOp::create(b, loc, sWarp, ci(w));
      prior = add(prior, arith::SelectOp::create(
                             b, loc, cmp(arith::CmpIPredicate::ult, ci(w), warp),
                             t, c32(0)));
    }
    return arith::SubIOp::create(b, loc, add(prior, incl), x);
  }

  /// Phase 3: every tile of this block's run to its stable positions.
  /// Warp w holds the tile's elements [w * 32 * kItems, (w + 1) * 32 *
  /// kItems), kItems rows of 32 consecutive ones, and ranks them row by
  /// row against its own digit counters (sWarpCount[w][*]): lanes with
  /// the same digit find each other with 8 ballots, read the counter, and
  /// the first of them adds their number. A column scan per digit over the
  /// warps and a block scan over the digits then place every element in
  /// the tile reordered by digit. With staging, the reordered tile goes
  /// through shared memory so that consecutive threads store consecutive
  /// positions of a digit's run; without (operands too wide for shared
  /// memory), each element is stored from its lane.
  void scatterTiles(ArrayRef<Value> src, ArrayRef<Value> dst, int64_t pass,
                    Value offset) {
    Value last = ci(p.n - 1);
    Value tiles = arith::DivUIOp::create(
        b, loc, add(arith::SubIOp::create(b, loc, hi, lo),
                    ci(kRadixTileElements - 1)),
        ci(kRadixTileElements));
    scf::ForOp::create(
        b, loc, ci(0), tiles, ci(1), ValueRange{offset},
        [&](OpBuilder &, Location, Value j, ValueRange acc) {
          Value base = add(lo, mul(j, ci(kRadixTileElements)));
          Value count = arith::SubIOp::create(
              b, loc,
              arith::MinUIOp::create(b, loc, add(base, ci(kRadixTileElements)),
                                     hi),
              base);
          Value warpStart = mul(warp, ci(32 * kItems));
          struct Item {
            Value valid, digit, rank, counter;
            SmallVector<Value> values;
          };
          SmallVector<Item> items(kItems);
          for (int64_t k = 0; k < kItems; ++k) {
            Item &it = items[k];
            Value i = add(warpStart, add(lane, ci(k * 32)));
            it.valid = cmp(arith::CmpIPredicate::ult, i, count);
            Value at = arith::MinUIOp::create(b, loc, add(base, i), last);
            for (Value s : src)
              it.values.push_back(memref::LoadOp::create(b, loc, s, at));
            it.digit = emitRadixDigit(b, loc, it.values[0], p.key, pass);
            it.counter = add(mul(warp, ci(kRadixBuckets)), idx(it.digit));
          }
          for (int64_t k = 0; k < kItems; ++k) {
            Item &it = items[k];
            // Lanes with the same digit (and in range), by 8 ballots.
            Value peers = ballot(it.valid);
            for (int64_t bit = 0; bit < kRadixBits; ++bit) {
              Value set = arith::TruncIOp::create(
                  b, loc, b.getI1Type(),
                  arith::ShRUIOp::create(b, loc, it.digit, c32(bit)));
              Value votes = ballot(set);
              Value same = arith::SelectOp::create(
                  b, loc, set, votes,
                  arith::XOrIOp::create(b, loc, votes, c32(-1)));
              peers = arith::AndIOp::create(b, loc, peers, same);
            }
            Value below = popc(arith::AndIOp::create(b, loc, peers, ltMask));
            Value seen = memref::LoadOp::create(b, loc, sWarpCount, it.counter);
            it.rank = add(seen, below);
            syncWarp();
            Value first = arith::AndIOp::create(
                b, loc, it.valid, cmp(arith::CmpIPredicate::eq, below, c32(0)));
            ifThen(first, [&] {
              memref::StoreOp::create(b, loc, add(seen, popc(peers)),
                                      sWarpCount, it.counter);
            });
            syncWarp();
          }
          gpu::BarrierOp::create(b, loc);
          // Digit tid: each warp's first rank in the tile's run of the
          // digit (a column scan), the run's start in the reordered tile
          // (a block scan of the tile's digit counts), and where it goes.
          Value run = c32(0);
          for (int64_t w = 0; w < kWarps; ++w) {
            Value at = add(tid, ci(w * kRadixBuckets));
            Value c = memref::LoadOp::create(b, loc, sWarpCount, at);
            // Counters of digits the warp does not hold stay zero (the
            // warp clears only the ones it used).
            Value used = cmp(arith::CmpIPredicate::ne, c, c32(0));
            memref::StoreOp::create(
                b, loc, arith::SelectOp::create(b, loc, used, run, c32(0)),
                sWarpCount, at);
            run = add(run, c);
          }
          Value start = blockExclusiveSum(run);
          memref::StoreOp::create(b, loc, start, sStart, tid);
          memref::StoreOp::create(
              b, loc, arith::SubIOp::create(b, loc, acc[0], start), sBase, tid);
          gpu::BarrierOp::create(b, loc);
          for (int64_t k = 0; k < kItems; ++k)
            ifThen(items[k].valid, [&] {
              Item &it = items[k];
              Value d = idx(it.digit);
              Value local = add(
                  add(memref::LoadOp::create(b, loc, sStart, d),
                      memref::LoadOp::create(b, loc, sWarpCount, it.counter)),
                  it.rank);
              if (p.stage) {
                for (auto [v, st] : llvm::zip(it.values, sStage))
                  memref::StoreOp::create(b, loc, v, st, idx(local));
              } else {
                Value to = add(memref::LoadOp::create(b, loc, sBase, d), local);
                for (auto [v, out] : llvm::zip(it.values, dst))
                  memref::StoreOp::create(b, loc, v, out, idx(to));
              }
            });
          // Every lane of the warp has read its counters: clear them for
          // the next tile.
          syncWarp();
          for (int64_t k = 0; k < kItems; ++k)
            ifThen(items[k].valid, [&] {
              memref::StoreOp::create(b, loc, c32(0), sWarpCount,
                                      items[k].counter);
            });
          syncWarp();
          if (p.stage) {
            // The reordered tile, element i to sBase[digit] + i.
            gpu::BarrierOp::create(b, loc);
            for (int64_t k = 0; k < kItems; ++k) {
              Value i = add(tid, ci(k * kThreads));
              ifThen(cmp(arith::CmpIPredicate::ult, i, count), [&] {
                SmallVector<Value> values;
                for (Value st : sStage)
                  values.push_back(memref::LoadOp::create(b, loc, st, i));
                Value digit = emitRadixDigit(b, loc, values[0], p.key, pass);
                Value to = add(memref::LoadOp::create(b, loc, sBase, idx(digit)),
                               i32(i));
                for (auto [v, out] : llvm::zip(values, dst))
                  memref::StoreOp::create(b, loc, v, out, idx(to));
              });
            }
          }
          scf::YieldOp::create(b, loc, add(acc[0], run));
        });
  }
};

} // namespace


bool mlir::tessel::canUseGridRadixSort(func::FuncOp, SortOp sort,
                                       std::string &why) {
  return succeeded(plan(sort, why));
}

std::string mlir::tessel::describeGridRadixSort(SortOp sort) {
  std::string why;
  FailureOr<RadixPlan> p = plan(sort, why);
  return "grid radix sort: " + std::to_string(p->key.passes()) +
         " passes of 8 bits, at most " + std::to_string(p->blocks) +
         " persistent blocks x 256 threads (" +
         std::to_string(kRadixBlocksPerSM) +
         " per SM of the GPU that runs it; " +
         std::to_string(p->tilesPerBlock) + " tiles of " +
         std::to_string(kRadixTileElements) +
         " per block at most blocks), counts / grid barrier / ranked " +
         (p->stage ? "tiles reordered in shared memory" : "scatter") +
         " per pass";
}

LogicalResult mlir::tessel::emitGridRadixSort(func::FuncOp kernel,
                                              SortOp sort) {
  std::string why;
  FailureOr<RadixPlan> p = plan(sort, why);
  if (failed(p))
    return sort.emitOpError("grid radix sort: ") << why;
  OpBuilder b(sort);
  RadixEmitter{b, sort.getLoc(), *p}.emit(kernel);
  for (auto store : p->stores)
    store.erase();
  setKernelLaunch(kernel, {p->blocks, 1, 1}, {kThreads, 1, 1});
  Builder attrs(kernel.getContext());
  kernel->setAttr("nvvm.minctasm", attrs.getI32IntegerAttr(kRadixBlocksPerSM));
  kernel->setAttr(kResidentBlocksPerSmAttr,
                  attrs.getI64IntegerAttr(kRadixBlocksPerSM));
  return success();
}
