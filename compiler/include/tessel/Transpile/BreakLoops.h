//===- BreakLoops.h - loops with a break flag, values advanced freely -----===//
//
// See lib/Transpile/BreakLoops.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TRANSPILE_BREAKLOOPS_H
#define TESSEL_TRANSPILE_BREAKLOOPS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::tessel {

/// In a promoted loop whose condition is gated by a break flag, a carried
/// value not read after the loop is yielded as it is when the flag is
/// clear (the value yielded with the flag set is never read).
void populateSimplifyBreakLoopsPatterns(RewritePatternSet &patterns);

} // namespace mlir::tessel

#endif
