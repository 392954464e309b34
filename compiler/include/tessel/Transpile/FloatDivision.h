//===- FloatDivision.h - i32 divisions of thread loops as f64 -------------===//
//
// See lib/Transpile/FloatDivision.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TRANSPILE_FLOATDIVISION_H
#define TESSEL_TRANSPILE_FLOATDIVISION_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tessel {

/// In `threads`, a thread loop holding no other loop (LLVM's vectorizer
/// takes it), computes each integer division and remainder of at most 32
/// bits by a non-constant divisor as an f64 division, exact for such
/// operands, which vectorizes (vdivpd) where the integer one is scalarized.
void divideInFloat(scf::ParallelOp threads);

} // namespace mlir::tessel

#endif
