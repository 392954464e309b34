//===- Passes.h - Tessel passes --------------------------------*- C++ -*-===//
//
// Declarations of every Tessel pass (generated from Passes.td) and of the
// named pipelines that tessel-compile runs and tessel-opt exposes.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_PASSES_H
#define TESSEL_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "tessel/Dialect/Tessel/TesselDialect.h"

namespace mlir::tessel {

#define GEN_PASS_DECL
#include "tessel/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tessel/Passes.h.inc"

} // namespace mlir::tessel

#endif
