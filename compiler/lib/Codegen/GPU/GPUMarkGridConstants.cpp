//===- GPUMarkGridConstants.cpp - tessel-gpu-mark-grid-constants -*- C++ -*-===//
//
// TMA tensor maps reach a kernel by value, as 128-byte grid-constant
// parameters (cp.async.bulk.tensor reads them from the parameter space, so
// no device copy and no proxy fence are needed). The strategy that uses
// them appends one !llvm.ptr argument per map and lists the maps in
// tessel.tensor_maps; after convert-gpu-to-nvvm this pass marks those
// arguments byval + nvvm.grid_constant (which a gpu.func cannot carry).
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_GPUMARKGRIDCONSTANTS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;

namespace mlir::tessel {
namespace {

/// Bytes of a CUtensorMap.
constexpr int64_t kTensorMapBytes = 128;

struct GPUMarkGridConstantsPass
    : impl::GPUMarkGridConstantsBase<GPUMarkGridConstantsPass> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](LLVM::LLVMFuncOp fn) {
      auto maps = fn->getAttrOfType<ArrayAttr>(kTensorMapsAttr);
      if (!maps || maps.empty())
        return WalkResult::advance();
      unsigned numArgs = fn.getNumArguments();
      if (!fn->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()) ||
          maps.size() > numArgs) {
        fn.emitError() << "tessel.tensor_maps lists " << maps.size()
                       << " maps but the function is not a kernel with as "
                          "many arguments";
        return WalkResult::interrupt();
      }
      Builder b(fn.getContext());
      auto bytes = LLVM::LLVMArrayType::get(b.getI8Type(), kTensorMapBytes);
      for (unsigned i = numArgs - maps.size(); i < numArgs; ++i) {
        if (!isa<LLVM::LLVMPointerType>(fn.getArgument(i).getType())) {
          fn.emitError() << "tensor map argument " << i
                         << " is not an !llvm.ptr";
          return WalkResult::interrupt();
        }
        fn.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                      TypeAttr::get(bytes));
        fn.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                      b.getI64IntegerAttr(kTensorMapBytes));
        fn.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                      b.getUnitAttr());
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tessel
