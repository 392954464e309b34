//===- CPUFlashAttention.cpp - tessel.attention as one cpu loop nest -*- C++ -*-===//
//
// softmax(Q K^T * scale + mask) V without materialising the scores:
// - a workgroup per batch element (the batch loops, linearised); it first
//   writes K^T of its element into a stack buffer [K1][K2 rounded up to a
//   vector] of f32 (zero past the last key), so that a vector of
//   consecutive keys is one load;
// - query rows in blocks of 8 (the last block's missing rows read the
//   last row and are never stored); per block, keys a vector at a time:
//     s[r] = sum_d Q[r, d] * K^T[d, keys]   8 vector accumulators, d loop
//     s = s * scale + mask, -inf past the last key;
//     online softmax per row: running max m and sum l (vector reductions),
//     the row of O (in a stack buffer) scaled by exp(m_old - m_new),
//     p = exp(s - m_new), O[r] += p[j] * V[key j] for each key of the vector;
// - O / l converted to the output's type and stored in its layout.
// A row whose keys are all -inf gives NaN (its sum is 0), as softmax does.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/CPU/CPUFlashAttention.h"

#include "tessel/Codegen/Common/AttentionKernel.h"
#include "tessel/Codegen/Common/KernelBindings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Query rows per block (vector accumulators of the score loop).
constexpr int64_t kRowBlock = 8;
/// The largest K^T buffer of a workgroup (on its thread's stack).
constexpr int64_t kMaxKeyBufferBytes = 256 * 1024;
/// N must be a multiple of this (the widest vector, 16 x f32).
constexpr int64_t kNMultiple = 16;

using CPUFlashPlan = AttentionLoops;

FailureOr<CPUFlashPlan> planCPUFlash(AttentionOp op, std::string &why) {
  auto fail = [&](const Twine &reason) {
    why = reason.str();
    return failure();
  };
  FailureOr<AttentionLoops> loops = getAttentionLoops(op, why);
  if (failed(loops))
    return failure();
  CPUFlashPlan plan = std::move(*loops);
  Block &region = op.getRegion().front();
  if (!region.without_terminator().empty())
    return fail("the region rewrites the scores");
  if (plan.n % kNMultiple)
    return fail("N is not a multiple of 16");
  if (plan.k1 * llvm::alignTo(plan.k2, kNMultiple) * 4 > kMaxKeyBufferBytes)
    return fail("K1 x K2 is larger than the 256 KiB key buffer");
  return plan;
}

class CPUFlashEmitter {
public:
  CPUFlashEmitter(OpBuilder &b, Location loc, const CPUFlashPlan &plan,
                  int64_t lanes)
      : b(b), loc(loc), plan(plan), lanes(lanes),
        vec(VectorType::get({lanes}, b.getF32Type())) {}

  void emit(Value q, Value k, Value v, Value mask, Value out);

private:
  Value c(int64_t x) { return arith::ConstantIndexOp::create(b, loc, x); }
  Value f32(double x) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(x));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value toF32(Value x) {
    Type t = getElementTypeOrSelf(x.getType());
    Type to = isa<VectorType>(x.getType())
                  ? Type(VectorType::get(cast<VectorType>(x.getType()).getShape(),
                                         b.getF32Type()))
                  : Type(b.getF32Type());
    if (t.isF32())
      return x;
    if (t.getIntOrFloatBitWidth() < 32)
      return arith::ExtFOp::create(b, loc, to, x);
    return arith::TruncFOp::create(b, loc, to, x);
  }
  Value splat(Value scalar) {
    return vector::BroadcastOp::create(b, loc, vec, scalar);
  }
  SmallVector<Value> indicesFor(AffineMap map, Value row, Value key,
                                Value col) {
    return attentionIndices(plan, map, batchIds, row, key, col);
  }
  /// scf.for over [lb, ub) step `step`, `body(iv)` inside.
  void forLoop(int64_t lb, int64_t ub, int64_t step,
               function_ref<void(Value)> body) {
    auto loop = scf::ForOp::create(b, loc, c(lb), c(ub), c(step));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    body(loop.getInductionVar());
  }

  OpBuilder &b;
  Location loc;
  const CPUFlashPlan &plan;
  int64_t lanes;
  VectorType vec;
  SmallVector<Value> batchIds;
};

