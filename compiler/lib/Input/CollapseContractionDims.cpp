//===- CollapseContractionDims.cpp - tessel-collapse-contraction-dims -*- C++ -*-===//
//
// Brings contractions into the one-M, one-N, one-K (plus at most one batch)
// form that the GPU matmul strategies (tensor cores, SIMT) take:
// - a 1x1 linalg.conv_2d_nhwc_hwcf with unit strides is a matmul of the
//   input viewed as [N*H*W, C] and the filter viewed as [C, F];
// - a contraction generic (what elementwise fusion makes of a matmul whose
//   operands or result were reshaped, or a user's generic) loses its unit
//   loops, and each run of M, N, K or batch loops that every operand walks
//   contiguously and in order becomes one loop (static or dynamic).
// - an elementwise chain reading such a contraction's expanded result
//   (bias, activation) runs on the collapsed shape too, so that it stays
//   an epilogue of the contraction.
// The reshapes this leaves on operands and results are views that dispatch
// formation keeps outside the dispatch, so the kernel still reads and
// writes the original buffers.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_COLLAPSECONTRACTIONDIMS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;

namespace {

/// conv_2d_nhwc_hwcf with a 1x1 filter and unit strides -> collapse_shape
/// of input, filter and init, linalg.matmul, expand_shape of the result.
/// (Dilations do not matter for a 1x1 filter.)
LogicalResult rewrite1x1ConvAsMatmul(RewriterBase &rewriter,
                                     linalg::Conv2DNhwcHwcfOp conv) {
  auto inputType = dyn_cast<RankedTensorType>(conv.getInputs()[0].getType());
  auto filterType = dyn_cast<RankedTensorType>(conv.getInputs()[1].getType());
  auto outType = dyn_cast<RankedTensorType>(conv.getOutputs()[0].getType());
  if (!inputType || !filterType || !outType ||
      !inputType.hasStaticShape() || !filterType.hasStaticShape() ||
      !outType.hasStaticShape())
    return failure();
  if (filterType.getDimSize(0) != 1 || filterType.getDimSize(1) != 1 ||
      !llvm::all_of(conv.getStrides().getValues<int64_t>(),
                    [](int64_t s) { return s == 1; }))
    return failure();
  // Unit strides and a 1x1 filter: the output's spatial size is the input's.
  if (inputType.getDimSize(1) != outType.getDimSize(1) ||
      inputType.getDimSize(2) != outType.getDimSize(2))
    return failure();
  Location loc = conv.getLoc();
  rewriter.setInsertionPoint(conv);
  SmallVector<ReassociationIndices> rows = {{0, 1, 2}, {3}};
  auto collapse = [&](Value v, SmallVector<ReassociationIndices> groups) {
    return tensor::CollapseShapeOp::create(rewriter, loc, v, groups)
        .getResult();
  };
  Value input = collapse(conv.getInputs()[0], rows);
  Value filter = collapse(conv.getInputs()[1], rows);
  Value init = collapse(conv.getOutputs()[0], rows);
  auto matmul = linalg::MatmulOp::create(rewriter, loc, init.getType(),
                                         ValueRange{input, filter},
                                         ValueRange{init});
  Value result = tensor::ExpandShapeOp::create(
      rewriter, loc, outType, matmul.getResult(0), rows);
  rewriter.replaceOp(conv, result);
  return success();
}

/// Drops the unit loops of a contraction generic and collapses its runs of
/// M, N, K and batch loops.
LogicalResult collapseContraction(RewriterBase &rewriter,
                                  linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || !linalg::isaContractionOpInterface(op))
    return failure();
  // Dynamic loops collapse too: [b, s, k] x [k, n] with dynamic b and s
  // is a matmul with one dynamic M = b * s (a host value).
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  rewriter.setInsertionPoint(op);
  if (op.getNumLoops() > 3 && llvm::is_contained(ranges, 1)) {
    linalg::ControlDropUnitDims options;
    options.controlFn = [](Operation *target) {
      auto generic = cast<linalg::GenericOp>(target);
      SmallVector<unsigned> unit;
      for (auto [d, range] : llvm::enumerate(generic.getStaticLoopRanges()))
        if (range == 1)
          unit.push_back(d);
      // Keep three loops: a matmul with M, N or K of 1 stays a matmul.
      while (generic.getNumLoops() - unit.size() < 3 && !unit.empty())
        unit.pop_back();
      return unit;
    };
    FailureOr<linalg::DropUnitDimsResult> dropped =
        linalg::dropUnitDims(rewriter, op, options);
    if (succeeded(dropped)) {
      rewriter.replaceOp(op, dropped->replacements);
      op = cast<linalg::GenericOp>(dropped->resultOp.getOperation());
    }
  }
  if (!linalg::isaContractionOpInterface(op))
    return success();
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims))
    return success();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<ReassociationIndices> groups;
  for (ArrayRef<unsigned> loops : {ArrayRef<unsigned>(dims->batch),
                                   ArrayRef<unsigned>(dims->m),
                                   ArrayRef<unsigned>(dims->n),
                                   ArrayRef<unsigned>(dims->k)}) {
    if (loops.size() < 2)
      continue;
    ReassociationIndices group(loops.begin(), loops.end());
    llvm::sort(group);
    bool consecutive = true;
    for (size_t i = 1; i < group.size(); ++i)
      consecutive &= group[i] == group[i - 1] + 1;
    if (consecutive && linalg::areDimSequencesPreserved(maps, {group}))
      groups.push_back(group);
  }
  if (groups.empty())
    return success();
  llvm::sort(groups, [](const ReassociationIndices &x,
                        const ReassociationIndices &y) { return x[0] < y[0]; });
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::CollapseResult> collapsed =
      linalg::collapseOpIterationDims(op, groups, rewriter);
  if (failed(collapsed))
    return success();
  rewriter.replaceOp(op, collapsed->results);
  return success();
}

