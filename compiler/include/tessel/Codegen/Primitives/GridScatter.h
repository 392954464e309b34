//===- GridScatter.h - GPU strategy for tessel.scatter ---------*- C++ -*-===//
//
// The grid level of a scatter: a persistent grid of at most
// kGridScatterBlocks blocks of 256 threads, kGridScatterBlocksPerSM per SM
// of the GPU that runs it (the runtime sizes the grid; the kernel strides
// by gridDim.x). Phase 1 writes the original into the result
// binding (a fill or a copy, grid-stride); a grid barrier (a counter in the
// scatter's workspace, zeroed by its own dispatch) orders it before phase
// 2, in which each thread takes updates grid-stride, checks their indices
// (out of range: skipped) and combines them into the result: plain loads
// and stores with unique_indices, else a hardware atomic when the combiner
// is one (add, min, max, and, or, xor, replace) and a compare-and-swap
// loop otherwise. The barrier needs every block resident at once: 4
// blocks per SM (for enough updates in flight; the kernel asks for 5,
// nvvm.minctasm), fewer where the runtime finds the device holds fewer; a
// barrier that waits too long traps (a launch failure the runtime
// reports) instead of hanging.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_PRIMITIVES_GRIDSCATTER_H
#define TESSEL_CODEGEN_PRIMITIVES_GRIDSCATTER_H

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tessel {

inline constexpr int64_t kGridScatterBlocksPerSM = 4;
/// The compiled grid: 4 blocks on each of a 132-SM GPU's SMs.
inline constexpr int64_t kGridScatterBlocks = kGridScatterBlocksPerSM * 132;
inline constexpr int64_t kGridScatterMinBlocksPerSM = 5;

/// The atomic that implements the combiner `yield op(update, current)`
/// (either operand order for commutative ops; assign for a replace), if
/// there is one.
std::optional<arith::AtomicRMWKind> scatterAtomicKind(ScatterOp scatter);

/// Combines `update` into `output` (a memref) at `at`: a load, the
/// combiner and a store with unique indices, else `atomic` when there is
/// one, else a compare-and-swap loop.
void emitScatterCombine(OpBuilder &b, Location loc, ScatterOp scatter,
                        Value output, ValueRange at, Value update,
                        std::optional<arith::AtomicRMWKind> atomic);

bool canUseGridScatter(func::FuncOp kernel, ScatterOp scatter,
                       std::string &why);
std::string describeGridScatter(ScatterOp scatter);
LogicalResult emitGridScatter(func::FuncOp kernel, ScatterOp scatter);

} // namespace mlir::tessel

#endif
