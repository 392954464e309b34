//===- OutlineParameters.cpp - tessel-outline-parameters --------*- C++ -*-===//
//
// A model's weights arrive as tensor constants. Cloned into the kernels
// that read them they become PTX text or cpu code, once per kernel and per
// architecture (HF DistilBERT's 7 MB of weights made an 82 MB module), and
// no two layers share a kernel. As module parameters they are stored once,
// uploaded once per device, and reach the kernels as operands.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"
#include "tessel/Target/ModuleWriter.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_OUTLINEPARAMETERS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Whether `op` is in a host program: a function body or host control flow
/// in one (not a computation's region).
bool inHostProgram(Operation *op) {
  Operation *parent = op->getParentOp();
  while (isa<scf::IfOp, scf::ForOp, scf::WhileOp>(parent))
    parent = parent->getParentOp();
  return isa<func::FuncOp>(parent);
}

/// The bytes of `value` if it should become a parameter: a non-splat dense
/// tensor of a storable element type.
std::optional<int64_t> parameterBytes(Attribute value) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || !isa<DenseElementsAttr, DenseResourceElementsAttr>(value))
    return std::nullopt;
  if (auto dense = dyn_cast<DenseElementsAttr>(value); dense && dense.isSplat())
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(elements.getType());
  if (!type || !type.hasStaticShape() ||
      !isModuleElementType(type.getElementType()))
    return std::nullopt;
  int64_t width =
      std::max<int64_t>(1, type.getElementType().getIntOrFloatBitWidth() / 8);
  return type.getNumElements() * width;
}

struct OutlineParametersPass
    : tessel::impl::OutlineParametersBase<OutlineParametersPass> {
  using OutlineParametersBase::OutlineParametersBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<arith::ConstantOp> constants;
    module.walk([&](arith::ConstantOp op) {
      std::optional<int64_t> bytes = parameterBytes(op.getValue());
      if (bytes && *bytes >= minBytes && inHostProgram(op))
        constants.push_back(op);
    });
    SymbolTable symbols(module);
    DenseMap<Attribute, ml_program::GlobalOp> globals;
    OpBuilder moduleBuilder = OpBuilder::atBlockBegin(module.getBody());
    for (arith::ConstantOp op : constants) {
      ml_program::GlobalOp &global = globals[op.getValue()];
      if (!global) {
        global = ml_program::GlobalOp::create(
            moduleBuilder, op.getLoc(),
            "const_" + std::to_string(globals.size() - 1), op.getType(),
            /*is_mutable=*/false, op.getValue(),
            moduleBuilder.getStringAttr("private"));
        symbols.insert(global); // renamed if the name is taken
      }
      OpBuilder b(op);
      Value load = ml_program::GlobalLoadConstOp::create(
          b, op.getLoc(), op.getType(),
          FlatSymbolRefAttr::get(global.getSymNameAttr()));
      op.replaceAllUsesWith(load);
      op.erase();
    }
  }
};

} // namespace
