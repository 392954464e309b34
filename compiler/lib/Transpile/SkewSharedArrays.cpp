//===- SkewSharedArrays.cpp - diagonal layouts for __shared__ arrays ------===//
//
// tessel-skew-shared-arrays: a wavefront kernel walks the anti-diagonals
// of a shared tile, thread tx on cell (m - tx, tx) at step m (nw's
// `temp[m - tx + 1][tx + 1]`). In the row-major tile the threads of a step
// are W - 1 elements apart, so the vectorized thread loop gathers and
// scatters every access. Stored skewed,
//
//   a[r][c]  ->  a'[r + c][c]        (a' has H + W - 1 rows of W)
//
// the cells of an anti-diagonal share a row of a' and sit next to each
// other: plain vector loads and stores. Accesses along a row of `a` become
// strided instead (a'[r + tx][tx], W + 1 apart), so the layout is chosen
// by counting: each access in a thread loop costs its weight (the trip
// counts of the uniform loops around it) when the threads' addresses are
// neither equal nor adjacent, a store `stridedStore` times that (2: on
// x86 a scatter costs about two gathers, and scatters between a tile
// copy's global loads keep fewer of those loads in flight); the array is
// skewed (r + c, or r - c + W - 1 for main diagonals) when that lowers the
// total. nw: temp's wavefront loads and stores (31 steps) against its
// copies, so temp is skewed; ref's 31 wavefront loads against its copy's
// 16 row stores (32 as scatters), so ref stays row-major (its copy from
// global memory contiguous on both sides: nw at 16384 on one thread 1.15x
// faster than with both skewed on the AMD build machine, 1.08x at 16
// threads on the H200 host's Xeon over four calls).
//
// The remap keeps every element in its own place for subscripts within
// their dimensions, which C and CUDA require (a[1][W] is not a[2][0], even
// though the address is inside the array; nor is `p = a[1]; p[W]`). An
// array is rewritten only when every use is a load or a store of its
// element type at a[r][c] (the frontend's two GEPs, either folded away for
// a zero subscript) or at a flat index `((T *)a)[i]` (what a[0][c] becomes
// when a[0] folds away), which is taken apart as a[i / W][i % W]; any
// other use (a pointer that escapes, a memcpy) leaves it as it is, and so
// does a tile that would more than double (W > H + 1: the tile is on the
// worker's stack).
//
//===----------------------------------------------------------------------===//

#include "tessel/Transpile/SkewSharedArrays.h"
#include "tessel/Transpile/ThreadLoops.h"

#include "tessel/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_SKEWSHAREDARRAYSPASS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

using Index = llvm::PointerUnion<IntegerAttr, Value>;

/// One element access: a[row][col], or the element `flat` of the array
/// taken as one row (`((T *)a)[i]`, and a[0][c] with its a[0] folded
/// away, which look the same). `addressUse` is the load's or store's
/// address operand.
struct Access {
  OpOperand *addressUse;
  Index row, col;
  Index flat = nullptr;
};

bool isAddressOf(OpOperand &use, Type element) {
  Operation *user = use.getOwner();
  if (auto load = dyn_cast<LLVM::LoadOp>(user))
    return load.getType() == element;
  if (auto store = dyn_cast<LLVM::StoreOp>(user))
    return use.getOperandNumber() == store.getAddrMutable().getOperandNumber() &&
           store.getValue().getType() == element;
  return false;
}

/// The one index of a single-index GEP, or null.
std::optional<Index> singleIndex(LLVM::GEPOp gep) {
  auto indices = gep.getIndices();
  if (indices.size() != 1)
    return std::nullopt;
  return Index(*indices.begin());
}

