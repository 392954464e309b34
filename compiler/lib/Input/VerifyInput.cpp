//===- VerifyInput.cpp - tessel-verify-input -------------------*- C++ -*-===//
//
// The front door: rejects what Tessel cannot compile with a diagnostic that
// names the op, the type and the reason, before any pass can trip over it.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"
#include "tessel/Target/ModuleWriter.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_VERIFYINPUT
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;

namespace {

/// Returns a reason why `t` cannot be a tensor of a Tessel program, or "".
std::string unsupportedTensorReason(Type t, bool boundary) {
  std::string out;
  llvm::raw_string_ostream os(out);
  if (isa<UnrankedTensorType>(t)) {
    os << "unranked tensor " << t << " is not supported (tensors must be ranked)";
    return out;
  }
  auto tensor = dyn_cast<RankedTensorType>(t);
  if (!tensor) {
    if (boundary)
      os << "type " << t << " is not supported at a function boundary "
         << "(only ranked tensors are)";
    return out;
  }
  if (tensor.getEncoding()) {
    os << "tensor encoding in " << t << " is not supported";
    return out;
  }
  if (boundary && !tessel::isModuleElementType(tensor.getElementType())) {
    os << "element type " << tensor.getElementType() << " in " << t
       << " is not supported (expected f64, f32, f16, bf16, i64, i32, i16, "
          "i8 or i1)";
    return out;
  }
  return out;
}

/// Whether `op` is in the host program: directly in a function body or in
/// host control flow, never inside a computation (a linalg body, a tessel
/// op).
bool inHostProgram(Operation *op) {
  return isa<func::FuncOp, scf::IfOp, scf::ForOp, scf::WhileOp>(
      op->getParentOp());
}

/// Host control flow: scf.if, scf.for and scf.while (with their
/// terminators) in the host program.
bool isHostControlFlow(Operation *op) {
  return isa<scf::IfOp, scf::ForOp, scf::WhileOp, scf::YieldOp,
             scf::ConditionOp>(op) &&
         inHostProgram(op);
}

/// A check of the host program: cf.assert.
bool isHostAssert(Operation *op) {
  return isa<cf::AssertOp>(op) && inHostProgram(op);
}

/// A read of a module parameter, or a read or write of module state, in
/// the host program.
bool isHostParameterAccess(Operation *op) {
  return isa<ml_program::GlobalLoadConstOp, ml_program::GlobalLoadOp,
             ml_program::GlobalStoreOp>(op) &&
         inHostProgram(op);
}

bool isAcceptedDialect(Operation *op) {
  StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
  return isHostControlFlow(op) || isHostAssert(op) ||
         isHostParameterAccess(op) || ns == "func" ||
         ns == "linalg" || ns == "tensor" || ns == "arith" ||
         ns == "math" || ns == "tosa" || isa<ModuleOp>(op) ||
         tessel::isPrimitiveOp(op) || isa<tessel::AttentionOp>(op) ||
         (isa<tessel::YieldOp>(op) &&
          (tessel::isPrimitiveOp(op->getParentOp()) ||
           isa<tessel::AttentionOp>(op->getParentOp())));
}

/// Why TOSA op `op` cannot be compiled, or "" if upstream MLIR 22's
/// TOSA-to-linalg/tensor/arith conversions (buildTosaToLinalgPipeline) lower
/// it. The list was found by compiling every TOSA op (test/e2e/cases/tosa_*
/// cover the accepted ones).
std::string unsupportedTosaReason(Operation *op) {
  StringRef name = op->getName().stripDialect();
  if (name == "variable" || name == "variable_read" ||
      name == "variable_write")
    return "TOSA variables (state kept between calls) are not supported";
  if (name == "custom")
    return "a custom TOSA op has no lowering";
  if (name == "matmul_t_block_scaled" || name == "cast_from_block_scaled" ||
      name == "cast_to_block_scaled")
    return "block-scaled (MX) types are not supported";
  if (name == "scatter")
    return "MLIR 22 has no lowering of tosa.scatter to linalg; use "
           "tessel.scatter";
  // Shape values (!tosa.shape) must be constants: MLIR 22 neither folds nor
  // lowers the shape computations (tosa.add_shape, tosa.dim, ...).
  if (name == "dim" || (name.ends_with("_shape") && name != "const_shape"))
    return "TOSA shape computations have no lowering in MLIR 22 (shape "
           "operands must be tosa.const_shape)";
  if (auto rescale = dyn_cast<tosa::RescaleOp>(op))
    if (rescale.getRoundingMode() == tosa::RoundingMode::INEXACT_ROUND)
      return "rounding_mode INEXACT_ROUND has no lowering in MLIR 22 (use "
             "SINGLE_ROUND or DOUBLE_ROUND)";
  // MLIR 22 lowers integer BILINEAR resize with a truncating division by
  // scale_n (arith.divsi) where TOSA divides with floor: for y = oy *
  // scale_d + offset < 0 it extrapolates from rows 0 and 1 instead of
  // clamping to row 0, i.e. wrong values along the top/left border whenever
  // an offset is negative. (The float lowering uses floor division; nearest
  // neighbour picks the same pixel either way.)
  if (auto resize = dyn_cast<tosa::ResizeOp>(op)) {
    if (resize.getMode() == tosa::ResizeMode::BILINEAR &&
        isa<IntegerType>(getElementTypeOrSelf(resize.getInput().getType()))) {
      auto offset = resize.getOffset().getDefiningOp<tosa::ConstShapeOp>();
      if (!offset || llvm::any_of(offset.getValues().getValues<APInt>(),
                                  [](const APInt &v) { return v.isNegative(); }))
        return "integer BILINEAR resize with a negative (or non-constant) "
               "offset: MLIR 22's lowering divides by scale_n with truncation "
               "instead of TOSA's floor division and computes wrong values at "
               "the top/left border";
    }
  }
  for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto shaped = dyn_cast<ShapedType>(t))
      if (!shaped.getElementType().isIntOrIndexOrFloat()) {
        std::string out;
        llvm::raw_string_ostream os(out);
        os << "element type " << shaped.getElementType()
           << " is not supported (quantized or other non-builtin types)";
        return out;
      }
  return "";
}

