//===- OutlineCUDAKernels.cpp - tessel-outline-cuda-kernels ----*- C++ -*-===//
//
// The GPU side of CUDA C kernels (tessel-cc): the imported module, with
// device functions inlined, becomes one gpu.module for the NVVM lowering.
// Kernels (func.func marked tessel.cuda_kernel) become `gpu.func ...
// kernel`s of the same (mangled) name, so that the names clang's host code
// registers find them; the other functions and every global (shared
// variables in address space 3, string constants) move along unchanged;
// tessel.barrier becomes gpu.barrier (bar.sync 0, __syncthreads itself).
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/GPU/GPUOutline.h"
#include "tessel/Dialect/Tessel/TesselDialect.h"
#include "tessel/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_OUTLINECUDAKERNELS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Name of the gpu.module holding a CUDA C program's kernels.
constexpr llvm::StringLiteral kCUDAKernelModuleName = "tessel_cuda_kernels";

struct OutlineCUDAKernelsPass
    : tessel::impl::OutlineCUDAKernelsBase<OutlineCUDAKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    b.setInsertionPointToEnd(module.getBody());
    auto gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(),
                                              kCUDAKernelModuleName);
    Block *body = gpuModule.getBody();
    for (Operation &op :
         llvm::make_early_inc_range(module.getBody()->getOperations()))
      if (&op != gpuModule.getOperation())
        op.moveBefore(body, body->end());

    SmallVector<func::FuncOp> kernels;
    for (auto fn : gpuModule.getOps<func::FuncOp>())
      if (fn->hasAttr(kCUDAKernelAttr) && !fn.isExternal())
        kernels.push_back(fn);
    for (func::FuncOp fn : kernels) {
      b.setInsertionPoint(fn);
      ArrayAttr args = fn.getAllArgAttrs();
      gpu::GPUFuncOp kernel = replaceWithGPUKernel(fn, b);
      if (args)
        kernel.setAllArgAttrs(args);
    }

    gpuModule.walk([&](BarrierOp barrier) {
      OpBuilder bb(barrier);
      gpu::BarrierOp::create(bb, barrier.getLoc());
      barrier.erase();
    });
  }
};

} // namespace
