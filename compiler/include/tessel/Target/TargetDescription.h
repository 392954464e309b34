//===- TargetDescription.h - registry of target descriptions -*- C++ -*-===//
//
// What each architecture Tessel compiles for offers its strategies, as the
// attributes the select-strategy passes read (#tessel.cuda_target,
// #tessel.cpu_target). One table per target kind; a strategy never
// hard-codes a device constant.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TARGET_TARGETDESCRIPTION_H
#define TESSEL_TARGET_TARGETDESCRIPTION_H

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include <string>

namespace mlir::tessel {

/// The description of one CUDA architecture ("sm_80", "sm_90a", ...): the
/// registry's entry, or for an architecture it does not list (a newer
/// one), the nearest older entry under the name asked for. Failure (with
/// `why`) for a name that is not sm_NN[a] or older than the registry.
FailureOr<CUDATargetAttr>
getCUDATargetDescription(MLIRContext *ctx, StringRef arch, std::string &why);

/// The description of an executable that runs on every one of `archs`
/// (PTX for the first): the first's name and SMs, the least shared memory
/// and registers, and only what all of them have.
FailureOr<CUDATargetAttr>
getCUDAExecutableDescription(MLIRContext *ctx, ArrayRef<std::string> archs,
                             std::string &why);

/// The description of a CPU executable: `cpu` (an LLVM CPU name), its
/// widest vector register, and the machine the thread pool is expected to
/// have: a 16-core server with 48 KiB L1, 2 MiB L2 per core and 32 MiB L3
/// (the machine the CPU strategies were tuned on).
CPUTargetAttr getCPUTargetDescription(MLIRContext *ctx, StringRef cpu,
                                      int64_t vectorBits);

} // namespace mlir::tessel

#endif