/// Tensor ops whose lowering Tessel implements; others are named in errors.
bool isAcceptedTensorOp(Operation *op) {
  return isa<tensor::EmptyOp, tensor::ExtractSliceOp, tensor::InsertSliceOp,
             tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::PadOp,
             tensor::ConcatOp, tensor::ExtractOp, tensor::YieldOp,
             tensor::FromElementsOp, tensor::SplatOp, tensor::GenerateOp,
             tensor::CastOp, tensor::DimOp, tensor::InsertOp>(op);
}

LogicalResult verifyFunctionSignature(func::FuncOp fn) {
  if (fn.isPrivate() || fn.isExternal()) {
    if (fn.isExternal())
      return fn.emitError() << "external function '" << fn.getSymName()
                            << "' is not supported: Tessel needs a body";
    return success();
  }
  bool ok = true;
  auto check = [&](Type t, StringRef what, unsigned i) {
    std::string why = unsupportedTensorReason(t, /*boundary=*/true);
    if (!why.empty()) {
      fn.emitError() << "function '" << fn.getSymName() << "' " << what << " "
                     << i << ": " << why;
      ok = false;
    }
  };
  for (auto [i, t] : llvm::enumerate(fn.getArgumentTypes()))
    check(t, "argument", i);
  for (auto [i, t] : llvm::enumerate(fn.getResultTypes()))
    check(t, "result", i);
  return success(ok);
}

