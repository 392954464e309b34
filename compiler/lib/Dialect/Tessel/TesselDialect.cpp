//===- TesselDialect.cpp - Tessel dialect ----------------------*- C++ -*-===//

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
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
  if (TypeRange(type.getInputs()) != TypeRange(getInputs().getTypes()) ||
      TypeRange(type.getResults()) != TypeRange(getResults().getTypes()))
    return emitOpError() << "operand/result types do not match callee type "
                         << type;
  return success();
}

static int64_t dynamicDimCount(TypeRange types) {
  int64_t n = 0;
  for (Type t : types)
    n += cast<RankedTensorType>(t).getNumDynamicDims();
  return n;
}

LogicalResult DispatchOp::verify() {
  int64_t expected = dynamicDimCount(getInputs().getTypes()) +
                     dynamicDimCount(getResults().getTypes());
  if (static_cast<int64_t>(getDims().size()) != expected)
    return emitOpError() << "has " << getDims().size() << " dims but its "
                         << "operands and results have " << expected
                         << " dynamic dimensions";
  return success();
}

ValueRange DispatchOp::getResultDims() {
  return getDims().take_back(dynamicDimCount(getResults().getTypes()));
}

/// A check that holds whatever the inputs (equal dimensions of one value)
/// goes away.
LogicalResult AssertOp::canonicalize(AssertOp op, PatternRewriter &rewriter) {
  if (!matchPattern(op.getCondition(), m_One()))
    return failure();
  rewriter.eraseOp(op);
  return success();
}

#define GET_OP_CLASSES
#include "tessel/Dialect/Tessel/TesselOps.cpp.inc"
