//===- TargetUtils.cpp - steps every target backend shares -----*- C++ -*-===//

#include "tessel/Target/TargetUtils.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include "module_generated.h"

using namespace mlir;
using namespace mlir::tessel;
namespace fb = ::tessel::fb;

namespace {

/// Emits the integer instructions of schema/module.fbs that compute affine
/// expressions over the push constants (registers 0 .. n - 1), with
/// floordiv, ceildiv and mod exact for every sign of the dividend.
class CountProgramBuilder {
public:
  explicit CountProgramBuilder(unsigned pushConstants)
      : next(pushConstants) {}

  FailureOr<uint32_t> emit(AffineExpr e) {
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return constant(c.getValue());
    if (auto s = dyn_cast<AffineSymbolExpr>(e))
      return s.getPosition();
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin)
      return failure();
    FailureOr<uint32_t> a = emit(bin.getLHS()), b = emit(bin.getRHS());
    if (failed(a) || failed(b))
      return failure();
    switch (e.getKind()) {
    case AffineExprKind::Add: return op(fb::Opcode_Add, *a, *b);
    case AffineExprKind::Mul: return op(fb::Opcode_Mul, *a, *b);
    case AffineExprKind::Mod: {
      // Affine mod takes a positive divisor and is never negative.
      uint32_t r = op(fb::Opcode_RemS, *a, *b);
      return op(fb::Opcode_RemS, op(fb::Opcode_Add, r, *b), *b);
    }
    case AffineExprKind::FloorDiv:
    case AffineExprKind::CeilDiv: {
      uint32_t q = op(fb::Opcode_DivS, *a, *b);
      uint32_t r = op(fb::Opcode_RemS, *a, *b);
      uint32_t zero = constant(0);
      uint32_t inexact = op(fb::Opcode_CmpNe, r, zero);
      // The truncated quotient is one too high (floor) when the remainder
      // and the divisor differ in sign, one too low (ceil) when they agree.
      uint32_t sameSign = op(fb::Opcode_CmpEq, op(fb::Opcode_CmpLt, r, zero),
                             op(fb::Opcode_CmpLt, *b, zero));
      if (e.getKind() == AffineExprKind::CeilDiv)
        return op(fb::Opcode_Add, q, op(fb::Opcode_And, inexact, sameSign));
      uint32_t differ = op(fb::Opcode_CmpEq, sameSign, zero);
      return op(fb::Opcode_Sub, q, op(fb::Opcode_And, inexact, differ));
    }
    default:
      return failure();
    }
  }

  WorkgroupCountProgram program;
  uint32_t next;

private:
  uint32_t constant(int64_t value) {
    program.instructions.push_back({fb::Opcode_Int, next, value});
    return next++;
  }
  uint32_t op(fb::Opcode opcode, uint32_t a, uint32_t b) {
    program.instructions.push_back({opcode, next, a, b});
    return next++;
  }
};

} // namespace

LogicalResult mlir::tessel::readWorkgroupCount(Location loc, Operation *fn,
                                               KernelExport &e) {
  auto count = fn ? fn->getAttrOfType<DenseI64ArrayAttr>(kWorkgroupCountAttr)
                  : DenseI64ArrayAttr();
  if (!count || count.size() != 3)
    return emitError(loc) << "internal error: kernel '" << e.name
                          << "' lost its workgroup count";
  for (int i = 0; i < 3; ++i)
    e.workgroupCount[i] = count[i];
  if (auto n = fn->getAttrOfType<IntegerAttr>(kPushConstantCountAttr))
    e.pushConstantCount = n.getInt();
  auto map = fn->getAttrOfType<AffineMapAttr>(kWorkgroupCountMapAttr);
  if (!map)
    return success();
  CountProgramBuilder builder(e.pushConstantCount);
  for (auto [i, expr] : llvm::enumerate(map.getValue().getResults())) {
    FailureOr<uint32_t> reg = builder.emit(expr);
    if (failed(reg) || i >= 3)
      return emitError(loc) << "internal error: kernel '" << e.name
                            << "' has a workgroup count the module cannot "
                               "express: "
                            << map;
    builder.program.results[i] = *reg;
  }
  builder.program.intRegisters = builder.next;
  e.workgroupCountProgram = std::move(builder.program);
  return success();
}

OwningOpRef<ModuleOp>
mlir::tessel::cloneDispatchFunctions(ModuleOp module,
                                     std::vector<KernelExport> &exports) {
  OwningOpRef<ModuleOp> kernels = cast<ModuleOp>(module->clone());
  // Only the kernels: host functions and the parameters (ml_program
  // globals, which kernels take as bindings) go.
  for (Operation &op :
       llvm::make_early_inc_range(kernels->getBody()->getOperations())) {
    auto fn = dyn_cast<func::FuncOp>(op);
    if (!fn || !fn->hasAttr(kDispatchFunctionAttr)) {
      op.erase();
      continue;
    }
    KernelExport e;
    e.name = fn.getSymName().str();
    e.bindingCount = fn.getNumArguments() + fn.getNumResults();
    exports.push_back(e);
  }
  return kernels;
}

FailureOr<std::vector<KernelExport>>
mlir::tessel::cudaCKernelExports(ModuleOp module) {
  std::vector<KernelExport> exports;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn->hasAttr(kCUDAKernelAttr) || fn.isExternal())
      continue;
    KernelExport e;
    e.name = fn.getSymName().str();
    e.abi = KernelAbi::CudaC;
    auto sizes = fn->getAttrOfType<DenseI64ArrayAttr>(kCUDAParameterSizesAttr);
    if (!sizes)
      return emitError(fn.getLoc()) << "internal error: kernel '" << e.name
                                    << "' has no parameter sizes";
    for (int64_t size : sizes.asArrayRef())
      e.parameterSizes.push_back(static_cast<uint32_t>(size));
    exports.push_back(std::move(e));
  }
  return exports;
}

LogicalResult mlir::tessel::writeFile(Location loc, StringRef path,
                                      StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return emitError(loc) << "cannot write '" << path << "': " << ec.message();
  os << bytes;
  return success();
}
