//===- AddPrimitiveWorkspaces.cpp - tessel-add-primitive-workspaces -----===//
//
// Some grid-level GPU primitives coordinate blocks through global memory
// that must be zero when the kernel starts:
//  - a long scan of one row runs as a decoupled look-back: its workspace is
//    ceil(n / tile) status words plus a ticket counter;
//  - a scatter writes the original into its result, then crosses a grid
//    barrier (a counter) before combining updates;
//  - a radix sort (PrimitiveContract.h) moves its operands between them and a
//    scratch buffer each pass, and counts digits per block (on the GPU
//    also its grid barrier's counter, the last word); the CPU uses the
//    scratch buffers and the first counts.
// This pass gives such an op its workspace as an extra input: a zero fill
// of i64 words marked tessel.workspace, so that dispatch formation makes it
// a dispatch of its own (zeroed before every run, also in a replayed CUDA
// graph) instead of cloning it into the primitive's kernel. The CPU
// ignores the scan and scatter workspaces.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Dialect/Tessel/PrimitiveContract.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_ADDPRIMITIVEWORKSPACES
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Whether `scan` is one long row: what a block per row cannot spread.
bool needsWorkspace(ScanOp scan, int64_t minLength) {
  auto type = dyn_cast<RankedTensorType>(scan.getInput().getType());
  if (!type || !type.hasStaticShape() || scan.getInputs().size() != 1 ||
      scan.getDimension() != type.getRank() - 1)
    return false;
  int64_t rows = 1;
  for (int64_t d : type.getShape().drop_back())
    rows *= d;
  return rows == 1 && type.getShape().back() >= minLength;
}

} // namespace

namespace mlir::tessel {
namespace {
struct AddPrimitiveWorkspacesPass
    : impl::AddPrimitiveWorkspacesBase<AddPrimitiveWorkspacesPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<ScanOp> scans;
    SmallVector<ScatterOp> scatters;
    SmallVector<SortOp> sorts;
    getOperation().walk([&](Operation *op) {
      std::string notRadix;
      if (auto sort = dyn_cast<SortOp>(op);
          sort && sort->getNumResults() != 0 && !hasRadixWorkspaces(sort) &&
          matchRadixKey(sort, notRadix))
        sorts.push_back(sort);
      if (auto scan = dyn_cast<ScanOp>(op); scan && needsWorkspace(scan, minLength))
        scans.push_back(scan);
      if (auto scatter = dyn_cast<ScatterOp>(op);
          scatter && scatter->getNumResults() == 1 &&
          scatter.getInputs().size() == 2)
        scatters.push_back(scatter);
    });
    int64_t next = 0;
    auto zeros = [&](OpBuilder &b, Location loc, int64_t words,
                     Type type = {}) {
      if (!type)
        type = b.getI64Type();
      Value empty = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{words},
                                            type);
      Value zero = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
      auto fill = linalg::FillOp::create(b, loc, zero, empty);
      fill->setAttr(kWorkspaceAttr, b.getI64IntegerAttr(next++));
      return fill.getResult(0);
    };
    for (ScatterOp scatter : scatters) {
      OpBuilder b(scatter);
      Value ws = zeros(b, scatter.getLoc(), 1);
      scatter.getInputsMutable().append(ws);
    }
    for (SortOp sort : sorts) {
      OpBuilder b(sort);
      Location loc = sort.getLoc();
      int64_t n = sort.getOperandType().getShape()[0];
      SmallVector<Value> ws;
      for (Value v : sort.getOutputs())
        ws.push_back(zeros(b, loc, n, getElementTypeOrSelf(v.getType())));
      ws.push_back(zeros(b, loc, radixCountWords(gridRadixSortBlocks(n)),
                         b.getI32Type()));
      sort.getInputsMutable().append(ws);
    }
    for (ScanOp scan : scans) {
      OpBuilder b(scan);
      Location loc = scan.getLoc();
      int64_t length =
          cast<RankedTensorType>(scan.getInput().getType()).getShape().back();
      int64_t words = llvm::divideCeil(length, kLookbackTileElements) + 1;
      Value ws = zeros(b, loc, words);
      auto withWorkspace = ScanOp::create(
          b, loc, scan.getResultTypes(),
          ValueRange{scan.getInput(), ws}, scan.getOutputs(),
          scan.getDimensionAttr(), scan.getInclusiveAttr());
      withWorkspace.getRegion().takeBody(scan.getRegion());
      scan.replaceAllUsesWith(withWorkspace.getResults());
      scan.erase();
    }
  }
};

} // namespace
} // namespace mlir::tessel
