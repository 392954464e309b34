//===- TesselDialect.cpp - Tessel dialect ----------------------*- C++ -*-===//

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tessel;

#include "tessel/Dialect/Tessel/TesselDialect.cpp.inc"

void TesselDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tessel/Dialect/Tessel/TesselOps.cpp.inc"
      >();
  registerAttributes();
}

LogicalResult DispatchOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto fn = symbols.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!fn)
    return emitOpError() << "refers to unknown function " << getCalleeAttr();
  if (!fn->hasAttr(kDispatchFunctionAttr))
    return emitOpError() << "callee " << getCalleeAttr()
                         << " is not marked " << kDispatchFunctionAttr;
  // Once codegen gave the callee its kernel signature, the tensor types live
  // only at the call site.
  if (fn->hasAttr(kKernelAttr))
    return success();
  FunctionType type = fn.getFunctionType();
  if (TypeRange(type.getInputs()) != TypeRange(getOperands().getTypes()) ||
      TypeRange(type.getResults()) != TypeRange(getResults().getTypes()))
    return emitOpError() << "operand/result types do not match callee type "
                         << type;
  return success();
}

#define GET_OP_CLASSES
#include "tessel/Dialect/Tessel/TesselOps.cpp.inc"
