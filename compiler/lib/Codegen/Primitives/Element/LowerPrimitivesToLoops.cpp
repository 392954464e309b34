//===- LowerPrimitivesToLoops.cpp - tessel-lower-primitives-to-loops -----===//
//
// The element level: each primitive op on buffers becomes the loops one
// thread runs for it, in the op's own order (the reference semantics,
// docs/design/primitives.md). Tiling before bufferization has already
// split the parallel loops across threads or workgroups; what reaches this
// pass is the sequential part (a row of a scan, the elements of a sort).
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Codegen/Primitives/RadixKey.h"
#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_LOWERPRIMITIVESTOLOOPS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

Value indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Clones the body of `region` with its arguments bound to `args` and
/// returns the yielded value.
Value inlineBody(OpBuilder &b, Region &region, ValueRange args) {
  Block &block = region.front();
  IRMapping map;
  map.map(block.getArguments(), args);
  for (Operation &op : block.without_terminator())
    b.clone(op, map);
  return map.lookupOrDefault(block.getTerminator()->getOperand(0));
}

/// `ivs` with `iv` inserted at position `dim`.
SmallVector<Value> withIndex(ValueRange ivs, int64_t dim, Value iv) {
  SmallVector<Value> out(ivs.begin(), ivs.end());
  out.insert(out.begin() + dim, iv);
  return out;
}

/// Loops over every dimension of memref `shaped` except `skip` (-1: none);
/// dimensions that tiling left dynamic are read with memref.dim.
void forEachPoint(OpBuilder &b, Location loc, Value shaped, int64_t skip,
                  function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<Value> lbs, ubs, steps;
  for (auto [d, size] : llvm::enumerate(shapeOf(shaped))) {
    if (static_cast<int64_t>(d) == skip)
      continue;
    lbs.push_back(indexConst(b, loc, 0));
    ubs.push_back(ShapedType::isDynamic(size)
                      ? memref::DimOp::create(b, loc, shaped, d).getResult()
                      : indexConst(b, loc, size));
    steps.push_back(indexConst(b, loc, 1));
  }
  scf::buildLoopNest(b, loc, lbs, ubs, steps, body);
}

/// `value` (an integer or index) as an index, sign-extended.
Value toIndex(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isIndex())
    return value;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

/// `value` (an index) as `type` (an integer or index type).
Value fromIndex(OpBuilder &b, Location loc, Value value, Type type) {
  if (type.isIndex())
    return value;
  return arith::IndexCastOp::create(b, loc, type, value);
}

//===----------------------------------------------------------------------===//
// scan
//===----------------------------------------------------------------------===//

void lowerScan(OpBuilder &b, ScanOp op) {
  Location loc = op.getLoc();
  int64_t dim = op.getDimension();
  int64_t n = shapeOf(op.getInput())[dim];
  bool inclusive = op.getInclusive();
  forEachPoint(b, loc, op.getInput(), dim,
               [&](OpBuilder &b, Location loc, ValueRange ivs) {
    if (n == 0) {
      // No elements: the total is the seed (exclusive) or left as is.
      return;
    }
    Value c0 = indexConst(b, loc, 0);
    Value first =
        inclusive
            ? memref::LoadOp::create(b, loc, op.getInput(), withIndex(ivs, dim, c0))
                  .getResult()
            : memref::LoadOp::create(b, loc, op.getAccumulator(), ivs).getResult();
    memref::StoreOp::create(b, loc, first, op.getOutput(), withIndex(ivs, dim, c0));
    auto loop = scf::ForOp::create(
        b, loc, indexConst(b, loc, 1), indexConst(b, loc, n),
        indexConst(b, loc, 1), ValueRange{first},
        [&](OpBuilder &b, Location loc, Value i, ValueRange iter) {
          Value at = inclusive ? i
                               : arith::SubIOp::create(b, loc, i,
                                                       indexConst(b, loc, 1))
                                     .getResult();
          Value x = memref::LoadOp::create(b, loc, op.getInput(),
                                           withIndex(ivs, dim, at));
          Value r = inlineBody(b, op.getRegion(), {iter[0], x});
          memref::StoreOp::create(b, loc, r, op.getOutput(),
                                  withIndex(ivs, dim, i));
          scf::YieldOp::create(b, loc, r);
        });
    Value total = loop.getResult(0);
    if (!inclusive) {
      Value last = memref::LoadOp::create(
          b, loc, op.getInput(), withIndex(ivs, dim, indexConst(b, loc, n - 1)));
      total = inlineBody(b, op.getRegion(), {total, last});
    }
    memref::StoreOp::create(b, loc, total, op.getAccumulator(), ivs);
  });
}

