//===- GridGather.cpp - the grid level of a gather (GPU) -------*- C++ -*-===//
//
// See GridGather.h. Emitted on the binding memrefs.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/Primitives/GridGather.h"

#include "tessel/Codegen/GPU/GPUWarpReduction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr int64_t kThreads = 256;
constexpr int64_t kMaxBlocks = 132 * 32;
constexpr int64_t kVectorBytes = 16;

struct GridGatherPlan {
  Value source, indices, output;
  bufferization::MaterializeInDestinationOp store;
  int64_t batchRank = 0, width = 1;
};

Value cIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

FailureOr<GridGatherPlan> plan(GatherOp gather, std::string &why) {
  GridGatherPlan p;
  p.source = bindingMemRef(gather.getSource());
  p.indices = bindingMemRef(gather.getIndices());
  if (!p.source || !p.indices) {
    why = "the source or the indices are computed in the kernel";
    return failure();
  }
  if (!(p.store = bindingStore(gather.getResult(0)))) {
    why = "the result is not stored into a binding";
    return failure();
  }
  p.output = p.store.getDest();
  ArrayRef<int64_t> map = gather.getDimensionMap();
  for (int64_t d : map)
    if (d >= static_cast<int64_t>(map.size())) {
      why = "the indices select a dimension after an unindexed one (the "
            "slice is not contiguous)";
      return failure();
    }
  auto srcType = cast<MemRefType>(p.source.getType());
  if (srcType.getRank() == static_cast<int64_t>(map.size())) {
    why = "single elements, not slices";
    return failure();
  }
  p.batchRank = gather.getBatchRank();
  Type e = srcType.getElementType();
  int64_t bytes = e.isIntOrFloat() ? e.getIntOrFloatBitWidth() / 8 : 0;
  if (bytes == 0) {
    why = "elements narrower than a byte";
    return failure();
  }
  int64_t last = srcType.getShape().back();
  p.width = (last * bytes) % kVectorBytes == 0 ? kVectorBytes / bytes : 1;
  return p;
}

} // namespace

bool mlir::tessel::canUseGridGather(func::FuncOp, GatherOp gather,
                                    std::string &why) {
  return succeeded(plan(gather, why));
}

std::string mlir::tessel::describeGridGather(GatherOp gather) {
  std::string why;
  FailureOr<GridGatherPlan> p = plan(gather, why);
  return "grid gather: slices copied grid-stride, " +
         std::to_string(p->width) + " elements per thread access" +
         (p->width > 1 ? " (128-bit)" : "");
}

LogicalResult mlir::tessel::emitGridGather(func::FuncOp kernel,
                                           GatherOp gather) {
  std::string why;
  FailureOr<GridGatherPlan> pr = plan(gather, why);
  if (failed(pr))
    return gather.emitOpError("grid gather: ") << why;
  GridGatherPlan &p = *pr;
  OpBuilder b(gather);
  Location loc = gather.getLoc();
  auto srcType = cast<MemRefType>(p.source.getType());
  auto outType = cast<MemRefType>(p.output.getType());
  ArrayRef<int64_t> map = gather.getDimensionMap();
  int64_t depth = map.size();
  SmallVector<int64_t> batchShape(outType.getShape().begin(),
                                  outType.getShape().begin() + p.batchRank);
  SmallVector<int64_t> sliceShape(srcType.getShape().begin() + depth,
                                  srcType.getShape().end());
  int64_t sliceElems = 1, batchElems = 1;
  for (int64_t s : sliceShape)
    sliceElems *= s;
  for (int64_t s : batchShape)
    batchElems *= s;
  int64_t vecsPerSlice = sliceElems / p.width;
  int64_t total = batchElems * vecsPerSlice;
  int64_t blocks = std::max<int64_t>(
      1, std::min<int64_t>(kMaxBlocks, llvm::divideCeil(total, kThreads)));
  bool explicitDepth =
      cast<MemRefType>(p.indices.getType()).getRank() > p.batchRank;

  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value first = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, bid, cIndex(b, loc, kThreads)),
      tid);
  auto vecType = VectorType::get({p.width}, srcType.getElementType());
  scf::ForOp::create(
      b, loc, first, cIndex(b, loc, total), cIndex(b, loc, blocks * kThreads),
      ValueRange{}, [&](OpBuilder &b, Location loc, Value v, ValueRange) {
        Value batch =
            arith::DivUIOp::create(b, loc, v, cIndex(b, loc, vecsPerSlice));
        Value chunk =
            arith::RemUIOp::create(b, loc, v, cIndex(b, loc, vecsPerSlice));
        SmallVector<Value> batchIdx = delinearizeRow(b, loc, batch, batchShape);
        SmallVector<Value> sliceIdx = delinearizeRow(
            b, loc,
            arith::MulIOp::create(b, loc, chunk, cIndex(b, loc, p.width)),
            sliceShape);
        SmallVector<Value> src(srcType.getRank());
        for (int64_t k = 0; k < depth; ++k) {
          SmallVector<Value> where(batchIdx);
          if (explicitDepth)
            where.push_back(cIndex(b, loc, k));
          Value raw = memref::LoadOp::create(b, loc, p.indices, where);
          Value i = raw.getType().isIndex()
                        ? raw
                        : arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                                     raw)
                              .getResult();
          // Out of range: clamped into [0, size - 1].
          i = arith::MaxSIOp::create(b, loc, i, cIndex(b, loc, 0));
          i = arith::MinSIOp::create(
              b, loc, i, cIndex(b, loc, srcType.getShape()[map[k]] - 1));
          src[map[k]] = i;
        }
        for (size_t d = 0; d < sliceIdx.size(); ++d)
          src[depth + d] = sliceIdx[d];
        SmallVector<Value> dst(batchIdx);
        dst.append(sliceIdx.begin(), sliceIdx.end());
        if (p.width > 1) {
          Value x = vector::LoadOp::create(b, loc, vecType, p.source, src,
                                           false, llvm::MaybeAlign(kVectorBytes));
          vector::StoreOp::create(b, loc, x, p.output, dst, false,
                                  llvm::MaybeAlign(kVectorBytes));
        } else {
          Value x = memref::LoadOp::create(b, loc, p.source, src);
          memref::StoreOp::create(b, loc, x, p.output, dst);
        }
        scf::YieldOp::create(b, loc);
      });
  p.store.erase();
  setKernelLaunch(kernel, {blocks, 1, 1}, {kThreads, 1, 1});
  return success();
}
