//===- SourceGuards.h - input checks around the MLIR parser -----*- C++ -*-===//
//
// Upstream MLIR 22 crashes on some malformed inputs instead of reporting
// them (a parse failure its custom parsers do not check, a verifier that
// trusts an attribute). These checks find such inputs first, in the source
// text or in the parsed IR before it is verified, and report them with a
// location, so that tessel-compile never crashes on them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_INPUT_SOURCEGUARDS_H
#define TESSEL_INPUT_SOURCEGUARDS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::tessel {

/// Emits an error (at the offending text) and fails for inputs known to
/// crash the parser:
/// - `dimensions = ` / `permutation = ` (linalg.reduce, broadcast,
///   transpose in custom form) not followed by `[` integers `]`: MLIR 22's
///   parser stores the null attribute of a failed parse and crashes;
/// - a linalg op in custom form whose `<` after the name (and
///   indexing_maps) does not open a dictionary `<{`: MLIR 22 casts any
///   attribute there to a dictionary;
/// - an expand_shape / collapse_shape whose reassociation is not a list
///   of non-empty groups of consecutive dimensions: MLIR 22's verifier
///   crashes on an empty group `[[]]`;
/// - a TOSA op in custom form whose attribute dictionary has an entry that
///   is not `name = value` with a bare name (a quoted name, an extra
///   comma): MLIR 22's TOSA parsers fail without a message.
LogicalResult checkSourceForParserHazards(const llvm::SourceMgr &sourceMgr,
                                          MLIRContext *context);

/// Emits an error (at the op) and fails for parsed, not yet verified IR
/// that crashes MLIR 22's verifier: a linalg.broadcast whose `dimensions`
/// list a dimension twice (its verifier then reads past the input's shape).
LogicalResult checkForVerifierHazards(ModuleOp module);

/// The source guards, the MLIR parser, the verifier hazards, then the
/// verifier. A parse that fails without an error (an upstream custom parser
/// that does not report its failure) gets one at the start of the input
/// saying so: every rejected input is told why. Null on failure.
OwningOpRef<ModuleOp> parseInputSource(llvm::SourceMgr &sourceMgr,
                                       MLIRContext *context);

} // namespace mlir::tessel

#endif
