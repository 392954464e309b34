//===- NarrowThreadLoops.h - thread-loop bounds from a guarding if --------===//
//
// See lib/Transpile/NarrowThreadLoops.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TRANSPILE_NARROWTHREADLOOPS_H
#define TESSEL_TRANSPILE_NARROWTHREADLOOPS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::tessel {

/// A barrier-free thread loop whose effects are all inside one `if` on its
/// thread index against uniform values (`tx + o <= m`, `tx == 0`, ...)
/// iterates over the admitted indices only: the comparison becomes loop
/// bounds, and what else the condition tests stays in the `if`. (The
/// pass's split-guards step, which gives such an `if` among other
/// accesses a thread loop of its own first, is not a pattern: it creates
/// loops.)
void populateNarrowThreadLoopsPatterns(RewritePatternSet &patterns);

} // namespace mlir::tessel

#endif
