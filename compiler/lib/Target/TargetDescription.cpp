//===- TargetDescription.cpp - registry of target descriptions -*- C++ -*-===//
//
// CUDA architectures, each with a representative datacenter GPU's figures
// (the CUDA C Programming Guide's tables of compute capabilities):
//   sm_70 V100 (80 SMs), sm_75 T4 (40), sm_80 A100 (108), sm_86 A10 (72),
//   sm_89 L40S (142), sm_90 / sm_90a H100 SXM and H200 (132).
// SM counts feed cost models only (waves of tiles); grids that must be
// resident are checked at run time on the device that runs them.
// And each target's traits: what its backend takes beyond the strategies
// of its kernels (fusions, attention, split-K).
//
//===----------------------------------------------------------------------===//

#include "tessel/Target/TargetDescription.h"

#include "tessel/Codegen/CPU/CPUFlashAttention.h"
#include "tessel/Codegen/GPU/GPUFlashAttention.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

struct CUDAEntry {
  const char *arch;
  unsigned number;
  bool archSpecific; ///< the "a" variant (sm_90a)
  int64_t sms, sharedPerBlock, sharedPerSm, registersPerSm;
  bool mmaSync, wgmma, tma, clusters;
};

constexpr int64_t KiB = 1024;

/// Oldest first; an unlisted architecture takes the nearest older entry.
constexpr CUDAEntry kCUDAArchs[] = {
    {"sm_70", 70, false, 80, 96 * KiB, 96 * KiB, 65536, false, false, false,
     false},
    {"sm_75", 75, false, 40, 64 * KiB, 64 * KiB, 65536, false, false, false,
     false},
    {"sm_80", 80, false, 108, 163 * KiB, 164 * KiB, 65536, true, false, false,
     false},
    {"sm_86", 86, false, 72, 99 * KiB, 100 * KiB, 65536, true, false, false,
     false},
    {"sm_89", 89, false, 142, 99 * KiB, 100 * KiB, 65536, true, false, false,
     false},
    {"sm_90", 90, false, 132, 227 * KiB, 228 * KiB, 65536, true, false, true,
     true},
    {"sm_90a", 90, true, 132, 227 * KiB, 228 * KiB, 65536, true, true, true,
     true},
};

CUDATargetAttr describe(MLIRContext *ctx, StringRef name, const CUDAEntry &e) {
  ctx->getOrLoadDialect<TesselDialect>();
  Builder b(ctx);
  SmallVector<Attribute> mma;
  if (e.mmaSync)
    mma.push_back(b.getStringAttr("mma_sync"));
  if (e.wgmma)
    mma.push_back(b.getStringAttr("wgmma"));
  return CUDATargetAttr::get(ctx, b.getStringAttr(name), e.sms,
                             e.sharedPerBlock, e.sharedPerSm, e.registersPerSm,
                             b.getArrayAttr(mma), b.getBoolAttr(e.tma),
                             b.getBoolAttr(e.clusters));
}

} // namespace

FailureOr<CUDATargetAttr>
mlir::tessel::getCUDATargetDescription(MLIRContext *ctx, StringRef arch,
                                       std::string &why) {
  SmallVector<StringRef> match;
  if (!llvm::Regex("^sm_([0-9]+)(a?)$").match(arch, &match)) {
    why = ("invalid CUDA architecture '" + arch +
           "' (expected e.g. sm_80, sm_90, sm_90a)")
              .str();
    return failure();
  }
  unsigned number = 0;
  (void)match[1].getAsInteger(10, number);
  const CUDAEntry *nearest = nullptr;
  for (const CUDAEntry &e : kCUDAArchs) {
    if (e.arch == arch)
      return describe(ctx, arch, e);
    // An unlisted architecture: what the nearest older one has, never the
    // arch-specific instructions of another (sm_100a has no wgmma).
    if (e.number <= number && !e.archSpecific)
      nearest = &e;
  }
  if (!nearest) {
    why = ("CUDA architecture '" + arch + "' is older than " +
           kCUDAArchs[0].arch + ", the oldest Tessel knows")
              .str();
    return failure();
  }
  return describe(ctx, arch, *nearest);
}

