//===- TesselDialect.h - Tessel dialect ------------------------*- C++ -*-===//
//
// The Tessel dialect: the host/dispatch boundary (tessel.dispatch) and the
// kernel binding table (tessel.binding).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TESSELDIALECT_H
#define TESSEL_DIALECT_TESSEL_TESSELDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"

#include "tessel/Dialect/Tessel/TesselDialect.h.inc"
#include "tessel/Dialect/Tessel/TesselEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tessel/Dialect/Tessel/TesselAttrs.h.inc"

#define GET_OP_CLASSES
#include "tessel/Dialect/Tessel/TesselOps.h.inc"

namespace mlir::tessel {
/// Whether `op` is one of the primitive ops.
bool isPrimitiveOp(Operation *op);

/// Marks a linalg.fill that zeroes a primitive's workspace (a scan's
/// look-back status words): it is a dispatch of its own, never cloned into
/// its consumer, and its value (unique per workspace) keeps CSE from
/// sharing one workspace between two scans.
inline constexpr llvm::StringLiteral kWorkspaceAttr = "tessel.workspace";
/// A kernel's strategy (#tessel.strategy), written by the target's
/// select-strategy pass and read by its lowering.
inline constexpr llvm::StringLiteral kStrategyAttr = "tessel.strategy";
/// Marks the op of a kernel that its strategy applies to (the contraction,
/// the primitive, the op whose tiles define the workgroups).
inline constexpr llvm::StringLiteral kStrategyRootAttr =
    "tessel.strategy_root";
/// The target description (#tessel.cuda_target, #tessel.cpu_target) on the
/// module of one executable's kernels.
inline constexpr llvm::StringLiteral kTargetAttr = "tessel.target";
/// Marks a private func.func that is the body of one dispatch.
inline constexpr llvm::StringLiteral kDispatchFunctionAttr =
    "tessel.dispatch_function";
/// On a tessel.dispatch: for each result, the operand whose buffer it is
/// written into (i64), or -1 for a new buffer. A tied result is an update
/// in place (module state): the kernel writes only what changes, and the
/// operand's old value is read by nothing after the dispatch.
inline constexpr llvm::StringLiteral kTiedOperandsAttr = "tessel.tied_operands";
/// Marks a dispatch function that has the kernel ABI signature.
inline constexpr llvm::StringLiteral kKernelAttr = "tessel.kernel";
/// Bindings of a kernel (i64): its operands and results. With the
/// binding-table ABI these are the first entries of the table, then its push
/// constants, then the dispatch scratch, if any.
inline constexpr llvm::StringLiteral kBindingCountAttr = "tessel.binding_count";
/// Push constants of a kernel (i64; tessel.push_constant): the dynamic
/// dimensions of its operands and results (schema Export.push_constant_count).
inline constexpr llvm::StringLiteral kPushConstantCountAttr =
    "tessel.push_constant_count";
/// What a specialized variant of a kernel may assume about its push
/// constants (tessel-specialize-dispatches): one i64 per push constant, the
/// extent strategies plan for (the bucket's upper end), 0 where nothing is
/// assumed. Codegen stays correct for any value; only tile choices use it.
inline constexpr llvm::StringLiteral kAssumedExtentsAttr =
    "tessel.assumed_extents";
/// What a specialized variant of a kernel knows of its push constants'
/// divisibility (tessel-specialize-dispatches): one i64 per push constant,
/// a divisor of its value, 0 where none is known. Unlike assumed extents
/// this is a precondition: the host branches to the variant only when it
/// holds, and codegen may drop the masks it makes unnecessary.
inline constexpr llvm::StringLiteral kAssumedDivisorsAttr =
    "tessel.assumed_divisors";
/// A kernel's workgroup count as a function of its push constants, when it
/// is not static: an affine map ()[push constants] -> (x, y, z), written by
/// setWorkgroupCount; the targets turn it into the schema's
/// WorkgroupCountProgram.
inline constexpr llvm::StringLiteral kWorkgroupCountMapAttr =
    "tessel.workgroup_count_map";
/// Bytes of a cpu kernel's dispatch scratch, shared by all of its
/// workgroups (i64), and of its prefix zeroed before each dispatch (i64);
/// read by the CPU target into Export.scratch_bytes/scratch_zeroed_bytes.
inline constexpr llvm::StringLiteral kScratchBytesAttr = "tessel.scratch_bytes";
inline constexpr llvm::StringLiteral kScratchZeroedBytesAttr =
    "tessel.scratch_zeroed_bytes";
/// Marks the scf.forall whose iterations are the kernel's workgroups.
inline constexpr llvm::StringLiteral kWorkgroupsAttr = "tessel.workgroups";
/// Static workgroup count of a kernel: array<i64: x, y, z>.
inline constexpr llvm::StringLiteral kWorkgroupCountAttr =
    "tessel.workgroup_count";
/// Static block size of a GPU kernel: array<i64: x, y, z>.
inline constexpr llvm::StringLiteral kWorkgroupSizeAttr =
    "tessel.workgroup_size";
/// Dynamic shared memory of a GPU kernel in bytes (i64), when it has any.
inline constexpr llvm::StringLiteral kSharedMemoryBytesAttr =
    "tessel.shared_memory_bytes";
/// TMA tensor maps of a GPU kernel (its last arguments, one !llvm.ptr
/// each, passed by value): an array of dictionaries, one per map, read by
/// the CUDA target into the module's Export.tensor_maps.
inline constexpr llvm::StringLiteral kTensorMapsAttr = "tessel.tensor_maps";

// --- Imported CUDA kernels (Frontend/CUDA, Transpile/) ----------------------
/// Marks a func.func that is a CUDA `__global__` kernel. Its body is the
/// code of one thread (ids from gpu.thread_id etc.) until
/// tessel-cuda-to-parallel-loops gives it explicit grid and block loops.
inline constexpr llvm::StringLiteral kCUDAKernelAttr = "tessel.cuda_kernel";
/// Bytes of each parameter of a CUDA kernel as the host passes it:
/// array<i64>.
inline constexpr llvm::StringLiteral kCUDAParameterSizesAttr =
    "tessel.cuda_parameter_sizes";
/// Marks the scf.parallel over a kernel's blocks (the grid loop).
inline constexpr llvm::StringLiteral kCUDABlocksAttr = "tessel.cuda_blocks";
/// Marks an scf.parallel over the threads of one block: barriers inside
/// synchronize its iterations.
inline constexpr llvm::StringLiteral kCUDAThreadsAttr = "tessel.cuda_threads";
/// Marks the llvm.mlir.global in address space 3 that an `extern
/// __shared__` array names: the launch's dynamic shared memory.
inline constexpr llvm::StringLiteral kCUDADynamicSharedAttr =
    "tessel.cuda_dynamic_shared";
/// Address space of `__shared__` variables (NVPTX's numbering).
inline constexpr unsigned kCUDASharedAddressSpace = 3;
} // namespace mlir::tessel

#endif
