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

/// What a target's backend takes beyond the strategies of its kernels.
/// The passes before code generation (dispatch formation, attention) serve
/// every target of a module: they ask each target and form only what all
/// of them take.
struct TargetTraits {
  /// A row chain (softmax, layernorm) with several stored results in one
  /// dispatch (not cpu: its kernels are tiled by their one stored value).
  bool rowChainsWithSeveralResults = false;
  /// A scan with its elementwise producer, consumers and scatter in one
  /// dispatch (not cpu: one primitive per dispatch).
  bool primitiveGroups = false;
  /// Contractions with too few output tiles to fill the device get their K
  /// loop split (cuda: grids must fill ~100+ SMs). A module shares its host
  /// program, so one target that asks splits K for all.
  bool splitKForParallelism = false;
  /// Buckets of a dynamic M for which a matmul dispatch gets its own
  /// variant (tessel-specialize-dispatches: upper ends, ascending). A module
  /// shares its host program, so the union of its targets' buckets.
  SmallVector<int64_t, 2> matmulMBuckets;
  /// A dispatch of an attention with a dynamic key length K2 gets a
  /// variant for K2 a multiple of this (cuda: the flash kernel's key tile,
  /// whose masks the variant drops); 0: none.
  int64_t attentionKeyDivisor = 0;
  /// A lone reduction with too few outputs to keep the target busy is
  /// split (tessel-legalize-input) into partial reductions over chunks of
  /// its reduced loop, then a reduction of the partials: below
  /// `maxOutputs` outputs and from `minReduced` reduced elements, into
  /// chunks of at least `minChunk` for about `wantedOutputs` partial
  /// outputs. All zero: never.
  struct ReductionSplit {
    int64_t maxOutputs = 0, minReduced = 0, minChunk = 0, wantedOutputs = 0;
  };
  /// Reduced loop innermost (row-like: a warp or a vector reduces a row).
  ReductionSplit rowReductionSplit;
  /// Reduced loop outside a parallel one (column-like: each thread walks
  /// the reduced loop).
  ReductionSplit columnReductionSplit;
  /// Whether a kernel of the target takes `op` whole (cuda: the flash
  /// attention kernel; cpu: the attention loop nest), else why not.
  bool (*takesAttention)(AttentionOp op, std::string &why) = nullptr;
};

/// The traits of target "cuda" or "cpu"; failure for any other name.
FailureOr<TargetTraits> getTargetTraits(StringRef target);

} // namespace mlir::tessel

#endif