//===----------------------------------------------------------------------===//
// gather / scatter
//===----------------------------------------------------------------------===//

/// Indices of one batch element: index k of batch point `batchIvs` into
/// dimension map[k] of `target`.
SmallVector<Value> loadIndices(OpBuilder &b, Location loc, Value indices,
                               ValueRange batchIvs, size_t depth) {
  SmallVector<Value> out;
  bool explicitDepth = shapeOf(indices).size() > batchIvs.size();
  for (size_t k = 0; k < depth; ++k) {
    SmallVector<Value> at(batchIvs.begin(), batchIvs.end());
    if (explicitDepth)
      at.push_back(indexConst(b, loc, k));
    out.push_back(toIndex(b, loc, memref::LoadOp::create(b, loc, indices, at)));
  }
  return out;
}

/// The element of `target` that batch point `idx` (from loadIndices) and
/// slice point `sliceIvs` address.
SmallVector<Value> targetIndex(ArrayRef<int64_t> map, int64_t rank,
                               ArrayRef<Value> idx, ValueRange sliceIvs) {
  SmallVector<Value> out;
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t *k = llvm::find(map, d);
    out.push_back(k != map.end() ? idx[k - map.begin()] : sliceIvs[next++]);
  }
  return out;
}

void lowerGather(OpBuilder &b, GatherOp op) {
  Location loc = op.getLoc();
  int64_t batch = op.getBatchRank();
  ArrayRef<int64_t> map = op.getDimensionMap();
  ArrayRef<int64_t> src = shapeOf(op.getSource());
  forEachPoint(b, loc, op.getOutput(), -1,
               [&](OpBuilder &b, Location loc, ValueRange ivs) {
    SmallVector<Value> idx = loadIndices(b, loc, op.getIndices(),
                                         ivs.take_front(batch), map.size());
    // Out of range: clamped into [0, size - 1].
    for (size_t k = 0; k < idx.size(); ++k) {
      Value hi = indexConst(b, loc, src[map[k]] - 1);
      Value v = arith::MaxSIOp::create(b, loc, idx[k], indexConst(b, loc, 0));
      idx[k] = arith::MinSIOp::create(b, loc, v, hi);
    }
    Value x = memref::LoadOp::create(
        b, loc, op.getSource(),
        targetIndex(map, src.size(), idx, ivs.drop_front(batch)));
    memref::StoreOp::create(b, loc, x, op.getOutput(), ivs);
  });
}