FailureOr<CUDATargetAttr> mlir::tessel::getCUDAExecutableDescription(
    MLIRContext *ctx, ArrayRef<std::string> archs, std::string &why) {
  if (archs.empty()) {
    why = "no CUDA architecture";
    return failure();
  }
  SmallVector<CUDATargetAttr> all;
  for (const std::string &arch : archs) {
    FailureOr<CUDATargetAttr> d =
        getCUDATargetDescription(ctx, StringRef(arch), why);
    if (failed(d))
      return failure();
    all.push_back(*d);
  }
  CUDATargetAttr first = all.front();
  int64_t sharedPerBlock = first.getSharedPerBlock();
  int64_t sharedPerSm = first.getSharedPerSm();
  int64_t registers = first.getRegistersPerSm();
  bool tma = first.getTma().getValue(),
       clusters = first.getClusters().getValue();
  SmallVector<Attribute> mma(first.getMma().begin(), first.getMma().end());
  for (CUDATargetAttr d : ArrayRef(all).drop_front()) {
    sharedPerBlock = std::min(sharedPerBlock, d.getSharedPerBlock());
    sharedPerSm = std::min(sharedPerSm, d.getSharedPerSm());
    registers = std::min(registers, d.getRegistersPerSm());
    tma &= d.getTma().getValue();
    clusters &= d.getClusters().getValue();
    llvm::erase_if(mma, [&](Attribute kind) {
      return !d.hasMma(cast<StringAttr>(kind).getValue());
    });
  }
  Builder b(ctx);
  return CUDATargetAttr::get(ctx, first.getArch(), first.getSms(),
                             sharedPerBlock, sharedPerSm, registers,
                             b.getArrayAttr(mma), b.getBoolAttr(tma),
                             b.getBoolAttr(clusters));
}

CPUTargetAttr mlir::tessel::getCPUTargetDescription(MLIRContext *ctx,
                                                    StringRef cpu,
                                                    int64_t vectorBits) {
  constexpr int64_t kCores = 16;
  ctx->getOrLoadDialect<TesselDialect>();
  Builder b(ctx);
  return CPUTargetAttr::get(ctx, b.getStringAttr(cpu), vectorBits, kCores,
                            48 * KiB, 2048 * KiB, 32768 * KiB);
}

FailureOr<TargetTraits> mlir::tessel::getTargetTraits(StringRef target) {
  TargetTraits traits;
  // Rows: split below 2^13 rows from 4096 elements, into chunks of >= 1024
  // for ~2^16 rows (2^28 -> 2^16 -> 64 -> 1 over repeated splits, which
  // also bounds what one f32 accumulator adds). Columns: below 2^18
  // outputs from 256 elements, chunks of >= 64 for ~2^18 outputs. Chosen
  // for the GPU (issue 4's reductions at 93-99% of CUB); the CPU takes the
  // same numbers, not measured apart.
  traits.rowReductionSplit = {int64_t(1) << 13, 4096, 1024, int64_t(1) << 16};
  traits.columnReductionSplit = {int64_t(1) << 18, 256, 64,
                                 int64_t(1) << 18};
  if (target == "cuda") {
    traits.rowChainsWithSeveralResults = true;
    traits.primitiveGroups = true;
    traits.splitKForParallelism = true;
    // M <= 64: mma.sync 64x64 blocks (a 128-row wgmma tile would be half
    // zeros and 4096 columns only 16 tiles); M <= 256: tiles chosen for 2
    // rows of 128 (BERT's linear layers at batch 1 x 128 tokens: the 1024
    // plan left 3 blocks of 128x256 for N = 768); M <= 1024: wgmma with
    // tiles chosen for 8 rows of tiles; above: the large-problem choice.
    traits.matmulMBuckets = {64, 256, 1024};
    traits.attentionKeyDivisor = kFlashAttentionKeyTile;
    traits.takesAttention = canUseFlashAttention;
    return traits;
  }
  if (target == "cpu") {
    traits.takesAttention = canUseCPUFlashAttention;
    return traits;
  }
  return failure();
}
