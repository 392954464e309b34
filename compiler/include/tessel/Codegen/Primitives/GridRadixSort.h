//===- GridRadixSort.h - GPU strategy for a radix tessel.sort ---*- C++ -*-===//
//
// The grid level of a radix sort (RadixKey.h): one persistent kernel of at
// most gridRadixSortBlocks(n) blocks x 256 threads, 4 per SM of the GPU
// that runs it (the runtime sizes the grid; the kernel divides the tiles
// by gridDim.x), each block owning a contiguous run of 2048-element tiles. Per pass of 8
// bits, least significant first:
//  1. each block counts the digits of its run (shared-memory atomics) into
//     counts[block][digit] of the counts workspace; grid barrier;
//  2. each thread (= digit) sums its digit's counts over all blocks and
//     over the blocks before its own; a block scan over the digit totals
//     gives every (block, digit) its first output position;
//  3. the block walks its tiles in order. Each warp ranks its 8 rows of
//     32 consecutive elements against its own 256 digit counters (8
//     ballots find the lanes with the same digit; the first adds their
//     number), a column scan per digit over the warps and a block scan
//     over the digits place each element in the tile reordered by digit;
//     when a tile of every operand fits in 32 KiB of shared memory the
//     tile is reordered there and each thread stores consecutive elements
//     of a digit's run (coalesced), else each element is stored from its
//     lane; grid barrier before the next pass.
// Passes alternate between the output bindings and the scratch
// workspaces so that the last one writes the outputs. The grid barrier
// needs every block resident: the kernel asks for 4 blocks per SM
// (nvvm.minctasm) and the runtime launches no more than the device holds
// at once.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_PRIMITIVES_GRIDRADIXSORT_H
#define TESSEL_CODEGEN_PRIMITIVES_GRIDRADIXSORT_H

#include "tessel/Dialect/Tessel/PrimitiveContract.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tessel {

bool canUseGridRadixSort(func::FuncOp kernel, SortOp sort, std::string &why);
std::string describeGridRadixSort(SortOp sort);
LogicalResult emitGridRadixSort(func::FuncOp kernel, SortOp sort);

} // namespace mlir::tessel

#endif