void CPUFlashEmitter::emit(Value q, Value k, Value v, Value mask, Value out) {
  AttentionOp op = plan.op;
  Type f32Type = b.getF32Type();
  int64_t keysPadded = llvm::alignTo(plan.k2, lanes);
  auto forall = scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(plan.batch)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)}, ValueRange{}, std::nullopt);
  forall->setAttr(kWorkgroupsAttr, b.getUnitAttr());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forall.getBody());
  Value batchId = forall.getInductionVar(0);
  if (!plan.batchShape.empty())
    batchIds = delinearizeRow(b, loc, batchId, plan.batchShape);

  // K^T of this batch element, f32, zero past the last key.
  auto keyType = MemRefType::get({plan.k1, keysPadded}, f32Type);
  Value keysT = memref::AllocaOp::create(b, loc, keyType);
  forLoop(0, keysPadded, 1, [&](Value key) {
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         key, c(plan.k2));
    Value at = arith::MinUIOp::create(b, loc, key, c(plan.k2 - 1));
    forLoop(0, plan.k1, 1, [&](Value d) {
      Value x = toF32(memref::LoadOp::create(
          b, loc, k, indicesFor(op.getKeyMap(), {}, at, d)));
      x = arith::SelectOp::create(b, loc, inside, x, f32(0.0));
      memref::StoreOp::create(b, loc, x, keysT, ValueRange{d, key});
    });
  });

  // Per block of rows: O (f32), the running max and sum.
  Value o = memref::AllocaOp::create(
      b, loc, MemRefType::get({kRowBlock, plan.n}, f32Type));
  Value stats = memref::AllocaOp::create(
      b, loc, MemRefType::get({2, kRowBlock}, f32Type));
  Value scale = toF32(op.getScale());
  Value negInf = f32(-std::numeric_limits<double>::infinity());
  Value zeroVec = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(vec, b.getF32FloatAttr(0)));
  auto vecType = [&](Value mem) {
    return VectorType::get({lanes}, getElementTypeOrSelf(mem.getType()));
  };
  forLoop(0, plan.m, kRowBlock, [&](Value m0) {
    SmallVector<Value> rows;
    for (int64_t r = 0; r < kRowBlock; ++r)
      rows.push_back(arith::MinUIOp::create(b, loc, add(m0, c(r)),
                                            c(plan.m - 1)));
    for (int64_t r = 0; r < kRowBlock; ++r) {
      forLoop(0, plan.n, lanes, [&](Value col) {
        vector::StoreOp::create(b, loc, zeroVec, o, ValueRange{c(r), col});
      });
      memref::StoreOp::create(b, loc, negInf, stats, ValueRange{c(0), c(r)});
      memref::StoreOp::create(b, loc, f32(0.0), stats, ValueRange{c(1), c(r)});
    }
    forLoop(0, keysPadded, lanes, [&](Value key0) {
      // s[r] = sum_d Q[r, d] K^T[d, key0 ..].
      auto dLoop = scf::ForOp::create(
          b, loc, c(0), c(plan.k1), c(1),
          SmallVector<Value>(kRowBlock, zeroVec));
      {
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(dLoop.getBody());
        Value d = dLoop.getInductionVar();
        Value kv = vector::LoadOp::create(b, loc, vec, keysT,
                                          ValueRange{d, key0});
        SmallVector<Value> acc;
        for (int64_t r = 0; r < kRowBlock; ++r) {
          Value qv = toF32(memref::LoadOp::create(
              b, loc, q, indicesFor(op.getQueryMap(), rows[r], {}, d)));
          acc.push_back(vector::FMAOp::create(
              b, loc, splat(qv), kv, dLoop.getRegionIterArgs()[r]));
        }
        scf::YieldOp::create(b, loc, acc);
      }
      Value valid = vector::CreateMaskOp::create(
          b, loc, VectorType::get({lanes}, b.getI1Type()),
          ValueRange{arith::SubIOp::create(
              b, loc,
              arith::MinUIOp::create(b, loc, c(plan.k2),
                                     add(key0, c(lanes))),
              key0)});
      for (int64_t r = 0; r < kRowBlock; ++r) {
        Value s = arith::MulFOp::create(b, loc, dLoop.getResult(r),
                                        splat(scale));
        if (mask) {
          // The mask's values at this row and these keys: a vector load
          // when the keys are its contiguous index, else one at a time.
          AffineMap map = *op.getMaskMap();
          Value m;
          if (contiguousLoop(map) == plan.dims.k2[0]) {
            Value pass = arith::ConstantOp::create(
                b, loc,
                DenseElementsAttr::get(vecType(mask),
                                       b.getZeroAttr(getElementTypeOrSelf(
                                           mask.getType()))));
            m = vector::MaskedLoadOp::create(
                b, loc, vecType(mask), mask,
                indicesFor(map, rows[r], key0, {}), valid, pass);
          } else {
            SmallVector<Value> values;
            for (int64_t j = 0; j < lanes; ++j) {
              Value key = arith::MinUIOp::create(b, loc, add(key0, c(j)),
                                                 c(plan.k2 - 1));
              values.push_back(memref::LoadOp::create(
                  b, loc, mask, indicesFor(map, rows[r], key, {})));
            }
            m = vector::FromElementsOp::create(b, loc, vecType(mask), values);
          }
          s = arith::AddFOp::create(b, loc, s, toF32(m));
        }
        if (plan.k2 % lanes)
          s = arith::SelectOp::create(b, loc, valid, s, splat(negInf));
        // Online softmax for row r.
        Value oldMax = memref::LoadOp::create(b, loc, stats,
                                              ValueRange{c(0), c(r)});
        Value tileMax = vector::ReductionOp::create(
            b, loc, vector::CombiningKind::MAXIMUMF, s);
        Value newMax = arith::MaximumFOp::create(b, loc, oldMax, tileMax);
        Value noneYet = arith::CmpFOp::create(
            b, loc, arith::CmpFPredicate::OEQ, newMax, negInf);
        Value safeMax =
            arith::SelectOp::create(b, loc, noneYet, f32(0.0), newMax);
        Value correction = vector::ExtractOp::create(
            b, loc,
            math::ExpOp::create(
                b, loc,
                splat(arith::SubFOp::create(b, loc, oldMax, safeMax))),
            int64_t(0));
        Value p = math::ExpOp::create(
            b, loc, arith::SubFOp::create(b, loc, s, splat(safeMax)));
        Value oldSum = memref::LoadOp::create(b, loc, stats,
                                              ValueRange{c(1), c(r)});
        Value sum = arith::AddFOp::create(
            b, loc, arith::MulFOp::create(b, loc, oldSum, correction),
            vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD,
                                        p));
        memref::StoreOp::create(b, loc, newMax, stats, ValueRange{c(0), c(r)});
        memref::StoreOp::create(b, loc, sum, stats, ValueRange{c(1), c(r)});
        // O[r] = O[r] * correction + sum_j p[j] V[key0 + j].
        SmallVector<Value> pj;
        for (int64_t j = 0; j < lanes; ++j)
          pj.push_back(splat(vector::ExtractOp::create(b, loc, p, j)));
        forLoop(0, plan.n, lanes, [&](Value col) {
          Value acc = arith::MulFOp::create(
              b, loc,
              vector::LoadOp::create(b, loc, vec, o, ValueRange{c(r), col}),
              splat(correction));
          for (int64_t j = 0; j < lanes; ++j) {
            Value key = arith::MinUIOp::create(b, loc, add(key0, c(j)),
                                               c(plan.k2 - 1));
            Value vv = toF32(vector::LoadOp::create(
                b, loc, vecType(v), v,
                indicesFor(op.getValueMap(), {}, key, col)));
            acc = vector::FMAOp::create(b, loc, pj[j], vv, acc);
          }
          vector::StoreOp::create(b, loc, acc, o, ValueRange{c(r), col});
        });
      }
    });
    // O / sum for the rows of the block that exist.
    Type outElem = getElementTypeOrSelf(out.getType());
    auto outVec = VectorType::get({lanes}, outElem);
    for (int64_t r = 0; r < kRowBlock; ++r) {
      Value row = add(m0, c(r));
      Value exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           row, c(plan.m));
      auto ifExists = scf::IfOp::create(b, loc, exists);
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(ifExists.thenBlock());
      Value sum = memref::LoadOp::create(b, loc, stats,
                                         ValueRange{c(1), c(r)});
      Value inverse = splat(arith::DivFOp::create(b, loc, f32(1.0), sum));
      forLoop(0, plan.n, lanes, [&](Value col) {
        Value x = arith::MulFOp::create(
            b, loc,
            vector::LoadOp::create(b, loc, vec, o, ValueRange{c(r), col}),
            inverse);
        if (!outElem.isF32())
          x = outElem.getIntOrFloatBitWidth() < 32
                  ? arith::TruncFOp::create(b, loc, outVec, x).getResult()
                  : arith::ExtFOp::create(b, loc, outVec, x).getResult();
        vector::StoreOp::create(b, loc, x, out,
                                indicesFor(op.getOutputMap(), row, {}, col));
      });
    }
  });
}

} // namespace

bool mlir::tessel::canUseCPUFlashAttention(AttentionOp op, std::string &why) {
  return succeeded(planCPUFlash(op, why));
}

LogicalResult mlir::tessel::emitCPUFlashAttention(AttentionOp op,
                                                  int64_t vectorBits) {
  std::string why;
  FailureOr<CPUFlashPlan> plan = planCPUFlash(op, why);
  if (failed(plan))
    return op.emitOpError("cannot run as the cpu attention loop nest: ")
           << why;
  FailureOr<AttentionBindings> io =
      getAttentionBindings(op, "cpu attention loop nest");
  if (failed(io))
    return failure();
  OpBuilder b(io->store);
  int64_t lanes = std::max<int64_t>(1, vectorBits / 32);
  CPUFlashEmitter(b, op.getLoc(), *plan, lanes)
      .emit(io->q, io->k, io->v, io->mask, io->out);
  io->store.erase();
  op.erase();
  return success();
}