/// Every element access of `slot` (type [H x [W x T]]), or failure when it
/// has a use of another kind.
FailureOr<SmallVector<Access>> collectAccesses(LLVM::AllocaOp slot,
                                               LLVM::LLVMArrayType rowType,
                                               Type element) {
  Builder b(slot.getContext());
  IntegerAttr zero = b.getI64IntegerAttr(0);
  SmallVector<Access> accesses;
  // Element accesses through `ptr` = &a[row][0].
  auto addRow = [&](Value ptr, Index row) -> LogicalResult {
    for (OpOperand &use : ptr.getUses()) {
      if (isAddressOf(use, element)) {
        accesses.push_back({&use, row, zero});
        continue;
      }
      auto gep = dyn_cast<LLVM::GEPOp>(use.getOwner());
      std::optional<Index> col = gep ? singleIndex(gep) : std::nullopt;
      if (!col || gep.getBase() != ptr || gep.getElemType() != element)
        return failure();
      for (OpOperand &elementUse : gep.getResult().getUses()) {
        if (!isAddressOf(elementUse, element))
          return failure();
        accesses.push_back({&elementUse, row, *col});
      }
    }
    return success();
  };
  for (OpOperand &use : slot.getResult().getUses()) {
    if (isAddressOf(use, element)) {
      accesses.push_back({&use, zero, zero});
      continue;
    }
    auto gep = dyn_cast<LLVM::GEPOp>(use.getOwner());
    std::optional<Index> index = gep ? singleIndex(gep) : std::nullopt;
    if (!index || gep.getBase() != slot.getResult())
      return failure();
    if (gep.getElemType() == rowType) {
      if (failed(addRow(gep.getResult(), *index)))
        return failure();
      continue;
    }
    // A flat element index.
    if (gep.getElemType() != element)
      return failure();
    for (OpOperand &elementUse : gep.getResult().getUses()) {
      if (!isAddressOf(elementUse, element))
        return failure();
      accesses.push_back({&elementUse, nullptr, nullptr, *index});
    }
  }
  return accesses;
}

/// The coefficient of a thread loop's index `iv` in values of its body:
/// `v` is `iv` times it plus values uniform across the threads (through
/// casts, add, sub, mul by a constant, and the carried values of loops
/// inside: `ty` of `for (ty = 0; ty < 16; ty++)` is uniform); nullopt when
/// it is not known to be.
class Coefficients {
public:
  Coefficients(scf::ParallelOp threads)
      : iv(threads.getInductionVars()[0]), region(&threads.getRegion()) {}

  std::optional<int64_t> of(Value v) {
    if (v == iv)
      return 1;
    if (!region->isAncestor(v.getParentRegion()))
      return 0;
    auto known = memo.find(v);
    if (known != memo.end())
      return known->second;
    if (memo.size() > 4096)
      return std::nullopt;
    if (auto arg = dyn_cast<BlockArgument>(v))
      return memo[v] = ofArgument(arg);
    // Unknown while the operands are visited (a cycle through a loop's
    // carried values that does not go through ofArgument).
    memo[v] = std::nullopt;
    return memo[v] = ofOp(v.getDefiningOp());
  }

private:
  /// A loop's carried value: its coefficient on entry, if each iteration
  /// yields a value of the same coefficient (assumed while checking).
  std::optional<int64_t> carried(Value arg, Value init, Value yielded) {
    std::optional<int64_t> c = of(init);
    if (!c)
      return std::nullopt;
    // What is derived under the assumption goes if it fails.
    auto saved = memo;
    memo[arg] = c;
    if (of(yielded) != c) {
      memo = std::move(saved);
      return std::nullopt;
    }
    return c;
  }

  std::optional<int64_t> ofArgument(BlockArgument arg) {
    Operation *owner = arg.getOwner()->getParentOp();
    unsigned n = arg.getArgNumber();
    if (auto p = dyn_cast<scf::ParallelOp>(owner))
      return n < p.getNumLoops() ? std::optional<int64_t>(0) : std::nullopt;
    if (auto f = dyn_cast<scf::ForOp>(owner)) {
      if (arg == f.getInductionVar())
        return 0;
      unsigned i = n - f.getNumInductionVars();
      return carried(arg, f.getInitArgs()[i],
                     f.getBody()->getTerminator()->getOperand(i));
    }
    if (auto w = dyn_cast<scf::WhileOp>(owner)) {
      if (arg.getOwner() == w.getBeforeBody())
        return carried(arg, w.getInits()[n],
                       w.getAfterBody()->getTerminator()->getOperand(n));
      return of(w.getConditionOp().getArgs()[n]);
    }
    return std::nullopt;
  }

