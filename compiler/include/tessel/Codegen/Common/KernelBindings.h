//===- KernelBindings.h - a kernel's bindings, for hand-built code -*- C++ -*-===//
//
// What the strategies that write a kernel directly on its binding memrefs
// (GPU matmuls and reductions, grid primitives, the attention kernels of
// both targets) use to find those memrefs after tessel-materialize-kernel-
// abi, and to split a linear id into indices.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_COMMON_KERNELBINDINGS_H
#define TESSEL_CODEGEN_COMMON_KERNELBINDINGS_H

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"

namespace mlir::tessel {

/// The memref a kernel's tensor operand was read from (a binding), if any.
Value bindingMemRef(Value tensor);

/// The store of `result` into a result binding when that store is its only
/// use; null otherwise.
bufferization::MaterializeInDestinationOp bindingStore(Value result);

/// The indices of row `row` of `rowShape` (row-major; an extent may be a
/// value computed in the kernel); `row` must be inside the shape.
SmallVector<Value> delinearizeRow(OpBuilder &b, Location loc, Value row,
                                  ArrayRef<OpFoldResult> rowShape);
SmallVector<Value> delinearizeRow(OpBuilder &b, Location loc, Value row,
                                  ArrayRef<int64_t> rowShape);

} // namespace mlir::tessel

#endif