/// Where an epilogue chain continues after `expand` (an expand_shape of a
/// contraction's result, or of an op collapsed here):
/// - a collapse_shape undoing it is its source, and the expand_shapes
///   reading that collapse continue the chain (dynamic extents leave such
///   pairs between a matmul and its bias: BERT with symbolic sizes);
/// - an elementwise generic reading it element for element runs on the
///   collapsed shape instead, so that it can join the contraction's
///   dispatch as an epilogue (bias, activation); the expand_shape of its
///   result continues the chain.
SmallVector<tensor::ExpandShapeOp>
collapseConsumers(RewriterBase &rewriter, tensor::ExpandShapeOp expand) {
  SmallVector<tensor::ExpandShapeOp> next;
  SmallVector<tensor::CollapseShapeOp> inverses;
  for (Operation *user : expand->getUsers())
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(user);
        collapse && collapse.getResultType() == expand.getSrcType() &&
        collapse.getReassociationIndices() == expand.getReassociationIndices())
      inverses.push_back(collapse);
  for (tensor::CollapseShapeOp collapse : inverses) {
    for (Operation *user : collapse->getUsers())
      if (auto e = dyn_cast<tensor::ExpandShapeOp>(user))
        next.push_back(e);
    rewriter.replaceOp(collapse, expand.getSrc());
  }
  for (Operation *user : expand->getUsers()) {
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (!generic || !generic.hasPureTensorSemantics() ||
        generic.getNumReductionLoops() != 0 ||
        generic.getNumDpsInits() != 1 ||
        !generic.getIndexingMapsArray().back().isIdentity() ||
        generic.getNumLoops() != expand.getResultType().getRank())
      continue;
    SmallVector<ReassociationIndices> groups;
    for (const ReassociationIndices &g : expand.getReassociationIndices())
      if (g.size() > 1)
        groups.push_back(g);
    if (groups.empty() ||
        !linalg::areDimSequencesPreserved(generic.getIndexingMapsArray(),
                                          groups))
      continue;
    rewriter.setInsertionPoint(generic);
    FailureOr<linalg::CollapseResult> collapsed =
        linalg::collapseOpIterationDims(generic, groups, rewriter);
    if (failed(collapsed))
      continue;
    rewriter.replaceOp(generic, collapsed->results);
    if (auto e = collapsed->results[0].getDefiningOp<tensor::ExpandShapeOp>())
      next.push_back(e);
    break; // the users changed
  }
  return next;
}

/// tensor.dim of an expand_shape's result: the extent the expand_shape
/// names (its output_shape), so that the contraction's expanded result is
/// not kept alive only to be measured and the epilogue stays its sole user.
void foldDimsOfExpands(RewriterBase &rewriter, Operation *root) {
  SmallVector<tensor::DimOp> dims;
  root->walk([&](tensor::DimOp dim) {
    if (dim.getSource().getDefiningOp<tensor::ExpandShapeOp>() &&
        dim.getConstantIndex())
      dims.push_back(dim);
  });
  for (tensor::DimOp dim : dims) {
    auto expand = dim.getSource().getDefiningOp<tensor::ExpandShapeOp>();
    OpFoldResult extent = expand.getMixedOutputShape()[*dim.getConstantIndex()];
    rewriter.setInsertionPoint(dim);
    rewriter.replaceOp(dim, getValueOrCreateConstantIndexOp(
                                rewriter, dim.getLoc(), extent));
  }
}

struct CollapseContractionDimsPass
    : mlir::tessel::impl::CollapseContractionDimsBase<
          CollapseContractionDimsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::Conv2DNhwcHwcfOp> convs;
    getOperation()->walk(
        [&](linalg::Conv2DNhwcHwcfOp conv) { convs.push_back(conv); });
    for (linalg::Conv2DNhwcHwcfOp conv : convs)
      (void)rewrite1x1ConvAsMatmul(rewriter, conv);
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk(
        [&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp op : generics)
      (void)collapseContraction(rewriter, op);
    // Epilogue chains after a collapsed contraction's expand_shape.
    SmallVector<tensor::ExpandShapeOp> worklist;
    getOperation()->walk([&](tensor::ExpandShapeOp expand) {
      if (auto producer = expand.getSrc().getDefiningOp<linalg::LinalgOp>())
        if (linalg::isaContractionOpInterface(producer))
          worklist.push_back(expand);
    });
    while (!worklist.empty())
      llvm::append_range(worklist,
                         collapseConsumers(rewriter, worklist.pop_back_val()));
    foldDimsOfExpands(rewriter, getOperation());
  }
};

} // namespace