  std::optional<int64_t> ofOp(Operation *op) {
    if (matchPattern(op->getResult(0), m_Constant()))
      return 0;
    if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
            arith::IndexCastOp, arith::IndexCastUIOp>(op))
      return of(op->getOperand(0));
    if (isa<arith::AddIOp, arith::SubIOp>(op)) {
      std::optional<int64_t> l = of(op->getOperand(0)), r = of(op->getOperand(1));
      if (!l || !r)
        return std::nullopt;
      return isa<arith::AddIOp>(op) ? llvm::checkedAdd(*l, *r)
                                    : llvm::checkedSub(*l, *r);
    }
    if (isa<arith::MulIOp>(op)) {
      for (int i = 0; i < 2; ++i)
        if (std::optional<int64_t> c = getConstantIntValue(op->getOperand(i))) {
          std::optional<int64_t> o = of(op->getOperand(1 - i));
          return o ? llvm::checkedMul(*c, *o) : std::nullopt;
        }
    }
    // Other pure ops: uniform when their operands are.
    if (!isRecomputableOp(op))
      return std::nullopt;
    for (Value o : op->getOperands())
      if (of(o) != std::optional<int64_t>(0))
        return std::nullopt;
    return 0;
  }

  Value iv;
  Region *region;
  llvm::DenseMap<Value, std::optional<int64_t>> memo;
};

std::optional<int64_t> indexCoefficient(Index index, Coefficients &c) {
  if (isa<IntegerAttr>(index))
    return 0;
  return c.of(cast<Value>(index));
}

/// How many times `op` runs per block, as far as the loops around it
/// tell: an scf.for's constant trip count, 16 for any other loop.
int64_t weight(Operation *op, Operation *stop) {
  int64_t w = 1;
  for (Operation *p = op->getParentOp(); p && p != stop; p = p->getParentOp()) {
    if (!isa<scf::ForOp, scf::WhileOp>(p))
      continue;
    int64_t trips = 16;
    if (auto loop = dyn_cast<scf::ForOp>(p)) {
      std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
      std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
      std::optional<int64_t> step = getConstantIntValue(loop.getStep());
      if (lb && ub && step && *step > 0)
        trips = std::max<int64_t>(0, (*ub - *lb + *step - 1) / *step);
    }
    const int64_t cap = int64_t(1) << 40;
    w = trips > 0 && w > cap / trips ? cap : std::min(w * trips, cap);
  }
  return w;
}

/// An access's thread-index coefficients (d row / d tx, d col / d tx) and
/// weight; nullopt for accesses outside thread loops or of unknown form.
struct AccessStride {
  int64_t dRow, dCol, weight;
};

std::optional<AccessStride> strideOf(const Access &a, int64_t width,
                                     Operation *blockLoop,
                                     const SkewCostModel &costs) {
  Operation *user = a.addressUse->getOwner();
  scf::ParallelOp threads = enclosingThreadLoop(user);
  if (!threads)
    return std::nullopt;
  Coefficients c(threads);
  std::optional<int64_t> dRow, dCol;
  if (a.flat) {
    // Whole rows apart, or within a row (the common cases).
    std::optional<int64_t> d = indexCoefficient(a.flat, c);
    if (!d)
      return std::nullopt;
    dRow = *d % width == 0 ? *d / width : 0;
    dCol = *d % width == 0 ? 0 : *d;
  } else {
    dRow = indexCoefficient(a.row, c);
    dCol = indexCoefficient(a.col, c);
  }
  if (!dRow || !dCol)
    return std::nullopt;
  int64_t w = weight(user, blockLoop);
  if (isa<LLVM::StoreOp>(user))
    w = llvm::checkedMul(w, costs.stridedStore).value_or(int64_t(1) << 40);
  return AccessStride{*dRow, *dCol, w};
}

/// Weighted count of the accesses whose threads neither share nor walk
/// along an address, with rows of `width` elements and row index
/// r + skew * c.
int64_t cost(ArrayRef<AccessStride> strides, int64_t width, int skew) {
  int64_t total = 0;
  for (const AccessStride &p : strides) {
    std::optional<int64_t> skewed = llvm::checkedMul<int64_t>(skew, p.dCol);
    std::optional<int64_t> row =
        skewed ? llvm::checkedAdd(p.dRow, *skewed) : std::nullopt;
    std::optional<int64_t> stride =
        row ? llvm::checkedMul(*row, width) : std::nullopt;
    stride = stride ? llvm::checkedAdd(*stride, p.dCol) : std::nullopt;
    if (!stride || (*stride != 0 && *stride != 1 && *stride != -1))
      total += p.weight;
  }
  return total;
}

/// Widened values by (value, signed).
using WidenMemo = llvm::DenseMap<std::pair<Value, int>, Value>;

