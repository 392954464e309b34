//===- GPUOutlineKernels.cpp - tessel-gpu-outline-kernels ------*- C++ -*-===//
//
// Distributed kernels are plain func.funcs; the NVVM lowering wants
// gpu.funcs in a gpu.module. All kernels of a module go into one
// gpu.module so that one PTX/cubin image holds every dispatch.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/Common/WorkgroupCount.h"
#include "tessel/Codegen/GPU/GPUOutline.h"
#include "tessel/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_GPUOUTLINEKERNELS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace mlir::tessel {

/// Name of the gpu.module holding every kernel.
constexpr llvm::StringLiteral kKernelModuleName = "tessel_kernels";

gpu::GPUFuncOp replaceWithGPUKernel(func::FuncOp fn, OpBuilder &b) {
  auto kernel = gpu::GPUFuncOp::create(b, fn.getLoc(), fn.getSymName(),
                                       fn.getFunctionType());
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  for (NamedAttribute attr : fn->getDiscardableAttrs())
    kernel->setAttr(attr.getName(), attr.getValue());
  // gpu.func comes with an entry block; take the kernel's instead.
  kernel.getBody().takeBody(fn.getBody());
  kernel.walk([&](func::ReturnOp ret) {
    OpBuilder rb(ret);
    gpu::ReturnOp::create(rb, ret.getLoc());
    ret.erase();
  });
  fn.erase();
  return kernel;
}

/// tessel.push_constant k -> kernel argument binding_count + k (index, an
/// i64 parameter): the push constants follow the binding pointers and
/// precede the tensor maps.
static void lowerPushConstants(func::FuncOp fn) {
  int64_t count = pushConstantCount(fn);
  if (count == 0)
    return;
  auto bindings = fn->getAttrOfType<IntegerAttr>(kBindingCountAttr);
  unsigned first = bindings ? bindings.getInt() : 0;
  Builder b(fn.getContext());
  SmallVector<unsigned> positions(count, first);
  SmallVector<Type> types(count, b.getIndexType());
  SmallVector<DictionaryAttr> attrs(count, b.getDictionaryAttr({}));
  SmallVector<Location> locs(count, fn.getLoc());
  (void)fn.insertArguments(positions, types, attrs, locs);
  fn.walk([&](PushConstantOp op) {
    op.replaceAllUsesWith(fn.getArgument(first + op.getIndex()));
    op.erase();
  });
}

LogicalResult outlineGPUKernels(ModuleOp module) {
  OpBuilder b(module.getContext());
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  b.getUnitAttr());
  b.setInsertionPointToEnd(module.getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(),
                                            kKernelModuleName);
  // Constants the kernels read (memref.global) must live in the gpu.module.
  for (auto global :
       llvm::make_early_inc_range(module.getOps<memref::GlobalOp>()))
    global->moveBefore(gpuModule.getBody(), gpuModule.getBody()->end());
  for (auto fn : llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
    if (!fn->hasAttr(kKernelAttr))
      continue;
    auto size = fn->getAttrOfType<DenseI64ArrayAttr>(kWorkgroupSizeAttr);
    if (!size || size.size() != 3)
      return fn.emitError("kernel has no tessel.workgroup_size: distribute "
                          "it to blocks and threads first");
    lowerPushConstants(fn);
    b.setInsertionPointToEnd(gpuModule.getBody());
    gpu::GPUFuncOp kernel = replaceWithGPUKernel(fn, b);
    kernel.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
        {static_cast<int32_t>(size[0]), static_cast<int32_t>(size[1]),
         static_cast<int32_t>(size[2])}));
    // Buffers are at least 64-byte aligned; telling LLVM through the
    // pointer arguments lets it use 128-bit loads and stores.
    for (unsigned i = 0; i < kernel.getNumArguments(); ++i)
      if (!isa<IndexType>(kernel.getArgument(i).getType()))
        kernel.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        b.getI64IntegerAttr(64));
  }
  return success();
}

namespace {
struct GPUOutlineKernelsPass
    : impl::GPUOutlineKernelsBase<GPUOutlineKernelsPass> {
  void runOnOperation() override {
    if (failed(outlineGPUKernels(getOperation())))
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
