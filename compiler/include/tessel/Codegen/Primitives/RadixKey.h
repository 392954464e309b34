//===- RadixKey.h - radix order of a sort's keys ----------------*- C++ -*-===//
//
// Which sorts are radix sorts and their key order: PrimitiveContract.h.
//
// The element level: the digit of one key, in registers. The passes are
// the loops of one thread on the CPU (LowerPrimitivesToLoops) and a
// persistent grid on the GPU (GridRadixSort.h).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_PRIMITIVES_RADIXKEY_H
#define TESSEL_CODEGEN_PRIMITIVES_RADIXKEY_H

#include "tessel/Dialect/Tessel/PrimitiveContract.h"

#include "mlir/IR/Builders.h"

namespace mlir::tessel {

/// The digit (an i32 in [0, kRadixBuckets)) of `key` in pass `pass`.
Value emitRadixDigit(OpBuilder &b, Location loc, Value key,
                     const RadixKey &order, int64_t pass);

} // namespace mlir::tessel

#endif
