//===- AddScanWorkspaces.cpp - tessel-add-scan-workspaces -------*- C++ -*-===//
//
// A long scan of one row runs on the GPU as a decoupled look-back: blocks
// publish their tiles' status words in a workspace that must be zero when
// the kernel starts. This pass gives such a scan that workspace as a second
// input: a zero fill of ceil(n / tile) + 1 i64 words (the status words and
// a ticket counter), marked tessel.workspace so that dispatch formation
// makes it a dispatch of its own (zeroed before every run, also in a
// replayed CUDA graph) instead of cloning it into the scan's kernel. The
// CPU ignores the workspace.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Codegen/Primitives/GridScan.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_ADDSCANWORKSPACES
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
struct AddScanWorkspacesPass
    : impl::AddScanWorkspacesBase<AddScanWorkspacesPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<ScanOp> scans;
    getOperation().walk([&](ScanOp scan) {
      if (needsWorkspace(scan, minLength))
        scans.push_back(scan);
    });
    int64_t next = 0;
    for (ScanOp scan : scans) {
      OpBuilder b(scan);
      Location loc = scan.getLoc();
      int64_t length =
          cast<RankedTensorType>(scan.getInput().getType()).getShape().back();
      int64_t words = llvm::divideCeil(length, kLookbackTileElements) + 1;
      Value empty = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{words},
                                            b.getI64Type());
      Value zero = arith::ConstantIntOp::create(b, loc, 0, 64);
      auto fill = linalg::FillOp::create(b, loc, zero, empty);
      fill->setAttr(kWorkspaceAttr, b.getI64IntegerAttr(next++));
      auto withWorkspace = ScanOp::create(
          b, loc, scan.getResultTypes(),
          ValueRange{scan.getInput(), fill.getResult(0)}, scan.getOutputs(),
          scan.getDimensionAttr(), scan.getInclusiveAttr());
      withWorkspace.getRegion().takeBody(scan.getRegion());
      scan.replaceAllUsesWith(withWorkspace.getResults());
      scan.erase();
    }
  }
};

} // namespace
} // namespace mlir::tessel