Value widenOnce(OpBuilder &b, Location loc, Value v, bool isSigned,
                WidenMemo &memo, unsigned depth);

/// `v` as an i64 equal to ext(v) (sign or zero extension), the arithmetic
/// of CUDA's `int` subscripts redone in i64 where its flags allow it (nsw
/// adds, subs and muls under a sign extension, nuw under a zero one). LLVM's
/// scalar evolution does not look through the extension of an i32 sum of
/// the thread index (`sext(m - tx + 1)`), so the skewed subscripts would
/// still be gathers; redone in i64 they are affine in the thread loop's
/// index.
Value widen(OpBuilder &b, Location loc, Value v, bool isSigned,
            WidenMemo &memo, unsigned depth = 0) {
  std::pair<Value, int> key(v, isSigned);
  auto known = memo.find(key);
  if (known != memo.end())
    return known->second;
  Value w = widenOnce(b, loc, v, isSigned, memo, depth);
  memo[key] = w;
  return w;
}

Value widenOnce(OpBuilder &b, Location loc, Value v, bool isSigned,
                WidenMemo &memo, unsigned depth) {
  Type i64 = b.getI64Type();
  if (v.getType().isIndex())
    return arith::IndexCastOp::create(b, loc, i64, v);
  auto leaf = [&]() -> Value {
    if (v.getType() == i64)
      return v;
    if (isSigned)
      return arith::ExtSIOp::create(b, loc, i64, v);
    return arith::ExtUIOp::create(b, loc, i64, v);
  };
  Operation *op = v.getDefiningOp();
  if (!op || depth > 16)
    return leaf();
  bool wide = v.getType() == i64;
  if (auto ext = dyn_cast<arith::ExtSIOp>(op))
    return wide || isSigned ? widen(b, loc, ext.getIn(), true, memo, depth + 1) : leaf();
  if (auto ext = dyn_cast<arith::ExtUIOp>(op))
    return widen(b, loc, ext.getIn(), false, memo, depth + 1);
  if (wide)
    return v;
  // A thread index (below 2^31 in CUDA) cast to an int of 32 bits or more.
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op) &&
      v.getType().getIntOrFloatBitWidth() >= 32)
    if (auto arg = dyn_cast<BlockArgument>(op->getOperand(0)))
      if (isThreadLoop(arg.getOwner()->getParentOp()))
        return arith::IndexCastOp::create(b, loc, i64, arg);
  auto flags = arith::IntegerOverflowFlags::none;
  if (auto o = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(op))
    flags = o.getOverflowAttr().getValue();
  bool exact = isSigned ? bitEnumContainsAll(flags, arith::IntegerOverflowFlags::nsw)
                        : bitEnumContainsAll(flags, arith::IntegerOverflowFlags::nuw);
  if (!exact || !isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op))
    return leaf();
  Value l = widen(b, loc, op->getOperand(0), isSigned, memo, depth + 1);
  Value r = widen(b, loc, op->getOperand(1), isSigned, memo, depth + 1);
  flags = isSigned ? arith::IntegerOverflowFlags::nsw : arith::IntegerOverflowFlags::nuw;
  if (isa<arith::AddIOp>(op))
    return arith::AddIOp::create(b, loc, l, r, flags);
  if (isa<arith::SubIOp>(op))
    return arith::SubIOp::create(b, loc, l, r, flags);
  return arith::MulIOp::create(b, loc, l, r, flags);
}

/// A GEP subscript as an i64 (GEP indices are signed).
Value subscript(OpBuilder &b, Location loc, Index index, WidenMemo &memo) {
  if (auto attr = dyn_cast<IntegerAttr>(index))
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(attr.getInt()));
  return widen(b, loc, cast<Value>(index), /*isSigned=*/true, memo);
}

} // namespace

