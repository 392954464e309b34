//===- VectorLowering.h - target-neutral vector lowering -------*- C++ -*-===//

#ifndef TESSEL_CODEGEN_COMMON_VECTORLOWERING_H
#define TESSEL_CODEGEN_COMMON_VECTORLOWERING_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::tessel {

/// Lowers vector ops to 1-D forms that convert-vector-to-llvm takes:
/// contractions as outer products/FMAs, multi-reductions, transposes, masks,
/// n-D transfers, broadcasts, shape casts and strided slices.
void populateVectorLoweringPatterns(RewritePatternSet &patterns);

} // namespace mlir::tessel

#endif
