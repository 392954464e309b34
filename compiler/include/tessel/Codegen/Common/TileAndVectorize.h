//===- TileAndVectorize.h - shared tiling/vectorization steps --*- C++ -*-===//
//
// The building blocks both targets' tile-and-vectorize passes are made of:
// tile an op and fuse its producers, tile reductions, vectorize what is
// small enough, hoist accumulators, clean up.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_COMMON_TILEANDVECTORIZE_H
#define TESSEL_CODEGEN_COMMON_TILEANDVECTORIZE_H

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace mlir::tessel {

/// The single op whose results every output binding of `kernel` stores (the
/// op that tiling starts from) if it is a linalg op on tensors with static
/// loop ranges (or, with `dynamicRanges`, any loop ranges); otherwise null
/// with the reason in `why`.
linalg::LinalgOp findTileableRoot(func::FuncOp kernel, std::string &why,
                                  bool dynamicRanges = false);


/// The single op whose results every output binding of `kernel` stores,
/// whatever it is; otherwise null with the reason in `why`.
Operation *findStoredRoot(func::FuncOp kernel, std::string &why);

/// The op marked tessel.strategy_root (by a select-strategy pass), or null.
Operation *findStrategyRoot(func::FuncOp kernel);

/// `root` (the strategy's root, found by findStrategyRoot) as an `OpTy`, or
/// an error at `kernel` saying that `strategy` needs it to be `what`.
template <typename OpTy>
FailureOr<OpTy> strategyRootAs(func::FuncOp kernel, Operation *root,
                               StrategyAttr strategy, StringRef what) {
  if (auto op = dyn_cast_or_null<OpTy>(root))
    return op;
  return kernel.emitError()
         << "strategy '" << stringifyStrategyKind(strategy.getKind())
         << "' needs its root (the op marked " << kStrategyRootAttr
         << ") to be " << what;
}

/// Width in bits of the widest element type among `op`'s operands (8 if
/// none is an integer or float).
int64_t widestElementBits(Operation *op);

/// Tiles `op` with `tiles` (0 = loop not tiled) into loops of `loopType` and
/// fuses its producers into the innermost loop; replaces `op`. Returns the
/// tiled op (`op` itself when every tile is 0). With `marker`, the outermost
/// generated loop gets that unit attribute. `mapping` (one attribute per
/// non-zero tile) becomes the scf.forall's mapping, which also keeps
/// canonicalization from folding away single-iteration dimensions.
FailureOr<Operation *> tileAndFuse(RewriterBase &rewriter, TilingInterface op,
                                   ArrayRef<int64_t> tiles,
                                   scf::SCFTilingOptions::LoopType loopType,
                                   StringRef marker = "",
                                   ArrayRef<Attribute> mapping = {});

/// Tiles loops of `op` with scf.for without fusing producers (fusing a
/// producer of an accumulator into a reduction loop would recompute it).
FailureOr<Operation *> tileReductions(RewriterBase &rewriter,
                                      TilingInterface op,
                                      ArrayRef<int64_t> tiles);

/// Vectorizes every structured op on tensors in `kernel` whose loop ranges
/// have static upper bounds with at most `maxElements` iterations; partial
/// tiles get masks. Ops that would be unsafe or too large stay scalar, and
/// so do partial tiles of reductions unless `maskReductions` (masked
/// reductions of small floats never: their emulation cannot enter masks).
/// On the GPU a masked 4x4x4 matmul tile runs 4.2x faster than the scalar
/// one; on the CPU a masked 8x16x8 edge tile ran 4.6x slower than scalar
/// (bench/RESULTS.md), so the CPU keeps scalar edges.
void vectorizeSmallOps(RewriterBase &rewriter, func::FuncOp kernel,
                       int64_t maxElements, bool maskReductions = false);

/// Moves loop-invariant accumulator reads/writes out of scf.for loops.
void hoistAccumulators(RewriterBase &rewriter, func::FuncOp kernel);

/// Folds the slices, masks and loops that tiling and vectorization leave.
void cleanupAfterTiling(func::FuncOp kernel);

} // namespace mlir::tessel

#endif
