//===- ScanGroups.cpp - a scan and its elementwise neighbours --*- C++ -*-===//
//
// See ScanGroups.h.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dispatch/ScanGroups.h"

#include "tessel/Dialect/Tessel/PrimitiveContract.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

bool isScanElement(Type e) { return e.isF32() || e.isSignlessInteger(32); }

/// A scatter of single elements of a 1-D row: updates and indices of the
/// row's shape (depth 1), 32- or 64-bit elements (atomics), into an empty
/// destination (nothing to write before the updates land).
bool isRowScatter(ScatterOp scatter, ArrayRef<int64_t> shape) {
  if (shape.size() != 1 || shapeOf(scatter.getUpdates()) != shape ||
      shapeOf(scatter.getIndices()) != shape ||
      scatter.getDimensionMap().size() != 1 ||
      shapeOf(scatter.getOriginal()).size() != 1 ||
      !scatter.getOriginal().getDefiningOp<tensor::EmptyOp>())
    return false;
  Type e = getElementTypeOrSelf(scatter.getOriginal().getType());
  Type idx = getElementTypeOrSelf(scatter.getIndices().getType());
  std::string why;
  return (e.isIntOrFloat() && (e.getIntOrFloatBitWidth() == 32 ||
                               e.getIntOrFloatBitWidth() == 64)) &&
         (idx.isIndex() || idx.isSignlessInteger()) &&
         isScalarCombiner(scatter.getRegion(), why);
}

} // namespace

bool mlir::tessel::isRowElementwise(linalg::GenericOp op,
                                    ArrayRef<int64_t> shape) {
  if (op.getNumLoops() != shape.size() || op.getNumReductionLoops() != 0 ||
      !op.hasPureTensorSemantics())
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!type || type.getShape() != shape ||
        !op.getMatchingIndexingMap(&operand).isIdentity())
      return false;
  }
  for (OpOperand &init : op.getDpsInitsMutable())
    if (!op.getMatchingBlockArgument(&init).use_empty())
      return false;
  for (Operation &inner : op.getBody()->without_terminator()) {
    StringRef ns = inner.getDialect() ? inner.getDialect()->getNamespace() : "";
    if (!(ns == "arith" || ns == "math" || isa<linalg::IndexOp>(inner)) ||
        inner.getNumRegions() != 0)
      return false;
  }
  return true;
}

SmallVector<Operation *> ScanGroup::ops() const {
  SmallVector<Operation *> out;
  if (producer)
    out.push_back(producer);
  out.push_back(scan);
  for (linalg::GenericOp c : consumers)
    out.push_back(c);
  if (scatter)
    out.push_back(scatter);
  return out;
}

SmallVector<Value> ScanGroup::elementValues() const {
  SmallVector<Value> out;
  if (producer)
    out.push_back(producer->getResult(0));
  out.push_back(scan->getResult(0));
  for (linalg::GenericOp c : consumers)
    llvm::append_range(out, c->getResults());
  return out;
}

std::string
mlir::tessel::scanGroupBlocker(ScanOp scan,
                               llvm::function_ref<bool(Value)> isExternal) {
  auto type = cast<RankedTensorType>(scan.getInput().getType());
  if (!isScanElement(type.getElementType()))
    return "element type is not f32 or i32";
  if (scan.getDimension() != type.getRank() - 1)
    return "scans a dimension that is not the innermost";
  if (type.getShape().back() == 0)
    return "the scanned dimension is empty";
  std::string why;
  if (!isScalarCombiner(scan.getRegion(), why))
    return why;
  if (!scan.getInclusive()) {
    // A constant fill, or values from memory (copied into the result in a
    // kernel).
    Value init = scan.getAccumulator();
    auto fill = init.getDefiningOp<linalg::FillOp>();
    auto copy = init.getDefiningOp<linalg::CopyOp>();
    bool seeded =
        (fill && fill.getInputs()[0].getDefiningOp<arith::ConstantOp>()) ||
        (copy && isExternal(copy.getInputs()[0])) || isExternal(init);
    if (!seeded)
      return "the exclusive scan's seed is neither a constant nor read from "
             "memory";
  }
  return "";
}

ScanGroup mlir::tessel::findScanGroup(
    ScanOp scan, llvm::function_ref<bool(Value)> isExternal) {
  ScanGroup group;
  group.scan = scan;
  ArrayRef<int64_t> shape = shapeOf(scan.getInput());
  if (auto producer = scan.getInput().getDefiningOp<linalg::GenericOp>();
      producer && producer->getBlock() == scan->getBlock() &&
      producer->getNumResults() == 1 && isRowElementwise(producer, shape) &&
      llvm::all_of(producer.getDpsInputs(), isExternal))
    group.producer = producer;
  DenseSet<Value> computed;
  for (Value v : group.elementValues())
    computed.insert(v);
  auto readsGroup = [&](ValueRange operands) {
    return llvm::any_of(operands, [&](Value v) { return computed.count(v); });
  };
  auto readable = [&](ValueRange operands) {
    return llvm::all_of(operands, [&](Value v) {
      return computed.count(v) || isExternal(v);
    });
  };
  for (Operation *op = scan->getNextNode(); op; op = op->getNextNode()) {
    if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
      if (isRowElementwise(generic, shape) &&
          readsGroup(generic.getDpsInputs()) &&
          readable(generic.getDpsInputs())) {
        group.consumers.push_back(generic);
        for (Value r : generic->getResults())
          computed.insert(r);
      }
      continue;
    }
    auto scatter = dyn_cast<ScatterOp>(op);
    if (!scatter || group.scatter || !isRowScatter(scatter, shape))
      continue;
    // The workspace (a third input), if any, is not read by this kernel.
    SmallVector<Value, 2> read{scatter.getUpdates(), scatter.getIndices()};
    if (readsGroup(read) && readable(read))
      group.scatter = scatter;
  }
  return group;
}
