//===- CUDAFrontend.h - CUDA C to MLIR -------------------------*- C++ -*-===//
//
// Parses a .cu file with clang (device side) and emits one func.func per
// `__global__` kernel (marked tessel.cuda_kernel, public, named by its
// mangled name, the name the host side registers) with the `__device__`
// functions it calls (private). A kernel body is the code of one thread:
// ids are gpu.thread_id / block_id / block_dim / grid_dim, `__shared__`
// variables are llvm.mlir.globals in address space 3, __syncthreads() is
// tessel.barrier, memory is reached through !llvm.ptr loads and stores,
// and control flow is structured (scf.if / scf.while; break, continue and
// early return set flags that guard what follows).
//
// Anything outside the supported subset is an error at the construct's
// file:line:col naming what it is; nothing is translated approximately.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_FRONTEND_CUDA_CUDAFRONTEND_H
#define TESSEL_FRONTEND_CUDA_CUDAFRONTEND_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace mlir::tessel {

struct CUDAFrontendOptions {
  /// Tessel's CUDA headers (cuda_runtime.h & co.; see
  /// compiler/lib/Frontend/CUDA/headers); "" uses the CUDA toolkit at
  /// `cudaPath` instead.
  std::string headerDir;
  std::string cudaPath;
  /// clang's resource directory (its own headers).
  std::string resourceDir;
  /// The device architecture clang parses for (affects __CUDA_ARCH__).
  std::string cudaArch = "sm_80";
  /// Extra compiler arguments: -I, -D, -std=...
  std::vector<std::string> extraArgs;
};

/// Imports the kernels of `path` into a new module. On failure, the errors
/// were reported through the context's diagnostic handler (clang's own
/// errors are printed by clang, with their locations).
OwningOpRef<ModuleOp> importCUDAFile(MLIRContext &context,
                                     const std::string &path,
                                     const CUDAFrontendOptions &options);

/// Registers the dialects the importer emits.
/// The clang driver arguments that select the CUDA headers and clang's
/// resource directory of `options`, for both sides of a CUDA compile
/// (tessel-cc's host compile uses them too).
std::vector<std::string> cudaHeaderArguments(const CUDAFrontendOptions &options);

/// nvcc accepts a launch whose chevrons are split by blanks,
/// `k << < grid, block >> > (args)`; clang lexes `<<` `<` and rejects it.
/// Returns `source` with each such launch written `<<<` ... `>>>` (blanks
/// kept after the chevrons, so lines and columns do not move) and their
/// number in `count`. `<<` followed by blanks and `<` is never valid C++
/// otherwise.
std::string respaceSplitLaunches(llvm::StringRef source, unsigned &count);

void registerCUDAFrontendDialects(DialectRegistry &registry);

} // namespace mlir::tessel

#endif
