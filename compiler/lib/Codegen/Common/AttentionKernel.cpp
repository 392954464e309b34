//===- AttentionKernel.cpp - what attention kernels share -------*- C++ -*-===//

#include "tessel/Codegen/Common/AttentionKernel.h"

#include "tessel/Codegen/Common/DynamicExtents.h"
#include "tessel/Codegen/Common/KernelBindings.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tessel;

unsigned mlir::tessel::contiguousLoop(AffineMap map) {
  return cast<AffineDimExpr>(map.getResults().back()).getPosition();
}

FailureOr<AttentionLoops> mlir::tessel::getAttentionLoops(AttentionOp op,
                                                         std::string &why,
                                                         bool dynamicExtents) {
  auto fail = [&](const Twine &reason) {
    why = reason.str();
    return failure();
  };
  FailureOr<AttentionOp::Dims> dims = op.getDims();
  if (failed(dims) || dims->m.size() != 1 || dims->k1.size() != 1 ||
      dims->k2.size() != 1 || dims->n.size() != 1)
    return fail("its loops are not one M, K1, K2 and N loop plus batch loops");
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ShapedType::isDynamic(ranges[dims->k1[0]]) ||
      ShapedType::isDynamic(ranges[dims->n[0]]))
    return fail("a dynamic head size (K1 or N)");
  if (!dynamicExtents && llvm::any_of(ranges, ShapedType::isDynamic))
    return fail("dynamic shape");
  if (llvm::is_contained(ranges, 0))
    return fail("an empty loop");
  AttentionLoops loops;
  loops.op = op;
  loops.dims = *dims;
  loops.m = ranges[dims->m[0]];
  loops.k1 = ranges[dims->k1[0]];
  loops.k2 = ranges[dims->k2[0]];
  loops.n = ranges[dims->n[0]];
  for (unsigned d : dims->batch) {
    loops.batchShape.push_back(ranges[d]);
    loops.batch = ShapedType::isDynamic(ranges[d]) ||
                          ShapedType::isDynamic(loops.batch)
                      ? ShapedType::kDynamic
                      : loops.batch * ranges[d];
  }
  if (!ShapedType::isDynamic(loops.batch) &&
      loops.batch > std::numeric_limits<int32_t>::max())
    return fail("more batch elements than a grid dimension holds");
  if (contiguousLoop(op.getQueryMap()) != dims->k1[0] ||
      contiguousLoop(op.getKeyMap()) != dims->k1[0])
    return fail("the query's or the key's last (contiguous) index is not K1");
  if (contiguousLoop(op.getValueMap()) != dims->n[0] ||
      contiguousLoop(op.getOutputMap()) != dims->n[0])
    return fail("the value's or the output's last (contiguous) index is not "
                "N");
  return loops;
}

FailureOr<AttentionExtents>
mlir::tessel::getAttentionExtents(const AttentionLoops &loops) {
  AttentionOp op = loops.op;
  SmallVector<Value> operands = {op.getQuery(), op.getKey(), op.getValue(),
                                 op.getOutput()};
  SmallVector<AffineMap> maps = {op.getQueryMap(), op.getKeyMap(),
                                 op.getValueMap(), op.getOutputMap()};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto extent = [&](unsigned loop) {
    return loopExtent(operands, maps, loop, ranges[loop]);
  };
  std::optional<LoopExtent> m = extent(loops.dims.m[0]);
  std::optional<LoopExtent> k2 = extent(loops.dims.k2[0]);
  if (!m || !k2)
    return failure();
  AttentionExtents e{*m, *k2, {},
                     getAffineConstantExpr(1, op.getContext())};
  for (unsigned d : loops.dims.batch) {
    std::optional<LoopExtent> b = extent(d);
    if (!b)
      return failure();
    e.batchShape.push_back(b->size);
    e.batch = e.batch * b->expr;
  }
  return e;
}

SmallVector<Value> mlir::tessel::attentionIndices(const AttentionLoops &loops,
                                                  AffineMap map,
                                                  ArrayRef<Value> batchIds,
                                                  Value row, Value key,
                                                  Value col) {
  const AttentionOp::Dims &d = loops.dims;
  SmallVector<Value> indices;
  for (AffineExpr e : map.getResults()) {
    unsigned loop = cast<AffineDimExpr>(e).getPosition();
    if (loop == d.m[0])
      indices.push_back(row);
    else if (loop == d.k2[0])
      indices.push_back(key);
    else if (loop == d.k1[0] || loop == d.n[0])
      indices.push_back(col);
    else
      indices.push_back(batchIds[llvm::find(d.batch, loop) - d.batch.begin()]);
  }
  return indices;
}

AttentionOp mlir::tessel::findAttentionRoot(func::FuncOp kernel) {
  AttentionOp found;
  unsigned count = 0;
  kernel.walk([&](AttentionOp op) {
    found = op;
    ++count;
  });
  return count == 1 ? found : AttentionOp();
}

FailureOr<AttentionBindings>
mlir::tessel::getAttentionBindings(AttentionOp op, StringRef what) {
  auto rowMajor = [](Value mem) {
    return mem && isa<MemRefType>(mem.getType()) &&
           cast<MemRefType>(mem.getType()).getLayout().isIdentity();
  };
  auto binding = [&](Value tensor, StringRef name) -> FailureOr<Value> {
    Value mem = bindingMemRef(tensor);
    if (!rowMajor(mem))
      return op.emitOpError("the ")
             << what << " reads its " << name
             << " from a row-major buffer, but this one is computed in its "
                "dispatch (a constant or a slice)";
    return mem;
  };
  AttentionBindings b;
  FailureOr<Value> q = binding(op.getQuery(), "query");
  if (failed(q))
    return failure();
  FailureOr<Value> k = binding(op.getKey(), "key");
  if (failed(k))
    return failure();
  FailureOr<Value> v = binding(op.getValue(), "value");
  if (failed(v))
    return failure();
  b.q = *q;
  b.k = *k;
  b.v = *v;
  if (op.getMask()) {
    FailureOr<Value> m = binding(op.getMask(), "mask");
    if (failed(m))
      return failure();
    b.mask = *m;
  }
  b.store = bindingStore(op.getResult());
  if (!b.store || !rowMajor(b.store.getDest()))
    return op.emitOpError("the ")
           << what
           << " stores its result into a row-major buffer, but it is used "
              "otherwise";
  b.out = b.store.getDest();
  return b;
}
