//===- GPUStackAllocations.cpp - tessel-gpu-stack-allocations --*- C++ -*-===//
//
// A memref.alloc in a kernel is a per-thread temporary: the NVVM lowering
// turns it into a device malloc, called by every thread of every launch and
// never freed. A Llama model's dynamic MLP kernel (a thread's 1 x min(4,
// n - j) accumulator) leaked that way until the device heap was empty, then
// wrote through the null pointer malloc returned. Upstream's
// promote-buffers-to-stack promotes static allocs only; this pass also
// bounds dynamic ones and refuses what it cannot bound.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_GPUSTACKALLOCATIONS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// The constant upper bound of each dimension of `alloc`'s type (its
/// static size, or a bound of its dynamic size), or failure.
FailureOr<SmallVector<int64_t>> boundShape(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  SmallVector<int64_t> bounds;
  unsigned next = 0;
  for (int64_t d : type.getShape()) {
    if (!ShapedType::isDynamic(d)) {
      bounds.push_back(d);
      continue;
    }
    FailureOr<int64_t> ub = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::UB,
        ValueBoundsConstraintSet::Variable(alloc.getDynamicSizes()[next++]),
        /*stopCondition=*/nullptr, /*closedUB=*/true);
    if (failed(ub))
      return failure();
    bounds.push_back(std::max<int64_t>(*ub, 0));
  }
  return bounds;
}

/// `alloc` as a stack allocation of `bounds`: the same buffer when static,
/// else the bounds' elements viewed row-major at the actual sizes.
void toStack(memref::AllocOp alloc, ArrayRef<int64_t> bounds) {
  OpBuilder b(alloc);
  Location loc = alloc.getLoc();
  MemRefType type = alloc.getType();
  if (type.hasStaticShape()) {
    Value stack = memref::AllocaOp::create(b, loc, type, ValueRange(),
                                           alloc.getAlignmentAttr());
    alloc.replaceAllUsesWith(stack);
    alloc.erase();
    return;
  }
  int64_t elements = 1;
  for (int64_t d : bounds)
    elements *= d;
  auto flat = MemRefType::get({elements}, type.getElementType(), nullptr,
                              type.getMemorySpace());
  Value stack = memref::AllocaOp::create(b, loc, flat, ValueRange(),
                                         alloc.getAlignmentAttr());
  // Row-major sizes and strides of the actual shape.
  SmallVector<OpFoldResult> sizes = alloc.getMixedSizes();
  SmallVector<OpFoldResult> strides(sizes.size(), b.getIndexAttr(1));
  for (int64_t i = int64_t(sizes.size()) - 2; i >= 0; --i) {
    std::optional<int64_t> inner = getConstantIntValue(strides[i + 1]);
    std::optional<int64_t> size = getConstantIntValue(sizes[i + 1]);
    if (inner && size)
      strides[i] = b.getIndexAttr(*inner * *size);
    else if (inner == 1)
      strides[i] = sizes[i + 1];
    else
      strides[i] = arith::MulIOp::create(
                       b, loc, getValueOrCreateConstantIndexOp(b, loc, strides[i + 1]),
                       getValueOrCreateConstantIndexOp(b, loc, sizes[i + 1]))
                       .getResult();
  }
  Value view = memref::ReinterpretCastOp::create(
      b, loc, stack, b.getIndexAttr(0), sizes, strides);
  Value cast = memref::CastOp::create(b, loc, type, view);
  alloc.replaceAllUsesWith(cast);
  alloc.erase();
}

struct GPUStackAllocationsPass
    : tessel::impl::GPUStackAllocationsBase<GPUStackAllocationsPass> {
  using GPUStackAllocationsBase::GPUStackAllocationsBase;

  void runOnOperation() override {
    bool ok = true;
    getOperation().walk([&](func::FuncOp fn) {
      if (!fn->hasAttr(kKernelAttr))
        return;
      SmallVector<memref::AllocOp> allocs;
      fn.walk([&](memref::AllocOp alloc) { allocs.push_back(alloc); });
      for (memref::AllocOp alloc : allocs) {
        FailureOr<SmallVector<int64_t>> bounds = boundShape(alloc);
        int64_t bytes = -1;
        if (succeeded(bounds)) {
          bytes = alloc.getType().getElementTypeBitWidth() / 8;
          for (int64_t d : *bounds)
            bytes *= d;
        }
        if (failed(bounds) || bytes > maxBytes) {
          alloc.emitError()
              << "kernel '" << fn.getSymName() << "' needs a temporary "
              << alloc.getType()
              << (failed(bounds) ? " whose size has no constant bound"
                                 : " of " + std::to_string(bytes) +
                                       " bytes per thread")
              << ": kernels do not allocate device heap memory (at most "
              << int64_t(maxBytes) << " bytes per thread, on the stack)";
          ok = false;
          continue;
        }
        toStack(alloc, *bounds);
      }
    });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