void lowerScatter(OpBuilder &b, ScatterOp op) {
  Location loc = op.getLoc();
  int64_t batch = op.getBatchRank();
  ArrayRef<int64_t> map = op.getDimensionMap();
  ArrayRef<int64_t> dst = shapeOf(op.getOriginal());
  forEachPoint(b, loc, op.getUpdates(), -1,
               [&](OpBuilder &b, Location loc, ValueRange ivs) {
    SmallVector<Value> idx = loadIndices(b, loc, op.getIndices(),
                                         ivs.take_front(batch), map.size());
    // Out of range: the update is skipped.
    Value inRange;
    for (auto [k, v] : llvm::enumerate(idx)) {
      Value ge = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, v,
                                       indexConst(b, loc, 0));
      Value lt = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, v,
                                       indexConst(b, loc, dst[map[k]]));
      Value ok = arith::AndIOp::create(b, loc, ge, lt);
      inRange = inRange ? arith::AndIOp::create(b, loc, inRange, ok).getResult()
                        : ok;
    }
    auto guard = scf::IfOp::create(b, loc, inRange, /*withElse=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(guard.thenBlock()->getTerminator());
    SmallVector<Value> at =
        targetIndex(map, dst.size(), idx, ivs.drop_front(batch));
    Value update = memref::LoadOp::create(b, loc, op.getUpdates(), ivs);
    Value current = memref::LoadOp::create(b, loc, op.getOriginal(), at);
    Value r = inlineBody(b, op.getRegion(), {update, current});
    memref::StoreOp::create(b, loc, r, op.getOriginal(), at);
  });
}

//===----------------------------------------------------------------------===//
// sort, topk, arg_compare
//===----------------------------------------------------------------------===//

/// while (p > 0 && goesBefore(p, p - 1)) { move(p, p - 1); --p; }, from
/// `start`; returns the final p. The insertion step of sort and topk.
Value emitInsertionWalk(
    OpBuilder &b, Location loc, Value start,
    function_ref<Value(OpBuilder &, Location, Value, Value)> goesBefore,
    function_ref<void(OpBuilder &, Location, Value, Value)> move) {
  Value c0 = indexConst(b, loc, 0), c1 = indexConst(b, loc, 1);
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{b.getIndexType()}, ValueRange{start},
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value p = args[0];
        Value positive =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, p, c0);
        auto check = scf::IfOp::create(
            b, loc, positive,
            [&](OpBuilder &b, Location loc) {
              Value pm1 = arith::SubIOp::create(b, loc, p, c1);
              scf::YieldOp::create(b, loc, goesBefore(b, loc, p, pm1));
            },
            [&](OpBuilder &b, Location loc) {
              scf::YieldOp::create(
                  b, loc,
                  ValueRange{
                      arith::ConstantIntOp::create(b, loc, 0, 1).getResult()});
            });
        scf::ConditionOp::create(b, loc, check.getResult(0), p);
      },
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value pm1 = arith::SubIOp::create(b, loc, args[0], c1);
        move(b, loc, args[0], pm1);
        scf::YieldOp::create(b, loc, pm1);
      });
  return loop.getResult(0);
}

/// Stable insertion sort of each line along `dimension` (the reference:
/// long sorts are split into merge passes before codegen).
void lowerSort(OpBuilder &b, SortOp op) {
  Location loc = op.getLoc();
  int64_t dim = op.getDimension();
  int64_t n = op.getOperandType().getShape()[dim];
  ValueRange operands = op.getOutputs();
  forEachPoint(b, loc, op.getOutputs()[0], dim,
               [&](OpBuilder &b, Location loc, ValueRange ivs) {
    if (n < 2)
      return;
    Value c1 = indexConst(b, loc, 1);
    scf::ForOp::create(
        b, loc, c1, indexConst(b, loc, n), c1, ValueRange{},
        [&](OpBuilder &b, Location loc, Value i, ValueRange) {
          // Element i moves down while it goes before its predecessor.
          emitInsertionWalk(
              b, loc, i,
              [&](OpBuilder &b, Location loc, Value j, Value jm1) {
                SmallVector<Value> args;
                for (Value v : operands) {
                  args.push_back(memref::LoadOp::create(
                      b, loc, v, withIndex(ivs, dim, j)));
                  args.push_back(memref::LoadOp::create(
                      b, loc, v, withIndex(ivs, dim, jm1)));
                }
                return inlineBody(b, op.getRegion(), args);
              },
              [&](OpBuilder &b, Location loc, Value j, Value jm1) {
                for (Value v : operands) {
                  Value a = memref::LoadOp::create(b, loc, v,
                                                   withIndex(ivs, dim, j));
                  Value p = memref::LoadOp::create(b, loc, v,
                                                   withIndex(ivs, dim, jm1));
                  memref::StoreOp::create(b, loc, p, v, withIndex(ivs, dim, j));
                  memref::StoreOp::create(b, loc, a, v,
                                          withIndex(ivs, dim, jm1));
                }
              });
          scf::YieldOp::create(b, loc);
        });
  });
}

/// A radix sort (RadixKey.h) of one thread: per 8-bit digit, least
/// significant first, count the digits, scan the counts into first
/// positions and move every element to its position in order (stable),
/// between the operands and their scratch buffers.
LogicalResult lowerRadixSort(OpBuilder &b, SortOp op) {
  Location loc = op.getLoc();
  std::string why;
  std::optional<RadixKey> key = matchRadixKey(op, why);
  if (!key)
    return op.emitOpError("has radix-sort workspaces but is not a radix sort: ")
           << why;
  int64_t n = op.getOperandType().getShape()[0];
  size_t operands = op.getOutputs().size();
  SmallVector<Value> data(op.getOutputs());
  SmallVector<Value> scratch(op.getInputs().take_front(operands));
  Value counts = op.getInputs().back();
  Value c0 = indexConst(b, loc, 0), c1 = indexConst(b, loc, 1);
  Value cN = indexConst(b, loc, n), cB = indexConst(b, loc, kRadixBuckets);
  auto i32 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 32).getResult();
  };
  auto forRange = [&](Value end, ValueRange init,
                      function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    return scf::ForOp::create(
        b, loc, c0, end, c1, init,
        [&](OpBuilder &, Location, Value i, ValueRange iter) {
          scf::YieldOp::create(b, loc, body(i, iter));
        });
  };
  auto digitAt = [&](ArrayRef<Value> from, Value i, int64_t pass) {
    Value k = memref::LoadOp::create(b, loc, from[0], i);
    Value d = emitRadixDigit(b, loc, k, *key, pass);
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), d).getResult();
  };
  SmallVector<Value> src = data, dst = scratch;
  for (int64_t pass = 0; pass < key->passes(); ++pass) {
    forRange(cB, {}, [&](Value d, ValueRange) {
      memref::StoreOp::create(b, loc, i32(0), counts, d);
      return SmallVector<Value>{};
    });
    forRange(cN, {}, [&](Value i, ValueRange) {
      Value d = digitAt(src, i, pass);
      Value c = memref::LoadOp::create(b, loc, counts, d);
      memref::StoreOp::create(b, loc, arith::AddIOp::create(b, loc, c, i32(1)),
                              counts, d);
      return SmallVector<Value>{};
    });
    forRange(cB, {i32(0)}, [&](Value d, ValueRange run) {
      Value c = memref::LoadOp::create(b, loc, counts, d);
      memref::StoreOp::create(b, loc, run[0], counts, d);
      return SmallVector<Value>{arith::AddIOp::create(b, loc, run[0], c)};
    });
    forRange(cN, {}, [&](Value i, ValueRange) {
      Value d = digitAt(src, i, pass);
      Value pos = memref::LoadOp::create(b, loc, counts, d);
      memref::StoreOp::create(b, loc, arith::AddIOp::create(b, loc, pos, i32(1)),
                              counts, d);
      Value at = arith::IndexCastOp::create(b, loc, b.getIndexType(), pos);
      for (auto [from, to] : llvm::zip(src, dst))
        memref::StoreOp::create(b, loc, memref::LoadOp::create(b, loc, from, i),
                                to, at);
      return SmallVector<Value>{};
    });
    std::swap(src, dst);
  }
  // An odd number of passes ends in the scratch buffers.
  if (key->passes() % 2 == 1)
    forRange(cN, {}, [&](Value i, ValueRange) {
      for (auto [from, to] : llvm::zip(scratch, data))
        memref::StoreOp::create(b, loc, memref::LoadOp::create(b, loc, from, i),
                                to, i);
      return SmallVector<Value>{};
    });
  return success();
}

/// Keeps the k first elements of each line in the outputs, in order, by
/// insertion: O(n k) per line.
void lowerTopk(OpBuilder &b, TopkOp op) {
  Location loc = op.getLoc();
  int64_t dim = op.getDimension();
  int64_t n = shapeOf(op.getValues())[dim];
  int64_t k = shapeOf(op.getOutputValues())[dim];
  Value outV = op.getOutputValues(), outI = op.getOutputIndices();
  Type indexType = cast<ShapedType>(outI.getType()).getElementType();
  forEachPoint(b, loc, op.getValues(), dim,
               [&](OpBuilder &b, Location loc, ValueRange ivs) {
    if (k == 0 || n == 0)
      return;
    Value c0 = indexConst(b, loc, 0), c1 = indexConst(b, loc, 1);
    Value last = indexConst(b, loc, k - 1);
    scf::ForOp::create(
        b, loc, c0, indexConst(b, loc, n), c1, ValueRange{},
        [&](OpBuilder &b, Location loc, Value i, ValueRange) {
          Value x = memref::LoadOp::create(b, loc, op.getValues(),
                                           withIndex(ivs, dim, i));
          Value xi = op.getInputs().size() == 2
                         ? toIndex(b, loc,
                                   memref::LoadOp::create(
                                       b, loc, op.getInputs()[1],
                                       withIndex(ivs, dim, i)))
                         : i;
          xi = fromIndex(b, loc, xi, indexType);
          // While fewer than k are kept, x takes the next free slot; after
          // that it enters only if it goes before the last kept element.
          Value filling = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::slt, i, indexConst(b, loc, k));
          auto enters = scf::IfOp::create(
              b, loc, filling,
              [&](OpBuilder &b, Location loc) {
                scf::YieldOp::create(
                    b, loc,
                    ValueRange{arith::ConstantIntOp::create(b, loc, 1, 1)
                                   .getResult()});
              },
              [&](OpBuilder &b, Location loc) {
                Value worst = memref::LoadOp::create(b, loc, outV,
                                                     withIndex(ivs, dim, last));
                scf::YieldOp::create(
                    b, loc, inlineBody(b, op.getRegion(), {x, worst}));
              });
          auto guard = scf::IfOp::create(b, loc, enters.getResult(0), false);
          {
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPoint(guard.thenBlock()->getTerminator());
            Value start = arith::MinSIOp::create(b, loc, i, last);
            // Shift kept elements that x goes before one slot down.
            Value pos = emitInsertionWalk(
                b, loc, start,
                [&](OpBuilder &b, Location loc, Value, Value pm1) {
                  Value prev = memref::LoadOp::create(
                      b, loc, outV, withIndex(ivs, dim, pm1));
                  return inlineBody(b, op.getRegion(), {x, prev});
                },
                [&](OpBuilder &b, Location loc, Value p, Value pm1) {
                  for (Value v : {outV, outI}) {
                    Value prev = memref::LoadOp::create(
                        b, loc, v, withIndex(ivs, dim, pm1));
                    memref::StoreOp::create(b, loc, prev, v,
                                            withIndex(ivs, dim, p));
                  }
                });
            memref::StoreOp::create(b, loc, x, outV, withIndex(ivs, dim, pos));
            memref::StoreOp::create(b, loc, xi, outI, withIndex(ivs, dim, pos));
          }
          scf::YieldOp::create(b, loc);
        });
  });
}

void lowerArgCompare(OpBuilder &b, ArgCompareOp op) {
  Location loc = op.getLoc();
  int64_t dim = op.getDimension();
  int64_t n = shapeOf(op.getInput())[dim];
  Type indexType =
      cast<ShapedType>(op.getOutputIndex().getType()).getElementType();
  forEachPoint(b, loc, op.getInput(), dim,
               [&](OpBuilder &b, Location loc, ValueRange ivs) {
    Value best = memref::LoadOp::create(b, loc, op.getOutputValue(), ivs);
    Value bestIndex = memref::LoadOp::create(b, loc, op.getOutputIndex(), ivs);
    Value base = op.getIndexBase() ? op.getIndexBase()
                                   : indexConst(b, loc, 0);
    auto loop = scf::ForOp::create(
        b, loc, indexConst(b, loc, 0), indexConst(b, loc, n),
        indexConst(b, loc, 1), ValueRange{best, bestIndex},
        [&](OpBuilder &b, Location loc, Value i, ValueRange iter) {
          Value x = memref::LoadOp::create(b, loc, op.getInput(),
                                           withIndex(ivs, dim, i));
          Value better = inlineBody(b, op.getRegion(), {x, iter[0]});
          Value xi = fromIndex(b, loc, arith::AddIOp::create(b, loc, i, base),
                               indexType);
          scf::YieldOp::create(
              b, loc,
              ValueRange{arith::SelectOp::create(b, loc, better, x, iter[0]),
                         arith::SelectOp::create(b, loc, better, xi, iter[1])});
        });
    memref::StoreOp::create(b, loc, loop.getResult(0), op.getOutputValue(), ivs);
    memref::StoreOp::create(b, loc, loop.getResult(1), op.getOutputIndex(), ivs);
  });
}

} // namespace

namespace mlir::tessel {

/// Lowers every primitive op on buffers in `root` to loops.
LogicalResult lowerPrimitivesToLoops(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isPrimitiveOp(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    if (op->getNumResults() != 0)
      return op->emitOpError("must be bufferized before it is lowered to loops");
    OpBuilder b(op);
    if (auto scan = dyn_cast<ScanOp>(op))
      lowerScan(b, scan);
    else if (auto gather = dyn_cast<GatherOp>(op))
      lowerGather(b, gather);
    else if (auto scatter = dyn_cast<ScatterOp>(op))
      lowerScatter(b, scatter);
    else if (auto sort = dyn_cast<SortOp>(op); sort && hasRadixWorkspaces(sort)) {
      if (failed(lowerRadixSort(b, sort)))
        return failure();
    } else if (auto sort = dyn_cast<SortOp>(op))
      lowerSort(b, sort);
    else if (auto topk = dyn_cast<TopkOp>(op))
      lowerTopk(b, topk);
    else if (auto arg = dyn_cast<ArgCompareOp>(op))
      lowerArgCompare(b, arg);
    op->erase();
  }
  return success();
}

namespace {
struct LowerPrimitivesToLoopsPass
    : impl::LowerPrimitivesToLoopsBase<LowerPrimitivesToLoopsPass> {
  void runOnOperation() override {
    if (failed(lowerPrimitivesToLoops(getOperation())))
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
