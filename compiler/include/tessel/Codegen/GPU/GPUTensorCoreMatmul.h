//===- GPUTensorCoreMatmul.h - matmuls on tensor cores (sm_80+) -*- C++ -*-===//

#ifndef TESSEL_CODEGEN_GPU_GPUTENSORCOREMATMUL_H
#define TESSEL_CODEGEN_GPU_GPUTENSORCOREMATMUL_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir::tessel {

/// Whether `root` (the contraction of `kernel`) runs on tensor cores with
/// mma.sync: a matmul or batch matmul (one M, N and K loop, at most one
/// batch loop anywhere) of f16 or bf16 operands, any of the layouts NN, NT,
/// TN, TT, with static shapes, A and B read from bindings, and its result
/// (after fused elementwise epilogue ops) stored into a binding. If not,
/// `why` says what disqualifies it.
bool canUseTensorCoreMatmul(func::FuncOp kernel, Operation *root,
                            std::string &why);

/// A short description of the kernel canUseTensorCoreMatmul accepted
/// (types, block tile, stages), for --tessel-print-strategy.
std::string describeTensorCoreMatmul(Operation *root);

/// Replaces the computation of `kernel` by a tensor-core matmul: cp.async
/// copies of A and B tiles into a 3-stage swizzled shared-memory ring,
/// ldmatrix into registers, mma.sync.m16n8k16 into f32 (or f16)
/// accumulators, then the epilogue and masked stores. Sets the grid and
/// block size. The tensor ops left behind are dead.
LogicalResult emitTensorCoreMatmul(func::FuncOp kernel, Operation *root);

} // namespace mlir::tessel

#endif