/// A module parameter: a global of a static tensor type the module
/// stores, with its value (dense, dense_resource) or #ml_program.extern
/// (supplied when the module is loaded). A mutable one is state kept
/// between calls (a KV cache); without a value it starts as zeros.
LogicalResult verifyParameter(ml_program::GlobalOp global) {
  auto type = dyn_cast<RankedTensorType>(global.getType());
  std::string why = type ? unsupportedTensorReason(type, /*boundary=*/true)
                         : std::string("its type is not a ranked tensor");
  if (why.empty() && !type.hasStaticShape())
    why = "its type has a dynamic dimension";
  if (!why.empty())
    return global.emitError() << "ml_program.global @" << global.getSymName()
                              << " of type " << global.getType()
                              << " is not supported: " << why;
  std::optional<Attribute> value = global.getValue();
  if (!value && global.getIsMutable())
    return success();
  if (!value || !isa<DenseElementsAttr, DenseResourceElementsAttr,
                     ml_program::ExternAttr>(*value))
    return global.emitError()
           << "ml_program.global @" << global.getSymName()
           << " needs a dense or dense_resource value or "
              "#ml_program.extern (a parameter supplied at load time)";
  // #ml_program.extern's own type is not checked by MLIR 22 (it parses
  // with none): the global's type is the one that counts.
  if (!isa<ml_program::ExternAttr>(*value) &&
      cast<TypedAttr>(*value).getType() != type)
    return global.emitError() << "ml_program.global @" << global.getSymName()
                              << ": its value's type "
                              << cast<TypedAttr>(*value).getType()
                              << " differs from the global's type " << type;
  return success();
}

} // namespace

namespace mlir::tessel {

/// Emits a diagnostic for every construct of `module` that Tessel does not
/// support and fails if there was any.
LogicalResult verifyInputProgram(ModuleOp module) {
  bool ok = true;
  bool anyPublic = false;
  for (Operation &top : module.getBody()->getOperations()) {
    if (auto global = dyn_cast<ml_program::GlobalOp>(&top)) {
      ok &= succeeded(verifyParameter(global));
      continue;
    }
    auto fn = dyn_cast<func::FuncOp>(&top);
    if (!fn) {
      top.emitError() << "'" << top.getName()
                      << "' is not supported at module level (expected "
                         "func.func or ml_program.global)";
      ok = false;
      continue;
    }
    anyPublic |= fn.isPublic();
    ok &= succeeded(verifyFunctionSignature(fn));
  }
  // Pre-order, so that an unsupported op is named rather than its body.
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == module.getOperation() || isa<func::FuncOp>(op))
      return WalkResult::advance();
    if (op->getParentOp() == module.getOperation())
      return WalkResult::skip(); // reported above as a non-function
    if (!isAcceptedDialect(op) ||
        (op->getDialect()->getNamespace() == "tensor" &&
         !isAcceptedTensorOp(op))) {
      op->emitError() << "unsupported op '" << op->getName()
                      << "': Tessel accepts func, linalg, tensor (empty, "
                         "extract, insert, extract_slice, insert_slice, "
                         "expand_shape, collapse_shape, pad, concat, "
                         "from_elements, splat, generate), arith, math, tosa, "
                         "the tessel ops (scan, gather, scatter, sort, "
                         "topk, arg_compare, attention) and, in function "
                         "bodies, scf.if, scf.for, scf.while, cf.assert and "
                         "ml_program.global_load_const, global_load and "
                         "global_store";
      ok = false;
      return WalkResult::skip();
    }
    if (op->getDialect()->getNamespace() == "tosa") {
      std::string why = unsupportedTosaReason(op);
      if (!why.empty()) {
        op->emitError() << "unsupported op '" << op->getName() << "': " << why;
        ok = false;
        return WalkResult::skip();
      }
    }
    for (Type t : op->getResultTypes()) {
      std::string why = unsupportedTensorReason(t, /*boundary=*/false);
      if (!why.empty()) {
        op->emitError() << "'" << op->getName() << "': " << why;
        ok = false;
      }
    }
    return WalkResult::advance();
  });
  if (ok && !anyPublic)
    return module.emitError()
           << "no public func.func to compile: Tessel compiles each public "
              "function into an entry point";
  return success(ok);
}

namespace {
struct VerifyInputPass : impl::VerifyInputBase<VerifyInputPass> {
  void runOnOperation() override {
    if (failed(verifyInputProgram(getOperation())))
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
