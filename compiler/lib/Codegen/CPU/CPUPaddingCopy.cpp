//===- CPUPaddingCopy.cpp - parallel padding copies on the CPU -*- C++ -*-===//
//
// See CPUPaddingCopy.h. The cost model's workgroups take the outer
// dimensions of the result one index at a time until there are at least 64
// of them (at most three dimensions: the workgroup ids). Along a split dimension d, the workgroup
// at index i holds source rows [i - off_d, i - off_d + 1) when off_d <= i <
// off_d + size_d, and none otherwise (an empty copy); other dimensions are
// whole, the source placed at its offsets.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/CPU/CPUPaddingCopy.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace {
constexpr int64_t kMinWorkgroups = 64;
constexpr unsigned kMaxWorkgroupDims = 3;
} // namespace

tensor::InsertSliceOp mlir::tessel::findPaddingCopy(func::FuncOp kernel) {
  SmallVector<bufferization::MaterializeInDestinationOp> stores;
  kernel.walk([&](bufferization::MaterializeInDestinationOp op) {
    stores.push_back(op);
  });
  if (stores.size() != 1)
    return {};
  auto insert = stores[0].getSource().getDefiningOp<tensor::InsertSliceOp>();
  if (!insert || !insert.hasUnitStride() ||
      !insert.getSource().getDefiningOp<bufferization::ToTensorOp>() ||
      ShapedType::isDynamicShape(insert.getStaticOffsets()) ||
      ShapedType::isDynamicShape(insert.getStaticSizes()))
    return {};
  auto fill = insert.getDest().getDefiningOp<linalg::FillOp>();
  if (!fill || !fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
    return {};
  auto resultType = cast<RankedTensorType>(insert.getType());
  auto sourceType = cast<RankedTensorType>(insert.getSourceType());
  if (!resultType.hasStaticShape() ||
      sourceType.getRank() != resultType.getRank())
    return {};
  return insert;
}

std::optional<SmallVector<int64_t>>
mlir::tessel::choosePaddingCopyTiles(tensor::InsertSliceOp insert) {
  ArrayRef<int64_t> shape = insert.getType().getShape();
  SmallVector<int64_t> tiles(shape.size(), 0);
  int64_t workgroups = 1;
  for (unsigned d = 0; d < shape.size() && d < kMaxWorkgroupDims &&
                       workgroups < kMinWorkgroups;
       ++d) {
    workgroups *= shape[d];
    tiles[d] = 1;
  }
  if (workgroups < 2)
    return std::nullopt;
  return tiles;
}

LogicalResult mlir::tessel::tilePaddingCopy(RewriterBase &rewriter,
                                            tensor::InsertSliceOp insert,
                                            ArrayRef<int64_t> workgroup) {
  auto fill = insert.getDest().getDefiningOp<linalg::FillOp>();
  ArrayRef<int64_t> shape = insert.getType().getShape();
  ArrayRef<int64_t> offsets = insert.getStaticOffsets();
  ArrayRef<int64_t> sizes = insert.getStaticSizes();
  if (!fill || workgroup.size() != shape.size() ||
      llvm::any_of(workgroup, [](int64_t t) { return t != 0 && t != 1; }) ||
      llvm::count(workgroup, 1) > kMaxWorkgroupDims)
    return failure();
  // The split dimensions, outermost first: one workgroup per index.
  SmallVector<unsigned> splitDims;
  for (unsigned d = 0; d < shape.size(); ++d)
    if (workgroup[d] == 1)
      splitDims.push_back(d);
  unsigned split = splitDims.size();
  if (split == 0)
    return failure();

  Location loc = insert.getLoc();
  rewriter.setInsertionPoint(insert);
  SmallVector<OpFoldResult> lbs(split, rewriter.getIndexAttr(0)),
      steps(split, rewriter.getIndexAttr(1)), ubs;
  for (unsigned d : splitDims)
    ubs.push_back(rewriter.getIndexAttr(shape[d]));
  Value empty = fill.getOutputs()[0];
  auto forall = scf::ForallOp::create(rewriter, loc, lbs, ubs, steps,
                                      ValueRange{empty}, std::nullopt);
  forall->setAttr(kWorkgroupsAttr, rewriter.getUnitAttr());

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(forall.getBody());
  Value out = forall.getRegionIterArgs()[0];
  SmallVector<OpFoldResult> tileOffsets, tileSizes, unit;
  SmallVector<OpFoldResult> srcOffsets, srcSizes, dstOffsets;
  for (unsigned d = 0; d < shape.size(); ++d) {
    unit.push_back(rewriter.getIndexAttr(1));
    if (workgroup[d] == 0) {
      tileOffsets.push_back(rewriter.getIndexAttr(0));
      tileSizes.push_back(rewriter.getIndexAttr(shape[d]));
      srcOffsets.push_back(rewriter.getIndexAttr(0));
      srcSizes.push_back(rewriter.getIndexAttr(sizes[d]));
      dstOffsets.push_back(rewriter.getIndexAttr(offsets[d]));
      continue;
    }
    // Index i of the tile: source row i - off if off <= i < off + size.
    Value i = forall.getInductionVars()[llvm::find(splitDims, d) -
                                        splitDims.begin()];
    tileOffsets.push_back(i);
    tileSizes.push_back(rewriter.getIndexAttr(1));
    if (offsets[d] == 0 && sizes[d] == shape[d]) { // not padded along d
      srcOffsets.push_back(i);
      srcSizes.push_back(rewriter.getIndexAttr(1));
      dstOffsets.push_back(rewriter.getIndexAttr(0));
      continue;
    }
    Value off = arith::ConstantIndexOp::create(rewriter, loc, offsets[d]);
    Value end =
        arith::ConstantIndexOp::create(rewriter, loc, offsets[d] + sizes[d]);
    Value inside = arith::AndIOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge, i, off),
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, i,
                              end));
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value count = arith::SelectOp::create(rewriter, loc, inside, one, zero);
    Value row = arith::SelectOp::create(
        rewriter, loc, inside, arith::SubIOp::create(rewriter, loc, i, off),
        zero);
    srcOffsets.push_back(row);
    srcSizes.push_back(count);
    dstOffsets.push_back(rewriter.getIndexAttr(0));
  }
  Value tile = tensor::ExtractSliceOp::create(rewriter, loc, out, tileOffsets,
                                              tileSizes, unit);
  Value filled =
      linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], tile)
          .getResult(0);
  Value part = tensor::ExtractSliceOp::create(
      rewriter, loc, insert.getSource(), srcOffsets, srcSizes, unit);
  Value placed = tensor::InsertSliceOp::create(rewriter, loc, part, filled,
                                               dstOffsets, srcSizes, unit);
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, placed, out,
                                        tileOffsets, tileSizes, unit);
  rewriter.replaceOp(insert, forall.getResult(0));
  if (fill->use_empty())
    rewriter.eraseOp(fill);
  return success();
}