bool mlir::tessel::skewSharedArray(LLVM::AllocaOp slot,
                                   const SkewCostModel &costs) {
  auto tileType = dyn_cast<LLVM::LLVMArrayType>(slot.getElemType());
  auto rowType = tileType ? dyn_cast<LLVM::LLVMArrayType>(tileType.getElementType())
                          : nullptr;
  std::optional<int64_t> count = getConstantIntValue(slot.getArraySize());
  if (!rowType || !count || *count != 1 || !isBlockLoop(slot->getParentOp()) ||
      isa<LLVM::LLVMArrayType, LLVM::LLVMStructType>(rowType.getElementType()))
    return false;
  // Empty tiles, and tiles that would more than double.
  int64_t height = tileType.getNumElements(), width = rowType.getNumElements();
  if (height == 0 || width == 0 || width > height + 1)
    return false;
  Type element = rowType.getElementType();
  FailureOr<SmallVector<Access>> accesses = collectAccesses(slot, rowType, element);
  if (failed(accesses))
    return false;
  SmallVector<AccessStride> strides;
  for (const Access &a : *accesses)
    if (std::optional<AccessStride> p =
            strideOf(a, width, slot->getParentOp(), costs))
      strides.push_back(*p);
  int64_t before = cost(strides, width, 0);
  int skew = cost(strides, width, 1) <= cost(strides, width, -1) ? 1 : -1;
  if (cost(strides, width, skew) >= before)
    return false;

  // a'[r + c][c] (or a'[r - c + W - 1][c]) in a tile of H + W - 1 rows.
  OpBuilder b(slot);
  auto skewed = LLVM::LLVMArrayType::get(rowType, height + width - 1);
  auto newSlot = LLVM::AllocaOp::create(b, slot.getLoc(), slot.getType(), skewed,
                                        slot.getArraySize(), slot.getAlignment().value_or(0));
  Type ptr = slot.getType();
  for (const Access &a : *accesses) {
    Operation *user = a.addressUse->getOwner();
    b.setInsertionPoint(user);
    Location loc = user->getLoc();
    // Values widened for this access only: they are built right before
    // its load or store.
    WidenMemo memo;
    Value row, col;
    if (!a.flat) {
      row = subscript(b, loc, a.row, memo);
      col = subscript(b, loc, a.col, memo);
    } else if (auto c = dyn_cast<IntegerAttr>(a.flat)) {
      row = subscript(b, loc, b.getI64IntegerAttr(c.getInt() / width), memo);
      col = subscript(b, loc, b.getI64IntegerAttr(c.getInt() % width), memo);
    } else {
      // Inside the array, i is not negative: unsigned / and %.
      Value i = subscript(b, loc, a.flat, memo);
      Value w = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(width));
      row = arith::DivUIOp::create(b, loc, i, w);
      col = arith::RemUIOp::create(b, loc, i, w);
    }
    auto nsw = arith::IntegerOverflowFlags::nsw;
    Value newRow;
    if (skew == 1) {
      newRow = arith::AddIOp::create(b, loc, row, col, nsw);
    } else {
      Value last = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(width - 1));
      newRow = arith::AddIOp::create(
          b, loc, arith::SubIOp::create(b, loc, row, col, nsw), last, nsw);
    }
    Value rowPtr = LLVM::GEPOp::create(b, loc, ptr, rowType, newSlot,
                                       ArrayRef<LLVM::GEPArg>{newRow},
                                       LLVM::GEPNoWrapFlags::inbounds);
    Value elementPtr = LLVM::GEPOp::create(b, loc, ptr, element, rowPtr,
                                           ArrayRef<LLVM::GEPArg>{col},
                                           LLVM::GEPNoWrapFlags::inbounds);
    a.addressUse->set(elementPtr);
  }
  // The old GEPs are unused now (row GEPs hold only element GEPs): erase
  // them, then the slot.
  for (Operation *u : llvm::make_early_inc_range(slot->getUsers())) {
    for (Operation *uu : llvm::make_early_inc_range(u->getUsers()))
      uu->erase();
    u->erase();
  }
  slot.erase();
  return true;
}

namespace {

struct SkewSharedArraysPass
    : public tessel::impl::SkewSharedArraysPassBase<SkewSharedArraysPass> {
  SkewSharedArraysPass() = default;
  explicit SkewSharedArraysPass(const SkewCostModel &costs) : costs(costs) {}
  void runOnOperation() override {
    SmallVector<LLVM::AllocaOp> slots;
    getOperation()->walk([&](LLVM::AllocaOp slot) {
      if (isBlockLoop(slot->getParentOp()))
        slots.push_back(slot);
    });
    for (LLVM::AllocaOp slot : slots)
      skewSharedArray(slot, costs);
  }
  SkewCostModel costs;
};

} // namespace

std::unique_ptr<Pass>
mlir::tessel::createSkewSharedArraysPass(const SkewCostModel &costs) {
  return std::make_unique<SkewSharedArraysPass>(costs);
}
